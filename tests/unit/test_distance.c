// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_distance.c - the analysis behind "pagehop slit": normalisation,
 * levels, ordering, asymmetry and the verdicts, on matrices whose answers
 * are worked out by hand in the comments (and in docs/slit.md).
 */
#include "unit.h"

#include "distance.h"
#include "distance_data.h"
#include "util.h"
#include "verdict.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- normalisation ---- */

static void test_normalise_latency(void **state)
{
	const double l[] = { 100, 150, 160, 80 };
	struct ph_nmatrix *m = square(PH_METRIC_LATENCY, 2, l);
	struct ph_dmatrix d;

	(void)state;
	/* 10 * 150 / 100 = 15; 10 * 160 / 80 = 20. */
	assert_int_equal(dist_normalise(m, NULL, 0, &d), 0);
	assert_near(d.d[0], 10, 1e-12);
	assert_near(d.d[1], 15, 1e-12);
	assert_near(d.d[2], 20, 1e-12);
	assert_near(d.d[3], 10, 1e-12);
	assert_int_equal(d.ref[0], 0);
	assert_int_equal(d.ref_how[1], PH_LOCAL_OWN);
	dmatrix_free(&d);

	/*
	 * Noise 10%: lo = 10 * 150 * 0.9 / (100 * 1.1) = 12.2727,
	 * hi = 10 * 150 * 1.1 / (100 * 0.9) = 18.3333; within the row the
	 * local is a point: 13.5 .. 16.5.  The local itself is exactly 10.
	 */
	assert_int_equal(dist_normalise(m, NULL, 0.1, &d), 0);
	assert_near(d.lo[1], 12.272727, 1e-6);
	assert_near(d.hi[1], 18.333333, 1e-6);
	assert_near(d.rlo[1], 13.5, 1e-9);
	assert_near(d.rhi[1], 16.5, 1e-9);
	assert_near(d.lo[0], 10, 0);
	assert_near(d.hi[0], 10, 0);
	assert_near(d.rlo[0], 9, 1e-9);
	assert_near(d.rhi[0], 11, 1e-9);
	dmatrix_free(&d);
	nmatrix_free(m);
}

static void test_normalise_bandwidth(void **state)
{
	struct ph_nmatrix *m = square(PH_METRIC_BANDWIDTH, 2, intel_bw);
	struct ph_dmatrix d;

	(void)state;
	/* 10 * 34.0 / 18.9 = 17.9894; 10 * 33.5 / 17.4 = 19.2529. */
	assert_int_equal(dist_normalise(m, NULL, 0.025, &d), 0);
	assert_near(d.d[1], 17.989418, 1e-6);
	assert_near(d.d[2], 19.252874, 1e-6);
	/* 10 * 34 * 0.975 / (18.9 * 1.025) and 10 * 34 * 1.025 / (18.9 * 0.975). */
	assert_near(d.lo[1], 17.111885, 1e-6);
	assert_near(d.hi[1], 18.911952, 1e-6);
	assert_near(d.lo[2], 18.313709, 1e-6);
	assert_near(d.hi[2], 20.240200, 1e-6);
	dmatrix_free(&d);
	nmatrix_free(m);
}

static void test_normalise_ci(void **state)
{
	const double l[] = { 100, 200, 200, 100 };
	struct ph_nmatrix *m = square(PH_METRIC_LATENCY, 2, l);
	struct ph_dmatrix d;

	(void)state;
	/* A CI wider than the noise floor is used as is: 10 * 180 / 102.5, 10 * 220 / 97.5. */
	m->ci_lo[1] = 180;
	m->ci_hi[1] = 220;
	/* A narrower one is widened to the floor: 10 * 195 / 102.5. */
	m->ci_lo[2] = 199;
	m->ci_hi[2] = 201;
	assert_int_equal(dist_normalise(m, NULL, 0.025, &d), 0);
	assert_near(d.lo[1], 17.560976, 1e-6);
	assert_near(d.hi[1], 22.564103, 1e-6);
	assert_near(d.lo[2], 19.024390, 1e-6);
	assert_near(d.hi[2], 21.025641, 1e-6);
	dmatrix_free(&d);
	nmatrix_free(m);
}

static void test_normalise_missing(void **state)
{
	const double l[] = { NAN, 150, 120, 100, 80, NAN, NAN, NAN, NAN };
	const int ids[] = { 0, 1, 2 };
	struct ph_nmatrix *m = nmatrix_new(PH_METRIC_LATENCY, 3, ids, 3, ids);
	struct ph_dmatrix d;

	(void)state;
	memcpy(m->val, l, sizeof(l));
	/*
	 * Row 0 lost its local cell: without a SLIT the fastest measured
	 * column (node 2, 120 ns) is its 10.  Row 2 has nothing: no reference.
	 */
	assert_int_equal(dist_normalise(m, NULL, 0.025, &d), 0);
	assert_int_equal(d.ref[0], 2);
	assert_int_equal(d.ref_how[0], PH_LOCAL_FASTEST);
	assert_near(d.d[1], 12.5, 1e-9);
	assert_true(isnan(d.d[0]));
	assert_int_equal(d.ref[2], -1);
	assert_near(d.d[3], 12.5, 1e-9);	/* 10 * 100 / 80 */
	assert_true(isnan(d.d[5]));
	dmatrix_free(&d);

	/* Nothing usable anywhere: nothing to normalise. */
	for (int i = 0; i < 9; i++)
		m->val[i] = NAN;
	assert_int_equal(dist_normalise(m, NULL, 0.025, &d), -EINVAL);
	dmatrix_free(&d);
	nmatrix_free(m);
}

/* ---- levels ---- */

static void test_levels_intel_one_remote(void **state)
{
	struct ph_nmatrix *m = square(PH_METRIC_BANDWIDTH, 2, intel_bw);
	struct ph_dmatrix d;
	struct ph_levels l;

	(void)state;
	/* 17.11..18.91 and 18.31..20.24 overlap: one remote level. */
	dist_normalise(m, NULL, 0.025, &d);
	levels_measured(&d, &l);
	assert_int_equal(l.n, 2);
	assert_int_equal(l.nremote, 1);
	assert_int_equal(l.cell[0], 0);
	assert_int_equal(l.cell[1], 1);
	assert_int_equal(l.cell[2], 1);
	assert_int_equal(l.cell[3], 0);
	assert_near(l.lv[1].mean, (17.989418 + 19.252874) / 2, 1e-6);
	levels_free(&l);
	dmatrix_free(&d);

	/*
	 * The two differ by 7.0%: they are one level while
	 * ((1 + e) / (1 - e))^2 >= 1.0703, i.e. e >= 1.70%; at 1.5% they split.
	 */
	dist_normalise(m, NULL, 0.015, &d);
	levels_measured(&d, &l);
	assert_int_equal(l.n, 3);
	levels_free(&l);
	dmatrix_free(&d);
	nmatrix_free(m);
}

static void test_levels_amd_three_remote(void **state)
{
	struct ph_nmatrix *m = square(PH_METRIC_BANDWIDTH, 4, amd_bw);
	struct ph_dmatrix d;
	struct ph_levels l;
	/* Level of each cell: near pairs {0,1} {2,3}, then {0,2} {1,3}, then {0,3} {1,2}. */
	static const int want[] = {
		0, 1, 2, 3,
		1, 0, 3, 2,
		2, 3, 0, 1,
		3, 2, 1, 0,
	};

	(void)state;
	dist_normalise(m, NULL, 0.025, &d);
	levels_measured(&d, &l);
	assert_int_equal(l.n, 4);
	assert_int_equal(l.nremote, 3);
	for (int k = 0; k < 16; k++)
		assert_int_equal(l.cell[k], want[k]);
	/* Means: (15.3390 + 15.8475 + 15.6780 + 15.9483) / 4 and so on. */
	assert_near(l.lv[1].mean, 15.703171, 1e-6);
	assert_near(l.lv[2].mean, 28.384615, 1e-6);
	assert_near(l.lv[3].mean, 33.248377, 1e-6);
	assert_near(l.lv[2].max, 28.769231, 1e-6);	/* 10 * 18.7 / 6.5 */
	assert_near(l.lv[3].min, 32.321429, 1e-6);	/* 10 * 18.1 / 5.6 */
	assert_int_equal(l.lv[1].n, 4);
	assert_true(l.lv[0].has_local);
	assert_false(l.lv[1].has_local);
	levels_free(&l);
	dmatrix_free(&d);

	/*
	 * The gap 28.77 -> 32.32 is 12.35%: the levels stay apart while
	 * ((1 + e) / (1 - e))^2 < 1.1235, i.e. e < 2.91%; at 3.5% they merge.
	 */
	dist_normalise(m, NULL, 0.035, &d);
	levels_measured(&d, &l);
	assert_int_equal(l.n, 3);
	assert_int_equal(l.nremote, 2);
	levels_free(&l);
	dmatrix_free(&d);
	nmatrix_free(m);
}

static void test_levels_slit(void **state)
{
	struct ph_nmatrix *m = square(PH_METRIC_LATENCY, 4, flat_lat);
	struct ph_slit *s = slit_square(4, guest_slit), *s11 = slit_square(4, guest11_slit);
	struct ph_dmatrix d;
	struct ph_levels l;

	(void)state;
	dist_normalise(m, NULL, 0.025, &d);
	levels_slit(&d, s, 0.15, &l);
	assert_int_equal(l.n, 3);
	assert_int_equal(l.nremote, 2);
	assert_int_equal(l.cell[1], 1);		/* 16 */
	assert_int_equal(l.cell[2], 2);		/* 22 */
	assert_int_equal(l.lv[2].n, 8);
	levels_free(&l);

	/* 11 is within 15% of 10: one level.  Within 5% it is not. */
	levels_slit(&d, s11, 0.15, &l);
	assert_int_equal(l.n, 1);
	assert_int_equal(l.nremote, 0);
	levels_free(&l);
	levels_slit(&d, s11, 0.05, &l);
	assert_int_equal(l.n, 2);
	levels_free(&l);
	dmatrix_free(&d);
	slit_free(s);
	slit_free(s11);
	nmatrix_free(m);
}

static void test_levels_slit_pairwise(void **state)
{
	/* Distinct SLIT values 10, 11, 12, 13 in one row, 14 in the next. */
	const int v[] = { 10, 11, 12, 13, 11, 10, 14, 13, 12, 14, 10, 11, 13, 13, 11, 10 };
	struct ph_nmatrix *m = square(PH_METRIC_LATENCY, 4, flat_lat);
	struct ph_slit *s = slit_square(4, v);
	struct ph_dmatrix d;
	struct ph_levels l;

	(void)state;
	/*
	 * Anchored at a level's smallest value: 10, 11 (<= 11.5); 12 opens a
	 * level, 13 (<= 13.8) joins it, 14 (> 13.8) opens a third.  A chain
	 * 10-11-12-13-14 of 10% steps is not one level.
	 */
	dist_normalise(m, NULL, 0.025, &d);
	levels_slit(&d, s, 0.15, &l);
	assert_int_equal(l.n, 3);
	assert_int_equal(l.cell[1], 0);		/* 11 */
	assert_int_equal(l.cell[2], 1);		/* 12 */
	assert_int_equal(l.cell[3], 1);		/* 13 */
	assert_int_equal(l.cell[6], 2);		/* 14 */
	levels_free(&l);
	dmatrix_free(&d);
	slit_free(s);
	nmatrix_free(m);
}

/* ---- ordering, magnitude, asymmetry ---- */

static void test_ordering(void **state)
{
	/*
	 * Row 0: the SLIT puts node 1 (15) nearer than node 2 (20), the
	 * measurement 200 ns against 150: within the row, 19.5 .. 20.5
	 * against 14.625 .. 15.375 -- a violation.
	 * Row 1: SLIT 15 < 20 for nodes 0 and 2, measured 151 against 149:
	 * 14.72 .. 15.48 overlaps 14.53 .. 15.27 -- within the noise, none.
	 * Row 2: measured in the SLIT's order.
	 */
	const double l[] = { 100, 200, 150, 151, 100, 149, 200, 150, 100 };
	const int sv[] = { 10, 15, 20, 15, 10, 20, 20, 15, 10 };
	struct ph_nmatrix *m = square(PH_METRIC_LATENCY, 3, l);
	struct ph_slit *s = slit_square(3, sv);
	struct ph_dmatrix d;
	struct ph_violation *v;

	(void)state;
	dist_normalise(m, s, 0.025, &d);
	assert_int_equal(ordering_violations(&d, s, &v), 1);
	assert_int_equal(v[0].row, 0);
	assert_int_equal(v[0].near, 1);
	assert_int_equal(v[0].far, 2);
	assert_int_equal(v[0].slit_near, 15);
	assert_int_equal(v[0].slit_far, 20);
	assert_near(d.rlo[1], 19.5, 1e-9);
	assert_near(d.rhi[2], 15.375, 1e-9);
	free(v);
	dmatrix_free(&d);
	slit_free(s);
	nmatrix_free(m);
}

static void test_asymmetry(void **state)
{
	const double a[] = { 100, 140, 150, 100 };
	const double b[] = { 100, 140, 143, 100 };
	struct ph_nmatrix *m = square(PH_METRIC_LATENCY, 2, a);
	struct ph_dmatrix d;
	struct ph_asymmetry *x;

	(void)state;
	/* 136.5 .. 143.5 against 146.25 .. 153.75: beyond.  |140 - 150| / 140. */
	dist_normalise(m, NULL, 0.025, &d);
	assert_int_equal(asymmetry_check(m, &d, 0.025, &x), 1);
	assert_int_equal(x[0].a, 0);
	assert_int_equal(x[0].b, 1);
	assert_near(x[0].diff, 10, 1e-9);
	assert_near(x[0].rel, 10.0 / 140, 1e-9);
	assert_true(x[0].beyond);
	assert_near(x[0].d_ab, 14, 1e-9);
	assert_near(x[0].d_ba, 15, 1e-9);
	free(x);

	/* A wide CI on one side swallows the difference. */
	m->ci_lo[1] = 130;
	m->ci_hi[1] = 150;
	assert_int_equal(asymmetry_check(m, &d, 0.025, &x), 1);
	assert_false(x[0].beyond);
	free(x);
	dmatrix_free(&d);
	nmatrix_free(m);

	/* 136.5 .. 143.5 against 139.425 .. 146.575: within. */
	m = square(PH_METRIC_LATENCY, 2, b);
	dist_normalise(m, NULL, 0.025, &d);
	assert_int_equal(asymmetry_check(m, &d, 0.025, &x), 1);
	assert_false(x[0].beyond);
	free(x);
	dmatrix_free(&d);
	nmatrix_free(m);
}

static void test_tolerance(void **state)
{
	const double l[] = { 100, 200, 200, 100 };
	const double l23[] = { 100, 230, 230, 100 };
	const int s17[] = { 10, 17, 17, 10 }, s20[] = { 10, 20, 20, 10 };
	struct ph_nmatrix *m = square(PH_METRIC_LATENCY, 2, l);
	struct ph_slit *s = slit_square(2, s17);
	struct ph_dist_opts o = defaults;
	struct ph_analysis a;

	(void)state;
	/* 20 against 17: +17.6%, outside 15%; in order, levels 2 and 2: exit 3. */
	assert_int_equal(analysis_run(m, s, &o, &a), 0);
	assert_int_equal(a.nmag, 2);
	assert_int_equal(a.nmag_out, 2);
	assert_near(a.mag[0].rel_err, 3.0 / 17, 1e-9);
	assert_false(a.mag[0].within);
	assert_int_equal(a.verdict, PH_VERDICT_MAGNITUDE);
	assert_int_equal(verdict_exit(a.verdict), 3);
	analysis_free(&a);

	/* With --tolerance 18 it is within. */
	o.tolerance = 0.18;
	assert_int_equal(analysis_run(m, s, &o, &a), 0);
	assert_int_equal(a.verdict, PH_VERDICT_CONSISTENT);
	assert_int_equal(verdict_exit(a.verdict), 0);
	analysis_free(&a);
	nmatrix_free(m);
	slit_free(s);

	/* 23 against 20 is exactly 15%: within (the bound is inclusive). */
	m = square(PH_METRIC_LATENCY, 2, l23);
	s = slit_square(2, s20);
	o.tolerance = 0.15;
	assert_int_equal(analysis_run(m, s, &o, &a), 0);
	assert_near(a.mag[0].rel_err, 0.15, 1e-12);
	assert_true(a.mag[0].within);
	assert_int_equal(a.verdict, PH_VERDICT_CONSISTENT);
	analysis_free(&a);
	nmatrix_free(m);
	slit_free(s);
}

/* ---- verdicts on the known answers ---- */

static void test_verdict_intel(void **state)
{
	struct ph_nmatrix *m = square(PH_METRIC_BANDWIDTH, 2, intel_bw);
	struct ph_slit *s = slit_square(2, intel_slit);
	struct ph_analysis a;

	(void)state;
	assert_int_equal(analysis_run(m, s, &defaults, &a), 0);
	assert_int_equal(a.measured.n, 2);
	assert_int_equal(a.slit.n, 2);
	assert_int_equal(a.nviol, 0);
	assert_int_equal(a.nlevel_cells_differ, 0);
	/* (17.9894 - 21) / 21 = -14.34%, (19.2529 - 21) / 21 = -8.32%. */
	assert_near(a.mag[0].rel_err, -0.143361, 1e-6);
	assert_near(a.mag[1].rel_err, -0.083196, 1e-6);
	assert_int_equal(a.nmag_out, 0);
	assert_int_equal(a.verdict, PH_VERDICT_CONSISTENT);
	/* 18.9 .. against 17.4: 18.4275 .. 19.3725 against 16.965 .. 17.835. */
	assert_int_equal(a.nasym_beyond, 1);
	analysis_free(&a);
	slit_free(s);
	nmatrix_free(m);
}

static void test_verdict_amd(void **state)
{
	struct ph_nmatrix *m = square(PH_METRIC_BANDWIDTH, 4, amd_bw);
	struct ph_slit *s = slit_square(4, amd_slit);
	struct ph_analysis a;

	(void)state;
	assert_int_equal(analysis_run(m, s, &defaults, &a), 0);
	assert_int_equal(a.measured.n, 4);
	assert_int_equal(a.measured.nremote, 3);
	assert_int_equal(a.slit.n, 2);
	assert_int_equal(a.slit.nremote, 1);
	/* All remote SLIT entries equal: the SLIT orders nothing but local first. */
	assert_int_equal(a.nviol, 0);
	/* Within 15% of 16 means 13.6 .. 18.4: the four near cells only. */
	assert_int_equal(a.nmag, 12);
	assert_int_equal(a.nmag_out, 8);
	assert_int_equal(a.verdict, PH_VERDICT_INCONSISTENT);
	assert_int_equal(verdict_exit(a.verdict), 1);
	analysis_free(&a);
	slit_free(s);
	nmatrix_free(m);
}

static void test_verdict_flat(void **state)
{
	struct ph_nmatrix *m = square(PH_METRIC_LATENCY, 4, flat_lat);
	struct ph_slit *s = slit_square(4, guest_slit), *s11 = slit_square(4, guest11_slit);
	struct ph_analysis a;

	(void)state;
	/* Every remote interval holds 10: one level against the SLIT's three. */
	assert_int_equal(analysis_run(m, s, &defaults, &a), 0);
	assert_int_equal(a.measured.n, 1);
	assert_int_equal(a.slit.n, 3);
	assert_int_equal(a.nviol, 0);
	assert_int_equal(a.verdict, PH_VERDICT_INCONSISTENT);
	analysis_free(&a);

	/* Against 10 and 11: one level each, 10 against 11 is -9%: consistent. */
	assert_int_equal(analysis_run(m, s11, &defaults, &a), 0);
	assert_int_equal(a.measured.n, 1);
	assert_int_equal(a.slit.n, 1);
	assert_int_equal(a.nlevel_cells_differ, 0);
	assert_int_equal(a.nmag_out, 0);
	assert_int_equal(a.verdict, PH_VERDICT_CONSISTENT);
	analysis_free(&a);

	/* No SLIT: nothing compared, exit 0. */
	assert_int_equal(analysis_run(m, NULL, &defaults, &a), 0);
	assert_int_equal(a.verdict, PH_VERDICT_UNCOMPARED);
	assert_int_equal(verdict_exit(a.verdict), 0);
	analysis_free(&a);
	slit_free(s);
	slit_free(s11);
	nmatrix_free(m);
}

static void test_level_membership(void **state)
{
	/*
	 * Three levels each side, but the measurement swaps which pairs are
	 * near: SLIT 0-1 at 16, measured 0-1 at 22 and 0-2 at 16.  Rows 0 and
	 * 1 also break the SLIT's order beyond the noise.
	 */
	const double l[] = {
		100, 220, 160, 220,
		220, 100, 220, 160,
		160, 220, 100, 220,
		220, 160, 220, 100,
	};
	struct ph_nmatrix *m = square(PH_METRIC_LATENCY, 4, l);
	struct ph_slit *s = slit_square(4, guest_slit);
	struct ph_analysis a;

	(void)state;
	assert_int_equal(analysis_run(m, s, &defaults, &a), 0);
	assert_int_equal(a.measured.n, 3);
	assert_int_equal(a.slit.n, 3);
	/* Cells 0>1 1>0 2>3 3>2 (16 -> 22) and 0>2 2>0 1>3 3>1 (22 -> 16). */
	assert_int_equal(a.nlevel_cells_differ, 8);
	/* Each row: the SLIT's near node is measured farther than one far node. */
	assert_int_equal(a.nviol, 4);
	assert_int_equal(a.verdict, PH_VERDICT_INCONSISTENT);
	analysis_free(&a);
	slit_free(s);
	nmatrix_free(m);
}

static void test_metric_names(void **state)
{
	(void)state;
	assert_int_equal(metric_parse("latency_ns"), PH_METRIC_LATENCY);
	assert_int_equal(metric_parse("bandwidth_GBps"), PH_METRIC_BANDWIDTH);
	assert_int_equal(metric_parse("distance"), PH_METRIC_DISTANCE);
	assert_int_equal(metric_parse("latency"), 0);
	assert_string_equal(metric_name(PH_METRIC_BANDWIDTH), "bandwidth_GBps");
}

/*
 * Each verdict's exit status, as pagehop(1) lists them: 0 consistent or not
 * compared, 1 inconsistent, 3 in order but outside the tolerance; each a
 * named constant.
 */
static void test_verdict_exit_codes(void **state)
{
	(void)state;
	assert_int_equal(PH_EXIT_MAGNITUDE, 3);
	assert_int_equal(verdict_exit(PH_VERDICT_CONSISTENT), PH_EXIT_OK);
	assert_int_equal(verdict_exit(PH_VERDICT_UNCOMPARED), PH_EXIT_OK);
	assert_int_equal(verdict_exit(PH_VERDICT_INCONSISTENT), PH_EXIT_FAIL);
	assert_int_equal(verdict_exit(PH_VERDICT_MAGNITUDE), PH_EXIT_MAGNITUDE);
	assert_int_equal(verdict_exit(PH_VERDICT_INCONSISTENT), 1);
	assert_string_equal(verdict_status(PH_VERDICT_CONSISTENT), "consistent");
	assert_string_equal(verdict_status(PH_VERDICT_INCONSISTENT), "inconsistent");
	assert_string_equal(verdict_status(PH_VERDICT_MAGNITUDE), "outside tolerance");
	assert_string_equal(verdict_status(PH_VERDICT_UNCOMPARED), "not compared");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_normalise_latency),
		cmocka_unit_test(test_normalise_bandwidth),
		cmocka_unit_test(test_normalise_ci),
		cmocka_unit_test(test_normalise_missing),
		cmocka_unit_test(test_levels_intel_one_remote),
		cmocka_unit_test(test_levels_amd_three_remote),
		cmocka_unit_test(test_levels_slit),
		cmocka_unit_test(test_levels_slit_pairwise),
		cmocka_unit_test(test_ordering),
		cmocka_unit_test(test_asymmetry),
		cmocka_unit_test(test_tolerance),
		cmocka_unit_test(test_verdict_intel),
		cmocka_unit_test(test_verdict_amd),
		cmocka_unit_test(test_verdict_flat),
		cmocka_unit_test(test_level_membership),
		cmocka_unit_test(test_metric_names),
		cmocka_unit_test(test_verdict_exit_codes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
