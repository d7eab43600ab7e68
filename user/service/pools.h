/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pools.h - the hugetlb pools that 2M and 1G buffers are taken from: does a
 * node's pool hold what a buffer needs, growing it for --reserve, and
 * putting every pool that was grown back afterwards, also after a crash.
 */
#ifndef PAGEHOP_POOLS_H
#define PAGEHOP_POOLS_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pagesize.h"

/*
 * Make sure node's pool of ps pages (PH_PS_2M or PH_PS_1G) has need free
 * pages.  0, or -errno with a one-line reason in why: -EOPNOTSUPP no such
 * pool, -ENOMEM too few pages (and, without reserve, how to reserve them),
 * -EPERM growing a pool needs root, -EINTR *cancel was set (cancel may be
 * NULL).
 *
 * With reserve, a pool that is short is grown, and put back by
 * pools_restore().  --reserve runs take turns: the first look at a pool
 * takes /run/pagehop/reserve.lock (waiting, with a line on stderr, while
 * another run holds it) and keeps it until the pools are put back, so that
 * no run restores to a size that holds another's growth.  A growth that
 * would leave the node less than 5% free is refused.
 */
int pool_ensure(int node, enum ph_psize ps, uint64_t need, bool reserve,
		const volatile sig_atomic_t *cancel, char *why, size_t whylen);

/*
 * Put back every hugetlb pool that --reserve grew and release the lock
 * (also at exit; a crash puts them back too).  Says on stderr if a pool
 * could not be put back.
 */
void pools_restore(void);
/* The same without a word, async-signal-safe: for signal handlers. */
void pools_restore_now(void);
/*
 * Catch every signal whose default ends the process, but SIGINT, SIGTERM,
 * SIGHUP and SIGQUIT (runner_catch_sigint's) and those ignored or handled
 * already: the handler puts the pools back, then the process dies of the
 * signal as it would have.  pool_ensure calls it before growing a pool.
 * Safe to call more than once.
 */
void pools_catch_fatal(void);

#endif
