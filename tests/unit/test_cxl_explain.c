// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_cxl_explain.c - the composition of a CXL node's coordinates
 * (cxl_explain.h), every expected value computed by hand below:
 *
 *   link latency  flit bytes x 10^6 / (Mb/s / 8, an integer), an integer,
 *                 in ps, then ns rounded up:
 *                   2.5 GT/s  2500 / 8 = 312 (312.5 cut), 68000000 / 312
 *                             = 217948.7, 217948 ps, 218 ns;
 *                   5 GT/s    5000 / 8 = 625, 68000000 / 625 = 108800 ps,
 *                             108.8: 109 ns;
 *                   8 GT/s    8000 / 8 = 1000, 68000 ps, 68 ns;
 *                   16 GT/s   2000, 34000 ps, 34 ns;
 *                   32 GT/s   4000, 17000 ps, 17 ns;
 *                   64 GT/s   256-byte flits, 8000, 256000000 / 8000 =
 *                             32000 ps, 32 ns.
 *   link bw       2500 / 8 x 1 = 312 MB/s; 16000 / 8 x 8 = 16000;
 *                 encoded: 2500 x 8 / 10 / 8 = 250; 16 GT/s x16:
 *                 16000 x 128 / 130 = 15753, x 16 / 8 = 31506.
 *   composition   CDAT 150, 250 ns, 12000, 8000 MB/s; link 218 ns, 312
 *                 MB/s; generic port 50 ns, 30000 MB/s: 418, 518, 312,
 *                 312 (what 6.12 shows on pagehop's CXL guest).
 *   interleaved   two devices on root ports of host bridge 12, links 218
 *                 ns and 312 MB/s, generic port 50 ns, 30000 MB/s: mem0
 *                 CDAT 150, 250, 12000, 8000 (composed 418, 518, 312,
 *                 312), mem1 300, 400, 6000, 4000 (568, 668, 312, 312).
 *                 Region: latency the worst, 568 and 668; bandwidth
 *                 min(12000, 312) + min(6000, 312) = 624, min(624,
 *                 30000) = 624 (what 6.12 shows on pagehop's cxl2
 *                 guest).  With the port at 500 MB/s (access 1 read):
 *                 min(624, 500) = 500, where the devices' own figures,
 *                 min(CDAT, link, 500) each, would sum to 624.  Three
 *                 devices, two bridges: mem0 and mem1 on bridge 12
 *                 (port 400 MB/s), 312 + 312 = 624, min 400; mem2 on
 *                 bridge 13 (port 30000), CDAT 100: min(100, 312) =
 *                 100; 400 + 100 = 500.
 */
#include "unit.h"

#include "cxl_explain.h"
#include "cxl_judge.h"
#include "cxl_effects.h"
#include "memtier.h"

#include <math.h>

#include <stdlib.h>
#include <string.h>

static void test_link(void **state)
{
	static const struct { int mbps; uint32_t ps, ns; } rate[] = {
		{ 2500, 217948, 218 }, { 5000, 108800, 109 }, { 8000, 68000, 68 },
		{ 16000, 34000, 34 }, { 32000, 17000, 17 }, { 64000, 32000, 32 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rate) / sizeof(rate[0]); i++) {
		assert_int_equal(cxl_link_latency_ps(rate[i].mbps), rate[i].ps);
		assert_int_equal(cxl_link_latency_ns(cxl_link_latency_ps(rate[i].mbps)), rate[i].ns);
	}
	assert_int_equal(cxl_link_latency_ps(0), 0);
	assert_int_equal(cxl_link_latency_ns(0), 0);
	/* 1 ps is already a part of a ns: 1 ns; 1000 ps exactly 1. */
	assert_int_equal(cxl_link_latency_ns(1), 1);
	assert_int_equal(cxl_link_latency_ns(1000), 1);
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

/* A device path of the given parts, its own composition set by hand. */
static void path(struct ph_cxl_devpath *d, int64_t hb, const uint32_t cdat[PH_CXL_NFIG],
		 uint32_t gp_bw, const uint32_t sum[PH_CXL_NFIG])
{
	memset(d, 0, sizeof(*d));
	d->hb_uid = hb;
	d->parts.link_lat_ns = 218;
	d->parts.link_bw = 312;
	for (int a = 0; a < 2; a++)
		for (int f = 0; f < PH_CXL_NFIG; f++) {
			d->parts.cdat[f] = cdat[f];
			d->parts.gp[a][f] = cxl_fig_is_latency(f) ? 50 : gp_bw;
			d->sum.val[a][f] = sum[f];
			d->sum.known[a][f] = true;
		}
}

static void test_compose_region(void **state)
{
	static const uint32_t c0[] = { 150, 250, 12000, 8000 }, s0[] = { 418, 518, 312, 312 };
	static const uint32_t c1[] = { 300, 400, 6000, 4000 }, s1[] = { 568, 668, 312, 312 };
	static const uint32_t c2[] = { 150, 250, 100, 100 }, s2[] = { 418, 518, 100, 100 };
	static const uint32_t want[] = { 568, 668, 624, 624 };
	struct ph_cxl_devpath d[3];
	struct ph_cxl_sum s;

	(void)state;
	path(&d[0], 12, c0, 30000, s0);
	path(&d[1], 12, c1, 30000, s1);
	cxl_compose_region(d, 2, &s);
	for (int a = 0; a < 2; a++)
		for (int f = 0; f < PH_CXL_NFIG; f++) {
			assert_true(s.known[a][f]);
			assert_int_equal(s.val[a][f], want[f]);
		}
	/* The port binds the bridge's sum, not each device. */
	d[0].parts.gp[1][PH_CXL_READ_BW] = d[1].parts.gp[1][PH_CXL_READ_BW] = 500;
	cxl_compose_region(d, 2, &s);
	assert_int_equal(s.val[1][PH_CXL_READ_BW], 500);
	assert_int_equal(s.val[0][PH_CXL_READ_BW], 624);
	assert_int_equal(s.val[1][PH_CXL_READ_LAT], 568);
	/* Two bridges, the second's device between the first's two. */
	path(&d[0], 12, c0, 400, s0);
	path(&d[1], 13, c2, 30000, s2);
	path(&d[2], 12, c1, 400, s1);
	cxl_compose_region(d, 3, &s);
	assert_int_equal(s.val[0][PH_CXL_READ_BW], 500);
	assert_int_equal(s.val[0][PH_CXL_WRITE_BW], 500);
	assert_int_equal(s.val[0][PH_CXL_READ_LAT], 568);
	/* A device's figure missing: the region's cannot be composed, and says which. */
	d[1].sum.known[0][PH_CXL_WRITE_LAT] = false;
	d[1].sum.missing[0][PH_CXL_WRITE_LAT] = "generic port";
	cxl_compose_region(d, 3, &s);
	assert_false(s.known[0][PH_CXL_WRITE_LAT]);
	assert_string_equal(s.missing[0][PH_CXL_WRITE_LAT], "generic port");
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

/*
 * The judge on the guest's parts with the CDAT's read latency at 750 (5x):
 * the sum 750 + 218 + 50 = 1018; measured 418 +- 0.5 ns from CPU node 0,
 * 468 from node 1 (the best is node 0's).  CDAT: implied 418 - 268 = 150,
 * error (750 - 150) / 150 = +400%: off.  Port: implied 418 - 968 < 0:
 * cannot tell.  With the CDAT at 150: implied 150, error 0, uncertainty
 * max(0.5 / 418, 1%) x 418 / 150 = 2.79%: agrees; the port's 50: implied
 * 50, uncertainty 1% x 418 / 50 = 8.36% <= 15%: agrees.  Bandwidth:
 * 12000 MiB/s above the binding 312: not seen.
 */
static void test_judge(void **state)
{
	struct ph_cxl_explained e;
	struct ph_cxl_measured m[2] = {
		{ .node = 2, .cpu_node = 1, .have_lat = true, .lat_ns = 468, .lat_lo = NAN, .lat_hi = NAN,
		  .lat_ci_met = true },
		{ .node = 2, .cpu_node = 0, .have_lat = true, .lat_ns = 418, .lat_lo = 417.5, .lat_hi = 418.5,
		  .lat_ci_met = true, .have_bw = true, .bw_GBps = 0.3, .bw_lo = NAN, .bw_hi = NAN,
		  .bw_ci_met = true },
	};
	struct ph_cxl_judged *j;
	int n;

	(void)state;
	memset(&e, 0, sizeof(e));
	e.node = 2;
	e.cdat_handle = 0;
	e.gp_domain = 4;
	e.parts = (struct ph_cxl_parts){ .cdat = { 750, 250, 12000, 8000 },
					 .gp = { { 50, 50, 30000, 30000 }, { 50, 50, 30000, 30000 } },
					 .link_lat_ns = 218, .link_bw = 312 };
	cxl_compose(&e.parts, &e.sum);
	n = cxl_judge(&e, 1, m, 2, 0.15, 0.01, &j);
	assert_int_equal(n, 8);
	assert_string_equal(j[0].source, "device CDAT");
	assert_string_equal(j[0].entry, "DSLBIS read_latency_ns (DSMAS 0)");
	assert_int_equal(j[0].cpu_node, 0);
	assert_true(fabs(j[0].implied - 150) < 1e-9);
	assert_true(fabs(j[0].rel_err - 4.0) < 1e-9);
	assert_int_equal(j[0].verdict, PH_CXL_OFF);
	assert_int_equal(j[1].verdict, PH_CXL_UNSEEN);	/* write latency */
	assert_int_equal(j[2].verdict, PH_CXL_UNSEEN);	/* bandwidth behind the link */
	assert_string_equal(j[4].source, "generic port");
	assert_int_equal(j[4].verdict, PH_CXL_CANNOT_TELL);
	free(j);

	e.parts.cdat[PH_CXL_READ_LAT] = 150;
	cxl_compose(&e.parts, &e.sum);
	n = cxl_judge(&e, 1, m, 2, 0.15, 0.01, &j);
	assert_int_equal(j[0].verdict, PH_CXL_AGREES);
	assert_true(fabs(j[0].unc - 0.01 * 418 / 150) < 1e-9);
	assert_int_equal(j[4].verdict, PH_CXL_AGREES);
	assert_true(fabs(j[4].unc - 0.01 * 418 / 50) < 1e-9);
	free(j);
	/* The best latency missed its CI target: cannot tell. */
	m[1].lat_ci_met = false;
	n = cxl_judge(&e, 1, m, 2, 0.15, 0.01, &j);
	assert_int_equal(n, 8);
	assert_int_equal(j[0].verdict, PH_CXL_CANNOT_TELL);
	free(j);
}

/*
 * The proposal: the guest's CDAT (read latency 750 x 1000 ps, write 250,
 * read bandwidth 12000, write 8000) with the measurement implying 150 ns
 * for the read latency: its entry becomes 150 (base 1000 kept), every
 * other entry as it was; a bandwidth not seen is left.  Built with
 * cdat_build and read back with cdat_parse.  An implied 70 ms (7 x 10^10
 * ps) does not fit in 16 bits over 1000, 10^4, 10^5 or 10^6 ps (70000 at
 * 10^6): the base grows to 10^7, entry 7000.
 */
static void test_propose_cdat(void **state)
{
	struct ph_cdat_dsmas dsmas[] = { { .handle = 0, .dpa_length = 512u << 20 } };
	struct ph_cdat_dslbis dslbis[] = {
		{ .handle = 0, .data_type = PH_HMAT_READ_LATENCY, .base_unit = 1000, .entry = { 750 } },
		{ .handle = 0, .data_type = PH_HMAT_WRITE_LATENCY, .base_unit = 1000, .entry = { 250 } },
		{ .handle = 0, .data_type = PH_HMAT_READ_BANDWIDTH, .base_unit = 1, .entry = { 12000 } },
		{ .handle = 0, .data_type = PH_HMAT_WRITE_BANDWIDTH, .base_unit = 1, .entry = { 8000 } },
	};
	struct ph_cdat t = { .revision = 1, .dsmas = dsmas, .ndsmas = 1, .dslbis = dslbis, .ndslbis = 4 };
	struct ph_cxl_explained e = { .node = 2, .cdat_handle = 0 };
	struct ph_cxl_judged j[] = {
		{ .node = 2, .source = "device CDAT", .fig = PH_CXL_READ_LAT, .implied = 150,
		  .verdict = PH_CXL_OFF },
		{ .node = 2, .source = "device CDAT", .fig = PH_CXL_READ_BW, .implied = 0.3,
		  .verdict = PH_CXL_UNSEEN },
	};
	struct ph_cdat out, back;
	const char *why;
	char perr[160];
	uint8_t *bytes;
	size_t len;

	(void)state;
	assert_int_equal(cxl_propose_cdat(&t, &e, j, 2, &out, &why), 1);
	assert_null(why);
	bytes = cdat_build(&out, &len);
	assert_int_equal(cdat_parse(bytes, len, &back, perr, sizeof(perr)), 0);
	assert_int_equal(back.ndslbis, 4);
	assert_int_equal(back.dslbis[0].entry[0], 150);
	assert_int_equal(back.dslbis[0].base_unit, 1000);
	assert_int_equal(back.dslbis[1].entry[0], 250);
	assert_int_equal(back.dslbis[2].entry[0], 12000);
	assert_int_equal(back.dslbis[3].entry[0], 8000);
	assert_int_equal(back.ndsmas, 1);
	assert_int_equal(back.dsmas[0].dpa_length, 512u << 20);
	free(bytes);
	cdat_free(&back);
	cdat_free(&out);
	j[0].implied = 7e7;	/* ns: 7 x 10^10 ps */
	assert_int_equal(cxl_propose_cdat(&t, &e, j, 1, &out, &why), 1);
	assert_int_equal(out.dslbis[0].base_unit, 10000000);
	assert_int_equal(out.dslbis[0].entry[0], 7000);
	cdat_free(&out);
}

/*
 * Effects, by hand: node 0 (CPUs) access1 80/80 ns, 20480/20480 MB/s in
 * tier 4; node 2 (the CXL node) 418/518 ns, 312/312 MB/s in tier 1727:
 * 576 x 936 / 160 = 3369, x 40960 / 624 = 221144, >> 7 = 1727.  Proposed:
 * the CDAT's read latency judged 150 where the measurement implies 250:
 * 518 ns, 576 x 1036 / 160 = 3729, x 40960 / 624 = 244775, tier 1912.
 * Weights: 32 x 312 / 20792 < 1: 1.
 */
static void test_effects(void **state)
{
	int ids[] = { 0, 2 }, tier[] = { 4, 1727 }, wi[] = { 1, 1 };
	bool cpus[] = { true, false };
	struct ph_cxl_coord a1[] = {
		{ .present = true, .read_lat_ns = 80, .write_lat_ns = 80, .read_bw_MBps = 20480,
		  .write_bw_MBps = 20480 },
		{ .present = true, .read_lat_ns = 418, .write_lat_ns = 518, .read_bw_MBps = 312,
		  .write_bw_MBps = 312 },
	};
	struct ph_cxl_tiering t = { .n = 2, .ids = ids, .cpus = cpus, .tier = tier, .access1 = a1,
				    .wi_weight = wi };
	struct ph_cxl_explained e = { .node = 2 };
	struct ph_cxl_judged j = { .node = 2, .source = "device CDAT", .fig = PH_CXL_READ_LAT,
				   .table = 150, .implied = 250, .verdict = PH_CXL_OFF };
	struct ph_cxl_effect x;

	(void)state;
	assert_int_equal(memtier_adistance(936, 624, 160, 40960), 221144);
	cxl_effect(&e, &t, &j, 1, &x);
	assert_null(x.why);
	assert_int_equal(x.tier_now, 1727);
	assert_string_equal(x.demoted_from, "0");
	assert_int_equal(x.ref, 0);
	assert_int_equal(x.adist_kernel, 221144);
	assert_int_equal(x.tier_kernel, 1727);
	assert_int_equal(x.lat_proposed, 518);
	assert_int_equal(x.adist_proposed, 244775);
	assert_int_equal(x.tier_proposed, 1912);
	assert_int_equal(x.wi_kernel, 1);
	assert_int_equal(x.wi_now, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_link),
		cmocka_unit_test(test_compose),
		cmocka_unit_test(test_compose_region),
		cmocka_unit_test(test_cdat_figures),
		cmocka_unit_test(test_generic_port),
		cmocka_unit_test(test_verdict),
		cmocka_unit_test(test_judge),
		cmocka_unit_test(test_propose_cdat),
		cmocka_unit_test(test_effects),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
