/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * distance_impl.h - what the analysis files (distance.c, slit_propose.c,
 * hmat_check.c, slit_analysis.c) share; part of distance.c's unit
 * (scripts/structure.py).  Nothing outside user/analysis/ includes it.
 */
#ifndef PAGEHOP_DISTANCE_IMPL_H
#define PAGEHOP_DISTANCE_IMPL_H

#include "distance.h"

#include <math.h>
#include <stdbool.h>
#include <stddef.h>

/*
 * Comparisons of computed ratios against thresholds: a value exactly on a
 * threshold (10 * 1.15 = 11.5) must not fall on either side by rounding.
 */
#define EPS 1e-9

/* Latency and distance grow with distance; bandwidth shrinks. */
static inline bool latency_like(enum ph_metric m)
{
	return m != PH_METRIC_BANDWIDTH;
}

/* a / b for intervals: a lower bound of 0 makes the ratio unbounded. */
static inline double qdiv(double a, double b)
{
	return b > 0 ? a / b : INFINITY;
}

/* Where the rows and columns of a matrix are in a SLIT; every index -1 without one. */
struct slit_map {
	const struct ph_slit *s;
	int *row, *col;
};

void slit_map_init(struct slit_map *sm, const struct ph_slit *s,
		  const int *row_ids, int nrows, const int *col_ids, int ncols);

void slit_map_free(struct slit_map *sm);

/* slit_at() for row r and column c of the matrix mapped. */
static inline int slit_rc(const struct slit_map *sm, int r, int c)
{
	int i = sm->row[r], j = sm->col[c];

	return i < 0 || j < 0 ? -1 : sm->s->dist[i * sm->s->n + j];
}

/*
 * p, with room for one more element of size sz beyond the n it holds of
 * *cap: the capacity doubles, so that n appends cost O(n), not O(n^2).
 */
void *grow(void *p, int n, int *cap, size_t sz);

/* A cell that holds a measurement: finite and above zero. */
static inline bool usable(const struct ph_nmatrix *m, int k)
{
	return isfinite(m->val[k]) && m->val[k] > 0;
}

/* qsort order of ints, ascending. */
static inline int int_cmp(const void *pa, const void *pb)
{
	int a = *(const int *)pa, b = *(const int *)pb;

	return (a > b) - (a < b);
}

#endif
