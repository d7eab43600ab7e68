// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_distance_ref.c - the analysis of "pagehop slit" against the simple
 * algorithms it replaced.  Those looked every node up by a linear search
 * and compared every pair of columns of every row, N^4 in all, or kept
 * N^2 arrays they did not need (the per-hop fit); the ones in
 * distance.c and slit_words.c sort and index instead.  Here the simple
 * ones, kept verbatim (renamed ref_*), and the new ones run on the same
 * random matrices -- node ids out of order, CPU-only rows, memory-only
 * columns, missing cells, CIs, SLITs that cover more or fewer nodes,
 * repeat values, zero noise -- and must agree exactly.
 */
#include "unit.h"

#include "distance.h"
#include "slit_report.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define EPS 1e-9

static double *nan_array(size_t n)
{
	double *p = xmalloc((n ? n : 1) * sizeof(double));

	for (size_t i = 0; i < n; i++)
		p[i] = NAN;
	return p;
}

static const char *ref_plural(long n)
{
	return n == 1 ? "" : "s";
}

/* ---- the algorithms as they were ---- */

static int ref_find_id(const int *ids, int n, int node)
{
	for (int i = 0; i < n; i++)
		if (ids[i] == node)
			return i;
	return -1;
}

static int ref_nmatrix_col(const struct ph_nmatrix *m, int node)
{
	return ref_find_id(m->col_ids, m->ncols, node);
}

static int ref_slit_at(const struct ph_slit *s, int a, int b)
{
	int i, j;

	if (!s)
		return -1;
	i = ref_find_id(s->ids, s->n, a);
	j = ref_find_id(s->ids, s->n, b);
	return i < 0 || j < 0 ? -1 : s->dist[i * s->n + j];
}

static int ref_int_cmp(const void *pa, const void *pb)
{
	int a = *(const int *)pa, b = *(const int *)pb;

	return (a > b) - (a < b);
}

static bool ref_is_diagonal(const struct ph_dmatrix *d, int k)
{
	return d->row_ids[k / d->ncols] == d->col_ids[k % d->ncols];
}

static void ref_level_stats(const struct ph_dmatrix *d, struct ph_levels *out,
			const double *value)
{
	size_t n = (size_t)d->nrows * d->ncols;

	out->lv = xcalloc(out->n ? out->n : 1, sizeof(*out->lv));
	for (int i = 0; i < out->n; i++) {
		out->lv[i].min = INFINITY;
		out->lv[i].max = -INFINITY;
	}
	for (size_t k = 0; k < n; k++) {
		struct ph_level *l;

		if (out->cell[k] < 0)
			continue;
		l = &out->lv[out->cell[k]];
		l->n++;
		l->mean += value[k];
		l->min = fmin(l->min, value[k]);
		l->max = fmax(l->max, value[k]);
		if (ref_is_diagonal(d, (int)k))
			l->has_local = true;
	}
	out->nremote = 0;
	for (int i = 0; i < out->n; i++) {
		out->lv[i].mean /= out->lv[i].n;
		if (!out->lv[i].has_local)
			out->nremote++;
	}
}

static void ref_levels_slit(const struct ph_dmatrix *d, const struct ph_slit *s,
		 double tolerance, struct ph_levels *out)
{
	size_t n = (size_t)d->nrows * d->ncols;
	int *vals = xcalloc(n ? n : 1, sizeof(int)), nv = 0, nd = 0;
	int *lvl_of = xcalloc(n ? n : 1, sizeof(int));
	double *value = nan_array(n);

	memset(out, 0, sizeof(*out));
	out->cell = xmalloc((n ? n : 1) * sizeof(int));
	for (size_t k = 0; k < n; k++) {
		int sv = ref_slit_at(s, d->row_ids[k / d->ncols], d->col_ids[k % d->ncols]);

		out->cell[k] = -1;
		if (!isfinite(d->d[k]) || sv < 0)
			continue;
		vals[nv++] = sv;
		value[k] = sv;
	}
	qsort(vals, nv, sizeof(int), ref_int_cmp);
	/*
	 * Distinct values, each given its level: a value opens a new level
	 * when it is more than the tolerance above the smallest value of the
	 * current one, so that every two values of a level are within the
	 * tolerance of one another.
	 */
	for (int i = 0, first = 0; i < nv; i++) {
		if (nd && vals[i] == vals[nd - 1])
			continue;
		if (!nd || vals[i] > first * (1 + tolerance) + EPS) {
			out->n++;
			first = vals[i];
		}
		vals[nd] = vals[i];
		lvl_of[nd++] = out->n - 1;
	}
	for (size_t k = 0; k < n; k++) {
		if (!isfinite(value[k]))
			continue;
		for (int i = 0; i < nd; i++)
			if (vals[i] == (int)value[k])
				out->cell[k] = lvl_of[i];
	}
	ref_level_stats(d, out, value);
	free(vals);
	free(lvl_of);
	free(value);
}

static int ref_ordering_violations(const struct ph_dmatrix *d, const struct ph_slit *s,
			struct ph_violation **out)
{
	int n = 0, nc = d->ncols;

	*out = NULL;
	for (int r = 0; r < d->nrows; r++) {
		for (int a = 0; a < nc; a++) {
			int sa = ref_slit_at(s, d->row_ids[r], d->col_ids[a]);

			if (sa < 0 || !isfinite(d->d[r * nc + a]))
				continue;
			for (int b = 0; b < nc; b++) {
				int sb = ref_slit_at(s, d->row_ids[r], d->col_ids[b]);

				if (b == a || sb < 0 || !isfinite(d->d[r * nc + b]))
					continue;
				/* SLIT: a nearer.  Measured: a farther, beyond both intervals. */
				if (sa < sb && d->rlo[r * nc + a] > d->rhi[r * nc + b]) {
					*out = xrealloc(*out, (n + 1) * sizeof(**out));
					(*out)[n++] = (struct ph_violation){ r, a, b, sa, sb };
				}
			}
		}
	}
	return n;
}

static int ref_magnitude_check(const struct ph_dmatrix *d, const struct ph_slit *s,
		    double tolerance, struct ph_magnitude **out, int *nout)
{
	int n = 0, nc = d->ncols;

	*out = NULL;
	*nout = 0;
	for (int r = 0; r < d->nrows; r++) {
		for (int c = 0; c < nc; c++) {
			int sv = ref_slit_at(s, d->row_ids[r], d->col_ids[c]);
			double v = d->d[r * nc + c];
			struct ph_magnitude mg;

			if (d->row_ids[r] == d->col_ids[c] || sv <= 0 || !isfinite(v))
				continue;
			if (c == d->ref[r] && d->ref_how[r] == PH_LOCAL_SLIT_NEAREST)
				continue;	/* equal to the SLIT by construction */
			mg.row = r;
			mg.col = c;
			mg.measured = v;
			mg.slit = sv;
			mg.rel_err = (v - sv) / sv;
			mg.within = fabs(mg.rel_err) <= tolerance + EPS;
			if (!mg.within)
				(*nout)++;
			*out = xrealloc(*out, (n + 1) * sizeof(**out));
			(*out)[n++] = mg;
		}
	}
	return n;
}

static int ref_asym_cmp(const void *pa, const void *pb)
{
	const struct ph_asymmetry *a = pa, *b = pb;

	if (a->a != b->a)
		return (a->a > b->a) - (a->a < b->a);
	return (a->b > b->b) - (a->b < b->b);
}

static int ref_asymmetry_check(const struct ph_nmatrix *m, const struct ph_dmatrix *d,
		    double noise, struct ph_asymmetry **out)
{
	int n = 0, nc = m->ncols;

	*out = NULL;
	for (int ra = 0; ra < m->nrows; ra++) {
		for (int rb = 0; rb < m->nrows; rb++) {
			int a = m->row_ids[ra], b = m->row_ids[rb];
			int ca = ref_nmatrix_col(m, a), cb = ref_nmatrix_col(m, b);
			struct ph_asymmetry x = { .a = a, .b = b };
			int kab = ra * nc + cb, kba = rb * nc + ca;
			/* The intervals were fields of ph_asymmetry, used only here. */
			struct { double ab_lo, ab_hi, ba_lo, ba_hi; } y;

			if (a >= b || ca < 0 || cb < 0)
				continue;
			if (!cell_interval(m, kab, noise, &y.ab_lo, &y.ab_hi) ||
			    !cell_interval(m, kba, noise, &y.ba_lo, &y.ba_hi))
				continue;
			x.ab = m->val[kab];
			x.ba = m->val[kba];
			x.diff = fabs(x.ab - x.ba);
			x.rel = x.diff / fmin(x.ab, x.ba);
			x.beyond = y.ab_hi < y.ba_lo || y.ba_hi < y.ab_lo;
			x.d_ab = d->d[kab];
			x.d_ba = d->d[kba];
			*out = xrealloc(*out, (n + 1) * sizeof(**out));
			(*out)[n++] = x;
		}
	}
	if (n)
		qsort(*out, n, sizeof(**out), ref_asym_cmp);
	return n;
}

static void ref_slit_propose(const struct ph_dmatrix *d, const struct ph_slit *s,
		  struct ph_proposal *out)
{
	int *ids = xcalloc(d->nrows + d->ncols + 1, sizeof(int)), n = 0;

	memset(out, 0, sizeof(*out));
	for (int i = 0; i < d->nrows; i++)
		if (ref_find_id(ids, n, d->row_ids[i]) < 0)
			ids[n++] = d->row_ids[i];
	for (int i = 0; i < d->ncols; i++)
		if (ref_find_id(ids, n, d->col_ids[i]) < 0)
			ids[n++] = d->col_ids[i];
	qsort(ids, n, sizeof(int), ref_int_cmp);
	out->n = n;
	out->ids = ids;
	out->dist = xcalloc((size_t)(n ? n : 1) * (n ? n : 1), sizeof(int));
	out->src = xcalloc((size_t)(n ? n : 1) * (n ? n : 1), sizeof(*out->src));
	out->clamped = xcalloc((size_t)(n ? n : 1) * (n ? n : 1), sizeof(bool));
	for (int i = 0; i < n; i++) {
		for (int j = 0; j < n; j++) {
			int k = i * n + j;
			int r = ref_find_id(d->row_ids, d->nrows, ids[i]);
			int c = ref_find_id(d->col_ids, d->ncols, ids[j]);
			int rt = ref_find_id(d->row_ids, d->nrows, ids[j]);
			int ct = ref_find_id(d->col_ids, d->ncols, ids[i]);
			int sv = ref_slit_at(s, ids[i], ids[j]);

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
}

static bool ref_in_level(const struct ph_dmatrix *d, const struct ph_levels *l,
		     int level, int a, int b)
{
	int r = -1, c = -1;

	for (int i = 0; i < d->nrows; i++)
		if (d->row_ids[i] == a)
			r = i;
	for (int i = 0; i < d->ncols; i++)
		if (d->col_ids[i] == b)
			c = i;
	return r >= 0 && c >= 0 && l->cell[r * d->ncols + c] == level;
}

static int ref_pair_cmp(const void *pa, const void *pb)
{
	const int *a = pa, *b = pb;
	int a0 = a[0] < a[1] ? a[0] : a[1], b0 = b[0] < b[1] ? b[0] : b[1];
	int a1 = a[0] < a[1] ? a[1] : a[0], b1 = b[0] < b[1] ? b[1] : b[0];

	if (a0 != b0)
		return (a0 > b0) - (a0 < b0);
	if (a1 != b1)
		return (a1 > b1) - (a1 < b1);
	return (a[0] > b[0]) - (a[0] < b[0]);
}

static char *ref_level_pairs(const struct ph_dmatrix *d, const struct ph_levels *l, int level)
{
	int (*pairs)[2] = xcalloc((size_t)d->nrows * d->ncols + 1, sizeof(*pairs));
	int np = 0, nlocal = 0;
	char *s = xstrdup(""), *t;

	for (int r = 0; r < d->nrows; r++) {
		for (int c = 0; c < d->ncols; c++) {
			int a = d->row_ids[r], b = d->col_ids[c];

			if (l->cell[r * d->ncols + c] != level)
				continue;
			if (a == b) {
				nlocal++;
				continue;
			}
			/* Both directions in the level: one unordered pair, once. */
			if (ref_in_level(d, l, level, b, a) && a > b)
				continue;
			pairs[np][0] = a;
			pairs[np][1] = b;
			np++;
		}
	}
	qsort(pairs, np, sizeof(*pairs), ref_pair_cmp);
	if (nlocal) {
		free(s);
		s = xasprintf("local (%d node%s)", nlocal, ref_plural(nlocal));
	}
	for (int i = 0; i < np; i++) {
		int a = pairs[i][0], b = pairs[i][1];

		if (ref_in_level(d, l, level, b, a))
			t = xasprintf("%s%s{%d,%d}", s, *s ? " " : "", a, b);
		else
			t = xasprintf("%s%s%d>%d", s, *s ? " " : "", a, b);
		free(s);
		s = t;
	}
	free(pairs);
	return s;
}

static void ref_hop_model(const struct ph_nmatrix *m, const struct ph_dmatrix *d,
	       const struct ph_levels *lv, struct ph_hop_model *out)
{
	int nc = m->ncols, maxh = lv->n;
	struct ph_hop_class *cls = xcalloc(maxh ? maxh : 1, sizeof(*cls));
	size_t ncell = (size_t)m->nrows * nc;
	int *hops = xmalloc((ncell ? ncell : 1) * sizeof(int));
	double *extra = nan_array(ncell), shx = 0, shh = 0, ss = 0;
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
		int ref = d->ref[r], lref;

		if (ref < 0)
			continue;
		if (d->ref_how[r] != PH_LOCAL_OWN) {
			out->nskipped_rows++;
			continue;
		}
		lref = lv->cell[r * nc + ref];
		for (int c = 0; c < nc; c++) {
			size_t k = (size_t)r * nc + c;
			double v = m->val[k], vref = m->val[r * nc + ref], x;
			struct ph_hop_class *hc;
			int h;

			hops[k] = -1;
			if (c == ref || lv->cell[k] < 0)
				continue;
			h = lv->cell[k] - lref;
			if (h < 0) {
				out->nnegative++;
				continue;
			}
			/* Latency in ns; bandwidth and distance in distance units. */
			x = m->metric == PH_METRIC_LATENCY ? v - vref
							   : d->d[k] - d->ref_dist[r];
			hc = &cls[h];
			hc->n++;
			hc->extra_mean += x;
			hc->extra_min = fmin(hc->extra_min, x);
			hc->extra_max = fmax(hc->extra_max, x);
			if (bw) {
				hc->ratio_mean += v / vref;
				hc->drop_mean += vref - v;
			}
			hops[k] = h;
			extra[k] = x;
			shx += h * x;
			shh += (double)h * h;
			out->n++;
		}
	}
	out->cost = shh > 0 ? shx / shh : NAN;
	for (size_t k = 0; k < ncell; k++) {
		double res;

		if (!isfinite(extra[k]) || !isfinite(out->cost))
			continue;
		res = extra[k] - hops[k] * out->cost;
		ss += res * res;
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
	free(hops);
	free(extra);
}


/* ---- random inputs ---- */

static unsigned long long rng = 0x9e3779b97f4a7c15ULL;

static unsigned rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

static double urand(void)
{
	return rnd(1000000) / 1e6;
}

/* n distinct ids from 0..3n, in random order. */
static void random_ids(int *ids, int n)
{
	for (int i = 0; i < n;) {
		int v = (int)rnd(3 * n + 1), dup = 0;

		for (int j = 0; j < i; j++)
			dup |= ids[j] == v;
		if (!dup)
			ids[i++] = v;
	}
}

struct rcase {
	struct ph_nmatrix *m;
	struct ph_slit *s;	/* may be NULL */
	double noise;
};

static void random_case(struct rcase *rc)
{
	int n = 1 + (int)rnd(11), ids[64], rows[64], cols[64], nr = 0, nc = 0, grp[64];
	enum ph_metric metric = (enum ph_metric)(1 + rnd(3));

	random_ids(ids, n);
	for (int i = 0; i < n; i++) {
		grp[i] = (int)rnd(3);
		/* Most nodes both; some CPU-only (a row), some memory-only (a column). */
		unsigned k = rnd(10);

		if (k != 0)
			rows[nr++] = ids[i];
		if (k != 1)
			cols[nc++] = ids[i];
	}
	if (!nr)
		rows[nr++] = ids[0];
	if (!nc)
		cols[nc++] = ids[0];
	rc->m = nmatrix_new(metric, nr, rows, nc, cols);
	for (int r = 0; r < nr; r++) {
		for (int c = 0; c < nc; c++) {
			int k = r * nc + c, gr = 0, gc = 0;
			double base, v;

			for (int i = 0; i < n; i++) {
				if (ids[i] == rows[r])
					gr = grp[i];
				if (ids[i] == cols[c])
					gc = grp[i];
			}
			if (rnd(12) == 0)
				continue;	/* missing */
			base = rows[r] == cols[c] ? 1 : 1.3 + 0.4 * abs(gr - gc) + 0.2 * rnd(2);
			/* Coarse values: ties and equal distances happen. */
			v = metric == PH_METRIC_BANDWIDTH ? 30 / base : 100 * base;
			v = round(v * (1 + 0.05 * (urand() - 0.5)) * 2) / 2;
			rc->m->val[k] = v;
			if (rnd(3) == 0) {
				rc->m->ci_lo[k] = v * (1 - 0.1 * urand());
				rc->m->ci_hi[k] = v * (1 + 0.1 * urand());
			}
		}
	}
	rc->noise = rnd(4) == 0 ? 0 : 0.05 * urand();
	rc->s = NULL;
	if (rnd(5)) {
		/* The SLIT: every node, or a few missing, or extra ones. */
		int sids[64], ns = 0;

		for (int i = 0; i < n; i++)
			if (rnd(8))
				sids[ns++] = ids[i];
		if (rnd(3) == 0)
			sids[ns++] = 4 * n + 1 + (int)rnd(5);
		if (!ns)
			sids[ns++] = ids[0];
		rc->s = slit_new(ns, sids);
		for (int i = 0; i < ns; i++)
			for (int j = 0; j < ns; j++)
				rc->s->dist[i * ns + j] = i == j ? 10 : 12 + 4 * (int)rnd(4);
	}
}

static void free_case(struct rcase *rc)
{
	nmatrix_free(rc->m);
	slit_free(rc->s);
}

/* ---- the comparisons ---- */

static void same_levels(const struct ph_levels *a, const struct ph_levels *b, size_t ncell)
{
	assert_int_equal(a->n, b->n);
	assert_int_equal(a->nremote, b->nremote);
	for (size_t k = 0; k < ncell; k++)
		assert_int_equal(a->cell[k], b->cell[k]);
	for (int i = 0; i < a->n; i++) {
		assert_int_equal(a->lv[i].n, b->lv[i].n);
		assert_true(a->lv[i].min == b->lv[i].min);
		assert_true(a->lv[i].max == b->lv[i].max);
		assert_true(a->lv[i].mean == b->lv[i].mean);
		assert_int_equal(a->lv[i].has_local, b->lv[i].has_local);
	}
}

static void test_random_against_reference(void **state)
{
	(void)state;
	for (int iter = 0; iter < 3000; iter++) {
		struct rcase rc;
		struct ph_dmatrix d;
		struct ph_levels l1, l2, lm;
		struct ph_violation *v1, *v2;
		struct ph_magnitude *g1, *g2;
		struct ph_asymmetry *x1, *x2;
		struct ph_proposal p1, p2;
		int n1, n2, o1, o2;
		size_t ncell;

		random_case(&rc);
		ncell = (size_t)rc.m->nrows * rc.m->ncols;
		if (dist_normalise(rc.m, rc.s, rc.noise, &d)) {
			dmatrix_free(&d);
			free_case(&rc);
			continue;
		}
		if (rc.s) {
			levels_slit(&d, rc.s, 0.15, &l1);
			ref_levels_slit(&d, rc.s, 0.15, &l2);
			same_levels(&l1, &l2, ncell);
			levels_free(&l1);
			levels_free(&l2);

			n1 = ordering_violations(&d, rc.s, &v1);
			n2 = ref_ordering_violations(&d, rc.s, &v2);
			assert_int_equal(n1, n2);
			for (int i = 0; i < n1; i++)
				assert_memory_equal(&v1[i], &v2[i], sizeof(*v1));
			free(v1);
			free(v2);

			n1 = magnitude_check(&d, rc.s, 0.15, &g1, &o1);
			n2 = ref_magnitude_check(&d, rc.s, 0.15, &g2, &o2);
			assert_int_equal(n1, n2);
			assert_int_equal(o1, o2);
			for (int i = 0; i < n1; i++) {
				assert_int_equal(g1[i].row, g2[i].row);
				assert_int_equal(g1[i].col, g2[i].col);
				assert_int_equal(g1[i].slit, g2[i].slit);
				assert_true(g1[i].rel_err == g2[i].rel_err);
				assert_int_equal(g1[i].within, g2[i].within);
			}
			free(g1);
			free(g2);
		}
		n1 = asymmetry_check(rc.m, &d, rc.noise, &x1);
		n2 = ref_asymmetry_check(rc.m, &d, rc.noise, &x2);
		assert_int_equal(n1, n2);
		for (int i = 0; i < n1; i++) {
			assert_int_equal(x1[i].a, x2[i].a);
			assert_int_equal(x1[i].b, x2[i].b);
			assert_true(x1[i].ab == x2[i].ab && x1[i].ba == x2[i].ba);
			assert_true(x1[i].diff == x2[i].diff && x1[i].rel == x2[i].rel);
			assert_memory_equal(&x1[i].d_ab, &x2[i].d_ab, sizeof(double));	/* NaN too */
			assert_memory_equal(&x1[i].d_ba, &x2[i].d_ba, sizeof(double));
			assert_int_equal(x1[i].beyond, x2[i].beyond);
		}
		free(x1);
		free(x2);

		slit_propose(&d, rc.s, &p1);
		ref_slit_propose(&d, rc.s, &p2);
		assert_int_equal(p1.n, p2.n);
		assert_int_equal(p1.nunknown, p2.nunknown);
		assert_int_equal(p1.nclamped, p2.nclamped);
		assert_memory_equal(p1.ids, p2.ids, p1.n * sizeof(int));
		assert_memory_equal(p1.dist, p2.dist, (size_t)p1.n * p1.n * sizeof(int));
		assert_memory_equal(p1.src, p2.src, (size_t)p1.n * p1.n * sizeof(*p1.src));
		assert_memory_equal(p1.clamped, p2.clamped, (size_t)p1.n * p1.n * sizeof(bool));
		proposal_free(&p1);
		proposal_free(&p2);

		levels_measured(&d, &lm);
		{
			struct ph_hop_model h1, h2;

			hop_model(rc.m, &d, &lm, &h1);
			ref_hop_model(rc.m, &d, &lm, &h2);
			assert_int_equal(h1.nclasses, h2.nclasses);
			assert_int_equal(h1.n, h2.n);
			assert_int_equal(h1.nnegative, h2.nnegative);
			assert_int_equal(h1.nskipped_rows, h2.nskipped_rows);
			assert_memory_equal(&h1.cost, &h2.cost, sizeof(double));
			assert_memory_equal(&h1.rms, &h2.rms, sizeof(double));
			assert_memory_equal(h1.cls, h2.cls, h1.nclasses * sizeof(*h1.cls));
			hop_model_free(&h1);
			hop_model_free(&h2);
		}
		for (int i = 0; i < lm.n; i++) {
			char *a = slit_level_pairs(&d, &lm, i), *b = ref_level_pairs(&d, &lm, i);

			assert_string_equal(a, b);
			free(a);
			free(b);
		}
		levels_free(&lm);
		dmatrix_free(&d);
		free_case(&rc);
	}
}

/* Many violations in one row: each near column against many far ones. */
static void test_ordering_dense(void **state)
{
	enum { N = 40 };
	int ids[N];
	struct ph_nmatrix *m;
	struct ph_slit *s;
	struct ph_dmatrix d;
	struct ph_violation *v1, *v2;
	int n1, n2;

	(void)state;
	for (int i = 0; i < N; i++)
		ids[i] = N - 1 - i;
	m = nmatrix_new(PH_METRIC_LATENCY, N, ids, N, ids);
	s = slit_new(N, ids);
	for (int r = 0; r < N; r++) {
		for (int c = 0; c < N; c++) {
			/* The SLIT grows with c, the measurement shrinks: all backwards. */
			m->val[r * N + c] = r == c ? 100 : 1000 - 10 * c + rnd(3);
			s->dist[r * N + c] = r == c ? 10 : 11 + c % 7;
		}
	}
	dist_normalise(m, s, 0.001, &d);
	n1 = ordering_violations(&d, s, &v1);
	n2 = ref_ordering_violations(&d, s, &v2);
	assert_true(n1 > N * N);
	assert_int_equal(n1, n2);
	for (int i = 0; i < n1; i++)
		assert_memory_equal(&v1[i], &v2[i], sizeof(*v1));
	free(v1);
	free(v2);
	dmatrix_free(&d);
	slit_free(s);
	nmatrix_free(m);
}

static void test_node_index(void **state)
{
	const int ids[] = { 7, 3, 9, 3, 0 }, q[] = { 3, 0, 8, 9, 7, -1 };
	int *at = node_index(ids, 5, q, 6);

	(void)state;
	/* The first index of a repeated id, as a linear search finds it. */
	assert_int_equal(at[0], 1);
	assert_int_equal(at[1], 4);
	assert_int_equal(at[2], -1);
	assert_int_equal(at[3], 2);
	assert_int_equal(at[4], 0);
	assert_int_equal(at[5], -1);
	free(at);
	at = node_index(ids, 0, q, 2);
	assert_int_equal(at[0], -1);
	free(at);
}

static void test_add_row(void **state)
{
	const int cols[] = { 4, 5 };
	const double v[] = { 1.5, 2.5 };
	struct ph_nmatrix *m = nmatrix_new(PH_METRIC_LATENCY, 0, NULL, 2, cols);

	(void)state;
	for (int r = 0; r < 100; r++)
		nmatrix_add_row(m, r * 2, v);
	assert_int_equal(m->nrows, 100);
	assert_int_equal(m->row_ids[99], 198);
	assert_true(m->val[99 * 2 + 1] == 2.5);
	assert_true(isnan(m->ci_lo[50]));
	assert_int_equal(m->samples[3], 0);
	assert_int_equal(nmatrix_row(m, 198), 99);
	nmatrix_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_against_reference),
		cmocka_unit_test(test_ordering_dense),
		cmocka_unit_test(test_node_index),
		cmocka_unit_test(test_add_row),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
