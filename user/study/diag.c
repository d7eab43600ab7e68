// SPDX-License-Identifier: GPL-2.0-only
/*
 * diag.c - the study behind baseline and check (diag.h): identity,
 * settings, figures; plan, measure, document.
 */
#include "diag.h"
#include "progress.h"
#include "diag_impl.h"
#include "fingerprint.h"
#include "bandwidth.h"
#include "chase.h"
#include "busy.h"
#include "health.h"
#include "latency.h"
#include "util.h"
#include "verify.h"

#include <errno.h>
#include <math.h>
#include <numa.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

/*
 * Working sets.  Latency: a chain of four times one last-level cache (the
 * one its single thread uses, so that most loads miss it), within bounds
 * that keep laying it out, verifying it and warming it up (a walk of the
 * whole chain: 2M loads for 128 MiB) to about a second.  Bandwidth: 32
 * MiB per CPU of the node, all arrays together (about 10 MiB an array per
 * CPU, more than the last-level cache per CPU of current servers: STREAM's
 * rule is four times the cache for all arrays together).  Baseline and
 * check work them out alike, so that their figures are one measurement.
 */
#define DIAG_LAT_MIN (64 * MiB)
#define DIAG_LAT_MAX (128 * MiB)
#define DIAG_BW_PER_CPU (32 * MiB)
#define DIAG_BW_MIN (256 * MiB)
#define DIAG_BW_MAX (4 * GiB)
/* Enough blocks for the median's CI to exist (stats.h needs 6). */
#define DIAG_MIN_SAMPLES 10
/* Blocks a latency figure takes at least when its tails are asked (measure_item). */
#define DIAG_TAIL_BLOCKS 40
/* A check's per-figure time: long enough for a CI, short enough for the budget. */
#define CHECK_TIME_MIN 0.1
#define CHECK_TIME_MAX 1.0
/* What a check keeps for the end (rendering, exit), and its first guess of
 * what laying out, verifying and warming a figure's memory costs. */
#define CHECK_MARGIN_S 0.3
#define CHECK_SETUP_GUESS_S 0.4

static uint64_t llc_bytes(const struct ph_cpu *c)
{
	uint64_t best = 0;
	int lvl = 0;

	for (int i = 0; i < c->ncaches; i++) {
		const struct ph_cache *k = &c->caches[i];
		if (strcmp(k->type, "instruction") && (k->level > lvl || (k->level == lvl && k->size > best))) {
			lvl = k->level;
			best = k->size;
		}
	}
	return best;
}

static uint64_t clamp_size(uint64_t v, uint64_t lo, uint64_t hi)
{
	v = (v + MiB - 1) / MiB * MiB;
	return v < lo ? lo : v > hi ? hi : v;
}

static void add_item(struct ph_diag *d, const struct ph_node *n, const char *name, int mem_node,
		     bool latency, const char *kernel, enum ph_psize ps, int prio)
{
	struct ph_diag_item *it;
	int node = n->id;

	it = xappend(&d->items, &d->nitems, sizeof(*d->items));
	snprintf(it->name, sizeof(it->name), "%s", name);
	it->node = node;
	it->mem_node = mem_node;
	it->latency = latency;
	it->kernel = kernel;
	it->psize = ps;
	it->prio = prio;
	it->size = latency ? d->lat_size
			   : clamp_size((uint64_t)n->ncpus * DIAG_BW_PER_CPU, DIAG_BW_MIN, DIAG_BW_MAX);
}

static int item_cmp(const void *a, const void *b)
{
	const struct ph_diag_item *x = a, *y = b;

	if (x->prio != y->prio)
		return x->prio - y->prio;
	return x->node != y->node ? x->node - y->node : x->mem_node - y->mem_node;
}

/*
 * Local figures of every node with CPUs and memory, then one memory node
 * per remote hop level (each distinct SLIT distance, nearest first).  The
 * order is the check's priority: triad first (what a missing channel costs
 * most), then latency, read, 2M latency, the hops.
 */
static void plan_items(struct ph_diag *d, struct ph_session *s)
{
	bool thp = strcmp(s->m.topo.thp_enabled, "never") && strcmp(s->m.topo.thp_enabled, "unsupported");
	const struct ph_topology *t = &s->m.topo;

	for (int i = 0; i < t->nnodes; i++) {
		const struct ph_node *n = &t->nodes[i];
		int last = 10, level = 0;

		if (!n->ncpus)
			continue;
		if (n->has_memory) {
			add_item(d, n, "bandwidth_triad", n->id, false, "triad", PH_PS_4K, 0);
			add_item(d, n, "latency_4k", n->id, true, NULL, PH_PS_4K, 1);
			add_item(d, n, "bandwidth_read", n->id, false, "read", PH_PS_4K, 2);
			if (thp)
				add_item(d, n, "latency_2m", n->id, true, NULL, PH_PS_THP, 3);
		}
		for (;;) {
			int next = 0, to = -1;
			char name[40];

			for (int j = 0; j < t->nnodes; j++) {
				int dist = t->distance[i * t->nnodes + j];

				if (j != i && t->nodes[j].has_memory && dist > last && (!next || dist < next)) {
					next = dist;
					to = t->nodes[j].id;
				}
			}
			if (!next)
				break;
			last = next;
			level++;
			snprintf(name, sizeof(name), "latency_hop%d", level);
			add_item(d, n, name, to, true, NULL, PH_PS_4K, 3 + level);
			snprintf(name, sizeof(name), "bandwidth_read_hop%d", level);
			add_item(d, n, name, to, false, "read", PH_PS_4K, 3 + level);
		}
	}
	qsort(d->items, (size_t)d->nitems, sizeof(*d->items), item_cmp);
}

void diag_plan(struct ph_diag *d, struct ph_session *s, bool check, double budget_s, double t0)
{
	uint64_t llc = llc_bytes(&s->m.cpu);

	memset(d, 0, sizeof(*d));
	d->check = check;
	d->budget_s = budget_s;
	d->t0 = t0;
	d->lat_size = clamp_size(4 * llc, DIAG_LAT_MIN, DIAG_LAT_MAX);
	d->repeats = 1;
	fingerprint(&d->set, s);
	plan_items(d, s);
	s->meas.min_samples = DIAG_MIN_SAMPLES;
	if (check) {
		/* Share what is left of the budget between the figures, each
		 * paying its set-up; the pacing in diag_measure() drops the
		 * last ones if the set-ups cost more than guessed. */
		double left = budget_s - (now_mono_raw() - t0) - CHECK_MARGIN_S - 0.05 * budget_s;
		double shares = 0, per;

		/* A bandwidth block is a pass over hundreds of MiB, a latency
		 * block a few thousand loads: bandwidth gets twice the time
		 * for as many blocks. */
		for (int i = 0; i < d->nitems; i++)
			shares += d->items[i].latency ? 1 : 2;
		per = d->nitems ? (left - d->nitems * CHECK_SETUP_GUESS_S) / shares : CHECK_TIME_MAX;

		d->time_s = per < CHECK_TIME_MIN ? CHECK_TIME_MIN : per > CHECK_TIME_MAX ? CHECK_TIME_MAX : per;
		s->meas.ci_target = 0.02;
	} else {
		/* A baseline is the reference check judges against, and
		 * check refuses a figure without a CI: whatever --time says,
		 * each figure takes the samples its CI needs. */
		d->time_s = s->opt->mcfg.time_s;
		s->meas.min_over_time = true;
	}
}

void diag_set_repeats(struct ph_diag *d, int n)
{
	d->repeats = n < 1 ? 1 : n > 20 ? 20 : n;
}

void diag_set_dist(struct ph_diag *d, const struct ph_distreq *req)
{
	d->dist = *req;
}

/*
 * The tail figures of a latency item from its distribution: each
 * percentile above 50 that was asked, with its CI, claimed only on a quiet
 * host with enough runs beyond it; with --histogram, the same runs'
 * histogram.
 */
static void item_tails(const struct ph_diag *d, struct ph_diag_item *it, const struct ph_latdist *ld)
{
	it->ntails = 0;
	if (!d->dist.want)
		return;
	it->runs = ld->measured ? ld->n : 0;
	it->hops = ld->hops;
	it->batches = ld->nbatches;
	it->timer_ns = ld->timer_ns;
	it->other_cpus = ld->other_cpus;
	it->quiet = ld->measured && ld->host_quiet;
	snprintf(it->busy, sizeof(it->busy), "the host was not quiet (%.120s)", ld->busy_why);
	if (d->dist.histogram && ld->measured)
		it->nhist = dist_histogram(ld->samples, ld->n, DIST_PER_DOUBLING, &it->hist);
	for (int k = 0; k < d->dist.npcts; k++) {
		struct ph_diag_tail *t = &it->tails[it->ntails];
		double p = d->dist.pcts[k];
		char name[sizeof(t->name)];

		if (p <= 50)
			continue;
		it->ntails++;
		memset(t, 0, sizeof(*t));
		/* Latency items' names are short ("latency_hop12"): 16 is enough. */
		snprintf(name, sizeof(name), "tail_p%.5g_%.16s", p, it->name);
		memcpy(t->name, name, sizeof(t->name));
		t->pct = p;
		t->value = t->ci_lo = t->ci_hi = t->rep_lo = t->rep_hi = NAN;
		if (!ld->measured) {
			snprintf(t->why, sizeof(t->why), "no distribution: %.120s", ld->why);
			continue;
		}
		t->value = dist_percentile(ld->samples, ld->n, p);
		if (latdist_ci(ld, p, &t->ci_lo, &t->ci_hi, t->why, sizeof(t->why)))
			continue;
		if (!ld->host_quiet) {
			snprintf(t->why, sizeof(t->why), "%s", it->busy);
			continue;
		}
		t->ok = true;
	}
}

/* One thread (latency) or one per core (bandwidth) on cpu_node, memory on mem_node. */
static void bind_to(struct ph_bindopts *b, int cpu_node, int mem_node, bool latency)
{
	b->cpunodebind = numa_allocate_nodemask();
	b->membind = numa_allocate_nodemask();
	numa_bitmask_setbit(b->cpunodebind, (unsigned)cpu_node);
	numa_bitmask_setbit(b->membind, (unsigned)mem_node);
	b->threads = latency ? 1 : 0;
}

/* One figure on memory of its own: 0, or the exit code of what failed. */
static int measure_item(struct ph_diag *d, struct ph_session *s, struct ph_diag_item *it)
{
	const struct ph_result *res = NULL;
	struct ph_latency lat = { 0 };
	struct ph_bandwidth bw = { 0 };
	struct chase_spec spec = { .pattern = CHASE_RANDOM, .seed = 1 };
	struct ph_loadsnap before, after;
	struct ph_bindopts bind = { 0 };
	struct ph_layout lay = session_layout(s);
	char nodes[64];
	int rc;

	bind_to(&bind, it->node, it->mem_node, it->latency);
	lay.bufreq.psize = it->psize;
	lay.size = it->size;
	s->meas.time_s = it->latency ? d->time_s : 2 * d->time_s;
	/*
	 * A tail needs runs: the distribution takes a tenth of each block,
	 * about 70 runs of 64 hops at this working set (0.5 ms of a 5 ms
	 * block at ~100 ns a hop), so 40 blocks give the 1000 runs of p99
	 * with room, where the median alone would stop at its CI.
	 */
	s->meas.min_samples = it->latency && d->dist.want ? DIAG_TAIL_BLOCKS : DIAG_MIN_SAMPLES;
	ph_clear_last_err();
	rc = session_start_bind(s, &bind, &lay, it->latency ? 1 : 0);
	bindopts_free(&bind);
	/* What else ran while the figure was timed (and warmed up): set-up
	 * and verification are not in it, they are not what is judged. */
	hostload_snap(&before);
	if (!rc) {
		if (it->latency) {
			char pat[32];

			snprintf(it->method, sizeof(it->method), "chase %s",
				 chase_spec_name(&spec, pat, sizeof(pat)));
			rc = latency_figure_dist(s, &spec, 1, false, &d->dist, &lat);
			res = &lat.user;
			if (!rc)
				item_tails(d, it, &lat.dist);
		} else {
			/* The ISA --isa auto runs, as stream's figures use (isa.c). */
			const struct stream_kernel *k = stream_auto(it->kernel, false, NULL);

			snprintf(it->method, sizeof(it->method), "%s %s", k->name, isa_name(k->isa));
			rc = bandwidth_figure(s, k, &bw);
			res = &bw.res;
			if (!rc && bw.bad) {
				snprintf(it->skipped, sizeof(it->skipped), "%zu wrong elements after the run", bw.bad);
				res = NULL;
			}
		}
	}
	hostload_snap(&after);
	hostload_diff(&before, &after, sysconf(_SC_CLK_TCK), &it->load);
	if (!rc && res && res->n && !(isfinite(res->st.ci_lo) && isfinite(res->st.ci_hi))) {
		/* A median without a CI is no reference and cannot be judged
		 * (a short budget's few blocks): left out, and named. */
		snprintf(it->skipped, sizeof(it->skipped), "left out: %zu samples in its time, too few for a CI",
			 res->n);
		it->left_out = true;
	} else if (!rc && res && res->n) {
		it->measured = true;
		it->ci_met = res->ci_met;
		it->value = res->st.median;
		it->ci_lo = res->st.ci_lo;
		it->ci_hi = res->st.ci_hi;
		it->samples = res->n;
		/* A check does not read its memory back after measuring: that
		 * takes seconds over a large set, and it was verified before. */
		it->verified = s->all_verified && (d->check || session_still_verified(s));
		session_found(s, nodes, sizeof(nodes), it->page_size, sizeof(it->page_size));
		snprintf(it->cpus, sizeof(it->cpus), "%s", s->binding.cpus_text);
		it->threads = s->binding.n;
	} else if (!it->skipped[0] && ph_last_err()[0]) {
		snprintf(it->skipped, sizeof(it->skipped), "could not be measured: %s", ph_last_err());
	} else if (!it->skipped[0]) {
		snprintf(it->skipped, sizeof(it->skipped), "could not be measured (exit %d; the reason is on stderr)",
			 rc ? rc : PH_EXIT_FAIL);
	}
	latency_free(&lat);
	bandwidth_free(&bw);
	session_stop(s);
	return rc;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * A baseline's figure, d->repeats times, each with session_start() anew
 * (fresh memory, placement and threads): what one run's CI cannot see,
 * a layout of pages or a placement that is luckier one time than the
 * next, shows as the spread between the repeats' medians.  The figure
 * is the repeat whose median is the median of theirs (its CI with it),
 * and rep_lo, rep_hi the lowest and highest median.  A repeat that fails
 * ends the figure: with one repeat or more measured it stands on those.
 */
static int measure_repeats(struct ph_diag *d, struct ph_session *s, struct ph_diag_item *it)
{
	struct ph_diag_item *runs = xcalloc((size_t)d->repeats, sizeof(*runs));
	double vals[20];
	bool met = true;
	int n = 0, rc = 0, pick = 0;

	for (int r = 0; r < d->repeats; r++) {
		runs[r] = *it;
		rc = measure_item(d, s, &runs[r]);
		if (rc || !runs[r].measured || ph_interrupted)
			break;
		vals[n++] = runs[r].value;
		met = met && runs[r].ci_met;
	}
	if (n) {
		double v[20];

		memcpy(v, vals, (size_t)n * sizeof(*v));
		qsort(v, (size_t)n, sizeof(*v), cmp_double);
		for (int r = 0; r < n; r++)
			if (vals[r] == v[(n - 1) / 2])
				pick = r;
		*it = runs[pick];
		for (int k = 0; k < it->ntails; k++) {
			struct ph_diag_tail *t = &it->tails[k];

			if (!t->ok)
				continue;
			t->rep_lo = t->rep_hi = t->value;
			for (int r = 0; r < n; r++)
				if (runs[r].ntails > k && runs[r].tails[k].ok) {
					t->rep_lo = fmin(t->rep_lo, runs[r].tails[k].value);
					t->rep_hi = fmax(t->rep_hi, runs[r].tails[k].value);
				}
		}
		it->ci_met = met;
		it->repeats = n;
		it->rep_lo = v[0];
		it->rep_hi = v[n - 1];
		rc = ph_interrupted ? PH_EXIT_INTERRUPTED : 0;
	} else {
		*it = runs[0];
	}
	/* The figure keeps its repeat's histogram, the runs its tails came from. */
	for (int r = 0; r < d->repeats; r++)
		if (runs[r].hist != it->hist)
			free(runs[r].hist);
	free(runs);
	return rc;
}

/*
 * The budget's hard edge: a set-up can cost more than any guess (a node
 * busy with other work faults its pages in slowly), so at the deadline
 * SIGALRM stops whatever is under way, through the flag every loop of the
 * engines already watches for a stop signal.  The figure it stops is left
 * out, and the flag is cleared for the verdict.
 */
static void on_deadline(int sig)
{
	if (!ph_interrupted)
		ph_interrupted = sig;
}

/* SIGALRM's action before the deadline (the pools' handler): put back after. */
static struct sigaction alarm_before;

static void arm_deadline(double in_s)
{
	struct sigaction sa = { .sa_handler = on_deadline };
	struct itimerval it = { 0 };

	if (in_s < 0.001)
		in_s = 0.001;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, &alarm_before);
	it.it_value.tv_sec = (time_t)in_s;
	it.it_value.tv_usec = (suseconds_t)((in_s - (double)(time_t)in_s) * 1e6);
	setitimer(ITIMER_REAL, &it, NULL);
}

static void disarm_deadline(void)
{
	struct itimerval it = { 0 };

	setitimer(ITIMER_REAL, &it, NULL);
	sigaction(SIGALRM, &alarm_before, NULL);
}

int diag_measure(struct ph_diag *d, struct ph_session *s)
{
	double setup[2] = { CHECK_SETUP_GUESS_S, CHECK_SETUP_GUESS_S };	/* bandwidth, latency */
	struct ph_loadsnap snap0, snap1;
	struct ph_proclist procs0, procs1;
	int rc = 0;

	if (d->check && !s->opt->allow_unverified && verify_ready(&s->m.km, d->unmeasurable, sizeof(d->unmeasurable))) {
		/* Every timed figure is measured on memory whose placement is
		 * read back; without the means to read it, none can be: say so
		 * once, for all of them, rather than fail each in turn. */
		ph_err("%s; no timed figure can be measured: run pagehop check as root", d->unmeasurable);
		for (int i = 0; i < d->nitems; i++) {
			snprintf(d->items[i].skipped, sizeof(d->items[i].skipped),
				 "placement cannot be verified: %.200s", d->unmeasurable);
			d->nskipped++;
		}
		return 0;
	}
	/* The whole phase's load, and each process's CPU time around it,
	 * to name the busiest. */
	hostload_procs(&procs0);
	hostload_snap(&snap0);
	if (d->check)
		arm_deadline(d->budget_s - CHECK_MARGIN_S - (now_mono_raw() - d->t0));
	progress_begin(d->nitems, d->check ? "check" : "baseline");
	for (int i = 0; i < d->nitems; i++) {
		struct ph_diag_item *it = &d->items[i];
		double start = now_mono_raw(), cost, left;
		const char *unit = it->latency ? "ns" : "GB/s";
		struct ph_hfig *fig;

		if (ph_interrupted == SIGALRM) {
			snprintf(it->skipped, sizeof(it->skipped), "left out: the budget of %g s ran out", d->budget_s);
			it->left_out = true;
			d->nskipped++;
			continue;
		}
		if (ph_interrupted) {
			snprintf(it->skipped, sizeof(it->skipped), "interrupted");
			rc = PH_EXIT_INTERRUPTED;
			continue;
		}
		if (d->check) {
			/* A figure's time runs over by its last block at most. */
			cost = setup[it->latency] + (it->latency ? 1 : 2) * d->time_s * 1.25;
			left = d->budget_s - (start - d->t0) - CHECK_MARGIN_S;
			if (cost > left) {
				snprintf(it->skipped, sizeof(it->skipped), "left out: the budget of %g s would run out",
					 d->budget_s);
				it->left_out = true;
				d->nskipped++;
				continue;
			}
		}
		progress_step("%s, CPUs of node %d, memory on node %d", it->name, it->node, it->mem_node);
		if ((d->repeats > 1 ? measure_repeats(d, s, it) : measure_item(d, s, it)) == PH_EXIT_INTERRUPTED ||
		    ph_interrupted) {
			it->measured = false;
			if (ph_interrupted == SIGALRM) {
				snprintf(it->skipped, sizeof(it->skipped), "left out: stopped when the budget of %g s ran out",
					 d->budget_s);
				it->left_out = true;
				d->nskipped++;
			} else {
				snprintf(it->skipped, sizeof(it->skipped), "interrupted");
				rc = PH_EXIT_INTERRUPTED;
			}
			continue;
		}
		cost = (now_mono_raw() - start) / (it->repeats > 1 ? it->repeats : 1) - (it->latency ? 1 : 2) * d->time_s;
		if (cost > setup[it->latency] || !d->nmeasured)
			setup[it->latency] = cost * 1.2;
		if (!it->measured) {
			d->nskipped++;
			continue;
		}
		d->nmeasured++;
		fig = hset_add_fig(&d->set, it->name, it->node, it->mem_node, unit, it->value, it->ci_lo, it->ci_hi);
		if (it->repeats > 1) {
			fig->rep_lo = it->rep_lo;
			fig->rep_hi = it->rep_hi;
			fig->repeats = it->repeats;
		}
		for (int k = 0; k < it->ntails; k++) {
			const struct ph_diag_tail *t = &it->tails[k];

			if (!t->ok)
				continue;
			fig = hset_add_fig(&d->set, t->name, it->node, it->mem_node, "ns", t->value, t->ci_lo, t->ci_hi);
			if (it->repeats > 1) {
				fig->rep_lo = t->rep_lo;
				fig->rep_hi = t->rep_hi;
				fig->repeats = it->repeats;
			}
		}
	}
	hostload_snap(&snap1);
	hostload_procs(&procs1);
	hostload_diff(&snap0, &snap1, sysconf(_SC_CLK_TCK), &d->load);
	d->ntop = hostload_top(&procs0, &procs1, (int)getpid(), sysconf(_SC_CLK_TCK), d->top,
			       (int)ARRAY_SIZE(d->top));
	hostload_procs_free(&procs0);
	hostload_procs_free(&procs1);
	if (d->check) {
		disarm_deadline();
		if (ph_interrupted == SIGALRM)
			ph_interrupted = 0;
	}
	return rc;
}

static const struct ph_diag_item *item_of(const struct ph_diag *d, const struct ph_hfig *f)
{
	for (int i = 0; i < d->nitems; i++)
		if (d->items[i].node == f->node && d->items[i].mem_node == f->mem_node &&
		    !strcmp(d->items[i].name, f->name))
			return &d->items[i];
	return NULL;
}

static void num_or_null(struct ph_table *t, int r, const char *col, double v, const char *fmt)
{
	if (isfinite(v))
		table_num(t, r, col, v, fmt);
}

/* The tail behind a figure of d->set, and its item, or NULL. */
static const struct ph_diag_tail *tail_of(const struct ph_diag *d, const struct ph_hfig *f,
					  const struct ph_diag_item **item)
{
	for (int i = 0; i < d->nitems; i++)
		for (int k = 0; k < d->items[i].ntails; k++)
			if (d->items[i].node == f->node && d->items[i].mem_node == f->mem_node &&
			    !strcmp(d->items[i].tails[k].name, f->name)) {
				*item = &d->items[i];
				return &d->items[i].tails[k];
			}
	return NULL;
}

/*
 * --percentiles: every latency figure's tails, claimed or not, with how
 * they were obtained: the runs, hops a run, the timer's cost taken off,
 * the host's other tasks, and why one was not claimed.
 */
static void tails_table(const struct ph_diag *d, struct ph_doc *doc)
{
	static const char *const cols[] = { "figure", "node", "mem_node", "pct", "value_ns", "ci_lo_ns",
					    "ci_hi_ns", "runs", "batches", "hops", "timer_ns", "other_cpus",
					    "host_quiet", "claimed", "why_not" };
	struct ph_table *t;

	if (!d->dist.want)
		return;
	t = doc_add_table(doc, "tails", "latency tails");
	for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
		table_add_col(t, cols[i]);
	table_detail(t, "batches timer_ns other_cpus");
	for (int i = 0; i < d->nitems; i++) {
		const struct ph_diag_item *it = &d->items[i];

		for (int k = 0; k < it->ntails; k++) {
			const struct ph_diag_tail *x = &it->tails[k];
			int r = table_add_row(t);

			table_str(t, r, "figure", x->name);
			table_int(t, r, "node", it->node);
			table_int(t, r, "mem_node", it->mem_node);
			table_num(t, r, "pct", x->pct, "%g");
			num_or_null(t, r, "value_ns", x->value, "%.2f");
			num_or_null(t, r, "ci_lo_ns", x->ci_lo, "%.2f");
			num_or_null(t, r, "ci_hi_ns", x->ci_hi, "%.2f");
			table_int(t, r, "runs", (long long)it->runs);
			table_int(t, r, "batches", it->batches);
			table_int(t, r, "hops", it->hops);
			num_or_null(t, r, "timer_ns", it->runs ? it->timer_ns : NAN, "%.2f");
			num_or_null(t, r, "other_cpus", it->runs ? it->other_cpus : NAN, "%.3f");
			table_bool(t, r, "host_quiet", it->quiet);
			table_bool(t, r, "claimed", x->ok);
			if (!x->ok)
				table_str(t, r, "why_not", x->why);
		}
	}
	doc_note(doc, "tails: the percentile of a latency figure's distribution, means over runs of N dependent loads (hops) with the timer's cost (timer_ns) taken off each run, never single loads; its 95%% CI from the binomial ranks around it, widened by the batches' (the runs of a batch are taken together: the cluster bootstrap over batches); claimed with at least %d runs beyond it, %d batches, and while other tasks used under %.2f CPU (host_quiet); check judges a claimed tail against the baseline's, a WARNING at most",
		 DIST_TAIL_BEYOND, DIST_MIN_CLUSTERS, LATDIST_QUIET_CPUS);
}

/*
 * --histogram: each latency figure's distribution, the runs its tails come
 * from, in log-spaced buckets (latency.c's table), one taken on a busy host
 * saying so; descriptive, and never judged.
 */
static void hist_table(const struct ph_diag *d, struct ph_doc *doc)
{
	struct ph_table *h;

	if (!d->dist.histogram)
		return;
	h = latency_hist_table(doc, "histogram", "figure node mem_node");
	for (int i = 0; i < d->nitems; i++) {
		const struct ph_diag_item *it = &d->items[i];
		int first, n = latency_bucket_rows(h, it->hist, it->nhist, &first);

		for (int r = first; r < first + n; r++) {
			table_str(h, r, "figure", it->name);
			table_int(h, r, "node", it->node);
			table_int(h, r, "mem_node", it->mem_node);
		}
		if (n && !it->quiet)
			doc_note(doc, "histogram of node %d->%d %s: its distribution was taken on a busy host, its tails not claimed: %s",
				 it->node, it->mem_node, it->name, it->busy);
	}
	doc_note(doc, "histogram: the runs the tails come from%s, each a mean in ns per load over a run of hops dependent loads (tails table) with the timer's cost (timer_ns) taken off, never single loads; %s; descriptive: check never judges it",
		 d->repeats > 1 ? " (of the repeat whose median is the figure's)" : "", dist_histogram_method);
}

const struct ph_diag_item *diag_item_of(const struct ph_diag *d, const struct ph_hfig *f)
{
	return item_of(d, f);
}

void diag_num_or_null(struct ph_table *t, int r, const char *col, double v, const char *fmt)
{
	num_or_null(t, r, col, v, fmt);
}

static void figures_table(const struct ph_diag *d, struct ph_doc *doc)
{
	struct ph_table *t = doc_add_table(doc, "figures", "figures");
	static const char *const cols[] = { "figure", "kind", "node", "mem_node", "value", "unit", "ci_lo",
					    "ci_hi", "lower", "upper", "samples", "page_size", "threads",
					    "cpus", "size_KiB", "method", "verified", "ci_met", "repeats",
					    "rep_lo", "rep_hi", "other_cpus", "steal_pct", "psi_cpu_pct",
					    "psi_mem_pct", "busy" };

	for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
		table_add_col(t, cols[i]);
	/*
	 * The default table: each figure, its CI, its page size, whether it
	 * was verified and taken on a busy host; the tolerance (findings
	 * apply it), the statistics and how the host was loaded are detail.
	 */
	table_detail(t, "kind lower upper samples threads cpus size_KiB method ci_met repeats rep_lo "
		     "rep_hi other_cpus steal_pct psi_cpu_pct psi_mem_pct");
	for (int i = 0; i < d->set.nfigs; i++) {
		const struct ph_hfig *f = &d->set.figs[i];
		const struct ph_diag_item *it = item_of(d, f), *ti = NULL;
		const struct ph_diag_tail *tl = tail_of(d, f, &ti);
		int k = health_kind_of(f->name), r = table_add_row(t);
		struct ph_htol tol = health_default_tol(k < 0 ? PH_HK_NKINDS : (enum ph_hkind)k);
		const char *fmt = !strcmp(f->unit, "bool") ? "%.0f" : !strcmp(f->unit, "GiB") ? "%.4f" : "%.2f";

		table_str(t, r, "figure", f->name);
		table_str(t, r, "kind", k < 0 ? "?" : health_kind_name((enum ph_hkind)k));
		table_int(t, r, "node", f->node);
		table_int(t, r, "mem_node", f->mem_node);
		table_num(t, r, "value", f->value, fmt);
		table_str(t, r, "unit", f->unit);
		num_or_null(t, r, "ci_lo", f->ci_lo, fmt);
		num_or_null(t, r, "ci_hi", f->ci_hi, fmt);
		num_or_null(t, r, "lower", tol.lower, "%g");
		num_or_null(t, r, "upper", tol.upper, "%g");
		if (tl) {
			/* A tail: its runs, and the figure's memory and CPUs. */
			char m[48];

			snprintf(m, sizeof(m), "p%g of %u-hop runs", tl->pct, ti->hops);
			table_int(t, r, "samples", (long long)ti->runs);
			table_str(t, r, "page_size", ti->page_size);
			table_int(t, r, "threads", ti->threads);
			table_str(t, r, "cpus", ti->cpus);
			table_int(t, r, "size_KiB", (long long)(ti->size / KiB));
			table_str(t, r, "method", m);
			table_bool(t, r, "verified", ti->verified);
			table_bool(t, r, "ci_met", true);
			table_int(t, r, "repeats", ti->repeats > 1 ? ti->repeats : 1);
			num_or_null(t, r, "rep_lo", ti->repeats > 1 ? tl->rep_lo : tl->value, fmt);
			num_or_null(t, r, "rep_hi", ti->repeats > 1 ? tl->rep_hi : tl->value, fmt);
			continue;
		}
		if (!it) {
			/* An exact figure (a count, a size): nothing to miss. */
			table_bool(t, r, "ci_met", true);
			continue;
		}
		table_int(t, r, "samples", (long long)it->samples);
		table_str(t, r, "page_size", it->page_size);
		table_int(t, r, "threads", it->threads);
		table_str(t, r, "cpus", it->cpus);
		table_int(t, r, "size_KiB", (long long)(it->size / KiB));
		table_str(t, r, "method", it->method);
		table_bool(t, r, "verified", it->verified);
		table_bool(t, r, "ci_met", it->ci_met);
		table_int(t, r, "repeats", it->repeats > 1 ? it->repeats : 1);
		num_or_null(t, r, "rep_lo", it->repeats > 1 ? it->rep_lo : it->value, fmt);
		num_or_null(t, r, "rep_hi", it->repeats > 1 ? it->rep_hi : it->value, fmt);
		if (it->load.ok) {
			char why[128];

			table_num(t, r, "other_cpus", it->load.other_cpus, "%.2f");
			table_num(t, r, "steal_pct", it->load.steal * 100, "%.1f");
			num_or_null(t, r, "psi_cpu_pct", it->load.psi_cpu_ok ? it->load.psi_cpu * 100 : NAN, "%.1f");
			num_or_null(t, r, "psi_mem_pct", it->load.psi_mem_ok ? it->load.psi_mem * 100 : NAN, "%.1f");
			table_bool(t, r, "busy", busy_explains(&it->load, why, sizeof(why)));
		}
	}
}

static void findings_table(const struct ph_hfindings *f, struct ph_doc *doc)
{
	static const char *const basis[] = { "", "baseline", "siblings", "setting", "rule", "not measured" };
	struct ph_table *t = doc_add_table(doc, "findings", "findings");
	static const char *const cols[] = { "status", "figure", "node", "mem_node", "value", "unit",
					    "ref", "lower", "upper", "limit_lo", "limit_hi", "dev_pct",
					    "basis", "why" };

	for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
		table_add_col(t, cols[i]);
	/* why says the reference and the limit in words. */
	table_detail(t, "mem_node ref lower upper limit_lo limit_hi");
	for (int i = 0; i < f->n; i++) {
		const struct ph_hfinding *x = &f->v[i];
		int r = table_add_row(t);

		table_str(t, r, "status", hstatus_name(x->st));
		table_str(t, r, "figure", x->fig.name);
		if (x->fig.node >= 0) {
			table_int(t, r, "node", x->fig.node);
			table_int(t, r, "mem_node", x->fig.mem_node);
			num_or_null(t, r, "value", x->fig.value, "%.4g");
			table_str(t, r, "unit", x->fig.unit);
		}
		num_or_null(t, r, "ref", x->ref, "%.4g");
		num_or_null(t, r, "lower", x->tol.lower, "%g");
		num_or_null(t, r, "upper", x->tol.upper, "%g");
		num_or_null(t, r, "limit_lo", x->limit_lo, "%.4g");
		num_or_null(t, r, "limit_hi", x->limit_hi, "%.4g");
		num_or_null(t, r, "dev_pct", x->dev * 100, "%.1f");
		table_str(t, r, "basis", basis[x->basis <= PH_HB_UNMEASURED ? x->basis : 0]);
		table_str(t, r, "why", x->why);
	}
}

struct ph_doc *diag_doc(const struct ph_diag *d, struct ph_session *s, const char *command,
			const struct ph_hfindings *findings, enum ph_hstatus status,
			const char *line, const char *basis)
{
	struct ph_doc *doc = doc_new(command);
	struct ph_section *sec;
	struct ph_table *t;
	char why[128], procs[160];

	busy_procs_phrase(d->top, d->ntop < 3 ? d->ntop : 3, procs, sizeof(procs));

	if (findings) {
		sec = doc_add_section(doc, "verdict", "verdict");
		section_str(sec, "status", hstatus_name(status));
		section_int(sec, "exit_code", status);
		char perf[3072];

		section_str(sec, "line", line);
		health_perfdata(findings, perf, sizeof(perf));
		section_str(sec, "perfdata", perf);
		section_str(sec, "against", basis);
		section_num(sec, "budget_s", d->budget_s, "%g");
		section_num(sec, "elapsed_s", now_mono_raw() - d->t0, "%.2f");
	}
	sec = doc_add_section(doc, "identity", "identity");
	section_str(sec, "model_key", d->set.model);
	section_str(sec, "cpu", s->m.cpu.brand);
	section_int(sec, "sockets", s->m.cpu.packages);
	section_int(sec, "nodes", s->m.topo.nnodes);
	section_int(sec, "cores", s->m.cpu.cores);
	section_int(sec, "threads_per_core", s->m.cpu.threads_per_core);
	sec = doc_add_section(doc, "settings", "settings");
	for (int i = 0; i < d->set.nsettings; i++)
		section_str(sec, d->set.settings[i].key, d->set.settings[i].val);
	t = doc_add_table(doc, "nodes", "nodes");
	table_add_col(t, "node");
	table_add_col(t, "ncpus");
	table_add_col(t, "cpus");
	table_add_col(t, "mem_GiB");
	table_add_col(t, "hugepages_2m_total");
	table_add_col(t, "hugepages_2m_free");
	table_add_col(t, "hugepages_1g_total");
	table_add_col(t, "hugepages_1g_free");
	for (int i = 0; i < s->m.topo.nnodes; i++) {
		const struct ph_node *n = &s->m.topo.nodes[i];
		int r = table_add_row(t);

		table_int(t, r, "node", n->id);
		table_int(t, r, "ncpus", n->ncpus);
		table_str(t, r, "cpus", n->cpulist);
		table_num(t, r, "mem_GiB", (double)n->mem_total / (double)GiB, "%.4f");
		table_int(t, r, "hugepages_2m_total", n->hp_2m.total);
		table_int(t, r, "hugepages_2m_free", n->hp_2m.free);
		table_int(t, r, "hugepages_1g_total", n->hp_1g.total);
		table_int(t, r, "hugepages_1g_free", n->hp_1g.free);
	}
	figures_table(d, doc);
	tails_table(d, doc);
	hist_table(d, doc);
	if (findings)
		findings_table(findings, doc);
	for (int i = 0; i < d->nitems; i++)
		if (d->items[i].skipped[0])
			doc_note(doc, "node %d->%d %s: %s", d->items[i].node, d->items[i].mem_node,
				 d->items[i].name, d->items[i].skipped);
	for (int i = 0, missed = 0; i < d->nitems; i++) {
		missed += d->items[i].measured && !d->items[i].ci_met;
		if (i == d->nitems - 1 && missed)
			doc_note(doc, "%d figure%s did not reach the CI target (ci_met false in figures)", missed,
				 missed == 1 ? "" : "s");
	}
	if (busy_explains(&d->load, why, sizeof(why)))
		doc_note(doc, "the host was busy while measuring: %s%s%s", why, d->ntop ? "; busiest: " : "", procs);
	if (d->repeats > 1)
		doc_note(doc, "each measured figure was measured %d times, each on memory and threads of its own; rep_lo and rep_hi are the lowest and highest median, and check's band takes the wider of them and the CI",
			 d->repeats);
	doc_note(doc, "figures: median of blocks over %.2f s (latency) or %.2f s (bandwidth) after a warm-up, with the 95%% CI of the median; latency: random pointer chase over %llu MiB, one thread; bandwidth: STREAM over 32 MiB per CPU of the node, one thread per core",
		 d->time_s, d->check ? 2 * d->time_s : d->time_s, (unsigned long long)(d->lat_size / MiB));
	return doc;
}

void diag_free(struct ph_diag *d)
{
	for (int i = 0; i < d->nitems; i++)
		free(d->items[i].hist);
	free(d->items);
	hset_free(&d->set);
	d->items = NULL;
	d->nitems = 0;
}
