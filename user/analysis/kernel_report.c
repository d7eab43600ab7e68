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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *levels_text(const struct ph_kernel_view *v)
{
	char *s = xasprintf("%d (", v->nlevels), *t;

	for (int k = 0; k < v->nlevels; k++) {
		t = xasprintf("%s%s%d", s, k ? " " : "", v->levels[k]);
		free(s);
		s = t;
	}
	t = xasprintf("%s)", s);
	free(s);
	return t;
}

/* Pairs a<b beyond node_reclaim's distance either way: "{0,2} {1,3}", or "none". */
static char *beyond_text(const struct ph_kernel_view *v)
{
	char *s = xstrdup(""), *t;

	for (int a = 0; a < v->n; a++)
		for (int b = a + 1; b < v->n; b++)
			if (!v->reclaim[a * v->n + b] || !v->reclaim[b * v->n + a]) {
				t = xasprintf("%s%s{%d,%d}", s, *s ? " " : "", v->ids[a], v->ids[b]);
				free(s);
				s = t;
			}
	if (!*s) {
		free(s);
		s = xstrdup("none");
	}
	return s;
}

static char *order_text(const struct ph_kernel_view *v, int row)
{
	char *s = xstrdup(""), *t;

	for (int k = 0; k < v->n && v->order[row * v->n + k] >= 0; k++) {
		t = xasprintf("%s%s%d", s, k ? " " : "", v->order[row * v->n + k]);
		free(s);
		s = t;
	}
	return s;
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
	char *a, *b;
	int ndiff = 0;

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
	a = levels_text(&fw);
	b = levels_text(&pr);
	section_str(s, "sched_numa_levels_slit", a);
	section_str(s, "sched_numa_levels_proposed", b);
	section_bool(s, "sched_numa_levels_differ", strcmp(a, b) != 0);
	free(a);
	free(b);
	section_int(s, "reclaim_distance", PH_RECLAIM_DISTANCE);
	a = beyond_text(&fw);
	b = beyond_text(&pr);
	section_str(s, "beyond_reclaim_slit", a);
	section_str(s, "beyond_reclaim_proposed", b);
	section_bool(s, "beyond_reclaim_differ", strcmp(a, b) != 0);
	free(a);
	free(b);

	tb = doc_add_table(doc, "kernel_fallback",
			   "allocation fallback order per node (mm/page_alloc.c, find_next_best_node)");
	table_add_col(tb, "node");
	table_add_col(tb, "slit_order");
	table_add_col(tb, "proposed_order");
	table_add_col(tb, "differs");
	for (int i = 0; i < p->n; i++) {
		int r = table_add_row(tb), k = 0;

		a = order_text(&fw, i);
		b = order_text(&pr, i);
		table_int(tb, r, "node", p->ids[i]);
		table_str(tb, r, "slit_order", a);
		table_str(tb, r, "proposed_order", b);
		table_str(tb, r, "differs", strcmp(a, b) ? "*" : "");
		if (strcmp(a, b)) {
			/* The first place they part: what the firmware engineer needs to read. */
			while (fw.order[i * p->n + k] == pr.order[i * p->n + k])
				k++;
			doc_note(doc, "with the SLIT, node %d falls back to node %d before node %d; measured (the proposed SLIT), node %d is nearer",
				 p->ids[i], fw.order[i * p->n + k], pr.order[i * p->n + k], pr.order[i * p->n + k]);
			ndiff++;
		}
		free(a);
		free(b);
	}
	section_int(s, "fallback_orders_differ", ndiff);
	kernel_view_free(&fw);
	kernel_view_free(&pr);
	free(cpus);
	free(mem);
}
