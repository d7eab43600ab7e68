// SPDX-License-Identifier: GPL-2.0-only
/*
 * runner.c - pinned threads, barriers, and the repeat-until-precise loop.
 */
#include "runner.h"
#include "phases.h"
#include "clock.h"
#include "pools.h"
#include "progress.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

volatile sig_atomic_t ph_interrupted;

/* The signals that ask a run to stop; worker threads block them. */
static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

static void on_stop_signal(int sig)
{
	/*
	 * The second signal: whoever sent it does not want to wait for the
	 * first to be acted on.  Put the pools back (async-signal-safe) and go.
	 */
	if (ph_interrupted) {
		pools_restore_now();
		_exit(PH_EXIT_INTERRUPTED);
	}
	ph_interrupted = sig;
	progress_signal();
}

void runner_catch_sigint(void)
{
	struct sigaction sa = { .sa_handler = on_stop_signal }, old;

	/*
	 * No SA_RESTART: a blocking call (a wait for the --reserve lock, a
	 * hugetlb pool growing) returns EINTR and its caller sees the flag.
	 */
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < ARRAY_SIZE(stop_signals); i++) {
		int sig = stop_signals[i];

		/* nohup leaves SIGHUP ignored so that a hangup does not end the
		 * run: respect that.  (A shell's background job has SIGINT and
		 * SIGQUIT ignored; those are caught anyway, so kill -INT works.) */
		if (sig == SIGHUP && !sigaction(sig, NULL, &old) &&
		    old.sa_handler == SIG_IGN)
			continue;
		sigaction(sig, &sa, NULL);
	}
	/* The other signals that end a process: they put the pools back first. */
	pools_catch_fatal();
}

const char *runner_signal_name(int sig)
{
	static char buf[16];
	const char *abbrev = sigabbrev_np(sig);

	if (!abbrev)
		return "a signal";
	snprintf(buf, sizeof(buf), "SIG%s", abbrev);
	return buf;
}

struct worker {
	struct ph_team *team;
	pthread_t th;
	int tid;
	int cpu;
	int pin_err;
};

struct ph_team {
	int n;
	struct worker *w;
	pthread_barrier_t start, done;
	/* the current job */
	team_work_fn fn;
	void *ctx;
	const struct ph_clock *clk;
	uint64_t *ticks;
	uint64_t *t0, *t1;	/* each thread's start and end, last run */
	int arrived;		/* threads at the start line of this run */
	bool stop;
};

static int pin_self(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return -errno;
	/* The affinity takes effect at the next scheduling point. */
	sched_yield();
	return sched_getcpu() == cpu ? 0 : -EAGAIN;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct ph_team *t = w->team;

	w->pin_err = pin_self(w->cpu);
	pthread_barrier_wait(&t->done);	/* report pinning to team_start */
	for (;;) {
		uint64_t t0, t1;

		pthread_barrier_wait(&t->start);
		if (t->stop)
			break;
		/*
		 * The barrier wakes its sleepers one by one, and a vCPU woken from
		 * idle can take milliseconds to run: without more, one thread could
		 * start a block while another still sleeps, and the run's span would
		 * count the wait.  Every thread is pinned to a CPU of its own, so
		 * each can spin here until all are awake, and all start within a
		 * cache-line transfer of each other.
		 */
		__atomic_add_fetch(&t->arrived, 1, __ATOMIC_ACQ_REL);
		while (__atomic_load_n(&t->arrived, __ATOMIC_ACQUIRE) < t->n)
			__builtin_ia32_pause();
		t0 = clock_begin(t->clk);
		t->fn(t->ctx, w->tid);
		t1 = clock_end(t->clk);
		t->ticks[w->tid] = t1 - t0;
		t->t0[w->tid] = t0;
		t->t1[w->tid] = t1;
		pthread_barrier_wait(&t->done);
	}
	return NULL;
}

struct ph_team *team_start(const int *cpus, int n, char *why, size_t whylen)
{
	struct ph_team *t = xcalloc(1, sizeof(*t));
	sigset_t stop, old;
	int started = 0;

	t->n = n;
	t->w = xcalloc((size_t)n, sizeof(*t->w));
	t->t0 = xcalloc((size_t)n, sizeof(uint64_t));
	t->t1 = xcalloc((size_t)n, sizeof(uint64_t));
	pthread_barrier_init(&t->start, NULL, (unsigned)n + 1);
	pthread_barrier_init(&t->done, NULL, (unsigned)n + 1);
	/*
	 * The workers start with the stop signals blocked, so that those always
	 * reach the main thread: the one that checks the flag between blocks
	 * and owns the memory and the pools.
	 */
	sigemptyset(&stop);
	for (size_t i = 0; i < ARRAY_SIZE(stop_signals); i++)
		sigaddset(&stop, stop_signals[i]);
	pthread_sigmask(SIG_BLOCK, &stop, &old);
	for (int i = 0; i < n; i++) {
		t->w[i] = (struct worker){ .team = t, .tid = i, .cpu = cpus[i] };
		if (pthread_create(&t->w[i].th, NULL, worker_main, &t->w[i])) {
			snprintf(why, whylen, "cannot start thread %d", i);
			break;
		}
		started++;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (started < n) {
		/* The barrier needs everyone; without them, give up hard. */
		ph_err("%s", why);
		exit(PH_EXIT_FAIL);
	}
	pthread_barrier_wait(&t->done);
	for (int i = 0; i < n; i++) {
		if (t->w[i].pin_err) {
			snprintf(why, whylen, "cannot pin thread %d to CPU %d: %s", i, cpus[i],
				 t->w[i].pin_err == -EAGAIN ? "it runs elsewhere after sched_setaffinity" :
				 strerror(-t->w[i].pin_err));
			team_stop(t);
			return NULL;
		}
	}
	return t;
}

void team_run(struct ph_team *t, team_work_fn fn, void *ctx,
	      const struct ph_clock *clk, uint64_t *ticks)
{
	t->fn = fn;
	t->ctx = ctx;
	t->clk = clk;
	t->ticks = ticks;
	__atomic_store_n(&t->arrived, 0, __ATOMIC_RELEASE);
	pthread_barrier_wait(&t->start);
	pthread_barrier_wait(&t->done);
}

void team_stop(struct ph_team *t)
{
	if (!t)
		return;
	t->stop = true;
	pthread_barrier_wait(&t->start);
	for (int i = 0; i < t->n; i++)
		pthread_join(t->w[i].th, NULL);
	pthread_barrier_destroy(&t->start);
	pthread_barrier_destroy(&t->done);
	free(t->w);
	free(t->t0);
	free(t->t1);
	free(t);
}

uint64_t team_span(const struct ph_team *t)
{
	uint64_t first = UINT64_MAX, last = 0;

	for (int i = 0; i < t->n; i++) {
		first = t->t0[i] < first ? t->t0[i] : first;
		last = t->t1[i] > last ? t->t1[i] : last;
	}
	return last > first ? last - first : 0;
}

int team_first_error(const int *err, int n)
{
	for (int i = 0; i < n; i++)
		if (err[i] == -EINTR)
			return -EINTR;
	for (int i = 0; i < n; i++)
		if (err[i])
			return err[i];
	return 0;
}

int team_size(const struct ph_team *t)
{
	return t->n;
}

static void progress(const struct ph_mcfg *cfg, const struct ph_result *r)
{
	progress_detail("%s: %zu samples, CI +/-%.2f%% (target %.2f%%), %.1f of %.1f s",
			cfg->label ? cfg->label : "measuring", r->n,
			r->st.ci_rel < 1e9 ? r->st.ci_rel * 100 : 0.0, cfg->ci_target * 100,
			r->elapsed_s, cfg->time_s);
}

int measure_figure(const struct ph_mcfg *cfg, sample_fn fn, void *ctx,
		   struct ph_result *res)
{
	size_t cap = 256;
	double t0 = now_mono_raw(), last_progress = 0;
	int err = 0;

	memset(res, 0, sizeof(*res));
	res->samples = xmalloc(cap * sizeof(double));
	res->st.ci_rel = 1e300;
	while (!ph_interrupted) {
		double s;

		err = fn(ctx, &s);
		if (err)
			break;
		if (res->n == cap) {
			cap *= 2;
			res->samples = xrealloc(res->samples, cap * sizeof(double));
		}
		res->samples[res->n++] = s;
		res->elapsed_s = now_mono_raw() - t0;
		if (res->n >= cfg->min_samples && res->n >= STATS_MIN_CI_SAMPLES) {
			stats_compute(res->samples, res->n, &res->st);
			if (res->st.ci_rel <= cfg->ci_target) {
				res->ci_met = true;
				break;
			}
		}
		if (res->elapsed_s - last_progress > 0.25) {
			progress(cfg, res);
			last_progress = res->elapsed_s;
		}
		if ((res->elapsed_s >= cfg->time_s && (!cfg->min_over_time || res->n >= cfg->min_samples)) ||
		    res->n >= cfg->max_samples)
			break;
	}
	phase_add(PH_PHASE_MEASURE, now_mono_raw() - t0);
	progress_detail("%s", "");	/* the figure is done: the step alone */
	res->interrupted = ph_interrupted;
	stats_compute(res->samples, res->n, &res->st);
	res->ci_met = res->n >= STATS_MIN_CI_SAMPLES && res->st.ci_rel <= cfg->ci_target;
	return err;
}

void result_free(struct ph_result *res)
{
	free(res->samples);
	res->samples = NULL;
}

uint64_t calibrate_block(block_time_fn fn, void *ctx, uint64_t units, uint64_t multiple,
			 double target_s)
{
	multiple = multiple ? multiple : 1;
	for (int i = 0; i < 20 && !ph_interrupted; i++) {
		double sec = INFINITY;

		for (int t = 0; t < CALIBRATE_TRIES; t++) {
			double s = fn(ctx, units) * 1e-9;

			sec = s < sec ? s : sec;
		}

		if (sec >= target_s / 2)
			break;
		units = sec > 0 ? (uint64_t)((double)units * target_s / sec) + 1 : units * 16;
		units = units < CALIBRATE_MAX_UNITS ? units : CALIBRATE_MAX_UNITS;
		units = (units + multiple - 1) / multiple * multiple;
	}
	return units;
}
