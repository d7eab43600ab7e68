// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_cxl_hmat.c - the generic port's figures a CXL measurement implies
 * (cxl_hmat.h), every expected value computed by hand:
 *
 *   parts         CDAT read latency 150 ns, read bandwidth 12000 MB/s;
 *                 link 218 ns, 312 MB/s; generic port 50 ns, 30000 MB/s.
 *   latency       CPU node 0 measured 418 ns: 418 - 150 - 218 = 50;
 *                 CPU node 1 measured 468 ns: 468 - 150 - 218 = 100.
 *   bandwidth     the link's 312 binds below the port's 30000, and 0.3
 *                 GB/s (300 MB/s) does not exceed it: the port's 30000
 *                 MB/s is kept, 30 GB/s in the matrix.  With the port at
 *                 200 MB/s (the least part) the measured 0.19 GB/s is it.
 *
 * The whole HMAT (hmat_carry.h) from a firmware table built below byte by
 * byte: initiators 0 and 1, targets 0 (DRAM) and 4 (the generic port);
 * access latency under base unit 100 ps (80, 40, 130, 90 ns as 800, 400,
 * 1300, 900), write latency under 1000 ps with flags 0x10 and minimum
 * transfer 64 (80, 60, 130, 110), access bandwidth under 10 MB/s (2048,
 * 3000, 1024, 1500); one memory proximity domain, one cache with SMBIOS
 * handles 0x11 and 0x22.  The figures above in their place, by hand:
 * 50 ns = 50000 ps / 100 = entry 500, 100 ns = 1000; 30000 MB/s / 10 =
 * 3000 for both initiators.  Everything else byte for byte as it was.
 */
#include "unit.h"

#include "acpi_hmat.h"
#include "cxl_hmat.h"
#include "hmat_carry.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void node(struct ph_cxl_explained *e, int id, long domain)
{
	memset(e, 0, sizeof(*e));
	e->node = id;
	e->gp_domain = domain;
	e->parts = (struct ph_cxl_parts){ .cdat = { 150, 250, 12000, 8000 },
					  .gp = { { 50, 50, 30000, 30000 }, { 50, 50, 30000, 30000 } },
					  .link_lat_ns = 218, .link_bw = 312 };
	cxl_compose(&e->parts, &e->sum);
}

static double cell(const struct ph_nmatrix *m, int row, int col)
{
	return m->val[nmatrix_row(m, row) * m->ncols + nmatrix_col(m, col)];
}

static void test_propose_gp(void **state)
{
	struct ph_cxl_explained e[2];
	struct ph_cxl_measured m[2] = {
		{ .node = 2, .cpu_node = 0, .have_lat = true, .lat_ns = 418, .lat_lo = 417.5,
		  .lat_hi = 418.5, .lat_ci_met = true, .have_bw = true, .bw_GBps = 0.3,
		  .bw_lo = NAN, .bw_hi = NAN, .bw_ci_met = true },
		{ .node = 2, .cpu_node = 1, .have_lat = true, .lat_ns = 468, .lat_lo = 467,
		  .lat_hi = 469, .lat_ci_met = false, .have_bw = true, .bw_GBps = 0.29,
		  .bw_lo = NAN, .bw_hi = NAN, .bw_ci_met = true },
	};
	struct ph_nmatrix *lat, *bw;
	char why[256], *text;

	(void)state;
	node(&e[0], 2, 4);
	assert_int_equal(cxl_propose_gp(e, 1, m, 2, &lat, &bw, &text, why, sizeof(why)), 0);
	assert_int_equal(lat->nrows, 2);
	assert_int_equal(lat->ncols, 1);
	assert_int_equal(lat->col_ids[0], 4);
	assert_true(fabs(cell(lat, 0, 4) - 50) < 1e-9);
	assert_true(fabs(cell(lat, 1, 4) - 100) < 1e-9);
	assert_false(lat->ci_missed[nmatrix_row(lat, 0)]);
	assert_true(lat->ci_missed[nmatrix_row(lat, 1)]);
	assert_true(fabs(cell(bw, 0, 4) - 30) < 1e-9);
	assert_true(fabs(cell(bw, 1, 4) - 30) < 1e-9);
	/* The comment says where each figure came from, and the missed CI. */
	assert_non_null(strstr(text, "initiator 0 to domain 4 (node 2): 50.00 ns = the read latency measured from CPU node 0, 418.00 ns [CI 417.50, 418.50], less the device CDAT's 150 ns"));
	assert_non_null(strstr(text, "initiator 1 to domain 4 (node 2): 100.00 ns"));
	assert_non_null(strstr(text, "[CI 467.00, 469.00], MISSED its CI target"));
	assert_non_null(strstr(text, "30000 MB/s, the firmware's"));
	assert_non_null(strstr(text, "the link's 312 MB/s binds below it"));
	nmatrix_free(lat);
	nmatrix_free(bw);
	free(text);

	/* The port the least part: the measurement is its figure. */
	e[0].parts.gp[1][PH_CXL_READ_BW] = 200;
	m[0].bw_GBps = 0.19;
	assert_int_equal(cxl_propose_gp(e, 1, m, 1, &lat, &bw, &text, why, sizeof(why)), 0);
	assert_int_equal(bw->nrows, 1);
	assert_true(fabs(cell(bw, 0, 4) - 0.19) < 1e-9);
	assert_non_null(strstr(text, "190 MB/s = the read bandwidth measured from CPU node 0"));
	nmatrix_free(lat);
	nmatrix_free(bw);
	free(text);

	/* The CDAT and the link alone exceed the measurement: no figure. */
	m[0].lat_ns = 300;
	assert_int_equal(cxl_propose_gp(e, 1, m, 1, &lat, &bw, &text, why, sizeof(why)), -EINVAL);
	assert_null(lat);
	assert_non_null(strstr(why, "alone exceed the measured 300.00 ns"));
	m[0].lat_ns = 418;

	/* Two nodes behind one port, and a node behind none. */
	node(&e[1], 3, 4);
	assert_int_equal(cxl_propose_gp(e, 2, m, 1, &lat, &bw, &text, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "nodes 2 and 3 are both behind the generic port of domain 4"));
	e[0].gp_domain = -1;
	assert_int_equal(cxl_propose_gp(e, 1, m, 1, &lat, &bw, &text, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "no CXL node behind a generic port"));
}


/* Little-endian stores into a table being built. */
static size_t put16(uint8_t *b, size_t at, uint16_t v)
{
	b[at] = v & 0xff;
	b[at + 1] = v >> 8;
	return at + 2;
}

static size_t put32(uint8_t *b, size_t at, uint32_t v)
{
	put16(b, at, v & 0xffff);
	return put16(b, at + 2, v >> 16);
}

static size_t put64(uint8_t *b, size_t at, uint64_t v)
{
	put32(b, at, (uint32_t)v);
	return put32(b, at + 4, (uint32_t)(v >> 32));
}

/* A 2 x 2 locality structure at b + at (initiators 0 1, targets 0 4); returns its end. */
static size_t put_lb(uint8_t *b, size_t at, uint8_t flags, uint8_t type, uint8_t mts,
		     uint64_t base, const uint16_t e[4])
{
	size_t p = at;

	put16(b, p, 1);
	put32(b, p + 4, 32 + 16 + 8);
	b[p + 8] = flags;
	b[p + 9] = type;
	b[p + 10] = mts;
	put32(b, p + 12, 2);
	put32(b, p + 16, 2);
	put64(b, p + 24, base);
	p += 32;
	p = put32(b, p, 0);
	p = put32(b, p, 1);
	p = put32(b, p, 0);
	p = put32(b, p, 4);
	for (int k = 0; k < 4; k++)
		p = put16(b, p, e[k]);
	return p;
}

/* The firmware table of the head comment; its length. */
static size_t firmware_hmat(uint8_t *b)
{
	static const uint16_t lat[4] = { 800, 400, 1300, 900 }, wlat[4] = { 80, 60, 130, 110 };
	static const uint16_t bw[4] = { 2048, 3000, 1024, 1500 };
	size_t p = 40;
	uint8_t sum = 0;

	memset(b, 0, 512);
	memcpy(b, "HMAT", 4);
	b[8] = 2;
	memcpy(b + 10, "PAGEHP", 6);
	memcpy(b + 16, "TEST    ", 8);
	put32(b, 24, 1);
	/* memory proximity domain 0, its own initiator */
	put16(b, p, 0);
	put32(b, p + 4, 40);
	put16(b, p + 8, 1);
	p += 40;
	p = put_lb(b, p, 0, 0, 0, 100, lat);
	p = put_lb(b, p, 0x10, 2, 64, 1000, wlat);
	p = put_lb(b, p, 0, 3, 0, 10, bw);
	/* a cache of 1 GiB for domain 0 with two SMBIOS handles */
	put16(b, p, 2);
	put32(b, p + 4, 36);
	put64(b, p + 16, 1ull << 30);
	put32(b, p + 24, 0x00401111);
	put16(b, p + 30, 2);
	put16(b, p + 32, 0x11);
	put16(b, p + 34, 0x22);
	p += 36;
	put32(b, 4, (uint32_t)p);
	for (size_t i = 0; i < p; i++)
		sum += b[i];
	b[9] = (uint8_t)-sum;
	return p;
}

/* The proposal of test_propose_gp: 50 and 100 ns, 30 GB/s, from CPU nodes 0 and 1 to domain 4. */
static void proposal(struct ph_nmatrix **lat, struct ph_nmatrix **bw)
{
	struct ph_cxl_explained e;
	struct ph_cxl_measured m[2] = {
		{ .node = 2, .cpu_node = 0, .have_lat = true, .lat_ns = 418, .lat_lo = NAN,
		  .lat_hi = NAN, .lat_ci_met = true, .have_bw = true, .bw_GBps = 0.3,
		  .bw_lo = NAN, .bw_hi = NAN, .bw_ci_met = true },
		{ .node = 2, .cpu_node = 1, .have_lat = true, .lat_ns = 468, .lat_lo = NAN,
		  .lat_hi = NAN, .lat_ci_met = true, .have_bw = true, .bw_GBps = 0.29,
		  .bw_lo = NAN, .bw_hi = NAN, .bw_ci_met = true },
	};
	char why[256], *text;

	node(&e, 2, 4);
	assert_int_equal(cxl_propose_gp(&e, 1, m, 2, lat, bw, &text, why, sizeof(why)), 0);
	free(text);
}

static void test_carry(void **state)
{
	uint8_t fwb[512];
	size_t len = firmware_hmat(fwb);
	struct ph_acpi_hmat fw;
	struct ph_hmat_carried c;
	struct ph_nmatrix *lat, *bw;
	char why[512];

	(void)state;
	assert_int_equal(acpi_hmat_parse(fwb, len, &fw, why, sizeof(why)), 0);
	assert_int_equal(fw.ncache, 1);
	assert_int_equal(fw.cache[0].nhandles, 2);
	assert_int_equal(fw.cache[0].handles[1], 0x22);
	proposal(&lat, &bw);
	assert_int_equal(hmat_carry(&fw, lat, bw, &c, why, sizeof(why)), 0);
	assert_int_equal(c.t.nlb, 3);
	assert_int_equal(c.nreplaced, 4);
	assert_int_equal(c.nadded, 0);
	/* row = initiator: 0>0, 0>4, 1>0, 1>4 */
	assert_int_equal(c.t.lb[0].entry[0], 800);
	assert_int_equal(c.t.lb[0].entry[1], 500);
	assert_int_equal(c.t.lb[0].entry[2], 1300);
	assert_int_equal(c.t.lb[0].entry[3], 1000);
	assert_int_equal(c.origin[0][1], PH_HMAT_REPLACED);
	assert_int_equal(c.origin[0][2], PH_HMAT_CARRIED);
	assert_memory_equal(c.t.lb[1].entry, fw.lb[1].entry, 4 * sizeof(uint16_t));
	assert_int_equal(c.t.lb[2].entry[1], 3000);
	assert_int_equal(c.t.lb[2].entry[3], 3000);
	assert_int_equal(c.t.lb[2].entry[2], 1024);
	hmat_carried_free(&c);

	/* A bandwidth structure missing: the port's figures are added as one of their own. */
	fw.lb[2].data_type = PH_HMAT_WRITE_BANDWIDTH;
	assert_int_equal(hmat_carry(&fw, lat, bw, &c, why, sizeof(why)), 0);
	assert_int_equal(c.t.nlb, 4);
	assert_int_equal(c.nreplaced, 2);
	assert_int_equal(c.nadded, 2);
	assert_int_equal(c.t.lb[3].data_type, PH_HMAT_ACCESS_BANDWIDTH);
	assert_int_equal(c.t.lb[3].entry[0] * c.t.lb[3].base_unit, 30000);
	assert_int_equal(c.origin[3][1], PH_HMAT_ADDED);
	hmat_carried_free(&c);
	fw.lb[2].data_type = PH_HMAT_ACCESS_BANDWIDTH;

	/* A base unit of 100 ns holds 50 ns as 1 x 100 ns at best: refused, nothing kept. */
	fw.lb[0].base_unit = 100000;
	assert_int_equal(hmat_carry(&fw, lat, bw, &c, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "latency from node 0 to domain 4, 50 ns: the firmware's access_latency structure holds it under base unit 100000 ps"));
	assert_null(c.origin);
	fw.lb[0].base_unit = 100;

	/* The port's domain listed without initiator 1: no entry to take its figure. */
	fw.lb[0].init[1] = 7;
	assert_int_equal(hmat_carry(&fw, lat, bw, &c, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "lists domain 4 but not initiator 1"));
	fw.lb[0].init[1] = 1;

	/* A structure of a type pagehop does not read could not be written back. */
	fw.nunknown = 1;
	assert_int_equal(hmat_carry(&fw, lat, bw, &c, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "1 structure of a type pagehop does not read"));
	fw.nunknown = 0;
	nmatrix_free(lat);
	nmatrix_free(bw);
	acpi_hmat_free(&fw);
}

/*
 * The carried table through iasl and back: the .aml equals the
 * firmware's bytes after the header but for the replaced entries, which
 * read back as computed by hand.
 */
static void test_carry_iasl(void **state)
{
	uint8_t fwb[512], aml[512];
	size_t len = firmware_hmat(fwb), n;
	struct ph_acpi_hmat fw, back;
	struct ph_hmat_carried c;
	struct ph_nmatrix *lat, *bw;
	const struct ph_acpi_ids ids = { "PAGEHP", "TEST", 2 };
	char dir[] = "/tmp/pagehop-carry-XXXXXX", path[64], cmd[160], why[512], *src;
	FILE *f;
	/* Where the replaced entries sit: structures at 40 (domain), 80, 136, 192; entries 48 in. */
	static const size_t lat04 = 80 + 48 + 2, lat14 = 80 + 48 + 6, bw14 = 192 + 48 + 6;

	(void)state;
	if (system("command -v iasl >/dev/null 2>&1"))
		skip();
	assert_int_equal(acpi_hmat_parse(fwb, len, &fw, why, sizeof(why)), 0);
	proposal(&lat, &bw);
	assert_int_equal(hmat_carry(&fw, lat, bw, &c, why, sizeof(why)), 0);
	src = acpi_hmat_source(&ids, &c.t, "carried");
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/h.asl", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(src, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "cd %s && iasl h.asl >/dev/null 2>&1", dir);
	assert_int_equal(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/h.aml", dir);
	f = fopen(path, "rb");
	assert_non_null(f);
	n = fread(aml, 1, sizeof(aml), f);
	fclose(f);
	assert_int_equal(n, len);
	for (size_t i = 36; i < len; i++) {
		if (i == lat04 || i == lat04 + 1 || i == lat14 || i == lat14 + 1 ||
		    i == bw14 || i == bw14 + 1)
			continue;
		if (aml[i] != fwb[i])
			fail_msg("byte %zu: 0x%02x, the firmware's 0x%02x", i, aml[i], fwb[i]);
	}
	/* 500 = 0x01F4, 1000 = 0x03E8, 3000 = 0x0BB8 */
	assert_int_equal(aml[lat04] | aml[lat04 + 1] << 8, 500);
	assert_int_equal(aml[lat14] | aml[lat14 + 1] << 8, 1000);
	assert_int_equal(aml[bw14] | aml[bw14 + 1] << 8, 3000);
	assert_int_equal(acpi_hmat_parse(aml, n, &back, why, sizeof(why)), 0);
	assert_int_equal(back.lb[0].entry[1], 500);
	assert_int_equal(back.lb[2].entry[1], 3000);
	assert_int_equal(back.cache[0].handles[0], 0x11);
	acpi_hmat_free(&back);
	snprintf(cmd, sizeof(cmd), "rm -r %s", dir);
	assert_int_equal(system(cmd), 0);
	free(src);
	hmat_carried_free(&c);
	nmatrix_free(lat);
	nmatrix_free(bw);
	acpi_hmat_free(&fw);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_propose_gp),
		cmocka_unit_test(test_carry),
		cmocka_unit_test(test_carry_iasl),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
