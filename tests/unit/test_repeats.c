// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_repeats.c - the judgement of a figure's repeats against values
 * worked out by hand.
 *
 * Two runs, 50 [49.5, 50.5] and 250 [247, 253]: 50.5 < 247, disjoint;
 * spread 200, median of the two (the lower middle) 50, spread 400%.
 * Three runs 100 [99, 101], 100.5 [99.8, 101.2], 101.5 [100.5, 102.5]:
 * every two overlap (101 >= 100.5): agree, spread 1.5, 1.5% of 100.5.
 * Five runs 50, 51, 52 (CIs +-1.5) and 250, 252 (CIs +-3): the low three
 * share [50.5, 51.5], the high two [249, 253], 53.5 < 247: bimodal,
 * groups 3 at 50-52 and 2 at 250-252, median 52.
 * Three runs 47.04 [46.8, 47.3], 48.9 [48.6, 49.5], 49.66 [49.3, 50.0]:
 * 47.3 < 48.6, so they differ, and {47.04} | {48.9, 49.66} is a split
 * (the high two share [49.3, 49.5]), but 48.9 - 47.04 = 1.86 is below
 * 0.25 x 47.04 = 11.76: not bimodal.  Groups at 40 and 50 are exactly
 * 0.25 x 40 = 10 apart: bimodal; at 40 and 49.9, not.
 */
#include "unit.h"

#include "repeats.h"

#include <math.h>

static void test_two_differ(void **state)
{
	const struct ph_rep r[] = { { 250, 247, 253 }, { 50, 49.5, 50.5 } };
	struct ph_repeats j;

	(void)state;
	repeats_judge(r, 2, &j);
	assert_int_equal(j.n, 2);
	assert_int_equal(j.between, PH_BETWEEN_DIFFER);
	assert_string_equal(repeats_between_name(j.between), "differ");
	assert_float_equal(j.lo, 50, 1e-12);
	assert_float_equal(j.hi, 250, 1e-12);
	assert_float_equal(j.spread, 200, 1e-12);
	assert_float_equal(j.median, 50, 1e-12);
	assert_int_equal(j.pick, 1);
	assert_float_equal(j.spread_pct, 400, 1e-9);
	/* Two runs apart are two groups of one. */
	assert_true(j.bimodal);
	assert_int_equal(j.group[0].n, 1);
	assert_int_equal(j.group[1].n, 1);
	assert_true(repeats_disjoint(&r[0], &r[1]));
}

static void test_agree(void **state)
{
	const struct ph_rep r[] = { { 100.5, 99.8, 101.2 }, { 100, 99, 101 }, { 101.5, 100.5, 102.5 } };
	struct ph_repeats j;

	(void)state;
	repeats_judge(r, 3, &j);
	assert_int_equal(j.between, PH_BETWEEN_AGREE);
	assert_false(j.bimodal);
	assert_float_equal(j.spread, 1.5, 1e-12);
	assert_float_equal(j.median, 100.5, 1e-12);
	assert_int_equal(j.pick, 0);
	assert_float_equal(j.spread_pct, 100 * 1.5 / 100.5, 1e-9);
	/* Intervals that only touch share a point. */
	{
		const struct ph_rep t[] = { { 10, 9, 11 }, { 12, 11, 13 } };

		repeats_judge(t, 2, &j);
		assert_int_equal(j.between, PH_BETWEEN_AGREE);
	}
}

static void test_bimodal(void **state)
{
	const struct ph_rep r[] = {
		{ 250, 247, 253 }, { 51, 49.5, 52.5 }, { 50, 48.5, 51.5 },
		{ 252, 249, 255 }, { 52, 50.5, 53.5 },
	};
	struct ph_repeats j;

	(void)state;
	repeats_judge(r, 5, &j);
	assert_int_equal(j.n, 5);
	assert_int_equal(j.between, PH_BETWEEN_DIFFER);
	assert_true(j.bimodal);
	assert_int_equal(j.group[0].n, 3);
	assert_float_equal(j.group[0].lo, 50, 1e-12);
	assert_float_equal(j.group[0].hi, 52, 1e-12);
	assert_int_equal(j.group[1].n, 2);
	assert_float_equal(j.group[1].lo, 250, 1e-12);
	assert_float_equal(j.group[1].hi, 252, 1e-12);
	assert_float_equal(j.median, 52, 1e-12);
	assert_int_equal(j.pick, 4);
	assert_float_equal(j.spread, 202, 1e-12);
}

/* Three runs each apart from the others: they differ, but no two groups agree within. */
static void test_spread_not_bimodal(void **state)
{
	const struct ph_rep r[] = { { 10, 9.9, 10.1 }, { 20, 19.9, 20.1 }, { 30, 29.9, 30.1 } };
	/* A low group that agrees, but whose top interval reaches the high one's. */
	const struct ph_rep s[] = { { 10, 9, 11 }, { 10.5, 9.5, 21 }, { 21, 20.5, 21.5 }, { 10.2, 9.2, 11.2 } };
	struct ph_repeats j;

	(void)state;
	repeats_judge(r, 3, &j);
	assert_int_equal(j.between, PH_BETWEEN_DIFFER);
	assert_false(j.bimodal);
	assert_float_equal(j.spread, 20, 1e-12);
	repeats_judge(s, 4, &j);
	assert_int_equal(j.between, PH_BETWEEN_DIFFER);
	assert_false(j.bimodal);
}

/* Groups apart beyond their CIs, but by a few percent: they differ, one figure with a spread. */
static void test_close_groups_not_bimodal(void **state)
{
	const struct ph_rep r[] = { { 47.04, 46.8, 47.3 }, { 48.9, 48.6, 49.5 }, { 49.66, 49.3, 50.0 } };
	const struct ph_rep at[] = { { 40, 39.5, 40.5 }, { 50, 49.5, 50.5 } };
	const struct ph_rep below[] = { { 40, 39.5, 40.5 }, { 49.9, 49.4, 50.4 } };
	struct ph_repeats j;

	(void)state;
	repeats_judge(r, 3, &j);
	assert_int_equal(j.between, PH_BETWEEN_DIFFER);
	assert_false(j.bimodal);
	assert_float_equal(j.spread, 49.66 - 47.04, 1e-12);
	repeats_judge(at, 2, &j);
	assert_true(j.bimodal);
	assert_float_equal(j.group[0].hi, 40, 1e-12);
	assert_float_equal(j.group[1].lo, 50, 1e-12);
	repeats_judge(below, 2, &j);
	assert_int_equal(j.between, PH_BETWEEN_DIFFER);
	assert_false(j.bimodal);
}

static void test_edges(void **state)
{
	const struct ph_rep one[] = { { 42, 41, 43 } };
	const struct ph_rep nan_ci[] = { { 42, 41, 43 }, { 42.5, NAN, NAN } };
	const struct ph_rep nan_differ[] = { { 42, 41, 43 }, { 80, 79, 81 }, { 60, NAN, NAN } };
	const struct ph_rep nan_median[] = { { NAN, NAN, NAN }, { 42, 41, 43 } };
	struct ph_repeats j;

	(void)state;
	repeats_judge(one, 1, &j);
	assert_int_equal(j.n, 1);
	assert_int_equal(j.between, PH_BETWEEN_ONE);
	assert_string_equal(repeats_between_name(j.between), "one");
	assert_false(j.bimodal);
	assert_float_equal(j.lo, 42, 1e-12);
	assert_float_equal(j.hi, 42, 1e-12);
	assert_float_equal(j.spread, 0, 1e-12);
	assert_int_equal(j.pick, 0);

	repeats_judge(nan_ci, 2, &j);
	assert_int_equal(j.between, PH_BETWEEN_UNKNOWN);
	assert_false(j.bimodal);
	assert_float_equal(j.spread, 0.5, 1e-12);
	assert_false(repeats_disjoint(&nan_ci[0], &nan_ci[1]));

	/* Disjoint where known; no groups while a repeat has no interval. */
	repeats_judge(nan_differ, 3, &j);
	assert_int_equal(j.between, PH_BETWEEN_DIFFER);
	assert_false(j.bimodal);
	assert_float_equal(j.median, 60, 1e-12);
	assert_int_equal(j.pick, 2);

	/* A repeat without a median is not counted. */
	repeats_judge(nan_median, 2, &j);
	assert_int_equal(j.n, 1);
	assert_int_equal(j.between, PH_BETWEEN_ONE);
	assert_int_equal(j.pick, 1);

	repeats_judge(NULL, 0, &j);
	assert_int_equal(j.n, 0);
	assert_int_equal(j.pick, -1);
	assert_true(isnan(j.lo) && isnan(j.spread));
	assert_int_equal(j.between, PH_BETWEEN_ONE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_differ),
		cmocka_unit_test(test_agree),
		cmocka_unit_test(test_bimodal),
		cmocka_unit_test(test_spread_not_bimodal),
		cmocka_unit_test(test_close_groups_not_bimodal),
		cmocka_unit_test(test_edges),
	};

	return cmocka_run_group_tests_name("repeats", tests, NULL, NULL);
}
