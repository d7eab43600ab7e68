/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * runner.h - pinned worker threads that start each timed block together at
 * a barrier and time themselves, and the loop that repeats blocks until the
 * median's confidence interval is tight enough or the time is up.
 */
#ifndef PAGEHOP_RUNNER_H
#define PAGEHOP_RUNNER_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stats.h"

struct ph_clock;
struct ph_team;

/*
 * The signal that asked the run to stop, 0 while none has.  Every loop that
 * can last long checks it (the measured loops take a pointer to it) and
 * winds down: what was measured is printed, the memory freed, the hugetlb
 * pools put back, and the command exits 130.
 */
extern volatile sig_atomic_t ph_interrupted;
/*
 * Catch SIGINT, SIGTERM, SIGQUIT, and SIGHUP unless it is ignored (as nohup
 * leaves it): the first of them sets ph_interrupted; a second one ends the
 * process at once, after putting the hugetlb pools back.  Every other
 * signal that ends a process puts the pools back before it does
 * (pools_catch_fatal).  The name is older than the other signals.  Safe to
 * call more than once.
 */
void runner_catch_sigint(void);
/* "SIGTERM" for ph_interrupted's value. */
const char *runner_signal_name(int sig);

/* One block of work for thread tid; ctx is the caller's. */
typedef void (*team_work_fn)(void *ctx, int tid);

/*
 * Start n threads, thread i pinned to cpus[i] (checked with sched_getcpu()).
 * NULL with why filled on failure.
 */
struct ph_team *team_start(const int *cpus, int n, char *why, size_t whylen);
/* Run fn on every thread at once; ticks[i] = thread i's time in clock ticks. */
void team_run(struct ph_team *t, team_work_fn fn, void *ctx,
	      const struct ph_clock *clk, uint64_t *ticks);
/*
 * Of the last run: from the first thread's start to the last thread's end,
 * in clock ticks.  The slowest thread's time when all start together (as
 * the barrier makes them), longer if one started late; so a bandwidth over
 * it cannot be inflated by threads that did not really run at once.  Needs
 * a clock that agrees across CPUs: an invariant TSC the kernel trusts (it
 * checks synchronisation), or CLOCK_MONOTONIC_RAW.
 */
uint64_t team_span(const struct ph_team *t);
void team_stop(struct ph_team *t);
int team_size(const struct ph_team *t);
/*
 * The outcome of a run whose thread i left err[i] (0 or -errno): -EINTR
 * if any thread was stopped by a signal (the run was asked to stop, and
 * says so first), else the first thread's error, else 0.
 */
int team_first_error(const int *err, int n);

/* How long to measure one figure, and when to stop early. */
struct ph_mcfg {
	double time_s;		/* budget per figure (--time) */
	double ci_target;	/* relative half-width of the median's CI (--ci / 100) */
	unsigned min_samples;	/* never judge the CI met before this many */
	unsigned max_samples;
	bool min_over_time;	/* take min_samples even past time_s: a
				 * reference (baseline) must carry a CI */
	const char *label;	/* for the progress line */
	double block_s;		/* a latency sample's block (latency.c);
				 * 0: its own, 5 ms */
};

struct ph_result {
	struct ph_stats st;
	double *samples;
	size_t n;
	bool ci_met;
	bool interrupted;
	double elapsed_s;
};

/* One timed block; stores one sample.  0 or -errno (stops the figure). */
typedef int (*sample_fn)(void *ctx, double *sample);

/*
 * Repeat fn until the 95% interval of the median is within ci_target of it
 * (with at least min_samples), time_s has passed (and, with min_over_time,
 * min_samples were taken), max_samples were taken or a signal came
 * (ph_interrupted).  Shows a progress line on stderr when stderr is a terminal.
 */
int measure_figure(const struct ph_mcfg *cfg, sample_fn fn, void *ctx,
		   struct ph_result *res);
void result_free(struct ph_result *res);

/* Run one block of `units` (round trips, acquisitions...); its time in ns. */
typedef double (*block_time_fn)(void *ctx, uint64_t units);

/* Blocks timed at each size of a calibration; the fastest one counts. */
#define CALIBRATE_TRIES 3
/* No block needs more: 2^40 units of even 1 ns is 18 minutes. */
#define CALIBRATE_MAX_UNITS (1ull << 40)

/*
 * The block size for a block of about target_s: from `units`, time
 * CALIBRATE_TRIES blocks at a size and, unless the fastest lasted at least
 * target_s / 2, scale the size by target_s over it (x16 if it read 0, at
 * most CALIBRATE_MAX_UNITS), rounded up to a multiple of `multiple`; at
 * most 20 sizes, fewer if a signal came.  The blocks are discarded.  The fastest, not one block: a
 * block can only be slowed (a partner thread descheduled, a CPU woken from
 * idle, as the team's first block after team_start often is), and judged
 * on one slowed block the calibration stopped at its first size.
 */
uint64_t calibrate_block(block_time_fn fn, void *ctx, uint64_t units, uint64_t multiple,
			 double target_s);

#endif
