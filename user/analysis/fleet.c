// SPDX-License-Identifier: GPL-2.0-only
/*
 * fleet.c - outliers among many hosts (fleet.h).
 */
#include "fleet.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The MAD scaled to the standard deviation of a normal distribution. */
#define MAD_TO_SIGMA 1.4826

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median_of(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static struct ph_htol tol_of(const char *name, const struct ph_htol over[PH_HK_NKINDS],
			     const bool set[PH_HK_NKINDS])
{
	int k = health_kind_of(name);

	if (k >= 0 && set && set[k])
		return over[k];
	return health_default_tol(k < 0 ? PH_HK_NKINDS : (enum ph_hkind)k);
}

/* Judge figure g (of host i) over the hosts of its model. */
static void judge(const struct ph_hset *sets, int n, int i, const struct ph_hfig *g, double k,
		  const struct ph_htol over[PH_HK_NKINDS], const bool set[PH_HK_NKINDS],
		  double *vals, struct ph_fleet *out)
{
	int m = 0;
	double med, mad, dev, t;
	struct ph_htol tol = tol_of(g->name, over, set);

	for (int j = 0; j < n; j++) {
		const struct ph_hfig *h;

		if (strcmp(sets[j].model, sets[i].model))
			continue;
		h = hset_find(&sets[j], g->name, g->node, g->mem_node);
		if (h)
			vals[m++] = h->value;
	}
	if (m < FLEET_MIN_HOSTS)
		return;
	med = median_of(vals, m);
	for (int j = 0; j < m; j++)
		vals[j] = fabs(vals[j] - med);
	mad = median_of(vals, m);
	if (med <= 0 || fabs(g->value - med) <= k * MAD_TO_SIGMA * mad)
		return;
	dev = (g->value - med) / med;
	t = dev < 0 ? tol.lower : tol.upper;
	if (isnan(t) || fabs(dev) <= fabs(t))
		return;
	out->v = xrealloc(out->v, (size_t)(out->n + 1) * sizeof(*out->v));
	out->v[out->n] = (struct ph_stray){ .set = i, .fig = *g, .median = med, .mad = mad, .dev = dev,
					    .tol = t, .score = t ? fabs(dev / t) : INFINITY };
	if (out->v[out->n].score > out->score[i])
		out->score[i] = out->v[out->n].score;
	out->n++;
}

static const double *score_key;

static int by_score(const void *a, const void *b)
{
	double x = score_key[*(const int *)a], y = score_key[*(const int *)b];

	return (x < y) - (x > y);
}

void fleet_compare(const struct ph_hset *sets, int n, double k,
		   const struct ph_htol over[PH_HK_NKINDS], const bool set[PH_HK_NKINDS],
		   struct ph_fleet *out)
{
	double *vals = xcalloc((size_t)n + 1, sizeof(*vals));

	memset(out, 0, sizeof(*out));
	out->score = xcalloc((size_t)n + 1, sizeof(*out->score));
	out->rank = xcalloc((size_t)n + 1, sizeof(*out->rank));
	for (int i = 0; i < n; i++) {
		int same = 0;
		bool first = true;

		for (int j = 0; j < n; j++)
			if (!strcmp(sets[j].model, sets[i].model)) {
				same++;
				first &= j >= i;
			}
		out->nmodels += first;
		if (same < FLEET_MIN_HOSTS) {
			out->nsmall++;
			continue;
		}
		for (int f = 0; f < sets[i].nfigs; f++)
			if (health_kind_of(sets[i].figs[f].name) >= 0)
				judge(sets, n, i, &sets[i].figs[f], k, over, set, vals, out);
	}
	for (int i = 0; i < n; i++)
		if (out->score[i] > 0)
			out->rank[out->nranked++] = i;
	score_key = out->score;
	qsort(out->rank, (size_t)out->nranked, sizeof(*out->rank), by_score);
	free(vals);
}

void fleet_free(struct ph_fleet *f)
{
	free(f->v);
	free(f->rank);
	free(f->score);
	memset(f, 0, sizeof(*f));
}
