/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * verdict_margin.h - how close a verdict of "pagehop slit" is to flipping:
 * the magnitude cell that decides it and its distance from the tolerance,
 * and the range of --noise over which the whole verdict stays the same
 * (docs/slit.md section 10).
 */
#ifndef PAGEHOP_VERDICT_MARGIN_H
#define PAGEHOP_VERDICT_MARGIN_H

#include "distance.h"
#include "output.h"

/* Matrices larger than this are not re-analysed for the noise range. */
#define PH_MARGIN_MAX_CELLS 4096

struct ph_margin {
	/*
	 * The compared cell with the largest |error| against the SLIT: the
	 * one that decides "within tolerance" (consistent) or, outside it,
	 * the last that would have to come in.  points: tolerance - |error|,
	 * in percentage points (negative outside).
	 */
	bool have_cell;
	int row_id, col_id;
	double rel_err, points;
	/*
	 * The verdict is the same for every --noise in [noise_lo, noise_hi]
	 * as found by bisection (to 0.01 points); lo_verdict and hi_verdict
	 * are what it becomes just outside, 0 where it holds down to 0 or up
	 * to 50%.  have_noise false: the matrix is too big, or no SLIT.
	 */
	bool have_noise;
	double noise_lo, noise_hi;
	enum ph_verdict lo_verdict, hi_verdict;
};

/* a: the analysis of m against slit (as given to analysis_run) with a->opts. */
void verdict_margin(const struct ph_nmatrix *m, const struct ph_slit *slit,
		    const struct ph_analysis *a, struct ph_margin *out);

/*
 * A section "verdict_margin" (deciding cell, its error and margin in
 * points, the noise range of the same verdict) and a note saying it; slit
 * is the table compared.  Nothing without a SLIT compared.
 */
void verdict_margin_report(struct ph_doc *doc, const struct ph_nmatrix *m,
			   const struct ph_slit *slit, const struct ph_analysis *a);

#endif
