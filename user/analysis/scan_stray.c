// SPDX-License-Identifier: GPL-2.0-only
/*
 * scan_stray.c - the straying ranges of a scan, by median and MAD.
 */
#include "scan_stray.h"
#include "stats.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void scan_judge(const double *v, int n, double k, double tol, double *dev, bool *stray,
		struct ph_scan_judged *out)
{
	double *vals = xcalloc((size_t)(n ? n : 1), sizeof(double));
	size_t m = 0;

	memset(out, 0, sizeof(*out));
	out->median = out->mad = NAN;
	for (int i = 0; i < n; i++) {
		stray[i] = false;
		if (dev)
			dev[i] = NAN;
		if (!isnan(v[i]))
			vals[m++] = v[i];
	}
	if (m >= SCAN_MIN_RANGES) {
		out->median = stats_median_mad(vals, m, &out->mad);
		out->judged = out->median > 0;
	}
	for (int i = 0; out->judged && i < n; i++) {
		if (isnan(v[i]))
			continue;
		if (dev)
			dev[i] = (v[i] - out->median) / out->median;
		if (stats_strays(v[i], out->median, out->mad, k, tol)) {
			stray[i] = true;
			out->nstray++;
		}
	}
	free(vals);
}

/* qsort has no context argument in C; the sort below is not reentrant. */
static const double *rank_score;

static int by_score(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	double sx = rank_score[x], sy = rank_score[y];

	if (sx != sy)
		return sx < sy ? 1 : -1;
	return (x > y) - (x < y);
}

int scan_rank(const double *score, int n, int *order)
{
	int m = 0;

	for (int i = 0; i < n; i++)
		if (score[i] > 0)
			order[m++] = i;
	rank_score = score;
	qsort(order, (size_t)m, sizeof(*order), by_score);
	rank_score = NULL;
	return m;
}
