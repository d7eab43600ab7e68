// SPDX-License-Identifier: GPL-2.0-only
/*
 * dist.c - percentiles and log-spaced histograms of sorted samples.
 */
#include "dist.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char dist_default_percentiles[] = "50,90,99,99.9";
const char dist_percentile_method[] =
	"linear interpolation between the closest ranks (Hyndman-Fan type 7, as R and numpy): h = (n-1) p/100, x[floor h] + (h - floor h)(x[floor h + 1] - x[floor h])";
const char dist_percentile_ci_method[] =
	"pP_ci_lo_ns and pP_ci_hi_ns: a distribution-free 95% CI, the samples at ranks floor(n q - 1.96 sqrt(n q (1-q))) and ceil(n q + 1.96 sqrt(n q (1-q))), q = P/100 (the count below the true percentile is binomial); cannot tell, and why in cannot_tell, with fewer than 10 samples beyond the percentile or a rank outside the samples";
const char dist_cluster_ci_method[] =
	"widened to hold the cluster bootstrap's 95% interval: the runs of a batch are taken together and are alike, so whole batches are resampled (400 times, nclusters drawn with replacement, a fixed seed), the percentile of each resample's runs taken, and the 2.5th and 97.5th of those; with fewer than 6 batches, cannot tell";
const char dist_histogram_method[] =
	"log-spaced buckets [lo_ns, hi_ns), 4 per doubling (edges 2^(i/4) ns), from the smallest sample's to the largest's, empty ones included; samples <= 0 in one bucket [min, 0] before them";

int dist_parse_percentiles(const char *s, double *out, int max, char *why, size_t whysize)
{
	const char *p = s;
	int n = 0;

	for (;;) {
		char *end;
		double v;

		/* strtod takes white space, signs, "inf" and hex: only digits and one point here. */
		if (!(*p >= '0' && *p <= '9')) {
			snprintf(why, whysize, "'%s': expected percentiles in (0, 100] separated by commas, e.g. %s",
				 s, dist_default_percentiles);
			return -EINVAL;
		}
		v = strtod(p, &end);
		if (end == p || (*end && *end != ',') || memchr(p, 'x', (size_t)(end - p)) ||
		    memchr(p, 'X', (size_t)(end - p)) || memchr(p, 'e', (size_t)(end - p)) ||
		    memchr(p, 'E', (size_t)(end - p)) || !(v > 0 && v <= 100)) {
			snprintf(why, whysize, "'%.*s' is not a percentile in (0, 100]",
				 (int)strcspn(p, ","), p);
			return -EINVAL;
		}
		if (n && v <= out[n - 1]) {
			snprintf(why, whysize, "%g after %g: the list must be ascending", v, out[n - 1]);
			return -EINVAL;
		}
		if (n == max) {
			snprintf(why, whysize, "more than %d percentiles", max);
			return -EINVAL;
		}
		out[n++] = v;
		if (!*end)
			return n;
		p = end + 1;
	}
}

double dist_percentile(const double *sorted, size_t n, double p)
{
	double h, f;
	size_t lo;

	if (!n)
		return NAN;
	h = (double)(n - 1) * p / 100;
	lo = (size_t)floor(h);
	if (lo >= n - 1)
		return sorted[n - 1];
	f = h - (double)lo;
	return sorted[lo] + f * (sorted[lo + 1] - sorted[lo]);
}

size_t dist_tail_runs(double p)
{
	double q = (100 - p) / 100;

	/* A hair below: 10 / (1 - 0.999) is 10000.0000000006 in binary. */
	return q > 0 ? (size_t)ceil(DIST_TAIL_BEYOND / q * (1 - 1e-9)) : SIZE_MAX;
}

int dist_percentile_ci(const double *sorted, size_t n, double p, double *lo, double *hi)
{
	double q = p / 100, c, s, a, b;

	*lo = *hi = NAN;
	if (!(p > 0 && p < 100) || n < dist_tail_runs(p) || n < 2)
		return -ERANGE;
	c = (double)n * q;
	s = 1.96 * sqrt(c * (1 - q));
	a = floor(c - s);
	b = ceil(c + s);
	if (a < 0 || b > (double)(n - 1))
		return -ERANGE;
	*lo = sorted[(size_t)a];
	*hi = sorted[(size_t)b];
	return 0;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* splitmix64: a fixed, portable sequence for the resampling. */
static uint64_t next_rand(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/*
 * The sample at 0-based rank r of the multiset in which sorted[i] is
 * counted w[cluster[i]] times.
 */
static double weighted_at(const double *sorted, const unsigned *cluster, size_t n,
			  const unsigned *w, uint64_t r)
{
	uint64_t seen = 0;

	for (size_t i = 0; i < n; i++) {
		seen += w[cluster[i]];
		if (seen > r)
			return sorted[i];
	}
	return sorted[n - 1];
}

int dist_cluster_ci(const double *sorted, const unsigned *cluster, size_t n, unsigned nclusters,
		    double p, double *lo, double *hi)
{
	uint64_t seed = 0x70616765686f70ull, *size;	/* "pagehop" */
	double stat[DIST_CLUSTER_RESAMPLES];
	size_t k = 0;
	unsigned *w;

	*lo = *hi = NAN;
	if (nclusters < DIST_MIN_CLUSTERS || !n || !(p >= 0 && p <= 100))
		return -ERANGE;
	w = xcalloc(nclusters, sizeof(*w));
	size = xcalloc(nclusters, sizeof(*size));
	for (size_t i = 0; i < n; i++)
		size[cluster[i]]++;
	for (int b = 0; b < DIST_CLUSTER_RESAMPLES; b++) {
		uint64_t m = 0, r;
		double h, f, x0, x1;

		memset(w, 0, nclusters * sizeof(*w));
		for (unsigned d = 0; d < nclusters; d++) {
			unsigned c = (unsigned)(next_rand(&seed) % nclusters);

			w[c]++;
			m += size[c];
		}
		if (!m) {	/* only empty clusters drawn */
			stat[b] = NAN;
			continue;
		}
		h = (double)(m - 1) * p / 100;
		r = (uint64_t)floor(h);
		f = h - (double)r;
		x0 = weighted_at(sorted, cluster, n, w, r);
		x1 = r + 1 < m ? weighted_at(sorted, cluster, n, w, r + 1) : x0;
		stat[b] = x0 + f * (x1 - x0);
	}
	free(w);
	free(size);
	for (int b = 0; b < DIST_CLUSTER_RESAMPLES; b++)
		if (!isnan(stat[b]))
			stat[k++] = stat[b];
	qsort(stat, k, sizeof(double), cmp_dbl);
	*lo = dist_percentile(stat, k, 2.5);
	*hi = dist_percentile(stat, k, 97.5);
	return 0;
}

const char *dist_ci_why(size_t n, double p, char *buf, size_t size)
{
	if (!(p > 0 && p < 100))
		snprintf(buf, size, "p%g is the largest run, which has no CI", p);
	else if (n < dist_tail_runs(p))
		snprintf(buf, size, "%zu runs, p%g needs %zu (%d beyond it) for a CI", n, p,
			 dist_tail_runs(p), DIST_TAIL_BEYOND);
	else
		snprintf(buf, size, "%zu runs, too few below p%g for a CI", n, p);
	return buf;
}

const char *dist_pct_name(double p, const char *unit, char *buf, size_t size)
{
	snprintf(buf, size, "p%g_%s", p, unit);
	return buf;
}

static double edge(long i, unsigned k)
{
	return exp2((double)i / k);
}

/* The bucket index of x > 0: 2^(i/k) <= x < 2^((i+1)/k), exp2/log2 rounding mended. */
static long bucket_of(double x, unsigned k)
{
	long i = (long)floor(log2(x) * k);

	while (x < edge(i, k))
		i--;
	while (x >= edge(i + 1, k))
		i++;
	return i;
}

size_t dist_histogram(const double *sorted, size_t n, unsigned per_doubling,
		      struct dist_bucket **out)
{
	size_t nonpos = 0, nb, b = 0;
	long first, last;

	*out = NULL;
	if (!n || !per_doubling)
		return 0;
	while (nonpos < n && !(sorted[nonpos] > 0))
		nonpos++;
	if (nonpos == n) {
		*out = xcalloc(1, sizeof(**out));
		(*out)[0] = (struct dist_bucket){ sorted[0], 0, n };
		return 1;
	}
	first = bucket_of(sorted[nonpos], per_doubling);
	last = bucket_of(sorted[n - 1], per_doubling);
	nb = (size_t)(last - first + 1) + (nonpos > 0);
	*out = xcalloc(nb, sizeof(**out));
	if (nonpos)
		(*out)[b++] = (struct dist_bucket){ sorted[0], 0, nonpos };
	for (long i = first; i <= last; i++, b++) {
		(*out)[b].lo = edge(i, per_doubling);
		(*out)[b].hi = edge(i + 1, per_doubling);
	}
	/* Sorted: one pass, each sample into the bucket its index says. */
	for (size_t j = nonpos; j < n; j++)
		(*out)[(size_t)(bucket_of(sorted[j], per_doubling) - first) + (nonpos > 0)].count++;
	return nb;
}
