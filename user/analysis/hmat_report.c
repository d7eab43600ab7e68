// SPDX-License-Identifier: GPL-2.0-only
/*
 * hmat_report.c - the firmware's whole HMAT in the report of "pagehop
 * slit": every entry, the ones the SLIT or the measurement order otherwise,
 * remote/local ratios, the memory-side caches and Linux's tiering check.
 */
#include "hmat_report.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *unit_of(int data_type)
{
	return acpi_hmat_is_latency(data_type) ? "ns" : "MBps";
}

static void entries(struct ph_doc *doc, const struct ph_acpi_hmat *t)
{
	struct ph_table *tb = doc_add_table(doc, "hmat_table_entries",
					    "HMAT entries (every initiator x target of every structure)");

	table_add_col(tb, "hierarchy");
	table_add_col(tb, "data_type");
	table_add_col(tb, "initiator");
	table_add_col(tb, "target");
	table_add_col(tb, "entry");
	table_add_col(tb, "base_unit");
	table_add_col(tb, "value");
	table_add_col(tb, "unit");
	for (int s = 0; s < t->nlb; s++) {
		const struct ph_hmat_lb *l = &t->lb[s];

		for (uint32_t i = 0; i < l->ni; i++)
			for (uint32_t c = 0; c < l->nt; c++) {
				uint16_t e = l->entry[(size_t)i * l->nt + c];
				int r = table_add_row(tb);
				char h[16];

				snprintf(h, sizeof(h), l->hierarchy ? "cache_l%d" : "memory", l->hierarchy);
				table_str(tb, r, "hierarchy", h);
				table_str(tb, r, "data_type", acpi_hmat_data_name(l->data_type));
				table_int(tb, r, "initiator", l->init[i]);
				table_int(tb, r, "target", l->targ[c]);
				table_int(tb, r, "entry", e);
				table_int(tb, r, "base_unit", (long long)l->base_unit);
				if (e == PH_HMAT_ENTRY_UNREACHABLE)
					table_str(tb, r, "value", "unreachable");
				else if (e == PH_HMAT_ENTRY_NONE)
					table_str(tb, r, "value", "none");
				else
					table_int(tb, r, "value",
						  acpi_hmat_value(e, l->base_unit, l->data_type, t->h.revision));
				table_str(tb, r, "unit", unit_of(l->data_type));
			}
	}
}

static void structures(struct ph_doc *doc, const struct ph_acpi_hmat *t)
{
	struct ph_table *tb;

	if (t->nmpda) {
		tb = doc_add_table(doc, "hmat_table_domains", "HMAT memory proximity domain attributes");
		table_add_col(tb, "memory_domain");
		table_add_col(tb, "initiator_domain");
		for (int k = 0; k < t->nmpda; k++) {
			int r = table_add_row(tb);

			table_int(tb, r, "memory_domain", t->mpda[k].memory_pd);
			if (t->mpda[k].initiator_valid)
				table_int(tb, r, "initiator_domain", t->mpda[k].initiator_pd);
			else
				table_str(tb, r, "initiator_domain", "not given");
		}
	}
	if (t->ncache) {
		static const char *const assoc[] = { "none", "direct", "complex" };
		static const char *const policy[] = { "none", "write-back", "write-through" };

		tb = doc_add_table(doc, "hmat_table_caches", "HMAT memory-side caches");
		table_add_col(tb, "memory_domain");
		table_add_col(tb, "level");
		table_add_col(tb, "levels");
		table_add_col(tb, "size_bytes");
		table_add_col(tb, "associativity");
		table_add_col(tb, "write_policy");
		table_add_col(tb, "line_bytes");
		for (int k = 0; k < t->ncache; k++) {
			const struct ph_hmat_cache *c = &t->cache[k];
			int r = table_add_row(tb);

			table_int(tb, r, "memory_domain", c->memory_pd);
			table_int(tb, r, "level", c->level);
			table_int(tb, r, "levels", c->total_levels);
			table_int(tb, r, "size_bytes", (long long)c->size);
			table_str(tb, r, "associativity", c->associativity < 3 ? assoc[c->associativity] : "reserved");
			table_str(tb, r, "write_policy", c->write_policy < 3 ? policy[c->write_policy] : "reserved");
			table_int(tb, r, "line_bytes", c->line_size);
		}
	}
}

static void order(struct ph_doc *doc, const struct ph_hmat_view *v)
{
	struct ph_table *tb;

	if (!v->norder)
		return;
	tb = doc_add_table(doc, "hmat_table_order",
			   "HMAT order against the SLIT and the measurement (HMAT: near before far)");
	table_add_col(tb, "data_type");
	table_add_col(tb, "initiator");
	table_add_col(tb, "hmat_near");
	table_add_col(tb, "hmat_far");
	table_add_col(tb, "hmat_near_value");
	table_add_col(tb, "hmat_far_value");
	table_add_col(tb, "slit_near");
	table_add_col(tb, "slit_far");
	table_add_col(tb, "measured_near");
	table_add_col(tb, "measured_far");
	table_add_col(tb, "disagrees");
	for (int k = 0; k < v->norder; k++) {
		const struct ph_hmat_order *o = &v->order[k];
		int r = table_add_row(tb);

		table_str(tb, r, "data_type", acpi_hmat_data_name(o->data_type));
		table_int(tb, r, "initiator", o->init);
		table_int(tb, r, "hmat_near", o->near);
		table_int(tb, r, "hmat_far", o->far);
		table_int(tb, r, "hmat_near_value", o->v_near);
		table_int(tb, r, "hmat_far_value", o->v_far);
		if (o->s_near >= 0) {
			table_int(tb, r, "slit_near", o->s_near);
			table_int(tb, r, "slit_far", o->s_far);
		}
		if (!isnan(o->m_near) && !isnan(o->m_far)) {
			table_num(tb, r, "measured_near", o->m_near, "%.2f");
			table_num(tb, r, "measured_far", o->m_far, "%.2f");
		}
		table_str(tb, r, "disagrees", o->slit_disagrees && o->measured_disagrees ? "slit, measured"
			  : o->slit_disagrees ? "slit" : "measured");
	}
}

static void ratios(struct ph_doc *doc, const struct ph_hmat_view *v)
{
	struct ph_table *tb;

	if (!v->nratio)
		return;
	tb = doc_add_table(doc, "hmat_table_ratios", "HMAT remote/local against the measured remote/local");
	table_add_col(tb, "data_type");
	table_add_col(tb, "initiator");
	table_add_col(tb, "target");
	table_add_col(tb, "hmat_ratio");
	table_add_col(tb, "measured_ratio");
	table_add_col(tb, "slit_ratio");
	table_add_col(tb, "error_pct");
	table_add_col(tb, "within");
	for (int k = 0; k < v->nratio; k++) {
		const struct ph_hmat_ratio *x = &v->ratio[k];
		int r = table_add_row(tb);

		table_str(tb, r, "data_type", acpi_hmat_data_name(x->data_type));
		table_int(tb, r, "initiator", x->init);
		table_int(tb, r, "target", x->targ);
		table_num(tb, r, "hmat_ratio", x->hmat, "%.3f");
		table_num(tb, r, "measured_ratio", x->measured, "%.3f");
		if (!isnan(x->slit))
			table_num(tb, r, "slit_ratio", x->slit, "%.1f");
		table_num(tb, r, "error_pct", 100 * x->rel_err, "%.1f");
		table_bool(tb, r, "within", x->within);
	}
}

static void tiers(struct ph_doc *doc, const struct ph_hmat_view *v)
{
	struct ph_table *tb;

	if (!v->ntier)
		return;
	tb = doc_add_table(doc, "hmat_table_tiering",
			   "nodes with CPUs and memory as mm/memory-tiers.c compares them (first: the reference)");
	table_add_col(tb, "node");
	table_add_col(tb, "read_lat_ns");
	table_add_col(tb, "write_lat_ns");
	table_add_col(tb, "read_bw_MBps");
	table_add_col(tb, "write_bw_MBps");
	table_add_col(tb, "over_10pct");
	table_add_col(tb, "measured_lat_pct");
	table_add_col(tb, "measured_bw_pct");
	for (int k = 0; k < v->ntier; k++) {
		const struct ph_hmat_tier *x = &v->tier[k];
		int r = table_add_row(tb);

		table_int(tb, r, "node", x->node);
		table_int(tb, r, "read_lat_ns", x->read_lat);
		table_int(tb, r, "write_lat_ns", x->write_lat);
		table_int(tb, r, "read_bw_MBps", x->read_bw);
		table_int(tb, r, "write_bw_MBps", x->write_bw);
		table_str(tb, r, "over_10pct", k == 0 ? "reference" : x->differs ? x->differs : "no");
		if (!isnan(x->m_lat_pct))
			table_num(tb, r, "measured_lat_pct", x->m_lat_pct, "%+.1f");
		if (!isnan(x->m_bw_pct))
			table_num(tb, r, "measured_bw_pct", x->m_bw_pct, "%+.1f");
	}
}

static char *tiering_sentence(const struct ph_hmat_view *v)
{
	const struct ph_hmat_tier *x, *ref = v->tier;
	bool measured = false;

	for (int k = 1; k < v->ntier; k++)
		measured |= !isnan(v->tier[k].m_lat_pct) || !isnan(v->tier[k].m_bw_pct);
	if (v->ntier < 2)
		return xstrdup("fewer than two nodes with CPUs and memory: nothing for the 10% rule to compare");
	if (v->tier_trip < 0)
		return xasprintf("the nodes with CPUs and memory are within 10%% of node %u in every figure: Linux uses the HMAT for memory tiering%s",
				 ref->node, !measured ? "" : v->measured_trips
				 ? "; measured, they differ by more than 10%" : "; measured, they are within 10% too");
	x = &v->tier[v->tier_trip];
	if (!strncmp(x->differs, "no ", 3))
		return xasprintf("node %u has %s figure for its best CPU initiator: Linux does not use the HMAT for memory tiering (mm/memory-tiers.c, mt_set_default_dram_perf refuses it)",
				 x->node, x->differs);
	return xasprintf("node %u's %s differs from node %u's by more than 10%%: Linux stops using the HMAT for memory tiering (mm/memory-tiers.c, mt_set_default_dram_perf)%s",
			 x->node, x->differs, ref->node, !measured ? "" : v->measured_trips
			 ? "; measured, they differ by more than 10% too" : "; measured, they are within 10%: the firmware's figures are wrong");
}

void hmat_report(struct ph_doc *doc, const char *path, int err, const char *why,
		 const struct ph_acpi_hmat *t, const struct ph_hmat_view *v)
{
	struct ph_section *s = doc_add_section(doc, "hmat_table", "firmware HMAT (the ACPI table, entry by entry)");
	char *text;

	section_str(s, "table", path);
	if (err) {
		section_str(s, "status", err == -ENOENT ? "absent" : err == -EINVAL ? "malformed" : "unreadable");
		if (err == -EINVAL)
			section_str(s, "why", why);
		else if (err != -ENOENT) {
			text = xasprintf("%s%s", strerror(-err),
					 err == -EACCES || err == -EPERM ? ": reading the table needs root" : "");
			section_str(s, "why", text);
			free(text);
		}
		return;
	}
	section_str(s, "status", "read");
	section_int(s, "revision", t->h.revision);
	section_int(s, "domain_structures", t->nmpda);
	section_int(s, "locality_structures", t->nlb);
	section_int(s, "cache_structures", t->ncache);
	if (t->nunknown)
		section_int(s, "unknown_structures", t->nunknown);
	section_int(s, "order_against_slit", v->norder_slit);
	section_int(s, "order_against_measured", v->norder_measured);
	section_int(s, "ratios_compared", v->nratio);
	section_int(s, "ratios_outside_tolerance", v->nratio_out);
	text = tiering_sentence(v);
	section_str(s, "tiering", text);
	free(text);
	section_str(s, "domains_as_nodes", "proximity domain p is read as node p");
	entries(doc, t);
	structures(doc, t);
	order(doc, v);
	ratios(doc, v);
	tiers(doc, v);
}
