// SPDX-License-Identifier: GPL-2.0-only
/*
 * hmat_carry.c - the firmware's HMAT with the proposal's entries in
 * place, the rules in hmat_carry.h.
 */
#include "hmat_carry.h"
#include "hmat_propose.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Does structure l take figures of the latency (lat) or the bandwidth kind? */
static bool takes(const struct ph_hmat_lb *l, bool lat)
{
	if (l->hierarchy)
		return false;
	return lat ? l->data_type == PH_HMAT_ACCESS_LATENCY || l->data_type == PH_HMAT_READ_LATENCY
		   : l->data_type == PH_HMAT_ACCESS_BANDWIDTH || l->data_type == PH_HMAT_READ_BANDWIDTH;
}

static int index_of(const uint32_t *v, uint32_t n, uint32_t id)
{
	for (uint32_t k = 0; k < n; k++)
		if (v[k] == id)
			return (int)k;
	return -1;
}

static double figure(const struct ph_nmatrix *m, int r, int c)
{
	double v = m->val[r * m->ncols + c];

	return isfinite(v) && v > 0 ? v * 1000 : NAN;	/* ns to ps, GB/s to MB/s */
}

/*
 * The figures of m into the firmware's structures of its kind in c->t:
 * 1 when no structure lists any of m's targets (the kind is to be added),
 * 0 when every figure found its entries, -EINVAL with why.
 */
static int replace_kind(struct ph_hmat_carried *c, const struct ph_nmatrix *m, bool lat,
			char *why, size_t whylen)
{
	const char *kind = lat ? "latency" : "bandwidth";
	int placed = 0, unlisted = 0;

	for (int r = 0; r < m->nrows; r++)
		for (int col = 0; col < m->ncols; col++) {
			const uint32_t i = (uint32_t)m->row_ids[r], t = (uint32_t)m->col_ids[col];
			const double v = figure(m, r, col);
			bool listed = false, here = false;

			if (!isfinite(v))
				continue;
			for (int k = 0; k < c->nfirmware_lb; k++) {
				struct ph_hmat_lb *l = &c->t.lb[k];
				int ti = takes(l, lat) ? index_of(l->targ, l->nt, t) : -1;
				int ii = ti >= 0 ? index_of(l->init, l->ni, i) : -1;
				uint16_t e;

				listed |= ti >= 0;
				if (ii < 0)
					continue;
				e = hmat_entry(v, l->base_unit);
				if (!l->base_unit || !hmat_entry_ok(v, e, l->base_unit)) {
					snprintf(why, whylen, "%s from node %u to domain %u, %g %s: the firmware's %s structure holds it under base unit %llu %s, and no entry there is within %g%% or half a unit of it (the structure's other entries keep that unit)",
						 kind, i, t, v / 1000, lat ? "ns" : "GB/s",
						 acpi_hmat_data_name(l->data_type),
						 (unsigned long long)l->base_unit, lat ? "ps" : "MB/s",
						 PH_HMAT_ROUND_REL * 100);
					return -EINVAL;
				}
				l->entry[ii * l->nt + ti] = e;
				c->origin[k][ii * l->nt + ti] = PH_HMAT_REPLACED;
				c->nreplaced++;
				here = true;
			}
			if (here) {
				placed++;
			} else if (listed) {
				snprintf(why, whylen, "the firmware's %s structure lists domain %u but not initiator %u: the figure from it has no entry to go in without changing the structure",
					 kind, t, i);
				return -EINVAL;
			} else {
				unlisted++;
			}
		}
	if (placed && unlisted) {
		snprintf(why, whylen, "the firmware's %s structures list some of the generic ports' domains and not others: a complete table would need them reshaped",
			 kind);
		return -EINVAL;
	}
	return unlisted ? 1 : 0;
}

/* Append prop's structure of this kind; -EINVAL with why when a cell in it was not measured or cannot be held. */
static int add_kind(struct ph_hmat_carried *c, const struct ph_acpi_hmat *prop,
		    const struct ph_nmatrix *m, bool lat, char *why, size_t whylen)
{
	for (int k = 0; k < prop->nlb; k++) {
		const struct ph_hmat_lb *p = &prop->lb[k];
		struct ph_hmat_lb *l;
		size_t n = (size_t)p->ni * p->nt;

		if (!takes(p, lat))
			continue;
		for (uint32_t i = 0; i < p->ni; i++)
			for (uint32_t t = 0; t < p->nt; t++) {
				double v = hmat_measured(m, p->init[i], p->targ[t]);
				uint16_t e = p->entry[i * p->nt + t];

				if (!(isfinite(v) && v > 0) || !hmat_entry_ok(v, e, p->base_unit)) {
					snprintf(why, whylen, "%s from node %u to domain %u %s; the firmware has no %s structure for it, and a structure added needs every entry",
						 lat ? "latency" : "bandwidth", p->init[i], p->targ[t],
						 isfinite(v) && v > 0 ? "has no entry within the bound" : "was not measured",
						 lat ? "latency" : "bandwidth");
					return -EINVAL;
				}
			}
		c->t.lb = xrealloc(c->t.lb, (size_t)(c->t.nlb + 1) * sizeof(*c->t.lb));
		c->origin = xrealloc(c->origin, (size_t)(c->t.nlb + 1) * sizeof(*c->origin));
		l = &c->t.lb[c->t.nlb];
		*l = *p;
		l->init = xcalloc(p->ni, sizeof(*l->init));
		l->targ = xcalloc(p->nt, sizeof(*l->targ));
		l->entry = xcalloc(n, sizeof(*l->entry));
		memcpy(l->init, p->init, p->ni * sizeof(*l->init));
		memcpy(l->targ, p->targ, p->nt * sizeof(*l->targ));
		memcpy(l->entry, p->entry, n * sizeof(*l->entry));
		c->origin[c->t.nlb] = xcalloc(n, 1);
		memset(c->origin[c->t.nlb], PH_HMAT_ADDED, n);
		c->nadded += (int)n;
		c->t.nlb++;
	}
	return 0;
}

int hmat_carry(const struct ph_acpi_hmat *fw, const struct ph_nmatrix *lat,
	       const struct ph_nmatrix *bw, struct ph_hmat_carried *out,
	       char *why, size_t whylen)
{
	const struct ph_nmatrix *m[2] = { lat, bw };
	struct ph_acpi_hmat prop;
	int add[2] = { 0, 0 }, err = 0;

	memset(out, 0, sizeof(*out));
	if (fw->nunknown) {
		snprintf(why, whylen, "the firmware's HMAT has %d structure%s of a type pagehop does not read, which it could not write back",
			 fw->nunknown, fw->nunknown == 1 ? "" : "s");
		return -EINVAL;
	}
	acpi_hmat_copy(&out->t, fw);
	out->nfirmware_lb = fw->nlb;
	out->origin = xcalloc((size_t)(fw->nlb ? fw->nlb : 1), sizeof(*out->origin));
	for (int k = 0; k < fw->nlb; k++) {
		size_t n = (size_t)fw->lb[k].ni * fw->lb[k].nt;

		out->origin[k] = xcalloc(n ? n : 1, 1);
		memset(out->origin[k], PH_HMAT_CARRIED, n);
	}
	for (int a = 0; a < 2 && !err; a++)
		if (m[a]) {
			add[a] = replace_kind(out, m[a], a == 0, why, whylen);
			err = add[a] < 0 ? add[a] : 0;
		}
	if (!err && (add[0] > 0 || add[1] > 0)) {
		hmat_propose(add[0] > 0 ? lat : NULL, add[1] > 0 ? bw : NULL, NULL, &prop);
		for (int a = 0; a < 2 && !err; a++)
			if (add[a] > 0)
				err = add_kind(out, &prop, m[a], a == 0, why, whylen);
		acpi_hmat_free(&prop);
	}
	if (err)
		hmat_carried_free(out);
	return err;
}

void hmat_carried_free(struct ph_hmat_carried *c)
{
	for (int k = 0; k < c->t.nlb; k++)
		free(c->origin[k]);
	free(c->origin);
	acpi_hmat_free(&c->t);
	memset(c, 0, sizeof(*c));
}
