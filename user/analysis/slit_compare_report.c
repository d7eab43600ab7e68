// SPDX-License-Identifier: GPL-2.0-only
/*
 * slit_compare_report.c - the sections of the "pagehop slit" report that
 * set the measurement against the SLIT: the input and distance matrices,
 * each CPU node's local reference, the levels, ordering violations,
 * magnitudes and asymmetry.  docs/slit.md explains every number.
 */
#include "slit_compare_report.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *unit_of(enum ph_metric m)
{
	switch (m) {
	case PH_METRIC_LATENCY:
		return "ns";
	case PH_METRIC_BANDWIDTH:
		return "GBps";
	case PH_METRIC_DISTANCE:
		break;
	}
	return "dist";
}

static const char *how_name(enum ph_local h)
{
	switch (h) {
	case PH_LOCAL_OWN:
		return "own";
	case PH_LOCAL_SLIT_NEAREST:
		return "nearest by SLIT";
	case PH_LOCAL_FASTEST:
		return "fastest measured";
	}
	return "?";
}

/*
 * The matrices and the per-cell tables hold N^2 entries: their rows are
 * made from the analysis when the document is rendered, never stored
 * (slit_report() documents that job and a must outlive the document).
 */
static void input_row(const void *ctx, struct ph_matrix *x, int r)
{
	const struct ph_nmatrix *m = ctx;

	for (int c = 0; c < m->ncols; c++)
		matrix_num(x, r, c, m->val[r * m->ncols + c], "%g");
}

static void add_input_matrix(struct ph_doc *doc, const struct ph_slit_job *job)
{
	const struct ph_nmatrix *m = job->m;
	char *title = xasprintf("input: %s from %s", job->figure, job->input);

	doc_add_matrix_rows(doc, "input", title, metric_name(m->metric), m->nrows, m->row_ids,
			    m->ncols, m->col_ids, input_row, m);
	free(title);
}

static void distance_row(const void *ctx, struct ph_matrix *x, int r)
{
	const struct ph_dmatrix *d = ctx;

	for (int c = 0; c < d->ncols; c++)
		matrix_num(x, r, c, d->d[r * d->ncols + c], "%.2f");
}

static void add_distances(struct ph_doc *doc, const struct ph_slit_job *job,
			  const struct ph_analysis *a)
{
	const struct ph_dmatrix *d = &a->dm;
	char *der = slit_derivation(job), *title = xasprintf("measured distances (%s)", der);

	doc_add_matrix_rows(doc, "measured_distances", title, "distance", d->nrows, d->row_ids,
			    d->ncols, d->col_ids, distance_row, d);
	free(der);
	free(title);
}

static void add_local(struct ph_doc *doc, const struct ph_slit_job *job,
		      const struct ph_analysis *a)
{
	struct ph_table *t = doc_add_table(doc, "local", "local reference of each CPU node");
	char col[32];

	snprintf(col, sizeof(col), "local_%s", unit_of(job->m->metric));
	table_add_col(t, "cpu_node");
	table_add_col(t, "local_mem_node");
	table_add_col(t, "chosen");
	table_add_col(t, col);
	table_add_col(t, "local_dist");
	for (int r = 0; r < a->dm.nrows; r++) {
		int row = table_add_row(t), ref = a->dm.ref[r];

		table_int(t, row, "cpu_node", a->dm.row_ids[r]);
		if (ref < 0) {
			table_str(t, row, "chosen", "no measured cell");
			continue;
		}
		table_int(t, row, "local_mem_node", a->dm.col_ids[ref]);
		table_str(t, row, "chosen", how_name(a->dm.ref_how[r]));
		table_num(t, row, col, job->m->val[r * job->m->ncols + ref], "%g");
		table_num(t, row, "local_dist", a->dm.ref_dist[r], "%g");
		if (a->dm.ref_how[r] == PH_LOCAL_SLIT_NEAREST)
			doc_note(doc, "CPU node %d has no measured local cell (no memory of its own, or the cell is missing): its distances are scaled so that its nearest memory by the SLIT, node %d, is at the SLIT's %g",
				 a->dm.row_ids[r], a->dm.col_ids[ref], a->dm.ref_dist[r]);
		else if (a->dm.ref_how[r] == PH_LOCAL_FASTEST)
			doc_note(doc, "CPU node %d has no measured local cell and no SLIT row: its fastest measured memory, node %d, is taken as 10, so its distances understate the true ones",
				 a->dm.row_ids[r], a->dm.col_ids[ref]);
	}
}

static void add_levels(struct ph_doc *doc, const struct ph_analysis *a)
{
	char *title = xasprintf("distance levels (measured: overlapping intervals, noise floor %g%%; SLIT: within %g%% of a level's smallest value)",
				a->opts.noise * 100, a->opts.tolerance * 100);
	struct ph_table *t = doc_add_table(doc, "levels", title);
	const struct ph_levels *sets[2] = { &a->measured, &a->slit };
	static const char *const names[2] = { "measured", "slit" };

	free(title);
	table_add_col(t, "source");
	table_add_col(t, "level");
	table_add_col(t, "cells");
	table_add_col(t, "dist_min");
	table_add_col(t, "dist_max");
	table_add_col(t, "dist_mean");
	table_add_col(t, "pairs");
	for (int k = 0; k < (a->have_slit ? 2 : 1); k++) {
		struct level_cells g;

		slit_level_cells_init(&a->dm, sets[k], &g);
		for (int i = 0; i < sets[k]->n; i++) {
			const struct ph_level *l = &sets[k]->lv[i];
			int r = table_add_row(t);
			char *p = slit_level_cells_pairs(&a->dm, sets[k], &g, i);

			table_str(t, r, "source", names[k]);
			table_int(t, r, "level", i);
			table_int(t, r, "cells", l->n);
			table_num(t, r, "dist_min", l->min, "%.2f");
			table_num(t, r, "dist_max", l->max, "%.2f");
			table_num(t, r, "dist_mean", l->mean, "%.2f");
			table_str(t, r, "pairs", p);
			free(p);
		}
		slit_level_cells_free(&g);
	}
}

static void ordering_row(const void *ctx, struct ph_table *t, int r)
{
	const struct ph_analysis *a = ctx;
	const struct ph_dmatrix *d = &a->dm;
	const struct ph_violation *v = &a->viol[r];
	int kn = v->row * d->ncols + v->near, kf = v->row * d->ncols + v->far;

	table_int(t, r, "cpu_node", d->row_ids[v->row]);
	table_int(t, r, "near_node", d->col_ids[v->near]);
	table_int(t, r, "far_node", d->col_ids[v->far]);
	table_int(t, r, "slit_near", v->slit_near);
	table_int(t, r, "slit_far", v->slit_far);
	table_num(t, r, "dist_near", d->d[kn], "%.2f");
	table_num(t, r, "dist_near_low", d->rlo[kn], "%.2f");
	table_num(t, r, "dist_far", d->d[kf], "%.2f");
	table_num(t, r, "dist_far_high", d->rhi[kf], "%.2f");
}

static void add_ordering(struct ph_doc *doc, const struct ph_analysis *a)
{
	struct ph_table *t = doc_add_table_rows(doc, "ordering",
						"ordering violations (SLIT: near is nearer; measured: farther beyond the CIs)",
						a->nviol, ordering_row, a);
	static const char *const cols[] = {
		"cpu_node", "near_node", "far_node", "slit_near", "slit_far",
		"dist_near", "dist_near_low", "dist_far", "dist_far_high",
	};

	for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
		table_add_col(t, cols[i]);
}

static void magnitude_row(const void *ctx, struct ph_table *t, int r)
{
	const struct ph_analysis *a = ctx;
	const struct ph_dmatrix *d = &a->dm;
	const struct ph_magnitude *g = &a->mag[r];
	int k = g->row * d->ncols + g->col;

	table_int(t, r, "cpu_node", d->row_ids[g->row]);
	table_int(t, r, "mem_node", d->col_ids[g->col]);
	table_num(t, r, "measured_dist", g->measured, "%.2f");
	table_num(t, r, "dist_low", d->lo[k], "%.2f");
	table_num(t, r, "dist_high", d->hi[k], "%.2f");
	table_int(t, r, "slit", g->slit);
	table_num(t, r, "rel_err_pct", slit_nz(g->rel_err * 100, 0.1), "%+.1f");
	table_bool(t, r, "within", g->within);
	table_int(t, r, "measured_level", a->measured.cell[k]);
	table_int(t, r, "slit_level", a->slit.cell[k]);
}

static void add_magnitude(struct ph_doc *doc, const struct ph_slit_job *job,
			  const struct ph_analysis *a)
{
	char *from = slit_compared_label(job, a);
	char *title = xasprintf("magnitude: measured distance against %s%s (tolerance %g%%)",
				a->slit_rejected ? "" : "the SLIT of ", from, a->opts.tolerance * 100);
	struct ph_table *t = doc_add_table_rows(doc, "magnitude", title, a->nmag, magnitude_row, a);
	static const char *const cols[] = {
		"cpu_node", "mem_node", "measured_dist", "dist_low", "dist_high", "slit",
		"rel_err_pct", "within", "measured_level", "slit_level",
	};

	free(from);
	free(title);
	for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
		table_add_col(t, cols[i]);
}

/* Column names carrying the unit of the metric, ns, GBps or dist. */
static const char *unit_col(enum ph_metric m, int which)
{
	static const char *const names[3][3] = {
		{ "a_to_b_ns", "b_to_a_ns", "diff_ns" },
		{ "a_to_b_GBps", "b_to_a_GBps", "diff_GBps" },
		{ "a_to_b_dist", "b_to_a_dist", "diff_dist" },
	};

	return names[m == PH_METRIC_LATENCY ? 0 : m == PH_METRIC_BANDWIDTH ? 1 : 2][which];
}

static void asymmetry_row(const void *ctx, struct ph_table *t, int r)
{
	const struct ph_analysis *a = ctx;
	const struct ph_asymmetry *x = &a->asym[r];
	enum ph_metric m = a->dm.metric;

	table_int(t, r, "node_a", x->a);
	table_int(t, r, "node_b", x->b);
	table_num(t, r, unit_col(m, 0), x->ab, "%g");
	table_num(t, r, unit_col(m, 1), x->ba, "%g");
	table_num(t, r, unit_col(m, 2), x->diff, "%.4g");
	table_num(t, r, "diff_pct", x->rel * 100, "%.1f");
	table_bool(t, r, "beyond_ci", x->beyond);
	table_num(t, r, "dist_a_to_b", x->d_ab, "%.2f");
	table_num(t, r, "dist_b_to_a", x->d_ba, "%.2f");
}

static void add_asymmetry(struct ph_doc *doc, const struct ph_slit_job *job,
			  const struct ph_analysis *a)
{
	struct ph_table *t = doc_add_table_rows(doc, "asymmetry",
						"asymmetry: a's CPUs to b's memory against b's CPUs to a's memory",
						a->nasym, asymmetry_row, a);
	enum ph_metric m = job->m->metric;

	table_add_col(t, "node_a");
	table_add_col(t, "node_b");
	table_add_col(t, unit_col(m, 0));
	table_add_col(t, unit_col(m, 1));
	table_add_col(t, unit_col(m, 2));
	table_add_col(t, "diff_pct");
	table_add_col(t, "beyond_ci");
	table_add_col(t, "dist_a_to_b");
	table_add_col(t, "dist_b_to_a");
}

void slit_report_compare(struct ph_doc *doc, const struct ph_slit_job *job, const struct ph_analysis *a)
{
	add_input_matrix(doc, job);
	add_distances(doc, job, a);
	add_local(doc, job, a);
	add_levels(doc, a);
	if (a->have_slit) {
		add_ordering(doc, a);
		add_magnitude(doc, job, a);
	}
	add_asymmetry(doc, job, a);
}
