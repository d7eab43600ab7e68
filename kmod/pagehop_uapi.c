// SPDX-License-Identifier: GPL-2.0-only
/*
 * pagehop_uapi.c - copying the ABI's versioned structs in and out.
 *
 * Every struct of include/uapi/pagehop.h starts with its size, so a struct
 * can grow at the end only; these helpers let an older or newer binary talk
 * to this module.  Every ioctl goes through them, and they call nothing
 * else of pagehop.ko.
 */
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/uaccess.h>

#include "pagehop_uapi.h"

/*
 * Copy a versioned struct in: read its leading size, refuse one shorter than
 * the first version of the struct (kmin) or absurdly long, and let
 * copy_struct_from_user() zero-fill the fields an older binary does not
 * know, or check the tail a newer one sends.  A longer struct from a newer
 * binary with non-zero fields we do not know is refused like a non-zero
 * reserved word: -EINVAL (copy_struct_from_user says -E2BIG, which the ABI
 * keeps for "over the pin cap").
 */
int pagehop_copy_in_min(void *k, size_t ksize, size_t kmin, void __user *arg, u32 *usize)
{
	int err;

	if (get_user(*usize, (u32 __user *)arg))
		return -EFAULT;
	if (*usize < kmin || *usize > PAGE_SIZE)
		return -EINVAL;
	err = copy_struct_from_user(k, ksize, arg, *usize);
	if (err == -E2BIG)
		return -EINVAL;
	return err;
}

/* A struct that has had one version so far. */
int pagehop_copy_in(void *k, size_t ksize, void __user *arg, u32 *usize)
{
	return pagehop_copy_in_min(k, ksize, ksize, arg, usize);
}

/* Copy a struct back: only as much as both sides know. */
int pagehop_copy_out(void __user *arg, const void *k, size_t ksize, u32 usize)
{
	if (copy_to_user(arg, k, min_t(size_t, ksize, usize)))
		return -EFAULT;
	return 0;
}
