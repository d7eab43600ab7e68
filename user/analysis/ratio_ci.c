// SPDX-License-Identifier: GPL-2.0-only
/*
 * ratio_ci.c - a ratio of medians and its bootstrap interval (ratio_ci.h).
 */
#include "ratio_ci.h"
#include "stats.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void swap_d(double *x, double *y)
{
	double t = *x;

	*x = *y;
	*y = t;
}

/*
 * The k-th smallest (0-based) of v[0..n), v reordered so that every element
 * before index k is at most it: a selection with a three-way partition, so
 * that runs of equal samples (a resample repeats its draws) cost no more
 * than distinct ones.
 */
static double select_kth(double *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1;

	while (lo < hi) {
		double p = v[lo + (hi - lo) / 2];
		size_t lt = lo, i = lo, gt = hi + 1;

		/* [lo, lt) < p, [lt, i) == p, [gt, hi] > p */
		while (i < gt) {
			if (v[i] < p)
				swap_d(&v[lt++], &v[i++]);
			else if (v[i] > p)
				swap_d(&v[i], &v[--gt]);
			else
				i++;
		}
		if (k < lt)
			hi = lt - 1;
		else if (k >= gt)
			lo = gt;
		else
			return p;
	}
	return v[k];
}

/* The median as stats_compute() takes it (the mean of the two middle ones for even n); v reordered. */
static double median_of(double *v, size_t n)
{
	double upper = select_kth(v, n, n / 2), lower = upper;

	if (n % 2 == 0) {
		/* After the selection everything below index n/2 is at most upper. */
		lower = v[0];
		for (size_t i = 1; i < n / 2; i++)
			if (v[i] > lower)
				lower = v[i];
	}
	return (lower + upper) / 2;
}

/* Draw n of src with replacement into dst; its median. */
static double resampled_median(const double *src, size_t n, double *dst, uint64_t *rng)
{
	for (size_t i = 0; i < n; i++)
		dst[i] = src[splitmix64(rng) % n];
	return median_of(dst, n);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void ratio_ci_medians(const double *a, size_t na, const double *b, size_t nb, uint64_t seed,
		      int resamples, struct ratio_ci *out)
{
	double *sa, *sb, *r, ma, mb;
	uint64_t rng = seed;
	size_t m = 0;

	out->value = out->lo = out->hi = NAN;
	if (!na || !nb)
		return;
	sa = xcalloc(na, sizeof(double));
	sb = xcalloc(nb, sizeof(double));
	memcpy(sa, a, na * sizeof(double));
	memcpy(sb, b, nb * sizeof(double));
	ma = median_of(sa, na);
	mb = median_of(sb, nb);
	if (mb > 0 && isfinite(ma) && isfinite(mb))
		out->value = ma / mb;
	if (!isfinite(out->value) || na < STATS_MIN_CI_SAMPLES || nb < STATS_MIN_CI_SAMPLES ||
	    resamples < 40) {
		free(sa);
		free(sb);
		return;
	}
	r = xcalloc((size_t)resamples, sizeof(double));
	for (int i = 0; i < resamples; i++) {
		double xa = resampled_median(a, na, sa, &rng);
		double xb = resampled_median(b, nb, sb, &rng);

		/* A resample whose denominator is not positive has no ratio: left out. */
		if (xb > 0)
			r[m++] = xa / xb;
	}
	if (m >= (size_t)resamples / 2) {
		qsort(r, m, sizeof(double), cmp_double);
		out->lo = r[(size_t)ceil(0.025 * (double)m) - 1];
		out->hi = r[(size_t)ceil(0.975 * (double)m) - 1];
	}
	free(r);
	free(sa);
	free(sb);
}

/* x as the documents print it, RATIO_CI_DIGITS decimals. */
static double as_shown(double x)
{
	double scale = pow(10, RATIO_CI_DIGITS);

	return round(x * scale) / scale;
}

/*
 * Judged on the bounds as printed: a bound of 1.0004 prints as 1.000, and
 * an interval shown as 1.000-1.002 beside "above 1" would claim more than
 * the figures beside it show.
 */
enum ratio_shown ratio_ci_shown(const struct ratio_ci *r)
{
	if (!isfinite(r->lo) || !isfinite(r->hi))
		return RATIO_NO_CI;
	if (as_shown(r->lo) > 1)
		return RATIO_ABOVE;
	if (as_shown(r->hi) < 1)
		return RATIO_BELOW;
	return RATIO_NO_EFFECT;
}

const char *ratio_shown_name(enum ratio_shown s)
{
	switch (s) {
	case RATIO_NO_EFFECT: return "no effect shown";
	case RATIO_ABOVE: return "above 1";
	case RATIO_BELOW: return "below 1";
	default: return "no CI (too few samples)";
	}
}
