// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_ratio_ci.c - the ratio of two figures' medians and its bootstrap
 * interval, on samples whose bootstrap distribution is worked out by hand
 * (binomial counts of one odd sample among equal ones), and what each
 * interval allows one to say.
 */
#include "unit.h"
#include "ratio_ci.h"
#include "stats.h"

#include <math.h>
#include <string.h>

/* Constant samples: every resample has the same medians, the interval is the ratio itself. */
static void test_constant(void **state)
{
	double a[8], b[8];
	struct ratio_ci r;

	(void)state;
	for (int i = 0; i < 8; i++) {
		a[i] = 12;
		b[i] = 10;
	}
	ratio_ci_medians(a, 8, b, 8, RATIO_CI_SEED, RATIO_CI_RESAMPLES, &r);
	assert_float_equal(r.value, 1.2, 1e-12);
	assert_float_equal(r.lo, 1.2, 1e-12);
	assert_float_equal(r.hi, 1.2, 1e-12);
	assert_int_equal(ratio_ci_shown(&r), RATIO_ABOVE);
	ratio_ci_medians(b, 8, a, 8, RATIO_CI_SEED, RATIO_CI_RESAMPLES, &r);
	assert_int_equal(ratio_ci_shown(&r), RATIO_BELOW);
}

/*
 * a = {20, 10, 10, 10, 10, 10}, b six 10s.  A resample of a holds K ~
 * Bin(6, 1/6) copies of 20; its median (the mean of the 3rd and 4th
 * smallest) is 10 for K <= 2, 15 for K = 3, 20 for K >= 4:
 *   P(K <= 2) = (5/6)^6 + 6 (1/6)(5/6)^5 + 15 (1/6)^2 (5/6)^4 = 0.9377
 *   P(K = 3)  = 20 (1/6)^3 (5/6)^3 = 0.0536,  P(K >= 4) = 0.0087.
 * So the ratio is 1.0, 1.5 or 2.0 with those odds: of 2000 resamples about
 * 1875 give 1.0 (the 50th smallest is 1.0) and about 1983 at most 1.5 (the
 * 1950th is 1.5, 7 standard deviations from 1.0 or 2.0 either way).  The
 * interval [1.0, 1.5] holds 1: no effect shown, though the ratio of the
 * medians is exactly 1.
 */
static void test_one_slow_block(void **state)
{
	double a[] = { 20, 10, 10, 10, 10, 10 }, b[] = { 10, 10, 10, 10, 10, 10 };
	double keep[6];
	struct ratio_ci r;

	(void)state;
	memcpy(keep, a, sizeof(a));
	ratio_ci_medians(a, 6, b, 6, RATIO_CI_SEED, RATIO_CI_RESAMPLES, &r);
	assert_float_equal(r.value, 1.0, 1e-12);
	assert_float_equal(r.lo, 1.0, 1e-12);
	assert_float_equal(r.hi, 1.5, 1e-12);
	assert_int_equal(ratio_ci_shown(&r), RATIO_NO_EFFECT);
	assert_string_equal(ratio_shown_name(ratio_ci_shown(&r)), "no effect shown");
	/* The samples are not modified. */
	assert_memory_equal(a, keep, sizeof(a));
}

/*
 * The odd block in the denominator: a six 30s, b = {10 x 5, 20}.  The
 * resampled ratio is 3.0 (K <= 2, 0.9377), 2.0 (K = 3, 0.0536) or 1.5
 * (K >= 4, 0.0087): about 17 of 2000 give 1.5 and 124 at most 2.0, so the
 * 50th smallest is 2.0 and the 1950th is 3.0.  The whole interval is above 1.
 */
static void test_slow_denominator(void **state)
{
	double a[] = { 30, 30, 30, 30, 30, 30 }, b[] = { 10, 10, 20, 10, 10, 10 };
	struct ratio_ci r;

	(void)state;
	ratio_ci_medians(a, 6, b, 6, RATIO_CI_SEED, RATIO_CI_RESAMPLES, &r);
	assert_float_equal(r.value, 3.0, 1e-12);
	assert_float_equal(r.lo, 2.0, 1e-12);
	assert_float_equal(r.hi, 3.0, 1e-12);
	assert_int_equal(ratio_ci_shown(&r), RATIO_ABOVE);
}

/* The same samples and seed give the same interval; the value is the medians' ratio (stats_compute's medians). */
static void test_fixed_seed(void **state)
{
	double a[101], b[64];
	struct ph_stats sa, sb;
	struct ratio_ci r1, r2;
	uint64_t x = 12345;

	(void)state;
	for (int i = 0; i < 101; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		a[i] = 100 + (double)(x >> 40) / (1 << 20);
	}
	for (int i = 0; i < 64; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		b[i] = 50 + (double)(x >> 40) / (1 << 22);
	}
	stats_compute(a, 101, &sa);
	stats_compute(b, 64, &sb);
	ratio_ci_medians(a, 101, b, 64, RATIO_CI_SEED, RATIO_CI_RESAMPLES, &r1);
	ratio_ci_medians(a, 101, b, 64, RATIO_CI_SEED, RATIO_CI_RESAMPLES, &r2);
	assert_float_equal(r1.value, sa.median / sb.median, 1e-12);
	assert_true(r1.lo == r2.lo && r1.hi == r2.hi);
	assert_true(r1.lo <= r1.value && r1.value <= r1.hi);
	/* Every resampled ratio lies between the extreme ones. */
	assert_true(r1.lo >= sa.min / sb.max && r1.hi <= sa.max / sb.min);
}

/* Too few samples for a median's interval: the ratio, but no interval; nothing without samples. */
static void test_too_few(void **state)
{
	double a[] = { 30, 31, 29, 30, 30 }, b[] = { 10, 10, 10, 10, 10, 10 };
	struct ratio_ci r;

	(void)state;
	ratio_ci_medians(a, 5, b, 6, RATIO_CI_SEED, RATIO_CI_RESAMPLES, &r);
	assert_float_equal(r.value, 3.0, 1e-12);
	assert_true(isnan(r.lo) && isnan(r.hi));
	assert_int_equal(ratio_ci_shown(&r), RATIO_NO_CI);
	ratio_ci_medians(a, 0, b, 6, RATIO_CI_SEED, RATIO_CI_RESAMPLES, &r);
	assert_true(isnan(r.value) && isnan(r.lo));
	/* A denominator whose median is 0 has no ratio. */
	memset(b, 0, sizeof(b));
	ratio_ci_medians(a, 5, b, 6, RATIO_CI_SEED, RATIO_CI_RESAMPLES, &r);
	assert_true(isnan(r.value) && isnan(r.lo));
}

/*
 * Judged as printed, to 3 decimals: 1.0004 prints as 1.000, so an interval
 * from it holds 1; 1.0006 prints as 1.001 and does not.  By hand.
 */
static void test_shown_as_printed(void **state)
{
	struct ratio_ci r = { .value = 1.001, .lo = 1.0004, .hi = 1.002 };

	(void)state;
	assert_int_equal(ratio_ci_shown(&r), RATIO_NO_EFFECT);
	r.lo = 1.0006;
	assert_int_equal(ratio_ci_shown(&r), RATIO_ABOVE);
	r = (struct ratio_ci){ .value = 0.999, .lo = 0.998, .hi = 0.9996 };
	assert_int_equal(ratio_ci_shown(&r), RATIO_NO_EFFECT);
	r.hi = 0.9994;
	assert_int_equal(ratio_ci_shown(&r), RATIO_BELOW);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_constant),
		cmocka_unit_test(test_one_slow_block),
		cmocka_unit_test(test_slow_denominator),
		cmocka_unit_test(test_fixed_seed),
		cmocka_unit_test(test_shown_as_printed),
		cmocka_unit_test(test_too_few),
	};

	return cmocka_run_group_tests_name("ratio_ci", tests, NULL, NULL);
}
