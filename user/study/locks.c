// SPDX-License-Identifier: GPL-2.0-only
/*
 * locks.c - lock overhead by EPCC syncbench's subtraction.
 */
#include "locks.h"
#include "contend.h"
#include "homed.h"
#include "phases.h"
#include "locks_omp.h"
#include "progress.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <numa.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char locks_method[] =
	"EPCC syncbench: a sample is a block in which the threads together take the lock reps times (each reps/threads times: acquire, delay, count, release), timed from the first thread's start to the last one's end, and just before it one thread runs the same loop reps times with a lock that does nothing (the same calls through the same pointers to empty functions), both after an untimed block without the lock that wakes the team; overhead = with / reps - without / reps, ns per acquisition";

/*
 * A block lasts about 2 ms: thousands of acquisitions even at a
 * microsecond each under contention, 10^5 clock resolutions.
 */
#define BLOCK_SECONDS 0.002

static void tas_init(void *l)
{
	*(volatile uint32_t *)l = 0;
}

static void tas_acq(void *l)
{
	tas_acquire(l);
}

static void tas_rel(void *l)
{
	tas_release(l);
}

static void ticket_init(void *l)
{
	((volatile uint32_t *)l)[0] = 0;
	((volatile uint32_t *)l)[1] = 0;
}

static void ticket_acq(void *l)
{
	ticket_acquire(l);
}

static void ticket_rel(void *l)
{
	ticket_release(l);
}

static void mutex_init(void *l)
{
	pthread_mutex_init(l, NULL);
}

static void mutex_acq(void *l)
{
	pthread_mutex_lock(l);
}

static void mutex_rel(void *l)
{
	pthread_mutex_unlock(l);
}

static void mutex_destroy(void *l)
{
	pthread_mutex_destroy(l);
}

const struct lock_kind lock_kinds[] = {
	{ "tas", "test-and-set spinlock (xchg; spins on a load, pause)", sizeof(uint32_t), NULL,
	  tas_init, tas_acq, tas_rel, NULL },
	{ "ticket", "ticket lock (fetch-add a ticket, spin until served)", 2 * sizeof(uint32_t),
	  NULL, ticket_init, ticket_acq, ticket_rel, NULL },
	{ "mutex", "pthread_mutex_t, default attributes (futex)", sizeof(pthread_mutex_t), NULL,
	  mutex_init, mutex_acq, mutex_rel, mutex_destroy },
	{ "omp", "omp_set_lock / omp_unset_lock from libgomp", 0, locks_omp_available,
	  locks_omp_init, locks_omp_acquire, locks_omp_release, locks_omp_destroy },
};

const size_t lock_nkinds = ARRAY_SIZE(lock_kinds);

double locks_overhead_ns(double test_ns, uint64_t acquisitions, double ref_ns, uint64_t ref_reps)
{
	if (!acquisitions || !ref_reps)
		return NAN;
	return test_ns / (double)acquisitions - ref_ns / (double)ref_reps;
}

int locks_default_threads(unsigned ncpus, unsigned *out, int max)
{
	int n = 0;

	for (unsigned t = 1; t < ncpus && n < max; t *= 2)
		out[n++] = t;
	if (ncpus && n < max)
		out[n++] = ncpus;
	return n;
}

bool locks_resolved(const struct ph_stats *over)
{
	if (isfinite(over->ci_hi))
		return over->ci_hi >= 0;
	return !(over->median < 0);
}

static bool kind_available(const struct lock_kind *k)
{
	return !k->available || k->available();
}

static int plan_kinds(struct ph_locks *l, const char *arg)
{
	char *copy, *save = NULL;

	if (!arg) {
		for (size_t i = 0; i < lock_nkinds; i++)
			if (kind_available(&lock_kinds[i]))
				*(const struct lock_kind **)xappend(&l->kinds, &l->nkinds,
								    sizeof(void *)) = &lock_kinds[i];
		return 0;
	}
	copy = xstrdup(arg);
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		const struct lock_kind *k = NULL;

		for (size_t i = 0; i < lock_nkinds; i++)
			if (!strcmp(tok, lock_kinds[i].name))
				k = &lock_kinds[i];
		if (!k) {
			ph_err("--kinds: unknown lock kind '%s'; expected tas, ticket, mutex or omp", tok);
			free(copy);
			return PH_EXIT_USAGE;
		}
		if (!kind_available(k)) {
			ph_err("--kinds: %s: this build has no OpenMP runtime (libgomp)", tok);
			free(copy);
			return PH_EXIT_UNSUPPORTED;
		}
		*(const struct lock_kind **)xappend(&l->kinds, &l->nkinds, sizeof(void *)) = k;
	}
	free(copy);
	return 0;
}

static int plan_threads(struct ph_locks *l, const char *arg)
{
	char *copy, *save = NULL;

	if (!arg) {
		l->threads = xcalloc(64, sizeof(unsigned));
		l->nthreads = locks_default_threads((unsigned)l->ncpus, l->threads, 64);
		return 0;
	}
	copy = xstrdup(arg);
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		uint64_t t;

		if (parse_u64(tok, false, &t) || t < 1 || t > (uint64_t)l->ncpus) {
			ph_err("--threads: '%s' is not a thread count from 1 to %d (one thread per CPU of --cpus)",
			       tok, l->ncpus);
			free(copy);
			return PH_EXIT_USAGE;
		}
		*(unsigned *)xappend(&l->threads, &l->nthreads, sizeof(unsigned)) = (unsigned)t;
	}
	free(copy);
	return 0;
}

static int locks_plan(void *state, struct ph_session *s)
{
	struct ph_locks *l = state;
	int rc;

	if (contend_cpus(l->cpus_given, "--cpus", &l->cpus, &l->ncpus))
		return PH_EXIT_USAGE;
	if (!l->ncpus) {
		ph_err("--cpus: no CPU this process may run on");
		return PH_EXIT_USAGE;
	}
	rc = plan_threads(l, l->threads_given);
	if (!rc)
		rc = homed_node(s->opt->bind.membind, "--membind", l->cpus[0], &l->node);
	if (!rc)
		rc = plan_kinds(l, l->kinds_given);
	if (rc)
		return rc;
	s->all_verified = true;
	return homed_alloc(s, l->node, psize_bytes(s->opt->bufreq.psize), &l->seg, &l->have_seg,
			   "the lock's page");
}

/*
 * The lock at the start of the page, the count it protects on the next
 * line: the count is checked after every block (mutual exclusion held).
 */
struct lock_run {
	struct ph_session *s;
	struct ph_team *team;
	const struct lock_kind *k;
	void *lock;
	volatile uint64_t *count;
	unsigned threads, delay;
	uint64_t reps;			/* a multiple of threads */
	uint64_t *ticks;		/* per thread */
	double *with, *without;		/* per sample, ns per acquisition */
	int nwith, nwithout;
	bool lost;
};

/* The reference's "lock": calls through the same pointers that do nothing. */
static void null_lock(void *l)
{
	(void)l;
}

static void work_without(void *ctx, int tid)
{
	struct lock_run *r = ctx;
	void (*acquire)(void *) = null_lock, (*release)(void *) = null_lock;

	if (tid)
		return;
	/* Through a volatile read, so that the calls stay indirect calls. */
	acquire = *(void (*volatile *)(void *))&acquire;
	release = *(void (*volatile *)(void *))&release;
	for (uint64_t i = 0; i < r->reps; i++) {
		acquire(r->lock);
		contend_delay(r->delay);
		*r->count += 1;
		release(r->lock);
	}
}

static void work_with(void *ctx, int tid)
{
	struct lock_run *r = ctx;
	uint64_t mine = r->reps / r->threads;

	(void)tid;
	for (uint64_t i = 0; i < mine; i++) {
		r->k->acquire(r->lock);
		contend_delay(r->delay);
		*r->count += 1;
		r->k->release(r->lock);
	}
}

/*
 * One block with the lock, after one without: ns per acquisition of each.
 * Both come after an untimed block without the lock: the first block after
 * the team slept in its barrier runs slower (the CPU's clock and caches
 * come back from idle), and timed it made the loop without the lock the
 * slower one, so that one thread's overhead came out below zero.
 */
static void blocks(struct lock_run *r, double *with_ns, double *without_ns)
{
	const struct ph_clock *clk = &r->s->m.clk;

	*r->count = 0;
	team_run(r->team, work_without, r, clk, r->ticks);
	*r->count = 0;
	team_run(r->team, work_without, r, clk, r->ticks);
	*without_ns = clock_ticks_to_ns(clk, r->ticks[0]) / (double)r->reps;
	*r->count = 0;
	team_run(r->team, work_with, r, clk, r->ticks);
	*with_ns = clock_ticks_to_ns(clk, team_span(r->team)) / (double)r->reps;
	if (*r->count != r->reps)
		r->lost = true;
}

static int sample_lock(void *ctx, double *sample)
{
	struct lock_run *r = ctx;
	double with, without;

	blocks(r, &with, &without);
	*(double *)xappend(&r->with, &r->nwith, sizeof(double)) = with;
	*(double *)xappend(&r->without, &r->nwithout, sizeof(double)) = without;
	*sample = locks_overhead_ns(with * (double)r->reps, r->reps, without * (double)r->reps,
				    r->reps);
	return r->lost ? -EIO : 0;
}

/* A calibration block: the sample's blocks; the time of the one with the lock. */
static double calib_block(void *ctx, uint64_t reps)
{
	struct lock_run *r = ctx;
	double with, without;

	r->reps = reps;
	blocks(r, &with, &without);
	return with * (double)reps;
}

/* Size the block with the lock to last about BLOCK_SECONDS (discarded). */
static void calibrate(struct lock_run *r)
{
	double t0 = now_mono_raw();

	r->reps = calibrate_block(calib_block, r, r->threads * 64, r->threads, BLOCK_SECONDS);
	phase_add(PH_PHASE_WARMUP, now_mono_raw() - t0);
}

static int measure_one(struct ph_locks *l, struct ph_session *s, struct ph_lockfig *f)
{
	struct lock_run r = { .s = s, .k = f->k, .threads = f->threads, .delay = l->delay };
	struct ph_mcfg cfg = s->meas;
	char why[256], label[64];

	r.lock = l->seg.addr;
	r.count = (volatile uint64_t *)((char *)l->seg.addr + 64 * ((f->k->size ? f->k->size :
								       locks_omp_size()) / 64 + 1));
	memset(l->seg.addr, 0, 512);
	f->k->init(r.lock);
	r.ticks = xcalloc(f->threads, sizeof(uint64_t));
	r.team = team_start(l->cpus, (int)f->threads, why, sizeof(why));
	if (!r.team) {
		ph_err("%s, %u threads: %s", f->k->name, f->threads, why);
		free(r.ticks);
		return PH_EXIT_FAIL;
	}
	calibrate(&r);
	free(r.with);
	free(r.without);
	r.with = r.without = NULL;
	r.nwith = r.nwithout = 0;
	snprintf(label, sizeof(label), "locks %s x%u", f->k->name, f->threads);
	cfg.label = label;
	measure_figure(&cfg, sample_lock, &r, &f->over);
	team_stop(r.team);
	if (f->k->destroy)
		f->k->destroy(r.lock);
	f->reps = r.reps;
	f->lost = r.lost;
	stats_compute(r.with, (size_t)r.nwith, &f->with);
	stats_compute(r.without, (size_t)r.nwithout, &f->without);
	free(r.with);
	free(r.without);
	free(r.ticks);
	if (r.lost) {
		ph_err("%s, %u threads: the count the lock protects came out wrong: it did not exclude",
		       f->k->name, f->threads);
		return PH_EXIT_FAIL;
	}
	return 0;
}

static int locks_measure(void *state, struct ph_session *s)
{
	struct ph_locks *l = state;
	int rc = 0;

	l->figs = xcalloc((size_t)l->nkinds * (size_t)l->nthreads, sizeof(*l->figs));
	progress_begin(l->nkinds * l->nthreads, "locks");
	for (int k = 0; k < l->nkinds && !rc && !ph_interrupted; k++)
		for (int t = 0; t < l->nthreads && !rc && !ph_interrupted; t++) {
			struct ph_lockfig *f = &l->figs[l->nfigs];

			f->k = l->kinds[k];
			f->threads = l->threads[t];
			progress_step("%s, %u thread%s", f->k->name, f->threads, f->threads == 1 ? "" : "s");
			rc = measure_one(l, s, f);
			if (f->over.n)
				l->nfigs++;
			else
				result_free(&f->over);
		}
	if (!homed_still_verified(s, &l->seg, "the lock's page"))
		rc = rc ? rc : PH_EXIT_FAIL;
	return rc;
}

static bool locks_measured(const void *state)
{
	return ((const struct ph_locks *)state)->nfigs > 0;
}

static struct ph_doc *locks_doc(void *state, struct ph_session *s, int *rc)
{
	const struct ph_locks *l = state;
	struct ph_doc *doc = doc_new("locks");
	struct ph_table *t = doc_add_table(doc, "locks", "lock overhead per acquire + release");
	static const char *const cols[] = {
		"kind", "threads", "cpus", "lock_node", "overhead_ns", "ci_lo_ns", "ci_hi_ns",
		"ci_pct", "ci_met", "samples", "with_lock_ns", "without_lock_ns", "delay",
		"acquisitions", "verified", "resolved", "note",
	};
	struct ph_section *sec;
	int unresolved = 0;

	for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
		table_add_col(t, cols[i]);
	/* The statistics and the two figures the overhead is the difference of. */
	table_detail(t, "ci_pct ci_met samples with_lock_ns without_lock_ns delay acquisitions");
	for (int i = 0; i < l->nfigs; i++) {
		const struct ph_lockfig *f = &l->figs[i];
		char cpus[256] = "";
		size_t len = 0;
		int r = table_add_row(t);

		for (unsigned c = 0; c < f->threads && len < sizeof(cpus); c++)
			len += (size_t)snprintf(cpus + len, sizeof(cpus) - len, "%s%d", c ? "," : "",
						l->cpus[c]);
		table_str(t, r, "kind", f->k->name);
		table_int(t, r, "threads", f->threads);
		table_str(t, r, "cpus", cpus);
		table_int(t, r, "lock_node", l->node);
		table_num(t, r, "overhead_ns", f->over.st.median, "%.2f");
		table_num(t, r, "ci_lo_ns", f->over.st.ci_lo, "%.2f");
		table_num(t, r, "ci_hi_ns", f->over.st.ci_hi, "%.2f");
		table_num(t, r, "ci_pct", f->over.st.ci_rel * 100, "%.2f");
		table_bool(t, r, "ci_met", f->over.ci_met);
		table_int(t, r, "samples", (long long)f->over.n);
		table_num(t, r, "with_lock_ns", f->with.median, "%.2f");
		table_num(t, r, "without_lock_ns", f->without.median, "%.2f");
		table_int(t, r, "delay", l->delay);
		table_int(t, r, "acquisitions", (long long)f->reps);
		table_bool(t, r, "verified", s->all_verified);
		table_bool(t, r, "resolved", locks_resolved(&f->over.st));
		if (!locks_resolved(&f->over.st)) {
			/* resolved says "no" beside it. */
			table_str_brief(t, r, "note", LOCKS_BELOW_REF, "below the reference");
			unresolved++;
		}
	}
	if (unresolved)
		doc_note(doc, "%d of %d rows %s: the loop without the lock ran slower than the loop with it, so the subtraction does not give the lock's cost (docs/methodology.md, \"Lock overhead\"); measure again, on CPUs nothing else runs on",
			 unresolved, l->nfigs, LOCKS_BELOW_REF);
	session_describe(s, doc);
	sec = doc_add_section(doc, "locks_method", "locks");
	section_str(sec, "sample", locks_method);
	for (int k = 0; k < l->nkinds; k++)
		section_str(sec, l->kinds[k]->name, l->kinds[k]->desc);
	homed_section(doc, "lock_memory", "the lock's page, as read back", &l->seg, l->have_seg,
		      l->node);
	(void)rc;
	return doc;
}

static void locks_free(void *state, struct ph_session *s)
{
	struct ph_locks *l = state;

	for (int i = 0; i < l->nfigs; i++)
		result_free(&l->figs[i].over);
	if (l->have_seg)
		segment_free(&s->m.km, &l->seg);
	free(l->figs);
	free(l->kinds);
	free(l->threads);
	free(l->cpus);
	if (l->cpus_given)
		numa_bitmask_free(l->cpus_given);
	memset(l, 0, sizeof(*l));
}

const struct ph_steps locks_steps = {
	.size = sizeof(struct ph_locks),
	.plan = locks_plan,
	.measure = locks_measure,
	.measured = locks_measured,
	.document = locks_doc,
	.free = locks_free,
};
