/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pagehop_prefetch.h - PREFETCH, and putting the prefetchers back when an
 * fd or the module goes (pagehop_prefetch.c).
 */
#ifndef _PAGEHOP_PREFETCH_H
#define _PAGEHOP_PREFETCH_H

#include <linux/compiler_types.h>
#include <linux/types.h>

struct pagehop_file;

int pagehop_prefetch_init(void);
void pagehop_prefetch_exit(void);
bool pagehop_prefetch_supported(void);
long pagehop_ioc_prefetch(struct pagehop_file *pf, void __user *arg);
void pagehop_prefetch_release(struct pagehop_file *pf);

#endif /* _PAGEHOP_PREFETCH_H */
