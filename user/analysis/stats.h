/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * stats.h - the statistics every figure is reported with: minimum, median,
 * and a distribution-free 95% confidence interval of the median.
 */
#ifndef PAGEHOP_STATS_H
#define PAGEHOP_STATS_H

#include <stdbool.h>
#include <stddef.h>

/* Fewest samples for which the median's 95% interval exists. */
#define STATS_MIN_CI_SAMPLES 6

struct ph_stats {
	size_t n;
	double min, max, median, mean;
	double ci_lo, ci_hi;	/* 95% CI of the median; NAN if n < 6 */
	double ci_rel;		/* (ci_hi - ci_lo) / 2 / median; INFINITY if none */
};

/*
 * The ranks (1-based, in sorted order) bounding the median's 95% interval
 * for n samples: the largest j with P(B <= j - 1) <= 0.025, B ~ Bin(n, 1/2),
 * and k = n + 1 - j.  Exact for n <= 1000, the normal approximation above.
 * Returns false if n is too small for any interval (n < 6).
 */
bool stats_median_ci_ranks(size_t n, size_t *j, size_t *k);

/* The MAD scaled to the standard deviation of a normal distribution. */
#define STATS_MAD_TO_SIGMA 1.4826

/* The median of v[0..n), which it sorts; NAN if n is 0. */
double stats_median_of(double *v, size_t n);

/*
 * The median of v[0..n) and its MAD (median absolute deviation) in *mad;
 * v is overwritten (sorted, then the deviations).  NAN for both if n is 0.
 */
double stats_median_mad(double *v, size_t n, double *mad);

/*
 * The robust-outlier rule of pagehop compare and pagehop scan: x strays
 * from a group of median med and MAD mad when it lies both beyond k robust
 * sigmas (k * STATS_MAD_TO_SIGMA * mad) of the median and beyond tol, a
 * fraction of the median (|x - med| / med > tol), on either side.  The
 * sigmas keep a noisy group from flagging its noise, the tolerance keeps a
 * tight group from flagging differences too small to matter.  Never with
 * tol NAN (no tolerance for the figure), or a median not above 0 (no
 * fraction to judge by).
 */
bool stats_strays(double x, double med, double mad, double k, double tol);

/* Compute over n samples (not modified). */
void stats_compute(const double *samples, size_t n, struct ph_stats *out);

#endif
