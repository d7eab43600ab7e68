// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_placement.c - the four placement rules on made-up machines, each
 * expected order written out by hand, and the read-back description.
 */
#include "unit.h"
#include "placement.h"

#include <errno.h>
#include <string.h>

/*
 * 2 packages = 2 nodes, 2 cores each, 2 SMT threads a core, numbered as
 * Intel's firmware does: the first threads of all cores, then the second.
 *   node 0: core 0 = {0,4}, core 1 = {1,5};  node 1: core 2 = {2,6}, core 3 = {3,7}
 * Listed out of order on purpose: the rules sort.
 */
static const struct ph_pu smt[] = {
	{ 7, 3, 1, 1 }, { 0, 0, 0, 0 }, { 4, 0, 0, 0 }, { 1, 1, 0, 0 },
	{ 5, 1, 0, 0 }, { 2, 2, 1, 1 }, { 6, 2, 1, 1 }, { 3, 3, 1, 1 },
};
/* 2 cores, one node, no SMT: this development host. */
static const struct ph_pu flat[] = { { 0, 0, 0, 0 }, { 1, 1, 0, 0 } };

static void expect_order(enum ph_place p, const struct ph_pu *pus, int npus, int n,
			 const int *want)
{
	int got[16];
	char why[256] = "";

	assert_int_equal(placement_order(p, pus, npus, n, got, why, sizeof(why)), 0);
	for (int i = 0; i < n; i++)
		if (got[i] != want[i])
			fail_msg("%s n=%d: thread %d on CPU %d, want %d", place_name(p), n, i, got[i], want[i]);
}

static void test_rules(void **state)
{
	static const int compact[] = { 0, 1, 4, 5, 2, 3, 6, 7 };
	static const int scatter[] = { 0, 2, 1, 3, 4, 6, 5, 7 };
	static const int exclusive[] = { 0, 1, 2, 3 };
	static const int shared[] = { 0, 4, 1, 5, 2, 6, 3, 7 };

	(void)state;
	for (int n = 1; n <= 8; n++) {
		expect_order(PH_PLACE_COMPACT, smt, 8, n, compact);
		expect_order(PH_PLACE_SCATTER, smt, 8, n, scatter);
		expect_order(PH_PLACE_SHARED, smt, 8, n, shared);
	}
	for (int n = 1; n <= 4; n++)
		expect_order(PH_PLACE_EXCLUSIVE, smt, 8, n, exclusive);
	expect_order(PH_PLACE_COMPACT, flat, 2, 2, (const int[]){ 0, 1 });
	expect_order(PH_PLACE_SCATTER, flat, 2, 2, (const int[]){ 0, 1 });
	expect_order(PH_PLACE_EXCLUSIVE, flat, 2, 2, (const int[]){ 0, 1 });
}

static void test_impossible(void **state)
{
	int cpus[16];
	char why[256];

	(void)state;
	/* More threads than cores for exclusive, than CPUs for the others. */
	assert_int_equal(placement_order(PH_PLACE_EXCLUSIVE, smt, 8, 5, cpus, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "4 cores"));
	assert_int_equal(placement_order(PH_PLACE_COMPACT, smt, 8, 9, cpus, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "8 CPUs"));
	assert_int_equal(placement_order(PH_PLACE_SCATTER, flat, 2, 3, cpus, why, sizeof(why)), -EINVAL);
	/* Shared without SMT: the machine lacks it, whatever the count. */
	assert_int_equal(placement_order(PH_PLACE_SHARED, flat, 2, 1, cpus, why, sizeof(why)), -EOPNOTSUPP);
	assert_non_null(strstr(why, "SMT"));
	assert_int_equal(place_parse("spread", &(enum ph_place){ 0 }), -EINVAL);
}

static void test_describe(void **state)
{
	struct ph_place_found f;

	(void)state;
	placement_describe(smt, 8, (const int[]){ 0, 4, 1 }, 3, &f);
	assert_int_equal(f.cores, 2);
	assert_int_equal(f.shared_cores, 1);
	assert_int_equal(f.packages, 1);
	assert_string_equal(f.nodes, "0");
	/* Three threads on one core count it shared once. */
	placement_describe(smt, 8, (const int[]){ 2, 6, 6, 3 }, 4, &f);
	assert_int_equal(f.cores, 2);
	assert_int_equal(f.shared_cores, 1);
	assert_string_equal(f.nodes, "1");
	placement_describe(smt, 8, (const int[]){ 0, 2, 99 }, 3, &f);
	assert_int_equal(f.packages, 2);
	assert_int_equal(f.unknown, 1);
	assert_string_equal(f.nodes, "0,1");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rules),
		cmocka_unit_test(test_impossible),
		cmocka_unit_test(test_describe),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
