// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_scaling.c - the saturation knee and efficiency on hand-made curves,
 * each expected answer worked out in the comment beside it.
 */
#include "unit.h"
#include "scaling.h"

#include <math.h>

static void test_knee(void **state)
{
	static const int t[] = { 1, 2, 3, 4, 5, 6 };

	(void)state;
	/* Linear: the first at 90% of 60 (54) is the last count: no knee. */
	assert_int_equal(scaling_knee(t, (const double[]){ 10, 20, 30, 40, 50, 60 }, 6), -1);
	/* Saturating: max 26, 90% = 23.4; 25 at 3 threads is the first. */
	assert_int_equal(scaling_knee(t, (const double[]){ 10, 19, 25, 26, 26, 26 }, 6), 2);
	/* Flat from one thread: the knee is the first count. */
	assert_int_equal(scaling_knee(t, (const double[]){ 30, 30, 31, 30 }, 4), 0);
	/* A peak, then a decline: max 18, 90% = 16.2, 18 at 2 threads. */
	assert_int_equal(scaling_knee(t, (const double[]){ 10, 18, 17, 16 }, 4), 1);
	/* A dip before the plateau does not stop it early: max 40, 36: 4 threads. */
	assert_int_equal(scaling_knee(t, (const double[]){ 10, 20, 19, 37, 40, 39 }, 6), 3);
	/* Counts not measured are skipped; one count alone has no knee. */
	assert_int_equal(scaling_knee(t, (const double[]){ 10, NAN, 20, 20 }, 4), 2);
	assert_int_equal(scaling_knee(t, (const double[]){ 10 }, 1), -1);
	assert_int_equal(scaling_knee(t, (const double[]){ NAN, 10 }, 2), -1);
}

static void test_efficiency(void **state)
{
	static const int t[] = { 1, 2, 4 };
	static const int t2[] = { 2, 4 };
	const double bw[] = { 10, 19, 20 };

	(void)state;
	assert_true(fabs(scaling_efficiency(t, bw, 0) - 1.0) < 1e-12);
	assert_true(fabs(scaling_efficiency(t, bw, 1) - 0.95) < 1e-12);
	assert_true(fabs(scaling_efficiency(t, bw, 2) - 0.5) < 1e-12);
	/* Against the fewest threads measured when 1 is not among them:
	 * (20 / 4) / (10 / 2) = 1. */
	assert_true(fabs(scaling_efficiency(t2, (const double[]){ 10, 20 }, 1) - 1.0) < 1e-12);
	assert_true(isnan(scaling_efficiency(t, (const double[]){ 0, 1, 2 }, 1)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_knee),
		cmocka_unit_test(test_efficiency),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
