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

#if !defined(__x86_64__)
#error "the timed chase in kernels/chase_timed.c is written for x86-64"
#endif

/*
 * lfence before rdtsc: the loads before it have completed; lfence after:
 * the hops do not start before the read.  rdtscp at the end waits for the
 * hops' loads, the lfence after it keeps the next run's read behind it.
 * The same brackets as user/service/clock.h's tsc_begin()/tsc_end(), which
 * the loops cannot include.
 */
static inline uint64_t timed_begin(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi) :: "memory");
	return ((uint64_t)hi << 32) | lo;
}

static inline uint64_t timed_end(void)
{
	uint32_t lo, hi, aux;

	__asm__ __volatile__("rdtscp\n\tlfence" : "=a"(lo), "=d"(hi), "=c"(aux) :: "memory");
	return ((uint64_t)hi << 32) | lo;
}

void chase_walk_timed(void **p, unsigned k, uint64_t hops, uint64_t *ticks, size_t nruns)
{
	for (size_t i = 0; i < nruns; i++) {
		uint64_t t0 = timed_begin();

		chase_walk(p, k, hops);
		ticks[i] = timed_end() - t0;
	}
}
