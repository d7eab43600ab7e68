// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_hmat_propose.c - the HMAT proposed from a measurement: base units,
 * entries and the structures, against values worked out by hand.
 */
#include "unit.h"

#include "acpi_hmat.h"
#include "hmat_propose.h"
#include "nmatrix.h"

#include <math.h>
#include <string.h>

/* The smallest power of ten leaving the largest figure at most 0xfffe (65534). */
static void test_base_unit(void **state)
{
	const double ps[] = { 80000, 130000, NAN };	/* 80 and 130 ns */
	const double small[] = { 65534, 1 }, edge[] = { 65535 }, big[] = { 655349, 655350 };

	(void)state;
	assert_int_equal(hmat_base_unit(ps, 3), 10);		/* 13000 fits, 130000 does not */
	assert_int_equal(hmat_base_unit(small, 2), 1);
	assert_int_equal(hmat_base_unit(edge, 1), 10);		/* 65535 is "unreachable" */
	assert_int_equal(hmat_base_unit(big, 2), 100);		/* 655350 / 10 = 65535 */
	assert_int_equal(hmat_base_unit(ps + 2, 1), 1);		/* nothing known */
	assert_int_equal(hmat_entry(80000, 10), 8000);
	assert_int_equal(hmat_entry(90149, 10), 9015);		/* 9014.9 rounds up */
	assert_int_equal(hmat_entry(3, 10), 1);			/* never 0, "no information" */
	assert_int_equal(hmat_entry(NAN, 10), 0);
	assert_int_equal(hmat_entry(-1, 10), 0);
}

/*
 * The bound: entry x base within 1% of the figure, or within half a unit
 * (0.5 ps, 0.5 MB/s); the product within 2^32 - 1 (the kernel drops more).
 */
static void test_base_unit_bound(void **state)
{
	/* 1.234 ns and 1000 ns: base 100 writes 1234 ps as 12 x 100 = 1200 (2.8% off);
	 * the smallest base that holds 1e6 ps is 16 (1e6 / 65534.5 = 15.26): 1e6 / 16 =
	 * 62500 and 1234 / 16 = 77.125 -> 77 x 16 = 1232 (0.16% off). */
	const double wide[] = { 1234, 1e6 };
	/* 1 ns and 100000 ns: 1000 ps at base 1526 (1e8 / 65534.5 = 1525.9) is entry 1,
	 * 1526 ps, 53% off: no base holds both within 1%. */
	const double too_wide[] = { 1000, 1e8 };
	const double huge[] = { 1e303, 1e304 }, over[] = { 5e9 }, tiny[] = { 0.3 }, half[] = { 0.5 };

	(void)state;
	assert_int_equal(hmat_base_unit(wide, 2), 16);
	assert_int_equal(hmat_entry(1234, 16), 77);
	assert_int_equal(hmat_entry(1e6, 16), 62500);
	assert_true(hmat_entry_ok(1234, 77, 16));
	assert_false(hmat_entry_ok(1234, 12, 100));		/* 1200: 2.8% off */
	assert_int_equal(hmat_base_unit(too_wide, 2), 0);
	assert_false(hmat_entry_ok(1000, 1, 10000));		/* the old answer: 10 ns for 1 ns */
	assert_int_equal(hmat_base_unit(huge, 2), 0);		/* beyond 2^32 - 1 ps */
	assert_int_equal(hmat_base_unit(over, 1), 0);
	assert_int_equal(hmat_base_unit(tiny, 1), 0);		/* 0.3 cannot be an entry of 1 */
	assert_int_equal(hmat_base_unit(half, 1), 1);		/* 1 is half a unit off: accepted */
	assert_true(hmat_entry_ok(10.5, 10, 1));		/* 4.8% but half a unit off */
	assert_false(hmat_entry_ok(10.6, 10, 1));
	assert_true(hmat_entry_ok(10000, 99, 101));		/* 9999: 0.01% off */
	assert_false(hmat_entry_ok(10000, 0, 1));		/* 0 is no figure */
	assert_false(hmat_entry_ok(4294967295.0, 42950, 100000));	/* product above 2^32 - 1 */
	/* What the kernel reads of them: 77 x 16 = 1232 ps, 2 ns rounded up; 1e6 ps, 1000 ns. */
	assert_int_equal(acpi_hmat_value(77, 16, PH_HMAT_ACCESS_LATENCY, 2), 2);
	assert_int_equal(acpi_hmat_value(62500, 16, PH_HMAT_ACCESS_LATENCY, 2), 1000);
}

/*
 * The proposal of a matrix no base unit holds is a clamped model, and
 * hmat_propose_off() counts its entries beyond the bound: 1 ns local and
 * 100000 ns remote at base 10000 ps (the power of ten that holds 1e8 ps)
 * write both local cells as entry 1, 10 ns.  1.234 and 1000 ns: none.
 */
static void test_propose_off(void **state)
{
	const int ids[] = { 0, 1 };
	struct ph_nmatrix *lat = nmatrix_new(PH_METRIC_LATENCY, 2, ids, 2, ids);
	const double wide[] = { 1, 100000, 100000, 1 }, held[] = { 1.234, 1000, 1000, 1.234 };
	struct ph_acpi_hmat t;

	(void)state;
	memcpy(lat->val, wide, sizeof(wide));
	hmat_propose(lat, NULL, NULL, &t);
	assert_int_equal(t.lb[0].base_unit, 10000);
	assert_int_equal(t.lb[0].entry[0], 1);
	assert_int_equal(t.lb[0].entry[1], 10000);
	assert_int_equal(hmat_propose_off(&t, lat, NULL), 2);
	acpi_hmat_free(&t);
	memcpy(lat->val, held, sizeof(held));
	hmat_propose(lat, NULL, NULL, &t);
	assert_int_equal(t.lb[0].base_unit, 16);
	assert_int_equal(t.lb[0].entry[0], 77);
	assert_int_equal(t.lb[0].entry[1], 62500);
	assert_int_equal(hmat_propose_off(&t, lat, NULL), 0);
	acpi_hmat_free(&t);
	nmatrix_free(lat);
}

/*
 * Two CPU nodes 0 and 2 and a CPU-less node 5; latency 80.5 ns local, 131
 * ns remote, 250 ns to node 5, one cell not measured; bandwidth 20.5 GB/s
 * and 70 GB/s (70000 MB/s > 65534: base 10).
 */
static void test_propose(void **state)
{
	const int rows[] = { 0, 2 }, cols[] = { 0, 2, 5 };
	struct ph_nmatrix *lat = nmatrix_new(PH_METRIC_LATENCY, 2, rows, 3, cols);
	struct ph_nmatrix *bw = nmatrix_new(PH_METRIC_BANDWIDTH, 2, rows, 3, cols);
	const double l[] = { 80.5, 131, 250, 131, 80.5, NAN }, b[] = { 20.5, 10, 5, 10, 70, 5 };
	struct ph_acpi_hmat t;

	(void)state;
	memcpy(lat->val, l, sizeof(l));
	memcpy(bw->val, b, sizeof(b));
	assert_int_equal(hmat_propose(lat, bw, NULL, &t), 1);
	assert_int_equal(t.h.revision, 2);
	assert_int_equal(t.nlb, 2);
	/* latency: 250000 ps needs base 10; 80500 ps -> 8050, 131000 -> 13100. */
	assert_int_equal(t.lb[0].data_type, PH_HMAT_ACCESS_LATENCY);
	assert_int_equal(t.lb[0].base_unit, 10);
	assert_int_equal(t.lb[0].ni, 2);
	assert_int_equal(t.lb[0].nt, 3);
	assert_int_equal(t.lb[0].init[1], 2);
	assert_int_equal(t.lb[0].targ[2], 5);
	assert_int_equal(t.lb[0].entry[0], 8050);
	assert_int_equal(t.lb[0].entry[1], 13100);
	assert_int_equal(t.lb[0].entry[2], 25000);
	assert_int_equal(t.lb[0].entry[5], 0);
	/* The kernel reads 8050 x 10 ps as 81 ns (rounded up). */
	assert_int_equal(acpi_hmat_value(8050, 10, PH_HMAT_ACCESS_LATENCY, 2), 81);
	/* bandwidth: 70000 MB/s needs base 10: 20500 -> 2050, 70000 -> 7000. */
	assert_int_equal(t.lb[1].data_type, PH_HMAT_ACCESS_BANDWIDTH);
	assert_int_equal(t.lb[1].base_unit, 10);
	assert_int_equal(t.lb[1].entry[0], 2050);
	assert_int_equal(t.lb[1].entry[4], 7000);
	/* Domains 0, 2, 5: 0 and 2 their own initiators, 5 none. */
	assert_int_equal(t.nmpda, 3);
	assert_true(t.mpda[0].initiator_valid && t.mpda[0].initiator_pd == 0);
	assert_true(t.mpda[1].initiator_valid && t.mpda[1].initiator_pd == 2);
	assert_int_equal(t.mpda[2].memory_pd, 5);
	assert_false(t.mpda[2].initiator_valid);
	assert_int_equal(t.mpda[2].flags, 0);
	acpi_hmat_free(&t);
	nmatrix_free(lat);
	nmatrix_free(bw);
}

/*
 * Nodes 0, 1 (CPUs) and 2 (memory only); row 1 and column 2 measured
 * nowhere: left out of the structure, not written as 0.
 */
static void test_propose_left_out(void **state)
{
	const int ids[] = { 0, 1 }, cols[] = { 0, 1, 2 };
	struct ph_nmatrix *lat = nmatrix_new(PH_METRIC_LATENCY, 2, ids, 3, cols);
	const double l[] = { 80, 130, NAN, NAN, NAN, NAN };
	struct ph_acpi_hmat t;

	(void)state;
	memcpy(lat->val, l, sizeof(l));
	assert_int_equal(hmat_propose(lat, NULL, NULL, &t), 0);
	assert_int_equal(t.nlb, 1);
	assert_int_equal(t.lb[0].ni, 1);
	assert_int_equal(t.lb[0].nt, 2);
	assert_int_equal(t.lb[0].init[0], 0);
	assert_int_equal(t.lb[0].targ[0], 0);
	assert_int_equal(t.lb[0].targ[1], 1);
	assert_int_equal(t.lb[0].base_unit, 10);
	assert_int_equal(t.lb[0].entry[0], 8000);
	assert_int_equal(t.lb[0].entry[1], 13000);
	/* Domains of the memory measured only: 0 (its own initiator) and 1 (not an initiator here). */
	assert_int_equal(t.nmpda, 2);
	assert_true(t.mpda[0].initiator_valid);
	assert_int_equal(t.mpda[1].memory_pd, 1);
	assert_false(t.mpda[1].initiator_valid);
	acpi_hmat_free(&t);
	nmatrix_free(lat);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_base_unit),
		cmocka_unit_test(test_base_unit_bound),
		cmocka_unit_test(test_propose),
		cmocka_unit_test(test_propose_left_out),
		cmocka_unit_test(test_propose_off),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
