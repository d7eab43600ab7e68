/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bandwidth.h - one bandwidth figure on a started session: lay out each
 * thread's arrays, initialise them, warm up, size the blocks, measure, and
 * check the arrays afterwards as STREAM does.  Used by stream, matrix, pages
 * and prefetch alike.
 */
#ifndef PAGEHOP_BANDWIDTH_H
#define PAGEHOP_BANDWIDTH_H

#include "repeats.h"
#include "session.h"
#include "stream.h"

struct ph_bandwidth {
	struct ph_result res;	/* GB/s (1e9 bytes/s) as STREAM counts bytes */
	const struct stream_kernel *k;
	size_t elems;		/* per array per thread */
	size_t bad;		/* wrong elements after the run (0: valid) */
	unsigned parts;		/* with ph_bwopt.parts: the parts a sample
				 * streamed one of (0: timed blocks) */
	/* With ph_bwopt.per_thread: each thread's own GB/s, its bytes over
	 * each block's span, as the aggregate counts time (nthr = the
	 * session's threads); they add up to the aggregate. */
	int nthr;
	struct ph_stats *thr;
};

/* How bandwidth_figure_opt runs a figure. */
struct ph_bwopt {
	bool per_thread;	/* also each thread's own figure (out->thr) */
	int only;		/* -1: all threads at once; else thread only alone,
				 * the others idle (Bassi's "single") */
	int shift;		/* thread t streams the arrays in thread
				 * (t + shift) mod T's memory (mem_go_around's
				 * turn; 0: its own) */
	unsigned parts;		/* 0: timed blocks; else a sample streams
				 * exactly one part of every thread's arrays,
				 * at most this many parts, each of at least
				 * BANDWIDTH_PART_SECONDS of the warm-up pass,
				 * in turn (bandwidth_part), and the figure
				 * takes at least as many samples as parts */
};

/* The shortest part a sample streams with ph_bwopt.parts. */
#define BANDWIDTH_PART_SECONDS 0.001

/*
 * Measure kernel k on s's memory: the arrays k uses share each thread's
 * s->per_thread bytes equally.  0, or an exit code after printing why.
 */
int bandwidth_figure(struct ph_session *s, const struct stream_kernel *k,
		     struct ph_bandwidth *out);
/*
 * The same with o: per-thread figures, or one thread alone (then res is
 * that thread's figure over its own time, and only its arrays are
 * initialised, streamed and checked).
 */
int bandwidth_figure_opt(struct ph_session *s, const struct stream_kernel *k,
			 const struct ph_bwopt *o, struct ph_bandwidth *out);
void bandwidth_free(struct ph_bandwidth *b);
/*
 * The CPU each of s's threads runs on, asked by the thread itself
 * (sched_getcpu) now, after pinning: a second reading of the binding.
 */
void bandwidth_cpus_now(struct ph_session *s, int *cpus);
/* The node holding most of thread i's memory as read back; -1 if none. */
int bandwidth_node_found(const struct ph_session *s, int i);

/*
 * Elements of each array a thread streams between two clock reads, for
 * arrays of n doubles and a kernel iteration of align_elems: n/256 rounded
 * up to whole iterations, and at least 8192 (64 KiB an array; arrays shorter
 * than that are streamed whole, repeatedly, between clock reads).
 */
size_t bandwidth_chunk(size_t n, size_t align_elems);

/*
 * Part p (0 <= p < parts) of arrays of n elements streamed in chunks of
 * chunk elements: of the C = ceil(n / chunk) chunks, those from
 * floor(p * C / parts) to floor((p + 1) * C / parts), as the elements
 * [*lo, *lo + *len) (the last chunk may be short).  Parts 0 to parts - 1
 * cover [0, n) exactly once, in order; parts is at most C.
 */
void bandwidth_part(size_t n, size_t chunk, unsigned parts, unsigned p, size_t *lo, size_t *len);
/*
 * How many parts a figure with ph_bwopt.parts = want streams, for a pass
 * over its arrays (of `chunks` chunks) that took pass_s: as many as leave
 * each at least BANDWIDTH_PART_SECONDS, at most want and chunks; 0 when
 * a whole pass is shorter than that (the figure then takes timed blocks).
 */
unsigned bandwidth_parts(unsigned want, size_t chunks, double pass_s);

/* Columns bw_GBps, bw_best_GBps, ci_lo_GBps, ci_hi_GBps, ci_pct, ci_met,
 * samples, bw_wa_GBps, valid (prefixed). */
void bandwidth_add_cols(struct ph_table *t, const char *prefix);
void bandwidth_fill(struct ph_table *t, int row, const char *prefix,
		    const struct ph_bandwidth *b);

/*
 * One thread's own figure (ph_bandwidth.thr[]): columns bw_GBps,
 * ci_lo_GBps, ci_hi_GBps, samples (samples a detail column), and their
 * cells in row.
 */
void bandwidth_thread_add_cols(struct ph_table *t);
void bandwidth_thread_fill(struct ph_table *t, int row, const struct ph_stats *st);

extern const char bandwidth_method[];
/* A sample's method with ph_bwopt.parts (when ph_bandwidth.parts > 0). */
extern const char bandwidth_parts_method[];
/* How the arrays are laid out, for the same description. */
extern const char bandwidth_arrays[];

/*
 * pagehop stream's study: one figure per kernel, in the order planned, all
 * on the memory and threads of one started session.
 */
struct ph_bwstudy {
	/* the plan */
	const struct stream_kernel **ks;
	int nks;
	bool isa_auto;		/* the ISA was auto's choice (stream_auto), per kernel */
	const char **why;	/* then, per kernel, why auto chose it */
	bool per_thread;	/* --per-thread: each thread's own figure too */
	int repeats;		/* each figure's, on a session started anew (1: one run) */
	/* the options (in) pagehop stream's check plans from; freed by bandwidth_study_free */
	const char **names_given;	/* --kernel, as stream_ops[] names; NULL: all */
	int nnames_given;
	enum ph_isa isa_given;
	bool nt_given;
	/*
	 * The result: the figures measured, in order; bw[i] is the median
	 * repeat's run of kernel i (it shares that run's samples), runs[r *
	 * nks + i] repeat r's, nruns[i] how many it has.
	 */
	struct ph_bandwidth *bw;
	int nbw;
	struct ph_bandwidth *runs;
	int *nruns;
	struct ph_repeats *between;
	int *cpus_now;		/* per thread: sched_getcpu() in the thread */
};

/*
 * Plan: the variant of each op named (every op of stream_ops[] when nnames
 * is 0) for isa, or per op what auto runs here (stream_auto) for
 * PH_ISA_AUTO, with non-temporal stores if nt (read, which stores
 * nothing, runs as it is).  st is zeroed but for its options (in).  0;
 * -EOPNOTSUPP if this CPU cannot run isa; -ENOENT if an op has no such
 * variant (*missing names it).
 */
int bandwidth_study_plan(struct ph_bwstudy *st, const char *const *names, int nnames,
			 enum ph_isa isa, bool nt, const char **missing);
/*
 * pagehop stream's steps (study/steps.h: bandwidth_steps), on a struct
 * ph_bwstudy planned by bandwidth_study_plan.  start: lay out and verify
 * the memory (session_start).  measure: each kernel in turn on s until one measures nothing or
 * a signal comes, then read the memory back (session_still_verified).
 * With st->repeats > 1, all of that again on the session stopped and
 * started anew (fresh memory and threads), each run with its share of
 * --time.  0 or an exit code.
 */
int bandwidth_study_start(void *state, struct ph_session *s);
int bandwidth_study_measure(void *state, struct ph_session *s);
/* Table "stream" (a row per figure), stream_repeats (a row per figure and
 * repeat), the run, the method, the buffers (the last repeat's). */
struct ph_doc *bandwidth_study_doc(void *state, struct ph_session *s, int *rc);
void bandwidth_study_free(void *state, struct ph_session *s);

#endif
