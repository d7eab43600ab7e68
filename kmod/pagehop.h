/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pagehop.h - what every part of pagehop.ko shares: the ABI, the kernel
 * differences, the warning, the layout of mmap offsets and the state of one
 * open /dev/pagehop.  Each part declares what it offers the others in a
 * header of its own (pagehop_buf.h for pagehop_buf.c, and so on), so that
 * the includes of a file say which parts it uses.
 */
#ifndef _PAGEHOP_H
#define _PAGEHOP_H

#include <linux/build_bug.h>
#include <linux/ratelimit.h>
#include <linux/sched.h>
#include <linux/types.h>
#include <linux/xarray.h>

#include <uapi/pagehop.h>

#include "pagehop_compat.h"

/*
 * User-triggerable failures are logged rate-limited with the caller's name;
 * the errno is what the caller acts on, the log line is for the admin.
 */
#define pagehop_warn(fmt, ...) \
	pr_warn_ratelimited("%s[%d]: " fmt, current->comm, \
			    task_pid_nr(current), ##__VA_ARGS__)

/*
 * A buffer's mmap offset is its id shifted by PAGEHOP_OFF_SHIFT, so every
 * buffer has a 1 TiB window of file offsets, aligned to 1 GiB for the huge
 * page alignment arithmetic of ->get_unmapped_area.
 */
#define PAGEHOP_OFF_SHIFT	40
#define PAGEHOP_BUF_MAX		(1ULL << PAGEHOP_OFF_SHIFT)
#define PAGEHOP_ID_MAX		((1U << 20) - 1)

/*
 * Above the id, from bit PAGEHOP_MMAP_XLATE_SHIFT (uapi), the translation a
 * mapping asked for; it stays in the VMA's vm_pgoff through splits and
 * mremap, so each VMA knows its own.
 */
static_assert(PAGEHOP_OFF_SHIFT + 20 == PAGEHOP_MMAP_XLATE_SHIFT);

static inline u32 pagehop_off_id(u64 off)
{
	return (off >> PAGEHOP_OFF_SHIFT) & PAGEHOP_ID_MAX;
}

static inline u32 pagehop_off_xlate(u64 off)
{
	return off >> PAGEHOP_MMAP_XLATE_SHIFT;
}

/* The state of one open /dev/pagehop. */
struct pagehop_file {
	struct xarray bufs;		/* id -> struct pagehop_buf, under its xa_lock */
	unsigned long *pf_set;		/* prefetcher registers this fd holds a
					 * reference to (pagehop_pfstate slots) */
};

#endif /* _PAGEHOP_H */
