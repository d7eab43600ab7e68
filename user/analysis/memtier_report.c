// SPDX-License-Identifier: GPL-2.0-only
/*
 * memtier_report.c - the memory tiers of the firmware's tables and of the
 * proposed ones, side by side (memtier.c; docs/slit.md section 13).
 */
#include "memtier_report.h"
#include "hmat_propose.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

static void side(struct ph_section *s, const char *which, const struct ph_memtier *m)
{
	char key[64];

	snprintf(key, sizeof(key), "tiers_%s", which);
	section_str(s, key, m->tiers);
	snprintf(key, sizeof(key), "hmat_reference_%s", which);
	if (m->ref >= 0)
		section_int(s, key, m->ref);
	snprintf(key, sizeof(key), "ten_percent_trips_%s", which);
	if (m->mismatch >= 0)
		section_int(s, key, m->mismatch);
	else
		section_str(s, key, "no");
}

void memtier_report(struct ph_doc *doc, const struct ph_slit *slit, const struct ph_proposal *p,
		    const struct ph_nmatrix *m, const struct ph_acpi_hmat *fw,
		    const struct ph_nmatrix *lat, const struct ph_nmatrix *bw, const char *release)
{
	enum ph_memtier_rule rule;
	struct ph_memtier a, b;
	struct ph_acpi_hmat prop;
	struct ph_section *s;
	struct ph_table *tb;
	bool *cpus, *mem;
	int *d, ndiff = 0;

	if (!slit || !p->n || p->nunknown || (!lat && !bw))
		return;
	if (!release) {
		/* The rule is the measured kernel's: without its release, no tiers at all. */
		s = doc_add_section(doc, "memory_tiers",
				    "memory tiers and demotion targets (mm/memory-tiers.c), firmware's tables and proposed");
		section_str(s, "rule", PH_FACTS_NEED_KERNEL);
		section_str(s, "kernel", "unknown");
		return;
	}
	rule = memtier_rule_of(release);
	cpus = xcalloc((size_t)p->n, sizeof(bool));
	mem = xcalloc((size_t)p->n, sizeof(bool));
	d = xmalloc((size_t)p->n * p->n * sizeof(int));
	for (int i = 0; i < p->n; i++) {
		cpus[i] = nmatrix_row(m, p->ids[i]) >= 0;
		mem[i] = nmatrix_col(m, p->ids[i]) >= 0;
		for (int j = 0; j < p->n; j++)
			d[i * p->n + j] = slit_at(slit, p->ids[i], p->ids[j]);
	}
	hmat_propose(lat, bw, fw, &prop);
	memtier_predict(rule, p->n, p->ids, cpus, mem, d, fw, &a);
	memtier_predict(rule, p->n, p->ids, cpus, mem, p->dist, &prop, &b);
	s = doc_add_section(doc, "memory_tiers",
			    "memory tiers and demotion targets (mm/memory-tiers.c), firmware's tables and proposed");
	section_str(s, "rule", memtier_rule_name(rule));
	section_str(s, "kernel", release);
	section_str(s, "firmware_hmat", fw ? "read" : "none: every node at the default distance");
	side(s, "firmware", &a);
	side(s, "proposed", &b);
	section_bool(s, "tiers_differ", strcmp(a.tiers, b.tiers) != 0);
	tb = doc_add_table(doc, "kernel_tiers", "memory tier and demotion targets per node");
	table_add_col(tb, "node");
	table_add_col(tb, "adist_firmware");
	table_add_col(tb, "tier_firmware");
	table_add_col(tb, "demote_firmware");
	table_add_col(tb, "adist_proposed");
	table_add_col(tb, "tier_proposed");
	table_add_col(tb, "demote_proposed");
	table_add_col(tb, "differs");
	for (int i = 0; i < p->n; i++) {
		const struct ph_memtier_node *x = &a.node[i], *y = &b.node[i];
		bool differs = x->tier != y->tier || strcmp(x->demote, y->demote);
		int r;

		if (!x->memory)
			continue;
		r = table_add_row(tb);
		table_int(tb, r, "node", x->node);
		table_int(tb, r, "adist_firmware", x->adist);
		table_int(tb, r, "tier_firmware", x->tier);
		table_str(tb, r, "demote_firmware", *x->demote ? x->demote : "none");
		table_int(tb, r, "adist_proposed", y->adist);
		table_int(tb, r, "tier_proposed", y->tier);
		table_str(tb, r, "demote_proposed", *y->demote ? y->demote : "none");
		table_str(tb, r, "differs", differs ? "*" : "");
		if (differs)
			doc_note(doc, "with the firmware's tables node %d is in memory_tier%d demoting to %s; with the proposed ones, memory_tier%d demoting to %s",
				 x->node, x->tier, *x->demote ? x->demote : "none", y->tier,
				 *y->demote ? y->demote : "none");
		ndiff += differs;
	}
	section_int(s, "nodes_differ", ndiff);
	if (a.mismatch >= 0)
		doc_note(doc, "the firmware's HMAT trips the 10%% rule at node %d: Linux ignores the HMAT for tiering", a.mismatch);
	memtier_free(&a);
	memtier_free(&b);
	acpi_hmat_free(&prop);
	free(cpus);
	free(mem);
	free(d);
}
