// SPDX-License-Identifier: GPL-2.0-only
/*
 * hmat_table.c - every HMAT entry against the measurement and the SLIT,
 * and Linux's 10% rule for tiering (mm/memory-tiers.c,
 * mt_set_default_dram_perf()).  The rules are in docs/slit.md section 12.
 */
#include "hmat_table.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The HMAT's figure of entry k of l, as the kernel reads it (0: none). */
static uint32_t lb_value(const struct ph_hmat_lb *l, size_t k, int revision)
{
	return acpi_hmat_value(l->entry[k], l->base_unit, l->data_type, revision);
}

static double measured(const struct ph_nmatrix *m, uint32_t row, uint32_t col)
{
	int r, c;
	double v;

	if (!m || row > 1023 || col > 1023)
		return NAN;
	r = nmatrix_row(m, (int)row);
	c = nmatrix_col(m, (int)col);
	if (r < 0 || c < 0)
		return NAN;
	v = m->val[r * m->ncols + c];
	return v > 0 && isfinite(v) ? v : NAN;
}

static int slit_of(const struct ph_slit *s, uint32_t a, uint32_t b)
{
	return s && a <= 1023 && b <= 1023 ? slit_at(s, (int)a, (int)b) : -1;
}

/* Is HMAT figure a better than b (lower latency, higher bandwidth)? */
static bool better(bool latency, double a, double b)
{
	return latency ? a < b : a > b;
}

/*
 * Measured a worse than b beyond both noise bands: for latency
 * a (1 - e) > b (1 + e), for bandwidth a (1 + e) < b (1 - e).
 */
static bool worse_beyond(bool latency, double a, double b, double e)
{
	if (isnan(a) || isnan(b))
		return false;
	return latency ? a * (1 - e) > b * (1 + e) : a * (1 + e) < b * (1 - e);
}

static void order_lb(const struct ph_hmat_lb *l, int rev, const struct ph_slit *slit,
		     const struct ph_nmatrix *m, double noise, struct ph_hmat_view *v)
{
	bool lat = acpi_hmat_is_latency(l->data_type);

	for (uint32_t i = 0; i < l->ni; i++)
		for (uint32_t a = 0; a < l->nt; a++)
			for (uint32_t b = 0; b < l->nt; b++) {
				uint32_t va = lb_value(l, (size_t)i * l->nt + a, rev);
				uint32_t vb = lb_value(l, (size_t)i * l->nt + b, rev);
				struct ph_hmat_order o = {
					.data_type = l->data_type, .init = l->init[i],
					.near = l->targ[a], .far = l->targ[b],
					.v_near = va, .v_far = vb,
				};

				if (!va || !vb || !better(lat, va, vb))
					continue;
				o.s_near = slit_of(slit, o.init, o.near);
				o.s_far = slit_of(slit, o.init, o.far);
				o.m_near = measured(m, o.init, o.near);
				o.m_far = measured(m, o.init, o.far);
				o.slit_disagrees = o.s_near >= 0 && o.s_far >= 0 && o.s_near > o.s_far;
				o.measured_disagrees = worse_beyond(lat, o.m_near, o.m_far, noise);
				if (!o.slit_disagrees && !o.measured_disagrees)
					continue;
				v->order = xrealloc(v->order, (v->norder + 1) * sizeof(*v->order));
				v->order[v->norder++] = o;
				v->norder_slit += o.slit_disagrees;
				v->norder_measured += o.measured_disagrees;
			}
}

static void ratio_lb(const struct ph_hmat_lb *l, int rev, const struct ph_slit *slit,
		     const struct ph_nmatrix *m, double tolerance, struct ph_hmat_view *v)
{
	bool lat = acpi_hmat_is_latency(l->data_type);

	for (uint32_t i = 0; i < l->ni; i++) {
		uint32_t local = 0;
		int s;

		for (uint32_t t = 0; t < l->nt; t++)
			if (l->targ[t] == l->init[i])
				local = lb_value(l, (size_t)i * l->nt + t, rev);
		if (!local)
			continue;	/* an initiator without its own memory: no local */
		for (uint32_t t = 0; t < l->nt; t++) {
			uint32_t x = lb_value(l, (size_t)i * l->nt + t, rev);
			double ml = measured(m, l->init[i], l->init[i]);
			double mx = measured(m, l->init[i], l->targ[t]);
			struct ph_hmat_ratio r = { .data_type = l->data_type,
						   .init = l->init[i], .targ = l->targ[t] };

			if (!x || l->targ[t] == l->init[i] || isnan(ml) || isnan(mx))
				continue;
			r.hmat = lat ? (double)x / local : (double)local / x;
			r.measured = lat ? mx / ml : ml / mx;
			s = slit_of(slit, r.init, r.targ);
			r.slit = s >= 0 ? s / 10.0 : NAN;
			r.rel_err = (r.hmat - r.measured) / r.measured;
			r.within = fabs(r.rel_err) <= tolerance;
			v->ratio = xrealloc(v->ratio, (v->nratio + 1) * sizeof(*v->ratio));
			v->ratio[v->nratio++] = r;
			v->nratio_out += !r.within;
		}
	}
}

/* The figures drivers/acpi/numa/hmat.c walks, in its order (enum locality_types). */
enum { WRITE_LAT, READ_LAT, WRITE_BW, READ_BW, NFIG };

/* Does structure data type d give figure f (an access type gives read and write)? */
static bool gives(int d, int f)
{
	switch (f) {
	case WRITE_LAT:
		return d == PH_HMAT_ACCESS_LATENCY || d == PH_HMAT_WRITE_LATENCY;
	case READ_LAT:
		return d == PH_HMAT_ACCESS_LATENCY || d == PH_HMAT_READ_LATENCY;
	case WRITE_BW:
		return d == PH_HMAT_ACCESS_BANDWIDTH || d == PH_HMAT_WRITE_BANDWIDTH;
	default:
		return d == PH_HMAT_ACCESS_BANDWIDTH || d == PH_HMAT_READ_BANDWIDTH;
	}
}

static uint32_t *figure(struct ph_hmat_tier *x, int f)
{
	return f == WRITE_LAT ? &x->write_lat : f == READ_LAT ? &x->read_lat
	       : f == WRITE_BW ? &x->write_bw : &x->read_bw;
}

/* Entry of structure l from init to targ, normalised; 0 when either is not in it. */
static uint32_t entry_of(const struct ph_hmat_lb *l, uint32_t init, uint32_t targ, int revision)
{
	for (uint32_t i = 0; i < l->ni; i++)
		for (uint32_t c = 0; l->init[i] == init && c < l->nt; c++)
			if (l->targ[c] == targ)
				return lb_value(l, (size_t)i * l->nt + c, revision);
	return 0;
}

/* hmat_update_best(): a better non-zero value replaces *best. */
static bool update_best(bool latency, uint32_t v, uint32_t *best)
{
	if (!v || (*best && !better(latency, v, *best)))
		return false;
	*best = v;
	return true;
}

/*
 * Access class 1 of target node, as drivers/acpi/numa/hmat.c sets it:
 * - a memory proximity domain with an attached initiator takes that
 *   initiator's entries as they are (hmat_parse_locality());
 * - else hmat_update_target_attrs(): the candidates are every initiator
 *   of a memory-level structure, ascending; for write latency, read
 *   latency, write bandwidth, read bandwidth in turn (the last structure
 *   of a type giving it, localities_types[]), the best value among the
 *   candidates is the figure and only the initiators that reach it stay
 *   candidates for the next.  So the bandwidth is that of the
 *   lowest-latency initiators, not the best over all.
 * Initiators are taken to have CPUs (the HMAT alone cannot tell a
 * generic initiator).
 */
void hmat_best_figures(const struct ph_acpi_hmat *t, uint32_t node, struct ph_hmat_tier *x)
{
	const int rev = t->h.revision;
	uint32_t *cand = NULL;
	int ncand = 0;

	for (int m = 0; m < t->nmpda; m++) {
		const struct ph_hmat_mpda *a = &t->mpda[m];

		if (a->memory_pd != node || !a->initiator_valid)
			continue;
		for (int s = 0; s < t->nlb; s++)
			for (int f = 0; f < NFIG; f++)
				if (!t->lb[s].hierarchy && gives(t->lb[s].data_type, f) &&
				    entry_of(&t->lb[s], a->initiator_pd, node, rev))
					*figure(x, f) = entry_of(&t->lb[s], a->initiator_pd, node, rev);
		return;
	}
	for (int s = 0; s < t->nlb; s++) {
		if (t->lb[s].hierarchy)
			continue;
		for (uint32_t i = 0; i < t->lb[s].ni; i++) {
			int k = 0;

			while (k < ncand && cand[k] < t->lb[s].init[i])
				k++;
			if (k < ncand && cand[k] == t->lb[s].init[i])
				continue;
			xappend(&cand, &ncand, sizeof(*cand));
			memmove(&cand[k + 1], &cand[k], (size_t)(ncand - 1 - k) * sizeof(*cand));
			cand[k] = t->lb[s].init[i];
		}
	}
	for (int f = 0; f < NFIG; f++) {
		const struct ph_hmat_lb *l = NULL;
		const bool lat = f == WRITE_LAT || f == READ_LAT;
		uint32_t best = 0;
		int keep = 0;

		for (int s = 0; s < t->nlb; s++)
			if (!t->lb[s].hierarchy && gives(t->lb[s].data_type, f))
				l = &t->lb[s];
		if (!l)
			continue;
		for (int k = 0; k < ncand; k++) {
			uint32_t v = entry_of(l, cand[k], node, rev);

			/* A new best drops the candidates before it; one off the best drops out. */
			if (update_best(lat, v, &best))
				keep = 0;
			if (v == best)
				cand[keep++] = cand[k];
		}
		ncand = keep;
		if (best)
			*figure(x, f) = best;
	}
	free(cand);
}

/* Is node both an initiator and a target of some memory-level structure? */
static bool cpu_and_memory(const struct ph_acpi_hmat *t, uint32_t node)
{
	bool init = false, targ = false;

	for (int s = 0; s < t->nlb; s++) {
		if (t->lb[s].hierarchy)
			continue;
		for (uint32_t i = 0; i < t->lb[s].ni; i++)
			init |= t->lb[s].init[i] == node;
		for (uint32_t i = 0; i < t->lb[s].nt; i++)
			targ |= t->lb[s].targ[i] == node;
	}
	return init && targ;
}

/* mt_set_default_dram_perf(): |x - ref| * 10 > ref, in whole numbers as the kernel. */
static bool off_10pct(uint32_t x, uint32_t ref)
{
	uint64_t d = x > ref ? x - ref : ref - x;

	return d * 10 > ref;
}

static void tiering(const struct ph_acpi_hmat *t, const struct ph_nmatrix *lat,
		    const struct ph_nmatrix *bw, struct ph_hmat_view *v)
{
	uint32_t nodes[1024];
	int n = 0;

	v->tier_trip = -1;
	/* Ascending node order: the kernel walks default_dram_nodes so, the first is the reference. */
	for (uint32_t node = 0; node < 1024; node++)
		if (cpu_and_memory(t, node))
			nodes[n++] = node;
	v->tier = xcalloc(n ? n : 1, sizeof(*v->tier));
	for (int k = 0; k < n; k++) {
		struct ph_hmat_tier *x = &v->tier[v->ntier++], *ref = &v->tier[0];

		x->node = nodes[k];
		hmat_best_figures(t, x->node, x);
		x->m_lat = measured(lat, x->node, x->node);
		x->m_bw = measured(bw, x->node, x->node);
		x->m_lat_pct = 100 * (x->m_lat - ref->m_lat) / ref->m_lat;
		x->m_bw_pct = 100 * (x->m_bw - ref->m_bw) / ref->m_bw;
		/* mt_set_default_dram_perf() refuses a node without both (-EINVAL). */
		if (!x->read_lat && !x->write_lat)
			x->differs = "no latency";
		else if (!x->read_bw && !x->write_bw)
			x->differs = "no bandwidth";
		if (x->differs || k == 0) {
			if (x->differs && v->tier_trip < 0)
				v->tier_trip = k;
			continue;
		}
		x->differs = off_10pct(x->read_lat, ref->read_lat) ? "read_latency"
			     : off_10pct(x->write_lat, ref->write_lat) ? "write_latency"
			     : off_10pct(x->read_bw, ref->read_bw) ? "read_bandwidth"
			     : off_10pct(x->write_bw, ref->write_bw) ? "write_bandwidth" : NULL;
		if (x->differs && v->tier_trip < 0)
			v->tier_trip = k;
		if (fabs(x->m_lat_pct) > 10 || fabs(x->m_bw_pct) > 10)
			v->measured_trips = true;
	}
}

void hmat_table_view(const struct ph_acpi_hmat *t, const struct ph_slit *slit,
		     const struct ph_nmatrix *lat, const struct ph_nmatrix *bw,
		     double noise, double tolerance, struct ph_hmat_view *v)
{
	memset(v, 0, sizeof(*v));
	for (int s = 0; s < t->nlb; s++) {
		const struct ph_hmat_lb *l = &t->lb[s];
		/* Measured: latency, and read bandwidth (also for access); no write figure. */
		const struct ph_nmatrix *m = l->data_type == PH_HMAT_WRITE_BANDWIDTH ||
					     l->data_type == PH_HMAT_WRITE_LATENCY ? NULL
					     : acpi_hmat_is_latency(l->data_type) ? lat : bw;

		if (l->hierarchy)
			continue;	/* a memory-side cache level: nothing measured compares */
		order_lb(l, t->h.revision, slit, m, noise, v);
		ratio_lb(l, t->h.revision, slit, m, tolerance, v);
	}
	tiering(t, lat, bw, v);
}

void hmat_view_free(struct ph_hmat_view *v)
{
	free(v->order);
	free(v->ratio);
	free(v->tier);
	memset(v, 0, sizeof(*v));
}
