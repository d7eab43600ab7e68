// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_slit_propose.c - what "pagehop slit" proposes and checks against
 * the firmware: the per-hop model, the proposed SLIT, HMAT and what Linux
 * accepts of a SLIT, on matrices whose answers are worked out by hand in
 * the comments (and in docs/slit.md).
 */
#include "unit.h"

#include "distance.h"
#include "distance_data.h"
#include "util.h"
#include "verdict.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- per-hop model ---- */

static void test_hops_latency(void **state)
{
	/* A ring 0-1-2-3-0: neighbours 148 ns, opposite 195 ns, local 100. */
	const double l[] = {
		100, 148, 195, 148,
		148, 100, 148, 195,
		195, 148, 100, 148,
		148, 195, 148, 100,
	};
	struct ph_nmatrix *m = square(PH_METRIC_LATENCY, 4, l);
	struct ph_analysis a;

	(void)state;
	assert_int_equal(analysis_run(m, NULL, &defaults, &a), 0);
	assert_int_equal(a.hops.nclasses, 2);
	assert_int_equal(a.hops.cls[0].hops, 1);
	assert_int_equal(a.hops.cls[0].n, 8);
	assert_near(a.hops.cls[0].extra_mean, 48, 1e-9);
	assert_int_equal(a.hops.cls[1].hops, 2);
	assert_int_equal(a.hops.cls[1].n, 4);
	assert_near(a.hops.cls[1].extra_mean, 95, 1e-9);
	/*
	 * cost = sum(h x) / sum(h^2) = (8 * 48 + 4 * 2 * 95) / (8 + 4 * 4)
	 *      = 1144 / 24 = 47.667; residuals +-1/3 ns.
	 */
	assert_near(a.hops.cost, 1144.0 / 24, 1e-9);
	assert_near(a.hops.rms, 1.0 / 3, 1e-9);
	assert_int_equal(a.hops.n, 12);
	assert_true(isnan(a.hops.cls[0].ratio_mean));
	analysis_free(&a);
	nmatrix_free(m);
}

static void test_hops_bandwidth(void **state)
{
	struct ph_nmatrix *m = square(PH_METRIC_BANDWIDTH, 4, amd_bw);
	struct ph_analysis a;

	(void)state;
	/* Bandwidth: extra in distance units over 10, and B / B_local. */
	assert_int_equal(analysis_run(m, NULL, &defaults, &a), 0);
	assert_int_equal(a.hops.nclasses, 3);
	assert_near(a.hops.cls[0].extra_mean, 5.703171, 1e-6);
	assert_near(a.hops.cls[1].extra_mean, 18.384615, 1e-6);
	assert_near(a.hops.cls[2].extra_mean, 23.248377, 1e-6);
	/* (11.8/18.1 + 11.8/18.7 + 11.8/18.5 + 11.6/18.5) / 4. */
	assert_near(a.hops.cls[0].ratio_mean, 0.636954, 1e-6);
	assert_near(a.hops.cls[1].ratio_mean, 0.352353, 1e-6);
	assert_near(a.hops.cls[2].ratio_mean, 0.300877, 1e-6);
	/* (18.1 - 11.8 + 18.7 - 11.8 + 18.5 - 11.8 + 18.5 - 11.6) / 4 = 6.7 GB/s. */
	assert_near(a.hops.cls[0].drop_mean, 6.7, 1e-9);
	/* (4 * 5.7032 + 8 * 18.3846 + 12 * 23.2484) / 56. */
	assert_near(a.hops.cost, 8.015538, 1e-6);
	assert_near(a.hops.rms, 2.007845, 1e-6);
	analysis_free(&a);
	nmatrix_free(m);
}

/* ---- proposed SLIT ---- */

static void test_slit_round(void **state)
{
	bool cl;

	(void)state;
	assert_int_equal(slit_round(17.989, &cl), 18);
	assert_false(cl);
	assert_int_equal(slit_round(10.5, &cl), 11);	/* half away from zero */
	assert_false(cl);
	assert_int_equal(slit_round(10.4, &cl), 11);
	assert_true(cl);
	assert_int_equal(slit_round(9.0, &cl), 11);
	assert_true(cl);
	assert_int_equal(slit_round(254.4, &cl), 254);
	assert_false(cl);
	assert_int_equal(slit_round(254.5, &cl), 254);
	assert_true(cl);
	assert_int_equal(slit_round(300, &cl), 254);
	assert_true(cl);
	assert_int_equal(slit_round(INFINITY, &cl), 254);
	assert_true(cl);
}

/* A 4-node proposal of measured entries only, none clamped, equal to want. */
static void assert_proposal_4(const struct ph_proposal *p, enum ph_prop_mode mode, const int *want)
{
	assert_int_equal(p->mode, mode);
	assert_int_equal(p->n, 4);
	for (int k = 0; k < 16; k++) {
		assert_int_equal(p->dist[k], want[k]);
		assert_int_equal(p->src[k], k % 5 ? PH_PROP_MEASURED : PH_PROP_LOCAL);
	}
	assert_int_equal(p->nunknown, 0);
	assert_int_equal(p->nclamped, 0);
	assert_int_equal(p->nexcept, 0);
	assert_true(slit_valid_for_linux(4, p->dist));
}

/* The AMD 6220 table, every cell rounded on its own (--proposal cells). */
static const int amd_cells[] = {
	10, 15, 28, 32,
	16, 10, 34, 29,
	28, 34, 10, 16,
	33, 28, 16, 10,
};

static void test_propose_amd(void **state)
{
	struct ph_nmatrix *m = square(PH_METRIC_BANDWIDTH, 4, amd_bw);
	struct ph_analysis a;
	struct ph_dist_opts o = defaults;

	(void)state;
	o.proposal = PH_PROPOSE_CELLS;
	assert_int_equal(analysis_run(m, NULL, &o, &a), 0);
	assert_proposal_4(&a.prop, PH_PROPOSE_CELLS, amd_cells);
	/* The other kind beside it. */
	assert_int_equal(a.prop_other.mode, PH_PROPOSE_LEVELS);
	analysis_free(&a);
	nmatrix_free(m);
}

/*
 * The default proposal of the AMD 6220 table: one value per measured level,
 * each pooled over its four cells, sum of the rows' locals over the sum of
 * the cells' bandwidths (every level has one cell of each row):
 * 10 x (18.1 + 18.7 + 18.5 + 18.5) = 738 over 11.8 + 11.8 + 11.8 + 11.6 = 47.0
 * -> 15.702, 16; over 6.5 x 4 = 26.0 -> 28.385, 28; over 5.6 + 5.6 + 5.5 +
 * 5.5 = 22.2 -> 33.243, 33.  Symmetric: no pair is asymmetric beyond the CIs.
 */
static void test_propose_levels_amd(void **state)
{
	static const int want[] = {
		10, 16, 28, 33,
		16, 10, 33, 28,
		28, 33, 10, 16,
		33, 28, 16, 10,
	};
	struct ph_nmatrix *m = square(PH_METRIC_BANDWIDTH, 4, amd_bw);
	struct ph_analysis a;

	(void)state;
	assert_int_equal(analysis_run(m, NULL, &defaults, &a), 0);
	assert_int_equal(a.prop.mode, PH_PROPOSE_LEVELS);
	assert_int_equal(a.nasym_beyond, 0);
	assert_int_equal(a.prop.nlevels, 4);
	assert_true(isnan(a.prop.level_dist[0]));
	assert_near(a.prop.level_dist[1], 738.0 / 47.0, 1e-9);
	assert_near(a.prop.level_dist[2], 738.0 / 26.0, 1e-9);
	assert_near(a.prop.level_dist[3], 738.0 / 22.2, 1e-9);
	assert_int_equal(a.prop.level_value[1], 16);
	assert_int_equal(a.prop.level_value[2], 28);
	assert_int_equal(a.prop.level_value[3], 33);
	for (int l = 1; l < 4; l++)
		assert_int_equal(a.prop.level_pooled[l], 4);
	assert_proposal_4(&a.prop, PH_PROPOSE_LEVELS, want);
	assert_int_equal(a.prop.nsymmetrised, 0);
	/* The per-cell one is kept beside it. */
	assert_proposal_4(&a.prop_other, PH_PROPOSE_CELLS, amd_cells);
	analysis_free(&a);
	nmatrix_free(m);
}

/* Intel E5-2643: one remote level, 10 x (34.0 + 33.5) / (18.9 + 17.4) = 18.595 -> 19. */
static void test_propose_levels_intel(void **state)
{
	struct ph_nmatrix *m = square(PH_METRIC_BANDWIDTH, 2, intel_bw);
	struct ph_analysis a;

	(void)state;
	assert_int_equal(analysis_run(m, NULL, &defaults, &a), 0);
	assert_near(a.prop.level_dist[1], 675.0 / 36.3, 1e-9);
	assert_int_equal(a.prop.dist[1], 19);
	assert_int_equal(a.prop.dist[2], 19);
	assert_int_equal(a.prop_other.dist[1], 18);
	assert_int_equal(a.prop_other.dist[2], 19);
	analysis_free(&a);
	nmatrix_free(m);
}

/*
 * Latency 200 ns both ways, locals 100 and 150: distances 20 and 13.33,
 * two levels ([19.02, 21.03] and [12.68, 14.02] at 2.5%), yet the raw
 * figures are equal, so the pair is not asymmetric beyond the CIs: both
 * entries get the smaller, 13 (the level of 1>0; 0>1 "symmetrised").  At
 * 200 against 300 the pair is asymmetric beyond them and keeps 20 and 30.
 */
static void test_propose_levels_symmetry(void **state)
{
	const double same[] = { 100, 200, 200, 150 }, asym[] = { 100, 200, 300, 100 };
	struct ph_nmatrix *m = square(PH_METRIC_LATENCY, 2, same);
	struct ph_analysis a;

	(void)state;
	assert_int_equal(analysis_run(m, NULL, &defaults, &a), 0);
	assert_int_equal(a.measured.n, 3);
	assert_int_equal(a.nasym_beyond, 0);
	assert_int_equal(a.prop.dist[1], 13);
	assert_int_equal(a.prop.dist[2], 13);
	assert_int_equal(a.prop.src[1], PH_PROP_SYMMETRISED);
	assert_int_equal(a.prop.src[2], PH_PROP_MEASURED);
	assert_int_equal(a.prop.nsymmetrised, 1);
	assert_int_equal(a.prop.nexcept, 1);
	assert_int_equal(a.prop.except[0], 1);
	assert_string_equal(prop_src_name(PH_PROP_SYMMETRISED), "symmetrised");
	analysis_free(&a);
	nmatrix_free(m);

	m = square(PH_METRIC_LATENCY, 2, asym);
	assert_int_equal(analysis_run(m, NULL, &defaults, &a), 0);
	assert_int_equal(a.nasym_beyond, 1);
	assert_int_equal(a.prop.dist[1], 20);
	assert_int_equal(a.prop.dist[2], 30);
	assert_int_equal(a.prop.nsymmetrised, 0);
	analysis_free(&a);
	nmatrix_free(m);
}

/*
 * Evidence: figures without sample counts are judged as given; once any
 * cell has a count, every cell needs 6 samples and its CI target met, or
 * the verdict is "cannot tell" (exit 5), naming the cells.
 */
static void test_evidence(void **state)
{
	const double l[] = { 100, 200, 200, 100 };
	const int s20[] = { 10, 20, 20, 10 };
	struct ph_nmatrix *m = square(PH_METRIC_LATENCY, 2, l);
	struct ph_slit *s = slit_square(2, s20);
	struct ph_analysis a;

	(void)state;
	assert_int_equal(analysis_run(m, s, &defaults, &a), 0);
	assert_false(a.have_counts);
	assert_int_equal(a.nlacking, 0);
	assert_int_equal(a.verdict, PH_VERDICT_CONSISTENT);
	analysis_free(&a);

	for (int k = 0; k < 4; k++)
		m->samples[k] = 1;
	assert_int_equal(analysis_run(m, s, &defaults, &a), 0);
	assert_true(a.have_counts);
	assert_int_equal(a.ncounted, 4);
	assert_int_equal(a.nlacking, 4);
	assert_int_equal(a.verdict, PH_VERDICT_CANNOT_TELL);
	assert_int_equal(a.verdict_figures, PH_VERDICT_CONSISTENT);
	assert_int_equal(verdict_exit(a.verdict), 5);
	assert_string_equal(verdict_status(a.verdict), "cannot tell");
	analysis_free(&a);

	/* 6 samples each: enough; then one CI target missed. */
	for (int k = 0; k < 4; k++)
		m->samples[k] = PH_EVIDENCE_MIN_SAMPLES;
	assert_int_equal(analysis_run(m, s, &defaults, &a), 0);
	assert_int_equal(a.nlacking, 0);
	assert_int_equal(a.verdict, PH_VERDICT_CONSISTENT);
	analysis_free(&a);
	m->ci_missed[2] = true;
	assert_int_equal(analysis_run(m, s, &defaults, &a), 0);
	assert_int_equal(a.nlacking, 1);
	assert_int_equal(a.lacking[0], 2);
	assert_int_equal(a.verdict, PH_VERDICT_CANNOT_TELL);
	analysis_free(&a);
	/* 5 samples in one cell: not enough. */
	m->ci_missed[2] = false;
	m->samples[3] = PH_EVIDENCE_MIN_SAMPLES - 1;
	assert_int_equal(analysis_run(m, s, &defaults, &a), 0);
	assert_int_equal(a.nlacking, 1);
	assert_int_equal(a.lacking[0], 3);
	analysis_free(&a);
	slit_free(s);
	nmatrix_free(m);
}

static void test_propose_memory_only(void **state)
{
	/* Node 2 is memory only: a column, no row. */
	const int rows[] = { 0, 1 }, cols[] = { 0, 1, 2 };
	const double l[] = { 100, 150, 200, 150, 100, 180 };
	struct ph_nmatrix *m = nmatrix_new(PH_METRIC_LATENCY, 2, rows, 3, cols);
	struct ph_analysis a;
	static const int want[] = { 10, 15, 20, 15, 10, 18, 20, 18, 10 };

	(void)state;
	memcpy(m->val, l, sizeof(l));
	assert_int_equal(analysis_run(m, NULL, &defaults, &a), 0);
	assert_int_equal(a.prop.n, 3);
	for (int k = 0; k < 9; k++)
		assert_int_equal(a.prop.dist[k], want[k]);
	assert_int_equal(a.prop.src[6], PH_PROP_TRANSPOSED);
	assert_int_equal(a.prop.src[7], PH_PROP_TRANSPOSED);
	assert_int_equal(a.prop.src[5], PH_PROP_MEASURED);
	assert_true(slit_valid_for_linux(3, a.prop.dist));
	analysis_free(&a);
	nmatrix_free(m);
}

static void test_propose_unknown(void **state)
{
	/* Two memory-only nodes: between them nothing is known without a SLIT. */
	const int rows[] = { 0 }, cols[] = { 0, 4, 5 };
	const double l[] = { 100, 250, 260 };
	struct ph_nmatrix *m = nmatrix_new(PH_METRIC_LATENCY, 1, rows, 3, cols);
	struct ph_slit *s;
	struct ph_analysis a;
	const int sids[] = { 0, 4, 5 };

	(void)state;
	memcpy(m->val, l, sizeof(l));
	assert_int_equal(analysis_run(m, NULL, &defaults, &a), 0);
	assert_int_equal(a.prop.nunknown, 2);
	assert_int_equal(a.prop.dist[1 * 3 + 2], -1);
	assert_int_equal(a.prop.src[2 * 3 + 1], PH_PROP_NONE);
	assert_false(slit_valid_for_linux(3, a.prop.dist));
	analysis_free(&a);

	/* A SLIT fills them. */
	s = slit_new(3, sids);
	for (int i = 0; i < 9; i++)
		s->dist[i] = i % 4 ? 30 : 10;
	assert_int_equal(analysis_run(m, s, &defaults, &a), 0);
	assert_int_equal(a.prop.nunknown, 0);
	assert_int_equal(a.prop.dist[1 * 3 + 2], 30);
	assert_int_equal(a.prop.src[1 * 3 + 2], PH_PROP_SLIT);
	/* Measured: 25 and 26 are one level, pooled 10 * (250 + 260) / (100 + 100). */
	assert_int_equal(a.prop.dist[1], 26);
	assert_int_equal(a.prop_other.dist[1], 25);	/* the cell alone: 10 * 250 / 100 */
	assert_true(slit_valid_for_linux(3, a.prop.dist));
	analysis_free(&a);
	slit_free(s);
	nmatrix_free(m);
}

static void test_cpu_only_row(void **state)
{
	/* Node 2 has CPUs and no memory: a row, no column. */
	const int rows[] = { 0, 1, 2 }, cols[] = { 0, 1 };
	const double l[] = { 100, 160, 160, 100, 130, 200 };
	const int sv[] = { 10, 16, 17, 16, 10, 28, 17, 28, 10 };
	struct ph_nmatrix *m = nmatrix_new(PH_METRIC_LATENCY, 3, rows, 2, cols);
	struct ph_slit *s = slit_new(3, ids4);
	struct ph_analysis a;

	(void)state;
	memcpy(m->val, l, sizeof(l));
	memcpy(s->dist, sv, sizeof(sv));
	/*
	 * With the SLIT: node 0 is nearest (17), so 130 ns is 17 and 200 ns
	 * is 17 * 200 / 130 = 26.15.  The reference cell is not compared (it
	 * equals the SLIT by construction); 26.15 against 28 is.
	 */
	assert_int_equal(analysis_run(m, s, &defaults, &a), 0);
	assert_int_equal(a.dm.ref[2], 0);
	assert_int_equal(a.dm.ref_how[2], PH_LOCAL_SLIT_NEAREST);
	assert_near(a.dm.ref_dist[2], 17, 0);
	assert_near(a.dm.d[4], 17, 1e-12);
	assert_near(a.dm.d[5], 17.0 * 200 / 130, 1e-9);
	assert_int_equal(a.nmag, 3);		/* 0>1, 1>0, 2>1 */
	assert_int_equal(a.prop.dist[2 * 3 + 0], 17);
	assert_int_equal(a.prop.src[2 * 3 + 0], PH_PROP_REFERENCE);
	assert_int_equal(a.prop.dist[2 * 3 + 1], 26);
	assert_int_equal(a.prop.src[0 * 3 + 2], PH_PROP_TRANSPOSED);
	assert_int_equal(a.prop.dist[0 * 3 + 2], 17);
	assert_int_equal(a.hops.nskipped_rows, 1);
	analysis_free(&a);

	/* Without: the fastest column is 10 (clamped to 11 in the proposal). */
	assert_int_equal(analysis_run(m, NULL, &defaults, &a), 0);
	assert_int_equal(a.dm.ref_how[2], PH_LOCAL_FASTEST);
	assert_near(a.dm.d[5], 10.0 * 200 / 130, 1e-9);
	assert_int_equal(a.prop.dist[2 * 3 + 0], 11);
	assert_true(a.prop.clamped[2 * 3 + 0]);
	assert_true(slit_valid_for_linux(3, a.prop.dist));
	analysis_free(&a);
	slit_free(s);
	nmatrix_free(m);
}

/* ---- HMAT ---- */

static void test_parse_id_list(void **state)
{
	int ids[8];

	(void)state;
	assert_int_equal(parse_id_list("0", ids, 8), 1);
	assert_int_equal(parse_id_list("0-1", ids, 8), 2);
	assert_int_equal(ids[1], 1);
	assert_int_equal(parse_id_list("0,2-3", ids, 8), 3);
	assert_int_equal(ids[2], 3);
	assert_int_equal(parse_id_list("", ids, 8), 0);
	assert_int_equal(parse_id_list("a", ids, 8), -EINVAL);
	assert_int_equal(parse_id_list("3-1", ids, 8), -EINVAL);
	assert_int_equal(parse_id_list("0-9", ids, 8), -EINVAL);
}

static void test_hmat_compare(void **state)
{
	const double l[] = { 90.1, 140.2, 141.0, 89.7 };
	const double b[] = { 20.1, 12.3, 12.0, 19.8 };
	struct ph_nmatrix *lat = square(PH_METRIC_LATENCY, 2, l);
	struct ph_nmatrix *bw = square(PH_METRIC_BANDWIDTH, 2, b);
	struct ph_hmat h[2] = {
		{ .target = 0, .access = 0, .initiators = "0", .read_latency_ns = 80,
		  .write_latency_ns = 80, .read_bandwidth_MiBps = 20480,
		  .write_bandwidth_MiBps = 20480 },
		{ .target = 1, .access = 0, .initiators = "0-1", .read_latency_ns = 80,
		  .write_latency_ns = -1, .read_bandwidth_MiBps = -1,
		  .write_bandwidth_MiBps = -1 },
	};
	struct ph_hmat_cmp *c;

	(void)state;
	assert_int_equal(hmat_compare(h, 2, lat, bw, &c), 3);
	assert_string_equal(c[0].figure, "read_latency_ns");
	assert_near(c[0].measured, 90.1, 0);
	assert_int_equal(c[0].cpu_node, 0);
	assert_near(c[0].ratio, 90.1 / 80, 1e-12);
	/* 20480 MiB/s = 20480 * 1048576 / 10^9 GB/s. */
	assert_string_equal(c[1].figure, "read_bandwidth_GBps");
	assert_near(c[1].hmat, 21.47483648, 1e-9);
	assert_near(c[1].ratio, 20.1 / 21.47483648, 1e-9);
	/* Best of initiators 0 and 1 into node 1: 89.7 ns from node 1. */
	assert_int_equal(c[2].cpu_node, 1);
	assert_near(c[2].measured, 89.7, 0);
	free(c);

	/* No measured figure: the HMAT value still appears, measured unknown. */
	assert_int_equal(hmat_compare(h, 1, NULL, NULL, &c), 2);
	assert_int_equal(c[0].cpu_node, -1);
	assert_true(isnan(c[0].measured));
	assert_true(isnan(c[0].ratio));
	free(c);
	nmatrix_free(lat);
	nmatrix_free(bw);
}

/* ---- what Linux does with a SLIT (drivers/acpi/numa/srat.c, slit_valid()) ---- */

static void test_slit_linux_rules(void **state)
{
	static const int ok[] = { 10, 21, 21, 10 };
	static const int unreachable[] = { 10, 255, 255, 10 };	/* u8 255 > 10: accepted */
	static const int local11[] = { 10, 21, 21, 11 };
	static const int remote10[] = { 10, 10, 10, 10 };
	static const int remote5[] = { 10, 5, 21, 10 };
	static const int zeros[] = { 0, 0, 0, 0 };
	/* Two faults: the kernel's walk, row by row, meets 0>2 before 1>1. */
	static const int two[] = { 10, 21, 9, 21, 12, 21, 21, 21, 10 };
	struct ph_slit_check c;

	(void)state;
	assert_true(slit_linux_check(2, ok, &c));
	assert_int_equal(c.rule, PH_SLIT_RULE_OK);
	assert_int_equal(c.nbad, 0);
	assert_false(c.uniform);
	assert_true(slit_linux_check(2, unreachable, &c));

	assert_false(slit_linux_check(2, local11, &c));
	assert_int_equal(c.rule, PH_SLIT_RULE_LOCAL);
	assert_int_equal(c.row, 1);
	assert_int_equal(c.col, 1);
	assert_int_equal(c.value, 11);
	assert_int_equal(c.nbad, 1);
	assert_int_equal(c.nentries, 4);

	/* What "a lot of BIOS" do, says the kernel's comment: 10 everywhere. */
	assert_false(slit_linux_check(2, remote10, &c));
	assert_int_equal(c.rule, PH_SLIT_RULE_REMOTE);
	assert_int_equal(c.row, 0);
	assert_int_equal(c.col, 1);
	assert_int_equal(c.value, 10);
	assert_int_equal(c.nbad, 2);
	assert_true(c.uniform);

	assert_false(slit_linux_check(2, remote5, &c));
	assert_int_equal(c.rule, PH_SLIT_RULE_REMOTE);
	assert_int_equal(c.value, 5);
	assert_int_equal(c.nbad, 1);
	assert_false(c.uniform);

	assert_false(slit_linux_check(2, zeros, &c));
	assert_int_equal(c.rule, PH_SLIT_RULE_LOCAL);
	assert_int_equal(c.row, 0);
	assert_int_equal(c.col, 0);
	assert_int_equal(c.value, 0);
	assert_int_equal(c.nbad, 4);
	assert_true(c.uniform);

	assert_false(slit_linux_check(3, two, &c));
	assert_int_equal(c.rule, PH_SLIT_RULE_REMOTE);
	assert_int_equal(c.row, 0);
	assert_int_equal(c.col, 2);
	assert_int_equal(c.value, 9);
	assert_int_equal(c.nbad, 2);

	assert_string_equal(slit_rule_name(PH_SLIT_RULE_LOCAL), "local_not_10");
	assert_string_equal(slit_rule_name(PH_SLIT_RULE_REMOTE), "remote_not_above_10");
}

static void test_slit_rejected_defaults(void **state)
{
	/* Every entry 10: one SLIT level, while the Intel data shows two. */
	static const int remote10[] = { 10, 10, 10, 10 };
	static const int zeros[] = { 0, 0, 0, 0 };
	struct ph_nmatrix *m = square(PH_METRIC_BANDWIDTH, 2, intel_bw);
	struct ph_slit *s = slit_square(2, remote10), *d;
	struct ph_analysis a;

	(void)state;
	d = slit_linux_default(s);
	assert_int_equal(d->n, 2);
	assert_int_equal(d->dist[0], 10);
	assert_int_equal(d->dist[1], 20);
	assert_int_equal(d->dist[2], 20);
	assert_int_equal(d->dist[3], 10);
	slit_free(d);

	/*
	 * Linux ignores it and uses 10/20: the comparison is with 20, where
	 * 17.99 is -10.1% and 19.25 -3.7%: two levels each, consistent.
	 */
	assert_int_equal(analysis_run(m, s, &defaults, &a), 0);
	assert_true(a.slit_rejected);
	assert_int_equal(a.slit_check.rule, PH_SLIT_RULE_REMOTE);
	assert_non_null(a.slit_default);
	assert_int_equal(a.slit.n, 2);
	assert_int_equal(a.nmag, 2);
	assert_int_equal(a.mag[0].slit, 20);
	assert_near(a.mag[0].rel_err, (17.989418 - 20) / 20, 1e-6);
	assert_int_equal(a.verdict, PH_VERDICT_CONSISTENT);
	analysis_free(&a);
	slit_free(s);

	/* All zeros: the same defaults, the diagonal rule named. */
	s = slit_square(2, zeros);
	assert_int_equal(analysis_run(m, s, &defaults, &a), 0);
	assert_true(a.slit_rejected);
	assert_int_equal(a.slit_check.rule, PH_SLIT_RULE_LOCAL);
	assert_int_equal(a.mag[1].slit, 20);
	analysis_free(&a);
	slit_free(s);

	/* A valid SLIT is compared as given. */
	s = slit_square(2, intel_slit);
	assert_int_equal(analysis_run(m, s, &defaults, &a), 0);
	assert_false(a.slit_rejected);
	assert_null(a.slit_default);
	assert_int_equal(a.mag[0].slit, 21);
	analysis_free(&a);
	slit_free(s);
	nmatrix_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hops_latency),
		cmocka_unit_test(test_hops_bandwidth),
		cmocka_unit_test(test_slit_round),
		cmocka_unit_test(test_propose_amd),
		cmocka_unit_test(test_propose_levels_amd),
		cmocka_unit_test(test_propose_levels_intel),
		cmocka_unit_test(test_propose_levels_symmetry),
		cmocka_unit_test(test_evidence),
		cmocka_unit_test(test_propose_memory_only),
		cmocka_unit_test(test_propose_unknown),
		cmocka_unit_test(test_cpu_only_row),
		cmocka_unit_test(test_parse_id_list),
		cmocka_unit_test(test_hmat_compare),
		cmocka_unit_test(test_slit_linux_rules),
		cmocka_unit_test(test_slit_rejected_defaults),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
