// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel_report.c - what Linux does with the SLIT in force and with the
 * proposed one, side by side with the differences marked: the
 * scheduler's NUMA levels, node_reclaim's reach, each node's fallback
 * order (kernel_view.c; docs/slit.md section 13).
 */
#include "kernel_report.h"
#include "kernel_view.h"
#include "util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * A space-separated list that may hold every node pair of a thousand
 * nodes: written once to a growing buffer (appending to a string copy by
 * copy would cost the square of its length), with the first `keep` items
 * kept apart as the short form the table rendering prints.
 */
struct list {
	FILE *f;
	char *buf;
	size_t len, cut;
	int n, keep;
};

static void list_open(struct list *l, int keep)
{
	memset(l, 0, sizeof(*l));
	l->keep = keep;
	l->f = open_memstream(&l->buf, &l->len);
	if (!l->f) {
		fprintf(stderr, "pagehop: out of memory\n");
		abort();
	}
}

static void list_add(struct list *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void list_add(struct list *l, const char *fmt, ...)
{
	va_list ap;

	if (l->n)
		fputc(' ', l->f);
	va_start(ap, fmt);
	vfprintf(l->f, fmt, ap);
	va_end(ap);
	if (++l->n == l->keep) {
		fflush(l->f);
		l->cut = l->len;
	}
}

/*
 * The whole list, or `empty` when it has no item; *brief the first items
 * and "... and N more" when there are more than `keep`, else a copy of it.
 * The caller frees both.
 */
static char *list_close(struct list *l, const char *empty, char **brief)
{
	if (fclose(l->f)) {
		fprintf(stderr, "pagehop: out of memory\n");
		abort();
	}
	if (!l->n) {
		free(l->buf);
		l->buf = xstrdup(empty);
	}
	*brief = l->n > l->keep ? xasprintf("%.*s ... and %d more", (int)l->cut, l->buf, l->n - l->keep)
				: xstrdup(l->buf);
	return l->buf;
}

/* Items of a list the table shows: a line of about 100 columns. */
#define BRIEF_LEVELS 16
#define BRIEF_PAIRS 8
#define BRIEF_NODES 16
/* Notes on nodes whose fallback order differs, before one that counts the rest. */
#define NOTES_FALLBACK 8

/* "3 (10 16 22)": the number of levels, then each. */
static char *levels_text(const struct ph_kernel_view *v, char **brief)
{
	struct list l;
	char *all, *b;

	list_open(&l, BRIEF_LEVELS);
	for (int k = 0; k < v->nlevels; k++)
		list_add(&l, "%d", v->levels[k]);
	all = list_close(&l, "", &b);
	*brief = xasprintf("%d (%s)", v->nlevels, b);
	free(b);
	b = xasprintf("%d (%s)", v->nlevels, all);
	free(all);
	return b;
}

/*
 * Pairs a<b beyond node_reclaim's distance either way: "{0,2} {1,3}", or
 * "none"; *count how many.
 */
static char *beyond_text(const struct ph_kernel_view *v, char **brief, int *count)
{
	struct list l;
	char *all;

	list_open(&l, BRIEF_PAIRS);
	for (int a = 0; a < v->n; a++)
		for (int b = a + 1; b < v->n; b++)
			if (!v->reclaim[a * v->n + b] || !v->reclaim[b * v->n + a])
				list_add(&l, "{%d,%d}", v->ids[a], v->ids[b]);
	*count = l.n;
	all = list_close(&l, "none", brief);
	return all;
}

static char *order_text(const struct ph_kernel_view *v, int row, char **brief)
{
	struct list l;

	list_open(&l, BRIEF_NODES);
	for (int k = 0; k < v->n && v->order[row * v->n + k] >= 0; k++)
		list_add(&l, "%d", v->order[row * v->n + k]);
	return list_close(&l, "", brief);
}

static void free_four(char *a, char *b, char *c, char *d)
{
	free(a);
	free(b);
	free(c);
	free(d);
}

/* The view of slit over the proposal's nodes; false when slit lacks one. */
static bool view_of(const struct ph_slit *slit, const struct ph_proposal *p, const bool *cpus,
		    const bool *mem, struct ph_kernel_view *v)
{
	int *d = xmalloc((size_t)p->n * p->n * sizeof(int));
	int err;

	for (int i = 0; i < p->n; i++)
		for (int j = 0; j < p->n; j++)
			d[i * p->n + j] = slit ? slit_at(slit, p->ids[i], p->ids[j]) : p->dist[i * p->n + j];
	err = kernel_view(p->n, p->ids, d, cpus, mem, PH_RECLAIM_DISTANCE, v);
	free(d);
	return !err;
}

void kernel_report(struct ph_doc *doc, const struct ph_slit *slit, const struct ph_proposal *p,
		   const struct ph_nmatrix *m)
{
	struct ph_kernel_view fw, pr;
	struct ph_section *s;
	struct ph_table *tb;
	bool *cpus, *mem;
	char *a, *b, *ba, *bb;
	int ndiff = 0, na, nb;

	if (!slit || !p->n || p->nunknown)
		return;
	cpus = xcalloc((size_t)p->n, sizeof(bool));
	mem = xcalloc((size_t)p->n, sizeof(bool));
	/* Rows are CPU nodes, columns memory nodes. */
	for (int i = 0; i < p->n; i++) {
		cpus[i] = nmatrix_row(m, p->ids[i]) >= 0;
		mem[i] = nmatrix_col(m, p->ids[i]) >= 0;
	}
	if (!view_of(slit, p, cpus, mem, &fw)) {
		free(cpus);
		free(mem);
		return;
	}
	view_of(NULL, p, cpus, mem, &pr);
	s = doc_add_section(doc, "kernel_view",
			    "what Linux derives from the SLIT in force and from the proposed one");
	a = levels_text(&fw, &ba);
	b = levels_text(&pr, &bb);
	section_str_brief(s, "sched_numa_levels_slit", a, ba);
	section_str_brief(s, "sched_numa_levels_proposed", b, bb);
	section_bool(s, "sched_numa_levels_differ", strcmp(a, b) != 0);
	free_four(a, b, ba, bb);
	section_int(s, "reclaim_distance", PH_RECLAIM_DISTANCE);
	a = beyond_text(&fw, &ba, &na);
	b = beyond_text(&pr, &bb, &nb);
	section_str_brief(s, "beyond_reclaim_slit", a, ba);
	section_int(s, "beyond_reclaim_slit_pairs", na);
	section_str_brief(s, "beyond_reclaim_proposed", b, bb);
	section_int(s, "beyond_reclaim_proposed_pairs", nb);
	section_bool(s, "beyond_reclaim_differ", strcmp(a, b) != 0);
	free_four(a, b, ba, bb);

	tb = doc_add_table(doc, "kernel_fallback",
			   "allocation fallback order per node (mm/page_alloc.c, find_next_best_node)");
	table_add_col(tb, "node");
	table_add_col(tb, "slit_order");
	table_add_col(tb, "proposed_order");
	table_add_col(tb, "differs");
	for (int i = 0; i < p->n; i++) {
		int r = table_add_row(tb), k = 0;

		a = order_text(&fw, i, &ba);
		b = order_text(&pr, i, &bb);
		table_int(tb, r, "node", p->ids[i]);
		table_str_brief(tb, r, "slit_order", a, ba);
		table_str_brief(tb, r, "proposed_order", b, bb);
		table_str(tb, r, "differs", strcmp(a, b) ? "*" : "");
		if (strcmp(a, b) && ndiff++ < NOTES_FALLBACK) {
			/* The first place they part: what the firmware engineer needs to read. */
			while (fw.order[i * p->n + k] == pr.order[i * p->n + k])
				k++;
			doc_note(doc, "with the SLIT, node %d falls back to node %d before node %d; measured (the proposed SLIT), node %d is nearer",
				 p->ids[i], fw.order[i * p->n + k], pr.order[i * p->n + k], pr.order[i * p->n + k]);
		}
		free_four(a, b, ba, bb);
	}
	if (ndiff > NOTES_FALLBACK)
		doc_note(doc, "... and %d more nodes whose fallback order differs (column differs of table kernel_fallback)",
			 ndiff - NOTES_FALLBACK);
	section_int(s, "fallback_orders_differ", ndiff);
	kernel_view_free(&fw);
	kernel_view_free(&pr);
	free(cpus);
	free(mem);
}
