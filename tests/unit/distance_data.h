/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * distance_data.h - the matrices and SLITs the distance tests share: the
 * published seed tables (tests/data/shared) and what a TCG guest measures,
 * with the helpers that build them.
 */
#ifndef PAGEHOP_TEST_DISTANCE_DATA_H
#define PAGEHOP_TEST_DISTANCE_DATA_H

#include "distance.h"

#include <math.h>
#include <string.h>

#define assert_near(a, b, eps)                                                   \
	do {                                                                     \
		double a_ = (a), b_ = (b);                                       \
		if (!(fabs(a_ - b_) <= (eps)))                                   \
			fail_msg("%s = %.9g, expected %.9g +- %g", #a, a_, b_,   \
				 (double)(eps));                                 \
	} while (0)

static const int ids4[] = { 0, 1, 2, 3 };

/* A square matrix over nodes 0..n-1 from a row-major array. */
static inline struct ph_nmatrix *square(enum ph_metric metric, int n, const double *v)
{
	struct ph_nmatrix *m = nmatrix_new(metric, n, ids4, n, ids4);

	memcpy(m->val, v, (size_t)n * n * sizeof(double));
	return m;
}

static inline struct ph_slit *slit_square(int n, const int *v)
{
	struct ph_slit *s = slit_new(n, ids4);

	memcpy(s->dist, v, (size_t)n * n * sizeof(int));
	return s;
}

static const struct ph_dist_opts defaults = { PH_DEFAULT_TOLERANCE, PH_DEFAULT_NOISE, PH_PROPOSE_LEVELS };

/* STREAM bandwidth, 2 x Intel E5-2643 (tests/data/shared). */
static const double intel_bw[] = { 34.0, 18.9, 17.4, 33.5 };
static const int intel_slit[] = { 10, 21, 21, 10 };

/* STREAM bandwidth, 2 x AMD Opteron 6220 (tests/data/shared). */
static const double amd_bw[] = {
	18.1, 11.8, 6.5, 5.6,
	11.8, 18.7, 5.5, 6.5,
	6.5, 5.5, 18.5, 11.8,
	5.6, 6.5, 11.6, 18.5,
};
static const int amd_slit[] = {
	10, 16, 16, 16,
	16, 10, 16, 16,
	16, 16, 10, 16,
	16, 16, 16, 10,
};

/* What a TCG guest measures: every cell within 1.5% of 100 ns. */
static const double flat_lat[] = {
	101.2, 100.4, 99.8, 100.9,
	100.1, 100.7, 101.3, 99.6,
	99.9, 100.8, 100.2, 101.0,
	100.6, 99.7, 100.3, 100.5,
};
static const int guest_slit[] = {
	10, 16, 22, 22,
	16, 10, 22, 22,
	22, 22, 10, 16,
	22, 22, 16, 10,
};
static const int guest11_slit[] = {
	10, 11, 11, 11,
	11, 10, 11, 11,
	11, 11, 10, 11,
	11, 11, 11, 10,
};

#endif
