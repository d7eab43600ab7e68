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
 */
#include "unit.h"

#include "cxl_hmat.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_propose_gp),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
