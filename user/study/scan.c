// SPDX-License-Identifier: GPL-2.0-only
/*
 * scan.c - pagehop scan: a node's memory range by physical range.
 */
#include "scan.h"
#include "scan_doc.h"
#include "bandwidth.h"
#include "binding.h"
#include "frames.h"
#include "latency.h"
#include "progress.h"
#include "util.h"
#include "verify.h"

#include <errno.h>
#include <math.h>
#include <numa.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static bool pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

static int scan_plan(void *state, struct ph_session *s)
{
	struct ph_scan *sc = state;
	const struct ph_topology *t = &s->m.topo;
	uint64_t pb;

	/*
	 * 2 MiB pages from pagehop.ko; without it, or where it cannot map
	 * them (6.1: no huge pfnmap), THP: anonymous 2 MiB leaves the kernel
	 * places, read back through QUERY or
	 * pagemap, the coverage partial.  Not a hugetlb pool: it holds what
	 * was reserved, not the node's memory.
	 */
	sc->bufreq = s->opt->bufreq;
	if (!s->opt->psize_given)
		sc->bufreq.psize = buffer_auto_backend(&s->m.km, PH_PS_2M) == PH_BACKEND_KMOD ? PH_PS_2M : PH_PS_THP;
	pb = psize_bytes(sc->bufreq.psize);
	if (!sc->pattern_given) {
		chase_parse("page:4K", &sc->pattern);
		sc->pattern.seed = 1;
	}
	if (!pow2(sc->range) || sc->range < pb || sc->range < 2 * MiB) {
		ph_err("--range %llu: expected a power of two of at least 2M and the page size",
		       (unsigned long long)sc->range);
		return PH_EXIT_USAGE;
	}
	for (int i = 0; i < t->nnodes; i++) {
		const struct ph_node *n = &t->nodes[i];

		if (sc->nodes_given ? !numa_bitmask_isbitset(sc->nodes_given, (unsigned)n->id) : !n->has_memory)
			continue;
		if (!n->has_memory) {
			ph_err("--node %d: the node has no memory", n->id);
			return PH_EXIT_USAGE;
		}
		sc->nodes = xrealloc(sc->nodes, (size_t)(sc->nnodes + 1) * sizeof(int));
		sc->nodes[sc->nnodes++] = n->id;
	}
	if (!sc->nnodes) {
		ph_err("--node: no such node with memory");
		return PH_EXIT_USAGE;
	}
	sc->partial = buffer_auto_backend(&s->m.km, sc->bufreq.psize) != PH_BACKEND_KMOD ||
		      sc->bufreq.backend == PH_BACKEND_ANON || sc->bufreq.backend == PH_BACKEND_HUGETLB;
	sc->edac_err = dimms_read_edac("/sys/devices/system/edac/mc", &sc->dimms);
	sc->dmi_err = dimms_read_dmi_sysfs("/sys/firmware/dmi/entries", &sc->dimms);
	sc->edac_err = sc->edac_err < 0 ? sc->edac_err : 0;
	sc->dmi_err = sc->dmi_err < 0 ? sc->dmi_err : 0;
	return 0;
}

/* Everything pinned on one node, in chunks. */
struct pinned {
	struct ph_segment *segs;
	int n;
	struct ph_frame_run *runs;	/* every chunk's, split at range boundaries */
	int nruns;
};

static void unpin(struct ph_session *s, struct pinned *p)
{
	for (int i = 0; i < p->n; i++)
		segment_free(&s->m.km, &p->segs[i]);
	free(p->segs);
	free(p->runs);
	memset(p, 0, sizeof(*p));
}

static uint64_t node_free_now(int node)
{
	long long free_b = 0;

	numa_node_size64(node, &free_b);
	return free_b > 0 ? (uint64_t)free_b : 0;
}

/*
 * Pin chunks on nd's node until nd->want is had, the node would keep less
 * than its reserve, or an allocation fails (said in nd->stop); read every
 * chunk's frames.  0 or an exit code.
 */
static int pin_node(struct ph_scan *sc, struct ph_session *s, struct ph_scan_node *nd, struct pinned *p)
{
	uint64_t pb = psize_bytes(sc->bufreq.psize);
	uint64_t chunk = sc->range < SCAN_CHUNK ? sc->range : SCAN_CHUNK;
	char why[256], size[32];

	nd->free_min = nd->free_before;
	while (nd->pinned < nd->want && !ph_interrupted) {
		uint64_t left = nd->want - nd->pinned, n = left < chunk ? left : chunk;
		uint64_t free_now = node_free_now(nd->node);
		struct ph_segment *seg;
		int err;

		/*
		 * Others allocate meanwhile: the reserve is judged on what is
		 * free now, and a chunk never takes the node closer to it than
		 * SCAN_MARGIN (what the kernel takes for the pin itself and
		 * for others in the meantime).
		 */
		if (free_now < nd->reserve + SCAN_MARGIN + pb) {
			snprintf(nd->stop, sizeof(nd->stop), "the node's free memory came down to %s, its reserve and a margin",
				 format_size(free_now, size, sizeof(size)));
			break;
		}
		if (n > free_now - nd->reserve - SCAN_MARGIN)
			n = free_now - nd->reserve - SCAN_MARGIN;
		n = n / pb * pb;
		if (!n)
			break;
		progress_phase("pinning node %d: %s of %s", nd->node, format_size(nd->pinned, size, sizeof(size)),
			       format_size(nd->want, why, sizeof(why)));
		seg = xappend(&p->segs, &p->n, sizeof(*seg));
		memset(seg, 0, sizeof(*seg));
		err = segment_alloc(&s->m.km, &sc->bufreq, nd->node, n, seg, why, sizeof(why));
		if (err) {
			p->n--;
			if (err == -EINTR)
				return PH_EXIT_INTERRUPTED;
			snprintf(nd->stop, sizeof(nd->stop), "%s", why);
			break;
		}
		free_now = node_free_now(nd->node);
		if (free_now < nd->free_min)
			nd->free_min = free_now;
		if (free_now < nd->reserve) {
			/* Taken below the reserve all the same: given back at once. */
			segment_free(&s->m.km, seg);
			p->n--;
			snprintf(nd->stop, sizeof(nd->stop), "a chunk left the node %s free, under its reserve: given back",
				 format_size(free_now, size, sizeof(size)));
			break;
		}
		nd->backend = backend_name(seg->backend);
		nd->pinned += seg->bytes;
		err = frames_read(&s->m.km, seg->addr, seg->bytes, sc->range, &p->runs, &p->nruns,
				  nd->frames, sizeof(nd->frames));
		if (err) {
			ph_errno(-err, "node %d: reading the frames of the memory pinned", nd->node);
			return err == -EPERM ? PH_EXIT_UNSUPPORTED : PH_EXIT_FAIL;
		}
	}
	if (!nd->stop[0])
		/* The loop also ends with less than a page left to want. */
		snprintf(nd->stop, sizeof(nd->stop), ph_interrupted ? "interrupted" : "had all it asked for");
	return 0;
}

static int by_phys(const void *a, const void *b)
{
	const struct ph_frame_run *x = a, *y = b;

	return (x->phys > y->phys) - (x->phys < y->phys);
}

/*
 * The time one figure gets under --budget: what the budget has left of
 * measuring (sc->measure_s, and what this range, begun at t0, spent so
 * far) shared by the figures left to measure, two a range.  Pinning and
 * reading frames back are not measuring: they do not eat the figures'
 * share, or a slow pin would leave every figure the floor.
 */
static double figure_time(const struct ph_scan *sc, const struct ph_session *s, double t0, int figures)
{
	double t;

	if (!sc->budget)
		return s->opt->mcfg.time_s;
	t = (sc->budget - sc->measure_s - (now_mono_raw() - t0)) / (figures > 0 ? figures : 1);
	/* Each figure needs its warm-up and a few blocks: never less than this. */
	return t > 0.05 ? t : 0.05;
}

/* Measure range r on its view of n runs. */
static int measure_range(struct ph_scan *sc, struct ph_session *s, struct ph_scan_range *r,
			 struct ph_frame_run *runs, int n, enum ph_backend backend, int left)
{
	const struct stream_kernel *read = stream_auto("read", false, NULL);
	struct ph_memory mem = { 0 };
	struct ph_segment *seg;
	struct ph_layout lay = session_layout(s);
	struct ph_bindopts one = { .physcpubind = numa_allocate_cpumask(), .threads = 1 };
	uint64_t total;
	int *cpus = NULL, rc = 0;
	void *view;
	double t0;

	frames_sort(runs, n);
	r->runs = n;
	view = frames_view(runs, n, &total);
	if (!view) {
		snprintf(r->why, sizeof(r->why), "its pages could not be mapped in order: %s", strerror(errno));
		bindopts_free(&one);
		return 0;
	}
	mem.segs = seg = xcalloc(1, sizeof(*seg));
	seg->addr = view;
	seg->bytes = total;
	seg->backend = backend;
	seg->psize = sc->bufreq.psize;
	seg->node = r->node;
	seg->cancel = &ph_interrupted;
	/* Read back as any segment is: on the node, of the page size. */
	if (segment_verify(&s->m.km, seg, NULL) == -EINTR) {
		rc = PH_EXIT_INTERRUPTED;
		goto out;
	}
	r->verified = seg->verified;
	snprintf(r->found, sizeof(r->found), "%s", seg->verify_msg);
	/* And its frames once more, through the view: all in the range. */
	{
		struct ph_frame_run *again = NULL;
		int na = 0;
		char method[64];

		if (!frames_read(&s->m.km, view, total, 0, &again, &na, method, sizeof(method)) && na) {
			r->first = UINT64_MAX;
			for (int i = 0; i < na; i++) {
				if (again[i].phys < r->first)
					r->first = again[i].phys;
				if (again[i].phys + again[i].len > r->last)
					r->last = again[i].phys + again[i].len;
				r->read_back += again[i].len;
			}
			if (r->first < r->lo || r->last > r->hi)
				r->verified = false;
		} else {
			r->verified = false;
		}
		/* A hole in the view: what is timed is not all the range's pages. */
		if (r->read_back != total) {
			r->verified = false;
			snprintf(r->found + strlen(r->found), sizeof(r->found) - strlen(r->found),
				 "; %llu of the view's %llu MiB read back mapped",
				 (unsigned long long)(r->read_back / MiB), (unsigned long long)(total / MiB));
		}
		free(again);
	}
	if (!r->verified && !s->opt->allow_unverified) {
		snprintf(r->why, sizeof(r->why), "not verified: %s", r->found);
		goto out;
	}
	mem.n = 1;
	mem.per_thread = total;
	mem.nodes = xcalloc(1, sizeof(int));
	mem.nodes[0] = r->node;
	mem.all_verified = r->verified;
	mem.nslots = xcalloc(1, sizeof(int64_t));
	s->mem = &mem;
	binding_node_cpus(r->node, &cpus);
	r->cpu = cpus ? cpus[0] : 0;
	numa_bitmask_setbit(one.physcpubind, (unsigned)r->cpu);
	one.membind = numa_allocate_nodemask();
	numa_bitmask_setbit(one.membind, (unsigned)r->node);
	lay.size = total;
	t0 = now_mono_raw();
	s->meas.time_s = figure_time(sc, s, t0, 2 * left);
	/* Every figure carries its CI, budget or not: the verdict rests on them. */
	s->meas.min_over_time = true;
	s->meas.block_s = SCAN_LAT_BLOCK_S;
	rc = session_start_bind(s, &one, &lay, 1);
	if (!rc) {
		static const struct ph_bwopt parts = { .only = -1, .parts = SCAN_BW_PARTS };
		struct ph_bandwidth bw;
		struct ph_latency lat;

		rc = bandwidth_figure_opt(s, read, &parts, &bw);
		if (!rc && bw.res.n) {
			r->bw = bw.res.st;
			r->bw_ci = bw.res.ci_met;
			r->bw_parts = bw.parts;
		}
		bandwidth_free(&bw);
		/* The bandwidth figure is done: what it left of the budget, over one figure fewer. */
		s->meas.time_s = figure_time(sc, s, t0, 2 * left - 1);
		if (!rc && !ph_interrupted) {
			rc = latency_figure(s, &sc->pattern, 1, false, &lat);
			if (!rc && lat.user.n) {
				r->lat = lat.user.st;
				r->lat_ci = lat.user.ci_met;
			}
			latency_free(&lat);
		}
		r->measured = r->bw.n && r->lat.n;
		if (r->measured && !session_still_verified(s))
			r->verified = false;
	}
	sc->measure_s += now_mono_raw() - t0;
	if (r->measured)
		sc->measured_bytes += total;
	session_stop(s);
	s->mem = NULL;
out:
	free(seg->found.node_bytes);
	free(mem.segs);
	free(mem.nodes);
	free(mem.nslots);
	free(cpus);
	bindopts_free(&one);
	munmap(view, total);
	return rc;
}

/* Why range r, with what of it was pinned, is not measured; "" when it is to be. */
static void unmeasured_why(const struct ph_scan *sc, struct ph_scan_range *r, int nruns)
{
	char a[32], b[32];

	(void)sc;
	if (!r->pinned)
		snprintf(r->why, sizeof(r->why), "none of it could be had");
	else if (r->pinned < SCAN_MIN_BYTES)
		snprintf(r->why, sizeof(r->why), "only %s could be had, less than %s",
			 format_size(r->pinned, a, sizeof(a)), format_size(SCAN_MIN_BYTES, b, sizeof(b)));
	else if (nruns > SCAN_MAX_RUNS)
		snprintf(r->why, sizeof(r->why), "its pages lie in %d separate runs, more than a view maps (%d)",
			 nruns, SCAN_MAX_RUNS);
}

/* One node: its reserve, pin, group by range, measure each. */
static int scan_node(struct ph_scan *sc, struct ph_session *s, int idx)
{
	struct ph_scan_node *nd = &sc->nd[idx];
	struct ph_memblocks mb = { 0 };
	struct pinned p = { 0 };
	long long free_b = 0;
	uint64_t lo = UINT64_MAX, hi = 0;
	int rc, first = sc->nr, j = 0, todo = 0, done = 0;
	enum ph_backend backend = PH_BACKEND_AUTO;

	nd->node = sc->nodes[idx];
	nd->total = (uint64_t)numa_node_size64(nd->node, &free_b);
	nd->free_before = free_b > 0 ? (uint64_t)free_b : 0;
	nd->reserve = nd->total / SCAN_RESERVE_DIV > SCAN_RESERVE_MIN ? nd->total / SCAN_RESERVE_DIV : SCAN_RESERVE_MIN;
	nd->want = nd->free_before > nd->reserve ? nd->free_before - nd->reserve : 0;
	if (sc->cap && nd->want > sc->cap)
		nd->want = sc->cap;
	nd->backend = "";
	nd->blocks_read = !memblocks_read("/sys/devices/system", nd->node, &mb);
	rc = pin_node(sc, s, nd, &p);
	if (rc)
		goto out;
	if (p.n)
		backend = p.segs[0].backend;
	qsort(p.runs, (size_t)p.nruns, sizeof(*p.runs), by_phys);
	for (int i = 0; i < mb.n; i++) {
		lo = mb.v[i].start < lo ? mb.v[i].start : lo;
		hi = mb.v[i].start + mb.block_size > hi ? mb.v[i].start + mb.block_size : hi;
	}
	if (p.nruns) {
		lo = p.runs[0].phys < lo ? p.runs[0].phys : lo;
		hi = p.runs[p.nruns - 1].phys + p.runs[p.nruns - 1].len > hi ?
		     p.runs[p.nruns - 1].phys + p.runs[p.nruns - 1].len : hi;
	}
	/* The node's ranges: where its memory blocks are, and where its pinned frames are. */
	for (uint64_t a = lo / sc->range * sc->range; lo < hi && a < hi; a += sc->range) {
		struct ph_scan_range *r;
		int j2 = j;
		uint64_t pinned = 0, movable, node_bytes = memblocks_bytes(&mb, a, a + sc->range, &movable);

		while (j2 < p.nruns && p.runs[j2].phys < a + sc->range)
			pinned += p.runs[j2++].len;
		if (!node_bytes && !pinned) {
			j = j2;
			continue;
		}
		r = xappend(&sc->r, &sc->nr, sizeof(*r));
		memset(r, 0, sizeof(*r));
		*r = (struct ph_scan_range){ .node = nd->node, .lo = a, .hi = a + sc->range, .node_bytes = node_bytes,
					     .movable = movable, .pinned = pinned, .runs = j2 - j, .cpu = -1,
					     .bw_dev = NAN, .lat_dev = NAN };
		unmeasured_why(sc, r, j2 - j);
		todo += !r->why[0];
		j = j2;
	}
	nd->nranges = sc->nr - first;
	progress_begin(todo, "scan");
	j = 0;
	for (int i = first; i < sc->nr && !ph_interrupted && !rc; i++) {
		struct ph_scan_range *r = &sc->r[i];
		int j2 = j;

		while (j2 < p.nruns && p.runs[j2].phys < r->hi)
			j2++;
		while (j < j2 && p.runs[j].phys < r->lo)
			j++;
		if (!r->why[0]) {
			/* The ranges left: this node's, and as many for each node after it. */
			int left = todo - done + (sc->nnodes - 1 - idx) * todo;

			progress_step("node %d: 0x%llx-0x%llx", nd->node, (unsigned long long)r->lo,
				      (unsigned long long)r->hi);
			rc = measure_range(sc, s, r, p.runs + j, j2 - j, backend, left);
			done++;
			if (r->measured) {
				nd->nmeasured++;
				nd->scanned += r->pinned;
			} else if (!r->why[0]) {
				snprintf(r->why, sizeof(r->why), "%s", ph_interrupted ? "interrupted" : "measured nothing");
			}
		}
		j = j2;
	}
	progress_done();
out:
	unpin(s, &p);
	memblocks_free(&mb);
	return rc;
}

/* Judge each node's measured ranges, and rank those that stray. */
static void judge(struct ph_scan *sc)
{
	double *bw = xcalloc((size_t)sc->nr + 1, sizeof(double)), *lat = xcalloc((size_t)sc->nr + 1, sizeof(double));
	double *dev = xcalloc((size_t)sc->nr + 1, sizeof(double)), *score = xcalloc((size_t)sc->nr + 1, sizeof(double));
	bool *stray = xcalloc((size_t)sc->nr + 1, sizeof(bool));

	for (int k = 0; k < sc->nnodes; k++) {
		struct ph_scan_node *nd = &sc->nd[k];
		int first = 0, n;

		for (int i = 0; i < k; i++)
			first += sc->nd[i].nranges;
		n = nd->nranges;
		for (int i = 0; i < n; i++) {
			const struct ph_scan_range *r = &sc->r[first + i];

			bw[i] = r->measured ? r->bw.median : NAN;
			lat[i] = r->measured ? r->lat.median : NAN;
		}
		scan_judge(bw, n, sc->k, sc->tol, dev, stray, &nd->jb);
		for (int i = 0; i < n; i++) {
			sc->r[first + i].bw_dev = dev[i];
			sc->r[first + i].bw_stray = stray[i];
		}
		scan_judge(lat, n, sc->k, sc->tol, dev, stray, &nd->jl);
		for (int i = 0; i < n; i++) {
			struct ph_scan_range *r = &sc->r[first + i];

			r->lat_dev = dev[i];
			r->lat_stray = stray[i];
			if (r->bw_stray)
				r->score = fabs(r->bw_dev) / sc->tol;
			if (r->lat_stray && fabs(r->lat_dev) / sc->tol > r->score)
				r->score = fabs(r->lat_dev) / sc->tol;
			nd->nstray += r->bw_stray || r->lat_stray;
		}
	}
	for (int i = 0; i < sc->nr; i++)
		score[i] = sc->r[i].score;
	sc->rank = xcalloc((size_t)sc->nr + 1, sizeof(int));
	sc->nrank = scan_rank(score, sc->nr, sc->rank);
	free(bw);
	free(lat);
	free(dev);
	free(score);
	free(stray);
}

static int scan_measure(void *state, struct ph_session *s)
{
	struct ph_scan *sc = state;
	int rc = 0;

	sc->nd = xcalloc((size_t)sc->nnodes, sizeof(*sc->nd));
	for (int i = 0; i < sc->nnodes && !rc && !ph_interrupted; i++)
		rc = scan_node(sc, s, i);
	for (int i = 0; i < sc->nr; i++)
		dimms_for_range(&sc->dimms, sc->r[i].lo, sc->r[i].hi, sc->r[i].dimm, sizeof(sc->r[i].dimm));
	judge(sc);
	return rc;
}

static bool scan_measured(const void *state)
{
	/* A scan that could measure no range still says which ranges and why. */
	return ((const struct ph_scan *)state)->nr > 0;
}

static struct ph_doc *scan_doc(void *state, struct ph_session *s, int *rc)
{
	return scan_document(state, s, rc);
}

static void scan_free(void *state, struct ph_session *s)
{
	struct ph_scan *sc = state;

	(void)s;
	if (sc->nodes_given)
		numa_bitmask_free(sc->nodes_given);
	free(sc->nodes);
	free(sc->r);
	free(sc->nd);
	free(sc->rank);
	dimms_free(&sc->dimms);
	memset(sc, 0, sizeof(*sc));
}

/* Each range binds its own CPU and node: the command's study says PH_STUDY_BINDS_ITSELF. */
const struct ph_steps scan_steps = {
	.size = sizeof(struct ph_scan),
	.plan = scan_plan,
	.measure = scan_measure,
	.measured = scan_measured,
	.document = scan_doc,
	.free = scan_free,
};
