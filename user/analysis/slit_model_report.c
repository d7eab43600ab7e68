// SPDX-License-Identifier: GPL-2.0-only
/*
 * slit_model_report.c - the sections of the "pagehop slit" report that
 * model the measurement: the HMAT's local figures against it, the per-hop
 * model and the proposed SLIT.  docs/slit.md explains every number.
 */
#include "slit_model_report.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int int_order(const void *pa, const void *pb)
{
	int x = *(const int *)pa, y = *(const int *)pb;

	return (x > y) - (x < y);
}

static void add_hmat(struct ph_doc *doc, const struct ph_slit_job *job)
{
	struct ph_hmat_cmp *c;
	int n = hmat_compare(job->hmat, job->nhmat, job->latency, job->read_bw, &c);
	char *title = xasprintf("HMAT local figures against the measurement of %s (best initiator)",
				job->input);
	struct ph_table *t = doc_add_table(doc, "hmat", title);
	static const char *const cols[] = {
		"mem_node", "access", "initiators", "figure", "hmat", "measured",
		"cpu_node", "measured_over_hmat",
	};

	free(title);
	for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
		table_add_col(t, cols[i]);
	for (int i = 0; i < n; i++) {
		int r = table_add_row(t);

		table_int(t, r, "mem_node", c[i].target);
		table_int(t, r, "access", c[i].access);
		table_str(t, r, "initiators", c[i].initiators[0] ? c[i].initiators : NULL);
		table_str(t, r, "figure", c[i].figure);
		table_num(t, r, "hmat", c[i].hmat, "%.4g");
		table_num(t, r, "measured", c[i].measured, "%g");
		if (c[i].cpu_node >= 0)
			table_int(t, r, "cpu_node", c[i].cpu_node);
		table_num(t, r, "measured_over_hmat", c[i].ratio, "%.2f");
	}
	doc_note(doc, "HMAT bandwidth is in MiB/s; it is compared as GB/s (x 1048576 / 10^9), the unit of the measurement. Latency compares the read latency with the measured (read) chase latency of %s.",
		 job->latency ? job->input : "(no latency figure)");
	free(c);
}

static void hop_summary(const struct ph_slit_job *job, const struct ph_hop_model *h,
			char **out)
{
	size_t len = 0;
	FILE *f = open_memstream(out, &len);

	if (!f) {
		fprintf(stderr, "pagehop: out of memory\n");
		abort();
	}
	for (int i = 0; i < h->nclasses; i++) {
		const struct ph_hop_class *c = &h->cls[i];

		/* Measured levels above the local one: not hops of an interconnect. */
		if (job->m->metric == PH_METRIC_LATENCY)
			fprintf(f, "%s%d level%s above local %+.0f ns (n=%d)", i ? ", " : "",
				c->hops, slit_plural(c->hops), slit_nz(c->extra_mean, 1), c->n);
		else if (job->m->metric == PH_METRIC_BANDWIDTH)
			fprintf(f, "%s%d level%s above local %+.2f distance, bandwidth x%.2f of local (n=%d)",
				i ? ", " : "", c->hops, slit_plural(c->hops), slit_nz(c->extra_mean, 0.01),
				c->ratio_mean, c->n);
		else
			fprintf(f, "%s%d level%s above local %+.2f distance (n=%d)", i ? ", " : "",
				c->hops, slit_plural(c->hops), slit_nz(c->extra_mean, 0.01), c->n);
	}
	if (fclose(f)) {
		fprintf(stderr, "pagehop: out of memory\n");
		abort();
	}
}

static void add_hops(struct ph_doc *doc, const struct ph_slit_job *job,
		     const struct ph_analysis *a)
{
	const struct ph_hop_model *h = &a->hops;
	bool lat = job->m->metric == PH_METRIC_LATENCY, bw = job->m->metric == PH_METRIC_BANDWIDTH;
	const char *xcol = lat ? "extra_ns" : "extra_dist";
	struct ph_table *t = doc_add_table(doc, "per_hop",
					   "per-hop model: extra over local by measured level above local (levels_above_local = the cell's measured level - its row's local level; a level, not a count of interconnect hops)");
	struct ph_section *s;
	char *sum;

	table_add_col(t, "levels_above_local");
	table_add_col(t, "cells");
	table_add_col(t, xcol);
	table_add_col(t, lat ? "min_ns" : "min_dist");
	table_add_col(t, lat ? "max_ns" : "max_dist");
	table_add_col(t, lat ? "per_level_ns" : "per_level_dist");
	if (bw) {
		table_add_col(t, "bw_ratio");
		table_add_col(t, "bw_drop_GBps");
	}
	for (int i = 0; i < h->nclasses; i++) {
		const struct ph_hop_class *c = &h->cls[i];
		int r = table_add_row(t);

		table_int(t, r, "levels_above_local", c->hops);
		table_int(t, r, "cells", c->n);
		table_num(t, r, xcol, c->extra_mean, lat ? "%.1f" : "%.2f");
		table_num(t, r, lat ? "min_ns" : "min_dist", c->extra_min, lat ? "%.1f" : "%.2f");
		table_num(t, r, lat ? "max_ns" : "max_dist", c->extra_max, lat ? "%.1f" : "%.2f");
		if (c->hops)
			table_num(t, r, lat ? "per_level_ns" : "per_level_dist", c->extra_mean / c->hops,
				  lat ? "%.1f" : "%.2f");
		if (bw) {
			table_num(t, r, "bw_ratio", c->ratio_mean, "%.3f");
			table_num(t, r, "bw_drop_GBps", c->drop_mean, "%.2f");
		}
	}
	s = doc_add_section(doc, "per_hop_fit", "per-hop fit: extra = levels above local x cost, least squares through 0");
	hop_summary(job, h, &sum);
	section_str(s, "summary", *sum ? sum : NULL);
	section_str(s, "unit", lat ? "ns of latency over local"
			       : bw ? "distance units over local 10, from bandwidth (10 * B_local / B); bw_ratio = B / B_local"
			       : "distance units over local 10");
	section_num(s, lat ? "cost_per_level_ns" : "cost_per_level_dist", h->cost, lat ? "%.1f" : "%.2f");
	section_num(s, lat ? "rms_residual_ns" : "rms_residual_dist", h->rms, lat ? "%.1f" : "%.2f");
	section_int(s, "cells", h->n);
	free(sum);
	if (h->nnegative)
		doc_note(doc, "per-hop model: %d cell%s lie in a level below their row's local one (remote faster than local beyond the noise) and are left out",
			 h->nnegative, slit_plural(h->nnegative));
	if (h->nskipped_rows)
		doc_note(doc, "per-hop model: %d CPU node%s without a measured local cell left out (no local level to count levels from)",
			 h->nskipped_rows, slit_plural(h->nskipped_rows));
}

static void proposal_row(const void *ctx, struct ph_matrix *x, int r)
{
	const struct ph_proposal *p = ctx;

	for (int c = 0; c < p->n; c++)
		if (p->dist[r * p->n + c] >= 0)
			matrix_int(x, r, c, p->dist[r * p->n + c]);
}

static void exception_row(const void *ctx, struct ph_table *t, int r)
{
	const struct ph_proposal *p = ctx;
	int i = p->except[r];

	table_int(t, r, "from_node", p->ids[i / p->n]);
	table_int(t, r, "to_node", p->ids[i % p->n]);
	if (p->dist[i] >= 0)
		table_int(t, r, "value", p->dist[i]);
	table_str(t, r, "source", prop_src_name(p->src[i]));
	table_bool(t, r, "clamped", p->clamped[i]);
}

/* The distinct values of a proposal, ascending: "10 16 28 33". */
static char *distinct_values(const struct ph_proposal *p)
{
	int n = p->n * p->n, nd = 0;
	int *v = xmalloc((n ? n : 1) * sizeof(int));
	char *s = xstrdup(""), *t;

	for (int k = 0; k < n; k++)
		if (p->dist[k] >= 0)
			v[nd++] = p->dist[k];
	qsort(v, nd, sizeof(int), int_order);
	for (int i = 0; i < nd; i++) {
		if (i && v[i] == v[i - 1])
			continue;
		t = xasprintf("%s%s%d", s, *s ? " " : "", v[i]);
		free(s);
		s = t;
	}
	free(v);
	return s;
}

static void proposal_level_row(const void *ctx, struct ph_table *t, int r)
{
	const struct ph_analysis *a = ctx;
	const struct ph_proposal *p = a->prop.mode == PH_PROPOSE_LEVELS ? &a->prop : &a->prop_other;

	table_int(t, r, "level", r);
	table_int(t, r, "cells", a->measured.lv[r].n);
	table_bool(t, r, "local", a->measured.lv[r].has_local);
	table_int(t, r, "remote_cells_pooled", p->level_pooled[r]);
	table_num(t, r, "dist_mean", a->measured.lv[r].mean, "%.2f");
	table_num(t, r, "dist_pooled", p->level_dist[r], "%.3f");
	if (isfinite(p->level_dist[r]))
		table_int(t, r, "value", p->level_value[r]);
}

static void add_proposal(struct ph_doc *doc, const struct ph_slit_job *job,
			 const struct ph_analysis *a)
{
	const struct ph_proposal *p = &a->prop, *o = &a->prop_other;
	bool lv = p->mode == PH_PROPOSE_LEVELS;
	char *title = lv ? xasprintf("proposed SLIT (one value per measured level of %s of %s: each level's pooled distance rounded; symmetric unless a pair is asymmetric beyond the CIs; diagonal 10, others 11..254)",
				     job->figure, job->input)
			 : xasprintf("proposed SLIT (measured distances from %s of %s rounded, cell by cell; diagonal 10, others 11..254)",
				     job->figure, job->input);
	char *vals = distinct_values(p);
	struct ph_section *sec;
	struct ph_table *t;

	doc_add_matrix_rows(doc, "proposed_slit", title, "distance", p->n, p->ids, p->n, p->ids,
			    proposal_row, p);
	free(title);
	sec = doc_add_section(doc, "proposal", "what the proposed SLIT is made of (--proposal)");
	section_str(sec, "proposal", lv ? "levels" : "cells");
	section_str(sec, "values", vals);
	section_int(sec, "measured_levels", a->measured.n);
	if (lv)
		section_int(sec, "symmetrised_entries", p->nsymmetrised);
	section_str(sec, "other", lv ? "proposed_slit_cells: every cell rounded on its own (--proposal cells)"
				     : "proposed_slit_levels: one value per measured level (--proposal levels)");
	free(vals);
	t = doc_add_table_rows(doc, "proposed_levels",
			       "measured levels and the value each gives the proposal (pooled: 10 x sum of the figures / sum of their rows' local figures, bandwidth inverted)",
			       a->measured.n, proposal_level_row, a);
	table_add_col(t, "level");
	table_add_col(t, "cells");
	table_add_col(t, "local");
	table_add_col(t, "remote_cells_pooled");
	table_add_col(t, "dist_mean");
	table_add_col(t, "dist_pooled");
	table_add_col(t, "value");
	t = doc_add_table_rows(doc, "proposed_exceptions",
			       lv ? "proposed SLIT entries not simply their own measured cell's level value"
				  : "proposed SLIT entries not simply rounded from their own measured cell",
			       p->nexcept, exception_row, p);
	table_add_col(t, "from_node");
	table_add_col(t, "to_node");
	table_add_col(t, "value");
	table_add_col(t, "source");
	table_add_col(t, "clamped");
	title = lv ? xasprintf("proposed SLIT, cell by cell (--proposal cells: each measured distance rounded on its own; not emitted)")
		   : xasprintf("proposed SLIT, by level (--proposal levels: one value per measured level; not emitted)");
	doc_add_matrix_rows(doc, lv ? "proposed_slit_cells" : "proposed_slit_levels", title, "distance",
			    o->n, o->ids, o->n, o->ids, proposal_row, o);
	free(title);
	if (lv && p->nsymmetrised)
		doc_note(doc, "proposed SLIT: %d entr%s given the value of the reverse entry: the two directions fell in different measured levels, but the asymmetry check does not find the pair asymmetric beyond the CIs (source symmetrised)",
			 p->nsymmetrised, p->nsymmetrised == 1 ? "y" : "ies");
	for (int i = 0; i < p->n; i++) {
		if (p->ids[i] != i) {
			doc_note(doc, "node ids are not 0..%d: ACPI locality i is the i-th node in ascending order; check that it is proximity domain i (dmesg: SRAT: PXM ... -> Node ...)",
				 p->n - 1);
			break;
		}
	}
}

void slit_report_model(struct ph_doc *doc, const struct ph_slit_job *job, const struct ph_analysis *a)
{
	if (job->nhmat)
		add_hmat(doc, job);
	add_hops(doc, job, a);
	add_proposal(doc, job, a);
}
