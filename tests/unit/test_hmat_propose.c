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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_base_unit),
		cmocka_unit_test(test_propose),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
