// SPDX-License-Identifier: GPL-2.0-only
/*
 * scaling.c - efficiency and the saturation knee of a scaling curve.
 */
#include "scaling.h"

#include <math.h>

double scaling_efficiency(const int *threads, const double *bw, int i)
{
	if (!(bw[0] > 0) || threads[0] <= 0 || threads[i] <= 0)
		return NAN;
	return (bw[i] / threads[i]) / (bw[0] / threads[0]);
}

/*
 * Why this rule: bandwidth curves are noisy, so "the first count whose step
 * gains less than x%" stops at the first dip; the share of the maximum is
 * robust to a dip before it and to a decline after it (more threads than
 * the memory controllers serve well).  90% is where Schmidl's and the
 * Bassi curves visibly flatten.  A curve whose first count at 90% is its
 * last count has not been seen to flatten at all: no knee.
 */
int scaling_knee(const int *threads, const double *bw, int n)
{
	double max = -INFINITY;
	int first = -1, last = -1, valid = 0;

	(void)threads;
	for (int i = 0; i < n; i++)
		if (!isnan(bw[i])) {
			valid++;
			last = i;
			if (bw[i] > max)
				max = bw[i];
		}
	if (valid < 2 || !(max > 0))
		return -1;
	for (int i = 0; i < n && first < 0; i++)
		if (!isnan(bw[i]) && bw[i] >= SCALING_KNEE_SHARE * max)
			first = i;
	return first == last ? -1 : first;
}
