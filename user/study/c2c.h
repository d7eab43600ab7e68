/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * c2c.h - core-to-core latency: one cache line, on a verified page of the
 * node asked, handed back and forth between two pinned threads; the time
 * of a round trip, halved, for every pair of the CPUs asked.  pagehop
 * c2c's study (plan / start / measure / doc).
 */
#ifndef PAGEHOP_C2C_H
#define PAGEHOP_C2C_H

#include "cpurel.h"
#include "latdist.h"
#include "repeats.h"
#include "session.h"
#include "steps.h"

struct bitmask;

struct ph_c2c_pair {
	int a, b;			/* OS CPU ids, a before b in the list */
	enum ph_cpurel rel;
	uint64_t rounds;		/* round trips per sample (res's repeat) */
	/*
	 * One-way ns: a sample's time / (2 rounds).  The median repeat's
	 * result (between.pick); it shares its samples with runs[pick].
	 */
	struct ph_result res;
	/* the repeats, each on a line and threads of its own, in the order run */
	struct ph_result *runs;
	uint64_t *run_rounds;
	int nruns;
	struct ph_repeats between;	/* what the repeats say between them */
	/*
	 * With dist.want: the distribution of the median repeat's runs
	 * (one-way ns per run of dist.hops hand-offs), as res is its plain
	 * figure; run_dists the repeats', freed but for that one once judged.
	 */
	struct ph_latdist dist;
	struct ph_latdist *run_dists;
};

/* The pairs of one relation, or of one node pair: their medians summarised. */
struct ph_c2c_group {
	int pairs;
	double median, min, max;	/* over the pairs' medians, ns */
};

struct ph_c2c {
	/* the options (in): what c2c_plan reads; c2c_free frees cpus_given */
	struct bitmask *cpus_given;	/* --cpus; NULL: every CPU this process may run on */
	unsigned repeats_given;		/* --repeats, 1..C2C_MAX_REPEATS */
	struct ph_distreq dist;		/* --percentiles, --histogram */
	/* the plan */
	int repeats;			/* of every pair, 1..C2C_MAX_REPEATS */
	int *cpus;
	int ncpus;
	int node;			/* the line's home node */
	struct ph_cpuplace *places;	/* per CPU */
	/* the line: a page of its own */
	struct ph_segment seg;
	bool have_seg;
	/* the result, pair after pair: (0,1), (0,2), ... (1,2), ... */
	struct ph_c2c_pair *pairs;
	int npairs;
};

/*
 * The steps of pagehop c2c (steps.h), on a struct ph_c2c.  plan, after
 * session_machine: the CPUs (cpus_given) and the line's node
 * (s->opt->bind.membind, exactly one node; unset: the node of the first CPU),
 * at least two CPUs; then the line's page allocated and read back
 * (verify.h).  measure: every pair repeats_given times (0 or 1 is one
 * run), the --time budget shared among them; between two repeats the line
 * moves to a new page (the old one is freed only after the new one is
 * verified, so that it is another page) and every pair gets new threads;
 * then the page read back again.  With dist.want, after each block a
 * batch of timed runs of the same hand-off (latdist.h), each repeat's
 * distribution beside its figure.  document: tables c2c (a row per pair),
 * c2c_repeats (a row per pair and repeat), c2c_matrix, by_relation,
 * by_node_pair, and with dist.want c2c_dist (a row per pair: the median
 * repeat's distribution) and with dist.histogram c2c_histogram.  Each step returns 0 or an exit code after the one-line
 * error.
 */
#define C2C_MAX_REPEATS 20
extern const struct ph_steps c2c_steps;

/*
 * Summary of n values (the pairs' medians): count, median, min, max.
 * NAN figures are skipped.
 */
void c2c_group(const double *medians, int n, struct ph_c2c_group *out);

extern const char c2c_method[];

#endif
