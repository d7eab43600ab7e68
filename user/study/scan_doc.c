// SPDX-License-Identifier: GPL-2.0-only
/*
 * scan_doc.c - pagehop scan's document: the verdict first, a row per
 * range, the coverage of each node, and what the firmware says is there.
 */
#include "scan_doc.h"
#include "bandwidth.h"
#include "latency.h"
#include "output.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

static void hex(struct ph_table *t, int row, const char *col, uint64_t v)
{
	char b[24];

	snprintf(b, sizeof(b), "0x%llx", (unsigned long long)v);
	table_str(t, row, col, b);
}

static const char *dimm_of(const struct ph_scan *sc, const struct ph_scan_range *r)
{
	return r->dimm[0] ? r->dimm : sc->dimms.nmap ? "none mapped here" : "not exposed";
}

/* The verdict's line: the furthest stray, its range, DIMM and figure. */
static void verdict(const struct ph_scan *sc, struct ph_doc *doc)
{
	struct ph_section *sec = doc_add_section(doc, "scan_verdict", "verdict");
	bool judged = false;
	char line[512], more[48] = "";

	for (int k = 0; k < sc->nnodes; k++)
		judged |= sc->nd[k].jb.judged && sc->nd[k].jl.judged;
	if (sc->nrank) {
		const struct ph_scan_range *r = &sc->r[sc->rank[0]];
		bool bw = r->bw_stray && (!r->lat_stray || fabs(r->bw_dev) >= fabs(r->lat_dev));
		const struct ph_scan_node *nd = NULL;

		for (int k = 0; k < sc->nnodes; k++)
			if (sc->nd[k].node == r->node)
				nd = &sc->nd[k];
		if (sc->nrank > 1)
			snprintf(more, sizeof(more), "; %d ranges stray in all", sc->nrank);
		snprintf(line, sizeof(line),
			 "STRAYS: node %d range 0x%llx-0x%llx (DIMM: %s): %s %.2f %s, %.0f%% %s the node's median %.2f%s",
			 r->node, (unsigned long long)r->lo, (unsigned long long)r->hi, dimm_of(sc, r),
			 bw ? "read bandwidth" : "latency", bw ? r->bw.median : r->lat.median, bw ? "GB/s" : "ns",
			 fabs(bw ? r->bw_dev : r->lat_dev) * 100, (bw ? r->bw_dev : r->lat_dev) < 0 ? "below" : "above",
			 nd ? (bw ? nd->jb.median : nd->jl.median) : NAN,
			 more);
		section_str(sec, "verdict", line);
	} else if (judged) {
		section_str(sec, "verdict", "NONE STRAY: every range measured lies within the tolerance or k robust sigmas of its node's median");
	} else {
		section_str(sec, "verdict",
			    "CANNOT TELL: fewer than 3 ranges of a node were measured; scan more of it (--size, a smaller --range) to judge");
	}
}

static void ranges_table(const struct ph_scan *sc, struct ph_doc *doc)
{
	struct ph_table *t = doc_add_table(doc, "scan", "read bandwidth and chase latency per physical range");
	static const char *const cols[] = {
		"node", "range_lo", "range_hi", "node_MiB", "pinned_MiB", "measured", "bw_GBps", "bw_ci_lo",
		"bw_ci_hi", "bw_parts", "lat_ns", "lat_ci_lo", "lat_ci_hi", "bw_dev_pct", "lat_dev_pct", "stray", "rank",
		"dimm", "first_frame", "last_frame", "read_back_MiB", "runs", "cpu", "verified", "why",
	};

	for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
		table_add_col(t, cols[i]);
	table_detail(t, "range_hi node_MiB measured bw_dev_pct lat_dev_pct first_frame last_frame read_back_MiB runs cpu "
			"bw_ci_lo bw_ci_hi bw_parts lat_ci_lo lat_ci_hi verified");
	for (int i = 0; i < sc->nr; i++) {
		const struct ph_scan_range *r = &sc->r[i];
		int row = table_add_row(t), rank = 0;

		for (int k = 0; k < sc->nrank; k++)
			if (sc->rank[k] == i)
				rank = k + 1;
		table_int(t, row, "node", r->node);
		hex(t, row, "range_lo", r->lo);
		hex(t, row, "range_hi", r->hi);
		table_int(t, row, "node_MiB", (long long)(r->node_bytes / MiB));
		table_int(t, row, "pinned_MiB", (long long)(r->pinned / MiB));
		table_bool(t, row, "measured", r->measured);
		if (r->measured) {
			table_num(t, row, "bw_GBps", r->bw.median, "%.2f");
			table_num(t, row, "bw_ci_lo", r->bw.ci_lo, "%.2f");
			table_num(t, row, "bw_ci_hi", r->bw.ci_hi, "%.2f");
			table_int(t, row, "bw_parts", r->bw_parts);
			table_num(t, row, "lat_ns", r->lat.median, "%.1f");
			table_num(t, row, "lat_ci_lo", r->lat.ci_lo, "%.1f");
			table_num(t, row, "lat_ci_hi", r->lat.ci_hi, "%.1f");
			if (!isnan(r->bw_dev))
				table_num(t, row, "bw_dev_pct", r->bw_dev * 100, "%.1f");
			if (!isnan(r->lat_dev))
				table_num(t, row, "lat_dev_pct", r->lat_dev * 100, "%.1f");
			table_str(t, row, "stray", r->bw_stray && r->lat_stray ? "bw,lat" : r->bw_stray ? "bw" :
				  r->lat_stray ? "lat" : "no");
			if (rank)
				table_int(t, row, "rank", rank);
			table_int(t, row, "cpu", r->cpu);
		}
		table_str(t, row, "dimm", dimm_of(sc, r));
		if (r->last) {
			hex(t, row, "first_frame", r->first);
			hex(t, row, "last_frame", r->last);
			table_int(t, row, "read_back_MiB", (long long)(r->read_back / MiB));
		}
		table_int(t, row, "runs", r->runs);
		if (r->measured || r->found[0])
			table_bool(t, row, "verified", r->verified);
		table_str(t, row, "why", r->why[0] ? r->why : NULL);
	}
}

static void coverage_table(const struct ph_scan *sc, struct ph_doc *doc)
{
	struct ph_table *t = doc_add_table(doc, "scan_coverage", "how much of each node was scanned");
	static const char *const cols[] = {
		"node", "total_MiB", "free_MiB", "reserve_MiB", "pinned_MiB", "scanned_MiB", "scanned_pct",
		"of_free_pct", "ranges", "measured", "stray", "least_free_MiB", "backend", "coverage", "frames",
		"pinning_stopped",
	};

	for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
		table_add_col(t, cols[i]);
	table_detail(t, "frames least_free_MiB");
	for (int k = 0; k < sc->nnodes; k++) {
		const struct ph_scan_node *nd = &sc->nd[k];
		int row = table_add_row(t);

		table_int(t, row, "node", nd->node);
		table_int(t, row, "total_MiB", (long long)(nd->total / MiB));
		table_int(t, row, "free_MiB", (long long)(nd->free_before / MiB));
		table_int(t, row, "reserve_MiB", (long long)(nd->reserve / MiB));
		table_int(t, row, "pinned_MiB", (long long)(nd->pinned / MiB));
		table_int(t, row, "scanned_MiB", (long long)(nd->scanned / MiB));
		if (nd->total)
			table_num(t, row, "scanned_pct", 100.0 * (double)nd->scanned / (double)nd->total, "%.1f");
		if (nd->free_before)
			table_num(t, row, "of_free_pct", 100.0 * (double)nd->scanned / (double)nd->free_before, "%.1f");
		table_int(t, row, "ranges", nd->nranges);
		table_int(t, row, "measured", nd->nmeasured);
		table_int(t, row, "stray", nd->nstray);
		table_int(t, row, "least_free_MiB", (long long)(nd->free_min / MiB));
		table_str(t, row, "backend", nd->backend);
		table_str(t, row, "coverage", sc->partial ? "partial" : "pinned");
		table_str(t, row, "frames", nd->frames);
		table_str(t, row, "pinning_stopped", nd->stop);
	}
}

static void dimms_table(const struct ph_scan *sc, struct ph_doc *doc)
{
	struct ph_table *t;
	static const char *const cols[] = {
		"source", "label", "bank", "location", "type", "size_MiB", "ce_count", "ue_count",
	};

	if (!sc->dimms.n)
		return;
	t = doc_add_table(doc, "scan_dimms", "memory devices, as EDAC and the firmware (DMI) list them");
	for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
		table_add_col(t, cols[i]);
	for (int i = 0; i < sc->dimms.n; i++) {
		const struct ph_dimm *x = &sc->dimms.v[i];
		int row = table_add_row(t);

		table_str(t, row, "source", x->source == PH_DIMM_EDAC ? "edac" : "dmi");
		table_str(t, row, "label", x->label[0] ? x->label : "(none given)");
		table_str(t, row, "bank", x->bank[0] ? x->bank : NULL);
		table_str(t, row, "location", x->location);
		table_str(t, row, "type", x->type[0] ? x->type : NULL);
		if (x->size)
			table_int(t, row, "size_MiB", (long long)(x->size / MiB));
		if (x->ce >= 0)
			table_int(t, row, "ce_count", x->ce);
		if (x->ue >= 0)
			table_int(t, row, "ue_count", x->ue);
	}
}

static const char *exposed(int err, int found, char *buf, size_t len)
{
	if (err)
		snprintf(buf, len, "not exposed (%s)", strerror(-err));
	else if (!found)
		snprintf(buf, len, "not exposed (no devices listed)");
	else
		snprintf(buf, len, "%d devices", found);
	return buf;
}

struct ph_doc *scan_document(struct ph_scan *sc, struct ph_session *s, int *rc)
{
	struct ph_doc *doc = doc_new("scan");
	struct ph_section *sec;
	int edac = 0, dmi = 0;
	char buf[160], a[32];
	bool unverified = false, measured = false;

	for (int i = 0; i < sc->dimms.n; i++) {
		edac += sc->dimms.v[i].source == PH_DIMM_EDAC;
		dmi += sc->dimms.v[i].source == PH_DIMM_DMI;
	}
	for (int i = 0; i < sc->nr; i++) {
		unverified |= sc->r[i].measured && !sc->r[i].verified;
		measured |= sc->r[i].measured;
	}
	verdict(sc, doc);
	ranges_table(sc, doc);
	coverage_table(sc, doc);
	dimms_table(sc, doc);
	sec = doc_add_section(doc, "scan_method", "scan");
	section_str(sec, "range", format_size(sc->range, a, sizeof(a)));
	section_str(sec, "ranges",
		    "aligned physical ranges of --range bytes that hold the node's memory blocks (/sys/devices/system/memory) or frames pinned on it");
	section_str(sec, "memory",
		    sc->partial ? "partial: without pagehop.ko the kernel chose which frames this process got; ranges show what it gave"
				: "pinned by pagehop.ko on the node, chunk after chunk, until the node's reserve");
	section_str(sec, "reserve", "left free on every node: the larger of 5% of the node (pagehop.ko's floor) and 256 MiB, judged on the free memory before each chunk, which keeps 16 MiB above it; a chunk that left the node under it all the same is given back");
	section_str(sec, "view",
		    "each range's pages, moved (mremap) in physical order into one virtual range, read back (QUERY or pagemap) on the node and in the range before measuring, and again after");
	{
		char *bw = xasprintf("the read kernel, one thread on a CPU of the node (or the nearest with CPUs), over the whole range: "
				     "each sample reads the next of bw_parts parts of it (at most %d, each 1 ms or more of the warm-up "
				     "pass), so that the figure's first bw_parts samples, at least, read the range exactly once; "
				     "the median of the samples' GB/s", SCAN_BW_PARTS);

		section_str(sec, "bandwidth", bw);
		free(bw);
	}
	{
		char pat[48], *lat;

		lat = xasprintf("the chase %s over the whole range, one chain, the same CPU%s",
				chase_spec_name(&sc->pattern, pat, sizeof(pat)),
				sc->pattern.pattern == CHASE_PAGE ? ": one line in every page of that size, the pages in random order, "
				"so that one cycle visits the whole range" : "");
		section_str(sec, "latency", lat);
		free(lat);
	}
	section_str(sec, "why",
		    "a range not measured: none, or less than 64 MiB of it could be had (far beyond the last-level cache); the rest "
		    "is in use (the kernel, other processes), reserved by the firmware, or left as the node's reserve");
	section_str(sec, "sample", bandwidth_parts_method);
	section_str(sec, "sample_bw_parts_0", bandwidth_method);
	section_str(sec, "latency_sample",
		    "one block of hops (~1 ms) per sample; ns per load = block time / hops; the median of the samples");
	section_str(sec, "strays",
		    "per node and figure: beyond --mads robust sigmas (1.4826 MAD) of the median of its measured ranges and beyond --tolerance, either side; ranked by how many tolerances");
	section_num(sec, "mads", sc->k, "%g");
	section_num(sec, "tolerance_pct", sc->tol * 100, "%g");
	if (sc->budget)
		section_num(sec, "budget_s", sc->budget, "%g");
	section_num(sec, "measuring_s", sc->measure_s, "%.2f");
	section_num(sec, "measured_GiB", (double)sc->measured_bytes / (double)GiB, "%.3f");
	if (sc->measure_s > 0)
		section_num(sec, "GiB_per_s", (double)sc->measured_bytes / (double)GiB / sc->measure_s, "%.2f");
	section_str(sec, "edac", exposed(sc->edac_err, edac, buf, sizeof(buf)));
	section_str(sec, "dmi", exposed(sc->dmi_err, dmi, buf, sizeof(buf)));
	section_str(sec, "dimm_mapping",
		    sc->dimms.nmap ? "the DMI memory device mapped addresses (type 20) over each range"
				   : "not exposed: the firmware maps no address range to a memory device; physical ranges only");
	session_describe(s, doc);
	if (sc->nrank || unverified) {
		*rc = PH_EXIT_FAIL;
	} else if (!measured && !*rc) {
		ph_err("no range measured: %s", sc->nr ? sc->r[0].why : "no memory could be had");
		*rc = PH_EXIT_CANNOT_TELL;
	}
	return doc;
}
