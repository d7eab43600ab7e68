/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * touch.h - fault every page of a buffer in before it is measured, on the
 * CPUs of the buffer's node, all of them at once, each over a range of its
 * own.
 */
#ifndef PAGEHOP_TOUCH_H
#define PAGEHOP_TOUCH_H

#include <signal.h>
#include <stdint.h>

#include "pagesize.h"

/*
 * Write every page of [addr, addr + bytes) once, so that all of it is
 * allocated now, under the memory policy already set on the range (mbind:
 * the policy, not the CPU that touches, picks the node).  bytes is a
 * multiple of ps's page size (THP: of 2 MiB).  The work is split into
 * contiguous ranges of whole pages, one per CPU of node this process may
 * run on (all it may with node -1, or when the node has none); buffers
 * under TOUCH_PER_THREAD bytes a CPU are touched by fewer threads, down
 * to the caller alone.  Each range is faulted in with
 * madvise(MADV_POPULATE_WRITE) in chunks (one system call instead of a
 * trap per page), or, where the kernel or the mapping refuses that (before
 * Linux 5.14; pagehop.ko's VM_PFNMAP buffers), by writing one byte a page.
 * The time goes to the touch phase (phases.h).
 *
 * 0; -ENOMEM when a fault found no page (a hugetlb pool short on the
 * bound node: SIGBUS, caught); -EINTR once *cancel is non-zero (checked
 * between chunks; NULL: never).  *threads (may be NULL) is how many
 * threads touched.
 */
int touch_memory(void *addr, uint64_t bytes, enum ph_psize ps, int node,
		 const volatile sig_atomic_t *cancel, int *threads);

/* Below this many bytes a thread, another thread costs more than it saves. */
#define TOUCH_PER_THREAD (64ull << 20)

#endif
