// SPDX-License-Identifier: GPL-2.0-only
/*
 * c2c.c - core-to-core latency by ping-pong on one verified cache line.
 */
#include "c2c.h"
#include "progress.h"
#include "contend.h"
#include "homed.h"
#include "phases.h"
#include "latency.h"
#include "repeats_doc.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <numa.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char c2c_method[] =
	"two threads pinned to the pair's CPUs hand one 64-bit word back and forth (each waits for the other's value with acquire loads, then stores the next with a release store); one sample is one block of ~1 ms of round trips timed on the first CPU (after one untimed round trip, so that both threads are running; the same loop as the distribution's runs); one-way latency = block time / (2 x round trips)";

/*
 * A block lasts about 1 ms: thousands of round trips (100-1000 ns each),
 * 10^5 times the clock's resolution, and short enough that a 0.5 s budget
 * per pair still gives hundreds of samples.
 */
#define BLOCK_SECONDS 0.001

static int c2c_plan(void *state, struct ph_session *s)
{
	struct ph_c2c *c = state;
	int err;

	c->repeats = c->repeats_given < 1 ? 1 : c->repeats_given > C2C_MAX_REPEATS ?
		     C2C_MAX_REPEATS : (int)c->repeats_given;
	if (contend_cpus(c->cpus_given, "--cpus", &c->cpus, &c->ncpus))
		return PH_EXIT_USAGE;
	if (c->ncpus < 2) {
		ph_err("--cpus: %d CPU; a hand-off needs two", c->ncpus);
		return PH_EXIT_USAGE;
	}
	if (homed_node(s->opt->bind.membind, "--membind", c->cpus[0], &c->node))
		return PH_EXIT_USAGE;
	c->places = xcalloc((size_t)c->ncpus, sizeof(*c->places));
	err = cpurel_places(NULL, c->cpus, c->ncpus, c->places);
	if (err) {
		ph_errno(-err, "cannot read the CPU topology (hwloc)");
		return PH_EXIT_FAIL;
	}
	s->all_verified = true;
	return homed_alloc(s, c->node, psize_bytes(s->opt->bufreq.psize), &c->seg, &c->have_seg,
			   "the line's page");
}

struct pp_run {
	struct ph_session *s;
	struct ph_team *team;
	volatile uint64_t *line;
	uint64_t rounds;
	uint64_t ticks[2];
	uint64_t block_tsc;	/* the first thread's TSC cycles over the block's round trips */
	bool lost;		/* a block ended with the word not at 2 x (rounds + 1) */
	uint64_t calib_rounds;	/* the last sizing block's */
	double calib_ns;
	struct ph_latdist *dist;	/* NULL, or a batch of its runs after each block */
};

/*
 * A block is one run of the distribution's loop (c2c_pingpong_timed), so
 * that the figure and its distribution time the same code: on the 2-vCPU
 * development host the loop's shape alone moved the hand-off by 5-20%
 * (docs/methodology.md, "Distributions").
 */
static void work_pingpong(void *ctx, int tid)
{
	struct pp_run *r = ctx;

	c2c_pingpong_timed(r->line, r->rounds, (unsigned)tid, tid ? NULL : &r->block_tsc, 1);
}

/*
 * One block; the first thread's time (the ping side) over 2 x rounds: its
 * own TSC reads around the round trips where the clock is the TSC (the
 * untimed round trip before them takes in the second thread's start),
 * else the team's clock around the whole.
 */
static double block_ns(struct pp_run *r)
{
	*r->line = 0;
	team_run(r->team, work_pingpong, r, &r->s->m.clk, r->ticks);
	if (*r->line != 2 * (r->rounds + 1))
		r->lost = true;
	return clock_ticks_to_ns(&r->s->m.clk, r->s->m.clk.use_tsc ? r->block_tsc : r->ticks[0]);
}

/* The distribution's runs: hops one-way hand-offs are hops / 2 round trips. */
static void timed_runs(void *ctx, int tid, uint64_t hops, uint64_t *ticks, size_t nruns)
{
	struct pp_run *r = ctx;

	c2c_pingpong_timed(r->line, hops / 2, (unsigned)tid, ticks, nruns);
}

static int sample_pingpong(void *ctx, double *sample)
{
	struct pp_run *r = ctx;

	*sample = block_ns(r) / (2.0 * (double)r->rounds);
	if (r->dist && !r->lost)
		latdist_batch_of(r->dist, r->team, &r->s->m.clk, timed_runs, r);
	return r->lost ? -EIO : 0;
}

static double calib_block(void *ctx, uint64_t rounds)
{
	struct pp_run *r = ctx;

	r->rounds = r->calib_rounds = rounds;
	r->calib_ns = block_ns(r);
	return r->calib_ns;
}

/* Size the block to last about BLOCK_SECONDS (these runs are discarded). */
static void calibrate(struct pp_run *r)
{
	double t0 = now_mono_raw();

	r->rounds = calibrate_block(calib_block, r, 64, 1, BLOCK_SECONDS);
	phase_add(PH_PHASE_WARMUP, now_mono_raw() - t0);
}

/*
 * The distribution's runs, timed on the first CPU only (the second answers):
 * latdist's rule makes a run 64 one-way hand-offs (32 round trips) or more,
 * the smallest power of two lasting 100 clock resolutions.  A hand-off
 * took 150-180 ns on the 2-vCPU development host, so a run is 64 of them,
 * about 10 us (128 in its other placement, 30-50 ns a hand-off): 100 steps
 * of its 20 ns TSC or more, and as many times the timer's own cost (20-21
 * ns there, one step, subtracted), so that a step either way is at most
 * 1% of a run.  Longer
 * runs would only give fewer of them per batch, and the tails need runs.
 */
static void dist_begin(struct pp_run *r, struct ph_latdist *d)
{
	double hop_ns = r->calib_rounds ? r->calib_ns / (2.0 * (double)r->calib_rounds) : 0;

	latdist_begin(d, &r->s->m.clk, 1, 1, 2 * r->rounds, hop_ns * 2.0 * (double)r->rounds);
	r->dist = d;
}

/* One repeat of one pair: new threads on the pair's CPUs, calibrated anew. */
static int measure_pair(struct ph_c2c *c, struct ph_session *s, struct ph_c2c_pair *p, int rep)
{
	int cpus[2] = { p->a, p->b };
	struct pp_run r = { .s = s, .line = c->seg.addr };
	struct ph_mcfg cfg = s->meas;
	struct ph_result *res = &p->runs[rep];
	struct ph_loadsnap before;
	char why[256], label[64];

	r.team = team_start(cpus, 2, why, sizeof(why));
	if (!r.team) {
		ph_err("CPUs %d and %d: %s", p->a, p->b, why);
		return PH_EXIT_FAIL;
	}
	calibrate(&r);
	if (c->repeats > 1)
		snprintf(label, sizeof(label), "c2c %d-%d (%d/%d)", p->a, p->b, rep + 1, c->repeats);
	else
		snprintf(label, sizeof(label), "c2c %d-%d", p->a, p->b);
	cfg.label = label;
	/* The repeats share the pair's budget: --repeats costs no more time. */
	cfg.time_s /= c->repeats;
	if (c->dist.want) {
		/* After each block, a batch of runs of a tenth of its round trips (latdist.h). */
		dist_begin(&r, &p->run_dists[rep]);
		hostload_snap(&before);
	}
	measure_figure(&cfg, sample_pingpong, &r, res);
	if (r.dist)
		latdist_end(r.dist, &s->m.clk, &before);
	team_stop(r.team);
	p->run_rounds[rep] = r.rounds;
	if (res->n) {
		p->nruns = rep + 1;
	} else {
		result_free(res);
		if (p->run_dists)
			latdist_free(&p->run_dists[rep]);
	}
	if (r.lost) {
		ph_err("CPUs %d and %d: the hand-off lost a round (the word is not 2 x (rounds + 1))",
		       p->a, p->b);
		return PH_EXIT_FAIL;
	}
	return 0;
}

/*
 * The line onto a new page for the next repeat: the old page is read back
 * (was it still where it was verified?) and freed only once the new one
 * is verified, so that the new line is on another page.
 */
static int fresh_line(struct ph_c2c *c, struct ph_session *s)
{
	struct ph_segment old;
	bool have = false;
	int rc;

	/* Read back first: that fills the segment's own record of its pages. */
	if (!homed_still_verified(s, &c->seg, "the line's page"))
		return PH_EXIT_FAIL;
	old = c->seg;
	rc = homed_alloc(s, c->node, psize_bytes(s->opt->bufreq.psize), &c->seg, &have,
			 "the line's page");
	if (!have)
		c->seg = old;
	else
		segment_free(&s->m.km, &old);
	return rc;
}

/* What the pair's repeats say; res becomes the median repeat's result. */
static void judge_pair(struct ph_c2c_pair *p)
{
	const struct ph_result **v = xcalloc((size_t)p->nruns, sizeof(*v));

	for (int r = 0; r < p->nruns; r++)
		v[r] = &p->runs[r];
	repeats_of_results(v, p->nruns, &p->between);
	free(v);
	if (p->between.pick >= 0) {
		p->res = p->runs[p->between.pick];
		p->rounds = p->run_rounds[p->between.pick];
	}
	/* The distribution shown is the figure's repeat's: the others' freed. */
	if (p->run_dists && p->between.pick >= 0) {
		p->dist = p->run_dists[p->between.pick];
		memset(&p->run_dists[p->between.pick], 0, sizeof(p->dist));
	}
	for (int r = 0; p->run_dists && r < p->nruns; r++)
		latdist_free(&p->run_dists[r]);
}

static void pair_free(struct ph_c2c_pair *p)
{
	for (int r = 0; r < p->nruns; r++)
		result_free(&p->runs[r]);
	for (int r = 0; p->run_dists && r < p->nruns; r++)
		latdist_free(&p->run_dists[r]);
	free(p->run_dists);
	latdist_free(&p->dist);
	free(p->runs);
	free(p->run_rounds);
	memset(p, 0, sizeof(*p));
}

/*
 * Repeat after repeat, every pair in each: a pair's repeats are apart in
 * time by a pass over all the pairs, and each is on a line of its own.
 */
static int c2c_measure(void *state, struct ph_session *s)
{
	struct ph_c2c *c = state;
	int np = c->ncpus * (c->ncpus - 1) / 2, rc = 0, k = 0;

	c->pairs = xcalloc((size_t)np, sizeof(*c->pairs));
	for (int i = 0; i < c->ncpus; i++)
		for (int j = i + 1; j < c->ncpus; j++, k++) {
			struct ph_c2c_pair *p = &c->pairs[k];

			p->a = c->cpus[i];
			p->b = c->cpus[j];
			p->rel = cpurel_classify(&c->places[i], &c->places[j]);
			p->runs = xcalloc((size_t)c->repeats, sizeof(*p->runs));
			p->run_rounds = xcalloc((size_t)c->repeats, sizeof(*p->run_rounds));
			if (c->dist.want)
				p->run_dists = xcalloc((size_t)c->repeats, sizeof(*p->run_dists));
		}
	progress_begin(c->repeats * np, "c2c");
	for (int r = 0; r < c->repeats && !rc && !ph_interrupted; r++) {
		if (r)
			rc = fresh_line(c, s);
		for (k = 0; k < np && !rc && !ph_interrupted; k++) {
			progress_step("CPUs %d and %d, repeat %d", c->pairs[k].a, c->pairs[k].b, r + 1);
			rc = measure_pair(c, s, &c->pairs[k], r);
		}
	}
	/* The pairs that have a repeat with samples, in order. */
	for (k = 0; k < np; k++) {
		struct ph_c2c_pair *p = &c->pairs[k];

		if (!p->nruns) {
			pair_free(p);
			continue;
		}
		judge_pair(p);
		if (c->npairs != k) {
			c->pairs[c->npairs] = *p;
			memset(p, 0, sizeof(*p));
		}
		c->npairs++;
	}
	if (!homed_still_verified(s, &c->seg, "the line's page"))
		rc = rc ? rc : PH_EXIT_FAIL;
	return rc;
}

void c2c_group(const double *medians, int n, struct ph_c2c_group *out)
{
	double *v = xcalloc((size_t)n + 1, sizeof(double));
	struct ph_stats st;
	int k = 0;

	for (int i = 0; i < n; i++)
		if (!isnan(medians[i]))
			v[k++] = medians[i];
	memset(out, 0, sizeof(*out));
	out->pairs = k;
	out->median = out->min = out->max = NAN;
	if (k) {
		stats_compute(v, (size_t)k, &st);
		out->median = st.median;
		out->min = st.min;
		out->max = st.max;
	}
	free(v);
}

/* ---- the document ---- */

static void pairs_table(const struct ph_c2c *c, struct ph_session *s, struct ph_doc *doc)
{
	struct ph_table *t = doc_add_table(doc, "c2c", "one-way core-to-core latency per CPU pair");
	static const char *const cols[] = { "cpu_a", "cpu_b", "relation", "node_a", "node_b",
					    "line_node" };

	for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
		table_add_col(t, cols[i]);
	latency_add_cols(t, "");
	table_add_col(t, "round_trips");
	repeats_add_cols(t, "ns");
	table_add_col(t, "verified");
	for (int p = 0; p < c->npairs; p++) {
		const struct ph_c2c_pair *pr = &c->pairs[p];
		int r = table_add_row(t), ia = 0, ib = 0;

		for (int i = 0; i < c->ncpus; i++) {
			ia = c->cpus[i] == pr->a ? i : ia;
			ib = c->cpus[i] == pr->b ? i : ib;
		}
		table_int(t, r, "cpu_a", pr->a);
		table_int(t, r, "cpu_b", pr->b);
		table_str(t, r, "relation", cpurel_name(pr->rel));
		table_int(t, r, "node_a", c->places[ia].node);
		table_int(t, r, "node_b", c->places[ib].node);
		table_int(t, r, "line_node", c->node);
		latency_fill(t, r, "", &pr->res, s->m.clk.tsc_hz);
		table_int(t, r, "round_trips", (long long)pr->rounds);
		repeats_fill(t, r, &pr->between, "ns", "%.2f");
		table_bool(t, r, "verified", s->all_verified);
	}
}

/* Every repeat of every pair: the figures the between-run columns judge. */
static void repeats_table(const struct ph_c2c *c, struct ph_doc *doc)
{
	struct ph_table *t = doc_add_table(doc, "c2c_repeats",
					   "each repeat of each pair, on a line and threads of its own");
	table_add_col(t, "cpu_a");
	table_add_col(t, "cpu_b");
	repeats_table_cols(t, "lat_ns", "ns");
	table_add_col(t, "round_trips");
	for (int p = 0; p < c->npairs; p++) {
		const struct ph_c2c_pair *pr = &c->pairs[p];

		for (int k = 0; k < pr->nruns; k++) {
			int r = table_add_row(t);

			table_int(t, r, "cpu_a", pr->a);
			table_int(t, r, "cpu_b", pr->b);
			repeats_table_fill(t, r, "lat_ns", "ns", "%.2f", &pr->runs[k], k + 1,
					   k == pr->between.pick);
			table_int(t, r, "round_trips", (long long)pr->run_rounds[k]);
		}
	}
}

/*
 * A note per pair whose repeats differ (at most a few, then how many
 * more): its lat_ns is one repeat's, and the figure is not one tight value.
 */
static void differ_notes(const struct ph_c2c *c, struct ph_doc *doc)
{
	int shown = 0, more = 0;
	char who[64];

	for (int p = 0; p < c->npairs; p++) {
		const struct ph_c2c_pair *pr = &c->pairs[p];

		if (pr->between.between != PH_BETWEEN_DIFFER)
			continue;
		if (shown == 4) {
			more++;
			continue;
		}
		snprintf(who, sizeof(who), "CPUs %d-%d", pr->a, pr->b);
		shown += repeats_note(doc, who, "lat_ns", &pr->between, "ns", "%.1f",
				      "something that changes between runs (where the line and the threads land, where the hypervisor runs the vCPUs) decides it");
	}
	if (more)
		doc_note(doc, "%d more pairs whose repeats differ: see between_runs and the table c2c_repeats", more);
}

/* The median of the pair (a, b), NAN if it was not measured. */
static double pair_median(const struct ph_c2c *c, int a, int b)
{
	for (int p = 0; p < c->npairs; p++)
		if ((c->pairs[p].a == a && c->pairs[p].b == b) ||
		    (c->pairs[p].a == b && c->pairs[p].b == a))
			return c->pairs[p].res.st.median;
	return NAN;
}

/* Row per CPU, a column per CPU: the figure is symmetric (one pair, both ways). */
static void matrix_table(const struct ph_c2c *c, struct ph_doc *doc)
{
	struct ph_table *t = doc_add_table(doc, "c2c_matrix", "one-way latency ns, CPU x CPU");
	char col[32];

	table_add_col(t, "cpu");
	for (int j = 0; j < c->ncpus; j++) {
		snprintf(col, sizeof(col), "cpu%d_ns", c->cpus[j]);
		table_add_col(t, col);
	}
	for (int i = 0; i < c->ncpus; i++) {
		int r = table_add_row(t);

		table_int(t, r, "cpu", c->cpus[i]);
		for (int j = 0; j < c->ncpus; j++) {
			double v = i == j ? NAN : pair_median(c, c->cpus[i], c->cpus[j]);

			snprintf(col, sizeof(col), "cpu%d_ns", c->cpus[j]);
			if (!isnan(v))
				table_num(t, r, col, v, "%.2f");
		}
	}
}

static void group_row(struct ph_table *t, int r, const struct ph_c2c_group *g, int differ)
{
	table_int(t, r, "pairs", g->pairs);
	table_int(t, r, "pairs_differ", differ);
	table_num(t, r, "lat_ns", g->median, "%.2f");
	table_num(t, r, "lat_min_ns", g->min, "%.2f");
	table_num(t, r, "lat_max_ns", g->max, "%.2f");
}

static void group_cols(struct ph_table *t)
{
	table_add_col(t, "pairs");
	table_add_col(t, "pairs_differ");
	table_add_col(t, "lat_ns");
	table_add_col(t, "lat_min_ns");
	table_add_col(t, "lat_max_ns");
}

static int node_of_cpu(const struct ph_c2c *c, int cpu)
{
	for (int i = 0; i < c->ncpus; i++)
		if (c->cpus[i] == cpu)
			return c->places[i].node;
	return -1;
}

static void summary_tables(const struct ph_c2c *c, struct ph_doc *doc)
{
	struct ph_table *rel = doc_add_table(doc, "by_relation",
					     "pairs by the closest level they share (hwloc): median of their medians");
	struct ph_table *np = doc_add_table(doc, "by_node_pair",
					    "pairs by their CPUs' nodes: median of their medians");
	double *v = xcalloc((size_t)c->npairs + 1, sizeof(double));
	int maxnode = 0;

	table_add_col(rel, "relation");
	group_cols(rel);
	for (int r = PH_REL_SMT; r < PH_REL_COUNT; r++) {
		struct ph_c2c_group g;
		int n = 0;

		int differ = 0;

		for (int p = 0; p < c->npairs; p++)
			if (c->pairs[p].rel == (enum ph_cpurel)r) {
				v[n++] = c->pairs[p].res.st.median;
				differ += c->pairs[p].between.between == PH_BETWEEN_DIFFER;
			}
		if (!n)
			continue;
		c2c_group(v, n, &g);
		n = table_add_row(rel);
		table_str(rel, n, "relation", cpurel_name((enum ph_cpurel)r));
		group_row(rel, n, &g, differ);
	}
	table_add_col(np, "node_a");
	table_add_col(np, "node_b");
	group_cols(np);
	for (int i = 0; i < c->ncpus; i++)
		maxnode = c->places[i].node > maxnode ? c->places[i].node : maxnode;
	for (int na = 0; na <= maxnode; na++)
		for (int nb = na; nb <= maxnode; nb++) {
			struct ph_c2c_group g;
			int n = 0, differ = 0;

			for (int p = 0; p < c->npairs; p++) {
				int x = node_of_cpu(c, c->pairs[p].a), y = node_of_cpu(c, c->pairs[p].b);

				if ((x == na && y == nb) || (x == nb && y == na)) {
					v[n++] = c->pairs[p].res.st.median;
					differ += c->pairs[p].between.between == PH_BETWEEN_DIFFER;
				}
			}
			if (!n)
				continue;
			c2c_group(v, n, &g);
			n = table_add_row(np);
			table_int(np, n, "node_a", na);
			table_int(np, n, "node_b", nb);
			group_row(np, n, &g, differ);
		}
	free(v);
}

static const char c2c_dist_sample[] =
	"runs of hops_per_sample one-way hand-offs (hops_per_sample / 2 round trips: the smallest power of two from 64 hand-offs whose run lasts 100 clock resolutions), a batch's runs after one untimed round trip (both threads running), each timed alone on the first CPU, which opens every round trip (lfence; rdtsc; lfence before its first store, rdtscp; lfence after its last answer), the line idle between runs; a sample is one run's time less the timer's cost, over hops_per_sample (halved as lat_ns is): a mean over the run, not one hand-off's latency; the median repeat's runs, as lat_ns is its figure";

/* Tables "c2c_dist" (a row per pair) and, with --histogram, "c2c_histogram". */
static void dist_tables(const struct ph_c2c *c, struct ph_doc *doc)
{
	struct ph_table *t = latency_dist_table_of(doc, "c2c_dist",
		"distribution of runs' means: one-way ns over runs of hops_per_sample hand-offs, timer cost subtracted (not one hand-off's latency)",
		"cpu_a cpu_b", &c->dist);
	struct ph_table *h = c->dist.histogram ? latency_hist_table(doc, "c2c_histogram", "cpu_a cpu_b") : NULL;

	for (int p = 0; p < c->npairs; p++) {
		const struct ph_c2c_pair *pr = &c->pairs[p];
		char label[48];
		int first, n, row;

		snprintf(label, sizeof(label), "CPUs %d-%d", pr->a, pr->b);
		row = latency_dist_row(doc, t, &c->dist, &pr->res.st, &pr->dist, label);
		table_int(t, row, "cpu_a", pr->a);
		table_int(t, row, "cpu_b", pr->b);
		if (!h)
			continue;
		n = latency_hist_rows(h, &pr->dist, &first);
		for (int r = first; r < first + n; r++) {
			table_int(h, r, "cpu_a", pr->a);
			table_int(h, r, "cpu_b", pr->b);
		}
	}
}

static bool c2c_measured(const void *state)
{
	return ((const struct ph_c2c *)state)->npairs > 0;
}

static struct ph_doc *c2c_doc(void *state, struct ph_session *s, int *rc)
{
	const struct ph_c2c *c = state;
	struct ph_doc *doc = doc_new("c2c");
	struct ph_section *sec;
	pairs_table(c, s, doc);
	repeats_table(c, doc);
	matrix_table(c, doc);
	summary_tables(c, doc);
	if (c->dist.want)
		dist_tables(c, doc);
	differ_notes(c, doc);
	session_describe(s, doc);
	sec = doc_add_section(doc, "c2c_method", "c2c");
	section_str(sec, "sample", c2c_method);
	section_str(sec, "relation",
		    "the first level both CPUs share, from hwloc: smt (one core), l3 (one L3 or CCX), node, socket, remote (two packages)");
	section_int(sec, "repeats", c->repeats);
	section_str(sec, "between_runs", repeats_method);
	if (c->dist.want)
		latency_dist_method_of(sec, &c->dist, c2c_dist_sample);
	homed_section(doc, "line", c->repeats > 1 ? "the last repeat's cache line, as read back" :
		      "the cache line, as read back", &c->seg, c->have_seg, c->node);
	(void)rc;
	return doc;
}

static void c2c_free(void *state, struct ph_session *s)
{
	struct ph_c2c *c = state;

	for (int p = 0; p < c->npairs; p++)
		pair_free(&c->pairs[p]);
	if (c->have_seg)
		segment_free(&s->m.km, &c->seg);
	free(c->pairs);
	free(c->places);
	free(c->cpus);
	if (c->cpus_given)
		numa_bitmask_free(c->cpus_given);
	memset(c, 0, sizeof(*c));
}

const struct ph_steps c2c_steps = {
	.size = sizeof(struct ph_c2c),
	.plan = c2c_plan,
	.measure = c2c_measure,
	.measured = c2c_measured,
	.document = c2c_doc,
	.free = c2c_free,
};
