// SPDX-License-Identifier: GPL-2.0-only
/*
 * repeats_doc.c - the between-run columns of a figure measured in repeats.
 */
#include "repeats_doc.h"

#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

const char repeats_method[] =
	"each repeat measures the figure anew on memory and threads of its own, its share of --time each; the figure is the median repeat's (with its CI); rep_lo and rep_hi are the lowest and highest repeat's median; between_runs: agree when every two repeats' 95% CIs overlap, differ when some two do not (each median is beyond the other's CI), unknown when none is apart but a repeat has no CI, one with a single repeat (no claim); bimodal: they differ and split into a low and a high group, each agreeing within, every CI of the low one below every CI of the high one";

void repeats_add_cols(struct ph_table *t, const char *unit)
{
	char col[48];

	table_add_col(t, "repeats");
	snprintf(col, sizeof(col), "rep_lo_%s", unit);
	table_add_col(t, col);
	snprintf(col, sizeof(col), "rep_hi_%s", unit);
	table_add_col(t, col);
	table_add_col(t, "between_runs");
	table_add_col(t, "bimodal");
}

void repeats_fill(struct ph_table *t, int row, const struct ph_repeats *j, const char *unit,
		  const char *fmt)
{
	char col[48];

	table_int(t, row, "repeats", j->n);
	snprintf(col, sizeof(col), "rep_lo_%s", unit);
	if (isfinite(j->lo))
		table_num(t, row, col, j->lo, fmt);
	snprintf(col, sizeof(col), "rep_hi_%s", unit);
	if (isfinite(j->hi))
		table_num(t, row, col, j->hi, fmt);
	table_str(t, row, "between_runs", repeats_between_name(j->between));
	table_bool(t, row, "bimodal", j->bimodal);
}

/* "2 at 31.6-32.7 ns" or "1 at 155.1 ns". */
static int group_text(const struct ph_rep_group *g, const char *unit, const char *fmt,
		      char *buf, size_t len)
{
	char lo[32], hi[32];

	snprintf(lo, sizeof(lo), fmt, g->lo);
	snprintf(hi, sizeof(hi), fmt, g->hi);
	if (g->n == 1 || g->lo == g->hi)
		return snprintf(buf, len, "%d at %s %s", g->n, lo, unit);
	return snprintf(buf, len, "%d at %s-%s %s", g->n, lo, hi, unit);
}

void repeats_describe(const struct ph_repeats *j, const char *unit, const char *fmt,
		      char *buf, size_t len)
{
	char a[80], b[80], lo[32], hi[32];

	if (j->bimodal) {
		group_text(&j->group[0], unit, fmt, a, sizeof(a));
		group_text(&j->group[1], unit, fmt, b, sizeof(b));
		snprintf(buf, len, "the %d repeats differ beyond their CIs, in two groups (bimodal): %s, %s",
			 j->n, a, b);
		return;
	}
	snprintf(lo, sizeof(lo), fmt, j->lo);
	snprintf(hi, sizeof(hi), fmt, j->hi);
	snprintf(buf, len, "the %d repeats differ beyond their CIs, over %s-%s %s (%.1f%%), not as two groups",
		 j->n, lo, hi, unit, j->spread_pct);
}

void repeats_of_results(const struct ph_result *const *runs, int n, struct ph_repeats *out)
{
	struct ph_rep *v = xcalloc((size_t)n + 1, sizeof(*v));

	for (int i = 0; i < n; i++) {
		bool have = runs[i] && runs[i]->n;

		v[i].median = have ? runs[i]->st.median : NAN;
		v[i].ci_lo = have ? runs[i]->st.ci_lo : NAN;
		v[i].ci_hi = have ? runs[i]->st.ci_hi : NAN;
	}
	repeats_judge(v, n, out);
	free(v);
}

void repeats_table_cols(struct ph_table *t, const char *value, const char *unit)
{
	char col[48];

	table_add_col(t, "repeat");
	table_add_col(t, value);
	snprintf(col, sizeof(col), "ci_lo_%s", unit);
	table_add_col(t, col);
	snprintf(col, sizeof(col), "ci_hi_%s", unit);
	table_add_col(t, col);
	table_add_col(t, "samples");
	table_add_col(t, "picked");
}

void repeats_table_fill(struct ph_table *t, int row, const char *value, const char *unit,
			const char *fmt, const struct ph_result *res, int repeat, bool picked)
{
	char col[48];

	table_int(t, row, "repeat", repeat);
	table_num(t, row, value, res->st.median, fmt);
	snprintf(col, sizeof(col), "ci_lo_%s", unit);
	if (isfinite(res->st.ci_lo))
		table_num(t, row, col, res->st.ci_lo, fmt);
	snprintf(col, sizeof(col), "ci_hi_%s", unit);
	if (isfinite(res->st.ci_hi))
		table_num(t, row, col, res->st.ci_hi, fmt);
	table_int(t, row, "samples", (long long)res->n);
	table_bool(t, row, "picked", picked);
}

int repeats_restart(struct ph_session *s, unsigned default_threads)
{
	struct ph_layout lay = s->laid;

	if (!session_still_verified(s))
		return PH_EXIT_FAIL;
	session_stop(s);
	return session_start_bind(s, NULL, &lay, default_threads);
}

bool repeats_note(struct ph_doc *doc, const char *who, const char *figure,
		  const struct ph_repeats *j, const char *unit, const char *fmt, const char *cause)
{
	char what[192];

	if (j->between != PH_BETWEEN_DIFFER)
		return false;
	repeats_describe(j, unit, fmt, what, sizeof(what));
	if (j->bimodal)
		doc_note(doc, "%s: %s; %s is the median repeat's, and no one figure describes it here: %s",
			 who, what, figure, cause);
	else
		doc_note(doc, "%s: %s; %s is the median repeat's, and its uncertainty is that spread, not its CI: %s",
			 who, what, figure, cause);
	return true;
}
