/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * repeats.h - what a figure's repeats say between them.
 *
 * A figure's CI comes from the blocks of one run: it sees the noise from
 * block to block, never what stays fixed for a run and changes between
 * runs (where the pages and the line land, which cores the threads and,
 * under a hypervisor, the vCPUs run on).  Repeating the figure on fresh
 * memory and fresh threads shows that as the spread between the repeats'
 * medians.  Two repeats differ when their 95% CIs do not overlap: each
 * median is then outside the other's interval, beyond what either run's
 * noise explains.  A set that differs is bimodal when it splits into two
 * groups, each agreeing within itself, the low one's intervals all below
 * the high one's, and the groups lie at least PH_REP_BIMODAL_GAP apart:
 * the figure has (at least) two values here, and no single tight figure
 * describes it.  Repeats a few percent apart beyond their CIs are what a
 * run's blocks cannot see from run to run on one placement: they differ,
 * and their spread is the figure's uncertainty, but they are not two
 * values (c2c here: 47.0 against 48.9-49.7 ns differ; 43 against 160 ns
 * are two placements of the vCPUs).
 */
#ifndef PAGEHOP_REPEATS_H
#define PAGEHOP_REPEATS_H

#include <stdbool.h>

/*
 * Bimodal groups are apart by at least this share of the low group's
 * highest median: the high group's lowest median is >= (1 + 0.25) x it.
 */
#define PH_REP_BIMODAL_GAP 0.25

/* One repeat's figure: its median and 95% CI (NAN: the run had no interval). */
struct ph_rep {
	double median, ci_lo, ci_hi;
};

enum ph_between {
	PH_BETWEEN_ONE = 1,	/* fewer than two repeats with a median: no claim */
	PH_BETWEEN_AGREE,	/* every two repeats' CIs overlap */
	PH_BETWEEN_DIFFER,	/* some two repeats' CIs are disjoint */
	PH_BETWEEN_UNKNOWN,	/* none disjoint, but a repeat has no CI to judge by */
};

struct ph_rep_group {
	int n;			/* repeats in the group */
	double lo, hi;		/* their lowest and highest median */
};

struct ph_repeats {
	int n;			/* repeats with a median (NAN medians are left out) */
	double lo, hi;		/* the lowest and highest median; NAN when n is 0 */
	double spread;		/* hi - lo */
	double spread_pct;	/* 100 x spread / median */
	double median;		/* the median of the medians (the lower middle one when n is even) */
	int pick;		/* the index, in the input, of a repeat whose median that is; -1 */
	enum ph_between between;
	bool bimodal;		/* between is DIFFER and the set splits into two groups
				 * PH_REP_BIMODAL_GAP apart */
	struct ph_rep_group group[2];	/* low and high group when bimodal */
};

/*
 * Judge n repeats (pure: no I/O, the input is not modified).  A repeat is
 * compared only by its median and interval; the median of the medians is
 * an actual repeat's, so that the figure shown is one run with its own CI.
 * Bimodal needs every repeat's CI; the split, when there is one, is unique.
 */
void repeats_judge(const struct ph_rep *r, int n, struct ph_repeats *out);

/* "one", "agree", "differ", "unknown". */
const char *repeats_between_name(enum ph_between b);

/* True when the two intervals are both known and have no point in common. */
bool repeats_disjoint(const struct ph_rep *a, const struct ph_rep *b);

#endif
