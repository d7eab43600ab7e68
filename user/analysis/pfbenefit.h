/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfbenefit.h - the ratios of the prefetch study, each from the samples of
 * the two figures it divides, with its 95% bootstrap interval (ratio_ci.h):
 *
 * - random_over_seq: random over sequential chase latency, in one
 *   prefetcher state.  It is more than the prefetchers' effect: besides
 *   the prefetchers' work it holds what else differs between the two
 *   patterns, a TLB miss on nearly every random load on small pages, and
 *   DRAM row misses.  What the prefetchers themselves hide needs them
 *   switched off (pf_state_ratios below, with pagehop.ko's control).
 * - swpf_gain: read bandwidth with prefetcht0 over without, one ISA.
 * - with control, per state with prefetchers off: the sequential chase's
 *   latency in that state over as found, and the read bandwidth as found
 *   over in that state (both above 1 where switching them off costs).
 *
 * Free of I/O, so that it is tested on fixed inputs.
 */
#ifndef PAGEHOP_PFBENEFIT_H
#define PAGEHOP_PFBENEFIT_H

#include <stddef.h>

#include "ratio_ci.h"

/* One figure's samples (ns per load, or GB/s); n = 0: not measured. */
struct pf_samples {
	const double *v;
	size_t n;
};

struct pf_benefit {
	struct ratio_ci random_over_seq;	/* NAN unless both were measured */
	struct ratio_ci swpf_gain;		/* NAN unless both reads were */
};

/* One prefetcher state's ratios. */
void pf_benefit_of(const struct pf_samples *random, const struct pf_samples *seq,
		   const struct pf_samples *read, const struct pf_samples *read_swpf,
		   struct pf_benefit *out);

/* What switching prefetchers off did, against the state as found. */
struct pf_state_ratios {
	struct ratio_ci seq_off_over_found;	/* latency: off / as found */
	struct ratio_ci read_found_over_off;	/* bandwidth: as found / off */
};

void pf_state_ratios_of(const struct pf_samples *seq_found, const struct pf_samples *seq_off,
			const struct pf_samples *read_found, const struct pf_samples *read_off,
			struct pf_state_ratios *out);

#endif
