/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfbenefit.h - what prefetching is worth, from the prefetch study's
 * medians: the benefit of the hardware prefetchers (random over sequential
 * latency: how much of a memory access they hide when they can predict it)
 * and the gain of software prefetch (read bandwidth with prefetcht0 over
 * without).  Free of I/O, so that it is tested on fixed inputs.
 */
#ifndef PAGEHOP_PFBENEFIT_H
#define PAGEHOP_PFBENEFIT_H

struct pf_benefit {
	double random_ns, seq_ns;	/* NAN where not measured (not above 0) */
	double benefit;			/* random_ns / seq_ns; NAN unless both */
	double read_GBps;		/* as measured: 0 if it was not */
	double read_swpf_GBps;		/* as measured: 0 if it was not */
	double swpf_gain;		/* read_swpf / read; NAN unless read > 0 */
};

/*
 * From one prefetcher state's medians: random and sequential chase latency
 * (0: that pattern was not measured), read bandwidth without and with
 * software prefetch (0: not measured).
 */
void pf_benefit_of(double random_ns, double seq_ns, double read_GBps,
		   double read_swpf_GBps, struct pf_benefit *out);

#endif
