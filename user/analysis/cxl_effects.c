// SPDX-License-Identifier: GPL-2.0-only
/*
 * cxl_effects.c - a CXL node's tier and interleave weight, now and as
 * proposed (cxl_effects.h).
 */
#include "cxl_effects.h"
#include "interleave.h"
#include "memtier.h"
#include "output.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static uint32_t fig(int64_t v)
{
	return v > 0 && v <= UINT32_MAX ? (uint32_t)v : 0;
}

/* The weight of node k among t's memory nodes, the CXL node's bandwidth bw (MB/s). */
static int weight(const struct ph_cxl_tiering *t, int k, uint32_t bw)
{
	uint32_t b[1024];
	bool mem[1024];
	uint8_t w[1024];
	int n = t->n < 1024 ? t->n : 1024;

	for (int i = 0; i < n; i++) {
		const struct ph_cxl_coord *c = &t->access1[i];
		uint32_t r = fig(c->read_bw_MBps), wr = fig(c->write_bw_MBps);

		b[i] = i == k ? bw : r < wr ? r : wr;
		mem[i] = true;
	}
	if (!bw)
		return -1;
	wi_reduce(n, b, mem, w);
	return w[k];
}

void cxl_effect(const struct ph_cxl_explained *e, const struct ph_cxl_tiering *t,
		const struct ph_cxl_judged *j, int nj, struct ph_cxl_effect *out)
{
	const struct ph_cxl_coord *r = NULL, *c = NULL;
	long rl, rb, wl, wb;
	int k = -1, above = -1;
	size_t len = 0;

	memset(out, 0, sizeof(*out));
	out->node = e->node;
	out->tier_now = out->ref = out->wi_now = out->wi_kernel = out->wi_proposed = -1;
	out->adist_kernel = out->adist_proposed = -1;
	out->tier_kernel = out->tier_proposed = -1;
	for (int i = 0; i < t->n; i++) {
		if (t->ids[i] == e->node)
			k = i;
		if (!r && t->cpus[i] && t->access1[i].present && t->access1[i].read_lat_ns > 0) {
			r = &t->access1[i];
			out->ref = t->ids[i];
		}
	}
	if (k < 0) {
		out->why = "the node is not in has_memory";
		return;
	}
	out->tier_now = t->tier[k];
	out->wi_now = t->wi_weight[k];
	/* establish_demotion_targets(): the tier just above demotes to this one. */
	for (int i = 0; i < t->n; i++)
		if (t->tier[i] >= 0 && t->tier[i] < out->tier_now && t->tier[i] > above)
			above = t->tier[i];
	for (int i = 0; i < t->n; i++)
		if (above >= 0 && t->tier[i] == above)
			len += (size_t)snprintf(out->demoted_from + len,
						len < sizeof(out->demoted_from) ? sizeof(out->demoted_from) - len : 0,
						"%s%d", len ? "," : "", t->ids[i]);
	c = &t->access1[k];
	if (!r || !c->present) {
		out->why = !r ? "no node with CPUs has access1 figures (the reference)"
			      : "the node has no access1 figures";
		return;
	}
	rl = fig(r->read_lat_ns) + (long)fig(r->write_lat_ns);
	rb = fig(r->read_bw_MBps) + (long)fig(r->write_bw_MBps);
	out->lat_kernel = out->lat_proposed = fig(c->read_lat_ns);
	out->bw_kernel = out->bw_proposed = fig(c->read_bw_MBps);
	/* The proposal: each judged read figure of the device's CDAT as the measurement implies it. */
	for (int i = 0; i < nj; i++) {
		const struct ph_cxl_judged *x = &j[i];
		double d;

		if (x->node != e->node || strcmp(x->source, "device CDAT") || x->verdict == PH_CXL_UNSEEN ||
		    !isfinite(x->implied) || x->implied <= 0)
			continue;
		if (x->fig == PH_CXL_READ_LAT) {
			d = (double)out->lat_kernel + (x->implied - x->table);
			out->lat_proposed = d > 0 ? (uint32_t)ceil(d) : 0;
		} else if (x->fig == PH_CXL_READ_BW) {
			/* The least of the parts is what the node shows: the measured one, where it binds. */
			out->bw_proposed = (uint32_t)(x->implied * 1e9 / 1048576.0);
		}
	}
	wl = fig(c->write_lat_ns);
	wb = fig(c->write_bw_MBps);
	out->adist_kernel = memtier_adistance(out->lat_kernel + wl, out->bw_kernel + wb, rl, rb);
	out->adist_proposed = memtier_adistance(out->lat_proposed + wl, out->bw_proposed + wb, rl, rb);
	if (out->adist_kernel >= 0)
		out->tier_kernel = (int)(out->adist_kernel >> PH_MEMTIER_CHUNK_BITS);
	if (out->adist_proposed >= 0)
		out->tier_proposed = (int)(out->adist_proposed >> PH_MEMTIER_CHUNK_BITS);
	out->wi_kernel = weight(t, k, out->bw_kernel < wb ? out->bw_kernel : (uint32_t)wb);
	out->wi_proposed = weight(t, k, out->bw_proposed < wb ? out->bw_proposed : (uint32_t)wb);
}

void cxl_effects_report(struct ph_doc *doc, const struct ph_cxl_effect *x, int n)
{
	struct ph_table *tb = doc_add_table(doc, "cxl_effects", "What Linux does with a CXL node's figures");
	static const char *const cols[] = {
		"node", "tier_now", "demoted_from", "reference_node", "read_lat_ns", "read_bw_MBps",
		"adistance", "tier", "proposed_read_lat_ns", "proposed_read_bw_MBps",
		"proposed_adistance", "proposed_tier", "wi_weight_now", "wi_weight_bw",
		"proposed_wi_weight_bw", "why",
	};

	for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
		table_add_col(tb, cols[i]);
	for (int i = 0; i < n; i++) {
		const struct ph_cxl_effect *e = &x[i];
		int r = table_add_row(tb);

		table_int(tb, r, "node", e->node);
		if (e->tier_now >= 0)
			table_int(tb, r, "tier_now", e->tier_now);
		table_str(tb, r, "demoted_from", e->demoted_from[0] ? e->demoted_from : NULL);
		if (e->ref >= 0)
			table_int(tb, r, "reference_node", e->ref);
		if (e->lat_kernel)
			table_int(tb, r, "read_lat_ns", e->lat_kernel);
		if (e->bw_kernel)
			table_int(tb, r, "read_bw_MBps", e->bw_kernel);
		if (e->adist_kernel >= 0) {
			table_int(tb, r, "adistance", e->adist_kernel);
			table_int(tb, r, "tier", e->tier_kernel);
		}
		if (e->lat_proposed)
			table_int(tb, r, "proposed_read_lat_ns", e->lat_proposed);
		if (e->bw_proposed)
			table_int(tb, r, "proposed_read_bw_MBps", e->bw_proposed);
		if (e->adist_proposed >= 0) {
			table_int(tb, r, "proposed_adistance", e->adist_proposed);
			table_int(tb, r, "proposed_tier", e->tier_proposed);
		}
		if (e->wi_now >= 0)
			table_int(tb, r, "wi_weight_now", e->wi_now);
		if (e->wi_kernel >= 0)
			table_int(tb, r, "wi_weight_bw", e->wi_kernel);
		if (e->wi_proposed >= 0)
			table_int(tb, r, "proposed_wi_weight_bw", e->wi_proposed);
		table_str(tb, r, "why", e->why);
	}
	doc_note(doc, "CXL: tier_now and wi_weight_now as sysfs has them; tier = abstract distance "
		      ">> 7, the distance mt_perf_to_adistance() gives the node's access1 figures "
		      "(read + write) against the reference node's; wi_weight_bw the weight in "
		      "proportion to min(read, write) bandwidth among the memory nodes (wi_reduce(), "
		      "Linux 6.16's auto mode); proposed_*: with the CDAT's judged read figures as "
		      "measured");
}
