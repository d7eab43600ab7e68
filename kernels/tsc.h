/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tsc.h - TSC reads ordered against the code they bracket: lfence before
 * rdtsc so earlier loads have completed, rdtscp + lfence at the end so
 * later code does not start early (Intel's "How to Benchmark Code
 * Execution Times").  Here, below everything, so that the timed chase
 * (chase_timed.c) and the command's clock (user/service/clock.h) read the
 * TSC the same way from one copy.
 */
#ifndef PAGEHOP_TSC_H
#define PAGEHOP_TSC_H

#include <stdint.h>

static inline uint64_t tsc_begin(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi) :: "memory");
	return ((uint64_t)hi << 32) | lo;
}

static inline uint64_t tsc_end(void)
{
	uint32_t lo, hi, aux;

	__asm__ __volatile__("rdtscp\n\tlfence" : "=a"(lo), "=d"(hi), "=c"(aux) :: "memory");
	return ((uint64_t)hi << 32) | lo;
}

#endif
