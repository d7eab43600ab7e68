// SPDX-License-Identifier: GPL-2.0-only
/*
 * hops.c - working-set sweeps per hop level (pagehop hops).
 */
#include "hops.h"
#include "progress.h"
#include "chain.h"
#include "latency.h"
#include "scaling.h"
#include "util.h"

#include <numa.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

static int hops_plan(void *state, struct ph_session *s)
{
	struct ph_hops *h = state;
	int cpu = h->cpu_given;
	const struct ph_topology *t = &s->m.topo;
	bool *has_mem = xcalloc((size_t)t->nnodes, sizeof(bool));
	int nodes[HOPS_MAX_LEVELS], *hops, from, n = t->nnodes;
	cpu_set_t allowed;

	if (!pow2(h->min) || !pow2(h->max) || h->min > h->max) {
		ph_err("--min %llu, --max %llu: expected powers of two, --min at most --max",
		       (unsigned long long)h->min, (unsigned long long)h->max);
		free(has_mem);
		return PH_EXIT_USAGE;
	}
	CPU_ZERO(&allowed);
	sched_getaffinity(0, sizeof(allowed), &allowed);
	for (int c = 0; cpu < 0 && c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &allowed))
			cpu = c;
	h->cpu = cpu;
	h->cpu_node = numa_node_of_cpu(cpu);
	from = topology_index(t, h->cpu_node);
	if (from < 0) {
		ph_err("--physcpubind %d: no such CPU on a node", cpu);
		free(has_mem);
		return PH_EXIT_USAGE;
	}
	for (int i = 0; i < n; i++)
		has_mem[i] = t->nodes[i].has_memory;
	h->nlevels = scaling_level_nodes(n, t->distance, has_mem, from, nodes, HOPS_MAX_LEVELS);
	hops = xcalloc((size_t)(n * n), sizeof(int));
	scaling_hop_levels(n, t->distance, hops);
	for (int k = 0; k < h->nlevels; k++) {
		h->level[k] = hops[from * n + nodes[k]];
		h->node[k] = t->nodes[nodes[k]].id;
		h->distance[k] = t->distance[from * n + nodes[k]];
	}
	free(hops);
	free(has_mem);
	return 0;
}

static struct ph_hops_row *new_row(struct ph_hops *h, int k, uint64_t size,
				   const struct stream_kernel *kern, const struct ph_result *res,
				   struct ph_session *s)
{
	struct ph_hops_row *r = xappend(&h->rows, &h->nrows, sizeof(*r));
	char nodes[64];

	memset(r, 0, sizeof(*r));
	r->level = h->level[k];
	r->node = h->node[k];
	r->distance = h->distance[k];
	r->size = size;
	r->k = kern;
	r->st = res->st;
	r->n = res->n;
	r->ci_met = res->ci_met;
	r->verified = s->all_verified;
	session_found(s, nodes, sizeof(nodes), r->psize, sizeof(r->psize));
	return r;
}

/* One level at one size: lay out, verify, each figure, read back, free. */
static int measure_one(struct ph_hops *h, struct ph_session *s, int k, uint64_t size)
{
	struct ph_bindopts one = {
		.physcpubind = numa_allocate_cpumask(),
		.membind = numa_allocate_nodemask(),
		.threads = 1,
	};
	struct ph_layout lay = session_layout(s);
	int first = h->nrows, rc;

	numa_bitmask_setbit(one.physcpubind, (unsigned)h->cpu);
	numa_bitmask_setbit(one.membind, (unsigned)h->node[k]);
	lay.size = size;
	rc = session_start_bind(s, &one, &lay, 1);
	for (int i = 0; !rc && i < h->nks && !ph_interrupted; i++) {
		struct ph_bandwidth bw;

		rc = bandwidth_figure(s, h->ks[i], &bw);
		if (bw.res.n)
			new_row(h, k, size, h->ks[i], &bw.res, s);
		bandwidth_free(&bw);
	}
	if (!rc && h->latency && !ph_interrupted) {
		struct ph_latency lat;

		rc = latency_figure(s, &h->pattern, 1, false, &lat);
		if (lat.user.n)
			new_row(h, k, size, NULL, &lat.user, s);
		latency_free(&lat);
	}
	if (!rc && !session_still_verified(s)) {
		for (int i = first; i < h->nrows; i++)
			h->rows[i].verified = false;
		rc = PH_EXIT_FAIL;
	}
	session_stop(s);
	bindopts_free(&one);
	return rc;
}

static int hops_measure(void *state, struct ph_session *s)
{
	struct ph_hops *h = state;
	int rc = 0, sizes = 0;
	uint64_t all[64];
	struct chain_orders orders;

	for (uint64_t size = h->min; size <= h->max && sizes < 64; size *= 2)
		all[sizes++] = size;
	/*
	 * A random pattern's chains, every size's at every level, derive from
	 * one order over the largest (chain.h), computed in the first step.
	 */
	chain_orders_plan(&orders, all, sizes, h->pattern.seed);
	s->orders = &orders;
	progress_begin(sizes * h->nlevels, "hops");
	for (uint64_t size = h->min; size <= h->max && !rc && !ph_interrupted; size *= 2)
		for (int k = 0; k < h->nlevels && !rc && !ph_interrupted; k++) {
			progress_step("%llu KiB on node %d (level %d)", (unsigned long long)(size / KiB),
				      h->node[k], h->level[k]);
			rc = measure_one(h, s, k, size);
		}
	s->orders = NULL;
	chain_orders_free(&orders);
	return rc;
}

static bool hops_measured(const void *state)
{
	return ((const struct ph_hops *)state)->nrows > 0;
}

static struct ph_doc *hops_doc(void *state, struct ph_session *s, int *rc)
{
	const struct ph_hops *h = state;
	struct ph_doc *doc = doc_new("hops");
	struct ph_table *t = doc_add_table(doc, "hops", "bandwidth and latency against the working set, per hop level");
	struct ph_section *sec;
	static const char *const cols[] = {
		"level", "mem_node", "distance", "size_KiB", "figure", "bw_GBps", "lat_ns", "ci_lo",
		"ci_hi", "ci_met", "samples", "cpu", "cpu_node", "page_size", "verified",
	};

	for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
		table_add_col(t, cols[i]);
	table_detail(t, "ci_met samples");
	for (int i = 0; i < h->nrows; i++) {
		const struct ph_hops_row *r = &h->rows[i];
		int row = table_add_row(t);

		table_int(t, row, "level", r->level);
		table_int(t, row, "mem_node", r->node);
		table_int(t, row, "distance", r->distance);
		table_int(t, row, "size_KiB", (long long)(r->size / KiB));
		table_str(t, row, "figure", r->k ? r->k->name : "latency");
		table_num(t, row, r->k ? "bw_GBps" : "lat_ns", r->st.median, "%.2f");
		table_num(t, row, "ci_lo", r->st.ci_lo, "%.2f");
		table_num(t, row, "ci_hi", r->st.ci_hi, "%.2f");
		table_bool(t, row, "ci_met", r->ci_met);
		table_int(t, row, "samples", (long long)r->n);
		table_int(t, row, "cpu", h->cpu);
		table_int(t, row, "cpu_node", h->cpu_node);
		table_str(t, row, "page_size", r->psize);
		table_bool(t, row, "verified", r->verified);
	}
	sec = doc_add_section(doc, "hops_method", "hops");
	section_int(sec, "cpu", h->cpu);
	section_int(sec, "cpu_node", h->cpu_node);
	section_int(sec, "levels", h->nlevels);
	section_str(sec, "level",
		    "0 the CPU's own node; k: 1 + the distinct firmware distances below the node's in the CPU node's row; the lowest-numbered node with memory stands for its level");
	section_str(sec, "sizes", "powers of two from --min to --max, each on memory of its own, laid out and read back on the level's node");
	section_str(sec, "sample", bandwidth_method);
	session_describe(s, doc);
	(void)rc;
	return doc;
}

static void hops_free(void *state, struct ph_session *s)
{
	struct ph_hops *h = state;

	free(h->rows);
	free(h->ks);
	bandwidth_study_free(&h->kernels, s);
	memset(h, 0, sizeof(*h));
}

/* Each level binds its own CPU and node: the command's study says PH_STUDY_BINDS_ITSELF. */
const struct ph_steps hops_steps = {
	.size = sizeof(struct ph_hops),
	.plan = hops_plan,
	.measure = hops_measure,
	.measured = hops_measured,
	.document = hops_doc,
	.free = hops_free,
};
