/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * wi_study.h - pagehop interleave's study: read bandwidth from the CPUs
 * of one node over memory laid out on a set of nodes in each of these
 * ways: every node alone (the CPU node's own is "DRAM only"), plain
 * interleave (MPOL_INTERLEAVE), the kernel's weighted interleave
 * (MPOL_WEIGHTED_INTERLEAVE with the weights sysfs holds; Linux 6.9+),
 * the weights pagehop proposes from the nodes' measured bandwidth
 * (wi_layout_propose), and a few candidates around the proposal.  Every
 * layout's pages are counted back per node through move_pages and
 * compared with what its weights predict (wi_layout.h); the gains over
 * plain interleave and over DRAM only are ratios of medians with their
 * bootstrap CIs (ratio_ci.h).  sysfs is only read, never written.
 */
#ifndef PAGEHOP_WI_STUDY_H
#define PAGEHOP_WI_STUDY_H

#include "bandwidth.h"
#include "buffer.h"
#include "cxl.h"
#include "ratio_ci.h"
#include "session.h"
#include "steps.h"
#include "wi_sysfs.h"

struct bitmask;

enum ph_wi_kind {
	PH_WIK_NODE = 1,	/* one node alone: MPOL_BIND */
	PH_WIK_INTERLEAVE,	/* MPOL_INTERLEAVE over the nodes */
	PH_WIK_KERNEL,		/* MPOL_WEIGHTED_INTERLEAVE, sysfs weights */
	PH_WIK_PROPOSED,	/* pagehop's round robin, the proposal */
	PH_WIK_SEARCH,		/* pagehop's round robin, a candidate */
};

struct ph_wi_row {
	enum ph_wi_kind kind;
	char name[32];			/* "dram", "node2", "interleave", "kernel", "proposed", "search1" */
	int node;			/* PH_WIK_NODE's node */
	int weights[PH_WL_MAX_NODES];	/* per node of the study's nodes[] (a node alone: 1 there, 0 elsewhere) */
	char how[320];			/* how the layout was made */
	bool skipped;			/* not measured: why says why */
	char why[256];
	struct ph_bandwidth bw;
	uint64_t npages;		/* 4 KiB pages over all segments */
	uint64_t counted[PH_WL_MAX_NODES];	/* per node of nodes[], by move_pages */
	uint64_t expected[PH_WL_MAX_NODES];	/* what the weights predict */
	uint64_t node_pages;		/* PH_WIK_NODE: pages found on its node */
	uint64_t elsewhere;		/* pages on no node of the layout's, or not found */
	bool exact;			/* expected is exact (pagehop's layouts, a node alone); else within a cycle */
	bool counts_match;
	bool moved;			/* the counts after measuring differ from those before */
	struct ratio_ci vs_interleave, vs_dram;
	enum ratio_shown shown_il, shown_dram;
};

struct ph_wi {
	/* the options (in) */
	int cpu_node_given;		/* --cpu-node, or -1 */
	struct bitmask *nodes_given;	/* --nodes, or NULL: every node with memory */
	unsigned search;		/* --search: candidates around the proposal */
	struct ph_bwstudy kernel;	/* read, planned by the command's check */
	/* the plan */
	const struct stream_kernel *k;
	int cpu_node;
	int n;
	int nodes[PH_WL_MAX_NODES];	/* ascending */
	struct ph_node_kind_of kind[PH_WL_MAX_NODES];	/* per node of nodes[] (cxl_node_kind) */
	struct ph_wi_sysfs sys;
	int wi_err;			/* buffer_weighted_probe's, 0: the kernel has it */
	char wi_why[256];
	int proposal[PH_WL_MAX_NODES];
	/* the result */
	struct ph_wi_row *rows;
	int nrows, cap;
	int dram, interleave;		/* row indexes, -1: none */
	int mismatches;
};

/*
 * The steps (steps.h).  plan: the CPU node (--cpu-node, or the node of the
 * CPU running plan) and --nodes, at least two nodes with memory
 * (PH_EXIT_USAGE for a node without memory or fewer than two, and
 * PH_EXIT_UNSUPPORTED when the machine has fewer than two), each node's
 * kind (CXL, DRAM, CPU-less or unknown, from /sys/bus/cxl and the node's
 * cpulist: cxl_node_kind), the sysfs weights, whether the kernel has
 * MPOL_WEIGHTED_INTERLEAVE.  measure:
 * each layout in turn, laid out, counted back and measured; 0, or an exit
 * code (PH_EXIT_UNSUPPORTED when nothing could be measured).  document:
 * tables nodes, layouts and pages, section interleave.  A layout whose counts
 * do not match its weights, or moved, makes measure return PH_EXIT_FAIL.
 */
extern const struct ph_steps wi_steps;

#endif
