// SPDX-License-Identifier: GPL-2.0-only
/*
 * fleet.c - outliers among many hosts, and the "compare" document (fleet.h).
 */
#include "fleet.h"
#include "output.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The MAD scaled to the standard deviation of a normal distribution. */
#define MAD_TO_SIGMA 1.4826

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median_of(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static struct ph_htol tol_of(const char *name, const struct ph_htol over[PH_HK_NKINDS],
			     const bool set[PH_HK_NKINDS])
{
	int k = health_kind_of(name);

	if (k >= 0 && set && set[k])
		return over[k];
	return health_default_tol(k < 0 ? PH_HK_NKINDS : (enum ph_hkind)k);
}

/* Judge figure g (of host i) over the hosts of its model. */
static void judge(const struct ph_hset *sets, int n, int i, const struct ph_hfig *g, double k,
		  const struct ph_htol over[PH_HK_NKINDS], const bool set[PH_HK_NKINDS],
		  double *vals, struct ph_fleet *out)
{
	int m = 0;
	double med, mad, dev, t;
	struct ph_htol tol = tol_of(g->name, over, set);

	for (int j = 0; j < n; j++) {
		const struct ph_hfig *h;

		if (strcmp(sets[j].model, sets[i].model))
			continue;
		h = hset_find(&sets[j], g->name, g->node, g->mem_node);
		if (h)
			vals[m++] = h->value;
	}
	if (m < FLEET_MIN_HOSTS)
		return;
	med = median_of(vals, m);
	for (int j = 0; j < m; j++)
		vals[j] = fabs(vals[j] - med);
	mad = median_of(vals, m);
	if (med <= 0 || fabs(g->value - med) <= k * MAD_TO_SIGMA * mad)
		return;
	dev = (g->value - med) / med;
	t = dev < 0 ? tol.lower : tol.upper;
	if (isnan(t) || fabs(dev) <= fabs(t))
		return;
	out->v = xrealloc(out->v, (size_t)(out->n + 1) * sizeof(*out->v));
	out->v[out->n] = (struct ph_stray){ .set = i, .fig = *g, .median = med, .mad = mad, .dev = dev,
					    .tol = t, .score = t ? fabs(dev / t) : INFINITY };
	if (out->v[out->n].score > out->score[i])
		out->score[i] = out->v[out->n].score;
	out->n++;
}

static const double *score_key;

static int by_score(const void *a, const void *b)
{
	double x = score_key[*(const int *)a], y = score_key[*(const int *)b];

	return (x < y) - (x > y);
}

void fleet_compare(const struct ph_hset *sets, int n, double k,
		   const struct ph_htol over[PH_HK_NKINDS], const bool set[PH_HK_NKINDS],
		   struct ph_fleet *out)
{
	double *vals = xcalloc((size_t)n + 1, sizeof(*vals));

	memset(out, 0, sizeof(*out));
	out->score = xcalloc((size_t)n + 1, sizeof(*out->score));
	out->rank = xcalloc((size_t)n + 1, sizeof(*out->rank));
	for (int i = 0; i < n; i++) {
		int same = 0;
		bool first = true;

		for (int j = 0; j < n; j++)
			if (!strcmp(sets[j].model, sets[i].model)) {
				same++;
				first &= j >= i;
			}
		out->nmodels += first;
		if (same < FLEET_MIN_HOSTS) {
			out->nsmall++;
			continue;
		}
		for (int f = 0; f < sets[i].nfigs; f++)
			if (health_kind_of(sets[i].figs[f].name) >= 0)
				judge(sets, n, i, &sets[i].figs[f], k, over, set, vals, out);
	}
	for (int i = 0; i < n; i++)
		if (out->score[i] > 0)
			out->rank[out->nranked++] = i;
	score_key = out->score;
	qsort(out->rank, (size_t)out->nranked, sizeof(*out->rank), by_score);
	free(vals);
}

void fleet_free(struct ph_fleet *f)
{
	free(f->v);
	free(f->rank);
	free(f->score);
	memset(f, 0, sizeof(*f));
}

struct ph_doc *fleet_doc(const struct ph_hset *sets, int n, const struct ph_fleet *f, double k)
{
	struct ph_doc *doc = doc_new("compare");
	struct ph_section *sec = doc_add_section(doc, "summary", "summary");
	struct ph_table *h, *o;

	section_int(sec, "documents", n);
	section_int(sec, "models", f->nmodels);
	section_int(sec, "hosts_straying", f->nranked);
	section_num(sec, "k", k, "%g");
	h = doc_add_table(doc, "hosts", "hosts that stray, furthest first");
	for (const char *c = "rank\0host\0stray\0figures\0file\0"; *c; c += strlen(c) + 1)
		table_add_col(h, c);
	for (int r = 0; r < f->nranked; r++) {
		int i = f->rank[r], row = table_add_row(h);
		char figs[1024] = "";
		size_t l = 0;

		for (int j = 0; j < f->n; j++)
			if (f->v[j].set == i && l + 1 < sizeof(figs))
				l += (size_t)snprintf(figs + l, sizeof(figs) - l, "%snode %d %s %+.0f%%", l ? ", " : "",
						      f->v[j].fig.node, f->v[j].fig.name, f->v[j].dev * 100);
		table_int(h, row, "rank", r + 1);
		table_str(h, row, "host", sets[i].host[0] ? sets[i].host : sets[i].source);
		table_num(h, row, "stray", f->score[i], "%.1f");
		table_str(h, row, "figures", figs);
		table_str(h, row, "file", sets[i].source);
	}
	o = doc_add_table(doc, "outliers", "straying figures");
	for (const char *c = "host\0figure\0node\0mem_node\0value\0unit\0median\0mad\0dev_pct\0tol_pct\0"; *c;
	     c += strlen(c) + 1)
		table_add_col(o, c);
	for (int j = 0; j < f->n; j++) {
		const struct ph_stray *x = &f->v[j];
		int row = table_add_row(o);

		table_str(o, row, "host", sets[x->set].host[0] ? sets[x->set].host : sets[x->set].source);
		table_str(o, row, "figure", x->fig.name);
		table_int(o, row, "node", x->fig.node);
		table_int(o, row, "mem_node", x->fig.mem_node);
		table_num(o, row, "value", x->fig.value, "%.4g");
		table_str(o, row, "unit", x->fig.unit);
		table_num(o, row, "median", x->median, "%.4g");
		table_num(o, row, "mad", x->mad, "%.3g");
		table_num(o, row, "dev_pct", x->dev * 100, "%.1f");
		table_num(o, row, "tol_pct", x->tol * 100, "%g");
	}
	if (f->nsmall)
		doc_note(doc, "%d document(s) of models with fewer than %d hosts: not judged", f->nsmall,
			 FLEET_MIN_HOSTS);
	return doc;
}
