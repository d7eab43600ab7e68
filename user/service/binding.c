// SPDX-License-Identifier: GPL-2.0-only
/*
 * binding.c - threads to CPUs, memory to nodes.
 */
#include "binding.h"
#include "cpu.h"
#include "util.h"

#include <errno.h>
#include <numa.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The node with memory nearest to from, within set (or any if set is NULL). */
static int nearest_node(int from, const struct bitmask *set)
{
	int best = -1, bestd = 0;

	for (int m = 0; m <= numa_max_node(); m++) {
		long long freeb;
		int d;

		if (set ? !numa_bitmask_isbitset(set, (unsigned)m) :
			  !numa_bitmask_isbitset(numa_nodes_ptr, (unsigned)m))
			continue;
		if (numa_node_size64(m, &freeb) <= 0)
			continue;	/* a CPU-only node holds no memory */
		d = from == m ? 0 : numa_distance(from, m);
		if (best < 0 || d < bestd) {
			best = m;
			bestd = d;
		}
	}
	return best;
}

int binding_resolve(const struct ph_bindopts *o, const struct ph_cpu *cpu,
		    unsigned default_threads, struct ph_binding *b,
		    char *why, size_t whylen)
{
	struct bitmask *set = numa_allocate_cpumask();
	struct bitmask *allowed = numa_allocate_cpumask();
	int ncpus = numa_num_possible_cpus(), ordered = 0, *order;
	unsigned want;
	int err = -EINVAL;

	memset(b, 0, sizeof(*b));
	numa_sched_getaffinity(0, allowed);
	if (o->physcpubind) {
		copy_bitmask_to_bitmask(o->physcpubind, set);
	} else if (o->cpunodebind) {
		for (int n = 0; n <= numa_max_node(); n++) {
			struct bitmask *nc;

			if (!numa_bitmask_isbitset(o->cpunodebind, (unsigned)n))
				continue;
			nc = numa_allocate_cpumask();
			if (!numa_node_to_cpus(n, nc))
				for (int c = 0; c < ncpus; c++)
					if (numa_bitmask_isbitset(nc, (unsigned)c))
						numa_bitmask_setbit(set, (unsigned)c);
			numa_free_cpumask(nc);
		}
	} else {
		copy_bitmask_to_bitmask(allowed, set);
	}
	for (int c = 0; c < ncpus; c++)
		if (numa_bitmask_isbitset(set, (unsigned)c) &&
		    !numa_bitmask_isbitset(allowed, (unsigned)c)) {
			snprintf(why, whylen, "CPU %d is not in this process's allowed CPUs", c);
			goto out;
		}
	if (!numa_bitmask_weight(set)) {
		snprintf(why, whylen, "the CPU set is empty (a node without CPUs?)");
		goto out;
	}

	/* Distinct cores first: the first PU of every core, then the second... */
	order = xcalloc((size_t)ncpus, sizeof(int));
	for (int round = 0; round < 16; round++)
		for (int k = 0; k < cpu->ncore_list; k++) {
			const struct ph_core *pc = &cpu->core_list[k];

			if (round < pc->npus && round < (int)ARRAY_SIZE(pc->pu_ids) &&
			    numa_bitmask_isbitset(set, (unsigned)pc->pu_ids[round]))
				order[ordered++] = pc->pu_ids[round];
		}
	if (!ordered) {
		/* hwloc saw no cores: take the set in CPU order. */
		for (int c = 0; c < ncpus; c++)
			if (numa_bitmask_isbitset(set, (unsigned)c))
				order[ordered++] = c;
	}
	want = o->threads ? o->threads : default_threads;
	if (!want) {
		/* One per core: the CPUs that came first in a round of their own core. */
		for (int k = 0; k < cpu->ncore_list; k++)
			for (int r = 0; r < cpu->core_list[k].npus && r < 16; r++)
				if (numa_bitmask_isbitset(set, (unsigned)cpu->core_list[k].pu_ids[r])) {
					want++;
					break;
				}
		if (!want)
			want = (unsigned)ordered;
	}
	if ((int)want > ordered) {
		char text[256];

		ints_text(order, ordered, text, sizeof(text));
		snprintf(why, whylen, "%u threads asked, but the CPU set (%s) has %d CPUs",
			 want, text, ordered);
		free(order);
		goto out;
	}
	b->n = (int)want;
	b->cpus = xcalloc(want, sizeof(int));
	b->nodes = xcalloc(want, sizeof(int));
	for (int i = 0; i < b->n; i++) {
		int cnode = numa_node_of_cpu(order[i]);

		b->cpus[i] = order[i];
		b->nodes[i] = o->interleave ? -1 : nearest_node(cnode, o->membind);
		if (!o->interleave && b->nodes[i] < 0) {
			snprintf(why, whylen, "no node with memory for CPU %d", order[i]);
			free(order);
			binding_free(b);
			goto out;
		}
	}
	free(order);
	ints_text(b->cpus, b->n, b->cpus_text, sizeof(b->cpus_text));
	if (o->interleave) {
		int ids[1024], k = 0;

		for (int m = 0; m <= numa_max_node() && k < 1024; m++)
			if (numa_bitmask_isbitset(o->interleave, (unsigned)m))
				ids[k++] = m;
		ints_text(ids, k, b->nodes_text + 11, sizeof(b->nodes_text) - 11);
		memcpy(b->nodes_text, "interleave:", 11);
	} else {
		/* The distinct nodes, in thread order. */
		int ids[1024], k = 0;

		for (int i = 0; i < b->n; i++) {
			int j;

			for (j = 0; j < k && ids[j] != b->nodes[i]; j++)
				;
			if (j == k && k < 1024)
				ids[k++] = b->nodes[i];
		}
		ints_text(ids, k, b->nodes_text, sizeof(b->nodes_text));
	}
	err = 0;
out:
	numa_free_cpumask(set);
	numa_free_cpumask(allowed);
	return err;
}

int binding_node_cpus(int node, int **out)
{
	struct bitmask *allowed = numa_allocate_cpumask(), *nc = numa_allocate_cpumask();
	int ncpus = numa_num_possible_cpus(), n = 0;
	bool use_node;

	numa_sched_getaffinity(0, allowed);
	use_node = node >= 0 && !numa_node_to_cpus(node, nc);
	*out = xcalloc((size_t)ncpus, sizeof(int));
	for (int pass = use_node ? 0 : 1; pass < 2 && !n; pass++)
		for (int c = 0; c < ncpus; c++)
			if (numa_bitmask_isbitset(allowed, (unsigned)c) &&
			    (pass || numa_bitmask_isbitset(nc, (unsigned)c)))
				(*out)[n++] = c;
	numa_free_cpumask(allowed);
	numa_free_cpumask(nc);
	return n;
}

void binding_free(struct ph_binding *b)
{
	free(b->cpus);
	free(b->nodes);
	memset(b, 0, sizeof(*b));
}

void bindopts_free(struct ph_bindopts *o)
{
	struct bitmask **all[] = { &o->membind, &o->interleave, &o->cpunodebind, &o->physcpubind };

	for (size_t i = 0; i < ARRAY_SIZE(all); i++)
		if (*all[i]) {
			numa_bitmask_free(*all[i]);
			*all[i] = NULL;
		}
}
