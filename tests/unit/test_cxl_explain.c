// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_cxl_explain.c - the composition of a CXL node's coordinates
 * (cxl_explain.h), every expected value computed by hand below:
 *
 *   link latency  68 bytes x 10^6 / (2500 / 8 = 312) = 217948 ps (218 ns);
 *                 at 32 GT/s 68 x 10^6 / 4000 = 17000; at 64 GT/s 256-byte
 *                 flits, 256 x 10^6 / 8000 = 32000.
 *   link bw       2500 / 8 x 1 = 312 MB/s; 16000 / 8 x 8 = 16000;
 *                 encoded: 2500 x 8 / 10 / 8 = 250; 16 GT/s x16:
 *                 16000 x 128 / 130 = 15753, x 16 / 8 = 31506.
 *   composition   CDAT 150, 250 ns, 12000, 8000 MB/s; link 218 ns, 312
 *                 MB/s; generic port 50 ns, 30000 MB/s: 418, 518, 312,
 *                 312 (what 6.12 shows on pagehop's CXL guest).
 */
#include "unit.h"

#include "cxl_explain.h"

#include <string.h>

static void test_link(void **state)
{
	(void)state;
	assert_int_equal(cxl_link_latency_ps(2500), 217948);
	assert_int_equal(cxl_link_latency_ps(32000), 17000);
	assert_int_equal(cxl_link_latency_ps(64000), 32000);
	assert_int_equal(cxl_link_latency_ps(0), 0);
	assert_int_equal(cxl_link_bandwidth(2500, 1), 312);
	assert_int_equal(cxl_link_bandwidth(16000, 8), 16000);
	assert_int_equal(cxl_link_bandwidth(2500, 0), 0);
	assert_int_equal(cxl_link_bandwidth_encoded(2500, 1), 250);
	assert_int_equal(cxl_link_bandwidth_encoded(16000, 16), 31506);
	assert_int_equal(cxl_link_speed_mbps("2.5 GT/s PCIe"), 2500);
	assert_int_equal(cxl_link_speed_mbps("16.0 GT/s PCIe"), 16000);
	assert_int_equal(cxl_link_speed_mbps("Unknown"), 0);
}

static void test_compose(void **state)
{
	struct ph_cxl_parts p = {
		.cdat = { 150, 250, 12000, 8000 },
		.gp = { { 50, 50, 30000, 30000 }, { 60, 70, 200, 30000 } },
		.link_lat_ns = 218,
		.link_bw = 312,
	};
	struct ph_cxl_sum s;

	(void)state;
	cxl_compose(&p, &s);
	assert_int_equal(s.val[0][PH_CXL_READ_LAT], 418);
	assert_int_equal(s.val[0][PH_CXL_WRITE_LAT], 518);
	assert_int_equal(s.val[0][PH_CXL_READ_BW], 312);
	assert_int_equal(s.val[0][PH_CXL_WRITE_BW], 312);
	/* Access 1: 150 + 218 + 60, 250 + 218 + 70; the port's 200 MB/s is the least. */
	assert_int_equal(s.val[1][PH_CXL_READ_LAT], 428);
	assert_int_equal(s.val[1][PH_CXL_WRITE_LAT], 538);
	assert_int_equal(s.val[1][PH_CXL_READ_BW], 200);
	assert_int_equal(s.val[1][PH_CXL_WRITE_BW], 312);
	for (int a = 0; a < 2; a++)
		for (int f = 0; f < PH_CXL_NFIG; f++)
			assert_true(s.known[a][f]);
	/* A part missing: that figure cannot be composed, and says which. */
	p.cdat[PH_CXL_WRITE_BW] = 0;
	p.gp[1][PH_CXL_READ_LAT] = 0;
	cxl_compose(&p, &s);
	assert_false(s.known[0][PH_CXL_WRITE_BW]);
	assert_string_equal(s.missing[0][PH_CXL_WRITE_BW], "device CDAT");
	assert_false(s.known[1][PH_CXL_READ_LAT]);
	assert_string_equal(s.missing[1][PH_CXL_READ_LAT], "generic port");
	assert_true(s.known[0][PH_CXL_READ_LAT]);
}

/* Two ranges: handle 0 [0, 256 MiB) volatile, handle 1 [256, 512 MiB). */
static void test_cdat_figures(void **state)
{
	struct ph_cdat_dsmas dsmas[] = {
		{ .handle = 0, .dpa_base = 0, .dpa_length = 256u << 20 },
		{ .handle = 1, .dpa_base = 256u << 20, .dpa_length = 256u << 20 },
	};
	struct ph_cdat_dslbis dslbis[] = {
		/* handle 0: access latency 100 x 1000 ps, read bandwidth 20000. */
		{ .handle = 0, .data_type = PH_HMAT_ACCESS_LATENCY, .base_unit = 1000, .entry = { 100 } },
		{ .handle = 0, .data_type = PH_HMAT_READ_BANDWIDTH, .base_unit = 1, .entry = { 20000 } },
		/* handle 1: read latency 150500 ps (151 ns rounded up), a cache-level one skipped. */
		{ .handle = 1, .data_type = PH_HMAT_READ_LATENCY, .base_unit = 500, .entry = { 301 } },
		{ .handle = 1, .flags = 1, .data_type = PH_HMAT_READ_LATENCY, .base_unit = 1000, .entry = { 7 } },
		{ .handle = 1, .data_type = PH_HMAT_ACCESS_BANDWIDTH, .base_unit = 10, .entry = { 800 } },
		{ .handle = 1, .data_type = PH_HMAT_WRITE_BANDWIDTH, .base_unit = 1, .entry = { 6000 } },
	};
	struct ph_cdat t = { .dsmas = dsmas, .ndsmas = 2, .dslbis = dslbis, .ndslbis = 6 };
	uint32_t fig[PH_CXL_NFIG];

	(void)state;
	assert_int_equal(cxl_cdat_figures(&t, 0, 256u << 20, fig), 0);
	assert_int_equal(fig[PH_CXL_READ_LAT], 100);
	assert_int_equal(fig[PH_CXL_WRITE_LAT], 100);
	assert_int_equal(fig[PH_CXL_READ_BW], 20000);
	assert_int_equal(fig[PH_CXL_WRITE_BW], 0);
	/* The pmem partition after 256 MiB of ram holds handle 1. */
	assert_int_equal(cxl_cdat_figures(&t, 256u << 20, 256u << 20, fig), 1);
	assert_int_equal(fig[PH_CXL_READ_LAT], 151);
	assert_int_equal(fig[PH_CXL_WRITE_LAT], 0);
	assert_int_equal(fig[PH_CXL_READ_BW], 8000);
	assert_int_equal(fig[PH_CXL_WRITE_BW], 6000);
	/* One partition of all 512 MiB holds both: the higher handle wins. */
	assert_int_equal(cxl_cdat_figures(&t, 0, 512u << 20, fig), 1);
	/* None inside. */
	assert_int_equal(cxl_cdat_figures(&t, 0, 128u << 20, fig), -1);
	assert_int_equal(fig[PH_CXL_READ_LAT], 0);
}

/*
 * SRAT: generic port of _UID 12 in domain 4.  HMAT (revision 2): access
 * latency from initiators 0 and 1 to 4: 50 and 100 x 1000 ps; access
 * bandwidth 30000 and 15000 MB/s: the best, 50 ns and 30000 MB/s.
 */
static void test_generic_port(void **state)
{
	struct ph_srat_dev dev[] = { { .type = 6, .domain = 4, .uid = 12, .enabled = true,
				       .hid = "ACPI0016" } };
	struct ph_acpi_srat srat = { .dev = dev, .ndev = 1 };
	uint32_t init[] = { 0, 1 }, targ[] = { 4 };
	uint16_t lat[] = { 50, 100 }, bw[] = { 30000, 15000 };
	struct ph_hmat_lb lb[] = {
		{ .data_type = PH_HMAT_ACCESS_LATENCY, .ni = 2, .nt = 1, .base_unit = 1000,
		  .init = init, .targ = targ, .entry = lat },
		{ .data_type = PH_HMAT_ACCESS_BANDWIDTH, .ni = 2, .nt = 1, .base_unit = 1,
		  .init = init, .targ = targ, .entry = bw },
	};
	struct ph_acpi_hmat hmat = { .lb = lb, .nlb = 2 };
	uint32_t gp[2][PH_CXL_NFIG];
	const char *why;

	(void)state;
	hmat.h.revision = 2;
	assert_int_equal(cxl_generic_port(&srat, &hmat, 12, gp, &why), 4);
	assert_null(why);
	for (int a = 0; a < 2; a++) {
		assert_int_equal(gp[a][PH_CXL_READ_LAT], 50);
		assert_int_equal(gp[a][PH_CXL_WRITE_LAT], 50);
		assert_int_equal(gp[a][PH_CXL_READ_BW], 30000);
		assert_int_equal(gp[a][PH_CXL_WRITE_BW], 30000);
	}
	assert_int_equal(cxl_generic_port(&srat, &hmat, 13, gp, &why), -1);
	assert_non_null(why);
	assert_int_equal(gp[0][PH_CXL_READ_LAT], 0);
	assert_int_equal(cxl_generic_port(&srat, NULL, 12, gp, &why), 4);
	assert_non_null(why);
	assert_int_equal(gp[0][PH_CXL_READ_LAT], 0);
	dev[0].enabled = false;
	assert_int_equal(cxl_generic_port(&srat, &hmat, 12, gp, &why), -1);
}

static void test_verdict(void **state)
{
	struct ph_cxl_explained e;

	(void)state;
	memset(&e, 0, sizeof(e));
	e.sum.known[0][PH_CXL_READ_LAT] = true;
	e.sum.val[0][PH_CXL_READ_LAT] = 418;
	e.kernel_node[0][PH_CXL_READ_LAT] = 418;
	e.kernel_region[0][PH_CXL_READ_LAT] = 418;
	assert_int_equal(cxl_explain_verdict(&e, 0, PH_CXL_READ_LAT), 0);
	e.kernel_region[0][PH_CXL_READ_LAT] = 419;
	assert_int_equal(cxl_explain_verdict(&e, 0, PH_CXL_READ_LAT), 1);
	e.kernel_region[0][PH_CXL_READ_LAT] = -1;
	e.kernel_node[0][PH_CXL_READ_LAT] = 417;
	assert_int_equal(cxl_explain_verdict(&e, 0, PH_CXL_READ_LAT), 1);
	e.kernel_node[0][PH_CXL_READ_LAT] = -1;
	assert_int_equal(cxl_explain_verdict(&e, 0, PH_CXL_READ_LAT), -1);
	e.kernel_node[0][PH_CXL_READ_LAT] = 418;
	e.why = "a switch";
	assert_int_equal(cxl_explain_verdict(&e, 0, PH_CXL_READ_LAT), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_link),
		cmocka_unit_test(test_compose),
		cmocka_unit_test(test_cdat_figures),
		cmocka_unit_test(test_generic_port),
		cmocka_unit_test(test_verdict),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
