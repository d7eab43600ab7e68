// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_interleave.c - the weighted-interleave weights of
 * mm/mempolicy.c, reduce_interleave_weights(), and the bandwidth
 * mempolicy_set_node_perf() feeds it, every value worked out by hand in
 * the comments.
 */
#include "unit.h"

#include "acpi_hmat.h"
#include "hmat_propose.h"
#include "interleave.h"
#include "nmatrix.h"

#include <string.h>

static const bool all_mem[] = { true, true, true, true };

static void reduce(int n, const uint32_t *bw, const bool *mem, const uint8_t *want)
{
	uint8_t w[8];

	memset(w, 0xee, sizeof(w));
	wi_reduce(n, bw, mem, w);
	for (int k = 0; k < n; k++) {
		if (w[k] != want[k])
			print_error("node %d: weight %u, want %u\n", k, w[k], want[k]);
		assert_int_equal(w[k], want[k]);
	}
}

static void test_scale(void **state)
{
	/*
	 * sum 35000: 32 * 20000 / 35000 = 18.3 -> 18, 320000 / 35000 = 9.1
	 * -> 9, 160000 / 35000 = 4.6 -> 4; gcd(18, 9, 4) = 1.
	 */
	const uint32_t bw[] = { 20000, 10000, 5000 };
	const uint8_t want[] = { 18, 9, 4 };

	(void)state;
	reduce(3, bw, all_mem, want);
}

static void test_gcd(void **state)
{
	/* sum 50000: 640000 / 50000 = 12.8 -> 12, 12, 320000 / 50000 = 6.4 -> 6; gcd 6: 2 2 1. */
	const uint32_t bw[] = { 20000, 20000, 10000 };
	const uint8_t want[] = { 2, 2, 1 };

	(void)state;
	reduce(3, bw, all_mem, want);
}

static void test_equal(void **state)
{
	/* Four equal nodes: 32 / 4 = 8 each, gcd 8: every weight 1 (the guests' HMAT). */
	const uint32_t bw[] = { 20480, 20480, 20480, 20480 };
	const uint8_t want[] = { 1, 1, 1, 1 };

	(void)state;
	reduce(4, bw, all_mem, want);
}

static void test_no_bandwidth(void **state)
{
	/*
	 * Node 1 has memory but no bandwidth: weight 1, and it still counts
	 * in the gcd.  sum 40000: 960000 / 40000 = 24, 1, 320000 / 40000 =
	 * 8; gcd(24, 1, 8) = 1.  Without node 1 in the gcd it would be 3 1.
	 */
	const uint32_t bw[] = { 30000, 0, 10000 };
	const uint8_t want[] = { 24, 1, 8 };

	(void)state;
	reduce(3, bw, all_mem, want);
}

static void test_no_memory(void **state)
{
	/*
	 * Node 1 has no memory (not N_MEMORY): out of the sum and the gcd,
	 * weight left at 1.  sum 40000: 24 and 8, gcd 8: 3 1 1.  Were its
	 * 77777 counted, sum 117777: 8 and 2, gcd 2: 4 and 1.
	 */
	const uint32_t bw[] = { 30000, 77777, 10000 };
	const bool mem[] = { true, false, true };
	const uint8_t want[] = { 3, 1, 1 };

	(void)state;
	reduce(3, bw, mem, want);
}

static void test_small_share(void **state)
{
	/*
	 * A node with at most 1/32 of the sum gets 1: sum 101000, 3200000 /
	 * 101000 = 31.7 -> 31; 32 * 1000 = 32000 < 101000: 1.  At exactly
	 * 1/32 (31 and 1: sum 32, 32 * 1 = 32 not below 32) also 1.
	 */
	const uint32_t a[] = { 100000, 1000 }, b[] = { 31, 1 };
	const uint8_t wa[] = { 31, 1 }, wb[] = { 31, 1 };

	(void)state;
	reduce(2, a, all_mem, wa);
	reduce(2, b, all_mem, wb);
}

static void test_wrap(void **state)
{
	/*
	 * The kernel multiplies in unsigned int: 32 * 200000000 = 6.4e9
	 * wraps to 2105032704, / 3e8 = 7; 32 * 1e8 = 3.2e9 / 3e8 = 10.
	 * Exact arithmetic would give 21 and 10.
	 */
	const uint32_t bw[] = { 200000000, 100000000 };
	const uint8_t want[] = { 7, 10 };

	(void)state;
	reduce(2, bw, all_mem, want);
}

/*
 * Through the HMAT: nodes 0 and 1 with CPUs, node 2 memory only (no CPU).
 * Read bandwidth (GB/s) 20 10 5 / 10 19 5 proposed as access bandwidth
 * (read = write), MB/s: node 0's best CPU initiator 20000, node 1's
 * 19000, node 2's 5000.  sum 44000: 640000 / 44000 = 14.5 -> 14, 608000
 * / 44000 = 13.8 -> 13, 160000 / 44000 = 3.6 -> 3; gcd 1.
 */
static void test_hmat_cpuless(void **state)
{
	const int rows[] = { 0, 1 }, cols[] = { 0, 1, 2 };
	struct ph_nmatrix *bw = nmatrix_new(PH_METRIC_BANDWIDTH, 2, rows, 3, cols);
	const double b[] = { 20, 10, 5, 10, 19, 5 };
	const uint8_t want[] = { 14, 13, 3 };
	uint32_t mbps[3];
	struct ph_acpi_hmat t;

	(void)state;
	memcpy(bw->val, b, sizeof(b));
	hmat_propose(NULL, bw, NULL, &t);
	for (int k = 0; k < 3; k++)
		mbps[k] = wi_node_bandwidth(&t, (uint32_t)k);
	assert_int_equal(mbps[0], 20000);
	assert_int_equal(mbps[1], 19000);
	assert_int_equal(mbps[2], 5000);
	reduce(3, mbps, all_mem, want);
	assert_int_equal(wi_node_bandwidth(NULL, 0), 0);
	acpi_hmat_free(&t);
	nmatrix_free(bw);
}

/*
 * Read bandwidth alone (no write, no access bandwidth): min(read, write)
 * is 0, and the kernel's weight is 1.  Entries 2000 and 1000 at base
 * unit 10 MB/s: read 20000 and 10000 MB/s, write none.
 */
static void test_read_only(void **state)
{
	uint32_t init[] = { 0 }, targ[] = { 0, 1 };
	uint16_t entry[] = { 2000, 1000 };
	struct ph_hmat_lb lb = {
		.data_type = PH_HMAT_READ_BANDWIDTH, .ni = 1, .nt = 2, .base_unit = 10,
		.init = init, .targ = targ, .entry = entry,
	};
	struct ph_acpi_hmat t = { .lb = &lb, .nlb = 1 };

	(void)state;
	t.h.revision = 2;
	assert_int_equal(wi_node_bandwidth(&t, 0), 0);
	assert_int_equal(wi_node_bandwidth(&t, 1), 0);
	lb.data_type = PH_HMAT_ACCESS_BANDWIDTH;
	assert_int_equal(wi_node_bandwidth(&t, 0), 20000);
	assert_int_equal(wi_node_bandwidth(&t, 1), 10000);
}

static void test_support(void **state)
{
	(void)state;
	assert_int_equal(wi_support_of("6.1.0-57-amd64"), PH_WI_ABSENT);
	assert_int_equal(wi_support_of("6.8.0"), PH_WI_ABSENT);
	assert_int_equal(wi_support_of("6.9.0"), PH_WI_MANUAL);
	assert_int_equal(wi_support_of("6.12.117+deb12-amd64"), PH_WI_MANUAL);
	assert_int_equal(wi_support_of("6.15.9"), PH_WI_MANUAL);
	assert_int_equal(wi_support_of("6.16.0"), PH_WI_AUTO);
	assert_int_equal(wi_support_of("6.18.44-fc-v782"), PH_WI_AUTO);
	assert_int_equal(wi_support_of("7.0"), PH_WI_AUTO);
	assert_int_equal(wi_support_of("5.15.0"), PH_WI_ABSENT);
	assert_int_equal(wi_support_of("unknown"), PH_WI_ABSENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scale),
		cmocka_unit_test(test_gcd),
		cmocka_unit_test(test_equal),
		cmocka_unit_test(test_no_bandwidth),
		cmocka_unit_test(test_no_memory),
		cmocka_unit_test(test_small_share),
		cmocka_unit_test(test_wrap),
		cmocka_unit_test(test_hmat_cpuless),
		cmocka_unit_test(test_read_only),
		cmocka_unit_test(test_support),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
