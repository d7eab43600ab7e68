/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cpurel.h - how close two CPUs are: the same core (SMT siblings), the same
 * L3, the same NUMA node, the same socket, or other sockets; from hwloc,
 * for the contention studies' summaries by relation.
 */
#ifndef PAGEHOP_CPUREL_H
#define PAGEHOP_CPUREL_H

/* Where one CPU sits: hwloc logical indexes (-1 where there is none). */
struct ph_cpuplace {
	int cpu;	/* OS id */
	int core;
	int l3;		/* the L3 (or, with none, last-level) cache it shares */
	int node;	/* OS id of the NUMA node whose CPUs include it */
	int package;
};

/* The closest level two CPUs share, from nearest to farthest. */
enum ph_cpurel {
	PH_REL_SELF = 0,
	PH_REL_SMT = 1,		/* one core */
	PH_REL_L3,		/* one L3 cache (or CCX), two cores */
	PH_REL_NODE,		/* one NUMA node, two L3s */
	PH_REL_SOCKET,		/* one package, two nodes */
	PH_REL_REMOTE,		/* two packages */
	PH_REL_COUNT,
};

/* "smt", "l3", "node", "socket", "remote" ("self" for 0). */
const char *cpurel_name(enum ph_cpurel r);

/*
 * The relation of a and b: the first level of the list above they share.
 * A level unknown for either (-1) is not shared.
 */
enum ph_cpurel cpurel_classify(const struct ph_cpuplace *a, const struct ph_cpuplace *b);

/*
 * Fill places[i] for the OS CPU ids cpus[i] from the machine's hwloc
 * topology, or from a synthetic one (hwloc's syntax, e.g.
 * "pack:2 [numa] l3:2 core:2 pu:2", for tests; NULL: this machine).
 * 0, or -errno (-ENOENT: a CPU hwloc does not know).
 */
int cpurel_places(const char *synthetic, const int *cpus, int n, struct ph_cpuplace *places);

#endif
