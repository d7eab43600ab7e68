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

/* Two sockets of two nodes: 16 within a socket, 22 across. */
static const int slit4[16] = {
	10, 16, 22, 22,
	16, 10, 22, 22,
	22, 22, 10, 16,
	22, 22, 16, 10,
};

static void test_hop_levels(void **state)
{
	int hops[16];
	/* Row 0 with a repeated value: 20 twice is one level. */
	static const int odd[16] = {
		10, 20, 30, 20,
		20, 10, 20, 30,
		30, 20, 10, 20,
		20, 30, 20, 10,
	};

	(void)state;
	scaling_hop_levels(4, slit4, hops);
	assert_memory_equal(hops, ((const int[]){ 0, 1, 2, 2, 1, 0, 2, 2, 2, 2, 0, 1, 2, 2, 1, 0 }),
			    sizeof(hops));
	scaling_hop_levels(4, odd, hops);
	assert_memory_equal(hops, ((const int[]){ 0, 1, 2, 1, 1, 0, 1, 2, 2, 1, 0, 1, 1, 2, 1, 0 }),
			    sizeof(hops));
}

static void shape_is(const int *nodes, int nthreads, int turn, int remote, double hops,
		     double dist)
{
	int h[16];
	struct ph_turn_shape s;

	scaling_hop_levels(4, slit4, h);
	goaround_shape(nodes, nodes, nthreads, turn, 4, slit4, h, &s);
	assert_int_equal(s.turn, turn);
	assert_int_equal(s.remote, remote);
	assert_true(fabs(s.remote_share - (double)remote / nthreads) < 1e-12);
	assert_true(fabs(s.mean_hops - hops) < 1e-12);
	assert_true(fabs(s.mean_distance - dist) < 1e-12);
}

static void test_goaround_shape(void **state)
{
	static const int one[4] = { 0, 1, 2, 3 };
	static const int rr[8] = { 0, 1, 2, 3, 0, 1, 2, 3 };
	static const int two[8] = { 0, 0, 1, 1, 2, 2, 3, 3 };

	(void)state;
	assert_int_equal(goaround_owner(3, 1, 4), 0);
	assert_int_equal(goaround_owner(1, 2, 4), 3);
	/* A thread per node.  Turn 1: 0->1 (16), 1->2 (22), 2->3 (16), 3->0
	 * (22): all remote, hops (1+2+1+2)/4, distance 76/4.  Turn 2: every
	 * thread crosses the sockets.  Turn 3 mirrors turn 1. */
	shape_is(one, 4, 0, 0, 0, 10);
	shape_is(one, 4, 1, 4, 1.5, 19);
	shape_is(one, 4, 2, 4, 2, 22);
	shape_is(one, 4, 3, 4, 1.5, 19);
	/* Round robin over the nodes: turn 4 brings every block home. */
	shape_is(rr, 8, 4, 0, 0, 10);
	shape_is(rr, 8, 1, 8, 1.5, 19);
	/* Two per node, compact: turn 1 keeps 0->1, 2->3, 4->5, 6->7 local;
	 * 1->2 (16), 3->4 (22), 5->6 (16), 7->0 (22): hops 6/8, distance
	 * (4*10 + 76)/8. */
	shape_is(two, 8, 1, 4, 0.75, 14.5);
	shape_is(two, 8, 2, 8, 1.5, 19);
}

static void test_goaround_turns(void **state)
{
	int turns[64];

	(void)state;
	assert_int_equal(goaround_turns(4, turns), 4);
	assert_memory_equal(turns, ((const int[]){ 0, 1, 2, 3 }), 4 * sizeof(int));
	assert_int_equal(goaround_turns(16, turns), 16);
	assert_int_equal(turns[15], 15);
	/* 17: 0, 1, 2, 4, 8, 16 (16 is T-1 already). */
	assert_int_equal(goaround_turns(17, turns), 6);
	assert_memory_equal(turns, ((const int[]){ 0, 1, 2, 4, 8, 16 }), 6 * sizeof(int));
	/* 40: the powers of two, then 39. */
	assert_int_equal(goaround_turns(40, turns), 8);
	assert_memory_equal(turns, ((const int[]){ 0, 1, 2, 4, 8, 16, 32, 39 }), 8 * sizeof(int));
}

static void test_level_nodes(void **state)
{
	static const bool all[4] = { true, true, true, true };
	static const bool no1[4] = { true, false, true, true };
	static const bool cpuonly0[4] = { false, true, true, true };
	int nodes[4];

	(void)state;
	/* From node 0: itself, node 1 (16), node 2 (22, the lowest of 2 and 3). */
	assert_int_equal(scaling_level_nodes(4, slit4, all, 0, nodes, 4), 3);
	assert_memory_equal(nodes, ((const int[]){ 0, 1, 2 }), 3 * sizeof(int));
	/* From node 3: itself, node 2, node 0. */
	assert_int_equal(scaling_level_nodes(4, slit4, all, 3, nodes, 4), 3);
	assert_memory_equal(nodes, ((const int[]){ 3, 2, 0 }), 3 * sizeof(int));
	/* Node 1 without memory: level 1 is left out. */
	assert_int_equal(scaling_level_nodes(4, slit4, no1, 0, nodes, 4), 2);
	assert_memory_equal(nodes, ((const int[]){ 0, 2 }), 2 * sizeof(int));
	/* A CPU-only node 0: no local level. */
	assert_int_equal(scaling_level_nodes(4, slit4, cpuonly0, 0, nodes, 4), 2);
	assert_memory_equal(nodes, ((const int[]){ 1, 2 }), 2 * sizeof(int));
	/* max caps the levels. */
	assert_int_equal(scaling_level_nodes(4, slit4, all, 0, nodes, 2), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_knee),
		cmocka_unit_test(test_efficiency),
		cmocka_unit_test(test_hop_levels),
		cmocka_unit_test(test_goaround_shape),
		cmocka_unit_test(test_goaround_turns),
		cmocka_unit_test(test_level_nodes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
