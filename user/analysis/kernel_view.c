// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel_view.c - the scheduler's NUMA levels, node_reclaim's reach and
 * the page allocator's fallback order, from a SLIT, as Linux 6.12 derives
 * them (kernel_view.h names the functions; docs/slit.md section 13).
 */
#include "kernel_view.h"
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/*
 * sched_init_numa(): a bitmap of every distance in the table; each set
 * bit is one level, the local distance included.
 */
static void levels(int n, const int *dist, struct ph_kernel_view *v)
{
	int *all = xmalloc((size_t)(n > 0 ? n * n : 1) * sizeof(int));

	memcpy(all, dist, (size_t)n * n * sizeof(int));
	qsort(all, (size_t)n * n, sizeof(int), cmp_int);
	v->levels = xmalloc((size_t)(n > 0 ? n * n : 1) * sizeof(int));
	for (int k = 0; k < n * n; k++)
		if (!k || all[k] != all[k - 1])
			v->levels[v->nlevels++] = all[k];
	free(all);
}

/*
 * find_next_best_node(): the local node first if not used yet; then the
 * unused memory node of least (distance + (n < node) + penalty if it has
 * CPUs) * MAX_NUMNODES + node_load[n], the lowest id on a tie (the loop
 * takes only a strictly smaller value).
 */
int kernel_next_best(int n, const int *dist, const bool *cpus, const bool *memory,
		     const int *load, int node, bool *used)
{
	long best_val = LONG_MAX;
	int best = -1;

	if (!used[node]) {
		used[node] = true;
		return node;
	}
	for (int k = 0; k < n; k++) {
		long val;

		if (!memory[k] || used[k])
			continue;
		val = dist[node * n + k];
		val += k < node;
		if (cpus[k])
			val += PH_PENALTY_FOR_NODE_WITH_CPUS;
		val *= PH_MAX_NUMNODES;
		val += load[k];
		if (val < best_val) {
			best_val = val;
			best = k;
		}
	}
	if (best >= 0)
		used[best] = true;
	return best;
}

/* A fallback candidate: find_next_best_node()'s value for it, and its position. */
struct candidate {
	long val;
	int k;
};

static int cmp_candidate(const void *a, const void *b)
{
	const struct candidate *x = a, *y = b;

	if (x->val != y->val)
		return (x->val > y->val) - (x->val < y->val);
	return (x->k > y->k) - (x->k < y->k);	/* the lowest id on a tie */
}

/*
 * __build_all_zonelists() clears node_load, then build_zonelists() for
 * each node in order: node_load[] of the first node of each new distance
 * group goes up by one, so later nodes spread their fallbacks round-robin
 * over the nodes of a group.  Indexes here are positions in ids, in the
 * same ascending order as node ids.
 *
 * The kernel calls find_next_best_node() once per step, each call a pass
 * over every node: N^3 over N nodes, seconds at 1024.  Within one node's
 * list, though, the only node_load[] that changes is that of the node just
 * taken, which is then used: every other candidate keeps its value.  So
 * the steps take the unused memory nodes in ascending (value, id), the
 * order kernel_next_best() would give one at a time, and one sort per node
 * gives the list (test_kernel_view.c checks it against kernel_next_best()
 * step by step on random tables).
 */
static void fallback(int n, const int *dist, const bool *cpus, const bool *memory,
		     struct ph_kernel_view *v)
{
	int *load = xcalloc((size_t)(n ? n : 1), sizeof(int));
	struct candidate *c = xcalloc((size_t)(n ? n : 1), sizeof(*c));

	for (int local = 0; local < n; local++) {
		int prev = local, k = 0, nc = 0;

		/* The node itself first (a memoryless node is listed by the kernel, with no zones). */
		if (memory[local])
			v->order[local * n + k++] = v->ids[local];
		for (int j = 0; j < n; j++) {
			long val;

			if (!memory[j] || j == local)
				continue;
			val = dist[local * n + j];
			val += j < local;
			if (cpus[j])
				val += PH_PENALTY_FOR_NODE_WITH_CPUS;
			c[nc++] = (struct candidate){ val * PH_MAX_NUMNODES + load[j], j };
		}
		qsort(c, (size_t)nc, sizeof(*c), cmp_candidate);
		for (int i = 0; i < nc; i++) {
			int node = c[i].k;

			if (dist[local * n + node] != dist[local * n + prev])
				load[node]++;
			prev = node;
			v->order[local * n + k++] = v->ids[node];
		}
		for (; k < n; k++)
			v->order[local * n + k] = -1;
	}
	free(load);
	free(c);
}

int kernel_view(int n, const int *ids, const int *dist, const bool *cpus,
		const bool *memory, int reclaim_distance, struct ph_kernel_view *v)
{
	memset(v, 0, sizeof(*v));
	for (int k = 0; k < n * n; k++)
		if (dist[k] < 0)
			return -EINVAL;
	v->n = n;
	v->reclaim_distance = reclaim_distance;
	v->ids = xmalloc((size_t)(n ? n : 1) * sizeof(int));
	memcpy(v->ids, ids, (size_t)n * sizeof(int));
	v->order = xmalloc((size_t)(n > 0 ? n * n : 1) * sizeof(int));
	v->reclaim = xcalloc((size_t)(n > 0 ? n * n : 1), sizeof(bool));
	levels(n, dist, v);
	fallback(n, dist, cpus, memory, v);
	for (int k = 0; k < n * n; k++)
		v->reclaim[k] = dist[k] <= reclaim_distance;
	return 0;
}

void kernel_view_free(struct ph_kernel_view *v)
{
	free(v->ids);
	free(v->levels);
	free(v->order);
	free(v->reclaim);
	memset(v, 0, sizeof(*v));
}
