// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_wi_layout.c - the weighted round robin of pagehop interleave: the
 * pages each node gets, the check of the pages counted back, the
 * proposal from bandwidth and the search candidates, every value worked
 * out by hand in the comments.
 */
#include "unit.h"

#include "wi_layout.h"

#include <math.h>
#include <string.h>

static void test_counts_whole_cycles(void **state)
{
	/* Weights 3:1, 8 pages from 0: two whole cycles of 4, 6 and 2. */
	const int w[] = { 3, 1 };
	uint64_t c[2];

	(void)state;
	wi_layout_counts(0, 8, 2, w, c);
	assert_int_equal(c[0], 6);
	assert_int_equal(c[1], 2);
}

static void test_counts_offset(void **state)
{
	/*
	 * Weights 2:1:1 (cycle 4: node 0 at 0,1, node 1 at 2, node 2 at 3),
	 * pages 3..12 (ten pages): indexes mod 4 are 3 0 1 2 3 0 1 2 3 0, so
	 * node 0 has 0,1,0,1,0 = 5, node 1 has 2,2 = 2, node 2 has 3,3,3 = 3.
	 */
	const int w[] = { 2, 1, 1 };
	uint64_t c[3];

	(void)state;
	wi_layout_counts(3, 10, 3, w, c);
	assert_int_equal(c[0], 5);
	assert_int_equal(c[1], 2);
	assert_int_equal(c[2], 3);
}

static void test_counts_plain(void **state)
{
	/* Every weight 1 over 3 nodes, pages 1..7: indexes mod 3 are 1 2 0 1 2 0 1: 2, 3, 2. */
	const int w[] = { 1, 1, 1 };
	uint64_t c[3];

	(void)state;
	wi_layout_counts(1, 7, 3, w, c);
	assert_int_equal(c[0], 2);
	assert_int_equal(c[1], 3);
	assert_int_equal(c[2], 2);
}

static void test_matches(void **state)
{
	/*
	 * Weights 3:1, 10 pages: two whole cycles give 6 and 2, the partial
	 * cycle of 2 adds 0 to 3 to node 0 and 0 to 1 to node 1, so node 0
	 * holds 6 to 9 and node 1 2 to 3, 10 in all.
	 */
	const int w[] = { 3, 1 };
	const uint64_t ok1[] = { 8, 2 }, ok2[] = { 7, 3 };
	const uint64_t even[] = { 5, 5 }, lost[] = { 8, 1 };
	int bad;

	(void)state;
	assert_true(wi_layout_matches(10, 2, w, ok1, &bad));
	assert_int_equal(bad, -1);
	assert_true(wi_layout_matches(10, 2, w, ok2, &bad));
	/* Plain interleave's counts under 3:1 weights: node 0 short. */
	assert_false(wi_layout_matches(10, 2, w, even, &bad));
	assert_int_equal(bad, 0);
	/* A page not counted (on another node): the sum is 9, not 10. */
	assert_false(wi_layout_matches(10, 2, w, lost, &bad));
}

static void test_matches_counts(void **state)
{
	/* What wi_layout_counts gives, from any first page, matches. */
	const int w[] = { 5, 2, 3 };
	uint64_t c[3];

	(void)state;
	for (uint64_t first = 0; first < 12; first++) {
		wi_layout_counts(first, 1001, 3, w, c);
		assert_int_equal(c[0] + c[1] + c[2], 1001);
		assert_true(wi_layout_matches(1001, 3, w, c, NULL));
	}
}

static void test_propose(void **state)
{
	/*
	 * 20, 10 and 5 GB/s are 20000, 10000 and 5000 MB/s: sum 35000,
	 * 32 * 20000 / 35000 = 18, 9, 4 (test_interleave's case), gcd 1.
	 */
	const double bw[] = { 20.0, 10.0, 5.0 };
	const double two[] = { 30.0, 10.0 }, none[] = { 30.0, 10.0, NAN };
	const double fast[] = { 400.0, 200.0 };
	int w[3];

	(void)state;
	wi_layout_propose(3, bw, w);
	assert_int_equal(w[0], 18);
	assert_int_equal(w[1], 9);
	assert_int_equal(w[2], 4);
	/* 30000 and 10000 of 40000: 24 and 8, gcd 8: 3 and 1. */
	wi_layout_propose(2, two, w);
	assert_int_equal(w[0], 3);
	assert_int_equal(w[1], 1);
	/* A third node with no figure gets 1, so the gcd is 1: 24, 8, 1. */
	wi_layout_propose(3, none, w);
	assert_int_equal(w[0], 24);
	assert_int_equal(w[1], 8);
	assert_int_equal(w[2], 1);
	/*
	 * 400000 MB/s would wrap the kernel's 32-bit 32 x bw: scaled to
	 * 100000 and 50000, sum 150000: 3200000 / 150000 = 21, 1600000 /
	 * 150000 = 10, gcd 1: 21 and 10 (unscaled and wrapped they would not
	 * keep 2:1 near).
	 */
	wi_layout_propose(2, fast, w);
	assert_int_equal(w[0], 21);
	assert_int_equal(w[1], 10);
}

static void test_candidates(void **state)
{
	/*
	 * Around 3:1: 3:1 itself; 4:1; 2:1; 3:2; 3:0 is dropped (below 1).
	 */
	const int p[] = { 3, 1 };
	const int want[] = { 3, 1, 4, 1, 2, 1, 3, 2 };
	int out[2 * 8];
	int m;

	(void)state;
	m = wi_layout_candidates(2, p, 8, out);
	assert_int_equal(m, 4);
	assert_memory_equal(out, want, sizeof(want));
	/* At most max of them. */
	assert_int_equal(wi_layout_candidates(2, p, 2, out), 2);
}

static void test_candidates_reduced(void **state)
{
	/*
	 * Around 1:1 (plain interleave, dropped): 2:1; 1:1 (from 0:1, dropped
	 * being below 1, and from 1:1 itself, dropped); 1:2; so 2:1 and 1:2.
	 * Around 2:2: 2:2 reduces to 1:1, dropped; 3:2; 1:2; 2:3; 2:1.
	 */
	const int ones[] = { 1, 1 }, twos[] = { 2, 2 };
	const int want1[] = { 2, 1, 1, 2 };
	const int want2[] = { 3, 2, 1, 2, 2, 3, 2, 1 };
	int out[2 * 8];

	(void)state;
	assert_int_equal(wi_layout_candidates(2, ones, 8, out), 2);
	assert_memory_equal(out, want1, sizeof(want1));
	assert_int_equal(wi_layout_candidates(2, twos, 8, out), 4);
	assert_memory_equal(out, want2, sizeof(want2));
}

static void test_text(void **state)
{
	const int w[] = { 18, 9, 4 };
	char buf[32];

	(void)state;
	wi_layout_text(3, w, buf, sizeof(buf));
	assert_string_equal(buf, "18:9:4");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts_whole_cycles),
		cmocka_unit_test(test_counts_offset),
		cmocka_unit_test(test_counts_plain),
		cmocka_unit_test(test_matches),
		cmocka_unit_test(test_matches_counts),
		cmocka_unit_test(test_propose),
		cmocka_unit_test(test_candidates),
		cmocka_unit_test(test_candidates_reduced),
		cmocka_unit_test(test_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
