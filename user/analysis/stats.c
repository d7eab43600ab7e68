// SPDX-License-Identifier: GPL-2.0-only
/*
 * stats.c - order statistics.
 *
 * The median and its interval make no assumption about the distribution of
 * the samples; timing samples are skewed (interrupts and other tenants only
 * ever add time), so a mean and a normal interval would mislead.
 */
#include "stats.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

bool stats_median_ci_ranks(size_t n, size_t *j, size_t *k)
{
	size_t best = 0;

	if (n < STATS_MIN_CI_SAMPLES)
		return false;
	if (n <= 1000) {
		/* Bin(n, 1/2) CDF, term by term in log space. */
		double logp = -(double)n * M_LN2;	/* log P(B = 0) */
		double cdf = 0;

		for (size_t i = 0; i < n; i++) {
			cdf += exp(logp);
			/* cdf = P(B <= i); rank j = i + 1 qualifies if cdf <= 0.025. */
			if (cdf > 0.025)
				break;
			best = i + 1;
			/* P(B = i + 1) = P(B = i) * (n - i) / (i + 1) */
			logp += log((double)(n - i)) - log((double)(i + 1));
		}
	} else {
		best = (size_t)floor((double)n / 2 - 1.96 * sqrt((double)n) / 2);
	}
	if (best < 1)
		return false;
	*j = best;
	*k = n + 1 - best;
	return true;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double stats_median_of(double *v, size_t n)
{
	if (!n)
		return NAN;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double stats_median_mad(double *v, size_t n, double *mad)
{
	double med = stats_median_of(v, n);

	for (size_t i = 0; i < n; i++)
		v[i] = fabs(v[i] - med);
	*mad = stats_median_of(v, n);
	return med;
}

bool stats_strays(double x, double med, double mad, double k, double tol)
{
	if (!(med > 0) || isnan(tol) || isnan(x))
		return false;
	return fabs(x - med) > k * STATS_MAD_TO_SIGMA * mad && fabs(x - med) / med > tol;
}

void stats_compute(const double *samples, size_t n, struct ph_stats *out)
{
	double *s;
	double sum = 0;
	size_t j, k;

	memset(out, 0, sizeof(*out));
	out->n = n;
	out->ci_lo = out->ci_hi = NAN;
	out->ci_rel = INFINITY;
	if (!n) {
		out->min = out->max = out->median = out->mean = NAN;
		return;
	}
	s = xmalloc(n * sizeof(*s));
	memcpy(s, samples, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	for (size_t i = 0; i < n; i++)
		sum += s[i];
	out->min = s[0];
	out->max = s[n - 1];
	out->mean = sum / (double)n;
	out->median = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	if (stats_median_ci_ranks(n, &j, &k)) {
		out->ci_lo = s[j - 1];
		out->ci_hi = s[k - 1];
		out->ci_rel = out->median > 0 ?
			(out->ci_hi - out->ci_lo) / 2 / out->median : INFINITY;
	}
	free(s);
}
