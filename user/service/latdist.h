/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * latdist.h - a latency distribution on chains already built, checked and
 * warm: many short timed runs of N dependent hops (kernels/chase_timed.c;
 * c2c's runs of N one-way hand-offs, kernels/contend.c), the timer's own
 * cost measured by the same loop with no hops, interleaved, and
 * subtracted.  A sample is the mean time per hop over one run of N hops:
 * a distribution of N-hop means, never of single loads.  The runs come in
 * batches, one after each block of the plain figure, so that both figures
 * are measured over the same stretch of time.
 */
#ifndef PAGEHOP_LATDIST_H
#define PAGEHOP_LATDIST_H

#include "clock.h"
#include "hostload.h"
#include "dist.h"
#include "runner.h"
#include "stats.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Hops per timed run: the smallest power of two from LATDIST_MIN_HOPS up
 * whose run lasts LATDIST_RESOLUTIONS times the clock's resolution, so
 * that the clock's step is at most 1% of a run (the TSC steps in 10 ns on
 * some virtual machines: 64 in-cache hops of 4 ns would be 4 steps).
 * Chosen by measurement (docs/methodology.md, "Latency distributions"):
 * at 1 GiB, 64 hops (a run of about 20 us) gave the plain figure's median
 * within its CI on a quiet moment, as 256 and 1024 did, with the most runs.
 */
#define LATDIST_MIN_HOPS 64
#define LATDIST_RESOLUTIONS 100

/*
 * The plain figure's 5 ms blocks take in every preemption and interrupt in
 * them; the runs' median does not, only their tail.  Their agreement is
 * a claim for a host where other tasks used less than this (CPUs' worth):
 * busy.h's 0.25 lets one other task preempt the measuring CPU for a
 * tenth of its time, enough to part them by a few percent at 1 GiB.
 */
#define LATDIST_QUIET_CPUS 0.05

/* What the command asks: the distribution, its percentiles, a histogram. */
struct ph_distreq {
	bool want;
	double pcts[DIST_MAX_PCTS];
	int npcts;
	bool histogram;
};

struct ph_latdist {
	bool measured;
	char why[256];		/* why not, when not measured */
	unsigned hops;		/* per run and chain */
	unsigned chains;
	size_t n;		/* runs, every thread's */
	double *samples;	/* ns per load of each run, timer cost subtracted; ascending */
	unsigned *batch_of;	/* samples[i]'s batch, 0..nbatches-1 */
	unsigned nbatches;
	struct ph_stats st;	/* of samples: median, its 95% CI widened by the batches' (latdist_ci) */
	size_t ntimer;		/* empty runs */
	double timer_ns;	/* their trimmed mean: what is subtracted from every run */
	double timer_lo_ns, timer_hi_ns;	/* their 5th and 95th percentiles */
	bool load_read;		/* the host's load over the figure was read */
	bool host_quiet;	/* busy.h's rule passed, and other tasks used under LATDIST_QUIET_CPUS */
	double other_cpus;	/* other tasks' CPU time over the figure, CPUs' worth */
	char busy_why[160];	/* what did, when not quiet */
	/* while measuring */
	int nthreads;
	size_t per_batch, done, cap;	/* runs per thread */
	uint64_t **runs, **empty;	/* per thread, TSC cycles */
	uint64_t *team_ticks;	/* per team thread, the team's size (not only the timed) */
	size_t *batch_at;	/* each batch's first run */
	size_t batch_cap;
};

/*
 * Get d ready for batches timed on nthreads threads, each a tenth of
 * block_hops hops per chain (at least one run): the plain figure's block,
 * which lasted about block_ns (for the hops per run).  A sample is a run's
 * time, less the timer's, over hops x chains.  Needs the TSC
 * (clk->use_tsc); otherwise d says why not, and the batches do nothing.
 */
void latdist_begin(struct ph_latdist *d, const struct ph_clock *clk, int nthreads,
		   unsigned chains, uint64_t block_hops, double block_ns);
/*
 * A study's timed loop on thread tid: nruns runs of hops hops each, one
 * after the other, run i's TSC cycles into ticks[i] (read as tsc.h reads
 * them); with hops 0, the brackets alone, measured by the same loop.
 * Threads from d->nthreads on are not timed (ticks NULL): they take part
 * in the hops (c2c's other side of the hand-off).
 */
typedef void (*latdist_run_fn)(void *ctx, int tid, uint64_t hops, uint64_t *ticks,
			       size_t nruns);
/*
 * One batch on every thread of team at once: per_batch empty runs of fn,
 * then as many runs of d->hops hops, each batch after one empty run not
 * kept.  Nothing once the arrays are full.
 */
void latdist_batch_of(struct ph_latdist *d, struct ph_team *team, const struct ph_clock *clk,
		      latdist_run_fn fn, void *ctx);
/* The same with the chase's loop (heads: per thread, CHASE_MAX_CHAINS slots, the first chains used). */
void latdist_batch(struct ph_latdist *d, struct ph_team *team, const struct ph_clock *clk,
		   void **heads);
/*
 * The samples and their statistics from the batches taken; the raw arrays
 * freed.  before is the host's load read at latdist_begin's time: whether
 * the host was quiet over the figure and its distribution.
 */
void latdist_end(struct ph_latdist *d, const struct ph_clock *clk,
		 const struct ph_loadsnap *before);
void latdist_free(struct ph_latdist *d);
/*
 * The p-th percentile's 95% CI of a measured distribution: the ranks' CI
 * (dist_percentile_ci: enough runs beyond it), widened to hold the cluster
 * bootstrap's over the batches (dist_cluster_ci: a batch's runs are taken
 * together and alike, so the batches, not the runs, are the independent
 * draws).  0, or -ERANGE with both NAN and why (too few runs beyond it,
 * or too few batches) into buf.
 */
int latdist_ci(const struct ph_latdist *d, double p, double *lo, double *hi, char *why,
	       size_t whysize);

#endif
