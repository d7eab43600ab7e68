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

uint64_t hmat_base_unit(const double *v, int n)
{
	double max = 0;
	uint64_t base = 1;

	for (int k = 0; k < n; k++)
		if (!isnan(v[k]) && v[k] > max)
			max = v[k];
	while (llround(max / (double)base) > ENTRY_MAX)
		base *= 10;
	return base;
}

uint16_t hmat_entry(double v, uint64_t base)
{
	long long e;

	if (isnan(v) || v <= 0)
		return PH_HMAT_ENTRY_NONE;
	e = llround(v / (double)base);
	return (uint16_t)(e < 1 ? 1 : e > ENTRY_MAX ? ENTRY_MAX : e);
}

/* One structure from m, each value times scale (ns -> ps, GB/s -> MB/s). */
static int add_lb(struct ph_acpi_hmat *out, const struct ph_nmatrix *m, int data_type,
		  double scale)
{
	struct ph_hmat_lb *l;
	size_t n = (size_t)m->nrows * m->ncols;
	double *v = xcalloc(n ? n : 1, sizeof(double));
	int unknown = 0;

	for (size_t k = 0; k < n; k++)
		v[k] = m->val[k] * scale;
	l = xappend(&out->lb, &out->nlb, sizeof(*out->lb));
	l->data_type = data_type;
	l->ni = (uint32_t)m->nrows;
	l->nt = (uint32_t)m->ncols;
	l->base_unit = hmat_base_unit(v, (int)n);
	l->init = xcalloc(l->ni ? l->ni : 1, sizeof(uint32_t));
	l->targ = xcalloc(l->nt ? l->nt : 1, sizeof(uint32_t));
	l->entry = xcalloc(n ? n : 1, sizeof(uint16_t));
	for (int i = 0; i < m->nrows; i++)
		l->init[i] = (uint32_t)m->row_ids[i];
	for (int t = 0; t < m->ncols; t++)
		l->targ[t] = (uint32_t)m->col_ids[t];
	for (size_t k = 0; k < n; k++) {
		l->entry[k] = hmat_entry(v[k], l->base_unit);
		unknown += l->entry[k] == PH_HMAT_ENTRY_NONE;
	}
	free(v);
	return unknown;
}

static bool has_id(const int *ids, int n, int id)
{
	for (int k = 0; k < n; k++)
		if (ids[k] == id)
			return true;
	return false;
}

/* A domain for each memory node measured, in ascending order, unless fw has it. */
static void add_domains(struct ph_acpi_hmat *out, const struct ph_nmatrix *m)
{
	for (int t = 0; t < m->ncols; t++) {
		uint32_t pd = (uint32_t)m->col_ids[t];
		struct ph_hmat_mpda *d;
		bool seen = false;

		for (int k = 0; k < out->nmpda; k++)
			seen |= out->mpda[k].memory_pd == pd;
		if (seen)
			continue;
		d = xappend(&out->mpda, &out->nmpda, sizeof(*out->mpda));
		d->memory_pd = pd;
		d->initiator_valid = has_id(m->row_ids, m->nrows, m->col_ids[t]);
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
		for (int k = 0; k < out->ncache; k++)
			out->cache[k].nhandles = 0;
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
