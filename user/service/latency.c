// SPDX-License-Identifier: GPL-2.0-only
/*
 * latency.c - a latency figure: chains built and checked, blocks sized,
 * samples until the interval is tight; and pagehop chase's study, a figure
 * per pattern.
 */
#include "latency.h"
#include "dist.h"
#include "progress.h"
#include "repeats_doc.h"
#include "chain.h"
#include "counters.h"
#include "phases.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char latency_method[] =
	"one block of hops (~5 ms) per sample; per-load time = block time / (hops x chains), averaged over threads";

/*
 * A timed block lasts about 5 ms: 250,000 times the TSC's resolution here,
 * and short enough that a 2 s budget gives a few hundred samples.  A timer
 * tick (every 1-4 ms) lands in most blocks and adds a few microseconds: at
 * most 0.1%, and the same in every block.
 */
#define BLOCK_SECONDS 0.005

struct chase_run {
	struct ph_session *s;
	struct chase_spec spec;
	unsigned chains;
	void **start;		/* per thread */
	int64_t *nslots;	/* per thread */
	void **heads;		/* per thread, CHASE_MAX_CHAINS each */
	uint64_t hops;		/* per chain per block */
	double block_ns;	/* the slowest thread's, in the last sizing run */
	double block_s;		/* how long a block is to last */
	uint64_t *ticks;
	struct ph_latdist *dist;	/* NULL, or a batch of its runs after each block */
};

/*
 * The warm-up from the measuring CPU: the chains walked together until
 * they have covered the whole cycle once, or for WARMUP_SECONDS if that is
 * shorter.  A chain that takes longer than that to walk is far larger than
 * any cache (0.1 s is a million hops at 100 ns), so the caches and TLBs
 * are then as full of it as they will be while measuring.  The heads all
 * move the same number of hops and stay evenly spaced.
 */
#define WARMUP_SECONDS 0.1

static void work_warm(void *ctx, int tid)
{
	struct chase_run *r = ctx;
	uint64_t per_head = ((uint64_t)r->nslots[tid] + r->chains - 1) / r->chains, done = 0;
	double t0 = now_mono_raw();

	while (done < per_head && !ph_interrupted) {
		uint64_t piece = per_head - done < 65536 ? per_head - done : 65536;

		chase_walk(&r->heads[tid * CHASE_MAX_CHAINS], r->chains, piece);
		done += piece;
		if (now_mono_raw() - t0 >= WARMUP_SECONDS)
			break;
	}
}

static void work_walk(void *ctx, int tid)
{
	struct chase_run *r = ctx;

	chase_walk(&r->heads[tid * CHASE_MAX_CHAINS], r->chains, r->hops);
}

/* One block on every thread; the sample is the mean time per load. */
static int sample_user(void *ctx, double *sample)
{
	struct chase_run *r = ctx;
	struct ph_session *s = r->s;
	double sum = 0;

	if (s->counters)
		counters_enable(s->counters);
	team_run(s->team, work_walk, r, &s->m.clk, r->ticks);
	if (s->counters)
		counters_disable(s->counters, r->hops * r->chains * (uint64_t)s->binding.n);
	for (int i = 0; i < s->binding.n; i++)
		sum += clock_ticks_to_ns(&s->m.clk, r->ticks[i]) / (double)(r->hops * r->chains);
	*sample = sum / s->binding.n;
	if (r->dist)
		latdist_batch(r->dist, s->team, &s->m.clk, r->heads);
	return 0;
}

/* Grow the block until it lasts about r->block_s (these runs are discarded). */
static void calibrate(struct chase_run *r)
{
	struct ph_session *s = r->s;

	r->hops = 1024;
	for (int i = 0; i < 20 && !ph_interrupted; i++) {
		double slowest = 0;

		team_run(s->team, work_walk, r, &s->m.clk, r->ticks);
		for (int t = 0; t < s->binding.n; t++) {
			double sec = clock_ticks_to_ns(&s->m.clk, r->ticks[t]) * 1e-9;

			slowest = sec > slowest ? sec : slowest;
		}
		r->block_ns = slowest * 1e9;
		if (slowest >= r->block_s / 2)
			break;
		r->hops = slowest > 0 ? (uint64_t)((double)r->hops * r->block_s / slowest) + 1 :
			r->hops * 16;
	}
}

/* ---- in-kernel chase through pagehop.ko ---- */

struct kernel_run {
	struct chase_run *r;
	uint64_t off;		/* where the next window starts */
	uint64_t total_hops;
	uint32_t loads;
	uint64_t cycles[16];
	uint32_t hops[16];	/* what each window took: it may end early */
	unsigned have, next;
	int err;
};

/*
 * One window's ns per hop.  The module ends a window at 1 ms of TSC even
 * before its loads (PAGEHOP_CHASE_WINDOW_US), and says how many hops it
 * took: the figure divides by those, and the check of where the chase
 * ended counts them.
 */
static int sample_kernel(void *ctx, double *sample)
{
	struct kernel_run *k = ctx;
	struct ph_session *s = k->r->s;

	if (k->next == k->have) {
		uint64_t end;
		int err = kmod_chase_windows(&s->m.km, s->segs[0].kbuf.id, s->binding.cpus[0],
					     k->off, k->loads, 16, k->cycles, k->hops, &end);

		if (err) {
			k->err = err;
			return err;
		}
		k->off = end;
		for (int w = 0; w < 16; w++)
			k->total_hops += k->hops[w];
		k->have = 16;
		k->next = 0;
	}
	*sample = (double)k->cycles[k->next] * 1e9 / s->m.clk.tsc_hz / k->hops[k->next];
	k->next++;
	return 0;
}

static void run_free(struct chase_run *r)
{
	free(r->start);
	free(r->nslots);
	free(r->heads);
	free(r->ticks);
}

/*
 * Advance p by hops hops, in pieces, so that a signal is seen within one
 * piece (1M hops: well under 1 s even at a microsecond a hop).  0 or -EINTR.
 */
static int walk_cancellable(void **p, uint64_t hops)
{
	enum { PIECE = 1 << 20 };

	while (hops) {
		uint64_t n = hops < PIECE ? hops : PIECE;

		if (ph_interrupted)
			return -EINTR;
		chase_walk(p, 1, n);
		hops -= n;
	}
	return 0;
}

/*
 * Walk the chain of thread 0 inside pagehop.ko and check where it stopped.
 * Interrupted before that check is done, the figure is left out (exit 130).
 */
static int kernel_figure(struct chase_run *r, const char *name, struct ph_mcfg *cfg,
			 double user_ns, struct ph_result *out)
{
	struct ph_session *s = r->s;
	struct kernel_run k = { .r = r };
	char *base = s->segs[0].addr, label[96];
	uint64_t start_off = (uint64_t)((char *)r->start[0] - base);
	void *p = r->start[0];

	/*
	 * Windows of at most the ABI's limit of hops and about half its limit
	 * of time (PAGEHOP_CHASE_WINDOW_US), so that most take all their
	 * hops; those the module ends early are counted as they are.
	 */
	k.loads = user_ns > 0 ? (uint32_t)fmin(PAGEHOP_CHASE_MAX_LOADS,
					       PAGEHOP_CHASE_WINDOW_US * 1e3 / 2 / user_ns) : 1024;
	if (!k.loads)
		k.loads = 1;
	k.off = start_off;
	/* Interrupted half-way, the chain is neither form: nothing uses it again. */
	if (chase_to_offsets(r->start[0], (uint64_t)r->nslots[0], base, &ph_interrupted))
		return PH_EXIT_INTERRUPTED;
	snprintf(label, sizeof(label), "chase %s in pagehop.ko", name);
	cfg->label = label;
	measure_figure(cfg, sample_kernel, &k, out);
	if (chase_to_pointers(base, start_off, (uint64_t)r->nslots[0], &ph_interrupted))
		return PH_EXIT_INTERRUPTED;
	if (k.err) {
		ph_errno(-k.err, "pagehop.ko CHASE");
		return PH_EXIT_FAIL;
	}
	/* The kernel must have stopped where a user walk of as many hops does. */
	if (walk_cancellable(&p, k.total_hops % (uint64_t)r->nslots[0]))
		return PH_EXIT_INTERRUPTED;
	if ((uint64_t)((char *)p - base) != k.off) {
		ph_err("pagehop.ko CHASE ended at offset %llu, the chain says %llu",
		       (unsigned long long)k.off, (unsigned long long)((char *)p - base));
		return PH_EXIT_FAIL;
	}
	return 0;
}

int latency_figure(struct ph_session *s, const struct chase_spec *spec,
		   unsigned chains, bool in_kernel, struct ph_latency *out)
{
	return latency_figure_dist(s, spec, chains, in_kernel, NULL, out);
}

int latency_figure_dist(struct ph_session *s, const struct chase_spec *spec,
			unsigned chains, bool in_kernel, const struct ph_distreq *req,
			struct ph_latency *out)
{
	struct chase_run r = { .s = s, .spec = *spec, .chains = chains,
			       .block_s = s->meas.block_s > 0 ? s->meas.block_s : BLOCK_SECONDS };
	struct ph_mcfg cfg = s->meas;
	struct ph_loadsnap before;
	char name[64], label[96];
	int n = s->binding.n, rc = 0;
	bool reuse, derived;

	memset(out, 0, sizeof(*out));
	chase_spec_name(spec, name, sizeof(name));
	r.start = xcalloc((size_t)n, sizeof(void *));
	r.nslots = xcalloc((size_t)n, sizeof(int64_t));
	r.heads = xcalloc((size_t)n * CHASE_MAX_CHAINS, sizeof(void *));
	r.ticks = xcalloc((size_t)n, sizeof(uint64_t));

	/*
	 * Memory lent by the caller (matrix) may hold this chain already, built
	 * and checked for an earlier CPU: it is the same chain.
	 */
	reuse = s->segs_lent && s->mem->have_chain && s->mem->chain_spec.pattern == spec->pattern &&
		s->mem->chain_spec.param == spec->param && s->mem->chain_spec.seed == spec->seed;
	/*
	 * Each thread's chain, built and checked to be one full cycle by the
	 * CPUs of its memory's node (chain.h).  Over 1 GiB that still takes
	 * a fraction of a second: it stops on a signal, and the figure is then
	 * left out (exit 130).  A chain built in lent memory overwrites the
	 * bandwidth arrays it may hold.
	 */
	if (s->segs_lent && !reuse)
		s->mem->have_arrays = false;
	/* One thread's random chain in a sweep: derived from the sweep's order (chain.h). */
	derived = !reuse && n == 1 && chain_orders_fit(s->orders, spec, s->per_thread);
	for (int i = 0; i < n; i++) {
		struct chase_spec ts = *spec;
		int err = 0;

		/* Each thread its own chain: same pattern, seed offset by thread. */
		ts.seed += (uint64_t)i;
		if (reuse) {
			r.nslots[i] = s->mem->nslots[i];
			r.start[i] = (char *)s->segs[i].addr + chase_offset_at(s->per_thread, &ts, 0);
		} else {
			/* The chain covers the working set asked for, not the page rounding. */
			progress_phase("building the %s chain of thread %d", name, i);
			if (derived)
				err = chain_derive_make(s, &s->segs[i], s->per_thread, s->orders,
							&r.nslots[i], &r.start[i]);
			else if (n == 1 && chain_orders_own(s->orders, &ts, s->per_thread))
				err = chain_own_make(s, &s->segs[i], s->per_thread, &ts, s->orders,
						     &r.nslots[i], &r.start[i]);
			else
				err = chain_make(s, &s->segs[i], s->per_thread, &ts, &r.nslots[i],
						 &r.start[i]);
		}
		if (err == -EINTR) {
			rc = PH_EXIT_INTERRUPTED;
			goto out;
		}
		if (err || r.nslots[i] < (int64_t)chains) {
			ph_err("cannot build the %s chain of thread %d over %llu bytes: %s", name, i,
			       (unsigned long long)s->per_thread,
			       err == -EINVAL ? "it is not one full cycle" :
			       err ? strerror(-err) : "fewer slots than chains");
			rc = PH_EXIT_FAIL;
			goto out;
		}
		/* Chain c starts at hop floor(c * nslots / chains). */
		for (unsigned c = 0; c < chains; c++) {
			uint64_t hop = (uint64_t)r.nslots[i] * c / chains;

			r.heads[i * CHASE_MAX_CHAINS + c] =
				(char *)s->segs[i].addr +
				(derived ? chain_orders_offset(s->orders, s->per_thread, hop) :
				 (uint64_t)chase_offset_at(s->per_thread, &ts, hop));
		}
	}
	/* A derived chain is not where chase_offset_at() says: not kept for reuse. */
	if (s->segs_lent && !reuse && derived)
		s->mem->have_chain = false;
	else if (s->segs_lent && !reuse) {
		s->mem->have_chain = true;
		s->mem->chain_spec = *spec;
		memcpy(s->mem->nslots, r.nslots, (size_t)n * sizeof(int64_t));
		s->mem->chains_built++;
	}
	/* From here on, a new CPU warms up on the chain, reused or not. */
	{
		double t0 = now_mono_raw();

		progress_phase("%s chase: warming up", name);
		team_run(s->team, work_warm, &r, &s->m.clk, r.ticks);
		calibrate(&r);
		phase_add(PH_PHASE_WARMUP, now_mono_raw() - t0);
	}
	if (ph_interrupted) {
		rc = PH_EXIT_INTERRUPTED;
		goto out;
	}
	snprintf(label, sizeof(label), "chase %s", name);
	cfg.label = label;
	if (req && req->want) {
		/*
		 * After each block, a batch of runs of a tenth of its hops: the
		 * distribution is measured over the same stretch of time as the
		 * figure, in the figure's --time, at a tenth of its samples.
		 */
		latdist_begin(&out->dist, &s->m.clk, n, chains, r.hops, r.block_ns);
		r.dist = &out->dist;
		hostload_snap(&before);
	}
	measure_figure(&cfg, sample_user, &r, &out->user);
	if (r.dist)
		latdist_end(r.dist, &s->m.clk, &before);
	if (in_kernel && !ph_interrupted) {
		/* The module's walk rewrites the chain in place, and back: not kept. */
		if (s->segs_lent)
			s->mem->have_chain = false;
		out->have_kern = true;
		rc = kernel_figure(&r, name, &cfg, out->user.st.median, &out->kern);
	}
out:
	run_free(&r);
	return rc;
}

void latency_free(struct ph_latency *l)
{
	result_free(&l->user);
	result_free(&l->kern);
	latdist_free(&l->dist);
}

static const char *const lat_cols[] = {
	"lat_ns", "lat_min_ns", "ci_lo_ns", "ci_hi_ns", "ci_pct", "ci_met", "samples", "tsc_cycles",
};
/* The statistics behind the figure: in the verbose table, CSV and JSON (output.h). */
static const bool lat_detail[ARRAY_SIZE(lat_cols)] = {
	false, true, false, false, true, true, true, true,
};

void latency_add_cols(struct ph_table *t, const char *prefix)
{
	char col[48];

	for (size_t i = 0; i < ARRAY_SIZE(lat_cols); i++) {
		snprintf(col, sizeof(col), "%s%s", prefix, lat_cols[i]);
		table_add_col(t, col);
		if (lat_detail[i])
			table_col_detail(t, col);
	}
}

void latency_fill(struct ph_table *t, int row, const char *prefix,
		  const struct ph_result *res, double tsc_hz)
{
	char col[8][48];

	for (size_t i = 0; i < ARRAY_SIZE(lat_cols); i++)
		snprintf(col[i], sizeof(col[i]), "%s%s", prefix, lat_cols[i]);
	table_num(t, row, col[0], res->st.median, "%.2f");
	table_num(t, row, col[1], res->st.min, "%.2f");
	table_num(t, row, col[2], res->st.ci_lo, "%.2f");
	table_num(t, row, col[3], res->st.ci_hi, "%.2f");
	table_num(t, row, col[4], res->st.ci_rel * 100, "%.2f");
	table_bool(t, row, col[5], res->ci_met);
	table_int(t, row, col[6], (long long)res->n);
	table_num(t, row, col[7], res->st.median * tsc_hz * 1e-9, "%.1f");
}

int latency_parse_patterns(const char *opt, const char *arg, uint64_t seed,
			   struct chase_spec **out, int *n)
{
	char *copy = xstrdup(arg), *save = NULL;
	int count = 0;

	*out = NULL;
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		struct chase_spec sp = { 0 };

		if (chase_parse(tok, &sp)) {
			ph_err("%s: unknown pattern '%s'; expected %s (sizes in multiples of 64 bytes)",
			       opt, tok, chase_pattern_list());
			free(copy);
			free(*out);
			*out = NULL;
			return -EINVAL;
		}
		sp.seed = seed;
		*out = xrealloc(*out, (size_t)(count + 1) * sizeof(**out));
		(*out)[count++] = sp;
	}
	free(copy);
	if (!count) {
		ph_err("%s: empty; expected %s", opt, chase_pattern_list());
		return -EINVAL;
	}
	*n = count;
	return 0;
}

/* ---- pagehop chase: a figure per pattern ---- */

static int study_check(const struct ph_latstudy *st, struct ph_session *s)
{
	if (!st->in_kernel)
		return 0;
	if (!kmod_has(&s->m.km, PAGEHOP_FEAT_CHASE)) {
		ph_err("--in-kernel: %s", s->m.km.fd < 0 ? s->m.km.why : "the loaded pagehop.ko has no CHASE");
		return PH_EXIT_UNSUPPORTED;
	}
	if (s->opt->bufreq.backend != PH_BACKEND_KMOD &&
	    buffer_auto_backend(&s->m.km, s->opt->bufreq.psize) != PH_BACKEND_KMOD) {
		ph_err("--in-kernel: the chain must be in pagehop.ko's memory, which cannot have %s pages here",
		       psize_name(s->opt->bufreq.psize));
		return PH_EXIT_UNSUPPORTED;
	}
	return 0;
}

int latency_study_plan(void *state, struct ph_session *s)
{
	struct ph_latstudy *st = state;
	struct ph_layout lay = session_layout(s);
	int rc = study_check(st, s);

	/* --in-kernel walks the chain in pagehop.ko: the chain in its memory. */
	if (st->in_kernel)
		lay.bufreq.backend = PH_BACKEND_KMOD;
	if (!rc)
		rc = session_start_bind(s, NULL, &lay, 1);
	if (rc)
		return rc;
	if (s->per_thread < 2 * CHASE_SLOT * st->chains) {
		ph_err("--size: %llu bytes is too small for %d threads x %u chains",
		       (unsigned long long)s->laid.size, s->binding.n, st->chains);
		return PH_EXIT_USAGE;
	}
	for (int p = 0; p < st->nspecs; p++) {
		char name[64];

		if (chase_slots(s->per_thread, &st->specs[p]) < (int64_t)st->chains) {
			ph_err("--pattern %s does not fit a %llu-byte working set per thread (its size must divide it and be at most half of it)",
			       chase_spec_name(&st->specs[p], name, sizeof(name)),
			       (unsigned long long)s->per_thread);
			return PH_EXIT_USAGE;
		}
	}
	return 0;
}

/* One pass over the patterns into run r's figures; 0 or an exit code. */
static int study_pass(struct ph_latstudy *st, struct ph_session *s, int r)
{
	for (int p = 0; p < st->nspecs && !ph_interrupted; p++) {
		struct ph_latency *lat = &st->runs[r * st->nspecs + p];
		char name[64];
		int err;

		/* The repeat said only where there are several. */
		progress_step("%s chase%s%.0d", chase_spec_name(&st->specs[p], name, sizeof(name)),
			      st->repeats > 1 ? ", repeat " : "", st->repeats > 1 ? r + 1 : 0);
		err = latency_figure_dist(s, &st->specs[p], st->chains, st->in_kernel, &st->dist, lat);

		/* A figure without a sample is not reported, and the rest not measured. */
		if (!lat->user.n) {
			latency_free(lat);
			return err ? err : PH_EXIT_FAIL;
		}
		st->run_kern_whole[r * st->nspecs + p] = lat->have_kern && !err;
		st->nruns[p] = r + 1;
		if (err)
			return err;
	}
	return 0;
}

int latency_study_measure(void *state, struct ph_session *s)
{
	struct ph_latstudy *st = state;
	int reps = st->repeats > 1 ? st->repeats : 1, n = reps * st->nspecs, rc = 0;
	double time_s = s->meas.time_s;

	st->runs = xcalloc((size_t)n, sizeof(*st->runs));
	st->run_kern_whole = xcalloc((size_t)n, sizeof(*st->run_kern_whole));
	st->nruns = xcalloc((size_t)st->nspecs, sizeof(*st->nruns));
	st->between = xcalloc((size_t)st->nspecs, sizeof(*st->between));
	st->lat = xcalloc((size_t)st->nspecs, sizeof(*st->lat));
	st->kern_whole = xcalloc((size_t)st->nspecs, sizeof(*st->kern_whole));
	/* The repeats share each figure's budget: --repeats costs set-ups, not time. */
	s->meas.time_s = time_s / reps;
	progress_begin(n, "chase");
	for (int r = 0; r < reps && !rc && !ph_interrupted; r++) {
		if (r)
			rc = repeats_restart(s, 1);
		if (!rc)
			rc = study_pass(st, s, r);
	}
	s->meas.time_s = time_s;
	/* The figures in order, while each has a run. */
	for (int p = 0; p < st->nspecs && st->nruns[p]; p++) {
		const struct ph_result **v = xcalloc((size_t)st->nruns[p], sizeof(*v));
		int pick;

		for (int r = 0; r < st->nruns[p]; r++)
			v[r] = &st->runs[r * st->nspecs + p].user;
		repeats_of_results(v, st->nruns[p], &st->between[p]);
		free(v);
		pick = st->between[p].pick * st->nspecs + p;
		st->lat[st->nlat] = st->runs[pick];
		st->kern_whole[st->nlat++] = st->run_kern_whole[pick];
	}
	if (!st->nlat && !rc)
		rc = PH_EXIT_FAIL;
	if (s->team && !session_still_verified(s))
		rc = PH_EXIT_FAIL;
	return rc;
}

/* Table "chase_repeats": every run of every figure; a note where they differ. */
static void latency_repeats_table(const struct ph_latstudy *st, struct ph_doc *doc)
{
	struct ph_table *t = doc_add_table(doc, "chase_repeats",
					   "each repeat of each figure, on memory and threads of its own");

	table_add_col(t, "pattern");
	repeats_table_cols(t, "lat_ns", "ns");
	for (int p = 0; p < st->nlat; p++) {
		char name[64];

		chase_spec_name(&st->specs[p], name, sizeof(name));
		for (int r = 0; r < st->nruns[p]; r++) {
			int row = table_add_row(t);

			table_str(t, row, "pattern", name);
			repeats_table_fill(t, row, "lat_ns", "ns", "%.2f", &st->runs[r * st->nspecs + p].user,
					   r + 1, r == st->between[p].pick);
		}
		repeats_note(doc, name, "lat_ns", &st->between[p], "ns", "%.1f",
			     "something that changes between runs (where the pages land, which cores the threads run on) decides it");
	}
}

/*
 * Whether the distribution's median agrees with the plain figure: their
 * 95% CIs overlap (the same rule as between repeats).  Without either CI,
 * no claim.
 */
static const char *dist_agrees(const struct ph_stats *plain, const struct ph_stats *d)
{
	if (isnan(plain->ci_lo) || isnan(d->ci_lo))
		return "unknown";
	return d->ci_lo <= plain->ci_hi && plain->ci_lo <= d->ci_hi ? "yes" : "no";
}

/* A table's key columns, given as one string of names separated by spaces. */
static void add_key_cols(struct ph_table *t, const char *keys)
{
	char *copy = xstrdup(keys), *save = NULL;

	for (char *k = strtok_r(copy, " ", &save); k; k = strtok_r(NULL, " ", &save))
		table_add_col(t, k);
	free(copy);
}

struct ph_table *latency_dist_table(struct ph_doc *doc, const char *name, const char *keys,
				    const struct ph_distreq *req)
{
	return latency_dist_table_of(doc, name,
		"distribution of runs' means: ns per load over runs of hops_per_sample hops, timer cost subtracted (not per-load latency)",
		keys, req);
}

struct ph_table *latency_dist_table_of(struct ph_doc *doc, const char *name, const char *title,
				       const char *keys, const struct ph_distreq *req)
{
	struct ph_table *t = doc_add_table(doc, name, title);
	char col[32];

	add_key_cols(t, keys);
	table_add_col(t, "hops_per_sample");
	table_add_col(t, "samples");
	table_add_col(t, "batches");
	table_col_detail(t, "batches");
	for (int i = 0; i < req->npcts; i++)
		table_add_col(t, dist_pct_name(req->pcts[i], "ns", col, sizeof(col)));
	table_add_col(t, "max_ns");
	for (int i = 0; i < req->npcts; i++) {
		table_add_col(t, dist_pct_name(req->pcts[i], "ci_lo_ns", col, sizeof(col)));
		table_col_detail(t, col);
		table_add_col(t, dist_pct_name(req->pcts[i], "ci_hi_ns", col, sizeof(col)));
		table_col_detail(t, col);
	}
	table_add_col(t, "cannot_tell");
	table_add_col(t, "mean_ns");
	table_add_col(t, "dist_ci_lo_ns");
	table_add_col(t, "dist_ci_hi_ns");
	table_add_col(t, "lat_ns");
	table_add_col(t, "ci_lo_ns");
	table_add_col(t, "ci_hi_ns");
	table_add_col(t, "agrees");
	table_add_col(t, "timer_ns");
	table_add_col(t, "timer_p5_ns");
	table_add_col(t, "timer_p95_ns");
	table_add_col(t, "min_ns");
	table_add_col(t, "host_quiet");
	table_add_col(t, "other_cpus");
	table_add_col(t, "why_not");
	table_detail(t, "mean_ns other_cpus dist_ci_lo_ns dist_ci_hi_ns ci_lo_ns ci_hi_ns timer_p5_ns timer_p95_ns min_ns");
	return t;
}

struct ph_table *latency_hist_table(struct ph_doc *doc, const char *name, const char *keys)
{
	struct ph_table *h = doc_add_table(doc, name,
		"histogram of the distribution: samples per log-spaced bucket [lo_ns, hi_ns)");

	add_key_cols(h, keys);
	table_add_col(h, "lo_ns");
	table_add_col(h, "hi_ns");
	table_add_col(h, "count");
	return h;
}

/*
 * Each percentile's CI (latdist_ci: the ranks' widened by the batches'),
 * or "cannot tell" in both bounds with why in the row's cannot_tell: too
 * few runs beyond it, or too few batches.
 */
static void pct_cis(struct ph_table *t, int row, const struct ph_distreq *req,
		    const struct ph_latdist *d)
{
	char col[32], why[96], all[DIST_MAX_PCTS * 100] = "";
	size_t len = 0;

	for (int i = 0; i < req->npcts; i++) {
		double p = req->pcts[i], lo, hi;

		if (!latdist_ci(d, p, &lo, &hi, why, sizeof(why))) {
			table_num(t, row, dist_pct_name(p, "ci_lo_ns", col, sizeof(col)), lo, "%.2f");
			table_num(t, row, dist_pct_name(p, "ci_hi_ns", col, sizeof(col)), hi, "%.2f");
			continue;
		}
		table_str(t, row, dist_pct_name(p, "ci_lo_ns", col, sizeof(col)), "cannot tell");
		table_str(t, row, dist_pct_name(p, "ci_hi_ns", col, sizeof(col)), "cannot tell");
		if (len < sizeof(all))
			len += (size_t)snprintf(all + len, sizeof(all) - len, "%s%s", len ? "; " : "",
						why);
	}
	if (len)
		table_str(t, row, "cannot_tell", all);
}

int latency_dist_row(struct ph_doc *doc, struct ph_table *t, const struct ph_distreq *req,
		     const struct ph_stats *plain, const struct ph_latdist *d, const char *label)
{
	int row = table_add_row(t);
	char col[32];

	table_int(t, row, "hops_per_sample", d->hops);
	table_num(t, row, "lat_ns", plain->median, "%.2f");
	table_num(t, row, "ci_lo_ns", plain->ci_lo, "%.2f");
	table_num(t, row, "ci_hi_ns", plain->ci_hi, "%.2f");
	if (!d->measured) {
		table_str(t, row, "why_not", d->why);
		table_str(t, row, "agrees", "unknown");
		return row;
	}
	table_int(t, row, "samples", (long long)d->n);
	table_int(t, row, "batches", d->nbatches);
	for (int i = 0; i < req->npcts; i++)
		table_num(t, row, dist_pct_name(req->pcts[i], "ns", col, sizeof(col)),
			  dist_percentile(d->samples, d->n, req->pcts[i]), "%.2f");
	table_num(t, row, "max_ns", d->st.max, "%.2f");
	pct_cis(t, row, req, d);
	table_num(t, row, "mean_ns", d->st.mean, "%.2f");
	table_num(t, row, "min_ns", d->st.min, "%.2f");
	table_num(t, row, "dist_ci_lo_ns", d->st.ci_lo, "%.2f");
	table_num(t, row, "dist_ci_hi_ns", d->st.ci_hi, "%.2f");
	table_str(t, row, "agrees", dist_agrees(plain, &d->st));
	table_num(t, row, "timer_ns", d->timer_ns, "%.2f");
	table_num(t, row, "timer_p5_ns", d->timer_lo_ns, "%.2f");
	table_num(t, row, "timer_p95_ns", d->timer_hi_ns, "%.2f");
	if (d->load_read) {
		table_bool(t, row, "host_quiet", d->host_quiet);
		table_num(t, row, "other_cpus", d->other_cpus, "%.2f");
	}
	/*
	 * Measured over the same stretch of time, they differ when rare
	 * slow stretches (preemption, another task's cache traffic) raise
	 * the blocks' means but only the runs' tail: the runs' mean, which
	 * takes them in as a block does, is said beside.
	 */
	if (!strcmp(dist_agrees(plain, &d->st), "no"))
		doc_note(doc, "%s: the distribution's median %.2f ns (CI %.2f-%.2f) and the plain figure %.2f ns (CI %.2f-%.2f) do not agree (the runs' mean %.2f ns)%s%s",
			 label, d->st.median, d->st.ci_lo, d->st.ci_hi, plain->median,
			 plain->ci_lo, plain->ci_hi, d->st.mean,
			 d->host_quiet ? "" : ": the host was busy, ",
			 d->host_quiet ? "" : d->load_read ? d->busy_why : "its load not read");
	return row;
}

int latency_bucket_rows(struct ph_table *h, const struct dist_bucket *b, size_t nb, int *first)
{
	*first = table_nrows(h);
	for (size_t i = 0; i < nb; i++) {
		int hr = table_add_row(h);

		table_num(h, hr, "lo_ns", b[i].lo, "%.3f");
		table_num(h, hr, "hi_ns", b[i].hi, "%.3f");
		table_int(h, hr, "count", (long long)b[i].count);
	}
	return (int)nb;
}

int latency_hist_rows(struct ph_table *h, const struct ph_latdist *d, int *first)
{
	struct dist_bucket *b = NULL;
	size_t nb = d->measured ? dist_histogram(d->samples, d->n, DIST_PER_DOUBLING, &b) : 0;
	int n = latency_bucket_rows(h, b, nb, first);

	free(b);
	return n;
}

void latency_dist_method(struct ph_section *sec, const struct ph_distreq *req)
{
	char what[400];

	snprintf(what, sizeof(what),
		 "runs of hops_per_sample dependent hops per chain (the smallest power of two from %u whose run lasts %u clock resolutions), each timed alone (lfence; rdtsc; lfence before, rdtscp; lfence after); a sample is one run's time less the timer's cost, over hops x chains: a mean over the run, not one load's latency",
		 LATDIST_MIN_HOPS, LATDIST_RESOLUTIONS);
	latency_dist_method_of(sec, req, what);
}

void latency_dist_method_of(struct ph_section *sec, const struct ph_distreq *req,
			    const char *sample)
{
	section_str(sec, "dist_sample", sample);
	section_str(sec, "dist_timer",
		    "the same loop with no hops, a batch before every batch of runs: timer_ns their mean between their 5th and 95th percentiles (subtracted), timer_p5_ns and timer_p95_ns their spread");
	section_str(sec, "dist_time",
		    "a batch of runs after each block of the figure, a tenth of its hops: both over the same stretch of time, within --time");
	section_str(sec, "percentiles", dist_percentile_method);
	section_str(sec, "percentile_ci", dist_percentile_ci_method);
	section_str(sec, "percentile_ci_batches", dist_cluster_ci_method);
	section_str(sec, "agrees",
		    "yes when the distribution median's 95% CI (dist_ci_lo_ns, dist_ci_hi_ns: the ranks' widened by the batches', as every percentile's) overlaps the plain figure's, no when not, unknown without both");
	if (req->histogram)
		section_str(sec, "histogram", dist_histogram_method);
}

/* Tables "chase_dist" (a row per figure) and, with --histogram, "chase_histogram". */
static void latency_dist_tables(const struct ph_latstudy *st, struct ph_doc *doc)
{
	struct ph_table *t = latency_dist_table(doc, "chase_dist", "pattern", &st->dist);
	struct ph_table *h = st->dist.histogram ? latency_hist_table(doc, "chase_histogram", "pattern") : NULL;

	for (int p = 0; p < st->nlat; p++) {
		char name[64];
		int first, n;

		chase_spec_name(&st->specs[p], name, sizeof(name));
		table_str(t, latency_dist_row(doc, t, &st->dist, &st->lat[p].user.st,
							&st->lat[p].dist, name), "pattern", name);
		if (!h)
			continue;
		n = latency_hist_rows(h, &st->lat[p].dist, &first);
		for (int r = first; r < first + n; r++)
			table_str(h, r, "pattern", name);
	}
}

struct ph_doc *latency_study_doc(void *state, struct ph_session *s, int *rc)
{
	const struct ph_latstudy *st = state;
	struct ph_doc *doc = doc_new("chase");
	struct ph_table *t = doc_add_table(doc, "chase", "latency per load");
	struct ph_section *sec;

	table_add_col(t, "pattern");
	table_add_col(t, "chains");
	latency_add_cols(t, "");
	if (st->in_kernel)
		latency_add_cols(t, "kern_");
	repeats_add_cols(t, "ns");
	session_add_common_cols(t);
	for (int p = 0; p < st->nlat; p++) {
		char name[64];
		int row = table_add_row(t);

		table_str(t, row, "pattern", chase_spec_name(&st->specs[p], name, sizeof(name)));
		table_int(t, row, "chains", st->chains);
		latency_fill(t, row, "", &st->lat[p].user, s->m.clk.tsc_hz);
		if (st->kern_whole[p])
			latency_fill(t, row, "kern_", &st->lat[p].kern, s->m.clk.tsc_hz);
		repeats_fill(t, row, &st->between[p], "ns", "%.2f");
		session_fill_common(s, t, row);
	}
	latency_repeats_table(st, doc);
	if (st->dist.want)
		latency_dist_tables(st, doc);
	session_describe(s, doc);
	sec = doc_add_section(doc, "chase_method", "chase");
	section_int(sec, "seed", (long long)st->seed);
	section_int(sec, "slot_B", CHASE_SLOT);
	section_str(sec, "sample", latency_method);
	section_int(sec, "repeats", st->repeats > 1 ? st->repeats : 1);
	section_str(sec, "between_runs", repeats_method);
	if (st->in_kernel)
		section_str(sec, "kern_sample",
			    "one CHASE window (interrupts off, at most 1 ms of TSC) per sample: its TSC cycles over the hops it took, converted at tsc_hz");
	if (st->dist.want)
		latency_dist_method(sec, &st->dist);
	session_buffers_table(s, doc);
	(void)rc;
	return doc;
}

void latency_study_free(void *state, struct ph_session *s)
{
	struct ph_latstudy *st = state;

	(void)s;
	/* lat[] shares its runs' samples: the runs are freed, not lat[]. */
	for (int p = 0; st->nruns && p < st->nspecs; p++)
		for (int r = 0; r < st->nruns[p]; r++)
			latency_free(&st->runs[r * st->nspecs + p]);
	free(st->runs);
	free(st->run_kern_whole);
	free(st->nruns);
	free(st->between);
	free(st->lat);
	free(st->kern_whole);
	free(st->specs);
	memset(st, 0, sizeof(*st));
}
