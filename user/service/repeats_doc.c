// SPDX-License-Identifier: GPL-2.0-only
/*
 * repeats_doc.c - the between-run columns of a figure measured in repeats.
 */
#include "repeats_doc.h"

#include <math.h>
#include <stdio.h>

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
		snprintf(buf, len, "the %d repeats differ beyond their CIs, in two groups: %s, %s",
			 j->n, a, b);
		return;
	}
	snprintf(lo, sizeof(lo), fmt, j->lo);
	snprintf(hi, sizeof(hi), fmt, j->hi);
	snprintf(buf, len, "the %d repeats differ beyond their CIs, over %s-%s %s, not as two groups",
		 j->n, lo, hi, unit);
}
