// SPDX-License-Identifier: GPL-2.0-only
/*
 * distance.c - the analysis behind "pagehop slit": a measured matrix
 * normalised to distances, its levels, and its order, magnitude and
 * asymmetry against the SLIT (the rest: slit_propose.c, hmat_check.c,
 * slit_analysis.c).  Pure arithmetic; docs/slit.md gives every formula with a
 * worked example, so that each printed number can be redone by hand.
 */
#include "distance_impl.h"
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- shared by the analysis files (distance_impl.h) ---- */

void slit_map_init(struct slit_map *sm, const struct ph_slit *s,
		   const int *row_ids, int nrows, const int *col_ids, int ncols)
{
	sm->s = s;
	if (s) {
		sm->row = node_index(s->ids, s->n, row_ids, nrows);
		sm->col = node_index(s->ids, s->n, col_ids, ncols);
		return;
	}
	sm->row = xmalloc((nrows > 0 ? nrows : 1) * sizeof(int));
	sm->col = xmalloc((ncols > 0 ? ncols : 1) * sizeof(int));
	for (int i = 0; i < nrows; i++)
		sm->row[i] = -1;
	for (int i = 0; i < ncols; i++)
		sm->col[i] = -1;
}

void slit_map_free(struct slit_map *sm)
{
	free(sm->row);
	free(sm->col);
}

void *grow(void *p, int n, int *cap, size_t sz)
{
	if (n < *cap)
		return p;
	*cap = *cap ? *cap * 2 : 16;
	return xrealloc(p, (size_t)*cap * sz);
}

/* ---- normalisation ---- */

bool cell_interval(const struct ph_nmatrix *m, int k, double noise,
		   double *lo, double *hi)
{
	double v = m->val[k], l, h;

	if (!isfinite(v) || v <= 0)
		return false;
	l = v * (1 - noise);
	h = v * (1 + noise);
	if (isfinite(m->ci_lo[k]) && m->ci_lo[k] < l)
		l = m->ci_lo[k];
	if (isfinite(m->ci_hi[k]) && m->ci_hi[k] > h)
		h = m->ci_hi[k];
	*lo = l > 0 ? l : 0;
	*hi = h;
	return true;
}

/* Is column a a better (nearer) measured cell than column b in row r? */
static bool measured_better(const struct ph_nmatrix *m, int r, int a, int b)
{
	double va = m->val[r * m->ncols + a], vb = m->val[r * m->ncols + b];

	return latency_like(m->metric) ? va < vb : va > vb;
}

/*
 * The reference of a row without its own memory (or whose local cell is
 * missing): the nearest column by the SLIT, ties to the better measured
 * value; without SLIT distances for the row, the best measured column.
 */
static int pick_reference(const struct ph_nmatrix *m, const struct slit_map *sm,
			  int r, enum ph_local *how, double *refd)
{
	int best = -1, best_s = -1;

	for (int c = 0; c < m->ncols; c++) {
		int sv = slit_rc(sm, r, c);

		if (!usable(m, r * m->ncols + c) || sv < 0)
			continue;
		if (best < 0 || sv < best_s || (sv == best_s && measured_better(m, r, c, best))) {
			best = c;
			best_s = sv;
		}
	}
	if (best >= 0) {
		*how = PH_LOCAL_SLIT_NEAREST;
		*refd = best_s;
		return best;
	}
	for (int c = 0; c < m->ncols; c++) {
		if (!usable(m, r * m->ncols + c))
			continue;
		if (best < 0 || measured_better(m, r, c, best))
			best = c;
	}
	*how = PH_LOCAL_FASTEST;
	*refd = PH_LOCAL_DISTANCE;
	return best;
}

int dist_normalise(const struct ph_nmatrix *m, const struct ph_slit *slit,
		   double noise, struct ph_dmatrix *out)
{
	int nr = m->nrows, nc = m->ncols, nref = 0;
	size_t n = (size_t)nr * nc;
	bool lat = latency_like(m->metric);
	int *own_col = node_index(m->col_ids, nc, m->row_ids, nr);
	struct slit_map sm;

	slit_map_init(&sm, slit, m->row_ids, nr, m->col_ids, nc);
	memset(out, 0, sizeof(*out));
	out->metric = m->metric;
	out->nrows = nr;
	out->ncols = nc;
	out->row_ids = nmatrix_ids_dup(m->row_ids, nr);
	out->col_ids = nmatrix_ids_dup(m->col_ids, nc);
	out->ref = xcalloc(nr ? nr : 1, sizeof(int));
	out->ref_how = xcalloc(nr ? nr : 1, sizeof(enum ph_local));
	out->ref_dist = nmatrix_nans(nr);
	out->d = nmatrix_nans(n);
	out->lo = nmatrix_nans(n);
	out->hi = nmatrix_nans(n);
	out->rlo = nmatrix_nans(n);
	out->rhi = nmatrix_nans(n);

	for (int r = 0; r < nr; r++) {
		int own = own_col[r], ref;
		enum ph_local how = PH_LOCAL_OWN;
		double refd = PH_LOCAL_DISTANCE, vref, rl, rh;

		if (own >= 0 && usable(m, r * nc + own))
			ref = own;
		else
			ref = pick_reference(m, &sm, r, &how, &refd);
		out->ref[r] = ref;
		out->ref_how[r] = how;
		if (ref < 0)
			continue;
		out->ref_dist[r] = refd;
		nref++;
		vref = m->val[r * nc + ref];
		cell_interval(m, r * nc + ref, noise, &rl, &rh);
		for (int c = 0; c < nc; c++) {
			size_t k = (size_t)r * nc + c;
			double v = m->val[k], l, h;

			if (!cell_interval(m, k, noise, &l, &h))
				continue;
			if (lat) {
				out->d[k] = refd * v / vref;
				out->lo[k] = qdiv(refd * l, rh);
				out->hi[k] = qdiv(refd * h, rl);
				out->rlo[k] = refd * l / vref;
				out->rhi[k] = refd * h / vref;
			} else {
				out->d[k] = refd * vref / v;
				out->lo[k] = qdiv(refd * rl, h);
				out->hi[k] = qdiv(refd * rh, l);
				out->rlo[k] = qdiv(refd * vref, h);
				out->rhi[k] = qdiv(refd * vref, l);
			}
			if (c == ref) {
				/* A value divided by itself: exact. */
				out->d[k] = refd;
				out->lo[k] = refd;
				out->hi[k] = refd;
			}
		}
	}
	free(own_col);
	slit_map_free(&sm);
	return nref ? 0 : -EINVAL;
}

void dmatrix_free(struct ph_dmatrix *d)
{
	free(d->row_ids);
	free(d->col_ids);
	free(d->ref);
	free(d->ref_how);
	free(d->ref_dist);
	free(d->d);
	free(d->lo);
	free(d->hi);
	free(d->rlo);
	free(d->rhi);
	memset(d, 0, sizeof(*d));
}

/* ---- levels ---- */

static bool is_diagonal(const struct ph_dmatrix *d, int k)
{
	return d->row_ids[k / d->ncols] == d->col_ids[k % d->ncols];
}

/* Fill min/max/mean/n/has_local and nremote from out->cell. */
static void level_stats(const struct ph_dmatrix *d, struct ph_levels *out,
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
		if (is_diagonal(d, (int)k))
			l->has_local = true;
	}
	out->nremote = 0;
	for (int i = 0; i < out->n; i++) {
		out->lv[i].mean /= out->lv[i].n;
		if (!out->lv[i].has_local)
			out->nremote++;
	}
}

/* A cell by its interval's lower end, as an integer that sorts as the double does. */
struct lo_key {
	uint64_t key;
	int k;
};

static uint64_t double_key(double v)
{
	uint64_t b;

	memcpy(&b, &v, sizeof(b));
	return b >> 63 ? ~b : b | (1ULL << 63);
}

/* LSD radix sort by key, 16 bits a pass, skipping digits all keys share. */
static struct lo_key *sort_lo_keys(struct lo_key *a, struct lo_key *tmp, size_t n)
{
	size_t *count = xmalloc(65536 * sizeof(size_t));

	for (int shift = 0; shift < 64; shift += 16) {
		struct lo_key *t;
		size_t sum = 0;

		memset(count, 0, 65536 * sizeof(size_t));
		for (size_t i = 0; i < n; i++)
			count[(a[i].key >> shift) & 0xffff]++;
		if (n && count[(a[0].key >> shift) & 0xffff] == n)
			continue;
		for (size_t v = 0; v < 65536; v++) {
			size_t c = count[v];

			count[v] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			tmp[count[(a[i].key >> shift) & 0xffff]++] = a[i];
		t = a;
		a = tmp;
		tmp = t;
	}
	free(count);
	return a;
}

void levels_measured(const struct ph_dmatrix *d, struct ph_levels *out)
{
	size_t n = (size_t)d->nrows * d->ncols, m = 0;
	struct lo_key *keys = xmalloc((n ? n : 1) * sizeof(*keys));
	struct lo_key *tmp = xmalloc((n ? n : 1) * sizeof(*tmp)), *sorted;
	double reach = 0;

	memset(out, 0, sizeof(*out));
	out->cell = xmalloc((n ? n : 1) * sizeof(int));
	for (size_t k = 0; k < n; k++) {
		out->cell[k] = -1;
		if (isfinite(d->d[k]))
			keys[m++] = (struct lo_key){ double_key(d->lo[k]), (int)k };
	}
	/*
	 * The sweep needs the intervals by their lower end only: cells with
	 * the same lower end join the same level in any order (the first may
	 * open it; the reach is then at least that lower end for the rest).
	 * A radix sort of 16-byte keys, where qsort moved 32-byte records
	 * through a comparison callback N^2 log N times.
	 */
	sorted = sort_lo_keys(keys, tmp, m);
	for (size_t i = 0; i < m; i++) {
		int k = sorted[i].k;

		if (!out->n || d->lo[k] > reach) {
			out->n++;
			reach = d->hi[k];
		} else if (d->hi[k] > reach) {
			reach = d->hi[k];
		}
		out->cell[k] = out->n - 1;
	}
	free(keys);
	free(tmp);
	level_stats(d, out, d->d);
}

/* Sort n ints ascending: a radix sort, 16 bits a pass (N^2 values, few distinct). */
static void sort_ints(int *a, size_t n)
{
	uint32_t *u = xmalloc((n ? n : 1) * sizeof(*u)), *tmp = xmalloc((n ? n : 1) * sizeof(*tmp));
	size_t *count = xmalloc(65536 * sizeof(size_t));

	for (size_t i = 0; i < n; i++)
		u[i] = (uint32_t)a[i] ^ 0x80000000u;	/* signed order as unsigned */
	for (int shift = 0; shift < 32; shift += 16) {
		uint32_t *t;
		size_t sum = 0;

		memset(count, 0, 65536 * sizeof(size_t));
		for (size_t i = 0; i < n; i++)
			count[(u[i] >> shift) & 0xffff]++;
		for (size_t v = 0; v < 65536; v++) {
			size_t c = count[v];

			count[v] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			tmp[count[(u[i] >> shift) & 0xffff]++] = u[i];
		t = u;
		u = tmp;
		tmp = t;
	}
	for (size_t i = 0; i < n; i++)
		a[i] = (int)(u[i] ^ 0x80000000u);
	free(count);
	free(u);
	free(tmp);
}

void levels_slit(const struct ph_dmatrix *d, const struct ph_slit *s,
		 double tolerance, struct ph_levels *out)
{
	size_t n = (size_t)d->nrows * d->ncols;
	int *vals = xcalloc(n ? n : 1, sizeof(int)), nv = 0, nd = 0;
	int *lvl_of = xcalloc(n ? n : 1, sizeof(int));
	double *value = nmatrix_nans(n);
	struct slit_map sm;

	slit_map_init(&sm, s, d->row_ids, d->nrows, d->col_ids, d->ncols);
	memset(out, 0, sizeof(*out));
	out->cell = xmalloc((n ? n : 1) * sizeof(int));
	for (size_t k = 0; k < n; k++) {
		int sv = slit_rc(&sm, (int)(k / d->ncols), (int)(k % d->ncols));

		out->cell[k] = -1;
		if (!isfinite(d->d[k]) || sv < 0)
			continue;
		vals[nv++] = sv;
		value[k] = sv;
	}
	sort_ints(vals, nv);
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
		int *at;

		if (!isfinite(value[k]))
			continue;
		/* vals[0..nd) is sorted and distinct, and holds every value. */
		at = bsearch(&(int){ (int)value[k] }, vals, nd, sizeof(int), int_cmp);
		out->cell[k] = lvl_of[at - vals];
	}
	level_stats(d, out, value);
	slit_map_free(&sm);
	free(vals);
	free(lvl_of);
	free(value);
}

void levels_free(struct ph_levels *l)
{
	free(l->lv);
	free(l->cell);
	memset(l, 0, sizeof(*l));
}

/* ---- ordering, magnitude, asymmetry ---- */

/*
 * Ordering violations of one row, without looking at every pair of columns
 * (N^3 pairs in all): the candidates for "far" sorted by their upper bound
 * rhi, a tournament tree of their SLIT values over that order; for each
 * "near" column a, the far ones beyond it are a prefix of the order (rhi <
 * rlo[a]), and the tree yields those of them with a SLIT value above a's in
 * O(log N) each, O(log N) when there is none.
 */
struct far_cand {
	double rhi;
	int col, sv;
};

static int far_cmp(const void *pa, const void *pb)
{
	const struct far_cand *a = pa, *b = pb;

	/* Ascending rhi; NaN (never beyond anything) last. */
	if (isnan(a->rhi) || isnan(b->rhi))
		return isnan(a->rhi) - isnan(b->rhi);
	if (a->rhi != b->rhi)
		return a->rhi < b->rhi ? -1 : 1;
	return a->col - b->col;
}

/* Positions below p of the tree t (leaves from size) whose value exceeds v. */
static void tree_above(const int *t, int size, int node, int lo, int hi, int p,
		       int v, int *found, int *nfound)
{
	if (lo >= p || t[node] <= v)
		return;
	if (node >= size) {
		found[(*nfound)++] = node - size;
		return;
	}
	tree_above(t, size, 2 * node, lo, (lo + hi) / 2, p, v, found, nfound);
	tree_above(t, size, 2 * node + 1, (lo + hi) / 2, hi, p, v, found, nfound);
}

int ordering_violations(const struct ph_dmatrix *d, const struct ph_slit *s,
			struct ph_violation **out)
{
	int n = 0, cap = 0, nc = d->ncols, size = 1;
	struct far_cand *far = xmalloc((nc > 0 ? nc : 1) * sizeof(*far));
	int *found = xmalloc((nc > 0 ? nc : 1) * sizeof(int)), *tree;
	struct slit_map sm;

	while (size < nc)
		size *= 2;
	tree = xmalloc(2 * (size_t)size * sizeof(int));
	slit_map_init(&sm, s, d->row_ids, d->nrows, d->col_ids, nc);
	*out = NULL;
	for (int r = 0; r < d->nrows; r++) {
		const double *rlo = d->rlo + (size_t)r * nc, *rhi = d->rhi + (size_t)r * nc;
		const double *dd = d->d + (size_t)r * nc;
		int nf = 0;

		for (int b = 0; b < nc; b++) {
			int sb = slit_rc(&sm, r, b);

			if (sb >= 0 && isfinite(dd[b]))
				far[nf++] = (struct far_cand){ rhi[b], b, sb };
		}
		if (!nf)
			continue;
		qsort(far, nf, sizeof(*far), far_cmp);
		for (int i = 0; i < size; i++)
			tree[size + i] = i < nf ? far[i].sv : INT_MIN;
		for (int i = size - 1; i > 0; i--)
			tree[i] = tree[2 * i] > tree[2 * i + 1] ? tree[2 * i] : tree[2 * i + 1];
		for (int a = 0; a < nc; a++) {
			int sa = slit_rc(&sm, r, a), lo = 0, hi = nf, nfound = 0;

			if (sa < 0 || !isfinite(dd[a]))
				continue;
			/* SLIT: a nearer.  Measured: a farther, beyond both intervals. */
			while (lo < hi) {
				int mid = lo + (hi - lo) / 2;

				if (far[mid].rhi < rlo[a])
					lo = mid + 1;
				else
					hi = mid;
			}
			tree_above(tree, size, 1, 0, size, lo, sa, found, &nfound);
			for (int i = 0; i < nfound; i++)
				found[i] = far[found[i]].col;
			qsort(found, nfound, sizeof(int), int_cmp);
			for (int i = 0; i < nfound; i++) {
				*out = grow(*out, n, &cap, sizeof(**out));
				(*out)[n++] = (struct ph_violation){ r, a, found[i], sa,
								     slit_rc(&sm, r, found[i]) };
			}
		}
	}
	slit_map_free(&sm);
	free(tree);
	free(found);
	free(far);
	return n;
}

/* Is cell (r, c) compared in magnitude_check()?  Its SLIT value in *sv. */
static bool magnitude_cell(const struct ph_dmatrix *d, const struct slit_map *sm,
			   int r, int c, int *sv)
{
	*sv = slit_rc(sm, r, c);
	if (d->row_ids[r] == d->col_ids[c] || *sv <= 0 || !isfinite(d->d[r * d->ncols + c]))
		return false;
	/* A reference chosen by the SLIT equals it by construction. */
	return !(c == d->ref[r] && d->ref_how[r] == PH_LOCAL_SLIT_NEAREST);
}

int magnitude_check(const struct ph_dmatrix *d, const struct ph_slit *s,
		    double tolerance, struct ph_magnitude **out, int *nout)
{
	int n = 0, nc = d->ncols, sv;
	size_t count = 0;
	struct slit_map sm;

	slit_map_init(&sm, s, d->row_ids, d->nrows, d->col_ids, nc);
	*nout = 0;
	/* Counted first: an array grown as it fills is copied when it grows. */
	for (int r = 0; r < d->nrows; r++)
		for (int c = 0; c < nc; c++)
			count += magnitude_cell(d, &sm, r, c, &sv);
	*out = count ? xmalloc(count * sizeof(**out)) : NULL;
	for (int r = 0; r < d->nrows; r++) {
		for (int c = 0; c < nc; c++) {
			double v = d->d[r * nc + c];
			struct ph_magnitude mg;

			if (!magnitude_cell(d, &sm, r, c, &sv))
				continue;
			mg.row = r;
			mg.col = c;
			mg.measured = v;
			mg.slit = sv;
			mg.rel_err = (v - sv) / sv;
			mg.within = fabs(mg.rel_err) <= tolerance + EPS;
			if (!mg.within)
				(*nout)++;
			(*out)[n++] = mg;
		}
	}
	slit_map_free(&sm);
	return n;
}

static int asym_cmp(const void *pa, const void *pb)
{
	const struct ph_asymmetry *a = pa, *b = pb;

	if (a->a != b->a)
		return (a->a > b->a) - (a->a < b->a);
	return (a->b > b->b) - (a->b < b->b);
}

int asymmetry_check(const struct ph_nmatrix *m, const struct ph_dmatrix *d,
		    double noise, struct ph_asymmetry **out)
{
	int n = 0, cap = 0, nc = m->ncols;
	int *col_of_row = node_index(m->col_ids, nc, m->row_ids, m->nrows);

	*out = NULL;
	/* Room for every pair at once, given back below: no copy as it fills. */
	for (int ra = 0; ra < m->nrows; ra++)
		cap += col_of_row[ra] >= 0;
	cap = cap * (cap - 1) / 2;
	*out = cap ? xmalloc((size_t)cap * sizeof(**out)) : NULL;
	for (int ra = 0; ra < m->nrows; ra++) {
		for (int rb = 0; rb < m->nrows; rb++) {
			int a = m->row_ids[ra], b = m->row_ids[rb];
			int ca = col_of_row[ra], cb = col_of_row[rb];
			struct ph_asymmetry x = { .a = a, .b = b };
			int kab = ra * nc + cb, kba = rb * nc + ca;
			double ab_lo, ab_hi, ba_lo, ba_hi;

			if (a >= b || ca < 0 || cb < 0)
				continue;
			if (!cell_interval(m, kab, noise, &ab_lo, &ab_hi) ||
			    !cell_interval(m, kba, noise, &ba_lo, &ba_hi))
				continue;
			x.ab = m->val[kab];
			x.ba = m->val[kba];
			x.diff = fabs(x.ab - x.ba);
			x.rel = x.diff / fmin(x.ab, x.ba);
			x.beyond = ab_hi < ba_lo || ba_hi < ab_lo;
			x.d_ab = d->d[kab];
			x.d_ba = d->d[kba];
			(*out)[n++] = x;
		}
	}
	free(col_of_row);
	if (!n) {
		free(*out);
		*out = NULL;
	} else if (n < cap) {
		*out = xrealloc(*out, (size_t)n * sizeof(**out));
	}
	/* Rows in ascending node order make the pairs in order already. */
	for (int i = 1; i < n; i++) {
		if (asym_cmp(&(*out)[i - 1], &(*out)[i]) > 0) {
			qsort(*out, n, sizeof(**out), asym_cmp);
			break;
		}
	}
	return n;
}
