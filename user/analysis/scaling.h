/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * scaling.h - what a bandwidth-against-threads curve says: efficiency
 * against the fewest threads measured, and where it saturates (the knee).
 */
#ifndef PAGEHOP_SCALING_H
#define PAGEHOP_SCALING_H

/* The knee's threshold: a count reaching this share of the curve's maximum. */
#define SCALING_KNEE_SHARE 0.90

/*
 * Per-thread bandwidth at threads[i] against that at threads[0], as a
 * fraction (1: perfect scaling): (bw[i] / threads[i]) / (bw[0] / threads[0]).
 */
double scaling_efficiency(const int *threads, const double *bw, int i);

/*
 * The saturation knee of bw[] measured at threads[] (ascending): the index
 * of the fewest threads whose bandwidth reaches SCALING_KNEE_SHARE of the
 * highest bandwidth measured, provided that some larger count was measured
 * too and gained less than that last step (so the curve did flatten there).
 * -1 when there is no knee within the counts measured: fewer than two
 * counts, or the first count to reach the share is the last one (the curve
 * still rose by more than 1 - SCALING_KNEE_SHARE of its maximum at the end).
 * NAN values (counts not measured) are skipped.
 */
int scaling_knee(const int *threads, const double *bw, int n);

#endif
