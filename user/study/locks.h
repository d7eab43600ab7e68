/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * locks.h - lock overhead against thread count, EPCC syncbench's way: the
 * time of a loop that takes a lock, holds it for a delay and releases it,
 * minus the time of the same loop without the lock, per acquisition.  The
 * lock is on a verified page of the node asked.  pagehop locks' study.
 */
#ifndef PAGEHOP_LOCKS_H
#define PAGEHOP_LOCKS_H

#include "session.h"
#include "steps.h"

struct bitmask;

struct lock_kind {
	const char *name;	/* "tas", "ticket", "mutex", "omp" */
	const char *desc;
	size_t size;		/* bytes of lock state (0: ask available) */
	bool (*available)(void);	/* NULL: always */
	void (*init)(void *lock);
	void (*acquire)(void *lock);
	void (*release)(void *lock);
	void (*destroy)(void *lock);	/* or NULL */
};

extern const struct lock_kind lock_kinds[];
extern const size_t lock_nkinds;

/*
 * EPCC's subtraction: a loop of acquisitions took test_ns, the same loop
 * of ref_reps repetitions without the lock took ref_ns; the overhead of
 * one acquire + release is test_ns / acquisitions - ref_ns / ref_reps.
 * NAN if either count is 0.
 */
double locks_overhead_ns(double test_ns, uint64_t acquisitions, double ref_ns, uint64_t ref_reps);

/*
 * The default thread counts for ncpus CPUs: 1, 2, 4, ... below ncpus, then
 * ncpus.  Returns how many were written (at most max).
 */
int locks_default_threads(unsigned ncpus, unsigned *out, int max);

/*
 * Whether an overhead figure resolves the lock's cost.  The loop with the
 * lock does all the loop without it does, and more, so an overhead whose
 * 95% CI lies wholly below zero (with no CI: whose median is below zero)
 * says that the reference loop itself ran slower, not what the lock costs:
 * false, and LOCKS_BELOW_REF is what every output says of it.  A CI that
 * reaches zero or above is a figure (a lock cheaper than the noise).
 */
bool locks_resolved(const struct ph_stats *over);
#define LOCKS_BELOW_REF "below the reference: not resolved"

struct ph_lockfig {
	const struct lock_kind *k;
	unsigned threads;
	uint64_t reps;			/* acquisitions per sample, all threads */
	struct ph_result over;		/* per sample: with - without, ns per acquisition */
	struct ph_stats with, without;	/* per acquisition, per repetition */
	bool lost;			/* the protected count came out wrong */
};

struct ph_locks {
	/* the options (in): what locks_plan reads; locks_free frees cpus_given */
	const char *kinds_given;	/* "tas,ticket"; NULL: every kind this build has */
	const char *threads_given;	/* "1,2,8"; NULL: the default */
	struct bitmask *cpus_given;	/* NULL: every CPU this process may run on */
	/* the plan */
	const struct lock_kind **kinds;
	int nkinds;
	unsigned *threads;
	int nthreads;
	int *cpus;			/* n threads run on the first n */
	int ncpus;
	unsigned delay;			/* contend_delay iterations in the critical section */
	int node;			/* the lock's page */
	struct ph_segment seg;
	bool have_seg;
	/* the result, kind after kind, thread count after thread count */
	struct ph_lockfig *figs;
	int nfigs;
};

/*
 * The steps of pagehop locks (steps.h), on a struct ph_locks.  plan, after
 * session_machine: the kinds (PH_EXIT_USAGE for a name not in lock_kinds[],
 * PH_EXIT_UNSUPPORTED for one this build lacks), the thread counts, the
 * CPUs and the node (s->opt->bind.membind, one node; unset: the first CPU's),
 * then the lock's page allocated and read back.  0 or an exit code after
 * the one-line error.
 */
extern const struct ph_steps locks_steps;

extern const char locks_method[];

#endif
