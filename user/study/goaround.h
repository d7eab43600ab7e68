/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * goaround.h - pagehop goaround's study, Schmidl's mem_go_around: T
 * threads placed by a rule (placement.h), each with a block of memory
 * laid out and verified on its own CPU's node; in turn k every thread at
 * once streams the block of thread (t + k) mod T.  Per turn: the
 * aggregate and each thread's bandwidth with their CIs, the share of
 * threads on remote memory and the mean hop level and SLIT distance
 * (scaling.h's goaround_shape), under the whole team's load.
 */
#ifndef PAGEHOP_GOAROUND_H
#define PAGEHOP_GOAROUND_H

#include "bandwidth.h"
#include "placement.h"
#include "scaling.h"
#include "onekernel.h"
#include "session.h"
#include "steps.h"

struct bitmask;

struct ph_goaround_row {
	struct ph_turn_shape shape;	/* from the nodes read back */
	struct ph_bandwidth bw;		/* with per-thread figures */
};

struct ph_goaround {
	/* the options (in), which the command fills; goaround_free frees them */
	struct common_study c;		/* --kernel, --isa, --nt, --placement, --size-per-thread */
	int *turns_given;		/* --turns, ascending; NULL: goaround_turns' default */
	int nturns_given;
	struct ph_bwstudy kernel;	/* c's kernel, planned by the command's check */
	/* the plan */
	const struct stream_kernel *k;
	enum ph_place place;
	int nthreads;			/* T */
	uint64_t size_per_thread;
	int *turns;			/* ascending, each < T */
	int nturns;
	int *order;			/* the T CPUs in placement order */
	/* the result */
	int *cpus_now;			/* per thread: sched_getcpu() in the thread */
	int *cpu_node, *mem_node;	/* per thread: node ids, its CPU's and its block's as read back */
	int nnodes;			/* the topology's, for dist and hops */
	int *dist, *hops;		/* nnodes x nnodes, by node index */
	struct ph_goaround_row *rows;
	int nrows;
};

/*
 * The steps of pagehop goaround (steps.h), on a struct ph_goaround whose
 * k, place and size_per_thread the command's check set.  plan, on s's
 * machine (session_machine done): --threads (0: every PU the placement may
 * take on --cpunodebind's nodes, none: all nodes) placed by g->place, and
 * turns_given; 0, or an exit code after one line on stderr: PH_EXIT_USAGE
 * for more threads than the nodes hold or a turn not below T,
 * PH_EXIT_UNSUPPORTED for shared without SMT.  measure: bind the team, lay out and verify each thread's block on its own node
 * (a thread whose CPU's node has no memory: PH_EXIT_UNSUPPORTED; a block
 * found elsewhere: PH_EXIT_FAIL unless --allow-unverified), then measure
 * every turn; 0 or an exit code.  document: tables goaround (a row per
 * turn) and threads (per turn and thread); section goaround; the run and
 * the buffers.
 */
extern const struct ph_steps goaround_steps;

#endif
