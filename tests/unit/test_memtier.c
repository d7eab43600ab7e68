// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_memtier.c - memory tiers and demotion targets as mm/memory-tiers.c
 * derives them, on an HMAT proposed from a small matrix, every value
 * worked out by hand in the comments.
 */
#include "unit.h"

#include "acpi_hmat.h"
#include "hmat_propose.h"
#include "memtier.h"
#include "nmatrix.h"

#include <string.h>

/*
 * Nodes 0 and 1 with CPUs and DRAM, node 2 memory only.  Latency (ns)
 * 100 150 300 / 150 105 300, read bandwidth (GB/s) 20 10 5 / 10 bw11 5;
 * SLIT 10 20 30 / 20 10 30 / 30 30 10.
 */
static const int ids[] = { 0, 1, 2 };
static const bool cpus[] = { true, true, false }, mem[] = { true, true, true };
static const int slit[] = { 10, 20, 30, 20, 10, 30, 30, 30, 10 };

static void predict(double bw11, enum ph_memtier_rule rule, struct ph_memtier *m)
{
	const int rows[] = { 0, 1 };
	struct ph_nmatrix *lat = nmatrix_new(PH_METRIC_LATENCY, 2, rows, 3, ids);
	struct ph_nmatrix *bw = nmatrix_new(PH_METRIC_BANDWIDTH, 2, rows, 3, ids);
	const double l[] = { 100, 150, 300, 150, 105, 300 }, b[] = { 20, 10, 5, 10, bw11, 5 };
	struct ph_acpi_hmat t;

	memcpy(lat->val, l, sizeof(l));
	memcpy(bw->val, b, sizeof(b));
	hmat_propose(lat, bw, NULL, &t);
	memtier_predict(rule, 3, ids, cpus, mem, slit, &t, m);
	acpi_hmat_free(&t);
	nmatrix_free(lat);
	nmatrix_free(bw);
}

static void test_hmat_rule(void **state)
{
	struct ph_memtier m;

	(void)state;
	predict(19, PH_MEMTIER_HMAT, &m);
	/*
	 * Reference node 0: 100 ns, 20000 MB/s (read = write).  Node 1: best
	 * initiator 105 ns, 19000 MB/s: 5 * 10 <= 100, 1000 * 10 <= 20000,
	 * within 10%.  adist = 576 * (l + l) / 200 * 40000 / (b + b):
	 * node 0 576; node 1 576 * 210 / 200 = 604, * 40000 / 38000 = 635
	 * (tier 4, 640 would be 5); node 2 576 * 600 / 200 = 1728, * 40000
	 * / 10000 = 6912, tier 54.
	 */
	assert_int_equal(m.ref, 0);
	assert_int_equal(m.mismatch, -1);
	assert_int_equal(m.node[0].adist, 576);
	assert_int_equal(m.node[1].adist, 635);
	assert_int_equal(m.node[2].adist, 6912);
	assert_int_equal(m.node[1].tier, 4);
	assert_int_equal(m.node[2].tier, 54);
	assert_string_equal(m.tiers, "4:0-1 54:2");
	/* Both DRAM nodes demote to node 2, the only node of the next tier; 2 to none. */
	assert_string_equal(m.node[0].demote, "2");
	assert_string_equal(m.node[1].demote, "2");
	assert_string_equal(m.node[2].demote, "");
	memtier_free(&m);
}

static void test_ten_percent(void **state)
{
	struct ph_memtier m;

	(void)state;
	/* Node 1 at 17000 MB/s: 3000 * 10 > 20000, the HMAT is switched off: one tier. */
	predict(17, PH_MEMTIER_HMAT, &m);
	assert_int_equal(m.mismatch, 1);
	assert_int_equal(m.node[2].adist, 576);
	assert_false(m.node[2].from_hmat);
	assert_string_equal(m.tiers, "4:0-2");
	assert_string_equal(m.node[0].demote, "");
	memtier_free(&m);
	/* Linux 6.1: no HMAT distance at all, whatever the figures. */
	predict(19, PH_MEMTIER_6_1, &m);
	assert_string_equal(m.tiers, "4:0-2");
	assert_int_equal(m.ref, -1);
	memtier_free(&m);
	assert_int_equal(memtier_rule_of("6.1.0-57-amd64"), PH_MEMTIER_6_1);
	assert_int_equal(memtier_rule_of("6.6.9"), PH_MEMTIER_6_1);
	assert_int_equal(memtier_rule_of("6.7.0"), PH_MEMTIER_HMAT);
	assert_int_equal(memtier_rule_of("6.12.117+deb12-amd64"), PH_MEMTIER_HMAT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hmat_rule),
		cmocka_unit_test(test_ten_percent),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
