// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_acpi_hmat.c - the raw HMAT parser on tables built here byte by
 * byte, the kernel's conversion of entries (hmat_normalize()), and the
 * comparison of every entry with a SLIT and a measured matrix, each
 * against values worked out by hand in the comments.
 */
#include "unit.h"
#include "table_bytes.h"

#include "acpi_hmat.h"
#include "hmat_table.h"
#include "nmatrix.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void put_header(struct bytes *w, int revision)
{
	memcpy(w->b, "HMAT", 4);
	w->n = 8;
	put(w, (uint64_t)revision, 1);
	put(w, 0, 1);
	memcpy(w->b + w->n, "OEMID TABLEID1", 14);
	w->n += 14;
	put(w, 7, 4);
	memcpy(w->b + w->n, "INTL", 4);
	w->n += 4;
	put(w, 1, 4);
	put(w, 0, 4);	/* reserved */
}

static void set_length(struct bytes *w)
{
	for (int i = 0; i < 4; i++)
		w->b[4 + i] = (uint8_t)(w->n >> (8 * i));
}

/*
 * Two nodes: domains 0 and 1, each with its CPU; read latency in ps with
 * base unit 100 (entries 800 = 80 ns, 1300 = 130 ns); write bandwidth
 * base 10 (entries 2000 = 20000 MB/s, 0 = none, 0xffff = unreachable);
 * one L1 memory-side cache on domain 1.
 */
static void build_two_node(struct bytes *w, int revision)
{
	size_t at;

	memset(w, 0, sizeof(*w));
	put_header(w, revision);
	for (int n = 0; n < 2; n++) {
		put(w, 0, 2), put(w, 0, 2), put(w, 40, 4);	/* type 0, length 40 */
		put(w, n == 0 ? 1 : 0, 2), put(w, 0, 2);	/* flags: node 1's initiator not given */
		put(w, (uint64_t)n, 4), put(w, (uint64_t)n, 4);
		put(w, 0, 4), put(w, 0, 8), put(w, 0, 8);
	}
	at = w->n;
	put(w, 1, 2), put(w, 0, 2), put(w, 32 + 16 + 8, 4);
	put(w, 0, 1), put(w, PH_HMAT_READ_LATENCY, 1), put(w, 0, 2);
	put(w, 2, 4), put(w, 2, 4), put(w, 0, 4), put(w, 100, 8);
	put(w, 0, 4), put(w, 1, 4), put(w, 0, 4), put(w, 1, 4);
	put(w, 800, 2), put(w, 1300, 2), put(w, 1300, 2), put(w, 800, 2);
	assert_int_equal(w->n - at, 56);
	put(w, 1, 2), put(w, 0, 2), put(w, 32 + 4 + 8 + 4, 4);
	put(w, 0, 1), put(w, PH_HMAT_WRITE_BANDWIDTH, 1), put(w, 0, 2);
	put(w, 1, 4), put(w, 2, 4), put(w, 0, 4), put(w, 10, 8);
	put(w, 1, 4);
	put(w, 0, 4), put(w, 1, 4);
	put(w, 0, 2), put(w, 0xffff, 2);
	put(w, 2, 2), put(w, 0, 2), put(w, 34, 4);
	put(w, 1, 4), put(w, 0, 4), put(w, 1 << 30, 8);
	put(w, 2 | 1 << 4 | 2 << 8 | 2 << 12 | 128u << 16, 4);	/* 2 levels, L1, complex, write-through, 128 B */
	put(w, 0, 2), put(w, 1, 2), put(w, 0x55, 2);
	set_length(w);
}

static void test_parse_two_node(void **state)
{
	struct ph_acpi_hmat t;
	struct bytes w;
	char why[256];

	(void)state;
	build_two_node(&w, 2);
	assert_int_equal(acpi_hmat_parse(w.b, w.n, &t, why, sizeof(why)), 0);
	assert_int_equal(t.h.revision, 2);
	assert_int_equal(t.h.oem_revision, 7);
	assert_int_equal(t.nmpda, 2);
	assert_true(t.mpda[0].initiator_valid);
	assert_false(t.mpda[1].initiator_valid);
	assert_int_equal(t.mpda[1].memory_pd, 1);
	assert_int_equal(t.nlb, 2);
	assert_int_equal(t.lb[0].data_type, PH_HMAT_READ_LATENCY);
	assert_int_equal(t.lb[0].ni, 2);
	assert_int_equal(t.lb[0].nt, 2);
	assert_int_equal(t.lb[0].base_unit, 100);
	assert_int_equal(t.lb[0].entry[1], 1300);	/* initiator 0 -> target 1 */
	/* 1300 x 100 ps = 130000 ps = 130 ns; 800 x 100 = 80 ns. */
	assert_int_equal(acpi_hmat_value(t.lb[0].entry[1], 100, PH_HMAT_READ_LATENCY, 2), 130);
	assert_int_equal(acpi_hmat_value(t.lb[0].entry[3], 100, PH_HMAT_READ_LATENCY, 2), 80);
	assert_int_equal(t.lb[1].ni, 1);
	assert_int_equal(t.lb[1].init[0], 1);
	assert_int_equal(t.lb[1].entry[0], PH_HMAT_ENTRY_NONE);
	assert_int_equal(t.lb[1].entry[1], PH_HMAT_ENTRY_UNREACHABLE);
	assert_int_equal(t.ncache, 1);
	assert_int_equal(t.cache[0].memory_pd, 1);
	assert_int_equal(t.cache[0].size, 1 << 30);
	assert_int_equal(t.cache[0].total_levels, 2);
	assert_int_equal(t.cache[0].level, 1);
	assert_int_equal(t.cache[0].associativity, 2);
	assert_int_equal(t.cache[0].write_policy, 2);
	assert_int_equal(t.cache[0].line_size, 128);
	assert_int_equal(t.cache[0].nhandles, 1);
	acpi_hmat_free(&t);

	/* Every cut is refused with one phrase, nothing left behind. */
	for (size_t n = 0; n < w.n; n++) {
		why[0] = '\0';
		assert_int_equal(acpi_hmat_parse(w.b, n, &t, why, sizeof(why)), -EINVAL);
		assert_true(why[0] != '\0');
		assert_null(t.lb);
	}
}

static void test_value(void **state)
{
	(void)state;
	/* Revision 2: latency ps -> ns rounded up; bandwidth MB/s as is. */
	assert_int_equal(acpi_hmat_value(1, 1001, PH_HMAT_ACCESS_LATENCY, 2), 2);
	assert_int_equal(acpi_hmat_value(5, 1000, PH_HMAT_WRITE_LATENCY, 2), 5);
	assert_int_equal(acpi_hmat_value(5, 1000, PH_HMAT_READ_BANDWIDTH, 2), 5000);
	/* Revision 1: / 10 rounded up, and below 10 nothing. */
	assert_int_equal(acpi_hmat_value(11, 1, PH_HMAT_ACCESS_BANDWIDTH, 1), 2);
	assert_int_equal(acpi_hmat_value(9, 1, PH_HMAT_ACCESS_BANDWIDTH, 1), 0);
	/* No information, unreachable, and a product above 2^32 - 1. */
	assert_int_equal(acpi_hmat_value(0, 1000, PH_HMAT_ACCESS_LATENCY, 2), 0);
	assert_int_equal(acpi_hmat_value(0xffff, 1, PH_HMAT_ACCESS_LATENCY, 2), 0);
	assert_int_equal(acpi_hmat_value(2, 0x80000000ull, PH_HMAT_READ_BANDWIDTH, 2), 0);
	assert_int_equal(acpi_hmat_value(1, 0xffffffffull, PH_HMAT_READ_BANDWIDTH, 2), 0xffffffffu);
	assert_string_equal(acpi_hmat_data_name(PH_HMAT_WRITE_BANDWIDTH), "write_bandwidth");
	assert_string_equal(acpi_hmat_data_name(6), "?");
}

static void test_bad_counts(void **state)
{
	struct ph_acpi_hmat t;
	struct bytes w;
	char why[256];

	(void)state;
	build_two_node(&w, 2);
	/* The first locality structure (offset 120) claims 3 targets: 4 x 3 x 2 + 20 more bytes. */
	w.b[120 + 16] = 3;
	assert_int_equal(acpi_hmat_parse(w.b, w.n, &t, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "latency/bandwidth structure at offset 120: 2 initiators x 3 targets need 64 bytes; its length is 56");
	build_two_node(&w, 2);
	w.b[4] += 1;	/* the header's length one past the file */
	assert_int_equal(acpi_hmat_parse(w.b, w.n, &t, why, sizeof(why)), -EINVAL);
	build_two_node(&w, 2);
	w.b[120 + 4] = 0xff;	/* a structure longer than what is left */
	assert_int_equal(acpi_hmat_parse(w.b, w.n, &t, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "offset 120: length 255"));
}

/*
 * tests/data/hmat/qemu-4node-odd.hmat (make_hmat.py): latency 80 local,
 * 130 to the near node, 200 far, but 0 -> 2 at 110; bandwidth 20480,
 * 10240, 5120 MB/s.  SLIT 10/16/22 with pairs {0,1} {2,3}.
 */
static void test_view_sample(void **state)
{
	static const int ids[] = { 0, 1, 2, 3 };
	static const int dist[] = { 10, 16, 22, 22, 16, 10, 22, 22, 22, 22, 10, 16, 22, 22, 16, 10 };
	struct ph_slit *slit = slit_new(4, ids);
	struct ph_nmatrix *lat = nmatrix_new(PH_METRIC_LATENCY, 4, ids, 4, ids);
	struct ph_acpi_hmat t;
	struct ph_hmat_view v;
	char why[256];

	(void)state;
	memcpy(slit->dist, dist, sizeof(dist));
	/* Measured latency: 100 local, 150 near, 250 far, exactly as the SLIT orders. */
	for (int k = 0; k < 16; k++)
		lat->val[k] = dist[k] == 10 ? 100 : dist[k] == 16 ? 150 : 250;
	assert_int_equal(acpi_hmat_read("tests/data/hmat/qemu-4node-odd.hmat", &t, why, sizeof(why)), 0);
	hmat_table_view(&t, slit, lat, NULL, 0.025, 0.15, &v);
	/*
	 * Order: initiator 0 ranks target 2 (110) before 1 (130); the SLIT
	 * says 22 > 16, and measured 250 (1 - 0.025) = 243.75 > 150 (1.025) =
	 * 153.75: both disagree.  No other pair of any row does.
	 */
	assert_int_equal(v.norder, 1);
	assert_int_equal(v.norder_slit, 1);
	assert_int_equal(v.norder_measured, 1);
	assert_int_equal(v.order[0].init, 0);
	assert_int_equal(v.order[0].near, 2);
	assert_int_equal(v.order[0].far, 1);
	assert_int_equal(v.order[0].v_near, 110);
	assert_int_equal(v.order[0].s_far, 16);
	/*
	 * Ratios, latency only (no bandwidth measured): 12 remote cells.
	 * 0 -> 1: HMAT 130/80 = 1.625, measured 1.5, +8.3%: within 15%.
	 * 0 -> 2: 110/80 = 1.375 against 2.5: -45%: outside.  Far cells
	 * 200/80 = 2.5 against 2.5: 0%.  So only 0 -> 2 is outside.
	 */
	assert_int_equal(v.nratio, 12);
	assert_int_equal(v.nratio_out, 1);
	assert_int_equal(v.ratio[0].targ, 1);
	assert_float_equal(v.ratio[0].hmat, 1.625, 1e-12);
	assert_float_equal(v.ratio[0].rel_err, 1.625 / 1.5 - 1, 1e-12);
	assert_false(v.ratio[1].within);
	assert_float_equal(v.ratio[1].rel_err, 1.375 / 2.5 - 1, 1e-12);
	assert_float_equal(v.ratio[1].slit, 2.2, 1e-12);
	/* Tiering: every node's best is local, 80 ns and 20480 MB/s: nothing trips. */
	assert_int_equal(v.ntier, 4);
	assert_int_equal(v.tier_trip, -1);
	assert_int_equal(v.tier[3].read_lat, 80);
	assert_int_equal(v.tier[3].write_bw, 20480);
	hmat_view_free(&v);
	acpi_hmat_free(&t);
	slit_free(slit);
	nmatrix_free(lat);
}

/*
 * The 10% rule of mm/memory-tiers.c, mt_set_default_dram_perf():
 * |x - ref| * 10 > ref.  In the sample every node's best initiator is
 * itself at 80 ns; node 1's own latency made 89 ns (|89 - 80| * 10 = 90 >
 * 80: trips) and 88 ns (80 > 80 is false: does not).  The two-node table
 * has no bandwidth for any node: the kernel refuses its reference node.
 */
static void test_tiering_rule(void **state)
{
	struct ph_acpi_hmat t;
	struct ph_hmat_view v;
	struct bytes w;
	char why[256];

	(void)state;
	assert_int_equal(acpi_hmat_read("tests/data/hmat/qemu-4node-odd.hmat", &t, why, sizeof(why)), 0);
	assert_int_equal(t.lb[0].entry[1 * 4 + 1], 80);
	t.lb[0].entry[1 * 4 + 1] = 89;
	hmat_table_view(&t, NULL, NULL, NULL, 0.025, 0.15, &v);
	assert_int_equal(v.tier[1].read_lat, 89);
	assert_int_equal(v.tier_trip, 1);
	assert_string_equal(v.tier[1].differs, "read_latency");
	assert_null(v.tier[2].differs);
	hmat_view_free(&v);
	t.lb[0].entry[1 * 4 + 1] = 88;
	hmat_table_view(&t, NULL, NULL, NULL, 0.025, 0.15, &v);
	assert_int_equal(v.tier[1].read_lat, 88);
	assert_int_equal(v.tier_trip, -1);
	hmat_view_free(&v);
	acpi_hmat_free(&t);

	build_two_node(&w, 2);
	assert_int_equal(acpi_hmat_parse(w.b, w.n, &t, why, sizeof(why)), 0);
	hmat_table_view(&t, NULL, NULL, NULL, 0.025, 0.15, &v);
	assert_int_equal(v.ntier, 2);
	assert_int_equal(v.tier[1].read_lat, 80);
	assert_int_equal(v.tier_trip, 0);
	assert_string_equal(v.tier[0].differs, "no bandwidth");
	hmat_view_free(&v);
	acpi_hmat_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_two_node),
		cmocka_unit_test(test_value),
		cmocka_unit_test(test_bad_counts),
		cmocka_unit_test(test_view_sample),
		cmocka_unit_test(test_tiering_rule),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
