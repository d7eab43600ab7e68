/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * placement.h - which CPUs a team of threads runs on, by a rule over the
 * machine's nodes, packages, cores and SMT siblings (hwloc's, via cpu.h):
 * compact, scatter, exclusive, shared.  Pure over a list of PUs, so that
 * the rules are tested on made-up machines; placement_pus() builds the list
 * for this one.  Used by pagehop scale; any study that places threads may.
 */
#ifndef PAGEHOP_PLACEMENT_H
#define PAGEHOP_PLACEMENT_H

#include <stddef.h>

struct bitmask;
struct ph_cpu;

/* One processing unit (hardware thread) and what it belongs to. */
struct ph_pu {
	int cpu;	/* OS CPU number */
	int core;	/* machine-wide core index: PUs with the same are siblings */
	int package;
	int node;	/* NUMA node of the CPU */
};

enum ph_place {
	PH_PLACE_COMPACT = 1,	/* fill a node before the next (distinct cores first) */
	PH_PLACE_SCATTER,	/* round robin over the nodes, spread over each node's cores */
	PH_PLACE_EXCLUSIVE,	/* one thread per core, never two on one core */
	PH_PLACE_SHARED,	/* both (all) siblings of a core before the next core */
};

/* 0, or -EINVAL for a name that is none of the four. */
int place_parse(const char *name, enum ph_place *out);
const char *place_name(enum ph_place p);
/* "compact, scatter, exclusive or shared" */
const char *place_list(void);

/*
 * This machine's PUs that this process may run on, on the nodes of
 * cpunodes (NULL: every node), ordered by node, package, core, CPU.
 * *out is malloc'd; returns the count (0: none) .
 */
int placement_pus(const struct ph_cpu *cpu, const struct bitmask *cpunodes,
		  struct ph_pu **out);

/*
 * The first n CPUs by rule p over pus (any order; the rule sorts), into
 * cpus[0..n).  0; -EINVAL when the PUs cannot hold n threads by that rule
 * (more threads than PUs, or than cores for exclusive), -EOPNOTSUPP for
 * shared when no core has two PUs (no SMT); why says which, in one line.
 */
int placement_order(enum ph_place p, const struct ph_pu *pus, int npus, int n,
		    int *cpus, char *why, size_t whylen);

/*
 * How many threads rule p can place on pus: every PU, or one per core for
 * exclusive.
 */
int placement_capacity(enum ph_place p, const struct ph_pu *pus, int npus);

/* What a set of CPUs amounts to, read back against the PUs' relations. */
struct ph_place_found {
	int threads;
	int cores;		/* distinct cores */
	int shared_cores;	/* cores running more than one of the threads */
	int packages;		/* distinct packages */
	int nnodes;		/* distinct nodes */
	int unknown;		/* CPUs not among the PUs */
	char nodes[128];	/* "0,1" in first-seen order */
};
void placement_describe(const struct ph_pu *pus, int npus, const int *cpus, int n,
			struct ph_place_found *f);

#endif
