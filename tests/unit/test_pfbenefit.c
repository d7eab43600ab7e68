// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_pfbenefit.c - the prefetch study's ratios from fixed samples, with
 * the answers worked out by hand: the ratio of the medians, its interval,
 * and "no effect shown" where the interval holds 1.
 */
#include "unit.h"
#include "pfbenefit.h"

#include <math.h>

#define N 8

static double random_ns[N] = { 300, 300, 300, 300, 300, 300, 300, 300 };
static double seq_ns[N] = { 5, 5, 5, 5, 5, 5, 5, 5 };
static double read_GBps[N] = { 12, 12, 12, 12, 12, 12, 12, 12 };
static double swpf_GBps[N] = { 15, 15, 15, 15, 15, 15, 15, 15 };
static double seq_off[N] = { 20, 20, 20, 20, 20, 20, 20, 20 };
static double read_off[N] = { 8, 8, 8, 8, 8, 8, 8, 8 };

/* A ratio's value, interval and what it shows, each as worked out by hand. */
static void assert_ratio(const struct ratio_ci *r, double value, double lo, double hi, enum ratio_shown shown)
{
	assert_float_equal(r->value, value, 1e-12);
	assert_float_equal(r->lo, lo, 1e-12);
	assert_float_equal(r->hi, hi, 1e-12);
	assert_int_equal(ratio_ci_shown(r), shown);
}

static void test_measured(void **state)
{
	struct pf_samples r = { random_ns, N }, s = { seq_ns, N }, p = { read_GBps, N }, w = { swpf_GBps, N };
	struct pf_state_ratios sr;
	struct pf_benefit b;

	(void)state;
	/* 300 ns random, 5 ns sequential: 60, every block alike, so the CI is 60 too. */
	pf_benefit_of(&r, &s, &p, &w, &b);
	assert_ratio(&b.random_over_seq, 60, 60, 60, RATIO_ABOVE);
	/* 15 GB/s with prefetcht0, 12 without: 1.25, above 1. */
	assert_ratio(&b.swpf_gain, 1.25, 1.25, 1.25, RATIO_ABOVE);
	/*
	 * With control, a state against as found: the sequential chase 20 ns
	 * with them off against 5 as found is 4; 12 GB/s as found against 8 is 1.5.
	 */
	pf_state_ratios_of(&s, &(struct pf_samples){ seq_off, N }, &p, &(struct pf_samples){ read_off, N }, &sr);
	assert_ratio(&sr.seq_off_over_found, 4, 4, 4, RATIO_ABOVE);
	assert_ratio(&sr.read_found_over_off, 1.5, 1.5, 1.5, RATIO_ABOVE);
}

/*
 * The gain printed as 0.861 while its two figures' CIs overlapped: here
 * read_swpf = {10 x 5, 20} GB/s against six 10s.  The median ratio is 1;
 * the resampled one is 1.0 (P = 0.9377), 1.5 (0.0536) or 2.0 (0.0087)
 * (one block of 20 among six drawn K ~ Bin(6, 1/6) times; test_ratio_ci
 * works it out): the interval [1.0, 1.5] holds 1, no effect shown.
 */
static void test_no_effect(void **state)
{
	double plain[6] = { 10, 10, 10, 10, 10, 10 }, swpf[6] = { 10, 10, 10, 20, 10, 10 };
	struct pf_samples p = { plain, 6 }, w = { swpf, 6 }, none = { 0 };
	struct pf_benefit b;

	(void)state;
	pf_benefit_of(&none, &none, &p, &w, &b);
	assert_ratio(&b.swpf_gain, 1.0, 1.0, 1.5, RATIO_NO_EFFECT);
}

static void test_missing(void **state)
{
	struct pf_samples s = { seq_ns, N }, p = { read_GBps, N }, w = { swpf_GBps, N }, none = { 0 };
	struct pf_benefit b;

	(void)state;
	/* No random pattern among --patterns: no random_over_seq. */
	pf_benefit_of(&none, &s, &p, &w, &b);
	assert_true(isnan(b.random_over_seq.value) && isnan(b.random_over_seq.lo));
	assert_float_equal(b.swpf_gain.value, 1.25, 1e-12);
	/* No sequential one either way round. */
	pf_benefit_of(&s, &none, &p, &w, &b);
	assert_true(isnan(b.random_over_seq.value));
	/* Interrupted before the prefetching read: no gain. */
	pf_benefit_of(&s, &s, &p, &none, &b);
	assert_true(isnan(b.swpf_gain.value));
	/* Too few blocks for a median's interval: the ratio, no CI. */
	p.n = w.n = 3;
	pf_benefit_of(&none, &none, &p, &w, &b);
	assert_float_equal(b.swpf_gain.value, 1.25, 1e-12);
	assert_int_equal(ratio_ci_shown(&b.swpf_gain), RATIO_NO_CI);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_measured),
		cmocka_unit_test(test_no_effect),
		cmocka_unit_test(test_missing),
	};

	return cmocka_run_group_tests_name("pfbenefit", tests, NULL, NULL);
}
