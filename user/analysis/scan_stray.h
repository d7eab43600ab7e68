/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * scan_stray.h - which physical ranges of a node stray (pagehop scan): one
 * figure of every range measured on the node, judged against the ranges'
 * median and MAD by the rule pagehop compare judges hosts with
 * (stats_strays, stats.h): a range strays when it lies beyond k robust
 * sigmas (1.4826 MAD) of the median and beyond the tolerance, on either
 * side.  Pure functions.
 */
#ifndef PAGEHOP_SCAN_STRAY_H
#define PAGEHOP_SCAN_STRAY_H

#include <stdbool.h>

/* The fewest ranges measured for their median to say which one strays. */
#define SCAN_MIN_RANGES 3

struct ph_scan_judged {
	bool judged;		/* at least SCAN_MIN_RANGES values to judge */
	double median, mad;	/* of the values measured */
	int nstray;
};

/*
 * Judge v[0..n) (NAN: not measured, never strays) with k and tol (a
 * fraction of the median).  dev[i] = (v[i] - median) / median, and
 * stray[i] when v[i] is beyond k robust sigmas and |dev[i]| beyond tol;
 * dev may be NULL.  With fewer than SCAN_MIN_RANGES values, or a median
 * of 0, nothing is judged: out->judged is false and no stray is set.
 */
void scan_judge(const double *v, int n, double k, double tol, double *dev, bool *stray,
		struct ph_scan_judged *out);

/*
 * Rank the ranges that stray in either figure, the furthest first: score[i]
 * is range i's largest |dev| over tol of its straying figures (0: none).
 * order[0..return) are the indexes of those with a score, by it.
 */
int scan_rank(const double *score, int n, int *order);

#endif
