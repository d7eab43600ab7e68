// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfbenefit.c - what prefetching is worth: the prefetch study's arithmetic.
 */
#include "pfbenefit.h"

#include <math.h>

void pf_benefit_of(double random_ns, double seq_ns, double read_GBps,
		   double read_swpf_GBps, struct pf_benefit *out)
{
	out->random_ns = random_ns > 0 ? random_ns : NAN;
	out->seq_ns = seq_ns > 0 ? seq_ns : NAN;
	out->benefit = random_ns > 0 && seq_ns > 0 ? random_ns / seq_ns : NAN;
	out->read_GBps = read_GBps;
	out->read_swpf_GBps = read_swpf_GBps;
	/* A prefetching read cut short (0) against a plain one is a gain of 0, as measured. */
	out->swpf_gain = read_GBps > 0 ? read_swpf_GBps / read_GBps : NAN;
}
