// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_hmat_best.c - the access class 1 figures drivers/acpi/numa/hmat.c
 * gives a memory node (hmat_best_figures()): the attached initiator's
 * entries as they are, else the best latency and then the bandwidth of
 * the initiators that reached it (hmat_update_target_attrs()).  Figures
 * worked out by hand in the comments.
 */
#include "unit.h"

#include "acpi_hmat.h"
#include "hmat_table.h"

#include <string.h>

static uint32_t inits[] = { 0, 1 }, targs[] = { 2 };

/* One structure, initiators 0 and 1 to target 2; latency base 1000 ps (entries in ns). */
static struct ph_hmat_lb lb(int type, uint16_t *e)
{
	struct ph_hmat_lb l = {
		.data_type = type, .ni = 2, .nt = 1, .init = inits, .targ = targs, .entry = e,
		.base_unit = acpi_hmat_is_latency(type) ? 1000 : 1,
	};

	return l;
}

static struct ph_hmat_tier figures(struct ph_hmat_lb *l, int nlb, struct ph_hmat_mpda *a)
{
	struct ph_acpi_hmat t = { .lb = l, .nlb = nlb, .mpda = a, .nmpda = a ? 1 : 0 };
	struct ph_hmat_tier x = { .node = 2 };

	t.h.revision = 2;
	hmat_best_figures(&t, 2, &x);
	return x;
}

static void test_bandwidth_of_nearest(void **state)
{
	/*
	 * Initiator 0: 100 ns, 5000 MB/s; initiator 1: 120 ns, 8000 MB/s.
	 * Latency keeps initiator 0 alone, so the bandwidth is its 5000, not
	 * the best over both (8000).
	 */
	uint16_t lat[] = { 100, 120 }, bw[] = { 5000, 8000 };
	struct ph_hmat_lb l[] = { lb(PH_HMAT_ACCESS_LATENCY, lat), lb(PH_HMAT_ACCESS_BANDWIDTH, bw) };
	struct ph_hmat_tier x;

	(void)state;
	x = figures(l, 2, NULL);
	assert_int_equal(x.read_lat, 100);
	assert_int_equal(x.write_lat, 100);
	assert_int_equal(x.read_bw, 5000);
	assert_int_equal(x.write_bw, 5000);
	/* A tie in latency keeps both: the bandwidth is then the better, 8000. */
	lat[1] = 100;
	x = figures(l, 2, NULL);
	assert_int_equal(x.read_bw, 8000);
}

static void test_write_latency_first(void **state)
{
	/*
	 * Write latency is walked first: 0: 90, 1: 80 keeps initiator 1;
	 * read latency among {1}: 70, though initiator 0 reads in 50.
	 */
	uint16_t wl[] = { 90, 80 }, rl[] = { 50, 70 }, bw[] = { 9000, 6000 };
	struct ph_hmat_lb l[] = { lb(PH_HMAT_WRITE_LATENCY, wl), lb(PH_HMAT_READ_LATENCY, rl),
				  lb(PH_HMAT_ACCESS_BANDWIDTH, bw) };
	struct ph_hmat_tier x;

	(void)state;
	x = figures(l, 3, NULL);
	assert_int_equal(x.write_lat, 80);
	assert_int_equal(x.read_lat, 70);
	assert_int_equal(x.read_bw, 6000);
}

static void test_attached_initiator(void **state)
{
	/* Memory domain 2 attached to initiator 1: its entries as they are, 120 ns and 8000. */
	uint16_t lat[] = { 100, 120 }, bw[] = { 9000, 8000 };
	struct ph_hmat_lb l[] = { lb(PH_HMAT_ACCESS_LATENCY, lat), lb(PH_HMAT_ACCESS_BANDWIDTH, bw) };
	struct ph_hmat_mpda a = { .initiator_valid = true, .initiator_pd = 1, .memory_pd = 2 };
	struct ph_hmat_tier x;

	(void)state;
	x = figures(l, 2, &a);
	assert_int_equal(x.read_lat, 120);
	assert_int_equal(x.read_bw, 8000);
	/* Without the valid flag the field is ignored: 100 ns, then initiator 0's 9000. */
	a.initiator_valid = false;
	x = figures(l, 2, &a);
	assert_int_equal(x.read_lat, 100);
	assert_int_equal(x.read_bw, 9000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bandwidth_of_nearest),
		cmocka_unit_test(test_write_latency_first),
		cmocka_unit_test(test_attached_initiator),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
