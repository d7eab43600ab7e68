// SPDX-License-Identifier: GPL-2.0-only
/*
 * hmat_propose.c - the measured matrices as HMAT entries.
 *
 * Why access latency and access bandwidth (data types 0 and 3): the
 * kernel reads an access figure as both the read and the write one
 * (hmat_update_target_access()), so sysfs (access0, access1) and memory
 * tiering (mt_perf_to_adistance() sums read and write) get all four
 * figures from the two pagehop measures.  The chase is a load latency and
 * the stream a read bandwidth: what ACPI calls "access" when a platform
 * does not tell reads from writes.
 */
#include "hmat_propose.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ENTRY_MAX 0xfffe

static bool known(double v)
{
	return isfinite(v) && v > 0;
}

bool hmat_entry_ok(double v, uint16_t e, uint64_t base)
{
	double w = (double)e * (double)base;

	if (!known(v) || e == PH_HMAT_ENTRY_NONE || e == PH_HMAT_ENTRY_UNREACHABLE ||
	    w > (double)UINT32_MAX)
		return false;
	return fabs(w - v) <= fmax(PH_HMAT_ROUND_REL * v, PH_HMAT_ROUND_ABS);
}

/* Does every known figure of v make an entry under base within the bound? */
static bool base_holds(const double *v, int n, uint64_t base)
{
	for (int k = 0; k < n; k++)
		if (known(v[k]) && !hmat_entry_ok(v[k], hmat_entry(v[k], base), base))
			return false;
	return true;
}

uint64_t hmat_base_unit(const double *v, int n)
{
	double max = 0;
	uint64_t base = 1;

	for (int k = 0; k < n; k++)
		if (known(v[k]) && v[k] > max)
			max = v[k];
	if (max == 0)
		return 1;
	/* Beyond it no entry x base is a figure the kernel keeps; below it the loop ends by 10^5. */
	if (max > (double)UINT32_MAX)
		return 0;
	while (llround(max / (double)base) > ENTRY_MAX)
		base *= 10;
	if (base_holds(v, n, base))
		return base;
	/* The smallest base that holds the largest figure rounds the small ones least. */
	base = (uint64_t)floor(max / (ENTRY_MAX + 0.5)) + 1;
	return base_holds(v, n, base) ? base : 0;
}

uint16_t hmat_entry(double v, uint64_t base)
{
	long long e;

	if (!known(v) || !base)
		return PH_HMAT_ENTRY_NONE;
	if (v / (double)base > ENTRY_MAX)
		return ENTRY_MAX;
	e = llround(v / (double)base);
	return (uint16_t)(e < 1 ? 1 : e > ENTRY_MAX ? ENTRY_MAX : e);
}

/* Does row r (col false) or column r (col true) of m hold a measured figure? */
static bool any_known(const struct ph_nmatrix *m, int r, bool col)
{
	for (int k = 0; k < (col ? m->nrows : m->ncols); k++)
		if (known(col ? m->val[k * m->ncols + r] : m->val[r * m->ncols + k]))
			return true;
	return false;
}

/*
 * One structure from m, each value times scale (ns -> ps, GB/s -> MB/s):
 * the rows and columns with a measured figure.  A base unit of 0 (no base
 * holds every figure within the bound) is written as the smallest power
 * of ten that holds the largest: the caller refuses to emit it.
 */
static int add_lb(struct ph_acpi_hmat *out, const struct ph_nmatrix *m, int data_type,
		  double scale)
{
	struct ph_hmat_lb *l;
	int *rows = xcalloc((size_t)m->nrows + 1, sizeof(int)), *cols = xcalloc((size_t)m->ncols + 1, sizeof(int));
	int nr = 0, nc = 0, unknown = 0;
	double *v, max = 0;
	size_t n;

	for (int i = 0; i < m->nrows; i++)
		if (any_known(m, i, false))
			rows[nr++] = i;
	for (int t = 0; t < m->ncols; t++)
		if (any_known(m, t, true))
			cols[nc++] = t;
	n = (size_t)nr * nc;
	v = xcalloc(n ? n : 1, sizeof(double));
	for (int i = 0; i < nr; i++)
		for (int t = 0; t < nc; t++)
			v[i * nc + t] = m->val[rows[i] * m->ncols + cols[t]] * scale;
	l = xappend(&out->lb, &out->nlb, sizeof(*out->lb));
	l->data_type = data_type;
	l->ni = (uint32_t)nr;
	l->nt = (uint32_t)nc;
	l->base_unit = hmat_base_unit(v, (int)n);
	if (!l->base_unit) {
		for (size_t k = 0; k < n; k++)
			if (known(v[k]) && v[k] > max)
				max = v[k];
		for (l->base_unit = 1; l->base_unit < 100000 && llround(max / (double)l->base_unit) > ENTRY_MAX;)
			l->base_unit *= 10;
	}
	l->init = xcalloc(l->ni ? l->ni : 1, sizeof(uint32_t));
	l->targ = xcalloc(l->nt ? l->nt : 1, sizeof(uint32_t));
	l->entry = xcalloc(n ? n : 1, sizeof(uint16_t));
	for (int i = 0; i < nr; i++)
		l->init[i] = (uint32_t)m->row_ids[rows[i]];
	for (int t = 0; t < nc; t++)
		l->targ[t] = (uint32_t)m->col_ids[cols[t]];
	for (size_t k = 0; k < n; k++) {
		l->entry[k] = hmat_entry(v[k], l->base_unit);
		unknown += l->entry[k] == PH_HMAT_ENTRY_NONE;
	}
	free(v);
	free(rows);
	free(cols);
	return unknown;
}

/* A domain for each memory node measured, in ascending order, unless fw has it. */
static void add_domains(struct ph_acpi_hmat *out, const struct ph_nmatrix *m)
{
	for (int t = 0; t < m->ncols; t++) {
		uint32_t pd = (uint32_t)m->col_ids[t];
		struct ph_hmat_mpda *d;
		bool seen = !any_known(m, t, true);

		for (int k = 0; k < out->nmpda; k++)
			seen |= out->mpda[k].memory_pd == pd;
		if (seen)
			continue;
		d = xappend(&out->mpda, &out->nmpda, sizeof(*out->mpda));
		d->memory_pd = pd;
		d->initiator_valid = false;
		for (int i = 0; i < m->nrows; i++)
			d->initiator_valid |= m->row_ids[i] == m->col_ids[t] && any_known(m, i, false);
		d->flags = d->initiator_valid;
		d->initiator_pd = d->initiator_valid ? pd : 0;
	}
}

int hmat_propose(const struct ph_nmatrix *lat, const struct ph_nmatrix *bw,
		 const struct ph_acpi_hmat *fw, struct ph_acpi_hmat *out)
{
	int unknown = 0;

	memset(out, 0, sizeof(*out));
	memcpy(out->h.signature, "HMAT", 4);
	out->h.revision = 2;
	if (fw && fw->nmpda) {
		out->nmpda = fw->nmpda;
		out->mpda = xcalloc((size_t)fw->nmpda, sizeof(*out->mpda));
		memcpy(out->mpda, fw->mpda, (size_t)fw->nmpda * sizeof(*out->mpda));
	}
	if (fw && fw->ncache) {
		out->ncache = fw->ncache;
		out->cache = xcalloc((size_t)fw->ncache, sizeof(*out->cache));
		memcpy(out->cache, fw->cache, (size_t)fw->ncache * sizeof(*out->cache));
		for (int k = 0; k < out->ncache; k++) {
			out->cache[k].nhandles = 0;
			out->cache[k].handles = NULL;
		}
	}
	if (lat) {
		add_domains(out, lat);
		unknown += add_lb(out, lat, PH_HMAT_ACCESS_LATENCY, 1000);
	}
	if (bw) {
		add_domains(out, bw);
		unknown += add_lb(out, bw, PH_HMAT_ACCESS_BANDWIDTH, 1000);
	}
	return unknown;
}

double hmat_measured(const struct ph_nmatrix *m, uint32_t init, uint32_t targ)
{
	int r = init <= INT32_MAX ? nmatrix_row(m, (int)init) : -1;
	int c = targ <= INT32_MAX ? nmatrix_col(m, (int)targ) : -1;

	return r < 0 || c < 0 ? NAN : m->val[r * m->ncols + c] * 1000;
}

int hmat_propose_off(const struct ph_acpi_hmat *prop, const struct ph_nmatrix *lat,
		     const struct ph_nmatrix *bw)
{
	int off = 0;

	for (int k = 0; k < prop->nlb; k++) {
		const struct ph_hmat_lb *l = &prop->lb[k];
		const struct ph_nmatrix *m = acpi_hmat_is_latency(l->data_type) ? lat : bw;

		for (uint32_t i = 0; i < l->ni; i++)
			for (uint32_t c = 0; c < l->nt; c++) {
				double v = hmat_measured(m, l->init[i], l->targ[c]);

				off += known(v) && !hmat_entry_ok(v, l->entry[i * l->nt + c], l->base_unit);
			}
	}
	return off;
}
