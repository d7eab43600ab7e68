// SPDX-License-Identifier: GPL-2.0-only
/*
 * verdict_margin.c - the margin of a verdict: the deciding magnitude cell,
 * and the --noise range over which the analysis, run again, concludes the
 * same (docs/slit.md section 10).
 */
#include "verdict_margin.h"
#include "util.h"
#include "verdict.h"

#include <stdlib.h>

#include <math.h>
#include <string.h>

#define NOISE_MAX 0.5		/* --noise takes at most 50% */
#define STEPS 14		/* 0.5 / 2^14: about 0.003 points */

static enum ph_verdict verdict_at(const struct ph_nmatrix *m, const struct ph_slit *slit,
				  const struct ph_dist_opts *o, double noise)
{
	struct ph_dist_opts x = *o;
	struct ph_analysis a;
	enum ph_verdict v;

	x.noise = noise;
	if (analysis_run(m, slit, &x, &a))
		return PH_VERDICT_UNCOMPARED;
	v = a.verdict;
	analysis_free(&a);
	return v;
}

/*
 * Between same (verdict v) and other (another verdict), the boundary:
 * returns the last noise found with v, *to the verdict past it.
 */
static double bisect(const struct ph_nmatrix *m, const struct ph_slit *slit,
		     const struct ph_dist_opts *o, enum ph_verdict v, double same,
		     double other, enum ph_verdict *to)
{
	for (int k = 0; k < STEPS; k++) {
		double mid = (same + other) / 2;
		enum ph_verdict w = verdict_at(m, slit, o, mid);

		if (w == v) {
			same = mid;
		} else {
			other = mid;
			*to = w;
		}
	}
	return same;
}

void verdict_margin(const struct ph_nmatrix *m, const struct ph_slit *slit,
		    const struct ph_analysis *a, struct ph_margin *out)
{
	const struct ph_dist_opts *o = &a->opts;
	enum ph_verdict v = a->verdict;

	memset(out, 0, sizeof(*out));
	/* An inconsistent verdict rests on levels or order, not on a magnitude cell. */
	for (int k = 0; v != PH_VERDICT_INCONSISTENT && k < a->nmag; k++) {
		const struct ph_magnitude *g = &a->mag[k];

		if (!out->have_cell || fabs(g->rel_err) > fabs(out->rel_err)) {
			out->have_cell = true;
			out->row_id = m->row_ids[g->row];
			out->col_id = m->col_ids[g->col];
			out->rel_err = g->rel_err;
		}
	}
	if (out->have_cell)
		out->points = 100 * (o->tolerance - fabs(out->rel_err));
	if (!a->have_slit || (long)m->nrows * m->ncols > PH_MARGIN_MAX_CELLS)
		return;
	out->have_noise = true;
	out->noise_lo = 0;
	out->noise_hi = NOISE_MAX;
	out->lo_verdict = verdict_at(m, slit, o, 0);
	if (out->lo_verdict != v)
		out->noise_lo = bisect(m, slit, o, v, o->noise, 0, &out->lo_verdict);
	else
		out->lo_verdict = 0;
	out->hi_verdict = verdict_at(m, slit, o, NOISE_MAX);
	if (out->hi_verdict != v)
		out->noise_hi = bisect(m, slit, o, v, o->noise, NOISE_MAX, &out->hi_verdict);
	else
		out->hi_verdict = 0;
}

void verdict_margin_report(struct ph_doc *doc, const struct ph_nmatrix *m,
			   const struct ph_slit *slit, const struct ph_analysis *a)
{
	struct ph_section *s;
	struct ph_margin g;
	char *cell = NULL, *noise = NULL;

	if (!a->have_slit)
		return;
	verdict_margin(m, slit, a, &g);
	s = doc_add_section(doc, "verdict_margin", "how close the verdict is to flipping");
	if (g.have_cell) {
		cell = xasprintf("%d>%d", g.row_id, g.col_id);
		section_str(s, "deciding_cell", cell);
		section_num(s, "deciding_error_pct", 100 * g.rel_err, "%.1f");
		section_num(s, "tolerance_pct", 100 * a->opts.tolerance, "%g");
		section_num(s, "margin_points", g.points, "%.1f");
	}
	if (g.have_noise) {
		section_num(s, "noise_pct", 100 * a->opts.noise, "%g");
		section_num(s, "same_verdict_noise_from_pct", 100 * g.noise_lo, "%.2f");
		section_num(s, "same_verdict_noise_to_pct", 100 * g.noise_hi, "%.2f");
		if (g.lo_verdict)
			section_str(s, "below_it", verdict_status(g.lo_verdict));
		if (g.hi_verdict)
			section_str(s, "above_it", verdict_status(g.hi_verdict));
		noise = xasprintf("; the same verdict for --noise %.2f%% to %.2f%%%s%s%s",
				  100 * g.noise_lo, 100 * g.noise_hi,
				  g.lo_verdict ? " (below: " : "", g.lo_verdict ? verdict_status(g.lo_verdict) : "",
				  g.lo_verdict ? ")" : "");
	} else if ((long)m->nrows * m->ncols > PH_MARGIN_MAX_CELLS) {
		section_str(s, "noise_range", "not computed: more than 4096 cells");
	}
	if (cell)
		doc_note(doc, "margin: the verdict '%s' rests on cell %s at %+.1f%% against +-%g%% (%.1f points)%s",
			 verdict_status(a->verdict), cell, 100 * g.rel_err, 100 * a->opts.tolerance,
			 g.points, noise ? noise : "");
	else if (noise)
		doc_note(doc, "margin: the verdict '%s' rests on the levels and order%s",
			 verdict_status(a->verdict), noise);
	free(cell);
	free(noise);
}
