/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pagehop_uapi.h - copying the ABI's versioned structs in and out
 * (pagehop_uapi.c).
 */
#ifndef _PAGEHOP_UAPI_H
#define _PAGEHOP_UAPI_H

#include <linux/compiler_types.h>
#include <linux/types.h>

int pagehop_copy_in(void *k, size_t ksize, void __user *arg, u32 *usize);
int pagehop_copy_in_min(void *k, size_t ksize, size_t kmin, void __user *arg, u32 *usize);
int pagehop_copy_out(void __user *arg, const void *k, size_t ksize, u32 usize);

#endif /* _PAGEHOP_UAPI_H */
