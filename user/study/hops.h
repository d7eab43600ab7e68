/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hops.h - pagehop hops' study: bandwidth (stream kernels) and latency (a
 * chase) against the working-set size, with memory on the CPU's own node
 * and on one node of each remote hop level (scaling_level_nodes over the
 * firmware distances), one thread on one CPU.  Schmidl's write bandwidth
 * per level is --kernels write.
 */
#ifndef PAGEHOP_HOPS_H
#define PAGEHOP_HOPS_H

#include "bandwidth.h"
#include "chase.h"
#include "session.h"
#include "steps.h"

#define HOPS_MAX_LEVELS 8

struct ph_hops_row {
	int level, node, distance;
	uint64_t size;
	const struct stream_kernel *k;	/* NULL: the latency row */
	struct ph_stats st;
	size_t n;
	bool ci_met, verified;
	char psize[32];
};

struct ph_hops {
	/* the options (in), which the command's check fills */
	struct ph_bwstudy kernels;	/* --kernel's, as pagehop stream chooses them: ks, nks */
	int cpu_given;			/* --physcpubind's one CPU, or -1 */
	/* the plan */
	const struct stream_kernel **ks;
	int nks;
	bool latency;
	struct chase_spec pattern;
	uint64_t min, max;		/* powers of two */
	int cpu, cpu_node;
	int nlevels;
	int level[HOPS_MAX_LEVELS], node[HOPS_MAX_LEVELS], distance[HOPS_MAX_LEVELS];
	/* the result */
	struct ph_hops_row *rows;
	int nrows;
};

/*
 * The steps of pagehop hops (steps.h), on a struct ph_hops.  plan, on s's
 * machine: the CPU (cpu_given, -1: the first this process may use) and the
 * node of each hop level from its node; 0, or PH_EXIT_USAGE after one line
 * (no such CPU, min above max, not powers of two).  measure: every size,
 * level and figure, each size on memory of its own; 0 or an exit code.
 */
extern const struct ph_steps hops_steps;

#endif
