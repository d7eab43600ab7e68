/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * scale.h - pagehop scale's study: one bandwidth kernel against the thread
 * count, the threads placed by a rule (placement.h), a fixed size per
 * thread, memory local, on named nodes or interleaved as the session says.
 * Per count: the aggregate, per thread, efficiency against the fewest
 * threads, the placement read back; over the counts, the saturation knee;
 * optionally each thread's own figure and Bassi's single against multi.
 */
#ifndef PAGEHOP_SCALE_H
#define PAGEHOP_SCALE_H

#include "bandwidth.h"
#include "placement.h"
#include "onekernel.h"
#include "session.h"
#include "steps.h"

struct bitmask;

struct ph_scale_row {
	int threads;
	struct ph_bandwidth bw;		/* with per-thread figures */
	int *cpus_now;			/* per thread: sched_getcpu() in the thread */
	int *nodes_found;		/* per thread: its memory's node as read back */
	struct ph_place_found found;	/* the CPUs read back, against hwloc's relations */
	char cpus[256];			/* cpus_now as text */
	char node[256], psize[64];	/* the memory as found (session_found) */
	const char *backend;
	bool verified;
};

struct ph_scale {
	/* the options (in), which the command fills; scale_free frees them */
	struct common_study c;		/* --kernel, --isa, --nt, --placement, --size-per-thread */
	int *counts_given;		/* --threads-list, ascending; NULL: the default */
	int ncounts_given;
	struct ph_bwstudy kernel;	/* c's kernel, planned by the command's check */
	/* the plan */
	const struct stream_kernel *k;
	enum ph_place place;
	int *counts;			/* ascending */
	int ncounts;
	uint64_t size_per_thread;
	bool per_thread;		/* table threads: each thread's figure per count */
	bool single;			/* Bassi: the largest count's threads, each alone */
	struct ph_pu *pus;		/* the CPUs the placement may take */
	int npus;
	int *order;			/* CPUs of the largest count, in placement order */
	/* the result */
	struct ph_scale_row *rows;
	int nrows;
	struct ph_bandwidth *alone;	/* per thread of the last row, run alone */
	int nalone;
	int knee;			/* index into rows, or -1 (scaling_knee) */
};

/*
 * The steps of pagehop scale (steps.h), on a struct ph_scale whose k,
 * place and size_per_thread the command's check set.  plan, on s's machine
 * (session_machine done): the PUs of --cpunodebind's nodes (none: all),
 * counts_given (NULL: 1 up to as many threads as the placement can take
 * there) and the placement of the largest count; 0, or an exit code after
 * one line on stderr: PH_EXIT_USAGE for a count the nodes cannot hold,
 * PH_EXIT_UNSUPPORTED for shared without SMT.  measure, for each count: bind its threads to the placement's first CPUs, lay out
 * size_per_thread on each thread's node (the session's memory policy),
 * verify, measure, read the CPUs back, and free it again; 0 or an exit
 * code.  document: tables scale (a row per count), threads, single_multi;
 * section scaling.
 */
extern const struct ph_steps scale_steps;

#endif
