// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_tlb.c - TLB decoding from CPUID register values decoded by hand.
 */
#include "unit.h"
#include "tlb.h"

static void expect_tlb(const struct ph_tlbs *t, int level, uint64_t page, int entries, int ways)
{
	for (int i = 0; i < t->n; i++)
		if (t->t[i].level == level && t->t[i].page == page) {
			assert_int_equal(t->t[i].entries, entries);
			assert_int_equal(t->t[i].ways, ways);
			return;
		}
	fail_msg("no L%d TLB for %llu-byte pages", level, (unsigned long long)page);
}

static void test_amd(void **state)
{
	struct ph_tlbs t;
	int e = 0;

	(void)state;
	/*
	 * An AMD EPYC (Zen 3):
	 *   0x80000005 EAX 0xff40ff40: L1 2M data 0x40 = 64 entries, 0xff = full
	 *              EBX 0xff40ff40: L1 4K data 64 entries, full
	 *   0x80000006 EAX 0x48002200: L2 2M data 0x800 = 2048 entries, code 4 = 4-way
	 *              EBX 0x68004200: L2 4K data 2048 entries, code 6 = 8-way
	 *   0x80000019 EAX 0xf040f040: L1 1G data 0x040 = 64 entries, code f = full
	 *              EBX 0xf0400000: L2 1G data 64 entries, full
	 */
	tlb_decode_amd(0xff40ff40, 0xff40ff40, 0x48002200, 0x68004200, 0xf040f040, 0xf0400000, &t);
	assert_int_equal(t.n, 6);
	expect_tlb(&t, 1, 4096, 64, 0);
	expect_tlb(&t, 1, 2 << 20, 64, 0);
	expect_tlb(&t, 2, 4096, 2048, 8);
	expect_tlb(&t, 2, 2 << 20, 2048, 4);
	expect_tlb(&t, 1, 1ull << 30, 64, 0);
	expect_tlb(&t, 2, 1ull << 30, 64, 0);
	/* Reach: 64 x 4 KiB = 256 KiB; 2048 x 4 KiB = 8 MiB; 2048 x 2 MiB = 4 GiB. */
	assert_int_equal(tlb_reach(&t, 1, 4096, &e), 256 << 10);
	assert_int_equal(e, 64);
	assert_int_equal(tlb_reach(&t, 2, 4096, NULL), 8 << 20);
	assert_int_equal(tlb_reach(&t, 2, 2 << 20, NULL), 4ull << 30);
	/* A CPU without leaf 0x80000019: no 1G entries, and reach 0. */
	tlb_decode_amd(0xff40ff40, 0xff40ff40, 0x48002200, 0x68004200, 0, 0, &t);
	assert_int_equal(t.n, 4);
	assert_int_equal(tlb_reach(&t, 1, 1ull << 30, NULL), 0);
}

static void test_intel(void **state)
{
	struct ph_tlbs t = { 0 };

	(void)state;
	/*
	 * Leaf 0x18: EDX 0x121 = type 1 (data), level 1, bit 8 fully associative;
	 * EBX 0x00040003 = 4 ways, 4K and 2M pages; ECX 16 sets -> 64 entries.
	 */
	tlb_decode_intel18(0x00040003, 16, 0x121, &t);
	assert_int_equal(t.n, 2);
	expect_tlb(&t, 1, 4096, 64, 0);
	expect_tlb(&t, 1, 2 << 20, 64, 0);
	/*
	 * EDX 0x43 = type 3 (unified), level 2; EBX 0x000c0009 = 12 ways, 4K and
	 * 1G; ECX 128 sets -> 1536 entries.  An instruction TLB (type 2) is skipped.
	 */
	tlb_decode_intel18(0x000c0009, 128, 0x43, &t);
	tlb_decode_intel18(0x00080001, 16, 0x22, &t);
	assert_int_equal(t.n, 4);
	expect_tlb(&t, 2, 4096, 1536, 12);
	expect_tlb(&t, 2, 1ull << 30, 1536, 12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_amd),
		cmocka_unit_test(test_intel),
	};

	return cmocka_run_group_tests_name("tlb", tests, NULL, NULL);
}
