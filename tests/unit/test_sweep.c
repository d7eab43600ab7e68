// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_sweep.c - the page-size study's planner and knee detection
 * on fixed inputs with answers worked out by hand.
 */
#include "unit.h"
#include "sweep.h"
#include "util.h"

#include <math.h>
#include <string.h>

static void test_sizes(void **state)
{
	uint64_t s[64];
	int n;

	(void)state;
	n = sweep_sizes(16 * KiB, 4 * GiB, s, 64);
	/* 16K, 32K, ..., 4G: 2^14 .. 2^32 is 19 points. */
	assert_int_equal(n, 19);
	assert_int_equal(s[0], 16 * KiB);
	assert_int_equal(s[18], 4 * GiB);
	assert_int_equal(sweep_sizes(16 * KiB, 100 * KiB, s, 64), 3);	/* 16, 32, 64 K */
	assert_int_equal(sweep_sizes(1 * MiB, 16 * KiB, s, 64), 0);
	assert_int_equal(sweep_sizes(16 * KiB, 4 * GiB, s, 4), 4);	/* capped */
}

static const struct sweep_machine base = {
	.kmod_features = 0,
	.free_2m = 10, .total_2m = 10,
	.free_1g = 0, .total_1g = 0,
	.thp = true,
	.reserve = false,
	.node_free = 10 * GiB,
	.node_total = 20 * GiB,
};

static void test_availability(void **state)
{
	struct sweep_avail a[PH_PS_COUNT];
	struct sweep_machine m = base;

	(void)state;
	/* Usable: 10 GiB free minus 5% of 20 GiB = 9 GiB. */
	sweep_availability(&m, a);
	assert_true(a[PH_PS_4K].ok);
	assert_int_equal(a[PH_PS_4K].cap, 9 * GiB);
	assert_int_equal(a[PH_PS_4K].backend, PH_BACKEND_ANON);
	assert_true(a[PH_PS_2M].ok);
	assert_int_equal(a[PH_PS_2M].cap, 20 * MiB);	/* 10 free 2M pages */
	assert_int_equal(a[PH_PS_2M].backend, PH_BACKEND_HUGETLB);
	assert_false(a[PH_PS_1G].ok);
	assert_non_null(strstr(a[PH_PS_1G].why, "no free 1G"));
	assert_true(a[PH_PS_THP].ok);
	assert_int_equal(a[PH_PS_THP].cap, 9 * GiB);

	/* --reserve: the 1G pool may grow into the usable 9 GiB. */
	m.reserve = true;
	sweep_availability(&m, a);
	assert_true(a[PH_PS_1G].ok);
	assert_int_equal(a[PH_PS_1G].cap, 9 * GiB);
	assert_int_equal(a[PH_PS_2M].cap, 20 * MiB + 9 * GiB);

	/* The module maps 2M and 1G itself, from free memory. */
	m = base;
	m.kmod_features = PAGEHOP_FEAT_PAGE_4K | PAGEHOP_FEAT_PAGE_2M | PAGEHOP_FEAT_PAGE_1G;
	sweep_availability(&m, a);
	assert_int_equal(a[PH_PS_4K].backend, PH_BACKEND_KMOD);
	assert_int_equal(a[PH_PS_1G].backend, PH_BACKEND_KMOD);
	assert_true(a[PH_PS_1G].ok);
	assert_int_equal(a[PH_PS_1G].cap, 9 * GiB);

	/* No pool at all, THP off, and a nearly full node. */
	m = base;
	m.free_1g = m.total_1g = -1;
	m.thp = false;
	m.node_free = 512 * MiB;	/* below 5% of 20 GiB = 1 GiB */
	sweep_availability(&m, a);
	assert_false(a[PH_PS_1G].ok);
	assert_non_null(strstr(a[PH_PS_1G].why, "no 1G hugetlb pool"));
	assert_false(a[PH_PS_THP].ok);
	assert_false(a[PH_PS_4K].ok);
}

static void test_knee(void **state)
{
	/* 16K .. 1G: the penalty is noise (~0.5 ns) up to 256K (index 4), then rises. */
	const double rise[] = { 0.4, 0.5, 0.6, 0.5, 0.4, 3.0, 8.0, 20, 40, 60, 70, 80, 85, 85, 86, 85, 85 };
	const double quiet[17] = { 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2 };
	const double dip[] = { 0, 0, 0, 0, 0, 5, 6, 1.0, 0.5, 7, 9, 12 };
	const double flat[] = { 1, 1.2, 0.9, 1.1, 1, 1.3, 0.8, 1.1 };
	double loud[17];
	struct sweep_knee k;

	(void)state;
	/* Baseline = median(0.4, 0.5, 0.6) = 0.5; 3.0 - 0.5 = 2.5 > max(2, 0.4). */
	sweep_knee(rise, quiet, 17, 2.0, &k);
	assert_int_equal(k.index, 5);
	assert_true(fabs(k.baseline - 0.5) < 1e-12);
	assert_true(fabs(k.at_max - 84.5) < 1e-12);

	/* The same curve with +/-1.5 ns noise: 2.5 < 2 x 1.5, so the knee is the next point. */
	for (int i = 0; i < 17; i++)
		loud[i] = 1.5;
	sweep_knee(rise, loud, 17, 2.0, &k);
	assert_int_equal(k.index, 6);

	/* A rise that falls back is not the knee: the one that stays is (index 9). */
	sweep_knee(dip, NULL, 12, 2.0, &k);
	assert_int_equal(k.index, 9);

	/* No rise at all. */
	sweep_knee(flat, NULL, 8, 2.0, &k);
	assert_int_equal(k.index, -1);
	sweep_knee(flat, NULL, 1, 2.0, &k);
	assert_int_equal(k.index, -1);
}

/* A sweep of n points from 16K, doubling, with the penalty pen[i] over a 100 ns TLB-local chase. */
static void points_of(const double *pen, int n, double hw, struct sweep_point *p)
{
	for (int i = 0; i < n; i++)
		p[i] = (struct sweep_point){ .ws = (16 * KiB) << i, .rnd_ns = 100 + pen[i], .rnd_hw = hw,
					     .tlb_ns = 100, .tlb_hw = hw, .read_GBps = 10 };
}

static void test_point_knee(void **state)
{
	const double rise[] = { 0.4, 0.5, 0.6, 0.5, 0.4, 3.0, 8.0, 20, 40, 60, 70, 80, 85, 85, 86, 85, 85 };
	struct sweep_point p[17];
	struct sweep_knee k;

	(void)state;
	/* Penalty = rnd - tlb: the curve of test_knee, with the same answer. */
	points_of(rise, 17, 0.1, p);
	assert_true(fabs(sweep_penalty(&p[5]) - 3.0) < 1e-12);
	sweep_point_knee(p, 17, 2.0, &k);
	assert_int_equal(k.index, 5);
	assert_true(fabs(k.at_max - 84.5) < 1e-9);
	/* Noise is the two half-widths added: 0.75 + 0.75 = 1.5, as test_knee's loud curve. */
	points_of(rise, 17, 0.75, p);
	sweep_point_knee(p, 17, 2.0, &k);
	assert_int_equal(k.index, 6);

	/* A CI not known (NAN ends) counts as no noise. */
	assert_true(sweep_half_width(NAN, 5) == 0);
	assert_true(sweep_half_width(1, INFINITY) == 0);
	assert_true(fabs(sweep_half_width(1, 4) - 1.5) < 1e-12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_availability),
		cmocka_unit_test(test_knee),
		cmocka_unit_test(test_point_knee),
	};

	return cmocka_run_group_tests_name("sweep", tests, NULL, NULL);
}
