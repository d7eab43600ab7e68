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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ranks),
		cmocka_unit_test(test_small),
	};

	return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}
