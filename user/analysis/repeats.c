// SPDX-License-Identifier: GPL-2.0-only
/*
 * repeats.c - the spread between a figure's repeats, whether they agree,
 * and whether they fall into two groups.
 */
#include "repeats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *repeats_between_name(enum ph_between b)
{
	switch (b) {
	case PH_BETWEEN_AGREE:
		return "agree";
	case PH_BETWEEN_DIFFER:
		return "differ";
	case PH_BETWEEN_UNKNOWN:
		return "unknown";
	case PH_BETWEEN_ONE:
		break;
	}
	return "one";
}

static bool has_ci(const struct ph_rep *r)
{
	return isfinite(r->ci_lo) && isfinite(r->ci_hi);
}

bool repeats_disjoint(const struct ph_rep *a, const struct ph_rep *b)
{
	/* Touching intervals share a point: they overlap. */
	return has_ci(a) && has_ci(b) && (a->ci_hi < b->ci_lo || b->ci_hi < a->ci_lo);
}

/*
 * Do the repeats idx[from..to) agree with each other?  Intervals on a line
 * that overlap two by two have a point in common (Helly), so the test is
 * that the highest lower end is not above the lowest upper end.
 */
static bool consistent(const struct ph_rep *r, const int *idx, int from, int to)
{
	double lo = -INFINITY, hi = INFINITY;

	for (int i = from; i < to; i++) {
		lo = fmax(lo, r[idx[i]].ci_lo);
		hi = fmin(hi, r[idx[i]].ci_hi);
	}
	return lo <= hi;
}

static void group_of(const struct ph_rep *r, const int *idx, int from, int to,
		     struct ph_rep_group *g)
{
	g->n = to - from;
	g->lo = r[idx[from]].median;
	g->hi = r[idx[to - 1]].median;
}

/*
 * The one split of the sorted repeats into a low and a high group, each
 * consistent, every interval of the low one below every interval of the
 * high one.  (Two splits cannot both hold: the repeats between them would
 * have to agree with each other under one and be apart under the other.)
 * It makes the set bimodal only when the groups are PH_REP_BIMODAL_GAP
 * apart.
 */
static bool split(const struct ph_rep *r, const int *idx, int m, struct ph_repeats *out)
{
	for (int k = 1; k < m; k++) {
		double low_hi = -INFINITY, high_lo = INFINITY;

		for (int i = 0; i < k; i++)
			low_hi = fmax(low_hi, r[idx[i]].ci_hi);
		for (int i = k; i < m; i++)
			high_lo = fmin(high_lo, r[idx[i]].ci_lo);
		if (low_hi < high_lo && consistent(r, idx, 0, k) && consistent(r, idx, k, m)) {
			double top = r[idx[k - 1]].median, bottom = r[idx[k]].median;

			if (bottom - top < PH_REP_BIMODAL_GAP * fabs(top))
				return false;
			group_of(r, idx, 0, k, &out->group[0]);
			group_of(r, idx, k, m, &out->group[1]);
			return true;
		}
	}
	return false;
}

void repeats_judge(const struct ph_rep *r, int n, struct ph_repeats *out)
{
	int *idx = calloc((size_t)(n > 0 ? n : 1), sizeof(*idx));
	bool all_ci = true, differ = false;
	int m = 0;

	memset(out, 0, sizeof(*out));
	out->lo = out->hi = out->spread = out->spread_pct = out->median = NAN;
	out->pick = -1;
	out->between = PH_BETWEEN_ONE;
	if (!idx)
		return;
	/* The repeats with a median, sorted by it (insertion: n is small). */
	for (int i = 0; i < n; i++) {
		int j;

		if (!isfinite(r[i].median))
			continue;
		for (j = m; j > 0 && r[idx[j - 1]].median > r[i].median; j--)
			idx[j] = idx[j - 1];
		idx[j] = i;
		m++;
	}
	out->n = m;
	if (m) {
		out->pick = idx[(m - 1) / 2];
		out->median = r[out->pick].median;
		out->lo = r[idx[0]].median;
		out->hi = r[idx[m - 1]].median;
		out->spread = out->hi - out->lo;
		out->spread_pct = out->median != 0 ? 100.0 * out->spread / fabs(out->median) : NAN;
	}
	if (m < 2) {
		free(idx);
		return;
	}
	for (int i = 0; i < m; i++) {
		all_ci = all_ci && has_ci(&r[idx[i]]);
		for (int j = i + 1; j < m; j++)
			differ = differ || repeats_disjoint(&r[idx[i]], &r[idx[j]]);
	}
	out->between = differ ? PH_BETWEEN_DIFFER : all_ci ? PH_BETWEEN_AGREE : PH_BETWEEN_UNKNOWN;
	if (differ && all_ci)
		out->bimodal = split(r, idx, m, out);
	free(idx);
}
