/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pagehop_chase.h - CHASE (pagehop_chase.c).
 */
#ifndef _PAGEHOP_CHASE_H
#define _PAGEHOP_CHASE_H

#include <linux/compiler_types.h>

struct pagehop_file;

long pagehop_ioc_chase(struct pagehop_file *pf, void __user *arg);

#endif /* _PAGEHOP_CHASE_H */
