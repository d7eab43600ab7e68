/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * slit_words.h - the wording the sections of the "pagehop slit" report
 * share (slit_report.c, slit_compare_report.c, slit_model_report.c): the
 * verdict's sentence, node pairs of a level, how a distance was derived.
 */
#ifndef PAGEHOP_SLIT_WORDS_H
#define PAGEHOP_SLIT_WORDS_H

#include "distance.h"
#include "slit_job.h"

/*
 * The node pairs of one level as the report prints them: "local (4 nodes)
 * {0,1} {2,3} 4>0" ({a,b} both ways in the level, a>b one way only).
 */
char *slit_level_pairs(const struct ph_dmatrix *d, const struct ph_levels *l, int level);

/* The one-line verdict: "inconsistent: measurement shows 1 level, SLIT has 3". */
char *slit_summary(const struct ph_analysis *a);

/*
 * Why Linux ignores a SLIT that slit_linux_check() rejected, one sentence;
 * unit ("node", "locality") names the indexes from and to of the entry.
 */
char *slit_rejection(const struct ph_slit_check *c, const char *unit,
		     int from, int to);

/* "" for one, "s" for more. */
const char *slit_plural(long n);
/* How job's figure became distances: "distance = 10 * L[c][m] / L[c][local], ...". */
char *slit_derivation(const struct ph_slit_job *job);
/* What the measurement was compared with: "SLIT", or Linux's default table in its place. */
const char *slit_table_name(const struct ph_analysis *a);
/* Where the table compared came from, as the report names it (malloc'd). */
char *slit_compared_label(const struct ph_slit_job *job, const struct ph_analysis *a);
/* A value as printed with quantum q: never "-0". */
double slit_nz(double x, double q);

/*
 * The cells of every level at once, so that describing all levels costs
 * one pass over the matrix rather than one per level: cell[first[l] ..
 * first[l + 1]) are level l's, ascending.  The reverse of cell (r, c), from
 * c's CPUs to r's memory, is (row_of_col[c], col_of_row[r]), -1 if absent.
 */
struct level_cells {
	int *first, *cell;
	int *row_of_col, *col_of_row;
};

void slit_level_cells_init(const struct ph_dmatrix *d, const struct ph_levels *l,
			   struct level_cells *g);
void slit_level_cells_free(struct level_cells *g);
/* The pairs of level as slit_level_pairs() says them, from g. */
char *slit_level_cells_pairs(const struct ph_dmatrix *d, const struct ph_levels *l,
			     const struct level_cells *g, int level);

#endif
