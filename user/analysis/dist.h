/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dist.h - a distribution of samples: percentiles by a stated method and
 * a histogram of log-spaced buckets.  Pure arithmetic on sorted arrays;
 * what the samples are is the caller's to say.
 */
#ifndef PAGEHOP_DIST_H
#define PAGEHOP_DIST_H

#include <stdbool.h>
#include <stddef.h>

/* At most this many percentiles in a list. */
#define DIST_MAX_PCTS 16
/* Histogram buckets per doubling: edges at 2^(i/4), each 19% wider than the last. */
#define DIST_PER_DOUBLING 4

/* The list a bare --percentiles means. */
extern const char dist_default_percentiles[];
/* How dist_percentile() computes, for the documents. */
extern const char dist_percentile_method[];
extern const char dist_histogram_method[];
extern const char dist_percentile_ci_method[];

/*
 * A comma-separated list of percentiles, each a decimal in (0, 100],
 * strictly ascending, at most max of them: "50,90,99,99.9".  The count, or
 * -EINVAL with why (what is wrong, for "--percentiles: <why>").
 */
int dist_parse_percentiles(const char *s, double *out, int max, char *why, size_t whysize);

/*
 * The p-th percentile (0 <= p <= 100) of sorted[0..n), ascending, by linear
 * interpolation between the closest ranks (Hyndman and Fan's type 7, the
 * default of R and numpy): h = (n - 1) p / 100, x[floor h] + (h - floor h)
 * (x[floor h + 1] - x[floor h]), ranks from 0.  NAN if n is 0.
 */
double dist_percentile(const double *sorted, size_t n, double p);

/*
 * A distribution-free 95% CI for the p-th percentile (0 < p < 100) of
 * sorted[0..n): the count of samples below the true percentile is
 * binomial (n, p/100), so its interval n q -+ 1.96 sqrt(n q (1 - q))
 * (q = p/100), widened outward to whole ranks, gives the samples at the
 * CI's ends: *lo = sorted[floor(n q - z s)], *hi = sorted[ceil(n q + z s)].
 * A tail is only claimed with at least DIST_TAIL_BEYOND runs beyond it
 * (n (1 - q) >= 10: 1000 runs for p99) and both ends inside the samples;
 * otherwise -ERANGE, *lo and *hi NAN.  0 on success.
 */
#define DIST_TAIL_BEYOND 10
int dist_percentile_ci(const double *sorted, size_t n, double p, double *lo, double *hi);
/* The runs a tail needs: the smallest n with n (1 - p/100) >= DIST_TAIL_BEYOND. */
size_t dist_tail_runs(double p);
/*
 * Why dist_percentile_ci gives no CI for p over n samples, into buf (and
 * returned): p 100 is the largest sample, too few runs for the tail (how
 * many it needs), or too few below p for the CI's lower end.
 */
const char *dist_ci_why(size_t n, double p, char *buf, size_t size);

/*
 * Samples that come in clusters (runs taken together, a batch after each
 * block) are not independent: a run is like the runs of its batch, and a
 * CI from ranks over every run is too narrow when the batches differ (on a
 * virtual machine the hypervisor moves the vCPUs between batches).  The
 * cluster bootstrap resamples whole clusters: DIST_CLUSTER_RESAMPLES times,
 * nclusters clusters drawn with replacement (a fixed seed, so the same
 * samples give the same CI), the p-th percentile (type 7, as
 * dist_percentile) of the runs they hold, each drawn cluster's runs
 * counted as often as it was drawn; *lo and *hi are the 2.5th and 97.5th
 * percentiles of those.  sorted[0..n) ascending, cluster[i] the cluster
 * (0..nclusters-1) of sorted[i].  -ERANGE (and NAN) with fewer than
 * DIST_MIN_CLUSTERS clusters or p outside [0, 100]; 0 on success.
 */
#define DIST_CLUSTER_RESAMPLES 400
#define DIST_MIN_CLUSTERS 6
extern const char dist_cluster_ci_method[];
int dist_cluster_ci(const double *sorted, const unsigned *cluster, size_t n, unsigned nclusters,
		    double p, double *lo, double *hi);

/* The column name of percentile p with unit: "p50_ns", "p99.9_ns". */
const char *dist_pct_name(double p, const char *unit, char *buf, size_t size);

struct dist_bucket {
	double lo, hi;		/* [lo, hi); the bucket of samples <= 0 is [min, 0] */
	size_t count;
};

/*
 * Log-spaced buckets over sorted[0..n), ascending: [2^(i/k), 2^((i+1)/k))
 * for k = per_doubling, every i from the smallest sample's to the largest's
 * (empty ones between included, so that the buckets tile the range), and
 * before them one bucket [min, 0] when some samples are not positive.
 * The counts add up to n.  *out is allocated (free it); the number of
 * buckets, 0 when n is 0 (*out then NULL).
 */
size_t dist_histogram(const double *sorted, size_t n, unsigned per_doubling,
		      struct dist_bucket **out);

#endif
