// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_pagefx.c - knee attribution and the anomaly rules of the page-size
 * study on hand-made curves and figures, their answers worked out by hand.
 * The knees are found by the study's own knee rule (sweep_knee), then
 * attributed.
 */
#include "unit.h"
#include "pagefx.h"
#include "sweep.h"
#include "util.h"

#include <math.h>
#include <string.h>

/*
 * A Skylake-like machine: 64 x 4K L1 DTLB (256 KiB), 1536 x 4K L2 TLB
 * (6 MiB); 32 x 2M L1 (64 MiB), 1536 x 2M L2 (3 GiB); L1d 32K, L2 1M, L3 8M.
 */
static const struct pagefx_capacity caps_4k[] = {
	{ PAGEFX_TLB, 256 * KiB, "L1 DTLB 64 x 4 KiB" },
	{ PAGEFX_TLB, 6 * MiB, "L2 TLB 1536 x 4 KiB" },
	{ PAGEFX_CACHE, 32 * KiB, "L1d cache" },
	{ PAGEFX_CACHE, 1 * MiB, "L2 cache" },
	{ PAGEFX_CACHE, 8 * MiB, "L3 cache" },
};

static const struct pagefx_capacity caps_2m[] = {
	{ PAGEFX_TLB, 64 * MiB, "L1 DTLB 32 x 2 MiB" },
	{ PAGEFX_TLB, 3 * GiB, "L2 TLB 1536 x 2 MiB" },
	{ PAGEFX_CACHE, 32 * KiB, "L1d cache" },
	{ PAGEFX_CACHE, 1 * MiB, "L2 cache" },
	{ PAGEFX_CACHE, 8 * MiB, "L3 cache" },
};

/* Working sets 64K .. 256M, and the knee of curve y (no noise) as above/at. */
static void knee_of(const double *y, int n, uint64_t *above, uint64_t *at)
{
	struct sweep_knee k;

	sweep_knee(y, NULL, n, 2.0, &k);
	*above = k.index > 0 ? (64 * KiB) << (k.index - 1) : 0;
	*at = k.index > 0 ? (64 * KiB) << k.index : 0;
}

static void test_fits(void **state)
{
	(void)state;
	/* Knee between 8M and 16M: capacities from 4M up to (not) 32M fit. */
	assert_true(pagefx_fits(8 * MiB, 16 * MiB, 8 * MiB));
	assert_true(pagefx_fits(8 * MiB, 16 * MiB, 4 * MiB));
	assert_true(pagefx_fits(8 * MiB, 16 * MiB, 24 * MiB));
	assert_false(pagefx_fits(8 * MiB, 16 * MiB, 32 * MiB));
	assert_false(pagefx_fits(8 * MiB, 16 * MiB, 2 * MiB));
	assert_false(pagefx_fits(8 * MiB, 16 * MiB, 144 * MiB));
	assert_false(pagefx_fits(8 * MiB, 0, 8 * MiB));	/* no knee */
}

/*
 * A run's case: on 2 MiB pages, random minus TLB-local rises above
 * 8 MiB, 18 times below the 144 MiB L1 DTLB reach.  Whether it is read as a
 * locality curve (expected: cache) or as a translation curve (expected:
 * TLB), it is the L3 cache's knee, not a TLB's; as a translation knee it
 * lies below the reach it would come from, and is flagged.
 */
static void test_cache_knee_not_tlb(void **state)
{
	/* 64K 128K 256K 512K 1M 2M 4M 8M 16M 32M 64M 128M 256M */
	static const double y[] = { 0, 0, 0.5, 0, 0.3, 0.2, 0.4, 0.8, 40, 55, 60, 62, 63 };
	struct pagefx_capacity c[ARRAY_SIZE(caps_2m)];
	struct pagefx_flag fl[4];
	struct pagefx_attr a;
	uint64_t above, at;

	(void)state;
	memcpy(c, caps_2m, sizeof(c));
	c[0] = (struct pagefx_capacity){ PAGEFX_TLB, 144 * MiB, "L1 DTLB 72 x 2 MiB" };
	knee_of(y, ARRAY_SIZE(y), &above, &at);
	assert_int_equal(above, 8 * MiB);
	assert_int_equal(at, 16 * MiB);

	pagefx_attribute(above, at, PAGEFX_CACHE, c, ARRAY_SIZE(c), &a);
	assert_int_equal(a.kind, PAGEFX_CACHE);
	assert_string_equal(c[a.cap].what, "L3 cache");
	assert_false(a.below_reach);	/* a cache effect has no reach to be below */

	pagefx_attribute(above, at, PAGEFX_TLB, c, ARRAY_SIZE(c), &a);
	assert_int_equal(a.kind, PAGEFX_CACHE);
	assert_string_equal(c[a.cap].what, "L3 cache");
	assert_true(a.below_reach);
	assert_int_equal(pagefx_below_reach("translation 4K vs 2M", above, &a, c, ARRAY_SIZE(c), fl, 4), 1);
	assert_non_null(strstr(fl[0].what, "below the L1 DTLB 72 x 2 MiB reach of 144 MiB"));
	assert_non_null(strstr(fl[0].reason, "cache"));
}

/* A translation knee at the 4K L1 DTLB's reach is the TLB's, and is not flagged. */
static void test_tlb_knee(void **state)
{
	/* 64K 128K 256K 512K 1M ... */
	static const double y[] = { 0.1, 0, 0.2, 6, 7, 8, 9, 20, 30, 31, 31, 32, 32 };
	struct pagefx_flag fl[4];
	struct pagefx_attr a;
	uint64_t above, at;

	(void)state;
	knee_of(y, ARRAY_SIZE(y), &above, &at);
	assert_int_equal(above, 256 * KiB);
	pagefx_attribute(above, at, PAGEFX_TLB, caps_4k, ARRAY_SIZE(caps_4k), &a);
	assert_int_equal(a.kind, PAGEFX_TLB);
	assert_string_equal(caps_4k[a.cap].what, "L1 DTLB 64 x 4 KiB");
	assert_int_equal(a.also, -1);
	assert_false(a.below_reach);
	assert_int_equal(pagefx_below_reach("translation", above, &a, caps_4k, ARRAY_SIZE(caps_4k), fl, 4), 0);
	/* Above 4M: the 6 MiB L2 TLB fits, and so does the 8 MiB L3, which is said. */
	pagefx_attribute(4 * MiB, 8 * MiB, PAGEFX_TLB, caps_4k, ARRAY_SIZE(caps_4k), &a);
	assert_int_equal(a.kind, PAGEFX_TLB);
	assert_string_equal(caps_4k[a.cap].what, "L2 TLB 1536 x 4 KiB");
	assert_string_equal(caps_4k[a.also].what, "L3 cache");
}

/* A knee no capacity fits is unexplained; below the reach it is flagged. */
static void test_unexplained(void **state)
{
	struct pagefx_flag fl[4];
	struct pagefx_attr a;

	(void)state;
	/* 2M pages: knee between 256M and 512M: no 2M TLB (64M, 3G) nor cache fits. */
	pagefx_attribute(256 * MiB, 512 * MiB, PAGEFX_TLB, caps_2m, ARRAY_SIZE(caps_2m), &a);
	assert_int_equal(a.kind, PAGEFX_UNEXPLAINED);
	assert_int_equal(a.cap, -1);
	assert_false(a.below_reach);
	/*
	 * Between 4M and 8M on 2M pages where no L3 is reported (the last
	 * entry left out): nothing fits, and it lies below the 64M reach.
	 */
	pagefx_attribute(4 * MiB, 8 * MiB, PAGEFX_TLB, caps_2m, ARRAY_SIZE(caps_2m) - 1, &a);
	assert_int_equal(a.kind, PAGEFX_UNEXPLAINED);
	assert_true(a.below_reach);
	assert_int_equal(pagefx_below_reach("translation", 4 * MiB, &a, caps_2m, ARRAY_SIZE(caps_2m) - 1, fl, 4), 1);
	assert_non_null(strstr(fl[0].reason, "no TLB of this CPU misses there"));
	/* No knee at all. */
	pagefx_attribute(0, 0, PAGEFX_TLB, caps_2m, ARRAY_SIZE(caps_2m), &a);
	assert_int_equal(a.kind, PAGEFX_NONE);
	assert_false(a.below_reach);
	assert_string_equal(pagefx_kind_name(PAGEFX_UNEXPLAINED), "unexplained");
}

/* A run's 8 MiB figures: 4K 28.7 ns, 2M 17.7 ns, 1G 99.9 ns (CI not met). */
static const struct pagefx_fig f4k[] = {
	{ 4 * MiB, 20.0, 0.2, true }, { 8 * MiB, 28.7, 0.3, true },
};
static const struct pagefx_fig f2m[] = {
	{ 4 * MiB, 15.0, 0.2, true }, { 8 * MiB, 17.7, 0.2, true },
};
static const struct pagefx_fig f1g[] = {
	{ 4 * MiB, 14.8, 0.2, true }, { 8 * MiB, 99.9, 30.0, false },
};

static void test_slower_large(void **state)
{
	const struct pagefx_curve c4 = { "4K", 4 * KiB, f4k, 2 };
	const struct pagefx_curve c2 = { "2M", 2 * MiB, f2m, 2 };
	const struct pagefx_curve c1 = { "1G", GiB, f1g, 2 };
	struct pagefx_fig met[2];
	struct pagefx_curve cm = c1;
	struct pagefx_flag fl[8];

	(void)state;
	/* 1G slower than 4K at 8 MiB only: 99.9 - 30 = 69.9 > 28.7 + 0.3. */
	assert_int_equal(pagefx_slower_large(&c4, &c1, false, true, fl, 8), 1);
	assert_string_equal(fl[0].figure, "1G random at 8 MiB");
	assert_non_null(strstr(fl[0].what, "1G pages slower than 4K"));
	assert_non_null(strstr(fl[0].reason, "did not meet its CI"));
	/* 2M faster than 4K: nothing. */
	assert_int_equal(pagefx_slower_large(&c4, &c2, false, true, fl, 8), 0);
	/* The order matters: the small page first. */
	assert_int_equal(pagefx_slower_large(&c1, &c4, false, true, fl, 8), 0);
	/* Within the CIs: 1G at 4 MiB 14.8 against 2M 15.0 is not slower anyway. */
	memcpy(met, f1g, sizeof(met));
	met[1].ci_met = true;
	cm.f = met;
	assert_int_equal(pagefx_slower_large(&c2, &cm, false, true, fl, 8), 1);
	assert_non_null(strstr(fl[0].reason, "hypervisor"));
	assert_int_equal(pagefx_slower_large(&c2, &cm, false, false, fl, 8), 1);
	assert_non_null(strstr(fl[0].reason, "different allocations"));
	assert_int_equal(pagefx_slower_large(&c2, &cm, true, false, fl, 8), 1);
	assert_non_null(strstr(fl[0].reason, "same frames"));
	/* Overlapping CIs are not flagged: 1G 20 +- 3 against 4K 18 +- 0. */
	met[1] = (struct pagefx_fig){ 8 * MiB, 20.0, 3.0, true };
	assert_int_equal(pagefx_slower_large(&c2, &cm, false, false, fl, 8), 0);
	/* An unknown interval (NAN) is never beyond: 1G 99.9 with no CI against 2M. */
	met[1] = (struct pagefx_fig){ 8 * MiB, 99.9, NAN, false };
	assert_int_equal(pagefx_slower_large(&c2, &cm, false, false, fl, 8), 0);
	/* max is kept. */
	assert_int_equal(pagefx_slower_large(&c4, &c1, false, true, fl, 0), 0);
}

/*
 * CIs apart is not enough: 4.2 ns (+-0.01) against 4.1 (+-0.01) is 2% and
 * 0.1 ns, what a second allocation of the same page size can do.  A flag
 * needs at least 10% and 2 ns.
 */
static void test_slower_practical(void **state)
{
	struct pagefx_fig fs[1] = { { 4 * MiB, 4.1, 0.01, true } }, fl_[1] = { { 4 * MiB, 4.2, 0.01, true } };
	const struct pagefx_curve small = { "4K", 4 * KiB, fs, 1 }, large = { "THP", 2 * MiB, fl_, 1 };
	struct pagefx_flag fl[2];

	(void)state;
	assert_int_equal(pagefx_slower_large(&small, &large, false, false, fl, 2), 0);
	/* 15% but 0.6 ns: below 2 ns. */
	fl_[0].ns = 4.1 * 1.15;
	assert_int_equal(pagefx_slower_large(&small, &large, false, false, fl, 2), 0);
	/* 2.5 ns but 5% of 50 ns: below 10%. */
	fs[0] = (struct pagefx_fig){ 4 * MiB, 50.0, 0.1, true };
	fl_[0] = (struct pagefx_fig){ 4 * MiB, 52.5, 0.1, true };
	assert_int_equal(pagefx_slower_large(&small, &large, false, false, fl, 2), 0);
	/* 10% and 5 ns: 55 against 50, CIs apart: flagged. */
	fl_[0].ns = 55.0;
	assert_int_equal(pagefx_slower_large(&small, &large, false, false, fl, 2), 1);
	assert_non_null(strstr(fl[0].what, "THP pages slower than 4K"));
}

/*
 * Working sets 64K .. 8M (8 points); a translation curve 4K against THP
 * that rises above 1 MiB by 40 ns.  With every figure's CI met the summary
 * names the knee and what it fits; with one figure it rests on unmet it
 * names nothing: no knee, no cause, no "no rise", only "not resolved at
 * this noise" and a longer --time.
 */
static void test_summary_needs_ci(void **state)
{
	static const double a_ns[] = { 20, 20, 20, 20, 21, 60, 62, 63 };
	static const double b_ns[] = { 19, 19, 19, 19, 19, 20, 21, 22 };
	struct pagefx_fig fa[8], fb[8];
	struct pagefx_curve c[2] = { { "4K", 4 * KiB, fa, 8 }, { "THP", 2 * MiB, fb, 8 } };
	struct pagefx_attr at;
	double y[8];
	struct sweep_knee k;
	char sum[640];
	int total;

	(void)state;
	for (int i = 0; i < 8; i++) {
		fa[i] = (struct pagefx_fig){ (64 * KiB) << i, a_ns[i], 0.2, true };
		fb[i] = (struct pagefx_fig){ (64 * KiB) << i, b_ns[i], 0.2, true };
		y[i] = a_ns[i] - b_ns[i];
	}
	sweep_knee(y, NULL, 8, 2.0, &k);
	assert_int_equal(k.index, 5);	/* 2 MiB: above 1 MiB */
	pagefx_attribute(1 * MiB, 2 * MiB, PAGEFX_TLB, caps_4k, ARRAY_SIZE(caps_4k), &at);
	assert_int_equal(at.kind, PAGEFX_CACHE);	/* the 1 MiB L2 fits, no 4K TLB reach does */
	/* The knee rests on points 0-2 and 4-7 of both curves: 14 figures. */
	assert_int_equal(pagefx_unmet(c, 2, k.index, &total), 0);
	assert_int_equal(total, 14);
	assert_true(pagefx_summary("translation", "4K vs THP", k.index, 1 * MiB, 8 * MiB, k.at_max, &at,
				   caps_4k, 0, total, 0.5, sum, sizeof(sum)));
	assert_non_null(strstr(sum, "rises above 1 MiB, a cache knee: L2 cache (1 MiB)"));

	/* Point 3 (512K) lies between the baseline and the knee: unmet there changes nothing. */
	fb[3].ci_met = false;
	assert_int_equal(pagefx_unmet(c, 2, k.index, &total), 0);
	/* Point 6 (4M), where the curve must stay up, unmet: not resolved. */
	fb[6].ci_met = false;
	assert_int_equal(pagefx_unmet(c, 2, k.index, &total), 1);
	assert_false(pagefx_summary("translation", "4K vs THP", k.index, 1 * MiB, 8 * MiB, k.at_max, &at,
				    caps_4k, 1, total, 0.5, sum, sizeof(sum)));
	assert_non_null(strstr(sum, "not resolved at this noise: 1 of the 14 figures it rests on missed their CI"));
	assert_non_null(strstr(sum, "--time 2"));
	assert_null(strstr(sum, "knee:"));
	assert_null(strstr(sum, "L2 cache"));
	assert_null(strstr(sum, "rises above"));

	/* No knee: "no rise" rests on every figure; with all 16 met it is said, else not. */
	for (int i = 0; i < 8; i++)
		fa[i].ci_met = fb[i].ci_met = true;
	assert_int_equal(pagefx_unmet(c, 2, -1, &total), 0);
	assert_int_equal(total, 16);
	pagefx_attribute(0, 0, PAGEFX_TLB, caps_4k, ARRAY_SIZE(caps_4k), &at);
	assert_true(pagefx_summary("translation", "4K vs THP", -1, 0, 8 * MiB, 1.0, &at, caps_4k, 0, 16,
				   0.5, sum, sizeof(sum)));
	assert_string_equal(sum, "translation 4K vs THP: no rise up to 8 MiB");
	fa[3].ci_met = false;
	assert_int_equal(pagefx_unmet(c, 2, -1, &total), 1);
	assert_false(pagefx_summary("translation", "4K vs THP", -1, 0, 8 * MiB, 1.0, &at, caps_4k, 1, 16,
				    0.5, sum, sizeof(sum)));
	assert_null(strstr(sum, "no rise"));
	assert_non_null(strstr(sum, "whether it rises: not resolved at this noise"));
}

static void test_ci_unmet(void **state)
{
	const struct pagefx_curve cs[] = { { "4K", 4 * KiB, f4k, 2 }, { "1G", GiB, f1g, 2 } };
	struct pagefx_flag fl[8];

	(void)state;
	/* A knee at index 1 rests on points 0 and 1 of both curves: 1G at 8M is unmet. */
	assert_int_equal(pagefx_ci_unmet("the translation knee", cs, 2, 1, fl, 8), 1);
	assert_string_equal(fl[0].figure, "1G at 8 MiB");
	assert_non_null(strstr(fl[0].what, "the translation knee rests on 99.9 ns"));
	/* A knee at index 0 rests on point 0 only: all met. */
	assert_int_equal(pagefx_ci_unmet("the translation knee", cs, 2, 0, fl, 8), 0);
}

static void test_hypervisor_note(void **state)
{
	char s[512];

	(void)state;
	pagefx_hypervisor_note("KVMKVMKVM", s, sizeof(s));
	assert_non_null(strstr(s, "under a hypervisor (KVMKVMKVM)"));
	assert_non_null(strstr(s, "backing page size and nested paging are part of every figure"));
	pagefx_hypervisor_note("", s, sizeof(s));
	assert_non_null(strstr(s, "under a hypervisor: the host"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fits),
		cmocka_unit_test(test_cache_knee_not_tlb),
		cmocka_unit_test(test_tlb_knee),
		cmocka_unit_test(test_unexplained),
		cmocka_unit_test(test_slower_large),
		cmocka_unit_test(test_slower_practical),
		cmocka_unit_test(test_summary_needs_ci),
		cmocka_unit_test(test_ci_unmet),
		cmocka_unit_test(test_hypervisor_note),
	};

	return cmocka_run_group_tests_name("pagefx", tests, NULL, NULL);
}
