/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * latency.h - one latency figure on a started session: build each thread's
 * chain, check it is one cycle (the warm-up), size the blocks, measure.
 * Used by chase, matrix, pages and prefetch alike.
 */
#ifndef PAGEHOP_LATENCY_H
#define PAGEHOP_LATENCY_H

#include "chase.h"
#include "latdist.h"
#include "repeats.h"
#include "session.h"

struct ph_latency {
	struct ph_result user;		/* ns per load, user space */
	struct ph_result kern;		/* ns per load in pagehop.ko (in_kernel) */
	bool have_kern;
	struct ph_latdist dist;		/* when asked (latency_figure_dist) */
};

/*
 * Measure spec with chains chains per thread on s's memory (s->per_thread
 * bytes of each thread's segment).  With in_kernel, also through the
 * module's CHASE (one thread, one chain, kmod memory).  0, or an exit code
 * after printing why.
 */
int latency_figure(struct ph_session *s, const struct chase_spec *spec,
		   unsigned chains, bool in_kernel, struct ph_latency *out);
/*
 * The same, and after the figure, with req->want, its distribution on the
 * same chains (latdist.h) for a tenth of the figure's --time.
 */
int latency_figure_dist(struct ph_session *s, const struct chase_spec *spec,
			unsigned chains, bool in_kernel, const struct ph_distreq *req,
			struct ph_latency *out);
void latency_free(struct ph_latency *l);

/* Columns lat_ns, lat_min_ns, ci_lo_ns, ci_hi_ns, ci_pct, ci_met, samples,
 * tsc_cycles (prefixed, e.g. "kern_"), declared and filled. */
void latency_add_cols(struct ph_table *t, const char *prefix);
void latency_fill(struct ph_table *t, int row, const char *prefix,
		  const struct ph_result *res, double tsc_hz);

/*
 * A figure's distribution in a document.  latency_dist_table: a table of
 * a row per figure, its key columns first (names separated by spaces, the
 * caller fills them), then the runs, the percentiles req asks and their
 * CIs (or "cannot tell" and why), the timer, the plain figure beside and
 * whether they agree; latency_dist_row adds a figure's row from its plain
 * figure's statistics and its distribution (and a note where they
 * disagree, label naming it) and returns it.  latency_hist_table and latency_hist_rows: its histogram,
 * the rows from *first, as many as returned.  latency_dist_method: what
 * the columns mean, into the command's method section.
 */
struct ph_table *latency_dist_table(struct ph_doc *doc, const char *name, const char *keys,
				    const struct ph_distreq *req);
/* The same under a title of the caller's: what a sample is, with its unit (c2c's hand-offs). */
struct ph_table *latency_dist_table_of(struct ph_doc *doc, const char *name, const char *title,
				       const char *keys, const struct ph_distreq *req);
int latency_dist_row(struct ph_doc *doc, struct ph_table *t, const struct ph_distreq *req,
		     const struct ph_stats *plain, const struct ph_latdist *d, const char *label);
struct ph_table *latency_hist_table(struct ph_doc *doc, const char *name, const char *keys);
int latency_hist_rows(struct ph_table *h, const struct ph_latdist *d, int *first);
/* The same from buckets already counted (dist_histogram's). */
int latency_bucket_rows(struct ph_table *h, const struct dist_bucket *b, size_t nb, int *first);
void latency_dist_method(struct ph_section *sec, const struct ph_distreq *req);
/* The same with the caller's sentence for what a sample is (dist_sample): c2c's runs of hand-offs. */
void latency_dist_method_of(struct ph_section *sec, const struct ph_distreq *req,
			    const char *sample);

/*
 * A comma-separated list of chase patterns for option opt; the specs get
 * seed.  0, or -EINVAL after the one-line error.
 */
int latency_parse_patterns(const char *opt, const char *arg, uint64_t seed,
			   struct chase_spec **out, int *n);

/* The sentence describing how a latency sample is taken, for "run" sections. */
extern const char latency_method[];

/*
 * pagehop chase's study: one figure per pattern, in the order planned, all
 * on the memory and threads of one session.
 */
struct ph_latstudy {
	/* the plan */
	struct chase_spec *specs;	/* the patterns, each with the seed */
	int nspecs;
	unsigned chains;		/* per thread, 1..CHASE_MAX_CHAINS */
	uint64_t seed;
	bool in_kernel;			/* also walk in pagehop.ko */
	int repeats;			/* each figure's, on a session started anew (1: one run) */
	const char *patterns_given;	/* the command's --pattern, parsed into specs by its check */
	struct ph_distreq dist;		/* --percentiles, --histogram */
	/*
	 * The result: the figures measured, in order; lat[p] is the median
	 * repeat's run of pattern p (by the user-space figure; it shares that
	 * run's samples), runs[r * nspecs + p] repeat r's, nruns[p] how many.
	 */
	struct ph_latency *lat;
	bool *kern_whole;		/* per figure: its in-kernel part completed */
	int nlat;
	struct ph_latency *runs;
	bool *run_kern_whole;
	int *nruns;
	struct ph_repeats *between;
};

/*
 * pagehop chase's steps (study/steps.h: latency_steps), on a struct
 * ph_latstudy.  The plan, after session_machine: whether it can be had
 * here (--in-kernel needs pagehop.ko's CHASE, on the module's memory,
 * which it then asks for); then the memory laid out and verified
 * (session_start, one thread by default), and every pattern checked to fit
 * each thread's share of it: nothing is measured before all of them are
 * known to.  0, or an exit code after the one-line error.
 */
int latency_study_plan(void *state, struct ph_session *s);
/*
 * Measure each pattern in turn until one measures nothing or a signal
 * comes, then read the memory back (session_still_verified).  With
 * st->repeats > 1, all of that again on the session stopped and started
 * anew (fresh memory, chains and threads), each run with its share of
 * --time.  0 or an exit code.
 */
int latency_study_measure(void *state, struct ph_session *s);
/* Table "chase" (a row per figure), chase_repeats (a row per figure and
 * repeat), the run, the method, the buffers (the last repeat's). */
struct ph_doc *latency_study_doc(void *state, struct ph_session *s, int *rc);
void latency_study_free(void *state, struct ph_session *s);

#endif
