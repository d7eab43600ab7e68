// SPDX-License-Identifier: GPL-2.0-only
/*
 * bandwidth.c - a bandwidth figure: arrays laid out in verified memory,
 * timed blocks in which every thread streams until the same deadline,
 * STREAM's byte counting and validation; and pagehop stream's study, a
 * figure per kernel.
 */
#include "bandwidth.h"
#include "chain.h"
#include "progress.h"
#include "repeats_doc.h"
#include "phases.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* STREAM's scalar. */
#define STREAM_SCALAR 3.0

/*
 * A block is at least 10 ms (500,000 times the TSC's resolution) and at
 * least as long as one whole pass, so that every sample streams about all
 * of every array.
 */
#define BLOCK_SECONDS 0.010

/*
 * The gap between one array and the next, as STREAM's OFFSET.  Laid end to
 * end, arrays of a power-of-two size start at the same offset in their
 * pages, so a[i], b[i] and c[i] share their low twelve address bits and
 * compete for the same L1 sets and store-forwarding checks (copy over 1 GiB
 * ran 3-7% slower that way in paired runs on the development host).  1536
 * bytes keeps every array aligned for the widest unrolled iteration (512
 * bytes) and puts a, b and c at page offsets 0, 1536 and 3072.  Below 96 KiB
 * a thread (arrays in the caches) the arrays are laid end to end, so that
 * the smallest sizes still fit.
 */
#define ARRAY_STAGGER 1536
#define STAGGER_FROM (64 * ARRAY_STAGGER)	/* bytes a thread */
#define STR_(x) #x
#define STR(x) STR_(x)

const char bandwidth_arrays[] =
	"the arrays a kernel uses share each thread's memory equally, " STR(ARRAY_STAGGER)
	" bytes apart (STREAM's OFFSET) once a thread has 64 times that; a=1, b=2, c=4 at the start, s=3";

/*
 * Within a block every thread streams its arrays in chunks, cyclically, and
 * reads the clock after each chunk until the block's time is up.  All
 * threads therefore stop within a chunk of the same moment: none idles at
 * the end of a block while a slower one finishes a fixed amount of work (on
 * the shared development host two threads' times for one block differed by
 * 1-30%).  See bandwidth_chunk() for how long a chunk is.
 */
#define CHUNKS_PER_PASS 256
#define CHUNK_MIN_BYTES 65536
#define CHUNK_MIN_ELEMS (CHUNK_MIN_BYTES / sizeof(double))

const char bandwidth_method[] =
	"one timed block per sample (10 ms, or one pass if longer), in which every thread streams its arrays in chunks (1/"
	STR(CHUNKS_PER_PASS) " of its arrays, at least " STR(CHUNK_MIN_BYTES)
	" bytes an array) until the block's time is up, so that all stop together; GB/s = bytes of all threads as STREAM counts them / the time from the first thread's start to the last thread's end; arrays checked afterwards";

const char bandwidth_parts_method[] =
	"one part per sample: the arrays cut at chunk boundaries (1/" STR(CHUNKS_PER_PASS)
	" of them) into as many parts (whole chunks, equal to within one) as last 1 ms or more each in the warm-up pass, at most the parts asked for; each sample streams the next part once, so that as many samples as parts stream the arrays exactly once, and the figure takes at least that many; GB/s = bytes of all threads' parts as STREAM counts them / the time from the first thread's start to the last thread's end; arrays checked afterwards";

/*
 * A chunk is 1/CHUNKS_PER_PASS of a thread's arrays (rounded up to whole
 * iterations), so that a block, at least one pass long, ends at most 1/256
 * of a pass late on any thread.  Chunks are not made shorter than that:
 * every clock read (rdtscp; lfence) stalls the loop until the loads in
 * flight have completed.  On the development host (1 GiB, one thread,
 * rotated interleaved runs) 8 KiB chunks, with eight times the clock reads,
 * cost triad nt and copy 4.5-5% against 64 KiB ones: about 50 ns a read, or
 * 0.6% of the bandwidth at 64 KiB, which chunks of 1/256 of the arrays cut
 * to under 0.1%.  Nor are they shorter than CHUNK_MIN_BYTES an array:
 * arrays shorter than that (in the caches) are streamed whole, as many
 * times as make one.
 */
size_t bandwidth_chunk(size_t n, size_t align_elems)
{
	size_t c = (n + CHUNKS_PER_PASS - 1) / CHUNKS_PER_PASS;

	c = (c + align_elems - 1) / align_elems * align_elems;
	return c < CHUNK_MIN_ELEMS ? CHUNK_MIN_ELEMS : c;
}

/* Where chunk c of arrays of n elements starts (n past the last). */
static size_t chunk_start(size_t n, size_t chunk, size_t c)
{
	return c * chunk < n ? c * chunk : n;
}

void bandwidth_part(size_t n, size_t chunk, unsigned parts, unsigned p, size_t *lo, size_t *len)
{
	size_t chunks = (n + chunk - 1) / chunk;
	size_t first = chunks * p / parts, end = chunks * (p + 1) / parts;

	*lo = chunk_start(n, chunk, first);
	*len = chunk_start(n, chunk, end) - *lo;
}

/*
 * Parts of at least BANDWIDTH_PART_SECONDS: a millisecond is 50,000 times
 * the TSC's resolution, and a timer tick (a few microseconds, every 1-4
 * ms) adds at most a few tenths of a percent to the part it lands in.
 */
unsigned bandwidth_parts(unsigned want, size_t chunks, double pass_s)
{
	double fit = floor(pass_s / BANDWIDTH_PART_SECONDS);
	unsigned p = want;

	if (!(fit >= 1))
		return 0;
	if (fit < p)
		p = (unsigned)fit;
	return chunks < p ? (unsigned)chunks : p;
}

struct bw_run {
	struct ph_session *s;
	const struct stream_kernel *k;
	size_t n;
	size_t chunk;		/* elements a thread streams between clock reads */
	double **a, **b, **c;	/* per thread */
	double *sum;		/* per thread: READ's result for one pass */
	uint64_t block_ticks;	/* how long each thread streams in a block */
	size_t *pos;		/* per thread: where its next chunk starts */
	size_t *elems;		/* per thread: elements streamed in the last block */
	uint64_t *ticks;
	size_t *bad;
	bool *cut;		/* per thread: init or warm-up stopped by a signal */
	int only;		/* -1, or the one thread that streams */
	bool per_thread;
	double **thr;		/* per thread: its own samples, GB/s */
	int *nthr;
	unsigned parts;		/* 0: timed blocks; else a sample is one part */
	unsigned part;		/* the part the next sample streams */
};

/* Whether thread tid sits this figure out (another runs alone). */
static bool idle(const struct bw_run *r, int tid)
{
	return r->only >= 0 && tid != r->only;
}

static double *at(double *p, size_t i)
{
	return p ? p + i : NULL;
}

/*
 * Filling the arrays and the warm-up pass take a second or more over 1 GiB:
 * both go a chunk at a time and stop on a signal (r->cut is then set, and
 * the figure is left out).  The check afterwards runs whole: a figure that
 * was measured is checked, which over 1 GiB takes a few tenths of a second.
 */
static void work_init(void *ctx, int tid)
{
	struct bw_run *r = ctx;

	for (size_t pos = 0, len; pos < r->n && !idle(r, tid); pos += len) {
		len = r->n - pos < r->chunk ? r->n - pos : r->chunk;
		if (ph_interrupted) {
			r->cut[tid] = true;
			return;
		}
		stream_init(at(r->a[tid], pos), at(r->b[tid], pos), at(r->c[tid], pos), len);
	}
}

/*
 * Whether lent memory m holds kernel k's arrays of n elements for every
 * thread, as a figure of the same kernel left and checked them.  A figure
 * of one thread alone (o->only) writes and checks only that thread's.
 */
static bool arrays_kept(const struct ph_memory *m, const struct stream_kernel *k, size_t n,
			const struct ph_bwopt *o)
{
	return m->have_arrays && m->arrays_op == (int)k->op && m->arrays_elems == n && o->only < 0;
}

/* One untimed whole pass (the warm-up). */
static void work_pass(void *ctx, int tid)
{
	struct bw_run *r = ctx;
	double sum = 0;

	for (size_t pos = 0, len; pos < r->n && !idle(r, tid); pos += len) {
		len = r->n - pos < r->chunk ? r->n - pos : r->chunk;
		if (ph_interrupted) {
			r->cut[tid] = true;
			return;
		}
		/* READ's sums of whole numbers stay exact below 2^53. */
		sum += r->k->fn(at(r->a[tid], pos), at(r->b[tid], pos), at(r->c[tid], pos),
				STREAM_SCALAR, len);
	}
	r->sum[tid] = sum;
}

/*
 * A timed block: chunks until block_ticks have passed.  Arrays shorter than
 * a chunk are streamed whole, as many times as make a chunk, between clock
 * reads.  A READ chunk whose sum is not exact (STREAM_INIT_A per element)
 * spoils the thread's sum, and so the check afterwards.
 */
static void work_block(void *ctx, int tid)
{
	struct bw_run *r = ctx;
	const struct ph_clock *clk = &r->s->m.clk;
	const struct stream_kernel *k = r->k;
	size_t pos = r->pos[tid], done = 0;
	size_t reps = r->n < r->chunk ? r->chunk / r->n : 1;
	uint64_t end;

	r->elems[tid] = 0;
	if (idle(r, tid))
		return;
	end = clock_begin(clk) + r->block_ticks;
	do {
		size_t len = r->n - pos < r->chunk ? r->n - pos : r->chunk;

		for (size_t i = 0; i < reps; i++) {
			double sum = k->fn(at(r->a[tid], pos), at(r->b[tid], pos), at(r->c[tid], pos),
					   STREAM_SCALAR, len);

			if (k->op == STREAM_READ && sum != (double)len * STREAM_INIT_A)
				r->sum[tid] = -1;
		}
		done += reps * len;
		pos = pos + len == r->n ? 0 : pos + len;
	} while (clock_end(clk) < end);
	r->pos[tid] = pos;
	r->elems[tid] = done;
}

/*
 * One part of the arrays, chunk by chunk, as a block streams them (a READ
 * chunk's sum checked the same way); its elements in r->elems.
 */
static void work_part(void *ctx, int tid)
{
	struct bw_run *r = ctx;
	const struct stream_kernel *k = r->k;
	size_t lo, len;

	r->elems[tid] = 0;
	if (idle(r, tid))
		return;
	bandwidth_part(r->n, r->chunk, r->parts, r->part, &lo, &len);
	for (size_t pos = lo, end = lo + len, l; pos < end; pos += l) {
		double sum;

		l = end - pos < r->chunk ? end - pos : r->chunk;
		sum = k->fn(at(r->a[tid], pos), at(r->b[tid], pos), at(r->c[tid], pos), STREAM_SCALAR, l);
		if (k->op == STREAM_READ && sum != (double)l * STREAM_INIT_A)
			r->sum[tid] = -1;
	}
	r->elems[tid] = len;
}

static void work_check(void *ctx, int tid)
{
	struct bw_run *r = ctx;

	if (idle(r, tid))
		return;
	r->bad[tid] = stream_check(r->k->op, r->a[tid], r->b[tid], r->c[tid], STREAM_SCALAR,
				   r->n, r->sum[tid]);
}

/* The run's span: the slowest thread's time when they all ran at once. */
static double span_ns(struct bw_run *r)
{
	return clock_ticks_to_ns(&r->s->m.clk, team_span(r->s->team));
}

static int sample_bw(void *ctx, double *sample)
{
	struct bw_run *r = ctx;
	double bytes = 0;

	double ns;

	team_run(r->s->team, r->parts ? work_part : work_block, r, &r->s->m.clk, r->ticks);
	if (r->parts)
		r->part = (r->part + 1) % r->parts;
	/* Alone, the thread's own time: the idle ones' barrier exits do not count. */
	ns = r->only >= 0 ? clock_ticks_to_ns(&r->s->m.clk, r->ticks[r->only]) : span_ns(r);
	for (int i = 0; i < r->s->binding.n; i++) {
		double own = (double)r->elems[i] * r->k->bytes_stream;

		bytes += own;
		/*
		 * A thread's own figure: its bytes over the same span as the
		 * aggregate's, not over its own time.  On a busy machine a
		 * thread scheduled late streams its block after the others
		 * have finished theirs; over their own times the threads would
		 * add up to more than ran at once (2 threads on the shared
		 * development host: 88 GB/s against an aggregate of 50).
		 */
		if (r->per_thread && !idle(r, i))
			*(double *)xappend(&r->thr[i], &r->nthr[i], sizeof(double)) = own / ns;
	}
	*sample = bytes / ns;	/* bytes per ns = GB/s */
	return 0;
}

int bandwidth_figure(struct ph_session *s, const struct stream_kernel *k,
		     struct ph_bandwidth *out)
{
	static const struct ph_bwopt all = { .only = -1 };

	return bandwidth_figure_opt(s, k, &all, out);
}

int bandwidth_figure_opt(struct ph_session *s, const struct stream_kernel *k,
			 const struct ph_bwopt *o, struct ph_bandwidth *out)
{
	struct bw_run r = { .s = s, .k = k, .only = o->only, .per_thread = o->per_thread };
	int n = s->binding.n;
	struct ph_mcfg cfg = s->meas;
	char label[64];
	size_t stagger, stride;
	bool cut = false;
	double t;

	memset(out, 0, sizeof(*out));
	out->k = k;
	/* The arrays the kernel uses share the thread's memory equally, less
	 * the staggers between them. */
	stagger = s->per_thread >= STAGGER_FROM ? ARRAY_STAGGER : 0;
	r.n = (s->per_thread - (k->arrays - 1) * stagger) / (k->arrays * sizeof(double)) /
	      k->align_elems * k->align_elems;
	out->elems = r.n;
	if (!r.n) {
		ph_err("--size: %llu bytes per thread is too small for %s (%u arrays of %zu doubles at least)",
		       (unsigned long long)s->per_thread, k->name, k->arrays, k->align_elems);
		return PH_EXIT_USAGE;
	}
	r.chunk = bandwidth_chunk(r.n, k->align_elems);
	r.a = xcalloc((size_t)n, sizeof(double *));
	r.b = xcalloc((size_t)n, sizeof(double *));
	r.c = xcalloc((size_t)n, sizeof(double *));
	r.sum = xcalloc((size_t)n, sizeof(double));
	r.ticks = xcalloc((size_t)n, sizeof(uint64_t));
	r.bad = xcalloc((size_t)n, sizeof(size_t));
	r.pos = xcalloc((size_t)n, sizeof(size_t));
	r.elems = xcalloc((size_t)n, sizeof(size_t));
	r.cut = xcalloc((size_t)n, sizeof(bool));
	r.thr = xcalloc((size_t)n, sizeof(double *));
	r.nthr = xcalloc((size_t)n, sizeof(int));
	stride = r.n + stagger / sizeof(double);
	for (int i = 0; i < n; i++) {
		/* Every segment has per_thread bytes: any thread's arrays fit any. */
		double *base = s->segs[(i + o->shift) % n].addr;
		unsigned slot = 0;

		/* Each used array in a region of its own, in a, b, c order,
		 * ARRAY_STAGGER bytes apart. */
		if (k->uses & STREAM_A)
			r.a[i] = base + slot++ * stride;
		if (k->uses & STREAM_B)
			r.b[i] = base + slot++ * stride;
		if (k->uses & STREAM_C)
			r.c[i] = base + slot++ * stride;
	}
	/*
	 * Lent memory that holds this kernel's arrays, as the last figure on it
	 * left them and checked them (a matrix column measured from another
	 * row), is streamed as it is: every kernel's results depend only on its
	 * sources, which it does not write, so a pass over them gives the values
	 * the check expects, whether they were written by init or by the same
	 * kernel's last pass.  Otherwise the arrays are written afresh; they
	 * overwrite whatever chain lent memory held.
	 */
	if (!s->segs_lent || !arrays_kept(s->mem, k, r.n, o)) {
		/* Views of the same frames (chain.h) hold no chain either. */
		chain_orders_forget(s->orders);
		if (s->segs_lent) {
			s->mem->have_chain = false;
			s->mem->have_arrays = false;
			s->mem->arrays_written++;
		}
		t = now_mono_raw();
		team_run(s->team, work_init, &r, &s->m.clk, r.ticks);
		phase_add(PH_PHASE_ARRAYS, now_mono_raw() - t);
	}
	/* Warm-up: one untimed pass; it also times a pass to size the blocks:
	 * BLOCK_SECONDS, or one pass if that takes longer. */
	t = now_mono_raw();
	progress_phase("%s: warming up", r.k->name);
	team_run(s->team, work_pass, &r, &s->m.clk, r.ticks);
	phase_add(PH_PHASE_WARMUP, now_mono_raw() - t);
	for (int i = 0; i < n; i++)
		cut |= r.cut[i];
	if (!cut) {
		t = fmax(span_ns(&r) * 1e-9, BLOCK_SECONDS);
		r.block_ticks = (uint64_t)ceil(t * 1e9 / clock_ticks_to_ns(&s->m.clk, 1000000) * 1e6);
		/* Parts: as many samples as parts before the CI is judged, so that
		 * they stream every array at least once. */
		r.parts = o->parts ? bandwidth_parts(o->parts, (r.n + r.chunk - 1) / r.chunk,
						     span_ns(&r) * 1e-9) : 0;
		out->parts = r.parts;
		if (r.parts > cfg.min_samples)
			cfg.min_samples = r.parts;
		snprintf(label, sizeof(label), "stream %s %s%s", k->name, isa_name(k->isa),
			 k->nt ? " nt" : "");
		cfg.label = label;
		measure_figure(&cfg, sample_bw, &r, &out->res);
		t = now_mono_raw();
		team_run(s->team, work_check, &r, &s->m.clk, r.ticks);
		phase_add(PH_PHASE_CHECK, now_mono_raw() - t);
		for (int i = 0; i < n; i++)
			out->bad += r.bad[i];
		/* Whole arrays of every thread, checked right: the next figure of
		 * this kernel on this memory may start from them. */
		if (s->segs_lent && !out->bad && !cut && o->only < 0) {
			s->mem->have_arrays = true;
			s->mem->arrays_op = (int)k->op;
			s->mem->arrays_elems = r.n;
		}
		if (o->per_thread) {
			out->nthr = n;
			out->thr = xcalloc((size_t)n, sizeof(*out->thr));
			for (int i = 0; i < n; i++)
				stats_compute(r.thr[i], (size_t)r.nthr[i], &out->thr[i]);
		}
	}
	for (int i = 0; i < n; i++)
		free(r.thr[i]);
	free(r.thr);
	free(r.nthr);
	free(r.cut);
	free(r.a);
	free(r.b);
	free(r.c);
	free(r.sum);
	free(r.ticks);
	free(r.bad);
	free(r.pos);
	free(r.elems);
	if (cut)
		return PH_EXIT_INTERRUPTED;
	if (out->bad) {
		ph_err("%s %s: %zu array elements are wrong after the run", k->name, isa_name(k->isa),
		       out->bad);
		return PH_EXIT_FAIL;
	}
	return 0;
}

void bandwidth_free(struct ph_bandwidth *b)
{
	result_free(&b->res);
	free(b->thr);
	b->thr = NULL;
	b->nthr = 0;
}

static void work_getcpu(void *ctx, int tid)
{
	((int *)ctx)[tid] = sched_getcpu();
}

void bandwidth_cpus_now(struct ph_session *s, int *cpus)
{
	uint64_t *ticks = xcalloc((size_t)s->binding.n, sizeof(uint64_t));

	team_run(s->team, work_getcpu, cpus, &s->m.clk, ticks);
	free(ticks);
}

int bandwidth_node_found(const struct ph_session *s, int i)
{
	const struct ph_placement *pl = &s->segs[i].found;
	int best = -1;

	for (int n = 0; n < pl->nr_nodes; n++)
		if (pl->node_bytes[n] && (best < 0 || pl->node_bytes[n] > pl->node_bytes[best]))
			best = n;
	return best;
}

static const char *const bw_cols[] = {
	"bw_GBps", "bw_best_GBps", "ci_lo_GBps", "ci_hi_GBps", "ci_pct", "ci_met", "samples",
	"bw_wa_GBps", "valid",
};
/*
 * The statistics behind the figure, and the figure with write-allocate
 * reads counted: in the verbose table, CSV and JSON (output.h).
 */
static const bool bw_detail[ARRAY_SIZE(bw_cols)] = {
	false, true, false, false, true, true, true, true, false,
};

void bandwidth_add_cols(struct ph_table *t, const char *prefix)
{
	char col[48];

	for (size_t i = 0; i < ARRAY_SIZE(bw_cols); i++) {
		snprintf(col, sizeof(col), "%s%s", prefix, bw_cols[i]);
		table_add_col(t, col);
		if (bw_detail[i])
			table_col_detail(t, col);
	}
}

void bandwidth_fill(struct ph_table *t, int row, const char *prefix,
		    const struct ph_bandwidth *b)
{
	char col[9][48];
	const struct ph_stats *st = &b->res.st;

	for (size_t i = 0; i < ARRAY_SIZE(bw_cols); i++)
		snprintf(col[i], sizeof(col[i]), "%s%s", prefix, bw_cols[i]);
	table_num(t, row, col[0], st->median, "%.2f");
	table_num(t, row, col[1], st->max, "%.2f");
	table_num(t, row, col[2], st->ci_lo, "%.2f");
	table_num(t, row, col[3], st->ci_hi, "%.2f");
	table_num(t, row, col[4], st->ci_rel * 100, "%.2f");
	table_bool(t, row, col[5], b->res.ci_met);
	table_int(t, row, col[6], (long long)b->res.n);
	/* The same time, with the write-allocate reads of the stored lines counted. */
	table_num(t, row, col[7], st->median * b->k->bytes_wa / b->k->bytes_stream, "%.2f");
	table_bool(t, row, col[8], b->bad == 0);
}

void bandwidth_thread_add_cols(struct ph_table *t)
{
	table_add_col(t, "bw_GBps");
	table_add_col(t, "ci_lo_GBps");
	table_add_col(t, "ci_hi_GBps");
	table_add_col(t, "samples");
	table_col_detail(t, "samples");
}

void bandwidth_thread_fill(struct ph_table *t, int row, const struct ph_stats *st)
{
	table_num(t, row, "bw_GBps", st->median, "%.2f");
	table_num(t, row, "ci_lo_GBps", st->ci_lo, "%.2f");
	table_num(t, row, "ci_hi_GBps", st->ci_hi, "%.2f");
	table_int(t, row, "samples", (long long)st->n);
}

/* ---- pagehop stream: a figure per kernel ---- */

int bandwidth_study_plan(struct ph_bwstudy *st, const char *const *names, int nnames,
			 enum ph_isa isa, bool nt, const char **missing)
{
	int n = nnames ? nnames : (int)stream_nops;

	if (isa != PH_ISA_AUTO && !isa_supported(isa))
		return -EOPNOTSUPP;
	st->isa_auto = isa == PH_ISA_AUTO;
	st->ks = xcalloc((size_t)n, sizeof(*st->ks));
	st->why = xcalloc((size_t)n, sizeof(*st->why));
	for (int i = 0; i < n; i++) {
		const char *name = nnames ? names[i] : stream_ops[i].name;
		/* read stores nothing: with nt it runs as it is. */
		bool knt = nt && strcmp(name, "read");

		st->ks[i] = st->isa_auto ? stream_auto(name, knt, &st->why[i]) :
					   stream_find(name, isa, knt);
		if (!st->ks[i]) {
			*missing = name;
			return -ENOENT;
		}
	}
	st->nks = n;
	return 0;
}

/* One pass over the kernels into run r's figures; 0 or an exit code. */
static int study_pass(struct ph_bwstudy *st, struct ph_session *s, int r)
{
	struct ph_bwopt o = { .per_thread = st->per_thread, .only = -1 };
	int rc = 0;

	for (int i = 0; i < st->nks && !ph_interrupted; i++) {
		struct ph_bandwidth *bw = &st->runs[r * st->nks + i];
		int err;

		/* The repeat said only where there are several. */
		progress_step("%s%s%.0d", st->ks[i]->name, st->repeats > 1 ? ", repeat " : "",
			      st->repeats > 1 ? r + 1 : 0);
		err = bandwidth_figure_opt(s, st->ks[i], &o, bw);

		/* A figure without a sample is not reported, and the rest not measured. */
		if (!bw->res.n) {
			bandwidth_free(bw);
			return err ? err : PH_EXIT_FAIL;
		}
		st->nruns[i] = r + 1;
		if (err)
			return err;
	}
	return rc;
}

int bandwidth_study_start(void *state, struct ph_session *s)
{
	(void)state;
	return session_start(s, 0);
}

int bandwidth_study_measure(void *state, struct ph_session *s)
{
	struct ph_bwstudy *st = state;
	int reps = st->repeats > 1 ? st->repeats : 1, rc = 0;
	double time_s = s->meas.time_s;

	st->runs = xcalloc((size_t)(reps * st->nks), sizeof(*st->runs));
	st->nruns = xcalloc((size_t)st->nks, sizeof(*st->nruns));
	st->between = xcalloc((size_t)st->nks, sizeof(*st->between));
	st->bw = xcalloc((size_t)st->nks, sizeof(*st->bw));
	st->cpus_now = xcalloc((size_t)s->binding.n, sizeof(int));
	/* The repeats share each figure's budget: --repeats costs set-ups, not time. */
	s->meas.time_s = time_s / reps;
	progress_begin(reps * st->nks, "stream");
	for (int r = 0; r < reps && !rc && !ph_interrupted; r++) {
		if (r)
			rc = repeats_restart(s, 0);
		if (rc)
			break;
		bandwidth_cpus_now(s, st->cpus_now);
		rc = study_pass(st, s, r);
	}
	s->meas.time_s = time_s;
	/* The figures in order, while each has a run. */
	for (int i = 0; i < st->nks && st->nruns[i]; i++) {
		const struct ph_result **v = xcalloc((size_t)st->nruns[i], sizeof(*v));

		for (int r = 0; r < st->nruns[i]; r++)
			v[r] = &st->runs[r * st->nks + i].res;
		repeats_of_results(v, st->nruns[i], &st->between[i]);
		free(v);
		st->bw[st->nbw++] = st->runs[st->between[i].pick * st->nks + i];
	}
	if (!st->nbw && !rc)
		rc = PH_EXIT_FAIL;
	if (s->team && !session_still_verified(s))
		rc = PH_EXIT_FAIL;
	return rc;
}

/* Table "threads": per kernel and thread, the thread's own figure. */
static void bandwidth_threads_table(const struct ph_bwstudy *st, struct ph_session *s,
				    struct ph_doc *doc)
{
	struct ph_table *t = doc_add_table(doc, "threads",
					   "each thread's own bandwidth: its bytes over the run's span, all running at once");
	static const char *const cols[] = {
		"kernel", "thread", "cpu", "node", "bw_GBps", "ci_lo_GBps", "ci_hi_GBps", "samples",
	};

	for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
		table_add_col(t, cols[i]);
	for (int f = 0; f < st->nbw; f++)
		for (int i = 0; i < st->bw[f].nthr; i++) {
			const struct ph_stats *ts = &st->bw[f].thr[i];
			int row = table_add_row(t), node = bandwidth_node_found(s, i);

			table_str(t, row, "kernel", st->bw[f].k->name);
			table_int(t, row, "thread", i);
			table_int(t, row, "cpu", st->cpus_now[i]);
			if (node >= 0)
				table_int(t, row, "node", node);
			table_num(t, row, "bw_GBps", ts->median, "%.2f");
			table_num(t, row, "ci_lo_GBps", ts->ci_lo, "%.2f");
			table_num(t, row, "ci_hi_GBps", ts->ci_hi, "%.2f");
			table_int(t, row, "samples", (long long)ts->n);
		}
}

/* Table "stream_repeats": every run of every figure; a note where they differ. */
static void bandwidth_repeats_table(const struct ph_bwstudy *st, struct ph_doc *doc)
{
	struct ph_table *t = doc_add_table(doc, "stream_repeats",
					   "each repeat of each figure, on memory and threads of its own");

	table_add_col(t, "kernel");
	repeats_table_cols(t, "bw_GBps", "GBps");
	for (int i = 0; i < st->nbw; i++) {
		for (int r = 0; r < st->nruns[i]; r++) {
			int row = table_add_row(t);

			table_str(t, row, "kernel", st->bw[i].k->name);
			repeats_table_fill(t, row, "bw_GBps", "GBps", "%.2f", &st->runs[r * st->nks + i].res,
					   r + 1, r == st->between[i].pick);
		}
		repeats_note(doc, st->bw[i].k->name, "bw_GBps", &st->between[i], "GB/s", "%.2f",
			     "something that changes between runs (where the pages land, which cores the threads run on) decides it");
	}
}

struct ph_doc *bandwidth_study_doc(void *state, struct ph_session *s, int *rc)
{
	const struct ph_bwstudy *st = state;
	struct ph_doc *doc = doc_new("stream");
	struct ph_table *t = doc_add_table(doc, "stream", "bandwidth");
	struct ph_section *sec;

	table_add_col(t, "kernel");
	table_add_col(t, "isa");
	table_add_col(t, "nt");
	bandwidth_add_cols(t, "");
	repeats_add_cols(t, "GBps");
	session_add_common_cols(t);
	for (int i = 0; i < st->nbw; i++) {
		const struct stream_kernel *k = st->bw[i].k;
		int row = table_add_row(t);

		table_str(t, row, "kernel", k->name);
		table_str(t, row, "isa", isa_name(k->isa));
		table_bool(t, row, "nt", k->nt);
		bandwidth_fill(t, row, "", &st->bw[i]);
		repeats_fill(t, row, &st->between[i], "GBps", "%.2f");
		session_fill_common(s, t, row);
	}
	bandwidth_repeats_table(st, doc);
	if (st->per_thread)
		bandwidth_threads_table(st, s, doc);
	session_describe(s, doc);
	sec = doc_add_section(doc, "stream_method", "stream");
	section_str(sec, "sample", bandwidth_method);
	section_str(sec, "arrays", bandwidth_arrays);
	section_int(sec, "repeats", st->repeats > 1 ? st->repeats : 1);
	section_str(sec, "between_runs", repeats_method);
	/* Why auto ran the ISA it did, per kernel: "triad: <reason>". */
	section_str(sec, "isa_asked", st->isa_auto ? "auto" : "forced (--isa)");
	for (int i = 0; st->isa_auto && i < st->nbw; i++) {
		char key[64];

		snprintf(key, sizeof(key), "isa_auto_%s%s", st->bw[i].k->name, st->bw[i].k->nt ? "_nt" : "");
		section_str(sec, key, st->why[i] ? st->why[i] : "?");
	}
	session_buffers_table(s, doc);
	(void)rc;
	return doc;
}

void bandwidth_study_free(void *state, struct ph_session *s)
{
	struct ph_bwstudy *st = state;

	(void)s;
	/* bw[] shares its runs' samples: the runs are freed, not bw[]. */
	for (int i = 0; st->nruns && i < st->nks; i++)
		for (int r = 0; r < st->nruns[i]; r++)
			bandwidth_free(&st->runs[r * st->nks + i]);
	free(st->runs);
	free(st->nruns);
	free(st->between);
	free(st->bw);
	free(st->cpus_now);
	free(st->ks);
	free(st->why);
	free(st->names_given);
	memset(st, 0, sizeof(*st));
}
