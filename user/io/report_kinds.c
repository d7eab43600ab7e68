// SPDX-License-Identifier: GPL-2.0-only
/*
 * report_kinds.c - the JSON helpers of the report's readers, the charts'
 * series and categories they build, and what the reader takes beyond
 * matrices and curve tables:
 * c2c's pairs as a CPU x CPU heatmap, where a document says it measured
 * (node, page sizes, CPUs) and whose machine it was, and its time block.
 */
#include "read_json.h"
#include "report_json.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

json_object *get(json_object *o, const char *key)
{
	json_object *v = NULL;

	return o && json_object_is_type(o, json_type_object) && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

const char *get_str(json_object *o, const char *key)
{
	json_object *v = get(o, key);

	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

double get_num(json_object *o, const char *key)
{
	json_object *v = get(o, key);
	double x;

	/* An integer json-c saturated is no number: NAN, as for none. */
	return v && json_number(v, &x) ? x : NAN;
}

struct rep_matrix *add_matrix(struct rep_doc *d, int at)
{
	xappend(&d->m, &d->nm, sizeof(*d->m));
	memmove(d->m + at + 1, d->m + at, (size_t)(d->nm - 1 - at) * sizeof(*d->m));
	memset(&d->m[at], 0, sizeof(d->m[at]));
	return &d->m[at];
}

double rep_category(struct rep_chart *ch, const char *name)
{
	int i;

	for (i = 0; i < ch->ncat && strcmp(ch->xcat[i], name); i++)
		;
	if (i == ch->ncat)
		*(char **)xappend(&ch->xcat, &ch->ncat, sizeof(char *)) = xstrdup(name);
	return i;
}

struct rep_series *rep_series_of(struct rep_chart *ch, const char *name)
{
	struct rep_series *s;

	for (int k = 0; k < ch->ns; k++)
		if (!strcmp(ch->s[k].name, name))
			return &ch->s[k];
	s = xappend(&ch->s, &ch->ns, sizeof(*ch->s));
	memset(s, 0, sizeof(*s));
	s->name = xstrdup(name);
	return s;
}

void rep_point(struct rep_series *s, double x, double y, double lo, double hi)
{
	s->x = xrealloc(s->x, (size_t)(s->n + 1) * sizeof(double));
	s->y = xrealloc(s->y, (size_t)(s->n + 1) * sizeof(double));
	s->lo = xrealloc(s->lo, (size_t)(s->n + 1) * sizeof(double));
	s->hi = xrealloc(s->hi, (size_t)(s->n + 1) * sizeof(double));
	s->x[s->n] = x;
	s->y[s->n] = y;
	s->lo[s->n] = lo;
	s->hi[s->n] = hi;
	s->n++;
}

static int cmp_int(const void *a, const void *b)
{
	return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b);
}

static int find(const int *ids, int n, int id)
{
	const int *p = bsearch(&id, ids, (size_t)n, sizeof(int), cmp_int);

	return p ? (int)(p - ids) : -1;
}

void c2c_heatmap(json_object *root, struct rep_doc *d)
{
	json_object *t = get(root, "c2c");
	struct rep_matrix *m;
	int *cpus = NULL, n = 0;
	size_t rows;

	if (!t || !json_object_is_type(t, json_type_array) || !(rows = json_object_array_length(t)))
		return;
	for (size_t i = 0; i < rows; i++) {
		json_object *o = json_object_array_get_idx(t, i);
		double ab[2] = { get_num(o, "cpu_a"), get_num(o, "cpu_b") };

		for (int k = 0; k < 2; k++)
			if (isfinite(ab[k]) && ab[k] >= 0 && ab[k] < 1 << 20) {
				int c = (int)ab[k], j;

				for (j = 0; j < n && cpus[j] != c; j++)
					;
				if (j == n)
					*(int *)xappend(&cpus, &n, sizeof(int)) = c;
			}
	}
	if (!n || n > 1024) {
		free(cpus);
		return;
	}
	qsort(cpus, (size_t)n, sizeof(int), cmp_int);
	m = add_matrix(d, d->nm);
	m->title = xstrdup("core-to-core latency: a cache line handed between two CPUs, ns (median)");
	m->unit = xstrdup("ns");
	m->row_label = m->col_label = "CPU";
	m->nr = m->nc = n;
	m->rows = cpus;
	m->cols = xcalloc((size_t)n, sizeof(int));
	memcpy(m->cols, cpus, (size_t)n * sizeof(int));
	m->val = xcalloc((size_t)n * (size_t)n, sizeof(double));
	m->mark = xcalloc((size_t)n * (size_t)n, sizeof(bool));
	for (int i = 0; i < n * n; i++)
		m->val[i] = NAN;
	for (size_t i = 0; i < rows; i++) {
		json_object *o = json_object_array_get_idx(t, i);
		int a = find(cpus, n, (int)get_num(o, "cpu_a")), b = find(cpus, n, (int)get_num(o, "cpu_b"));
		double v = get_num(o, "lat_ns");

		if (a < 0 || b < 0)
			continue;
		m->val[a * n + b] = v;
		/* A pair measured one way only stands for both. */
		if (!isfinite(m->val[b * n + a]))
			m->val[b * n + a] = v;
	}
}

/* The first of keys in o, as text (a number without its decimals). */
static char *first_key(json_object *o, const char *const *keys)
{
	for (; *keys; keys++) {
		json_object *v = get(o, *keys);

		if (v && json_object_is_type(v, json_type_string))
			return xstrdup(json_object_get_string(v));
		if (v && (json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double)))
			return xasprintf("%g", json_object_get_double(v));
	}
	return NULL;
}

/* A CPU list ("0-3,8"): a "cpu" field holding the model's name is no set of CPUs. */
static bool cpu_list(const char *s)
{
	return s && *s && strspn(s, "0123456789,- ") == strlen(s);
}

/*
 * The first of keys in the document: a section, or the last row of a
 * table, in document order; with accept, the first value it accepts.
 */
static char *doc_key_if(json_object *root, const char *const *keys, bool (*accept)(const char *))
{
	json_object_object_foreach(root, name, val) {
		json_object *o = val;
		char *s;

		if (!strcmp(name, "provenance") || !val)
			continue;
		if (json_object_is_type(val, json_type_array)) {
			size_t n = json_object_array_length(val);

			o = n ? json_object_array_get_idx(val, n - 1) : NULL;
		}
		if (o && json_object_is_type(o, json_type_object) && (s = first_key(o, keys))) {
			if (!accept || accept(s))
				return s;
			free(s);
		}
	}
	return NULL;
}

static char *doc_key(json_object *root, const char *const *keys)
{
	return doc_key_if(root, keys, NULL);
}

/* Add v to the list *s ("4K, THP") unless it is there already. */
static void list_add(char **s, const char *v)
{
	char *t;
	size_t n = strlen(v);

	for (const char *p = *s; p && (p = strstr(p, v)); p += n)
		if ((p == *s || p[-1] == ' ') && (!p[n] || p[n] == ','))
			return;
	t = *s ? xasprintf("%s, %s", *s, v) : xstrdup(v);
	free(*s);
	*s = t;
}

/*
 * Every page size the document names, in document order: a sweep of 4K
 * and THP measured both, and says both ("4K, THP"); NULL if none.
 */
static char *doc_page_sizes(json_object *root, const char *const *keys)
{
	char *list = NULL, *v;

	json_object_object_foreach(root, name, val) {
		size_t n = 1;

		if (!strcmp(name, "provenance") || !val)
			continue;
		if (json_object_is_type(val, json_type_array))
			n = json_object_array_length(val);
		for (size_t i = 0; i < n; i++) {
			json_object *o = json_object_is_type(val, json_type_array)
					 ? json_object_array_get_idx(val, i) : val;

			if (o && json_object_is_type(o, json_type_object) && (v = first_key(o, keys))) {
				list_add(&list, v);
				free(v);
			}
		}
	}
	return list;
}

/*
 * Whose machine was measured and where the document was made: a slit
 * document says it in its section origin (an --input may be another
 * machine's); one without it analysed a file of unknown origin; every
 * other kind measured where it ran, except compare's, whose rows are a
 * fleet's documents, one host each.
 */
static void read_origin(json_object *root, struct rep_doc *d)
{
	json_object *o = get(root, "origin");
	const char *host = get_str(get(root, "provenance"), "host");
	const char *on = get_str(o, "measured_on"), *rule = get_str(o, "rule");

	d->analysed_on = xstrdup(host ? host : "not recorded");
	d->measured_here = o ? rule && !strncmp(rule, "measured here", 13)
			     : strcmp(d->kind, "slit") && strcmp(d->kind, "compare");
	d->measured_host = xstrdup(o ? on ? on : "unknown" : d->measured_here && host ? host : "unknown");
	if (o)
		d->measured_on = xasprintf("%s (%s)", on ? on : "unknown", rule ? rule : "no rule recorded");
	else if (!strcmp(d->kind, "slit"))
		d->measured_on = xstrdup("unknown: the document does not say whose machine its input was");
	else if (!strcmp(d->kind, "compare"))
		d->measured_on = xstrdup("the fleet's hosts, one per document compared");
	else
		d->measured_on = xasprintf("%s (measured and analysed in one run)", host ? host : "not recorded");
}

void read_where(json_object *root, struct rep_doc *d)
{
	static const char *const node_keys[] = { "node", "node_found", "node_asked", "line_node", "lock_node", NULL };
	static const char *const page_keys[] = { "page_size", "page_size_asked", NULL };
	static const char *const cpu_keys[] = { "cpus", "cpu", NULL };
	static const char *const chaser_keys[] = { "chaser_cpu", NULL };
	static const char *const loader_keys[] = { "loader_cpus", NULL };
	bool node_matrix = false, per_size = false;
	char *node, *page, *cpus, *chaser, *loaders, *cpu_text;

	for (int i = 0; i < d->nm; i++)
		node_matrix |= !strcmp(d->m[i].row_label, "CPU node");
	for (int i = 0; i < d->nc; i++)
		per_size |= strstr(d->c[i].title, "per page size") != NULL;
	node = node_matrix ? NULL : doc_key(root, node_keys);
	page = per_size ? xstrdup("one curve each") : doc_page_sizes(root, page_keys);
	cpus = doc_key_if(root, cpu_keys, cpu_list);
	chaser = doc_key(root, chaser_keys);
	loaders = doc_key(root, loader_keys);
	if (chaser)
		cpu_text = xasprintf("chaser CPU %s, loader CPUs %s", chaser, loaders ? loaders : "none");
	else if (!strcmp(d->kind, "c2c") && d->nm)
		cpu_text = xstrdup("every pair, as on the axes");
	else if (node_matrix)
		cpu_text = xstrdup("each CPU node's own");
	else
		cpu_text = xstrdup(cpus ? cpus : "not recorded");
	d->where = xasprintf("%s%s; page size: %s; CPUs: %s",
			     node_matrix ? "each CPU node x memory node, as on the axes" : "memory node: ",
			     node_matrix ? "" : node ? node : "not recorded", page ? page : "not recorded", cpu_text);
	free(node);
	free(page);
	free(cpus);
	free(chaser);
	free(loaders);
	free(cpu_text);
	read_origin(root, d);
}

char *read_phases(json_object *time)
{
	char *line = NULL;

	if (!time || !json_object_is_type(time, json_type_object))
		return NULL;
	json_object_object_foreach(time, key, val) {
		size_t k = strlen(key);
		char *part, *next;

		if (k > 2 && !strcmp(key + k - 2, "_s") &&
		    (json_object_is_type(val, json_type_double) || json_object_is_type(val, json_type_int)))
			part = xasprintf("%.*s %.3g s", (int)(k - 2), key, json_object_get_double(val));
		else if (val && json_object_is_type(val, json_type_string))
			part = xasprintf("%s: %s", key, json_object_get_string(val));
		else
			continue;
		next = line ? xasprintf("%s, %s", line, part) : xstrdup(part);
		free(line);
		free(part);
		line = next;
	}
	return line;
}
