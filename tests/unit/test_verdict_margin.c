// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_verdict_margin.c - the margin of the verdict on the shared data
 * sets, against values worked out by hand:
 *
 * Intel E5-2643 (bandwidth, SLIT 10/21): D(0>1) = 10 x 34.0 / 18.9 =
 * 17.989, error (17.989 - 21) / 21 = -14.34%, 0.66 points inside 15%;
 * D(1>0) = 10 x 33.5 / 17.4 = 19.253.  Without CIs the two remote cells
 * are one level while (19.253 / 17.989) <= ((1 + e) / (1 - e))^2, i.e.
 * e >= (s - 1) / (s + 1) with s = sqrt(1.07027) = 1.034539: e >= 1.6976%;
 * below, 3 measured levels against the SLIT's 2: inconsistent.  The
 * remote level joins the local one when 17.989 (1 - e) / (1 + e) <= 10:
 * e >= (1 - 0.555882) / (1 + 0.555882) = 28.544%: inconsistent again.
 *
 * AMD 6220 (SLIT 10/16): inconsistent by levels (4 measured, 2 in the
 * SLIT) at every noise from 0 to 50%: no deciding magnitude cell.
 */
#include "unit.h"

#include "distance.h"
#include "read_input.h"
#include "read_numactl.h"
#include "verdict.h"
#include "verdict_margin.h"

#include <math.h>

static void margin_of(const char *input, const char *slit_path, struct ph_margin *g,
		      enum ph_verdict *v)
{
	struct ph_dist_opts o = { PH_DEFAULT_TOLERANCE_PCT / 100.0, PH_DEFAULT_NOISE_PCT / 100.0, PH_PROPOSE_LEVELS };
	struct ph_analysis a;
	struct ph_slit *slit;
	struct ph_input in;
	char err[512];

	assert_int_equal(input_load(input, PH_FIGURE_DEFAULT, &in, err, sizeof(err)), 0);
	assert_int_equal(slit_load_numactl(slit_path, &slit, err, sizeof(err)), 0);
	assert_int_equal(analysis_run(in.m, slit, &o, &a), 0);
	*v = a.verdict;
	verdict_margin(in.m, slit, &a, g);
	analysis_free(&a);
	slit_free(slit);
	input_free(&in);
}

static void test_intel(void **state)
{
	struct ph_margin g;
	enum ph_verdict v;

	(void)state;
	margin_of("tests/data/shared/intel-e5-2643-2node.matrix.csv",
		  "tests/data/shared/intel-e5-2643-2node.numactl.txt", &g, &v);
	assert_int_equal(v, PH_VERDICT_CONSISTENT);
	assert_true(g.have_cell);
	assert_int_equal(g.row_id, 0);
	assert_int_equal(g.col_id, 1);
	assert_float_equal(g.rel_err, (340.0 / 18.9 - 21) / 21, 1e-9);
	assert_float_equal(g.points, 15 - 100 * fabs((340.0 / 18.9 - 21) / 21), 1e-9);
	assert_true(g.have_noise);
	assert_float_equal(g.noise_lo, (sqrt(335.0 / 17.4 / (340.0 / 18.9)) - 1) /
			   (sqrt(335.0 / 17.4 / (340.0 / 18.9)) + 1), 1e-4);
	assert_int_equal(g.lo_verdict, PH_VERDICT_INCONSISTENT);
	assert_float_equal(g.noise_hi, (1 - 10 / (340.0 / 18.9)) / (1 + 10 / (340.0 / 18.9)), 1e-4);
	assert_int_equal(g.hi_verdict, PH_VERDICT_INCONSISTENT);
}

static void test_amd(void **state)
{
	struct ph_margin g;
	enum ph_verdict v;

	(void)state;
	margin_of("tests/data/shared/amd-6220-4node.matrix.csv",
		  "tests/data/shared/amd-6220-4node.numactl.txt", &g, &v);
	assert_int_equal(v, PH_VERDICT_INCONSISTENT);
	assert_false(g.have_cell);
	assert_true(g.have_noise);
	assert_float_equal(g.noise_lo, 0, 0);
	assert_float_equal(g.noise_hi, 0.5, 0);
	assert_int_equal(g.lo_verdict, 0);
	assert_int_equal(g.hi_verdict, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_intel),
		cmocka_unit_test(test_amd),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
