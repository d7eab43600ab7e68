// SPDX-License-Identifier: GPL-2.0-only
/*
 * fleet.c - outliers among many hosts, and the "compare" document (fleet.h).
 *
 * Every step sorts once and then walks runs of equal keys: the documents by
 * host (to keep each host's newest), the hosts by model, and each model's
 * figures by (name, node, mem_node), so that a figure's median and MAD are
 * computed once for all the hosts that have it.  A fleet of 100,000 hosts
 * is a few sorts of a million figures, not 10^10 comparisons.
 */
#include "fleet.h"
#include "output.h"
#include "stats.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static int cmp_int(int x, int y)
{
	return (x > y) - (x < y);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static struct ph_htol tol_of(const char *name, const struct ph_htol over[PH_HK_NKINDS],
			     const bool set[PH_HK_NKINDS])
{
	int k = health_kind_of(name);

	if (k >= 0 && set && set[k])
		return over[k];
	return health_default_tol(k < 0 ? PH_HK_NKINDS : (enum ph_hkind)k);
}

/* qsort has no context argument in C; the sorts below are not reentrant. */
static const struct ph_hset *sort_sets;
static const double *sort_score;

static const char *host_of(const struct ph_hset *s)
{
	return s->host[0] ? s->host : s->source;
}

/* Documents of one host; one that names neither host nor file is a host of its own. */
static bool same_host(const struct ph_hset *a, const struct ph_hset *b)
{
	return *host_of(a) && !strcmp(host_of(a), host_of(b));
}

/* By host; of one host, the oldest first and, of equal stamps, as given. */
static int by_host_then_age(const void *a, const void *b)
{
	int i = *(const int *)a, j = *(const int *)b, c;
	const struct ph_hset *x = &sort_sets[i], *y = &sort_sets[j];
	/* The provenance's time, parsed where the document was read. */
	bool vx = x->stamp_from_doc, vy = y->stamp_from_doc;

	c = strcmp(host_of(x), host_of(y));
	if (!c && !*host_of(x))
		return cmp_int(i, j);
	if (!c)
		c = cmp_int(vx, vy);
	if (!c && vx)
		c = (x->stamp > y->stamp) - (x->stamp < y->stamp);
	return c ? c : cmp_int(i, j);
}

static int by_model(const void *a, const void *b)
{
	int i = *(const int *)a, j = *(const int *)b;
	int c = strcmp(sort_sets[i].model, sort_sets[j].model);

	return c ? c : cmp_int(i, j);
}

/* One judged figure of one host, to be sorted with its model's. */
struct entry {
	const struct ph_hfig *fig;
	int set;
};

static int by_figure(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	int c = strcmp(x->fig->name, y->fig->name);

	if (!c)
		c = cmp_int(x->fig->node, y->fig->node);
	if (!c)
		c = cmp_int(x->fig->mem_node, y->fig->mem_node);
	if (!c)
		c = cmp_int(x->set, y->set);
	if (!c)	/* of one document, its first */
		c = (x->fig > y->fig) - (x->fig < y->fig);
	return c;
}

static bool same_figure(const struct ph_hfig *a, const struct ph_hfig *b)
{
	return a->node == b->node && a->mem_node == b->mem_node && !strcmp(a->name, b->name);
}

struct judging {
	double k;
	const struct ph_htol *over;
	const bool *set;
	double *vals;		/* scratch, one per host of the model */
	size_t cap;		/* of out->v */
};

/* The entries e[0..m) of one figure, one per host: judged against their median and MAD. */
static void judge(const struct entry *e, int m, struct judging *j, struct ph_fleet *out)
{
	struct ph_htol tol = tol_of(e[0].fig->name, j->over, j->set);
	double med, mad;

	for (int i = 0; i < m; i++)
		j->vals[i] = e[i].fig->value;
	med = stats_median_mad(j->vals, (size_t)m, &mad);
	if (med <= 0)
		return;
	for (int i = 0; i < m; i++) {
		const struct ph_hfig *g = e[i].fig;
		double dev = (g->value - med) / med, t = dev < 0 ? tol.lower : tol.upper;
		struct ph_stray *s;

		if (!stats_strays(g->value, med, mad, j->k, fabs(t)))
			continue;
		xreserve(&out->v, &j->cap, (size_t)out->n + 1, sizeof(*out->v));
		s = &out->v[out->n++];
		*s = (struct ph_stray){ .set = e[i].set, .fig = *g, .median = med, .mad = mad, .dev = dev,
					.tol = t, .score = t ? fabs(dev / t) : INFINITY };
		if (s->score > out->score[s->set])
			out->score[s->set] = s->score;
	}
}

/* The hosts idx[0..nh) of model md: every figure of theirs a kind is judged on. */
static void judge_model(const struct ph_hset *sets, const int *idx, int nh, struct ph_fleet_model *md,
			struct judging *j, struct ph_fleet *out)
{
	struct entry *e = NULL;
	size_t ne = 0, cap = 0;

	for (int h = 0; h < nh; h++) {
		const struct ph_hset *s = &sets[idx[h]];

		for (int f = 0; f < s->nfigs; f++) {
			if (health_kind_of(s->figs[f].name) < 0)
				continue;
			xreserve(&e, &cap, ne + 1, sizeof(*e));
			e[ne++] = (struct entry){ .fig = &s->figs[f], .set = idx[h] };
		}
	}
	if (ne)
		qsort(e, ne, sizeof(*e), by_figure);
	/* Each run of one figure; a host's repeat of it dropped (its first stays). */
	for (size_t a = 0, b; a < ne; a = b) {
		size_t m = 1;

		for (b = a + 1; b < ne && same_figure(e[a].fig, e[b].fig); b++)
			if (e[b].set != e[a + m - 1].set)
				e[a + m++] = e[b];
		if (m < FLEET_MIN_HOSTS) {
			md->nfigs_few++;
			continue;
		}
		md->nfigs++;
		judge(&e[a], (int)m, j, out);
	}
	free(e);
}

static int by_score(const void *a, const void *b)
{
	int i = *(const int *)a, j = *(const int *)b;
	int c = cmp_double(&sort_score[j], &sort_score[i]);

	return c ? c : cmp_int(i, j);
}

/* Position of each host in the ranking, for sorting the strays by it. */
static const int *sort_pos;

static int by_rank(const void *a, const void *b)
{
	const struct ph_stray *x = a, *y = b;
	int c = cmp_int(sort_pos[x->set], sort_pos[y->set]);

	/* of one host, the furthest first; of equal ones, by figure and nodes */
	if (!c)
		c = cmp_double(&y->score, &x->score);
	if (!c)
		c = strcmp(x->fig.name, y->fig.name);
	if (!c)
		c = cmp_int(x->fig.node, y->fig.node);
	return c ? c : cmp_int(x->fig.mem_node, y->fig.mem_node);
}

static int by_first_doc(const void *a, const void *b)
{
	const struct ph_fleet_model *x = a, *y = b;

	return (x->model > y->model) - (x->model < y->model);
}

/* Which document of each host is used: out->newer, out->nhosts, out->nolder. */
static void newest_per_host(const struct ph_hset *sets, int n, int *idx, struct ph_fleet *out)
{
	for (int i = 0; i < n; i++)
		idx[i] = i;
	sort_sets = sets;
	qsort(idx, (size_t)n, sizeof(*idx), by_host_then_age);
	for (int a = 0, b; a < n; a = b) {
		for (b = a + 1; b < n && same_host(&sets[idx[a]], &sets[idx[b]]); b++)
			;
		out->nhosts++;
		out->newer[idx[b - 1]] = -1;
		for (int i = a; i < b - 1; i++) {
			out->newer[idx[i]] = idx[b - 1];
			out->nolder++;
		}
	}
}

void fleet_compare(const struct ph_hset *sets, int n, double k,
		   const struct ph_htol over[PH_HK_NKINDS], const bool set[PH_HK_NKINDS],
		   struct ph_fleet *out)
{
	struct judging j = { .k = k, .over = over, .set = set };
	int *idx = xcalloc((size_t)n + 1, sizeof(*idx)), *pos, nused = 0;

	memset(out, 0, sizeof(*out));
	out->score = xcalloc((size_t)n + 1, sizeof(*out->score));
	out->rank = xcalloc((size_t)n + 1, sizeof(*out->rank));
	out->newer = xcalloc((size_t)n + 1, sizeof(*out->newer));
	out->models = xcalloc((size_t)n + 1, sizeof(*out->models));
	j.vals = xcalloc((size_t)n + 1, sizeof(*j.vals));
	newest_per_host(sets, n, idx, out);
	for (int i = 0; i < n; i++)
		if (out->newer[i] < 0)
			idx[nused++] = i;
	qsort(idx, (size_t)nused, sizeof(*idx), by_model);
	for (int a = 0, b; a < nused; a = b) {
		struct ph_fleet_model *md = &out->models[out->nmodels++];

		for (b = a + 1; b < nused && !strcmp(sets[idx[a]].model, sets[idx[b]].model); b++)
			;
		/* idx[a] is the first document of the model: the run is in index order. */
		*md = (struct ph_fleet_model){ .model = sets[idx[a]].model, .nhosts = b - a,
					       .judged = b - a >= FLEET_MIN_HOSTS };
		if (!md->judged) {
			out->nunknown++;
			out->nsmall += b - a;
			continue;
		}
		judge_model(sets, &idx[a], b - a, md, &j, out);
		if (!md->nfigs) {	/* no figure on three of its hosts: nothing said of them */
			out->nunknown++;
			out->nsmall += b - a;
		}
		for (int i = a; i < b; i++)
			md->nstraying += out->score[idx[i]] > 0;
	}
	/* Models in the order of their first documents: their keys lie in sets in that order. */
	qsort(out->models, (size_t)out->nmodels, sizeof(*out->models), by_first_doc);
	for (int i = 0; i < n; i++)
		if (out->score[i] > 0)
			out->rank[out->nranked++] = i;
	sort_score = out->score;
	qsort(out->rank, (size_t)out->nranked, sizeof(*out->rank), by_score);
	pos = idx;	/* reused: every host's place in the ranking */
	for (int r = 0; r < out->nranked; r++)
		pos[out->rank[r]] = r;
	sort_pos = pos;
	if (out->n)
		qsort(out->v, (size_t)out->n, sizeof(*out->v), by_rank);
	free(j.vals);
	free(idx);
}

void fleet_free(struct ph_fleet *f)
{
	free(f->v);
	free(f->rank);
	free(f->score);
	free(f->models);
	free(f->newer);
	memset(f, 0, sizeof(*f));
}

static void add_cols(struct ph_table *t, const char *cols)
{
	for (const char *c = cols; *c; c += strlen(c) + 1)
		table_add_col(t, c);
}

/* "a.json (why), b.json (why) and 3 more": the first few of a list, for a note. */
static void name_few(char *buf, size_t size, int n, const char *(*name)(const void *, int), const void *ctx)
{
	size_t l = 0;

	buf[0] = '\0';
	for (int i = 0; i < n && i < 3 && l + 1 < size; i++)
		l += (size_t)snprintf(buf + l, size - l, "%s%s", i ? "; " : "", name(ctx, i));
	if (n > 3 && l + 1 < size)
		snprintf(buf + l, size - l, "; and %d more", n - 3);
}

static const char *skipped_name(const void *ctx, int i)
{
	return ((const struct ph_fleet_docs *)ctx)->skipped[i].why;
}

struct older_ctx {
	const struct ph_fleet_docs *docs;
	const struct ph_fleet *f;
	int *which;		/* the documents left out, in the order given */
	char buf[1024];
};

static const char *older_name(const void *ctx, int i)
{
	struct older_ctx *o = (struct older_ctx *)ctx;
	const struct ph_hset *s = &o->docs->sets[o->which[i]], *u = &o->docs->sets[o->f->newer[o->which[i]]];

	snprintf(o->buf, sizeof(o->buf), "%s (%s) for %s (%s)", s->source, s->time_utc[0] ? s->time_utc : "no time_utc",
		 u->source, u->time_utc[0] ? u->time_utc : "no time_utc");
	return o->buf;
}

static void summary(struct ph_doc *doc, const struct ph_fleet_docs *docs, const struct ph_fleet *f, double k)
{
	struct ph_section *sec = doc_add_section(doc, "summary", "summary");

	section_int(sec, "documents", docs->n);
	section_int(sec, "skipped", docs->nskipped);
	section_int(sec, "older_left_out", f->nolder);
	section_int(sec, "hosts", f->nhosts);
	section_int(sec, "models", f->nmodels);
	section_int(sec, "models_unknown", f->nunknown);
	section_int(sec, "hosts_straying", f->nranked);
	section_num(sec, "k", k, "%g");
}

static void models_table(struct ph_doc *doc, const struct ph_fleet *f)
{
	struct ph_table *t = doc_add_table(doc, "models", "models (UNKNOWN: too few hosts to judge)");

	add_cols(t, "model\0status\0hosts\0needs_hosts\0figures\0figures_few\0hosts_straying\0");
	for (int m = 0; m < f->nmodels; m++) {
		const struct ph_fleet_model *md = &f->models[m];
		int row = table_add_row(t);

		table_str(t, row, "model", md->model);
		table_str(t, row, "status", !md->judged || !md->nfigs ? "UNKNOWN" : md->nstraying ? "STRAYING" : "OK");
		table_int(t, row, "hosts", md->nhosts);
		table_int(t, row, "needs_hosts", FLEET_MIN_HOSTS);
		if (md->judged) {
			table_int(t, row, "figures", md->nfigs);
			table_int(t, row, "figures_few", md->nfigs_few);
			table_int(t, row, "hosts_straying", md->nstraying);
		}
	}
}

static void hosts_table(struct ph_doc *doc, const struct ph_fleet_docs *docs, const struct ph_fleet *f)
{
	struct ph_table *h = doc_add_table(doc, "hosts",
					   "hosts that stray, furthest first (stray_tols: how far the furthest "
					   "figure lies from its model's median, in multiples of its tolerance)");
	int j = 0;

	add_cols(h, "rank\0host\0stray_tols\0figures\0file\0time_utc\0");
	/* f->v is sorted by the rank of its host: each host's strays are one run. */
	for (int r = 0; r < f->nranked; r++) {
		int i = f->rank[r], row = table_add_row(h);
		const struct ph_hset *s = &docs->sets[i];
		char figs[1024] = "";
		size_t l = 0;

		for (; j < f->n && f->v[j].set == i; j++)
			if (l + 1 < sizeof(figs))
				l += (size_t)snprintf(figs + l, sizeof(figs) - l, "%snode %d %s %+.0f%%", l ? ", " : "",
						      f->v[j].fig.node, f->v[j].fig.name, f->v[j].dev * 100);
		table_int(h, row, "rank", r + 1);
		table_str(h, row, "host", host_of(s));
		table_num(h, row, "stray_tols", f->score[i], "%.1f");
		table_str(h, row, "figures", figs);
		table_str(h, row, "file", s->source);
		if (s->time_utc[0])
			table_str(h, row, "time_utc", s->time_utc);
	}
}

static void outliers_table(struct ph_doc *doc, const struct ph_fleet_docs *docs, const struct ph_fleet *f)
{
	struct ph_table *o = doc_add_table(doc, "outliers", "straying figures");

	add_cols(o, "host\0figure\0node\0mem_node\0value\0unit\0median\0mad\0dev_pct\0tol_pct\0stray_tols\0");
	for (int j = 0; j < f->n; j++) {
		const struct ph_stray *x = &f->v[j];
		int row = table_add_row(o);

		table_str(o, row, "host", host_of(&docs->sets[x->set]));
		table_str(o, row, "figure", x->fig.name);
		table_int(o, row, "node", x->fig.node);
		table_int(o, row, "mem_node", x->fig.mem_node);
		table_num(o, row, "value", x->fig.value, "%.4g");
		table_str(o, row, "unit", x->fig.unit);
		table_num(o, row, "median", x->median, "%.4g");
		table_num(o, row, "mad", x->mad, "%.3g");
		table_num(o, row, "dev_pct", x->dev * 100, "%.1f");
		table_num(o, row, "tol_pct", x->tol * 100, "%g");
		table_num(o, row, "stray_tols", x->score, "%.1f");
	}
}

/* The documents not compared: those that did not read, and those a newer one replaced. */
static void left_out(struct ph_doc *doc, const struct ph_fleet_docs *docs, const struct ph_fleet *f)
{
	struct ph_table *s = doc_add_table(doc, "skipped", "documents skipped: they could not be read");
	struct ph_table *o = doc_add_table(doc, "older", "documents left out for a newer one of their host");
	struct older_ctx oc = { .docs = docs, .f = f, .which = xcalloc((size_t)f->nolder + 1, sizeof(int)) };
	char few[2048];
	int no = 0;

	add_cols(s, "file\0why\0");
	for (int i = 0; i < docs->nskipped; i++) {
		const struct ph_skipped *k = &docs->skipped[i];
		int row = table_add_row(s);
		size_t l = strlen(k->path);

		table_str(s, row, "file", k->path);
		/* the reader's line begins with the path: the reason is what follows */
		table_str(s, row, "why", !strncmp(k->why, k->path, l) && !strncmp(k->why + l, ": ", 2) ? k->why + l + 2 : k->why);
	}
	add_cols(o, "host\0file\0time_utc\0used_file\0used_time_utc\0");
	for (int i = 0; i < docs->n; i++) {
		const struct ph_hset *x = &docs->sets[i], *u;
		int row;

		if (f->newer[i] < 0)
			continue;
		u = &docs->sets[f->newer[i]];
		oc.which[no++] = i;
		row = table_add_row(o);
		table_str(o, row, "host", host_of(x));
		table_str(o, row, "file", x->source);
		if (x->time_utc[0])
			table_str(o, row, "time_utc", x->time_utc);
		table_str(o, row, "used_file", u->source);
		if (u->time_utc[0])
			table_str(o, row, "used_time_utc", u->time_utc);
	}
	if (docs->nskipped) {
		name_few(few, sizeof(few), docs->nskipped, skipped_name, docs);
		doc_note(doc, "%d document(s) skipped, the rest compared: %s", docs->nskipped, few);
	}
	if (f->nolder) {
		name_few(few, sizeof(few), f->nolder, older_name, &oc);
		doc_note(doc, "%d document(s) left out for a newer one of the same host (newest by provenance "
			 "time_utc; of equal or missing ones, the last given): %s", f->nolder, few);
	}
	free(oc.which);
}

struct ph_doc *fleet_doc(const struct ph_fleet_docs *docs, const struct ph_fleet *f, double k)
{
	struct ph_doc *doc = doc_new("compare");

	summary(doc, docs, f, k);
	models_table(doc, f);
	hosts_table(doc, docs, f);
	outliers_table(doc, docs, f);
	left_out(doc, docs, f);
	if (f->nunknown)
		doc_note(doc, "%d model(s) UNKNOWN, %d host(s) not judged: a model needs %d hosts or more "
			 "(needs_hosts), and a figure on as many of them, for its median to tell which strays",
			 f->nunknown, f->nsmall, FLEET_MIN_HOSTS);
	for (int m = 0; m < f->nmodels; m++)
		if (f->models[m].nfigs_few) {
			doc_note(doc, "figures on fewer than %d hosts of their model are not judged "
				 "(figures_few in the models table)", FLEET_MIN_HOSTS);
			break;
		}
	return doc;
}
