// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_pfbenefit.c - what prefetching is worth, from fixed medians with the
 * answers worked out by hand.
 */
#include "unit.h"
#include "pfbenefit.h"

#include <math.h>

static void test_measured(void **state)
{
	struct pf_benefit b;

	(void)state;
	/* 300 ns random, 5 ns sequential: prefetching hides 60x. */
	pf_benefit_of(300, 5, 12, 15, &b);
	assert_true(b.random_ns == 300 && b.seq_ns == 5);
	assert_true(fabs(b.benefit - 60) < 1e-12);
	/* 15 GB/s with prefetcht0, 12 without: 1.25. */
	assert_true(b.read_GBps == 12 && b.read_swpf_GBps == 15);
	assert_true(fabs(b.swpf_gain - 1.25) < 1e-12);
}

static void test_missing(void **state)
{
	struct pf_benefit b;

	(void)state;
	/* No random pattern among --patterns: no random_ns, no benefit. */
	pf_benefit_of(0, 5, 12, 15, &b);
	assert_true(isnan(b.random_ns));
	assert_true(b.seq_ns == 5);
	assert_true(isnan(b.benefit));
	/* No sequential one either way round. */
	pf_benefit_of(300, 0, 12, 15, &b);
	assert_true(isnan(b.seq_ns) && isnan(b.benefit));
	/* Interrupted after the plain read: the prefetching read is 0, its gain 0. */
	pf_benefit_of(300, 5, 12, 0, &b);
	assert_true(b.read_swpf_GBps == 0);
	assert_true(b.swpf_gain == 0);
	/* No plain read: no gain, the bandwidths as they are. */
	pf_benefit_of(300, 5, 0, 0, &b);
	assert_true(b.read_GBps == 0);
	assert_true(isnan(b.swpf_gain));
	pf_benefit_of(NAN, NAN, NAN, 1, &b);
	assert_true(isnan(b.random_ns) && isnan(b.seq_ns) && isnan(b.benefit) && isnan(b.swpf_gain));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_measured),
		cmocka_unit_test(test_missing),
	};

	return cmocka_run_group_tests_name("pfbenefit", tests, NULL, NULL);
}
