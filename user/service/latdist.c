// SPDX-License-Identifier: GPL-2.0-only
/*
 * latdist.c - a latency distribution: timed runs of N hops, the timer's
 * cost measured alike and subtracted.
 */
#include "latdist.h"
#include "busy.h"
#include "chase.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A bounded array: 2 x 2 MiB per thread, and p99.9 still 260 runs from the top. */
#define MAX_RUNS_PER_THREAD 262144

struct dist_work {
	latdist_run_fn fn;
	void *ctx;
	int nthreads;		/* timed */
	uint64_t hops;		/* the runs', or 0 for the empty runs */
	uint64_t **ticks;
	size_t at, count;
};

static void work_timed(void *ctx, int tid)
{
	struct dist_work *w = ctx;
	bool timed = tid < w->nthreads;
	uint64_t discard;

	/*
	 * One empty run first, not kept: the batch starts on a thread just
	 * woken, and its first run would pay for the code, the heads and
	 * the array coming back into cache and TLB (with one run a batch, the
	 * empty runs measured 180 ns at 1 GiB instead of 27).
	 */
	w->fn(w->ctx, tid, 0, timed ? &discard : NULL, 1);
	w->fn(w->ctx, tid, w->hops, timed ? w->ticks[tid] + w->at : NULL, w->count);
}

struct chase_ctx {
	void **heads;
	unsigned chains;
};

static void chase_runs(void *ctx, int tid, uint64_t hops, uint64_t *ticks, size_t nruns)
{
	struct chase_ctx *c = ctx;

	chase_walk_timed(&c->heads[tid * CHASE_MAX_CHAINS], c->chains, hops, ticks, nruns);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

void latdist_begin(struct ph_latdist *d, const struct ph_clock *clk, int nthreads,
		   unsigned chains, uint64_t block_hops, double block_ns)
{
	double hop_ns = block_hops ? block_ns / (double)block_hops : 0;

	memset(d, 0, sizeof(*d));
	d->hops = LATDIST_MIN_HOPS;
	while (d->hops < (1u << 24) && (double)d->hops * hop_ns < LATDIST_RESOLUTIONS * clk->resolution_ns)
		d->hops *= 2;
	d->chains = chains;
	if (!clk->use_tsc || !(clk->tsc_hz > 0)) {
		snprintf(d->why, sizeof(d->why), "the runs are timed with the TSC, not usable here: %s",
			 clk->why[0] ? clk->why : "its frequency is unknown");
		return;
	}
	d->nthreads = nthreads;
	d->per_batch = block_hops / (10 * (uint64_t)d->hops);
	if (!d->per_batch)
		d->per_batch = 1;
	d->cap = MAX_RUNS_PER_THREAD;
	d->runs = xcalloc((size_t)nthreads, sizeof(*d->runs));
	d->empty = xcalloc((size_t)nthreads, sizeof(*d->empty));
	for (int i = 0; i < nthreads; i++) {
		d->runs[i] = xcalloc(d->cap, sizeof(uint64_t));
		d->empty[i] = xcalloc(d->cap, sizeof(uint64_t));
	}
}

void latdist_batch_of(struct ph_latdist *d, struct ph_team *team, const struct ph_clock *clk,
		      latdist_run_fn fn, void *ctx)
{
	struct dist_work w = { .fn = fn, .ctx = ctx, .nthreads = d->nthreads, .at = d->done };

	if (!d->runs || d->done >= d->cap)
		return;
	if (!d->team_ticks)
		d->team_ticks = xcalloc((size_t)team_size(team), sizeof(*d->team_ticks));
	w.count = d->cap - d->done < d->per_batch ? d->cap - d->done : d->per_batch;
	w.hops = 0;
	w.ticks = d->empty;
	team_run(team, work_timed, &w, clk, d->team_ticks);
	w.hops = d->hops;
	w.ticks = d->runs;
	team_run(team, work_timed, &w, clk, d->team_ticks);
	if (d->nbatches == d->batch_cap) {
		d->batch_cap = d->batch_cap ? 2 * d->batch_cap : 64;
		d->batch_at = xrealloc(d->batch_at, d->batch_cap * sizeof(*d->batch_at));
	}
	d->batch_at[d->nbatches++] = d->done;
	d->done += w.count;
}

void latdist_batch(struct ph_latdist *d, struct ph_team *team, const struct ph_clock *clk,
		   void **heads)
{
	struct chase_ctx c = { heads, d->chains };

	latdist_batch_of(d, team, clk, chase_runs, &c);
}

static void free_raw(struct ph_latdist *d)
{
	for (int i = 0; d->runs && i < d->nthreads; i++) {
		free(d->runs[i]);
		free(d->empty[i]);
	}
	free(d->runs);
	free(d->empty);
	free(d->team_ticks);
	free(d->batch_at);
	d->runs = d->empty = NULL;
	d->team_ticks = NULL;
	d->batch_at = NULL;
}

/*
 * The mean of the samples between the 5th and 95th percentiles: the TSC
 * may step in several cycles (10 ns on some virtual machines), so the
 * median would round the timer's cost to a step, while the mean of the
 * steps seen does not; the trim keeps an interrupt out of it.
 */
static double trimmed_mean(const double *sorted, size_t n, double lo, double hi)
{
	double sum = 0;
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (sorted[i] >= lo && sorted[i] <= hi) {
			sum += sorted[i];
			k++;
		}
	return k ? sum / (double)k : NAN;
}

/* A run's ns per hop and its batch, sorted together. */
struct run_of {
	double ns;
	unsigned batch;
};

static int cmp_run(const void *a, const void *b)
{
	double x = ((const struct run_of *)a)->ns, y = ((const struct run_of *)b)->ns;

	return x < y ? -1 : x > y;
}

void latdist_end(struct ph_latdist *d, const struct ph_clock *clk,
		 const struct ph_loadsnap *before)
{
	size_t nt = d->done * (size_t)d->nthreads;
	double tick_ns, per, *timer, lo, hi;
	struct run_of *runs;
	char why[128];
	struct ph_loadsnap after;
	struct ph_load load;

	hostload_snap(&after);
	hostload_diff(before, &after, sysconf(_SC_CLK_TCK), &load);
	d->load_read = load.ok;
	d->other_cpus = load.other_cpus;
	d->host_quiet = load.ok && !busy_explains(&load, d->busy_why, sizeof(d->busy_why));
	if (d->host_quiet && load.other_cpus >= LATDIST_QUIET_CPUS) {
		d->host_quiet = false;
		snprintf(d->busy_why, sizeof(d->busy_why), "other tasks used %.2f CPU", load.other_cpus);
	}

	if (!d->runs)
		return;
	if (!nt) {
		snprintf(d->why, sizeof(d->why), "no run was made (interrupted)");
		free_raw(d);
		return;
	}
	tick_ns = 1e9 / clk->tsc_hz;
	timer = xcalloc(nt, sizeof(double));
	for (int i = 0; i < d->nthreads; i++)
		for (size_t j = 0; j < d->done; j++)
			timer[(size_t)i * d->done + j] = (double)d->empty[i][j] * tick_ns;
	qsort(timer, nt, sizeof(double), cmp_double);
	d->ntimer = nt;
	d->timer_lo_ns = dist_percentile(timer, nt, 5);
	d->timer_hi_ns = dist_percentile(timer, nt, 95);
	d->timer_ns = trimmed_mean(timer, nt, d->timer_lo_ns, d->timer_hi_ns);
	free(timer);

	per = (double)d->hops * d->chains;
	d->n = nt;
	runs = xcalloc(nt, sizeof(*runs));
	for (int i = 0; i < d->nthreads; i++)
		for (size_t j = 0, b = 0; j < d->done; j++) {
			while (b + 1 < d->nbatches && d->batch_at[b + 1] <= j)
				b++;
			runs[(size_t)i * d->done + j] = (struct run_of){
				((double)d->runs[i][j] * tick_ns - d->timer_ns) / per, (unsigned)b };
		}
	qsort(runs, nt, sizeof(*runs), cmp_run);
	d->samples = xcalloc(nt, sizeof(double));
	d->batch_of = xcalloc(nt, sizeof(unsigned));
	for (size_t i = 0; i < nt; i++) {
		d->samples[i] = runs[i].ns;
		d->batch_of[i] = runs[i].batch;
	}
	free(runs);
	stats_compute(d->samples, nt, &d->st);
	/* The median's CI as every percentile's: the batches' widening it. */
	d->measured = true;
	if (latdist_ci(d, 50, &lo, &hi, why, sizeof(why))) {
		d->st.ci_lo = d->st.ci_hi = NAN;
		d->st.ci_rel = INFINITY;
	} else {
		d->st.ci_lo = lo < d->st.ci_lo ? lo : d->st.ci_lo;
		d->st.ci_hi = hi > d->st.ci_hi ? hi : d->st.ci_hi;
		d->st.ci_rel = (d->st.ci_hi - d->st.ci_lo) / 2 / d->st.median;
	}
	free_raw(d);
}

int latdist_ci(const struct ph_latdist *d, double p, double *lo, double *hi, char *why,
	       size_t whysize)
{
	double blo, bhi;

	if (dist_percentile_ci(d->samples, d->n, p, lo, hi)) {
		dist_ci_why(d->n, p, why, whysize);
		return -ERANGE;
	}
	if (dist_cluster_ci(d->samples, d->batch_of, d->n, d->nbatches, p, &blo, &bhi)) {
		*lo = *hi = NAN;
		snprintf(why, whysize, "%zu runs in %u batches, p%g needs %d batches for a CI", d->n,
			 d->nbatches, p, DIST_MIN_CLUSTERS);
		return -ERANGE;
	}
	if (blo < *lo)
		*lo = blo;
	if (bhi > *hi)
		*hi = bhi;
	return 0;
}

void latdist_free(struct ph_latdist *d)
{
	free_raw(d);
	free(d->samples);
	free(d->batch_of);
	memset(d, 0, sizeof(*d));
}
