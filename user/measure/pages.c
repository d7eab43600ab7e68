// SPDX-License-Identifier: GPL-2.0-only
/*
 * pages.c - the page-size study: plan, measure, document, plot.
 *
 * Each page size gets its own allocation on the node, the largest working
 * set of its sweep, laid out and verified once; the working sets are
 * prefixes of it, measured from the smallest up.  The arithmetic (knees,
 * ratios, what can be had) is in sweep.c.
 */
#include "pages.h"
#include "chase.h"
#include "latency.h"
#include "plot.h"
#include "util.h"

#include <numa.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Below this a rise in the penalty is not called a knee: about two DRAM clocks. */
#define KNEE_FLOOR_NS 2.0

/* What the measured node offers, for the planner. */
static void machine_of(struct ph_session *s, int node, struct sweep_machine *m)
{
	int i = topology_index(&s->topo, node);
	long long freeb = 0;

	memset(m, 0, sizeof(*m));
	m->kmod_features = s->km.fd >= 0 ? s->km.info.features : 0;
	m->free_2m = s->topo.nodes[i].hp_2m.free;
	m->total_2m = s->topo.nodes[i].hp_2m.total;
	m->free_1g = s->topo.nodes[i].hp_1g.free;
	m->total_1g = s->topo.nodes[i].hp_1g.total;
	m->thp = strcmp(s->topo.thp_enabled, "never") && strcmp(s->topo.thp_enabled, "unsupported");
	m->reserve = s->bufreq.reserve;
	m->node_total = (uint64_t)numa_node_size64(node, &freeb);
	m->node_free = freeb > 0 ? (uint64_t)freeb : 0;
}

int pages_plan(struct ph_pages *pg, struct ph_session *s)
{
	static const enum ph_psize order[] = { PH_PS_4K, PH_PS_2M, PH_PS_1G, PH_PS_THP };
	const struct pages_plan *p = &pg->plan;
	struct sweep_avail av[PH_PS_COUNT];
	struct sweep_machine m;
	struct ph_binding b;
	char why[512];

	tlb_load(s->cpu.vendor, &pg->tlbs);
	pg->window = p->window;
	if (!pg->window) {
		int e;
		uint64_t r = tlb_reach(&pg->tlbs, 1, 4096, &e);

		/* The L1 DTLB's reach: a window's pages all stay in the L1 DTLB. */
		pg->window = r && !(r & (r - 1)) ? r : 256 * KiB;
	}
	pg->read = stream_auto("read", false, NULL);
	if (binding_resolve(&s->bind, &s->cpu, 1, &b, why, sizeof(why))) {
		ph_err("%s", why);
		return PH_EXIT_USAGE;
	}
	pg->node = b.nodes[0];
	pg->cpu = b.cpus[0];
	binding_free(&b);

	machine_of(s, pg->node, &m);
	sweep_availability(&m, av);
	for (size_t k = 0; k < ARRAY_SIZE(order); k++) {
		enum ph_psize ps = order[k];
		struct pages_sweep *sw;
		uint64_t cap;

		if (!p->want[ps])
			continue;
		sw = &pg->sw[pg->nsw++];
		sw->ps = ps;
		sw->avail = av[ps];
		cap = av[ps].cap < p->hi ? av[ps].cap : p->hi;
		sw->capped = cap < p->hi;
		sw->nsizes = av[ps].ok ? sweep_sizes(p->lo, cap, sw->sizes, PAGES_MAX_POINTS) : 0;
		if (!sw->nsizes)
			snprintf(sw->why, sizeof(sw->why), "%s",
				 av[ps].ok ? "less than --min can be had" : av[ps].why);
	}
	return 0;
}

/* One page size's sweep.  0, or an exit code. */
static int run_sweep(struct ph_pages *pg, struct ph_session *s, struct pages_sweep *sw)
{
	const uint64_t *sizes = sw->sizes;
	int n = sw->nsizes, rc;
	char why[256];

	s->bufreq.psize = sw->ps;
	s->bufreq.backend = PH_BACKEND_AUTO;
	s->size = sizes[n - 1];
	rc = session_start(s, 1);
	if (rc) {
		snprintf(sw->why, sizeof(sw->why), "could not allocate %s pages (the reason is above)",
			 psize_name(sw->ps));
		sw->fail_rc = rc;
		session_stop(s);
		return rc == PH_EXIT_USAGE ? rc : 0;
	}
	sw->ran = true;
	for (int i = 0; i < n && !ph_interrupted; i++) {
		uint64_t window = pg->window < sizes[i] ? pg->window : sizes[i] / 2;
		struct chase_spec rnd = { .pattern = CHASE_RANDOM, .seed = pg->plan.seed };
		struct chase_spec tlb = { .pattern = CHASE_TLB, .param = window, .seed = pg->plan.seed };
		struct ph_latency lr, lt;
		struct pages_point *p = &sw->pt[i];

		if (isatty(2))
			fprintf(stderr, "pages: %s, working set %s (%d of %d)\n", psize_name(sw->ps),
				format_size(sizes[i], why, sizeof(why)), i + 1, n);
		p->ws = sizes[i];
		s->per_thread = sizes[i];
		rc = latency_figure(s, &rnd, 1, false, &lr);
		p->rnd = lr.user;
		if (rc)
			break;
		rc = latency_figure(s, &tlb, 1, false, &lt);
		p->tlb = lt.user;
		if (rc)
			break;
		rc = bandwidth_figure(s, pg->read, &p->bw);
		if (rc)
			break;
		sw->n = i + 1;
	}
	if (!session_still_verified(s) && !rc)
		rc = PH_EXIT_FAIL;
	session_stop(s);
	return rc;
}

/* Nothing measured: the reasons on stderr, and never exit 0. */
static int nothing_measured(const struct ph_pages *pg, int rc)
{
	char all[1024] = "";
	size_t len = 0;
	int fail = 0;

	for (int k = 0; k < pg->reached; k++) {
		const struct pages_sweep *sw = &pg->sw[k];

		fail = fail ? fail : sw->fail_rc;
		if (!sw->n && len < sizeof(all))
			len += (size_t)snprintf(all + len, sizeof(all) - len, "%s%s pages: %s",
						len ? "; " : "", psize_name(sw->ps),
						sw->why[0] ? sw->why : "measured nothing");
	}
	if (ph_interrupted) {
		ph_err("interrupted before anything was measured");
		return PH_EXIT_INTERRUPTED;
	}
	ph_err("nothing measured: %s", all[0] ? all : "no page size was asked");
	return rc ? rc : fail ? fail : PH_EXIT_UNSUPPORTED;
}

int pages_measure(struct ph_pages *pg, struct ph_session *s)
{
	int rc = 0;

	for (int k = 0; k < pg->nsw && !ph_interrupted; k++) {
		struct pages_sweep *sw = &pg->sw[k];

		pg->reached = k + 1;
		if (!sw->nsizes) {
			if (pg->plan.named && sw->ps != PH_PS_THP)
				ph_warn("%s pages: %s; skipped", psize_name(sw->ps), sw->why);
			continue;
		}
		if (sw->capped && isatty(2))
			fprintf(stderr, "pages: %s capped at %s: %s\n", psize_name(sw->ps),
				format_size(sw->sizes[sw->nsizes - 1], (char[32]){ 0 }, 32), sw->avail.why);
		rc = run_sweep(pg, s, sw);
		pg->points += sw->n;
		if (rc)
			break;
	}
	if (rc == PH_EXIT_USAGE || pg->points)
		return rc;
	return nothing_measured(pg, rc);
}

/* A sweep's points as the analysis takes them. */
static void points_of(const struct pages_sweep *sw, struct sweep_point *out)
{
	for (int i = 0; i < sw->n; i++) {
		const struct pages_point *p = &sw->pt[i];

		out[i] = (struct sweep_point){
			.ws = p->ws,
			.rnd_ns = p->rnd.st.median,
			.rnd_hw = sweep_half_width(p->rnd.st.ci_lo, p->rnd.st.ci_hi),
			.tlb_ns = p->tlb.st.median,
			.tlb_hw = sweep_half_width(p->tlb.st.ci_lo, p->tlb.st.ci_hi),
			.read_GBps = p->bw.res.st.median,
		};
	}
}

static void points_table(const struct ph_pages *pg, struct ph_session *s, struct ph_doc *doc)
{
	struct ph_table *t = doc_add_table(doc, "pages", "working-set sweep per page size");

	table_add_col(t, "page_size");
	table_add_col(t, "ws_KiB");
	latency_add_cols(t, "rnd_");
	latency_add_cols(t, "tlb_");
	table_add_col(t, "penalty_ns");
	bandwidth_add_cols(t, "read_");
	table_add_col(t, "backend");
	table_add_col(t, "node");
	table_add_col(t, "cpu");
	table_add_col(t, "clock");
	table_add_col(t, "verified");
	for (int k = 0; k < pg->reached; k++) {
		const struct pages_sweep *sw = &pg->sw[k];
		struct sweep_point pts[PAGES_MAX_POINTS];

		points_of(sw, pts);
		for (int i = 0; i < sw->n; i++) {
			const struct pages_point *p = &sw->pt[i];
			int r = table_add_row(t);

			table_str(t, r, "page_size", psize_name(sw->ps));
			table_int(t, r, "ws_KiB", (long long)(p->ws / KiB));
			latency_fill(t, r, "rnd_", &p->rnd, s->clk.tsc_hz);
			latency_fill(t, r, "tlb_", &p->tlb, s->clk.tsc_hz);
			table_num(t, r, "penalty_ns", sweep_penalty(&pts[i]), "%.2f");
			bandwidth_fill(t, r, "read_", &p->bw);
			table_str(t, r, "backend", backend_name(buffer_auto_backend(&s->km, sw->ps)));
			table_int(t, r, "node", pg->node);
			table_int(t, r, "cpu", pg->cpu);
			table_str(t, r, "clock", s->clk.name);
			table_bool(t, r, "verified", s->all_verified);
		}
	}
}

/* Knees: where the penalty (random - TLB-local) rises and stays up. */
static void knees_table(const struct ph_pages *pg, struct ph_doc *doc)
{
	struct ph_table *t = doc_add_table(doc, "knees", "where the TLB penalty appears");
	const struct ph_tlbs *tlbs = &pg->tlbs;

	table_add_col(t, "page_size");
	table_add_col(t, "knee_above_KiB");
	table_add_col(t, "penalty_at_max_ns");
	table_add_col(t, "tlb_reach_l1_KiB");
	table_add_col(t, "tlb_reach_l2_KiB");
	table_add_col(t, "summary");
	for (int k = 0; k < pg->reached; k++) {
		const struct pages_sweep *sw = &pg->sw[k];
		uint64_t page = psize_bytes(sw->ps);
		struct sweep_point pts[PAGES_MAX_POINTS];
		struct sweep_reach reach = { .page = page };
		struct sweep_knee knee;
		char sentence[512];
		int r;

		if (!sw->n)
			continue;
		points_of(sw, pts);
		sweep_point_knee(pts, sw->n, KNEE_FLOOR_NS, &knee);
		reach.l1 = tlb_reach(tlbs, 1, page, &reach.l1_entries);
		reach.l2 = tlb_reach(tlbs, 2, page, &reach.l2_entries);
		r = table_add_row(t);
		table_str(t, r, "page_size", psize_name(sw->ps));
		if (knee.index > 0)
			table_int(t, r, "knee_above_KiB", (long long)(pts[knee.index - 1].ws / KiB));
		table_num(t, r, "penalty_at_max_ns", knee.at_max, "%.1f");
		if (reach.l1)
			table_int(t, r, "tlb_reach_l1_KiB", (long long)(reach.l1 / KiB));
		if (reach.l2)
			table_int(t, r, "tlb_reach_l2_KiB", (long long)(reach.l2 / KiB));
		sweep_knee_summary(psize_name(sw->ps), &reach, pts, sw->n, &knee, sentence, sizeof(sentence));
		table_str(t, r, "summary", sentence);
	}
}

/* Large/small page ratios as speed-ups, per figure, at each working set both have. */
static void ratios_table(const struct ph_pages *pg, struct ph_doc *doc)
{
	struct ph_table *t = doc_add_table(doc, "ratios", "large/small page speed-up (>1: large pages faster)");
	struct sweep_point small[PAGES_MAX_POINTS];
	const struct pages_sweep *sm = NULL;

	for (int k = 0; k < pg->reached; k++)
		if (pg->sw[k].ps == PH_PS_4K && pg->sw[k].n)
			sm = &pg->sw[k];
	table_add_col(t, "ws_KiB");
	table_add_col(t, "pages");
	table_add_col(t, "lat_random");
	table_add_col(t, "lat_tlb_local");
	table_add_col(t, "read_bw");
	if (!sm) {
		doc_note(doc, "ratios: no 4K sweep to compare against");
		return;
	}
	points_of(sm, small);
	for (int k = 0; k < pg->reached; k++) {
		const struct pages_sweep *sw = &pg->sw[k];
		struct sweep_point large[PAGES_MAX_POINTS];
		struct sweep_ratios rows[PAGES_MAX_POINTS];
		char name[16];
		int n;

		if (sw == sm || !sw->n)
			continue;
		points_of(sw, large);
		n = sweep_ratio_rows(small, sm->n, large, sw->n, rows, PAGES_MAX_POINTS);
		snprintf(name, sizeof(name), "%s/4K", psize_name(sw->ps));
		for (int i = 0; i < n; i++) {
			int r = table_add_row(t);

			table_int(t, r, "ws_KiB", (long long)(rows[i].ws / KiB));
			table_str(t, r, "pages", name);
			table_num(t, r, "lat_random", rows[i].lat_random, "%.3f");
			table_num(t, r, "lat_tlb_local", rows[i].lat_tlb_local, "%.3f");
			table_num(t, r, "read_bw", rows[i].read_bw, "%.3f");
		}
	}
}

struct ph_doc *pages_doc(const struct ph_pages *pg, struct ph_session *s)
{
	struct ph_doc *doc = doc_new("pages");
	struct ph_section *sec;
	char w[32];

	points_table(pg, s, doc);
	knees_table(pg, doc);
	ratios_table(pg, doc);
	for (int k = 0; k < pg->reached; k++)
		if (!pg->sw[k].ran)
			doc_note(doc, "%s pages not measured: %s", psize_name(pg->sw[k].ps), pg->sw[k].why);
	sec = doc_add_section(doc, "pages_method", "the sweep");
	section_int(sec, "node", pg->node);
	section_int(sec, "seed", (long long)pg->plan.seed);
	section_str(sec, "tlb_window", format_size(pg->window, w, sizeof(w)));
	section_str(sec, "tlb_source", pg->tlbs.n ? pg->tlbs.source : "not reported");
	section_str(sec, "penalty", "median random latency minus median TLB-local latency at the same working set");
	section_str(sec, "knee", "the first working set from which the penalty stays more than max(2 ns, twice the two CIs' half-widths) above its level at the three smallest working sets");
	section_str(sec, "ratio", "speed-up of the large page over 4K: latency 4K/large, bandwidth large/4K");
	section_str(sec, "held_fixed", "node, CPU, chain seed and pattern; the physical pages differ (each page size is its own allocation on the node)");
	session_describe(s, doc);
	return doc;
}

int pages_plot(const struct ph_pages *pg, const char *path, char *why, size_t size)
{
	static const struct plot p = {
		.title = "pagehop pages: random chase (solid), TLB-local chase (dashed)",
		.xlabel = "working set",
		.ylabel = "latency per load, ns (median)",
		.x_log2_bytes = true,
	};
	struct plot_series s[2 * PH_PS_COUNT];
	double x[PH_PS_COUNT][PAGES_MAX_POINTS], rnd[PH_PS_COUNT][PAGES_MAX_POINTS];
	double tlb[PH_PS_COUNT][PAGES_MAX_POINTS];
	char titles[2 * PH_PS_COUNT][32];
	int ns = 0;

	for (int k = 0; k < pg->reached && k < PH_PS_COUNT; k++) {
		const struct pages_sweep *sw = &pg->sw[k];

		if (!sw->ran || !sw->n)
			continue;
		for (int i = 0; i < sw->n; i++) {
			x[k][i] = (double)sw->pt[i].ws;
			rnd[k][i] = sw->pt[i].rnd.st.median;
			tlb[k][i] = sw->pt[i].tlb.st.median;
		}
		snprintf(titles[ns], sizeof(titles[ns]), "%s random", psize_name(sw->ps));
		s[ns] = (struct plot_series){ .title = titles[ns], .n = sw->n, .x = x[k], .y = rnd[k],
					      .color = ns / 2 + 1 };
		ns++;
		snprintf(titles[ns], sizeof(titles[ns]), "%s TLB-local", psize_name(sw->ps));
		s[ns] = (struct plot_series){ .title = titles[ns], .n = sw->n, .x = x[k], .y = tlb[k],
					      .color = ns / 2 + 1, .dashed = true };
		ns++;
	}
	return plot_draw(PLOT_GNUPLOT, path, &p, s, ns, why, size);
}

void pages_free(struct ph_pages *pg)
{
	for (int k = 0; k < pg->nsw; k++)
		for (int i = 0; i < PAGES_MAX_POINTS; i++) {
			result_free(&pg->sw[k].pt[i].rnd);
			result_free(&pg->sw[k].pt[i].tlb);
			bandwidth_free(&pg->sw[k].pt[i].bw);
		}
}
