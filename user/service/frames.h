/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * frames.h - the physical frames behind this process's memory, for a study
 * that groups memory by physical address (pagehop scan): read through
 * pagehop.ko's QUERY, or /proc/self/pagemap without it (root), as runs
 * contiguous in both address spaces; and a view of such runs, in an order
 * of the caller's, moved (mremap) into one contiguous virtual range so
 * that the measuring services, which take one segment, walk exactly them.
 */
#ifndef PAGEHOP_FRAMES_H
#define PAGEHOP_FRAMES_H

#include <stddef.h>
#include <stdint.h>

#include "kmod.h"

struct ph_frame_run {
	uint64_t addr;		/* virtual start */
	uint64_t phys;		/* physical start (bytes) */
	uint64_t len;		/* bytes, contiguous in both */
	uint64_t leaf;		/* the leaves' size: 4 KiB, 2 MiB or 1 GiB */
};

/*
 * Append the runs of [addr, addr + len) to *runs (*n of them, grown with
 * xappend), holes left out; method says how they were read.  A run never
 * crosses a multiple of split bytes of physical address (0: no split).
 * 0 or -errno (-EPERM: pagemap hides frames from a caller without
 * CAP_SYS_ADMIN).
 */
int frames_read(struct ph_kmod *km, const void *addr, uint64_t len, uint64_t split,
		struct ph_frame_run **runs, int *n, char *method, size_t mlen);

/*
 * Sort runs[0..n) by leaf size, largest first, then by physical address:
 * laid out in that order from an aligned base every leaf stays aligned.
 */
void frames_sort(struct ph_frame_run *runs, int n);

/*
 * Move runs[0..n), in their order, to one new range of their total length
 * aligned to the largest leaf; every run's addr becomes its new address.
 * Every leaf of the view is faulted in before it is returned (a moved
 * pagehop.ko mapping is empty until touched), so that its frames read back
 * whole.  The view, or NULL with errno (a run that would not move: the
 * range is unmapped and the runs that moved are gone with it).  Unmapping the view
 * (munmap, the total length) frees anonymous memory, and ends the
 * mapping of a pagehop.ko buffer's pages (FREE still releases them).
 */
void *frames_view(struct ph_frame_run *runs, int n, uint64_t *total);

#endif
