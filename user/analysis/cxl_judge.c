// SPDX-License-Identifier: GPL-2.0-only
/*
 * cxl_judge.c - a CXL node's firmware entries against the measurement (cxl_judge.h).
 */
#include "cxl_judge.h"
#include "output.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *cxl_verdict_name(enum ph_cxl_verdict v)
{
	switch (v) {
	case PH_CXL_AGREES:
		return "agrees";
	case PH_CXL_OFF:
		return "OFF";
	case PH_CXL_CANNOT_TELL:
		return "CANNOT TELL";
	case PH_CXL_UNSEEN:
		return "not seen";
	}
	return "?";
}

/* MiB/s, as the HMAT check reads the tables' bandwidth, to GB/s as measured. */
static double mibps_to_gbps(double v)
{
	return v * 1048576.0 / 1e9;
}

/* The relative half-width of a measured value: its CI's, or the noise where wider or absent. */
static double uncertainty(double v, double lo, double hi, double noise)
{
	double u = noise;

	if (isfinite(lo) && isfinite(hi) && v > 0) {
		double h = (hi - lo) / 2 / v;

		if (h > u)
			u = h;
	}
	return u;
}

/* The best measured row of node (lowest latency, or highest bandwidth), or NULL. */
static const struct ph_cxl_measured *best(const struct ph_cxl_measured *m, int nm, int node, bool lat)
{
	const struct ph_cxl_measured *b = NULL;

	for (int i = 0; i < nm; i++) {
		const struct ph_cxl_measured *x = &m[i];

		if (x->node != node || !(lat ? x->have_lat : x->have_bw))
			continue;
		if (!b || (lat ? x->lat_ns < b->lat_ns : x->bw_GBps > b->bw_GBps))
			b = x;
	}
	return b;
}

static void decide(struct ph_cxl_judged *j, double tolerance, bool ci_met)
{
	j->rel_err = (j->table - j->implied) / j->implied;
	if (!ci_met) {
		j->verdict = PH_CXL_CANNOT_TELL;
		snprintf(j->why, sizeof(j->why), "the measurement missed its CI target");
	} else if (fabs(j->rel_err) + j->unc <= tolerance) {
		j->verdict = PH_CXL_AGREES;
	} else if (fabs(j->rel_err) - j->unc > tolerance) {
		j->verdict = PH_CXL_OFF;
		snprintf(j->why, sizeof(j->why), "the measurement implies %.4g", j->implied);
	} else {
		j->verdict = PH_CXL_CANNOT_TELL;
		snprintf(j->why, sizeof(j->why), "within the uncertainty (%.1f%%) of the tolerance",
			 100 * j->unc);
	}
}

static struct ph_cxl_judged *add(struct ph_cxl_judged **out, int *n, const struct ph_cxl_explained *e,
				 const char *source, int f)
{
	struct ph_cxl_judged *j = xappend(out, n, sizeof(**out));

	memset(j, 0, sizeof(*j));
	j->node = e->node;
	j->source = source;
	j->fig = f;
	j->implied = NAN;
	j->rel_err = NAN;
	j->cpu_node = -1;
	if (!strcmp(source, "device CDAT"))
		snprintf(j->entry, sizeof(j->entry), "DSLBIS %s (DSMAS %d)", cxl_fig_name(f), e->cdat_handle);
	else
		snprintf(j->entry, sizeof(j->entry), "HMAT %s to domain %ld", cxl_fig_name(f), e->gp_domain);
	return j;
}

/* A read latency entry x of the sum: the best measured latency less the other parts. */
static void judge_lat(struct ph_cxl_judged *j, const struct ph_cxl_explained *e, uint32_t x,
		      const struct ph_cxl_measured *b, double tolerance, double noise)
{
	j->table = x;
	if (!b) {
		j->verdict = PH_CXL_CANNOT_TELL;
		snprintf(j->why, sizeof(j->why), "no measured latency to node %d", e->node);
		return;
	}
	j->cpu_node = b->cpu_node;
	j->implied = b->lat_ns - ((double)e->sum.val[1][PH_CXL_READ_LAT] - x);
	/* The CI is of the whole latency: as a fraction of the part it is wider. */
	j->unc = uncertainty(b->lat_ns, b->lat_lo, b->lat_hi, noise) * b->lat_ns / fabs(j->implied);
	if (j->implied <= 0) {
		j->verdict = PH_CXL_CANNOT_TELL;
		snprintf(j->why, sizeof(j->why), "the other parts alone exceed the measured %.4g ns",
			 b->lat_ns);
		return;
	}
	decide(j, tolerance, b->lat_ci_met);
}

/* A read bandwidth entry x: seen only where it is the least part, or the measurement exceeds it. */
static void judge_bw(struct ph_cxl_judged *j, const struct ph_cxl_explained *e, uint32_t x,
		     const struct ph_cxl_measured *b, double tolerance, double noise)
{
	const uint32_t least = e->sum.val[1][PH_CXL_READ_BW];

	j->table = mibps_to_gbps(x);
	if (!b) {
		j->verdict = PH_CXL_CANNOT_TELL;
		snprintf(j->why, sizeof(j->why), "no measured read bandwidth to node %d", e->node);
		return;
	}
	j->cpu_node = b->cpu_node;
	j->implied = b->bw_GBps;
	j->unc = uncertainty(b->bw_GBps, b->bw_lo, b->bw_hi, noise);
	if (x > least && b->bw_GBps * (1 - j->unc) <= j->table * (1 + tolerance)) {
		j->verdict = PH_CXL_UNSEEN;
		snprintf(j->why, sizeof(j->why), "another part binds at %u MB/s", least);
		return;
	}
	decide(j, tolerance, b->bw_ci_met);
}

int cxl_judge(const struct ph_cxl_explained *e, int ne, const struct ph_cxl_measured *m, int nm,
	      double tolerance, double noise, struct ph_cxl_judged **out)
{
	int n = 0;

	*out = NULL;
	for (int i = 0; i < ne; i++) {
		const struct ph_cxl_explained *x = &e[i];
		const struct ph_cxl_measured *bl = best(m, nm, x->node, true);
		const struct ph_cxl_measured *bb = best(m, nm, x->node, false);
		static const char *const sources[] = { "device CDAT", "generic port" };

		/* Interleaved: one measurement cannot be split between the devices' tables. */
		if (x->why || x->ndev > 1)
			continue;
		for (int s = 0; s < 2; s++)
			for (int f = 0; f < PH_CXL_NFIG; f++) {
				/* Access class 1: the CPUs' figures, as measured from CPUs. */
				uint32_t v = s ? x->parts.gp[1][f] : x->parts.cdat[f];
				struct ph_cxl_judged *j;

				if (!v)
					continue;
				j = add(out, &n, x, sources[s], f);
				if (f == PH_CXL_WRITE_LAT || f == PH_CXL_WRITE_BW) {
					j->table = cxl_fig_is_latency(f) ? v : mibps_to_gbps(v);
					j->verdict = PH_CXL_UNSEEN;
					snprintf(j->why, sizeof(j->why), "a write figure: pagehop measures reads");
				} else if (!x->sum.known[1][f]) {
					j->table = cxl_fig_is_latency(f) ? v : mibps_to_gbps(v);
					j->verdict = PH_CXL_CANNOT_TELL;
					snprintf(j->why, sizeof(j->why), "no %s figure to compose with",
						 x->sum.missing[1][f]);
				} else if (f == PH_CXL_READ_LAT) {
					judge_lat(j, x, v, bl, tolerance, noise);
				} else {
					judge_bw(j, x, v, bb, tolerance, noise);
				}
			}
	}
	return n;
}

int cxl_judge_report(struct ph_doc *doc, const struct ph_cxl_judged *j, int n, double tolerance,
		     double noise)
{
	struct ph_table *tb = doc_add_table(doc, "cxl_judge", "CXL table entries against the measurement");
	static const char *const cols[] = {
		"node", "source", "entry", "figure", "table", "implied", "cpu_node", "err_pct",
		"unc_pct", "verdict", "why",
	};
	int off = 0, unsure = 0, agree = 0;

	for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
		table_add_col(tb, cols[i]);
	for (int i = 0; i < n; i++) {
		const bool lat = cxl_fig_is_latency(j[i].fig);
		int r = table_add_row(tb);

		table_int(tb, r, "node", j[i].node);
		table_str(tb, r, "source", j[i].source);
		table_str(tb, r, "entry", j[i].entry);
		table_str(tb, r, "figure", lat ? cxl_fig_name(j[i].fig)
					       : j[i].fig == PH_CXL_READ_BW ? "read_bandwidth_GBps"
									    : "write_bandwidth_GBps");
		table_num(tb, r, "table", j[i].table, lat ? "%.0f" : "%.3f");
		if (isfinite(j[i].implied))
			table_num(tb, r, "implied", j[i].implied, lat ? "%.1f" : "%.3f");
		if (j[i].cpu_node >= 0)
			table_int(tb, r, "cpu_node", j[i].cpu_node);
		if (isfinite(j[i].rel_err))
			table_num(tb, r, "err_pct", 100 * j[i].rel_err, "%.1f");
		if (j[i].unc > 0)
			table_num(tb, r, "unc_pct", 100 * j[i].unc, "%.1f");
		table_str(tb, r, "verdict", cxl_verdict_name(j[i].verdict));
		table_str(tb, r, "why", j[i].why[0] ? j[i].why : NULL);
		off += j[i].verdict == PH_CXL_OFF;
		unsure += j[i].verdict == PH_CXL_CANNOT_TELL;
		agree += j[i].verdict == PH_CXL_AGREES;
		if (j[i].verdict == PH_CXL_OFF)
			doc_note(doc, "CXL: node %d: %s %s is off: %.4g in the table, %s (%+.0f%%)",
				 j[i].node, j[i].source, j[i].entry, j[i].table, j[i].why,
				 100 * j[i].rel_err);
	}
	doc_note(doc, "CXL: each entry against what the measurement implies for it, the other parts "
		      "as given; off beyond %.0f%% tolerance by more than the uncertainty (CI, or "
		      "%.1f%% noise where wider): %d agree, %d off, %d cannot tell",
		 100 * tolerance, 100 * noise, agree, off, unsure);
	return off ? PH_EXIT_FAIL : (unsure || !agree) ? PH_EXIT_CANNOT_TELL : PH_EXIT_OK;
}

/* entry x base ~ v (ps, or MiB/s): the base kept where the entry fits, else grown tenfold. */
static void set_entry(struct ph_cdat_dslbis *l, double v)
{
	uint64_t base = l->base_unit ? l->base_unit : 1;
	double entry = ceil(v / (double)base);

	while (entry > 0xfffe) {
		base *= 10;
		entry = ceil(v / (double)base);
	}
	l->base_unit = base;
	l->entry[0] = (uint16_t)(entry < 1 ? 1 : entry);
}

int cxl_propose_cdat(const struct ph_cdat *t, const struct ph_cxl_explained *e,
		     const struct ph_cxl_judged *j, int nj, struct ph_cdat *out, const char **why)
{
	int changed = 0;

	size_t len;
	uint8_t *bytes = cdat_build(t, &len);
	char perr[160];

	*why = NULL;
	/* A copy through pagehop's own writer and parser, which round-trip every field. */
	if (cdat_parse(bytes, len, out, perr, sizeof(perr))) {
		free(bytes);
		memset(out, 0, sizeof(*out));
		*why = "the device's CDAT does not write back";
		return -1;
	}
	free(bytes);
	for (int i = 0; i < nj; i++) {
		const struct ph_cxl_judged *x = &j[i];

		if (x->node != e->node || strcmp(x->source, "device CDAT") || x->verdict == PH_CXL_UNSEEN ||
		    !isfinite(x->implied) || x->implied <= 0)
			continue;
		for (int k = 0; k < out->ndslbis; k++) {
			struct ph_cdat_dslbis *l = &out->dslbis[k];
			const bool lat = x->fig == PH_CXL_READ_LAT;

			if (l->handle != e->cdat_handle || (l->flags & 0xf))
				continue;
			if (l->data_type == (lat ? PH_HMAT_ACCESS_LATENCY : PH_HMAT_ACCESS_BANDWIDTH)) {
				*why = "an access figure (read and write alike) is left as it is: pagehop measures reads";
				continue;
			}
			if (l->data_type != (lat ? PH_HMAT_READ_LATENCY : PH_HMAT_READ_BANDWIDTH))
				continue;
			set_entry(l, lat ? x->implied * 1000 : x->implied * 1e9 / 1048576.0);
			changed++;
		}
	}
	return changed;
}
