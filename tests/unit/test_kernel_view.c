// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_kernel_view.c - the scheduler's NUMA levels, node_reclaim's reach
 * and the fallback orders of find_next_best_node(), on the shared AMD
 * 6220 SLIT and hand-made ones, against answers worked out by hand in the
 * comments (each step: (distance + (n < node) + 1 if n has CPUs) * 1024 +
 * node_load[n], lowest wins, lowest id on a tie; node_load[] of the first
 * node of each new distance group goes up by one, carried from node to
 * node).
 */
#include "unit.h"

#include "kernel_view.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

static const int ids4[] = { 0, 1, 2, 3 };
static const bool yes4[] = { true, true, true, true };

static void assert_order(const struct ph_kernel_view *v, int row, const int *want, int n)
{
	for (int k = 0; k < n; k++)
		assert_int_equal(v->order[row * v->n + k], want[k]);
	if (n < v->n)
		assert_int_equal(v->order[row * v->n + n], -1);
}

/*
 * tests/data/shared/amd-6220-4node.numactl.txt: 10 local, 16 remote.
 * node 0: 0; then 1, 2, 3 all 17*1024: 1 (new group: load[1] = 1), 2, 3.
 * node 1: 1; 0 = 18*1024, 2 = 3 = 17*1024: 2 (load[2] = 1); 3; 0.
 * node 2: 2; 0 = 18*1024, 1 = 18*1024 + 1, 3 = 17*1024: 3 (load[3] = 1); 0; 1.
 * node 3: 3; 0 = 18*1024, 1 = 2 = 18*1024 + 1: 0 (load[0] = 1); 1; 2.
 */
static void test_amd_6220(void **state)
{
	static const int d[] = { 10, 16, 16, 16, 16, 10, 16, 16, 16, 16, 10, 16, 16, 16, 16, 10 };
	struct ph_kernel_view v;

	(void)state;
	assert_int_equal(kernel_view(4, ids4, d, yes4, yes4, PH_RECLAIM_DISTANCE, &v), 0);
	assert_int_equal(v.nlevels, 2);
	assert_int_equal(v.levels[0], 10);
	assert_int_equal(v.levels[1], 16);
	assert_order(&v, 0, (const int[]){ 0, 1, 2, 3 }, 4);
	assert_order(&v, 1, (const int[]){ 1, 2, 3, 0 }, 4);
	assert_order(&v, 2, (const int[]){ 2, 3, 0, 1 }, 4);
	assert_order(&v, 3, (const int[]){ 3, 0, 1, 2 }, 4);
	for (int k = 0; k < 16; k++)
		assert_true(v.reclaim[k]);
	kernel_view_free(&v);
}

/*
 * 10/16/22, pairs {0,1} {2,3} (tests/vm/lib.sh numa4).
 * node 0: 0; 1 = 17*1024 (load[1] = 1); 2 = 3 = 23*1024: 2 (22 != 16: load[2] = 1); 3.
 * node 1: 1; 0 = 18*1024 (load[0] = 1); 2 = 23*1024 + 1, 3 = 23*1024: 3 (load[3] = 1); 2.
 * node 2: 2; 0 = 24*1024 + 1, 1 = 24*1024 + 1, 3 = 17*1024 + 1: 3 (load[3] = 2);
 *         0 and 1 tie at 24*1024 + 1: 0 (load[0] = 2); 1.
 * node 3: 3; 0 = 24*1024 + 2, 1 = 24*1024 + 1, 2 = 18*1024 + 1: 2 (load[2] = 2); 1; 0.
 */
static void test_three_levels(void **state)
{
	static const int d[] = { 10, 16, 22, 22, 16, 10, 22, 22, 22, 22, 10, 16, 22, 22, 16, 10 };
	struct ph_kernel_view v;

	(void)state;
	assert_int_equal(kernel_view(4, ids4, d, yes4, yes4, PH_RECLAIM_DISTANCE, &v), 0);
	assert_int_equal(v.nlevels, 3);
	assert_int_equal(v.levels[2], 22);
	assert_order(&v, 0, (const int[]){ 0, 1, 2, 3 }, 4);
	assert_order(&v, 1, (const int[]){ 1, 0, 3, 2 }, 4);
	assert_order(&v, 2, (const int[]){ 2, 3, 0, 1 }, 4);
	assert_order(&v, 3, (const int[]){ 3, 2, 1, 0 }, 4);
	kernel_view_free(&v);
}

/*
 * Node 2 has memory and no CPUs (a CXL expander), all remote 21.
 * node 0: 0; 1 = 22*1024, 2 = 21*1024: 2 (load[2] = 1); 1.
 * node 1: 1; 0 = 23*1024, 2 = 21*1024 + 1: 2 (load[2] = 2); 0.
 * node 2: 2; 0 = 1 = 23*1024: 0 (load[0] = 1); 1.
 * Distances 10, 21 and 40 (0 <-> 1 made 40): beyond reclaim at 30 and
 * at Zen's 32, so 0 and 1 are not within reclaim of each other.
 */
static void test_headless_and_reclaim(void **state)
{
	static const int ids[] = { 0, 1, 2 };
	static const int d[] = { 10, 21, 21, 21, 10, 21, 21, 21, 10 };
	static const bool cpus[] = { true, true, false }, mem[] = { true, true, true };
	int far[9];
	struct ph_kernel_view v;

	(void)state;
	assert_int_equal(kernel_view(3, ids, d, cpus, mem, PH_RECLAIM_DISTANCE, &v), 0);
	assert_order(&v, 0, (const int[]){ 0, 2, 1 }, 3);
	assert_order(&v, 1, (const int[]){ 1, 2, 0 }, 3);
	assert_order(&v, 2, (const int[]){ 2, 0, 1 }, 3);
	kernel_view_free(&v);

	memcpy(far, d, sizeof(far));
	far[1] = far[3] = 40;
	assert_int_equal(kernel_view(3, ids, far, cpus, mem, 32, &v), 0);
	assert_int_equal(v.nlevels, 3);
	assert_false(v.reclaim[1]);
	assert_false(v.reclaim[3]);
	assert_true(v.reclaim[2]);
	kernel_view_free(&v);
	/* 31 is beyond 30 but within Zen's 32. */
	far[1] = far[3] = 31;
	assert_int_equal(kernel_view(3, ids, far, cpus, mem, 30, &v), 0);
	assert_false(v.reclaim[1]);
	kernel_view_free(&v);
	assert_int_equal(kernel_view(3, ids, far, cpus, mem, 32, &v), 0);
	assert_true(v.reclaim[1]);
	kernel_view_free(&v);
}

/* A memoryless CPU node (1): never a fallback target; its own list starts elsewhere. */
static void test_memoryless(void **state)
{
	static const int ids[] = { 0, 1, 2 };
	static const int d[] = { 10, 20, 30, 20, 10, 20, 30, 20, 10 };
	static const bool cpus[] = { true, true, true }, mem[] = { true, false, true };
	struct ph_kernel_view v;

	(void)state;
	assert_int_equal(kernel_view(3, ids, d, cpus, mem, 30, &v), 0);
	/* node 1: itself (no zones, not listed); 0 = (20+1+1)*1024, 2 = (20+0+1)*1024: 2, then 0. */
	assert_order(&v, 1, (const int[]){ 2, 0 }, 2);
	assert_order(&v, 0, (const int[]){ 0, 2 }, 2);
	kernel_view_free(&v);
	assert_int_equal(kernel_view(3, ids, (const int[]){ 10, -1, 0, 0, 10, 0, 0, 0, 10 }, cpus, mem, 30, &v),
			 -EINVAL);
}

/*
 * The fallback orders of kernel_view(), which sorts each node's candidates
 * once, against build_zonelists() as the kernel runs it: one
 * kernel_next_best() call per step, node_load[] carried from node to node.
 * Random tables of up to 48 nodes with few distinct distances (ties, where
 * the lowest id and node_load decide), asymmetric, with CPU-less and
 * memoryless nodes.
 */
static void reference_orders(int n, const int *d, const bool *cpus, const bool *mem, int *order)
{
	int load[48] = { 0 };
	bool used[48];

	for (int local = 0; local < n; local++) {
		int prev = local, node, k = 0;

		memset(used, 0, sizeof(used));
		while ((node = kernel_next_best(n, d, cpus, mem, load, local, used)) >= 0) {
			if (d[local * n + node] != d[local * n + prev])
				load[node]++;
			prev = node;
			if (mem[node])
				order[local * n + k++] = node;
		}
		for (; k < n; k++)
			order[local * n + k] = -1;
	}
}

static void test_fallback_against_kernel_steps(void **state)
{
	static const int far[] = { 12, 16, 16, 20, 21, 32 };
	unsigned seed = 12345;
	int ids[48], d[48 * 48], want[48 * 48];
	bool cpus[48], mem[48];

	(void)state;
	for (int i = 0; i < 48; i++)
		ids[i] = i;
	for (int round = 0; round < 300; round++) {
		struct ph_kernel_view v;
		int n = 1 + round % 48;

		for (int i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			cpus[i] = (seed >> 16) % 4 != 0;
			mem[i] = (seed >> 20) % 5 != 0;
			for (int j = 0; j < n; j++) {
				seed = seed * 1103515245u + 12345u;
				d[i * n + j] = i == j ? 10 : far[(seed >> 16) % 6];
			}
		}
		reference_orders(n, d, cpus, mem, want);
		assert_int_equal(kernel_view(n, ids, d, cpus, mem, PH_RECLAIM_DISTANCE, &v), 0);
		for (int k = 0; k < n * n; k++)
			if (v.order[k] != want[k])
				fail_msg("round %d, %d nodes: node %d's order differs at %d: %d, the kernel's steps %d",
					 round, n, k / n, k % n, v.order[k], want[k]);
		kernel_view_free(&v);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_amd_6220),
		cmocka_unit_test(test_three_levels),
		cmocka_unit_test(test_headless_and_reclaim),
		cmocka_unit_test(test_memoryless),
		cmocka_unit_test(test_fallback_against_kernel_steps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
