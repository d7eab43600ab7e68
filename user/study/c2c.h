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
#include "repeats.h"
#include "session.h"

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
};

/* The pairs of one relation, or of one node pair: their medians summarised. */
struct ph_c2c_group {
	int pairs;
	double median, min, max;	/* over the pairs' medians, ns */
};

struct ph_c2c {
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
 * After session_machine: the CPUs (cpus, NULL: every CPU this process may
 * run on) and the line's node (s->bind.membind, exactly one node; unset:
 * the node of the first CPU).  At least two CPUs.  0 or an exit code after
 * the one-line error.
 */
int c2c_plan(struct ph_c2c *c, struct ph_session *s, const struct bitmask *cpus);
/*
 * After c2c_plan: measure every pair n times (1 is one run, as without
 * repeats), the --time budget shared among them.  Between two repeats the
 * line moves to a new page (the old one is freed only after the new one is
 * verified, so that it is another page) and every pair gets new threads.
 */
#define C2C_MAX_REPEATS 20
void c2c_set_repeats(struct ph_c2c *c, int n);
/* Allocate the line's page and read it back (verify.h).  0 or an exit code. */
int c2c_start(struct ph_c2c *c, struct ph_session *s);
/* Every pair in turn, then the page read back again.  0 or an exit code. */
int c2c_measure(struct ph_c2c *c, struct ph_session *s);
/* Tables c2c (a row per pair), c2c_repeats (a row per pair and repeat),
 * c2c_matrix, by_relation, by_node_pair. */
struct ph_doc *c2c_doc(const struct ph_c2c *c, struct ph_session *s);
void c2c_free(struct ph_c2c *c, struct ph_session *s);

/*
 * Summary of n values (the pairs' medians): count, median, min, max.
 * NAN figures are skipped.
 */
void c2c_group(const double *medians, int n, struct ph_c2c_group *out);

extern const char c2c_method[];

#endif
