// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfbenefit.c - the prefetch study's ratios and their intervals
 * (pfbenefit.h).
 */
#include "pfbenefit.h"

static void ratio(const struct pf_samples *a, const struct pf_samples *b, struct ratio_ci *out)
{
	ratio_ci_medians(a->v, a->n, b->v, b->n, RATIO_CI_SEED, RATIO_CI_RESAMPLES, out);
}

void pf_benefit_of(const struct pf_samples *random, const struct pf_samples *seq,
		   const struct pf_samples *read, const struct pf_samples *read_swpf,
		   struct pf_benefit *out)
{
	ratio(random, seq, &out->random_over_seq);
	ratio(read_swpf, read, &out->swpf_gain);
}

void pf_state_ratios_of(const struct pf_samples *seq_found, const struct pf_samples *seq_off,
			const struct pf_samples *read_found, const struct pf_samples *read_off,
			struct pf_state_ratios *out)
{
	ratio(seq_off, seq_found, &out->seq_off_over_found);
	ratio(read_found, read_off, &out->read_found_over_off);
}
