// SPDX-License-Identifier: GPL-2.0-only
/*
 * chase_timed.c - runs of a few dependent hops, each bracketed by TSC
 * reads: the samples of a latency distribution.
 *
 * The other loops never read a clock: their caller times a whole block.
 * A distribution needs one reading per short run, between runs, so here
 * the loop itself reads the TSC; it converts and judges nothing (the
 * caller subtracts the brackets' own cost, measured by the same loop with
 * no hops, and says what the figures are: user/service/latdist.c).
 */
#include "chase.h"
#include "tsc.h"

#if !defined(__x86_64__)
#error "the timed chase in kernels/chase_timed.c is written for x86-64"
#endif

void chase_walk_timed(void **p, unsigned k, uint64_t hops, uint64_t *ticks, size_t nruns)
{
	for (size_t i = 0; i < nruns; i++) {
		uint64_t t0 = tsc_begin();

		chase_walk(p, k, hops);
		ticks[i] = tsc_end() - t0;
	}
}
