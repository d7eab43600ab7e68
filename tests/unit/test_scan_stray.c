// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_scan_stray.c - pagehop scan's judgement of ranges: the median, MAD
 * and both conditions by hand; on 16 synthetic ranges drawn with realistic
 * noise (a fixed seed: 1.5% relative sigma, as repeated bandwidth figures
 * of one node spread), one range made 25% slow is flagged and only it, in
 * bandwidth (low) and latency (high) alike; 16 normal ones flag none; too
 * few ranges are not judged; the ranking puts the furthest first.
 */
#include "unit.h"
#include "scan_stray.h"

#include <math.h>
#include <stdlib.h>

/* A normal draw (Box-Muller) from a fixed xorshift generator. */
static uint64_t rng = 88172645463325252ull;

static double uniform(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return ((double)(rng >> 11) + 0.5) / 9007199254740992.0;
}

static double normal(void)
{
	return sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());
}

static void test_by_hand(void **state)
{
	/* 10, 10.2, 9.8, 10.1, 7: median 10, |dev| 0 .2 .2 .1 3 -> MAD .2;
	 * 7 is 3 away: > 4 x 1.4826 x .2 = 1.19, and -30% beyond 10%. */
	static const double v[] = { 10, 10.2, 9.8, 10.1, 7, NAN };
	bool stray[6];
	double dev[6];
	struct ph_scan_judged j;

	(void)state;
	scan_judge(v, 6, 4, 0.10, dev, stray, &j);
	assert_true(j.judged);
	assert_float_equal(j.median, 10, 1e-12);
	assert_float_equal(j.mad, 0.2, 1e-12);
	assert_int_equal(j.nstray, 1);
	assert_true(stray[4]);
	assert_false(stray[0] || stray[1] || stray[2] || stray[3] || stray[5]);
	assert_float_equal(dev[4], -0.3, 1e-12);
	assert_true(isnan(dev[5]));
	/* Beyond k sigmas but within the tolerance: not a stray. */
	scan_judge(v, 6, 4, 0.35, dev, stray, &j);
	assert_int_equal(j.nstray, 0);
	/* Beyond the tolerance but within k sigmas: not a stray. */
	scan_judge(v, 6, 20, 0.10, dev, stray, &j);
	assert_int_equal(j.nstray, 0);
}

static void test_too_few(void **state)
{
	static const double v[] = { 10, NAN, 1 };
	bool stray[3];
	struct ph_scan_judged j;

	(void)state;
	scan_judge(v, 3, 4, 0.1, NULL, stray, &j);
	assert_false(j.judged);
	assert_int_equal(j.nstray, 0);
	assert_false(stray[0] || stray[2]);
}

static void draw(double *v, int n, double mean, double rel_sigma)
{
	for (int i = 0; i < n; i++)
		v[i] = mean * (1 + rel_sigma * normal());
}

static void test_one_slow_of_16(void **state)
{
	double bw[16], lat[16];
	bool sb[16], sl[16];
	struct ph_scan_judged jb, jl;

	(void)state;
	for (int trial = 0; trial < 200; trial++) {
		int slow = trial % 16;

		draw(bw, 16, 12.0, 0.015);
		draw(lat, 16, 95.0, 0.015);
		bw[slow] *= 0.75;
		lat[slow] *= 1.25;
		scan_judge(bw, 16, 4, 0.10, NULL, sb, &jb);
		scan_judge(lat, 16, 4, 0.10, NULL, sl, &jl);
		assert_int_equal(jb.nstray, 1);
		assert_int_equal(jl.nstray, 1);
		assert_true(sb[slow]);
		assert_true(sl[slow]);
	}
}

static void test_none_of_16_normal(void **state)
{
	double bw[16], lat[16];
	bool sb[16], sl[16];
	struct ph_scan_judged jb, jl;

	(void)state;
	for (int trial = 0; trial < 200; trial++) {
		draw(bw, 16, 12.0, 0.015);
		draw(lat, 16, 95.0, 0.015);
		scan_judge(bw, 16, 4, 0.10, NULL, sb, &jb);
		scan_judge(lat, 16, 4, 0.10, NULL, sl, &jl);
		assert_true(jb.judged && jl.judged);
		assert_int_equal(jb.nstray, 0);
		assert_int_equal(jl.nstray, 0);
	}
}

static void test_rank(void **state)
{
	static const double score[] = { 0, 1.5, 0, 4, 1.5 };
	int order[5];

	(void)state;
	assert_int_equal(scan_rank(score, 5, order), 3);
	assert_int_equal(order[0], 3);
	assert_int_equal(order[1], 1);
	assert_int_equal(order[2], 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_by_hand),
		cmocka_unit_test(test_too_few),
		cmocka_unit_test(test_one_slow_of_16),
		cmocka_unit_test(test_none_of_16_normal),
		cmocka_unit_test(test_rank),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
