// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_stats.c - order statistics against values computed by hand from the
 * binomial distribution (ranks) and small sample sets.
 */
#include "unit.h"
#include "stats.h"

#include <math.h>

static void test_ranks(void **state)
{
	/* n, j, k: hand-computed from Bin(n, 1/2):
	 * n=6:  P(B<=0) = 1/64 = 0.0156 <= 0.025, P(B<=1) = 7/64 > 0.025 -> 1, 6
	 * n=10: P(B<=1) = 11/1024 = 0.0107, P(B<=2) = 56/1024 = 0.0547 -> 2, 9
	 * n=20: P(B<=5) = 21700/2^20 = 0.0207, P(B<=6) = 60460/2^20 = 0.0577 -> 6, 15
	 * n=100: P(B<=39) = 0.0176, P(B<=40) = 0.0284 -> 40, 61 */
	static const size_t cases[][3] = { { 6, 1, 6 }, { 10, 2, 9 }, { 20, 6, 15 }, { 100, 40, 61 } };
	size_t j, k;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_true(stats_median_ci_ranks(cases[i][0], &j, &k));
		assert_int_equal(j, cases[i][1]);
		assert_int_equal(k, cases[i][2]);
	}
	/* n=5: P(B<=0) = 1/32 > 0.025: no interval. */
	assert_false(stats_median_ci_ranks(5, &j, &k));
	assert_false(stats_median_ci_ranks(0, &j, &k));
	/* Large n: normal approximation, 10000 -> floor(5000 - 98) = 4902. */
	assert_true(stats_median_ci_ranks(10000, &j, &k));
	assert_int_equal(j, 4902);
	assert_int_equal(k, 5099);
	/* The exact and approximate rules meet without a jump at 1000/1001. */
	assert_true(stats_median_ci_ranks(1000, &j, &k));
	assert_true(j >= 468 && j <= 470);
}

static void test_small(void **state)
{
	const double s5[] = { 5, 1, 4, 2, 3 };
	const double s10[] = { 10, 9, 8, 7, 6, 5, 4, 3, 2, 1 };
	struct ph_stats st;

	(void)state;
	stats_compute(s5, 5, &st);
	assert_int_equal(st.n, 5);
	assert_true(st.min == 1 && st.max == 5 && st.median == 3 && st.mean == 3);
	assert_true(isnan(st.ci_lo) && isnan(st.ci_hi) && isinf(st.ci_rel));

	stats_compute(s10, 10, &st);
	assert_true(st.median == 5.5);
	assert_true(st.ci_lo == 2 && st.ci_hi == 9);
	assert_true(fabs(st.ci_rel - 7.0 / 2 / 5.5) < 1e-12);
	/* The input is not reordered. */
	assert_true(s10[0] == 10 && s10[9] == 1);

	stats_compute(NULL, 0, &st);
	assert_true(isnan(st.median));
}

/* Median and MAD by hand: sorted, then the deviations from the median sorted. */
static void test_median_mad(void **state)
{
	double odd[] = { 10, 12, 11, 30, 9 };	/* 9 10 11 12 30: 11; |dev| 0 1 1 1 19: 1 */
	double even[] = { 4, 1, 3, 2 };		/* 2.5; |dev| 0.5 0.5 1.5 1.5: 1 */
	double one[] = { 7 }, mad = 0;

	(void)state;
	assert_true(stats_median_mad(odd, 5, &mad) == 11 && mad == 1);
	assert_true(stats_median_mad(even, 4, &mad) == 2.5 && mad == 1);
	assert_true(stats_median_mad(one, 1, &mad) == 7 && mad == 0);
	assert_true(isnan(stats_median_mad(NULL, 0, &mad)) && isnan(mad));
}

/*
 * The outlier rule on median 11, MAD 1, k 3: k robust sigmas are
 * 3 * 1.4826 = 4.4478 from the median, so 6.5523 .. 15.4478 never strays.
 */
static void test_strays(void **state)
{
	(void)state;
	assert_true(stats_strays(30, 11, 1, 3, 0.1));	/* 19 > 4.4478, 19/11 > 0.1 */
	assert_true(stats_strays(16, 11, 1, 3, 0.1));	/* 5 > 4.4478, 5/11 = 0.45 > 0.1 */
	assert_true(stats_strays(6, 11, 1, 3, 0.1));	/* below the median as above it */
	assert_false(stats_strays(15, 11, 1, 3, 0.1));	/* 4 < 4.4478: within the sigmas */
	assert_false(stats_strays(16, 11, 1, 3, 0.5));	/* 5/11 = 0.45 < 0.5: within the tolerance */
	assert_false(stats_strays(11, 11, 1, 0, 0));	/* on the median: strays by nothing */
	/* MAD 0 (most of the group equal): the tolerance alone decides. */
	assert_true(stats_strays(11.5, 11, 0, 3, 0.01));	/* 0.5/11 = 0.045 */
	assert_false(stats_strays(11.5, 11, 0, 3, 0.05));
	assert_false(stats_strays(11, 10, 0, 3, 0.1));	/* 1/10 is the tolerance itself: not beyond */
	/* No tolerance, no median above 0, no value: never. */
	assert_false(stats_strays(30, 11, 1, 3, NAN));
	assert_false(stats_strays(-5, 0, 1, 3, 0.1));
	assert_false(stats_strays(-5, -1, 1, 3, 0.1));
	assert_false(stats_strays(NAN, 11, 1, 3, 0.1));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ranks),
		cmocka_unit_test(test_small),
		cmocka_unit_test(test_median_mad),
		cmocka_unit_test(test_strays),
	};

	return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}
