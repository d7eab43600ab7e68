// SPDX-License-Identifier: GPL-2.0-only
/*
 * slit_words.c - the wording the sections of the "pagehop slit" report
 * share: the one-line verdict, why Linux ignores a SLIT, the node pairs of
 * each level, how the distances were derived.
 */
#include "acpi_slit.h"
#include "number.h"
#include "slit_words.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- wording ---- */

const char *slit_plural(long n)
{
	return n == 1 ? "" : "s";
}



char *slit_derivation(const struct ph_slit_job *job)
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
const char *slit_table_name(const struct ph_analysis *a)
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
			    a->nlacking, a->ncounted, slit_plural(a->ncounted), a->nlacking == 1 ? "s" : "",
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
	const char *tn = slit_table_name(a), *the = the_table(a);
	char *s, *t;

	switch (v) {
	case PH_VERDICT_CANNOT_TELL:
		return cannot_tell(a);
	case PH_VERDICT_UNCOMPARED:
		return xstrdup("not compared: no SLIT covering the measured nodes; levels, asymmetry, per-hop model and proposed SLIT only");
	case PH_VERDICT_CONSISTENT:
		return xasprintf("consistent: %d level%s on both sides, no ordering violation, every cell within %g%% of %s",
				 a->measured.n, slit_plural(a->measured.n), a->opts.tolerance * 100, the);
	case PH_VERDICT_MAGNITUDE:
		return xasprintf("consistent in order, but %d of %d cell%s differ from %s by more than %g%%",
				 a->nmag_out, a->nmag, slit_plural(a->nmag), the, a->opts.tolerance * 100);
	case PH_VERDICT_INCONSISTENT:
		break;
	}
	s = xstrdup("inconsistent:");
	if (a->measured.n != a->slit.n) {
		t = xasprintf("%s measurement shows %d level%s, %s has %d", s,
			      a->measured.n, slit_plural(a->measured.n), tn, a->slit.n);
		free(s);
		s = t;
	}
	if (a->nviol) {
		t = xasprintf("%s%s %d ordering violation%s", s,
			      a->measured.n != a->slit.n ? ";" : "", a->nviol, slit_plural(a->nviol));
		free(s);
		s = t;
	}
	if (a->nlevel_cells_differ) {
		t = xasprintf("%s%s %d cell%s in a different level than %s's", s,
			      a->nviol ? ";" : "", a->nlevel_cells_differ,
			      slit_plural(a->nlevel_cells_differ), the);
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


/* A value as printed with quantum q: never "-0". */
double slit_nz(double x, double q)
{
	return fabs(x) < q / 2 ? 0.0 : x;
}

/* ---- pairs of a level: "{0,1} {2,3} 4>0", "local" for diagonal cells ---- */


void slit_level_cells_init(const struct ph_dmatrix *d, const struct ph_levels *l,
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

void slit_level_cells_free(struct level_cells *g)
{
	free(g->first);
	free(g->cell);
	free(g->row_of_col);
	free(g->col_of_row);
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

char *slit_level_cells_pairs(const struct ph_dmatrix *d, const struct ph_levels *l,
			 const struct level_cells *g, int level)
{
	int from = g->first[level], to = g->first[level + 1];
	struct pair *pairs = xmalloc((to - from + 1) * sizeof(*pairs));
	int np = 0, nlocal = 0;
	char *s, *p, num[24];
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
	len = nlocal ? (size_t)snprintf(NULL, 0, "local (%d node%s)", nlocal, slit_plural(nlocal)) : 0;
	for (int i = 0; i < np; i++)
		len += (nlocal || i) + format_int(num, pairs[i].a) + format_int(num, pairs[i].b) +
		       (pairs[i].both ? 3 : 1);
	s = xmalloc(len + 1);
	p = s;
	if (nlocal)
		p += sprintf(p, "local (%d node%s)", nlocal, slit_plural(nlocal));
	for (int i = 0; i < np; i++) {
		if (nlocal || i)
			*p++ = ' ';
		if (pairs[i].both)
			*p++ = '{';
		p += format_int(p, pairs[i].a);	/* its NUL is written over */
		*p++ = pairs[i].both ? ',' : '>';
		p += format_int(p, pairs[i].b);
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

	slit_level_cells_init(d, l, &g);
	s = slit_level_cells_pairs(d, l, &g, level);
	slit_level_cells_free(&g);
	return s;
}

/* Where the table compared came from, as the report names it. */
char *slit_compared_label(const struct ph_slit_job *job, const struct ph_analysis *a)
{
	if (a->slit_rejected)
		return xasprintf("Linux's default distances (10 local, 20 remote), in place of %s, which Linux ignores",
				 job->slit_from);
	return xstrdup(job->slit_from);
}
