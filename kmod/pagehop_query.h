/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pagehop_query.h - QUERY (pagehop_query.c).
 */
#ifndef _PAGEHOP_QUERY_H
#define _PAGEHOP_QUERY_H

#include <linux/compiler_types.h>

long pagehop_ioc_query(void __user *arg);

#endif /* _PAGEHOP_QUERY_H */
