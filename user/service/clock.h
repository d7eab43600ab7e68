/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * clock.h - the clock every timed interval is read with.  The TSC when it
 * is invariant and the kernel still trusts it; else CLOCK_MONOTONIC_RAW.
 * Which one, its frequency and where that frequency came from are part of
 * every result.
 */
#ifndef PAGEHOP_CLOCK_H
#define PAGEHOP_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "tsc.h"

struct ph_cpu;
struct ph_kmod;

struct ph_clock {
	bool use_tsc;		/* else CLOCK_MONOTONIC_RAW */
	const char *name;	/* "tsc" or "monotonic_raw" */
	double tsc_hz;		/* 0 when unknown */
	char tsc_source[192];	/* how tsc_hz was obtained */
	double calibrated_hz;	/* against CLOCK_MONOTONIC_RAW */
	double calibration_ppm;	/* spread of the calibration rounds */
	bool invariant;		/* CPUID 0x80000007 EDX bit 8 */
	bool kernel_trusts_tsc;	/* "tsc" in available_clocksource */
	char clocksource[32];	/* the kernel's current clocksource */
	char why[192];		/* why the TSC is not used; "" if it is */
	double resolution_ns;	/* smallest step seen between two reads */
};

/* Fill c; km may be NULL or not usable.  Takes about 0.1 s (calibration). */
void clock_setup(struct ph_clock *c, const struct ph_cpu *cpu,
		 const struct ph_kmod *km);

/* tsc_begin(), tsc_end(): the ordered TSC reads (kernels/tsc.h). */

/* A tick of the chosen clock: TSC cycles, or nanoseconds. */
uint64_t clock_begin(const struct ph_clock *c);
uint64_t clock_end(const struct ph_clock *c);
double clock_ticks_to_ns(const struct ph_clock *c, uint64_t ticks);

#endif
