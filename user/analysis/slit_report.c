// SPDX-License-Identifier: GPL-2.0-only
/*
 * slit_report.c - the report of "pagehop slit": the analysis of distance.c
 * turned into a document (verdict, checks, matrices, levels, ordering,
 * magnitude, asymmetry, HMAT, per-hop model, proposed SLIT), each figure
 * saying what it was derived from.  docs/slit.md explains every number.
 */
#include "acpi_slit.h"
#include "distance.h"
#include "output.h"
#include "slit_report.h"
#include "util.h"
#include "verdict.h"
#include "verdict_margin.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- wording ---- */

static const char *plural(long n)
{
	return n == 1 ? "" : "s";
}

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

static char *derivation(const struct ph_slit_job *job)
{
	switch (job->m->metric) {
	case PH_METRIC_LATENCY:
		return xasprintf("distance = 10 * L[c][m] / L[c][local], L = %s from %s",
				 job->figure, job->input);
	case PH_METRIC_BANDWIDTH:
		return xasprintf("distance = 10 * B[c][local] / B[c][m], B = %s from %s",
				 job->figure, job->input);
	case PH_METRIC_DISTANCE:
		break;
	}
	return xasprintf("distance = 10 * D[c][m] / D[c][local], D = %s from %s (already normalised: unchanged where D[c][local] = 10)",
			 job->figure, job->input);
}

/*
 * What the measurement was compared with: the SLIT, or what Linux uses in
 * its place; as a subject ("SLIT has 3") and with its article.
 */
static const char *table_name(const struct ph_analysis *a)
{
	return a->slit_rejected ? "Linux's default table" : "SLIT";
}

static const char *the_table(const struct ph_analysis *a)
{
	return a->slit_rejected ? "Linux's default table" : "the SLIT";
}

/* The cell k of the matrix as "0>1". */
static void cell_name(const struct ph_dmatrix *d, int k, char *buf, size_t len)
{
	snprintf(buf, len, "%d>%d", d->row_ids[k / d->ncols], d->col_ids[k % d->ncols]);
}

/* The cells named in the summary; the table lacking_evidence has them all. */
#define LACKING_NAMED 8

static char *summary_of(const struct ph_analysis *a, enum ph_verdict v);

static char *cannot_tell(const struct ph_analysis *a)
{
	char *s = xasprintf("cannot tell: %d of %d analysed cell%s lack%s the evidence for a verdict (at least %d samples and the CI target met):",
			    a->nlacking, a->ncounted, plural(a->ncounted), a->nlacking == 1 ? "s" : "",
			    PH_EVIDENCE_MIN_SAMPLES);
	char *t, *fig;

	for (int i = 0; i < a->nlacking && i < LACKING_NAMED; i++) {
		char c[32];

		cell_name(&a->dm, a->lacking[i], c, sizeof(c));
		t = xasprintf("%s%s %s", s, i ? "," : "", c);
		free(s);
		s = t;
	}
	if (a->nlacking > LACKING_NAMED) {
		t = xasprintf("%s and %d more (table lacking_evidence)", s, a->nlacking - LACKING_NAMED);
		free(s);
		s = t;
	}
	fig = summary_of(a, a->verdict_figures);
	t = xasprintf("%s; measure longer (--time) or with a looser --ci for more samples. The figures as they are would read: %s",
		      s, fig);
	free(s);
	free(fig);
	return t;
}

static char *summary_core(const struct ph_analysis *a)
{
	return summary_of(a, a->verdict);
}

static char *summary_of(const struct ph_analysis *a, enum ph_verdict v)
{
	const char *tn = table_name(a), *the = the_table(a);
	char *s, *t;

	switch (v) {
	case PH_VERDICT_CANNOT_TELL:
		return cannot_tell(a);
	case PH_VERDICT_UNCOMPARED:
		return xstrdup("not compared: no SLIT covering the measured nodes; levels, asymmetry, per-hop model and proposed SLIT only");
	case PH_VERDICT_CONSISTENT:
		return xasprintf("consistent: %d level%s on both sides, no ordering violation, every cell within %g%% of %s",
				 a->measured.n, plural(a->measured.n), a->opts.tolerance * 100, the);
	case PH_VERDICT_MAGNITUDE:
		return xasprintf("consistent in order, but %d of %d cell%s differ from %s by more than %g%%",
				 a->nmag_out, a->nmag, plural(a->nmag), the, a->opts.tolerance * 100);
	case PH_VERDICT_INCONSISTENT:
		break;
	}
	s = xstrdup("inconsistent:");
	if (a->measured.n != a->slit.n) {
		t = xasprintf("%s measurement shows %d level%s, %s has %d", s,
			      a->measured.n, plural(a->measured.n), tn, a->slit.n);
		free(s);
		s = t;
	}
	if (a->nviol) {
		t = xasprintf("%s%s %d ordering violation%s", s,
			      a->measured.n != a->slit.n ? ";" : "", a->nviol, plural(a->nviol));
		free(s);
		s = t;
	}
	if (a->nlevel_cells_differ) {
		t = xasprintf("%s%s %d cell%s in a different level than %s's", s,
			      a->nviol ? ";" : "", a->nlevel_cells_differ,
			      plural(a->nlevel_cells_differ), the);
		free(s);
		s = t;
	}
	return s;
}

char *slit_summary(const struct ph_analysis *a)
{
	char *s = summary_core(a), *t;
	const struct ph_slit_check *c = &a->slit_check;

	if (a->slit_rejected) {
		/* The default table has the given one's nodes, in its order. */
		t = xasprintf("%s (Linux ignores the SLIT given, whose entry from node %d to node %d is %d, and uses 10 local, 20 remote)",
			      s, a->slit_default->ids[c->row], a->slit_default->ids[c->col], c->value);
		free(s);
		s = t;
	}
	/* A published table is judged as given: the verdict says it rests on no sample count. */
	if (!a->have_counts) {
		t = xasprintf("%s; figures as given (no sample counts: each value taken as uncertain by +-%g%%)",
			      s, a->opts.noise * 100);
		free(s);
		s = t;
	}
	return s;
}

char *slit_rejection(const struct ph_slit_check *c, const char *unit,
		     int from, int to)
{
	return xasprintf("Linux ignores this SLIT (drivers/acpi/numa/srat.c, slit_valid()): the entry from %s %d to %s %d is %d, and %s; %d of %d entries break the rules%s. Linux uses its default distances instead: 10 local, 20 remote",
			 unit, from, unit, to, c->value, slit_rule_text(c->rule), c->nbad,
			 c->nentries, !c->uniform ? "" : c->value == 0 ? " (every entry is 0: an empty table)"
			 : c->value == PH_LOCAL_DISTANCE ? " (every entry is 10: no distances at all)"
			 : " (every entry is the same)");
}

static int int_order(const void *pa, const void *pb)
{
	int x = *(const int *)pa, y = *(const int *)pb;

	return (x > y) - (x < y);
}

/* A value as printed with quantum q: never "-0". */
static double nz(double x, double q)
{
	return fabs(x) < q / 2 ? 0.0 : x;
}

/* ---- pairs of a level: "{0,1} {2,3} 4>0", "local" for diagonal cells ---- */

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

static void level_cells_init(const struct ph_dmatrix *d, const struct ph_levels *l,
			     struct level_cells *g)
{
	size_t n = (size_t)d->nrows * d->ncols;
	int *fill;

	g->row_of_col = node_index(d->row_ids, d->nrows, d->col_ids, d->ncols);
	g->col_of_row = node_index(d->col_ids, d->ncols, d->row_ids, d->nrows);
	g->first = xcalloc(l->n + 2, sizeof(int));
	g->cell = xmalloc((n ? n : 1) * sizeof(int));
	for (size_t k = 0; k < n; k++)
		if (l->cell[k] >= 0)
			g->first[l->cell[k] + 1]++;
	for (int i = 0; i < l->n; i++)
		g->first[i + 1] += g->first[i];
	fill = xmalloc((l->n + 1) * sizeof(int));
	memcpy(fill, g->first, (l->n + 1) * sizeof(int));
	for (size_t k = 0; k < n; k++)
		if (l->cell[k] >= 0)
			g->cell[fill[l->cell[k]]++] = (int)k;
	free(fill);
}

static int level_cells_rev(const struct ph_dmatrix *d, const struct level_cells *g, int k)
{
	int rr = g->row_of_col[k % d->ncols], rc = g->col_of_row[k / d->ncols];

	return rr >= 0 && rc >= 0 ? rr * d->ncols + rc : -1;
}

static void level_cells_free(struct level_cells *g)
{
	free(g->first);
	free(g->cell);
	free(g->row_of_col);
	free(g->col_of_row);
}

/* The characters of v in decimal, and v written there (no NUL). */
static int int_len(int v)
{
	unsigned u = v < 0 ? 0u - (unsigned)v : (unsigned)v;
	int n = v < 0;

	do {
		n++;
		u /= 10;
	} while (u);
	return n;
}

static int put_int(char *p, int v)
{
	unsigned u = v < 0 ? 0u - (unsigned)v : (unsigned)v;
	int n = int_len(v);

	if (v < 0)
		*p = '-';
	for (int i = n - 1; i >= (v < 0); i--) {
		p[i] = (char)('0' + u % 10);
		u /= 10;
	}
	return n;
}

struct pair {
	int a, b;
	bool both;	/* b's CPUs to a's memory is in the level too */
};

static int pair_cmp(const void *pa, const void *pb)
{
	const struct pair *p = pa, *q = pb;
	int a0 = p->a < p->b ? p->a : p->b, b0 = q->a < q->b ? q->a : q->b;
	int a1 = p->a < p->b ? p->b : p->a, b1 = q->a < q->b ? q->b : q->a;

	if (a0 != b0)
		return (a0 > b0) - (a0 < b0);
	if (a1 != b1)
		return (a1 > b1) - (a1 < b1);
	return (p->a > q->a) - (p->a < q->a);
}

static char *level_pairs(const struct ph_dmatrix *d, const struct ph_levels *l,
			 const struct level_cells *g, int level)
{
	int from = g->first[level], to = g->first[level + 1];
	struct pair *pairs = xmalloc((to - from + 1) * sizeof(*pairs));
	int np = 0, nlocal = 0;
	char *s, *p;
	size_t len;

	for (int i = from; i < to; i++) {
		int k = g->cell[i], a = d->row_ids[k / d->ncols], b = d->col_ids[k % d->ncols];
		int rev = level_cells_rev(d, g, k);
		bool both = rev >= 0 && l->cell[rev] == level;

		if (a == b) {
			nlocal++;
			continue;
		}
		/* Both directions in the level: one unordered pair, once. */
		if (both && a > b)
			continue;
		pairs[np++] = (struct pair){ a, b, both };
	}
	qsort(pairs, np, sizeof(*pairs), pair_cmp);
	/* Measured, then written into exactly that much: a level may hold N^2 / 2 pairs. */
	len = nlocal ? (size_t)snprintf(NULL, 0, "local (%d node%s)", nlocal, plural(nlocal)) : 0;
	for (int i = 0; i < np; i++)
		len += (nlocal || i) + int_len(pairs[i].a) + int_len(pairs[i].b) + (pairs[i].both ? 3 : 1);
	s = xmalloc(len + 1);
	p = s;
	if (nlocal)
		p += sprintf(p, "local (%d node%s)", nlocal, plural(nlocal));
	for (int i = 0; i < np; i++) {
		if (nlocal || i)
			*p++ = ' ';
		if (pairs[i].both)
			*p++ = '{';
		p += put_int(p, pairs[i].a);
		*p++ = pairs[i].both ? ',' : '>';
		p += put_int(p, pairs[i].b);
		if (pairs[i].both)
			*p++ = '}';
	}
	*p = '\0';
	free(pairs);
	return s;
}

char *slit_level_pairs(const struct ph_dmatrix *d, const struct ph_levels *l, int level)
{
	struct level_cells g;
	char *s;

	level_cells_init(d, l, &g);
	s = level_pairs(d, l, &g, level);
	level_cells_free(&g);
	return s;
}

/* The lowest level without a local cell: the nearest remote one. */
static int nearest_remote(const struct ph_levels *l)
{
	for (int i = 0; i < l->n; i++)
		if (!l->lv[i].has_local)
			return i;
	return -1;
}

/* ---- the document ---- */

/* Where the table compared came from, as the report names it. */
static char *compared_label(const struct ph_slit_job *job, const struct ph_analysis *a)
{
	if (a->slit_rejected)
		return xasprintf("Linux's default distances (10 local, 20 remote), in place of %s, which Linux ignores",
				 job->slit_from);
	return xstrdup(job->slit_from);
}

static void add_verdict(struct ph_doc *doc, const struct ph_slit_job *job,
			const struct ph_analysis *a)
{
	struct ph_section *s = doc_add_section(doc, "verdict", "verdict");
	char *sum = slit_summary(a), *der = derivation(job);
	int near = nearest_remote(&a->measured);

	section_str(s, "status", verdict_status(a->verdict));
	section_int(s, "exit_code", verdict_exit(a->verdict));
	section_str(s, "summary", sum);
	section_str(s, "input", job->input);
	section_str(s, "figure", job->figure);
	section_str(s, "measured_by", job->source);
	section_str(s, "normalisation", der);
	if (!job->slit) {
		section_str(s, "slit", "none");
	} else if (!a->slit_rejected) {
		section_str(s, "slit", job->slit_from);
		section_str(s, "slit_linux", "accepted");
	} else {
		const struct ph_slit_check *c = &a->slit_check;
		char *label = compared_label(job, a);
		char *why = slit_rejection(c, "node", job->slit->ids[c->row], job->slit->ids[c->col]);

		section_str(s, "slit", label);
		section_str(s, "slit_linux", "rejected");
		section_str(s, "slit_given", job->slit_from);
		section_str(s, "slit_linux_rule", slit_rule_name(c->rule));
		section_int(s, "slit_linux_from", job->slit->ids[c->row]);
		section_int(s, "slit_linux_to", job->slit->ids[c->col]);
		section_int(s, "slit_linux_value", c->value);
		section_int(s, "slit_linux_bad_entries", c->nbad);
		section_str(s, "slit_linux_why", why);
		section_str(s, "slit_compared", "Linux's default distances: 10 local, 20 remote");
		free(label);
		free(why);
	}
	section_num(s, "tolerance_pct", a->opts.tolerance * 100, "%g");
	section_num(s, "noise_pct", a->opts.noise * 100, "%g");
	section_int(s, "measured_levels", a->measured.n);
	section_int(s, "measured_remote_levels", a->measured.nremote);
	if (near >= 0) {
		struct level_cells g;
		char *p;

		level_cells_init(&a->dm, &a->measured, &g);
		p = level_pairs(&a->dm, &a->measured, &g, near);
		section_str(s, "nearest_remote_pairs", p);
		free(p);
		level_cells_free(&g);
	}
	if (a->have_slit) {
		section_int(s, "slit_levels", a->slit.n);
		section_int(s, "slit_remote_levels", a->slit.nremote);
		section_int(s, "ordering_violations", a->nviol);
		if (a->measured.n == a->slit.n)
			section_int(s, "cells_in_other_level", a->nlevel_cells_differ);
		section_int(s, "cells_compared", a->nmag);
		section_int(s, "cells_outside_tolerance", a->nmag_out);
	}
	section_int(s, "asymmetric_pairs", a->nasym_beyond);
	if (!a->have_counts) {
		char *e = xasprintf("figures as given: the input carries no sample counts, so the figures are judged as they are, each taken as uncertain by +-%g%% (--noise) where it has no CI",
				    a->opts.noise * 100);

		section_str(s, "evidence", e);
		free(e);
	} else if (a->nlacking) {
		section_str(s, "evidence", "lacking: see lacking_evidence");
		section_int(s, "lacking_cells", a->nlacking);
		section_str(s, "status_of_figures", verdict_status(a->verdict_figures));
	} else {
		char *e = xasprintf("every analysed cell: at least %d samples, CI target met", PH_EVIDENCE_MIN_SAMPLES);

		section_str(s, "evidence", e);
		free(e);
	}
	free(sum);
	free(der);
}

static void lacking_row(const void *ctx, struct ph_table *t, int r)
{
	const struct ph_analysis *a = ctx;
	const struct ph_nmatrix *m = a->m;
	int k = a->lacking[r];

	table_int(t, r, "cpu_node", m->row_ids[k / m->ncols]);
	table_int(t, r, "mem_node", m->col_ids[k % m->ncols]);
	table_int(t, r, "samples", m->samples[k]);
	table_bool(t, r, "ci_met", !m->ci_missed[k] && m->samples[k] >= PH_EVIDENCE_MIN_SAMPLES);
}

/* The cells without the evidence, made when the document is rendered. */
static void add_lacking(struct ph_doc *doc, const struct ph_slit_job *job,
			const struct ph_analysis *a)
{
	struct ph_table *t;

	if (!a->nlacking)
		return;
	t = doc_add_table_rows(doc, "lacking_evidence",
			       "cells without the evidence for a verdict (fewer samples than needed, or the CI target missed)",
			       a->nlacking, lacking_row, a);
	table_add_col(t, "cpu_node");
	table_add_col(t, "mem_node");
	table_add_col(t, "samples");
	table_add_col(t, "ci_met");
	doc_note(doc, "no verdict: %d cell%s of %s have fewer than %d samples or missed the CI target; the verdict needs both of every cell. A longer --time (or a looser --ci) gives them the samples",
		 a->nlacking, plural(a->nlacking), job->figure, PH_EVIDENCE_MIN_SAMPLES);
}

static void add_checks(struct ph_doc *doc, const struct ph_slit_job *job,
		       const struct ph_analysis *a)
{
	struct ph_table *t = doc_add_table(doc, "checks", "checks");
	int r;

	table_add_col(t, "check");
	table_add_col(t, "result");
	table_add_col(t, "detail");
	if (job->slit) {
		const struct ph_slit_check *c = &a->slit_check;
		char *d = a->slit_rejected
			  ? slit_rejection(c, "node", job->slit->ids[c->row], job->slit->ids[c->col])
			  : xstrdup("diagonal 10, every other entry above 10: Linux uses it as given");

		r = table_add_row(t);
		table_str(t, r, "check", "slit_for_linux");
		table_str(t, r, "result", a->slit_rejected ? "ignored by Linux" : "ok");
		table_str(t, r, "detail", d);
		free(d);
	}
	if (a->have_slit) {
		char *d;

		r = table_add_row(t);
		table_str(t, r, "check", "levels");
		table_str(t, r, "result", a->measured.n == a->slit.n && !a->nlevel_cells_differ
					  ? "ok" : "inconsistent");
		d = xasprintf("measured %d (%d remote), %s %d (%d remote)%s",
			      a->measured.n, a->measured.nremote, table_name(a), a->slit.n, a->slit.nremote,
			      a->nlevel_cells_differ ? "; some cells fall in different levels" : "");
		table_str(t, r, "detail", d);
		free(d);

		r = table_add_row(t);
		table_str(t, r, "check", "ordering");
		table_str(t, r, "result", a->nviol ? "inconsistent" : "ok");
		d = xasprintf("%d pair%s where the SLIT says nearer and the measurement says farther beyond the CIs",
			      a->nviol, plural(a->nviol));
		table_str(t, r, "detail", d);
		free(d);

		r = table_add_row(t);
		table_str(t, r, "check", "magnitude");
		table_str(t, r, "result", a->nmag_out ? "outside tolerance" : "ok");
		d = xasprintf("%d of %d remote cell%s outside +-%g%% of the SLIT",
			      a->nmag_out, a->nmag, plural(a->nmag), a->opts.tolerance * 100);
		table_str(t, r, "detail", d);
		free(d);
	}
	r = table_add_row(t);
	table_str(t, r, "check", "asymmetry");
	table_str(t, r, "result", "information");
	{
		char *d = xasprintf("asymmetric beyond the CIs: %d of %d node pair%s (not part of the verdict)",
				    a->nasym_beyond, a->nasym, plural(a->nasym));

		table_str(t, r, "detail", d);
		free(d);
	}
	if (job->nhmat) {
		r = table_add_row(t);
		table_str(t, r, "check", "hmat");
		table_str(t, r, "result", "information");
		table_str(t, r, "detail", "HMAT local latency and bandwidth against the measurement (not part of the verdict)");
	}
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
	char *der = derivation(job), *title = xasprintf("measured distances (%s)", der);

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

		level_cells_init(&a->dm, sets[k], &g);
		for (int i = 0; i < sets[k]->n; i++) {
			const struct ph_level *l = &sets[k]->lv[i];
			int r = table_add_row(t);
			char *p = level_pairs(&a->dm, sets[k], &g, i);

			table_str(t, r, "source", names[k]);
			table_int(t, r, "level", i);
			table_int(t, r, "cells", l->n);
			table_num(t, r, "dist_min", l->min, "%.2f");
			table_num(t, r, "dist_max", l->max, "%.2f");
			table_num(t, r, "dist_mean", l->mean, "%.2f");
			table_str(t, r, "pairs", p);
			free(p);
		}
		level_cells_free(&g);
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
	table_num(t, r, "rel_err_pct", nz(g->rel_err * 100, 0.1), "%+.1f");
	table_bool(t, r, "within", g->within);
	table_int(t, r, "measured_level", a->measured.cell[k]);
	table_int(t, r, "slit_level", a->slit.cell[k]);
}

static void add_magnitude(struct ph_doc *doc, const struct ph_slit_job *job,
			  const struct ph_analysis *a)
{
	char *from = compared_label(job, a);
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
				c->hops, plural(c->hops), nz(c->extra_mean, 1), c->n);
		else if (job->m->metric == PH_METRIC_BANDWIDTH)
			fprintf(f, "%s%d level%s above local %+.2f distance, bandwidth x%.2f of local (n=%d)",
				i ? ", " : "", c->hops, plural(c->hops), nz(c->extra_mean, 0.01),
				c->ratio_mean, c->n);
		else
			fprintf(f, "%s%d level%s above local %+.2f distance (n=%d)", i ? ", " : "",
				c->hops, plural(c->hops), nz(c->extra_mean, 0.01), c->n);
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
			 h->nnegative, plural(h->nnegative));
	if (h->nskipped_rows)
		doc_note(doc, "per-hop model: %d CPU node%s without a measured local cell left out (no local level to count levels from)",
			 h->nskipped_rows, plural(h->nskipped_rows));
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

void slit_report_firmware(struct ph_doc *doc, const char *path, bool this_machine,
			  int err, const char *why, const struct ph_acpi_slit *t)
{
	struct ph_section *s = doc_add_section(doc, "firmware_slit",
					       "firmware SLIT (the ACPI table, as Linux judges it)");
	struct ph_slit_check c;
	char *text;

	section_str(s, "table", path);
	if (err == -ENOENT) {
		section_str(s, "status", "absent");
		section_str(s, "linux_uses", "no ACPI SLIT: its default distances, 10 local and 20 remote (unless a device tree gives distances)");
		return;
	}
	if (err == -EINVAL) {
		section_str(s, "status", "malformed");
		section_str(s, "why", why);
		section_str(s, "linux_uses", "unknown");
		return;
	}
	if (err) {
		text = xasprintf("%s%s", strerror(-err),
				 err == -EACCES || err == -EPERM ? ": reading the table needs root" : "");
		section_str(s, "status", "unreadable");
		section_str(s, "why", text);
		section_str(s, "linux_uses", "unknown");
		free(text);
		return;
	}
	if (slit_linux_check(t->n, t->entry, &c)) {
		section_str(s, "status", "accepted");
		section_int(s, "localities", t->n);
		section_str(s, "linux_uses", "this table (localities are proximity domains; dmesg 'SRAT: PXM p -> ... -> Node n' maps them to nodes)");
		return;
	}
	text = slit_rejection(&c, "locality", c.row, c.col);
	section_str(s, "status", "rejected");
	section_int(s, "localities", t->n);
	section_str(s, "linux_uses", "its default distances: 10 local, 20 remote");
	section_str(s, "rule", slit_rule_name(c.rule));
	section_int(s, "from_locality", c.row);
	section_int(s, "to_locality", c.col);
	section_int(s, "value", c.value);
	section_int(s, "bad_entries", c.nbad);
	section_str(s, "why", text);
	if (this_machine)
		doc_note(doc, "the firmware's SLIT (%s): %s; the node distances this kernel reports are those defaults, not the firmware's",
			 path, text);
	else
		doc_note(doc, "the SLIT of %s: %s; a kernel booted with it would report those defaults, not its distances",
			 path, text);
	free(text);
}

int slit_analyse(const struct ph_slit_job *job, struct ph_analysis *a,
		 char *err, size_t errlen)
{
	int ret = analysis_run(job->m, job->slit, &job->opts, a);

	if (ret)
		snprintf(err, errlen, "%s: no CPU node has a usable measured cell; nothing to normalise",
			 job->input);
	return ret;
}

void slit_report(const struct ph_slit_job *job, const struct ph_analysis *a,
		 struct ph_doc *doc)
{
	add_verdict(doc, job, a);
	add_lacking(doc, job, a);
	/* No verdict, no margin: run again at any --noise it is "cannot tell" still. */
	if (a->verdict != PH_VERDICT_CANNOT_TELL)
		verdict_margin_report(doc, job->m, a->slit_default ? a->slit_default : job->slit, a);
	if (job->fw_path)
		slit_report_firmware(doc, job->fw_path, true, job->fw_err, job->fw_why, job->fw);
	add_checks(doc, job, a);
	add_input_matrix(doc, job);
	add_distances(doc, job, a);
	add_local(doc, job, a);
	add_levels(doc, a);
	if (a->have_slit) {
		add_ordering(doc, a);
		add_magnitude(doc, job, a);
	}
	add_asymmetry(doc, job, a);
	if (job->nhmat)
		add_hmat(doc, job);
	add_hops(doc, job, a);
	add_proposal(doc, job, a);
	if (!job->slit)
		doc_note(doc, "no SLIT given: levels, asymmetry, per-hop model and proposed SLIT only; give --slit FILE (numactl --hardware output) to compare");
	else if (!a->have_slit)
		doc_note(doc, "the SLIT (%s) covers none of the measured cells: not compared", job->slit_from);
	if (a->slit_rejected) {
		const struct ph_slit_check *c = &a->slit_check;
		char *why = slit_rejection(c, "node", job->slit->ids[c->row], job->slit->ids[c->col]);

		doc_note(doc, "the SLIT of %s: %s; the measurement is compared with those defaults, the table the kernel would use, not with the SLIT given",
			 job->slit_from, why);
		free(why);
	}
	if (job->m->metric != PH_METRIC_LATENCY && job->nhmat == 0 && !job->latency)
		doc_note(doc, "per-hop figures are in distance units (10 = local), derived from %s; a latency matrix gives them in ns",
			 job->figure);
	if (job->ci_not_met && !a->nlacking)
		doc_note(doc, "%d cell%s of %s missed the CI target when measured (ci_met false); the analysis uses the CIs as recorded",
			 job->ci_not_met, plural(job->ci_not_met), job->figure);
	doc_note(doc, "each measured value is taken as uncertain by at least +-%g%% (--noise) where its CI is narrower or absent; distances whose intervals overlap are one level",
		 a->opts.noise * 100);
}
