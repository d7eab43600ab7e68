// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_dist.c - percentiles, log-spaced buckets and the percentile list,
 * against values worked out by hand in the comments.
 */
#include "unit.h"
#include "dist.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void test_percentile(void **state)
{
	const double ten[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
	const double four[] = { 10, 20, 40, 80 };
	const double one[] = { 7 };

	(void)state;
	/* n = 10, h = 9 p / 100: p50 h 4.5 -> 5 + 0.5 = 5.5; p90 h 8.1 -> 9.1;
	 * p99 h 8.91 -> 9.91; p99.9 h 8.991 -> 9.991; p100 -> 10; p0 -> 1. */
	assert_true(fabs(dist_percentile(ten, 10, 50) - 5.5) < 1e-12);
	assert_true(fabs(dist_percentile(ten, 10, 90) - 9.1) < 1e-12);
	assert_true(fabs(dist_percentile(ten, 10, 99) - 9.91) < 1e-12);
	assert_true(fabs(dist_percentile(ten, 10, 99.9) - 9.991) < 1e-12);
	assert_true(dist_percentile(ten, 10, 100) == 10);
	assert_true(dist_percentile(ten, 10, 0) == 1);
	/* n = 4, h = 3 p / 100: p25 h 0.75 -> 10 + 0.75 x 10 = 17.5; p50 h 1.5 -> 30. */
	assert_true(fabs(dist_percentile(four, 4, 25) - 17.5) < 1e-12);
	assert_true(fabs(dist_percentile(four, 4, 50) - 30) < 1e-12);
	assert_true(dist_percentile(one, 1, 99.9) == 7);
	assert_true(isnan(dist_percentile(NULL, 0, 50)));
}

static void test_percentile_ci(void **state)
{
	static double x[2000];
	double lo, hi;

	(void)state;
	for (size_t i = 0; i < 2000; i++)
		x[i] = (double)i;
	/* 10 runs beyond: 1000 for p99, 10000 for p99.9, 100 for p90 */
	assert_int_equal(dist_tail_runs(99), 1000);
	assert_int_equal(dist_tail_runs(99.9), 10000);
	assert_int_equal(dist_tail_runs(90), 100);
	/* n 1000, q 0.99: c 990, s = 1.96 sqrt(990 x 0.01) = 1.96 x 3.14643 =
	 * 6.1670; ranks floor(983.833) = 983 and ceil(996.167) = 997 */
	assert_int_equal(dist_percentile_ci(x, 1000, 99, &lo, &hi), 0);
	assert_true(lo == 983 && hi == 997);
	/* n 2000: c 1980, s = 1.96 sqrt(19.8) = 8.7215: 1971 and 1989 */
	assert_int_equal(dist_percentile_ci(x, 2000, 99, &lo, &hi), 0);
	assert_true(lo == 1971 && hi == 1989);
	/* n 100, q 0.9: c 90, s = 1.96 x 3 = 5.88: 84 and 96 */
	assert_int_equal(dist_percentile_ci(x, 100, 90, &lo, &hi), 0);
	assert_true(lo == 84 && hi == 96);
	/* 999 runs: one short of 10 beyond p99 */
	assert_int_equal(dist_percentile_ci(x, 999, 99, &lo, &hi), -ERANGE);
	assert_true(isnan(lo) && isnan(hi));
	assert_int_equal(dist_percentile_ci(x, 2000, 100, &lo, &hi), -ERANGE);
	assert_int_equal(dist_percentile_ci(x, 2000, 0, &lo, &hi), -ERANGE);
}

/*
 * Why no CI: too few runs beyond (999 for p99, which needs 1000), the
 * largest run (p100), and too few below: 11 runs are the 10 beyond p1
 * (10 / 0.99 = 10.1), but c = 0.11, s = 1.96 sqrt(0.11 x 0.99) = 0.647,
 * and the low rank floor(-0.537) = -1 is outside the samples.
 */
static void test_ci_why(void **state)
{
	double x[11] = { 0 }, lo, hi;
	char why[96];

	(void)state;
	assert_string_equal(dist_ci_why(999, 99, why, sizeof(why)),
			    "999 runs, p99 needs 1000 (10 beyond it) for a CI");
	assert_string_equal(dist_ci_why(5000, 99.9, why, sizeof(why)),
			    "5000 runs, p99.9 needs 10000 (10 beyond it) for a CI");
	assert_string_equal(dist_ci_why(2000, 100, why, sizeof(why)),
			    "p100 is the largest run, which has no CI");
	assert_int_equal(dist_tail_runs(1), 11);
	assert_int_equal(dist_percentile_ci(x, 11, 1, &lo, &hi), -ERANGE);
	assert_string_equal(dist_ci_why(11, 1, why, sizeof(why)), "11 runs, too few below p1 for a CI");
}

/*
 * The cluster bootstrap (dist_cluster_ci), on clusters whose outcome can
 * be told by hand whatever the draws.
 */
static void test_cluster_ci(void **state)
{
	double v[1000], lo, hi, rlo, rhi;
	unsigned c[1000];

	(void)state;
	/* Six clusters, each the runs 1..5: every resample holds each value
	 * the same number of times, so its median is 3, and so is the CI. */
	for (int i = 0; i < 30; i++) {
		v[i] = 1 + i / 6;
		c[i] = (unsigned)(i % 6);
	}
	assert_int_equal(dist_cluster_ci(v, c, 30, 6, 50, &lo, &hi), 0);
	assert_true(lo == 3 && hi == 3);
	/* Fewer than six clusters: no CI. */
	assert_int_equal(dist_cluster_ci(v, c, 25, 5, 50, &lo, &hi), -ERANGE);
	assert_true(isnan(lo) && isnan(hi));
	assert_int_equal(dist_cluster_ci(v, c, 30, 6, 101, &lo, &hi), -ERANGE);
	/*
	 * Ten clusters of 100 alike runs, cluster k all 10 (k + 1).  The
	 * ranks' CI over the 1000 runs (floor(500 - 1.96 x 15.8) = 469, 531)
	 * is [50, 60], as if the runs were independent.  A resample draws 10
	 * clusters; its median is 30 or less when 5 or more draws fall in
	 * the three clusters 10..30 (p 0.3): P(Bin(10, 0.3) >= 5) = 0.15,
	 * well over 2.5%, so the CI's low end is 30 or less; by symmetry its
	 * high end is 80 or more.
	 */
	for (int i = 0; i < 1000; i++) {
		v[i] = 10.0 * (1 + i / 100);
		c[i] = (unsigned)(i / 100);
	}
	assert_int_equal(dist_percentile_ci(v, 1000, 50, &rlo, &rhi), 0);
	assert_true(rlo == 50 && rhi == 60);
	assert_int_equal(dist_cluster_ci(v, c, 1000, 10, 50, &lo, &hi), 0);
	assert_true(lo <= 30 && lo >= 10);
	assert_true(hi >= 80 && hi <= 100);
	/*
	 * A run per cluster, 1..1000: the plain bootstrap, whose CI for the
	 * median is the ranks' to within sampling, [469, 532] by the ranks'
	 * rule (the runs are 1-based here): within 15 of each end.
	 */
	for (int i = 0; i < 1000; i++) {
		v[i] = i + 1;
		c[i] = (unsigned)i;
	}
	assert_int_equal(dist_percentile_ci(v, 1000, 50, &rlo, &rhi), 0);
	assert_true(rlo == 470 && rhi == 532);
	assert_int_equal(dist_cluster_ci(v, c, 1000, 1000, 50, &lo, &hi), 0);
	assert_true(fabs(lo - rlo) <= 15 && fabs(hi - rhi) <= 15);
	/* The same samples give the same CI: the seed is fixed. */
	assert_int_equal(dist_cluster_ci(v, c, 1000, 1000, 50, &rlo, &rhi), 0);
	assert_true(rlo == lo && rhi == hi);
}

static void test_histogram(void **state)
{
	/*
	 * 4 per doubling, edges 2^(i/4): 1, 1.189, 1.414, 1.682, 2, 2.378,
	 * 2.828, 3.364, 4, 4.757.  1 and 1.1 -> i 0; 1.2 -> 1; 1.5 -> 2; 2 (an
	 * edge: the bucket above) -> 4; 3 -> 6; 4 -> 8.  Buckets 0..8.
	 */
	const double s[] = { 1, 1.1, 1.2, 1.5, 2, 3, 4 };
	const size_t want[] = { 2, 1, 1, 0, 1, 0, 1, 0, 1 };
	const double neg[] = { -3, 0, 1.5 };
	const double allneg[] = { -1, -0.5 };
	struct dist_bucket *b;
	size_t nb, sum = 0;

	(void)state;
	nb = dist_histogram(s, 7, 4, &b);
	assert_int_equal(nb, 9);
	for (size_t i = 0; i < nb; i++) {
		assert_int_equal(b[i].count, want[i]);
		assert_true(fabs(b[i].lo - pow(2, i / 4.0)) < 1e-12);
		assert_true(fabs(b[i].hi - pow(2, (i + 1) / 4.0)) < 1e-12);
		if (i)
			assert_true(b[i].lo == b[i - 1].hi);
		sum += b[i].count;
	}
	assert_int_equal(sum, 7);
	free(b);

	/* Not positive: one bucket [min, 0] first, then 1.5's [1.414, 1.682). */
	nb = dist_histogram(neg, 3, 4, &b);
	assert_int_equal(nb, 2);
	assert_true(b[0].lo == -3 && b[0].hi == 0 && b[0].count == 2);
	assert_true(fabs(b[1].lo - sqrt(2)) < 1e-12 && b[1].count == 1);
	free(b);

	nb = dist_histogram(allneg, 2, 4, &b);
	assert_int_equal(nb, 1);
	assert_true(b[0].lo == -1 && b[0].hi == 0 && b[0].count == 2);
	free(b);

	assert_int_equal(dist_histogram(s, 0, 4, &b), 0);
	assert_null(b);
}

static void test_parse(void **state)
{
	static const char *const bad[] = {
		"", "50,,90", "90,50", "50,50", "0", "101", "-5", "abc", "50,", "1e1",
		"0x10", "nan", " 50", "50.5.5", "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17",
	};
	double v[DIST_MAX_PCTS];
	char why[160], name[32];

	(void)state;
	assert_int_equal(dist_parse_percentiles(dist_default_percentiles, v, DIST_MAX_PCTS,
						why, sizeof(why)), 4);
	assert_true(v[0] == 50 && v[1] == 90 && v[2] == 99 && v[3] == 99.9);
	assert_int_equal(dist_parse_percentiles("100", v, DIST_MAX_PCTS, why, sizeof(why)), 1);
	assert_true(v[0] == 100);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = '\0';
		assert_int_equal(dist_parse_percentiles(bad[i], v, DIST_MAX_PCTS, why, sizeof(why)),
				 -22);
		assert_true(why[0]);
	}
	assert_string_equal(dist_pct_name(99.9, "ns", name, sizeof(name)), "p99.9_ns");
	assert_string_equal(dist_pct_name(50, "ns", name, sizeof(name)), "p50_ns");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_percentile),
		cmocka_unit_test(test_percentile_ci),
		cmocka_unit_test(test_ci_why),
		cmocka_unit_test(test_cluster_ci),
		cmocka_unit_test(test_histogram),
		cmocka_unit_test(test_parse),
	};

	return cmocka_run_group_tests_name("dist", tests, NULL, NULL);
}
