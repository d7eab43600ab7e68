// SPDX-License-Identifier: GPL-2.0-only
/*
 * slit_propose.c - the per-hop model of the measured matrix, the SLIT it proposes
 * (docs/slit.md), and what Linux makes of a SLIT.
 */
#include "distance_impl.h"
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- per-hop model ---- */

/*
 * The hop count h and the extra over local x of cell (r, c), whose row has
 * its own memory at column ref: false when the cell is not fitted (the
 * reference itself, no level); -1 in *h when it lies below its row's
 * local level.  Latency in ns; bandwidth and distance in distance units.
 */
static bool hop_cell(const struct ph_nmatrix *m, const struct ph_dmatrix *d,
		     const struct ph_levels *lv, int r, int c, int ref, int *h, double *x)
{
	int nc = m->ncols;
	size_t k = (size_t)r * nc + c;

	if (c == ref || lv->cell[k] < 0)
		return false;
	*h = lv->cell[k] - lv->cell[r * nc + ref];
	if (*h < 0) {
		*h = -1;
		return true;
	}
	*x = m->metric == PH_METRIC_LATENCY ? m->val[k] - m->val[r * nc + ref]
					    : d->d[k] - d->ref_dist[r];
	return true;
}

void hop_model(const struct ph_nmatrix *m, const struct ph_dmatrix *d,
	       const struct ph_levels *lv, struct ph_hop_model *out)
{
	int nc = m->ncols, maxh = lv->n;
	struct ph_hop_class *cls = xcalloc(maxh ? maxh : 1, sizeof(*cls));
	double shx = 0, shh = 0, ss = 0;
	bool bw = m->metric == PH_METRIC_BANDWIDTH;

	memset(out, 0, sizeof(*out));
	for (int h = 0; h < maxh; h++) {
		cls[h].hops = h;
		cls[h].extra_min = INFINITY;
		cls[h].extra_max = -INFINITY;
		cls[h].ratio_mean = bw ? 0 : NAN;
		cls[h].drop_mean = bw ? 0 : NAN;
	}
	for (int r = 0; r < m->nrows; r++) {
		int ref = d->ref[r];

		if (ref < 0)
			continue;
		if (d->ref_how[r] != PH_LOCAL_OWN) {
			out->nskipped_rows++;
			continue;
		}
		for (int c = 0; c < nc; c++) {
			double v = m->val[r * nc + c], vref = m->val[r * nc + ref], x;
			struct ph_hop_class *hc;
			int h;

			if (!hop_cell(m, d, lv, r, c, ref, &h, &x))
				continue;
			if (h < 0) {
				out->nnegative++;
				continue;
			}
			hc = &cls[h];
			hc->n++;
			hc->extra_mean += x;
			hc->extra_min = fmin(hc->extra_min, x);
			hc->extra_max = fmax(hc->extra_max, x);
			if (bw) {
				hc->ratio_mean += v / vref;
				hc->drop_mean += vref - v;
			}
			shx += h * x;
			shh += (double)h * h;
			out->n++;
		}
	}
	out->cost = shh > 0 ? shx / shh : NAN;
	/* The residuals: the same cells again, in the same order (no N^2 copy kept). */
	for (int r = 0; r < m->nrows && isfinite(out->cost); r++) {
		int ref = d->ref[r];

		if (ref < 0 || d->ref_how[r] != PH_LOCAL_OWN)
			continue;
		for (int c = 0; c < nc; c++) {
			double x, res;
			int h;

			if (!hop_cell(m, d, lv, r, c, ref, &h, &x) || h < 0 || !isfinite(x))
				continue;
			res = x - h * out->cost;
			ss += res * res;
		}
	}
	out->rms = isfinite(out->cost) && out->n ? sqrt(ss / out->n) : NAN;
	out->cls = xcalloc(maxh ? maxh : 1, sizeof(*out->cls));
	for (int h = 0; h < maxh; h++) {
		if (!cls[h].n)
			continue;
		cls[h].extra_mean /= cls[h].n;
		if (bw) {
			cls[h].ratio_mean /= cls[h].n;
			cls[h].drop_mean /= cls[h].n;
		}
		out->cls[out->nclasses++] = cls[h];
	}
	free(cls);
}

void hop_model_free(struct ph_hop_model *h)
{
	free(h->cls);
	memset(h, 0, sizeof(*h));
}

/* ---- proposed SLIT ---- */

const char *prop_src_name(enum ph_prop_src s)
{
	switch (s) {
	case PH_PROP_NONE:
		return "unknown";
	case PH_PROP_LOCAL:
		return "local";
	case PH_PROP_MEASURED:
		return "measured";
	case PH_PROP_REFERENCE:
		return "reference";
	case PH_PROP_TRANSPOSED:
		return "transposed";
	case PH_PROP_SLIT:
		return "slit";
	case PH_PROP_SYMMETRISED:
		return "symmetrised";
	}
	return "unknown";
}

int slit_round(double d, bool *clamped)
{
	long v;

	*clamped = false;
	if (!(d < PH_SLIT_MAX_REMOTE + 0.5)) {	/* also +inf */
		*clamped = true;
		return PH_SLIT_MAX_REMOTE;
	}
	v = lround(d);
	if (v < PH_SLIT_MIN_REMOTE) {
		*clamped = true;
		return PH_SLIT_MIN_REMOTE;
	}
	return (int)v;
}

/* The entries not simply from their own cell, or clamped: out->except. */
static void proposal_exceptions(struct ph_proposal *out)
{
	int n = out->n;

	free(out->except);
	out->nexcept = 0;
	out->except = xmalloc((n ? (size_t)n * n : 1) * sizeof(int));
	for (int k = 0; k < n * n; k++)
		if (out->clamped[k] || (out->src[k] != PH_PROP_MEASURED && out->src[k] != PH_PROP_LOCAL))
			out->except[out->nexcept++] = k;
	out->except = xrealloc(out->except, (out->nexcept ? out->nexcept : 1) * sizeof(int));
}

void slit_propose(const struct ph_dmatrix *d, const struct ph_slit *s,
		  struct ph_proposal *out)
{
	int *ids = xcalloc(d->nrows + d->ncols + 1, sizeof(int)), n = 0, m = 0;
	int *row_at, *col_at;
	struct slit_map sm;

	memset(out, 0, sizeof(*out));
	/* Every node of the rows and columns, once, ascending. */
	memcpy(ids, d->row_ids, d->nrows * sizeof(int));
	memcpy(ids + d->nrows, d->col_ids, d->ncols * sizeof(int));
	m = d->nrows + d->ncols;
	qsort(ids, m, sizeof(int), int_cmp);
	for (int i = 0; i < m; i++)
		if (!n || ids[i] != ids[n - 1])
			ids[n++] = ids[i];
	row_at = node_index(d->row_ids, d->nrows, ids, n);
	col_at = node_index(d->col_ids, d->ncols, ids, n);
	slit_map_init(&sm, s, ids, n, ids, n);
	out->mode = PH_PROPOSE_CELLS;
	out->n = n;
	out->ids = ids;
	out->dist = xcalloc((size_t)(n ? n : 1) * (n ? n : 1), sizeof(int));
	out->src = xcalloc((size_t)(n ? n : 1) * (n ? n : 1), sizeof(*out->src));
	out->clamped = xcalloc((size_t)(n ? n : 1) * (n ? n : 1), sizeof(bool));
	for (int i = 0; i < n; i++) {
		for (int j = 0; j < n; j++) {
			int k = i * n + j;
			int r = row_at[i], c = col_at[j], rt = row_at[j], ct = col_at[i];
			int sv = slit_rc(&sm, i, j);

			if (i == j) {
				out->dist[k] = PH_LOCAL_DISTANCE;
				out->src[k] = PH_PROP_LOCAL;
			} else if (r >= 0 && c >= 0 && isfinite(d->d[r * d->ncols + c])) {
				out->dist[k] = slit_round(d->d[r * d->ncols + c], &out->clamped[k]);
				out->src[k] = c == d->ref[r] && d->ref_how[r] != PH_LOCAL_OWN
					      ? PH_PROP_REFERENCE : PH_PROP_MEASURED;
			} else if (rt >= 0 && ct >= 0 && isfinite(d->d[rt * d->ncols + ct])) {
				out->dist[k] = slit_round(d->d[rt * d->ncols + ct], &out->clamped[k]);
				out->src[k] = PH_PROP_TRANSPOSED;
			} else if (sv >= 0) {
				out->dist[k] = slit_round(sv, &out->clamped[k]);
				out->src[k] = PH_PROP_SLIT;
			} else {
				out->dist[k] = -1;
				out->src[k] = PH_PROP_NONE;
				out->nunknown++;
			}
			if (out->clamped[k])
				out->nclamped++;
		}
	}
	proposal_exceptions(out);
	slit_map_free(&sm);
	free(row_at);
	free(col_at);
}

void proposal_free(struct ph_proposal *p)
{
	free(p->ids);
	free(p->dist);
	free(p->src);
	free(p->clamped);
	free(p->except);
	free(p->level_dist);
	free(p->level_value);
	free(p->level_pooled);
	memset(p, 0, sizeof(*p));
}

/* The asymmetry record of nodes a < b, or NULL. */
static const struct ph_asymmetry *asym_find(const struct ph_asymmetry *x, int n, int a, int b)
{
	int lo = 0, hi = n;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (x[mid].a < a || (x[mid].a == a && x[mid].b < b))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && x[lo].a == a && x[lo].b == b ? &x[lo] : NULL;
}

void slit_propose_levels(const struct ph_nmatrix *m, const struct ph_dmatrix *d,
			 const struct ph_levels *lv, const struct ph_asymmetry *asym,
			 int nasym, const struct ph_slit *s, struct ph_proposal *out)
{
	int nl = lv->n, nc = d->ncols, n;
	double *num = xcalloc(nl ? nl : 1, sizeof(double)), *den = xcalloc(nl ? nl : 1, sizeof(double));
	int *row_at, *col_at;
	bool lat = latency_like(m->metric);

	slit_propose(d, s, out);
	out->mode = PH_PROPOSE_LEVELS;
	n = out->n;
	out->nlevels = nl;
	out->level_dist = nmatrix_nans(nl);
	out->level_value = xcalloc(nl ? nl : 1, sizeof(int));
	out->level_pooled = xcalloc(nl ? nl : 1, sizeof(int));
	/*
	 * Pool each level's remote cells: the sum of their figures against
	 * the sum of their rows' references, so that a pair measured alike
	 * both ways gets one value although its two rows' locals differ.
	 * A CPU-only row's reference cell is an assumption, not a figure:
	 * left out.  ref_dist scales a CPU-only row as it scales its cells.
	 */
	for (int r = 0; r < d->nrows; r++) {
		int ref = d->ref[r];

		if (ref < 0)
			continue;
		for (int c = 0; c < nc; c++) {
			size_t k = (size_t)r * nc + c;
			double v = m->val[k], vref = m->val[(size_t)r * nc + ref];
			int l = lv->cell[k];

			if (l < 0 || d->row_ids[r] == d->col_ids[c] || c == ref || !isfinite(d->d[k]))
				continue;
			num[l] += lat ? d->ref_dist[r] * v : d->ref_dist[r] * vref;
			den[l] += lat ? vref : v;
			out->level_pooled[l]++;
		}
	}
	for (int l = 0; l < nl; l++) {
		bool clamped;

		if (out->level_pooled[l] && den[l] > 0)
			out->level_dist[l] = num[l] / den[l];
		else if (!lv->lv[l].has_local)
			out->level_dist[l] = lv->lv[l].mean;	/* reference cells only */
		out->level_value[l] = isfinite(out->level_dist[l])
				      ? slit_round(out->level_dist[l], &clamped) : PH_LOCAL_DISTANCE;
	}
	row_at = node_index(d->row_ids, d->nrows, out->ids, n);
	col_at = node_index(d->col_ids, nc, out->ids, n);
	for (int i = 0; i < n; i++) {
		for (int j = 0; j < n; j++) {
			int k = i * n + j, r, c, l;
			double dist;

			if (out->src[k] == PH_PROP_MEASURED || out->src[k] == PH_PROP_REFERENCE) {
				r = row_at[i];
				c = col_at[j];
			} else if (out->src[k] == PH_PROP_TRANSPOSED) {
				r = row_at[j];
				c = col_at[i];
			} else {
				continue;
			}
			l = lv->cell[(size_t)r * nc + c];
			if (l < 0)
				continue;
			dist = out->level_dist[l];
			if (!isfinite(dist))
				continue;	/* a level of local cells only holds no remote entry */
			if (out->clamped[k])
				out->nclamped--;
			out->dist[k] = slit_round(dist, &out->clamped[k]);
			if (out->clamped[k])
				out->nclamped++;
		}
	}
	/* Symmetric unless the measurement says otherwise beyond the CIs. */
	for (int i = 0; i < n; i++) {
		for (int j = i + 1; j < n; j++) {
			int kij = i * n + j, kji = j * n + i, lo, hi;
			const struct ph_asymmetry *x;

			if (out->dist[kij] < 0 || out->dist[kji] < 0 || out->dist[kij] == out->dist[kji] ||
			    out->src[kij] == PH_PROP_SLIT || out->src[kji] == PH_PROP_SLIT)
				continue;
			x = asym_find(asym, nasym, out->ids[i], out->ids[j]);
			if (x && x->beyond)
				continue;
			lo = out->dist[kij] < out->dist[kji] ? kij : kji;
			hi = lo == kij ? kji : kij;
			if (out->clamped[hi])
				out->nclamped--;
			out->dist[hi] = out->dist[lo];
			out->clamped[hi] = out->clamped[lo];
			if (out->clamped[hi])
				out->nclamped++;
			out->src[hi] = PH_PROP_SYMMETRISED;
			out->nsymmetrised++;
		}
	}
	proposal_exceptions(out);
	free(row_at);
	free(col_at);
	free(num);
	free(den);
}

bool slit_valid_for_linux(int n, const int *dist)
{
	for (int i = 0; i < n; i++) {
		for (int j = 0; j < n; j++) {
			int v = dist[i * n + j];

			if (i == j ? v != PH_LOCAL_DISTANCE
				   : v < PH_SLIT_MIN_REMOTE || v > PH_SLIT_MAX_REMOTE)
				return false;
		}
	}
	return true;
}

bool slit_linux_check(int n, const int *dist, struct ph_slit_check *c)
{
	memset(c, 0, sizeof(*c));
	c->nentries = n * n;
	c->uniform = n > 0;
	for (int i = 0; i < n; i++) {
		for (int j = 0; j < n; j++) {
			int v = dist[i * n + j];
			enum ph_slit_rule r = PH_SLIT_RULE_OK;

			/* slit_valid(): val is a u8, LOCAL_DISTANCE is 10. */
			if (i == j ? v != PH_LOCAL_DISTANCE : v <= PH_LOCAL_DISTANCE)
				r = i == j ? PH_SLIT_RULE_LOCAL : PH_SLIT_RULE_REMOTE;
			if (v != dist[0])
				c->uniform = false;
			if (r == PH_SLIT_RULE_OK)
				continue;
			if (!c->nbad++) {
				c->rule = r;
				c->row = i;
				c->col = j;
				c->value = v;
			}
		}
	}
	if (c->uniform && !c->nbad)
		c->uniform = false;	/* said only of a rejected table */
	return c->nbad == 0;
}

const char *slit_rule_text(enum ph_slit_rule r)
{
	switch (r) {
	case PH_SLIT_RULE_LOCAL:
		return "an entry on the diagonal must be 10 (LOCAL_DISTANCE)";
	case PH_SLIT_RULE_REMOTE:
		return "an entry off the diagonal must be above 10 (LOCAL_DISTANCE)";
	case PH_SLIT_RULE_OK:
		break;
	}
	return "";
}

const char *slit_rule_name(enum ph_slit_rule r)
{
	switch (r) {
	case PH_SLIT_RULE_LOCAL:
		return "local_not_10";
	case PH_SLIT_RULE_REMOTE:
		return "remote_not_above_10";
	case PH_SLIT_RULE_OK:
		break;
	}
	return "ok";
}

struct ph_slit *slit_linux_default(const struct ph_slit *s)
{
	struct ph_slit *d = slit_new(s->n, s->ids);

	for (int i = 0; i < s->n; i++)
		for (int j = 0; j < s->n; j++)
			d->dist[i * s->n + j] = i == j ? PH_LOCAL_DISTANCE : PH_REMOTE_DISTANCE;
	return d;
}
