/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * topology.h - NUMA nodes, their memory and hugepage pools, the firmware's
 * SLIT and HMAT as the kernel exposes them, and the THP mode.  Nodes and
 * distances come from libnuma; what libnuma does not cover (per-node
 * hugepage pools, HMAT) from sysfs.
 */
#ifndef PAGEHOP_TOPOLOGY_H
#define PAGEHOP_TOPOLOGY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nmatrix.h"

/* Hugepage pool of one node; total == -1 where the size is unsupported. */
struct ph_hugepool {
	int64_t total;
	int64_t free;
};

struct ph_node {
	int id;
	char cpulist[256];	/* the kernel's own text, e.g. "0-3,8" */
	int ncpus;
	bool has_memory;
	uint64_t mem_total;	/* bytes */
	uint64_t mem_free;	/* bytes */
	struct ph_hugepool hp_2m;
	struct ph_hugepool hp_1g;
};

struct ph_topology {
	int nnodes;
	struct ph_node *nodes;	/* ascending node id */
	int *distance;		/* nnodes x nnodes, numa_distance() */
	int nhmat;
	struct ph_hmat *hmat;	/* per memory node and access class (nmatrix.h) */
	char thp_enabled[32];	/* the bracketed choice: always/madvise/never */
	char thp_defrag[32];
	bool hugetlb_2m;	/* the kernel offers the size at all */
	bool hugetlb_1g;
};

/* 0, or -errno (-ENOSYS when the kernel has no NUMA support). */
int topology_load(struct ph_topology *t);
void topology_free(struct ph_topology *t);
/* Index of node id in t->nodes, or -1. */
int topology_index(const struct ph_topology *t, int node);
int topology_distance(const struct ph_topology *t, int from, int to);

/* The selected word of a sysfs choice list "always [madvise] never". */
int sysfs_choice(const char *path, char *out, size_t size);

#endif
