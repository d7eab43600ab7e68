/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ratio_ci.h - a ratio of two figures' medians with a 95% confidence
 * interval computed from their samples, and what the interval allows one
 * to say of it.
 *
 * The interval is a percentile bootstrap of the ratio of block medians:
 * each resample draws na blocks from a's samples and nb from b's, with
 * replacement, independently (the two figures are separate runs of
 * blocks), and takes median(a*) / median(b*).  Medians because every
 * figure is a median: a block can only be slowed (an interrupt, a
 * preemption), which drags a mean and its variance with it but not a
 * median, so Fieller's interval for a ratio of means would be the interval
 * of another, less robust, figure.  The generator is seeded with a fixed
 * seed: the same samples always give the same interval.
 */
#ifndef PAGEHOP_RATIO_CI_H
#define PAGEHOP_RATIO_CI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* 2000 resamples: the 2.5% and 97.5% points are the 50th and 1950th of them. */
#define RATIO_CI_RESAMPLES 2000
/* The fixed seed of every interval pagehop prints ("pagehop" in ASCII). */
#define RATIO_CI_SEED 0x70616765686f70ull

struct ratio_ci {
	double value;		/* median(a) / median(b); NAN if either is missing or b's is not > 0 */
	double lo, hi;		/* 95% interval; NAN when either side has fewer than
				 * STATS_MIN_CI_SAMPLES samples (no interval for a median either) */
};

/*
 * The ratio of a's median to b's and its interval from `resamples`
 * bootstrap resamples drawn with `seed` (splitmix64): lo is the
 * ceil(0.025 x resamples)-th smallest resampled ratio, hi the
 * ceil(0.975 x resamples)-th.  The samples are not modified.
 */
void ratio_ci_medians(const double *a, size_t na, const double *b, size_t nb, uint64_t seed,
		      int resamples, struct ratio_ci *out);

/* What an interval allows one to say of a ratio. */
enum ratio_shown {
	RATIO_NO_CI = 0,	/* no interval: too few samples */
	RATIO_NO_EFFECT,	/* the interval holds 1: no effect shown */
	RATIO_ABOVE,		/* the whole interval above 1 */
	RATIO_BELOW,		/* the whole interval below 1 */
};

/* The decimals every document prints a ratio and its bounds with. */
#define RATIO_CI_DIGITS 3
/* Which side of 1 r's interval lies on, judged on its bounds as printed. */
enum ratio_shown ratio_ci_shown(const struct ratio_ci *r);
/* "no CI (too few samples)", "no effect shown", "above 1", "below 1". */
const char *ratio_shown_name(enum ratio_shown s);

#endif
