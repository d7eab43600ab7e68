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

/*
 * 2 nodes of 8 cores, no SMT (the seed's "8 per node"): node 0 = CPUs 0-7,
 * node 1 = CPUs 8-15.  Scatter spreads a node's threads over its cores,
 * each prefix of 2^k as evenly as it can: 0,4,2,6,1,5,3,7 within a node,
 * dealt over the nodes.  So 8 threads are 4 on each node, every other
 * core (the seed's socket table), and 4 threads on one node are its every
 * other core.  Compact and exclusive fill in order.
 */
static const struct ph_pu wide[] = {
	{ 0, 0, 0, 0 },	  { 1, 1, 0, 0 },   { 2, 2, 0, 0 },   { 3, 3, 0, 0 },
	{ 4, 4, 0, 0 },	  { 5, 5, 0, 0 },   { 6, 6, 0, 0 },   { 7, 7, 0, 0 },
	{ 8, 8, 1, 1 },	  { 9, 9, 1, 1 },   { 10, 10, 1, 1 }, { 11, 11, 1, 1 },
	{ 12, 12, 1, 1 }, { 13, 13, 1, 1 }, { 14, 14, 1, 1 }, { 15, 15, 1, 1 },
};

/*
 * One node of 4 cores of 2 threads, siblings numbered apart (core k =
 * CPUs k and k+4), and 6 cores (no power of two): 0,4,2,1,5,3 by the
 * reversed bits of the index over 3 bits, skipping 6 and 7.
 */
static const struct ph_pu quad[] = {
	{ 0, 0, 0, 0 }, { 1, 1, 0, 0 }, { 2, 2, 0, 0 }, { 3, 3, 0, 0 },
	{ 4, 0, 0, 0 }, { 5, 1, 0, 0 }, { 6, 2, 0, 0 }, { 7, 3, 0, 0 },
};
static const struct ph_pu six[] = {
	{ 0, 0, 0, 0 }, { 1, 1, 0, 0 }, { 2, 2, 0, 0 }, { 3, 3, 0, 0 }, { 4, 4, 0, 0 }, { 5, 5, 0, 0 },
};

static void test_scatter_spreads(void **state)
{
	static const int two_nodes[] = { 0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15 };
	static const int node0[] = { 0, 4, 2, 6, 1, 5, 3, 7 };
	static const int quad_scatter[] = { 0, 2, 1, 3, 4, 6, 5, 7 };
	static const int quad_excl[] = { 0, 1, 2, 3 };
	static const int quad_shared[] = { 0, 4, 1, 5, 2, 6, 3, 7 };

	(void)state;
	for (int n = 1; n <= 16; n++)
		expect_order(PH_PLACE_SCATTER, wide, 16, n, two_nodes);
	for (int n = 1; n <= 8; n++) {
		expect_order(PH_PLACE_SCATTER, wide, 8, n, node0);
		expect_order(PH_PLACE_COMPACT, wide, 8, n, (const int[]){ 0, 1, 2, 3, 4, 5, 6, 7 });
		expect_order(PH_PLACE_SCATTER, quad, 8, n, quad_scatter);
		expect_order(PH_PLACE_SHARED, quad, 8, n, quad_shared);
	}
	for (int n = 1; n <= 4; n++)
		expect_order(PH_PLACE_EXCLUSIVE, quad, 8, n, quad_excl);
	expect_order(PH_PLACE_SCATTER, six, 6, 6, (const int[]){ 0, 4, 2, 1, 5, 3 });
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
		cmocka_unit_test(test_scatter_spreads),
		cmocka_unit_test(test_impossible),
		cmocka_unit_test(test_describe),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
