/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kernel_view.h - what Linux derives from a SLIT, computed as the kernel
 * computes it (docs/slit.md section 13 cites the source):
 *   - the scheduler's NUMA levels: one per distinct distance
 *     (kernel/sched/topology.c, sched_init_numa());
 *   - node pairs within node_reclaim's distance, <= RECLAIM_DISTANCE 30
 *     (mm/page_alloc.c, zone_allows_reclaim(); include/linux/topology.h);
 *   - each node's allocation fallback order (mm/page_alloc.c,
 *     build_zonelists() and find_next_best_node()).
 * Pure arithmetic on a distance table.
 */
#ifndef PAGEHOP_KERNEL_VIEW_H
#define PAGEHOP_KERNEL_VIEW_H

#include <stdbool.h>

/* include/linux/topology.h; AMD Zen raises it to 32 (arch/x86/kernel/cpu/amd.c). */
#define PH_RECLAIM_DISTANCE 30
/* include/linux/topology.h: the penalty find_next_best_node() gives a node with CPUs. */
#define PH_PENALTY_FOR_NODE_WITH_CPUS 1
/* MAX_NUMNODES with Debian's NODES_SHIFT 10: node_load is the tie-break below it. */
#define PH_MAX_NUMNODES 1024

struct ph_kernel_view {
	int n;
	int *ids;		/* ascending */
	int nlevels;		/* distinct distances: sched_domains_numa_levels */
	int *levels;		/* those distances, ascending */
	int *order;		/* n * n: row i is node ids[i]'s fallback order, -1 ends it */
	bool *reclaim;		/* n * n: distance <= reclaim_distance */
	int reclaim_distance;
};

/*
 * From n nodes (ids ascending), the distance table dist (n * n, from row
 * to column), which nodes have CPUs and which memory: 0, or -EINVAL when
 * a distance is negative.  Nodes without memory are never fallback
 * targets; a node's own comes first when it has memory.
 */
int kernel_view(int n, const int *ids, const int *dist, const bool *cpus,
		const bool *memory, int reclaim_distance, struct ph_kernel_view *v);
void kernel_view_free(struct ph_kernel_view *v);

/*
 * mm/page_alloc.c, find_next_best_node() over positions 0..n-1: node
 * itself if not used yet, else the unused memory node of least penalised
 * distance (load[] the kernel's node_load, the tie-break); marks it used.
 * -1 when none is left.
 */
int kernel_next_best(int n, const int *dist, const bool *cpus, const bool *memory,
		     const int *load, int node, bool *used);

#endif
