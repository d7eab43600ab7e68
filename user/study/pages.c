// SPDX-License-Identifier: GPL-2.0-only
/*
 * pages.c - the page-size study: plan, measure, document, plot.
 *
 * Each page size gets its own allocation on the node, the largest working
 * set of its sweep, laid out and verified once; the working sets are
 * prefixes of it, measured from the smallest up.  The arithmetic (knees,
 * ratios, what can be had) is in sweep.c, the document in pages_doc.c.
 */
#include "pages.h"
#include "progress.h"
#include "chase.h"
#include "latency.h"
#include "util.h"

#include <numa.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What the measured node offers, for the planner. */
static void machine_of(struct ph_session *s, int node, struct sweep_machine *m)
{
	int i = topology_index(&s->m.topo, node);
	long long freeb = 0;

	memset(m, 0, sizeof(*m));
	m->kmod_features = s->m.km.fd >= 0 ? s->m.km.info.features : 0;
	m->free_2m = s->m.topo.nodes[i].hp_2m.free;
	m->total_2m = s->m.topo.nodes[i].hp_2m.total;
	m->free_1g = s->m.topo.nodes[i].hp_1g.free;
	m->total_1g = s->m.topo.nodes[i].hp_1g.total;
	m->thp = strcmp(s->m.topo.thp_enabled, "never") && strcmp(s->m.topo.thp_enabled, "unsupported");
	m->reserve = s->opt->bufreq.reserve;
	m->node_total = (uint64_t)numa_node_size64(node, &freeb);
	m->node_free = freeb > 0 ? (uint64_t)freeb : 0;
}

const char *pages_same_frames_name(enum pages_same_frames m)
{
	return m == PAGES_FRAMES_ON ? "on" : m == PAGES_FRAMES_OFF ? "off" : "auto";
}

/*
 * Whether the sweeps are views of one allocation (pg->same), from
 * --same-frames and what the module offers; why not goes to frames.why,
 * said on stderr only for on.  0 or an exit code.
 */
static int choose_frames(struct ph_pages *pg, struct ph_session *s)
{
	enum pages_same_frames m = pg->plan.same_frames;
	char *why = pg->frames.why;
	size_t len = sizeof(pg->frames.why);

	pg->same = false;
	if (m == PAGES_FRAMES_OFF) {
		snprintf(why, len, "--same-frames=off");
		return 0;
	}
	/* on with thp is refused by the command; with auto, THP is its own allocation beside the views. */
	if (pages_frames_possible(s, pg->node, &pg->avail[PH_PS_1G], why, len)) {
		if (m == PAGES_FRAMES_AUTO)
			return 0;
		ph_err("--same-frames: %s", why);
		return PH_EXIT_UNSUPPORTED;
	}
	why[0] = '\0';
	pg->same = true;
	return 0;
}

/* Each wanted page size's working sets; with pg->same, each but THP is a view of the 1 GiB allocation. */
static void plan_sweeps(struct ph_pages *pg)
{
	static const enum ph_psize order[] = { PH_PS_4K, PH_PS_THP, PH_PS_2M, PH_PS_1G };
	const struct pages_plan *p = &pg->plan;

	pg->nsw = 0;
	memset(pg->sw, 0, sizeof(pg->sw));
	for (size_t k = 0; k < ARRAY_SIZE(order); k++) {
		enum ph_psize ps = order[k];
		/* THP is anonymous memory: never a view of the module's buffer. */
		bool shared = pg->same && ps != PH_PS_THP;
		const struct sweep_avail *av = &pg->avail[shared ? PH_PS_1G : ps];
		struct pages_sweep *sw;
		uint64_t cap;

		if (!p->want[ps])
			continue;
		sw = &pg->sw[pg->nsw++];
		sw->ps = ps;
		sw->shared = shared;
		sw->avail = *av;
		cap = av->cap < p->hi ? av->cap : p->hi;
		sw->capped = cap < p->hi;
		sw->nsizes = av->ok ? sweep_sizes(p->lo, cap, sw->sizes, PAGES_MAX_POINTS) : 0;
		if (!sw->nsizes)
			snprintf(sw->why, sizeof(sw->why), "%s",
				 av->ok ? "less than --min can be had" : av->why);
	}
}

int pages_plan(void *state, struct ph_session *s)
{
	struct ph_pages *pg = state;
	const struct pages_plan *p = &pg->plan;
	struct sweep_machine m;
	struct ph_binding b;
	char why[512];
	int rc;

	tlb_load(s->m.cpu.vendor, &pg->tlbs);
	counters_init(&pg->ctr, &s->m.cpu, "/sys/bus/event_source/devices");
	pg->window = p->window;
	if (!pg->window) {
		int e;
		uint64_t r = tlb_reach(&pg->tlbs, 1, 4096, &e);

		/* The L1 DTLB's reach: a window's pages all stay in the L1 DTLB. */
		pg->window = r && !(r & (r - 1)) ? r : 256 * KiB;
	}
	pg->read = stream_auto("read", false, NULL);
	if (binding_resolve(&s->opt->bind, &s->m.cpu, 1, &b, why, sizeof(why))) {
		ph_err("%s", why);
		return PH_EXIT_USAGE;
	}
	pg->node = b.nodes[0];
	pg->cpu = b.cpus[0];
	binding_free(&b);

	machine_of(s, pg->node, &m);
	sweep_availability(&m, pg->avail);
	rc = choose_frames(pg, s);
	if (rc)
		return rc;
	plan_sweeps(pg);
	return 0;
}

/* Open the counters on the thread that measures (team_run's only thread). */
static void open_counters(void *ctx, int tid)
{
	(void)tid;
	counters_open_here(ctx);
}

/* One latency figure, counted when the counters are open. */
static int counted_figure(struct ph_session *s, const struct chase_spec *spec, struct ph_latency *l,
			  double ctr[PMU_NROLES], bool *counted)
{
	int rc;

	if (s->counters)
		counters_reset(s->counters);
	rc = latency_figure(s, spec, 1, false, l);
	*counted = s->counters && counters_per_load(s->counters, ctr);
	return rc;
}

/* The figures of one point, in the order a sweep measures them. */
enum pages_fig { PAGES_RND, PAGES_TLB, PAGES_BW };

/*
 * Figure fig of sweep sw's working set i on the session's memory, its
 * time added to the point's step_s; after the random figure of a view's
 * largest working set, the chain it chased, read back from its memory,
 * for the document.  0, or an exit code.
 */
static int point_figure(struct ph_pages *pg, struct ph_session *s, struct pages_sweep *sw, int i,
			enum pages_fig fig)
{
	const uint64_t *sizes = sw->sizes;
	uint64_t window = pg->window < sizes[i] ? pg->window : sizes[i] / 2;
	struct chase_spec rnd = { .pattern = CHASE_RANDOM, .seed = pg->plan.seed };
	struct chase_spec tlb = { .pattern = CHASE_TLB, .param = window, .seed = pg->plan.seed };
	struct pages_point *p = &sw->pt[i];
	struct ph_latency l;
	double t0 = now_mono_raw();
	int rc;

	p->ws = sizes[i];
	s->per_thread = sizes[i];
	if (fig == PAGES_RND) {
		rc = counted_figure(s, &rnd, &l, p->rnd_ctr, &p->counted);
		p->rnd = l.user;
		if (!rc && sw->shared && i == sw->nsizes - 1)
			rc = pages_frames_order(&pg->frames, sw->ps, s->segs[0].addr, sizes[i]);
	} else if (fig == PAGES_TLB) {
		rc = counted_figure(s, &tlb, &l, p->tlb_ctr, &p->counted);
		p->tlb = l.user;
	} else {
		rc = bandwidth_figure(s, pg->read, &p->bw);
	}
	p->step_s += now_mono_raw() - t0;
	return rc;
}

/*
 * The session of a sweep (or of the views' sweeps together: sw the first)
 * on layout lay, the counters open on its thread.  0; or the sweep's
 * failure, said in sw->why, and *rc what the study then returns.
 */
static int sweep_start(struct ph_pages *pg, struct ph_session *s, struct pages_sweep *sw,
		       const struct ph_layout *lay, int *rc)
{
	int err = session_start_bind(s, NULL, lay, 1);

	if (err) {
		snprintf(sw->why, sizeof(sw->why), "could not allocate %s pages (the reason is above)",
			 psize_name(sw->ps));
		sw->fail_rc = err;
		session_stop(s);
		pages_frames_unlend(&pg->frames, s);
		*rc = err == PH_EXIT_USAGE ? err : 0;
		return err;
	}
	if (pg->ctr.usable) {
		uint64_t *ticks = xcalloc((size_t)s->binding.n, sizeof(uint64_t));

		team_run(s->team, open_counters, &pg->ctr, &s->m.clk, ticks);
		free(ticks);
	}
	s->counters = pg->ctr.usable ? &pg->ctr : NULL;
	return 0;
}

/* The counters belong to the team's thread, which session_stop ends. */
static void sweep_stop(struct ph_pages *pg, struct ph_session *s)
{
	s->counters = NULL;
	counters_close(&pg->ctr);
	session_stop(s);
	pages_frames_unlend(&pg->frames, s);
}

/* The layout of sw's largest working set. */
static struct ph_layout sweep_layout(struct ph_session *s, const struct pages_sweep *sw)
{
	struct ph_layout lay = session_layout(s);

	lay.bufreq.psize = sw->ps;
	lay.bufreq.backend = PH_BACKEND_AUTO;
	lay.size = sw->sizes[sw->nsizes - 1];
	return lay;
}

/* One page size's sweep, in a session of its own (a view alone, when it is one).  0, or an exit code. */
static int run_sweep(struct ph_pages *pg, struct ph_session *s, struct pages_sweep *sw)
{
	struct ph_layout lay = sweep_layout(s, sw);
	char w[32];
	int rc = 0;

	if (sw->shared)
		pages_frames_lend(&pg->frames, s, sw->ps, pg->node, lay.size);
	if (sweep_start(pg, s, sw, &lay, &rc))
		return rc;
	sw->ran = true;
	for (int i = 0; i < sw->nsizes && !ph_interrupted && !rc; i++) {
		progress_step("%s, working set %s", psize_name(sw->ps), format_size(sw->sizes[i], w, sizeof(w)));
		for (int fig = PAGES_RND; fig <= PAGES_BW && !rc; fig++)
			rc = point_figure(pg, s, sw, i, (enum pages_fig)fig);
		if (!rc)
			sw->n = i + 1;
	}
	if (!session_still_verified(s) && !rc)
		rc = PH_EXIT_FAIL;
	sweep_stop(pg, s);
	return rc;
}

/*
 * The sweeps of the views of one allocation (--same-frames: sws[0..nv),
 * the same working sets each), in one session whose memory is switched
 * from view to view, working set by working set: the random figure in
 * every view, then the tlb figure in every view, then the bandwidth.  So
 * each chain is written and checked once a working set, in the first view,
 * and rebased into each other one (chain.h: the same bytes, already in
 * their memory), until the bandwidth arrays overwrite it; one order per
 * view would write every chain again in each.  Each point's step_s is its
 * three figures' time, its chains' included.  0, or an exit code.
 */
static int run_frames(struct ph_pages *pg, struct ph_session *s, struct pages_sweep **sws, int nv)
{
	struct ph_layout lay = sweep_layout(s, sws[0]);
	uint64_t top = sws[0]->sizes[sws[0]->nsizes - 1];
	char w[32];
	int rc = 0;

	for (int v = nv - 1; v >= 0; v--)
		pages_frames_lend(&pg->frames, s, sws[v]->ps, pg->node, top);
	if (sweep_start(pg, s, sws[0], &lay, &rc)) {
		for (int v = 1; v < nv; v++) {
			snprintf(sws[v]->why, sizeof(sws[v]->why), "%s", sws[0]->why);
			sws[v]->fail_rc = sws[0]->fail_rc;
		}
		return rc;
	}
	for (int v = 0; v < nv; v++)
		sws[v]->ran = true;
	for (int i = 0; i < sws[0]->nsizes && !ph_interrupted && !rc; i++) {
		for (int fig = PAGES_RND; fig <= PAGES_BW && !rc; fig++)
			for (int v = 0; v < nv && !rc; v++) {
				pages_frames_switch(&pg->frames, s, sws[v]->ps);
				if (fig == PAGES_RND)
					progress_step("%s, working set %s", psize_name(sws[v]->ps),
						      format_size(sws[v]->sizes[i], w, sizeof(w)));
				rc = point_figure(pg, s, sws[v], i, (enum pages_fig)fig);
			}
		for (int v = 0; v < nv && !rc; v++)
			sws[v]->n = i + 1;
	}
	for (int v = 0; v < nv; v++) {
		pages_frames_switch(&pg->frames, s, sws[v]->ps);
		if (!session_still_verified(s) && !rc)
			rc = PH_EXIT_FAIL;
	}
	sweep_stop(pg, s);
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

/* The sweep's steps: every working set of every page size. */
static int sweep_steps(const struct ph_pages *pg)
{
	int n = 0;

	for (int k = 0; k < pg->nsw; k++)
		n += pg->sw[k].nsizes;
	return n;
}

/* Whether extra bytes fit beside every sweep's largest working set in the node's usable memory. */
static bool all_fit(const struct ph_pages *pg, uint64_t extra)
{
	uint64_t usable = pg->avail[PH_PS_4K].ok ? pg->avail[PH_PS_4K].cap : 0;

	for (int k = 0; k < pg->nsw; k++)
		if (pg->sw[k].nsizes && !pg->sw[k].shared &&
		    pg->sw[k].sizes[pg->sw[k].nsizes - 1] + extra > usable)
			return false;
	return extra <= usable;
}

/*
 * Whether sweep ps is a view whose working sets are those of the first
 * view's (they are: every view's cap is the 1 GiB allocation's).
 */
static bool same_sizes(const struct ph_pages *pg, enum ph_psize ps)
{
	const struct pages_sweep *first = NULL, *sw = NULL;

	for (int k = 0; k < pg->nsw; k++) {
		if (!pg->sw[k].shared || !pg->sw[k].nsizes)
			continue;
		if (!first)
			first = &pg->sw[k];
		if (pg->sw[k].ps == ps)
			sw = &pg->sw[k];
	}
	return sw && sw->nsizes == first->nsizes &&
	       !memcmp(sw->sizes, first->sizes, (size_t)sw->nsizes * sizeof(sw->sizes[0]));
}

static bool in_together(struct pages_sweep *const *together, int nv, const struct pages_sweep *sw)
{
	for (int v = 0; v < nv; v++)
		if (together[v] == sw)
			return true;
	return false;
}

int pages_measure(void *state, struct ph_session *s)
{
	struct ph_pages *pg = state;
	struct pages_sweep *together[PH_MAX_VIEWS];
	int rc = 0, nv = 0;

	if (pg->same) {
		enum ph_psize ps[PH_PS_COUNT];
		uint64_t hi = 0;
		int nps = 0;

		for (int k = 0; k < pg->nsw; k++)
			if (pg->sw[k].nsizes && pg->sw[k].shared) {
				ps[nps++] = pg->sw[k].ps;
				if (pg->sw[k].sizes[pg->sw[k].nsizes - 1] > hi)
					hi = pg->sw[k].sizes[pg->sw[k].nsizes - 1];
			}
		rc = pages_frames_open(&pg->frames, s, pg->node, hi, ps, nps);
		if (rc)
			pages_frames_close(&pg->frames, s);
		/* The GiBs cannot be had: on stops, auto sweeps one allocation per page size. */
		if (rc == PH_EXIT_UNSUPPORTED && pg->plan.same_frames == PAGES_FRAMES_ON)
			ph_err("--same-frames: %s", pg->frames.why);
		if (rc && (rc != PH_EXIT_UNSUPPORTED || pg->plan.same_frames == PAGES_FRAMES_ON))
			return rc;
		if (rc) {
			pg->same = false;
			plan_sweeps(pg);
			rc = 0;
		}
	}
	/*
	 * The random chains of every page size's working sets, derived from
	 * one random order over the largest: computed in the first step that
	 * needs it, so its time is in that step's step_s and in chain_s.
	 */
	{
		uint64_t all[PH_PS_COUNT * PAGES_MAX_POINTS];
		int nall = 0;

		for (int k = 0; k < pg->nsw; k++)
			for (int i = 0; i < pg->sw[k].nsizes; i++)
				all[nall++] = pg->sw[k].sizes[i];
		chain_orders_plan(&pg->orders, all, nall, pg->plan.seed);
		/*
		 * They take about 16 bytes a slot of the largest working set
		 * (a quarter of it) beside it: where both do not fit in what
		 * the node can give, each chain is built on its own instead.
		 */
		if (nall && all_fit(pg, chain_orders_bytes(&pg->orders)))
			s->orders = &pg->orders;
	}
	/* The views' sweeps that share working sets run together (run_frames). */
	if (pg->same) {
		void *views[PH_MAX_VIEWS];

		for (int k = 0; k < pg->nsw; k++)
			if (same_sizes(pg, pg->sw[k].ps) && nv < PH_MAX_VIEWS) {
				together[nv] = &pg->sw[k];
				views[nv++] = pg->frames.view[pg->sw[k].ps];
			}
		chain_orders_views(&pg->orders, views, nv, pg->frames.bytes);
	}
	progress_begin(sweep_steps(pg), "pages");
	for (int k = 0; k < pg->nsw && !ph_interrupted; k++) {
		struct pages_sweep *sw = &pg->sw[k];

		pg->reached = k + 1;
		if (!sw->nsizes) {
			if (pg->plan.named && (sw->ps != PH_PS_THP || pg->plan.thp_named))
				ph_warn("%s pages: %s; skipped", psize_name(sw->ps), sw->why);
			continue;
		}
		if (sw->capped)
			progress_phase("%s capped at %s: %s", psize_name(sw->ps),
				       format_size(sw->sizes[sw->nsizes - 1], (char[32]){ 0 }, 32), sw->avail.why);
		if (nv > 1 && sw == together[0]) {
			rc = run_frames(pg, s, together, nv);
			for (int v = 0; v < nv; v++)
				pg->points += together[v]->n;
			/* The last of them is reached too, and every sweep before it. */
			if (together[nv - 1] - pg->sw + 1 > pg->reached)
				pg->reached = (int)(together[nv - 1] - pg->sw + 1);
		} else if (nv > 1 && in_together(together, nv, sw)) {
			continue;
		} else {
			rc = run_sweep(pg, s, sw);
			pg->points += sw->n;
		}
		if (rc)
			break;
	}
	pg->rebased = pg->orders.rebased;
	if (pg->same)
		pages_frames_close(&pg->frames, s);
	s->orders = NULL;
	chain_orders_free(&pg->orders);
	if (rc == PH_EXIT_USAGE || pg->points)
		return rc;
	return nothing_measured(pg, rc);
}

void pages_free(void *state, struct ph_session *s)
{
	struct ph_pages *pg = state;

	(void)s;
	for (int k = 0; k < pg->nsw; k++)
		for (int i = 0; i < PAGES_MAX_POINTS; i++) {
			result_free(&pg->sw[k].pt[i].rnd);
			result_free(&pg->sw[k].pt[i].tlb);
			bandwidth_free(&pg->sw[k].pt[i].bw);
		}
}
