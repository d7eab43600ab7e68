// SPDX-License-Identifier: GPL-2.0-only
/*
 * goaround.c - mem_go_around (pagehop goaround): every thread's block on
 * its own node, then turn by turn every thread on another thread's block.
 */
#include "goaround.h"
#include "progress.h"
#include "util.h"

#include <errno.h>
#include <numa.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* --cpunodebind and --threads choose the placement's CPUs; it binds them. */
static int goaround_plan(void *state, struct ph_session *s)
{
	struct ph_goaround *g = state;
	const struct bitmask *cpunodes = s->opt->bind.cpunodebind;
	int threads = (int)s->opt->bind.threads, nturns = g->nturns_given;
	const int *turns = g->turns_given;
	struct ph_pu *pus = NULL;
	char why[256];
	int npus, err;

	npus = placement_pus(&s->m.cpu, cpunodes, &pus);
	if (!npus) {
		ph_err("--cpunodebind: the chosen nodes have no CPU this process may use");
		return PH_EXIT_USAGE;
	}
	/* As many as the placement takes: the PUs, or the cores for exclusive. */
	if (!threads)
		threads = placement_capacity(g->place, pus, npus);
	g->nthreads = threads;
	g->order = xcalloc((size_t)threads, sizeof(int));
	err = placement_order(g->place, pus, npus, threads, g->order, why, sizeof(why));
	free(pus);
	if (err) {
		ph_err("%s", why);
		return err == -EOPNOTSUPP ? PH_EXIT_UNSUPPORTED : PH_EXIT_USAGE;
	}
	g->turns = xcalloc((size_t)threads, sizeof(int));
	if (!turns) {
		g->nturns = goaround_turns(threads, g->turns);
		return 0;
	}
	for (int i = 0; i < nturns; i++)
		if (turns[i] >= threads) {
			ph_err("--turns: turn %d needs more than the %d threads placed (turns are 0..%d)",
			       turns[i], threads, threads - 1);
			return PH_EXIT_USAGE;
		}
	memcpy(g->turns, turns, (size_t)nturns * sizeof(int));
	g->nturns = nturns;
	return 0;
}

/* Each thread's CPU and block read back; every block on its own CPU's node. */
static int check_blocks(struct ph_goaround *g, struct ph_session *s)
{
	int rc = 0;

	g->cpus_now = xcalloc((size_t)g->nthreads, sizeof(int));
	g->cpu_node = xcalloc((size_t)g->nthreads, sizeof(int));
	g->mem_node = xcalloc((size_t)g->nthreads, sizeof(int));
	bandwidth_cpus_now(s, g->cpus_now);
	for (int t = 0; t < g->nthreads; t++) {
		g->cpu_node[t] = numa_node_of_cpu(g->cpus_now[t]);
		g->mem_node[t] = bandwidth_node_found(s, t);
		if (g->mem_node[t] == g->cpu_node[t] && s->segs[t].verified)
			continue;
		if (g->mem_node[t] < 0 && s->opt->allow_unverified) {
			/* Not read back: take the node asked for, and say so (the driver notes it). */
			g->mem_node[t] = s->binding.nodes[t];
			continue;
		}
		ph_err("thread %d on CPU %d (node %d): its block was found on node %d, not on its own node%s",
		       t, g->cpus_now[t], g->cpu_node[t], g->mem_node[t],
		       s->opt->allow_unverified ? "" : "; --allow-unverified measures it anyway");
		if (!s->opt->allow_unverified)
			rc = PH_EXIT_FAIL;
	}
	return rc;
}

static int topo_at(const struct ph_topology *topo, int node)
{
	int i = topology_index(topo, node);

	return i < 0 ? 0 : i;
}

static int goaround_measure(void *state, struct ph_session *s)
{
	struct ph_goaround *g = state;
	struct bitmask *cpus = numa_allocate_cpumask();
	struct ph_layout lay = session_layout(s);
	int *cn, *mn, rc, n = s->m.topo.nnodes;

	for (int i = 0; i < g->nthreads; i++)
		numa_bitmask_setbit(cpus, (unsigned)g->order[i]);
	lay.size = g->size_per_thread * (uint64_t)g->nthreads;
	rc = session_start_on(s, cpus, (unsigned)g->nthreads, &lay);
	numa_free_cpumask(cpus);
	if (rc)
		return rc;
	/* A node with CPUs and no memory cannot hold its threads' blocks. */
	for (int t = 0; t < g->nthreads; t++)
		if (s->binding.nodes[t] != numa_node_of_cpu(s->binding.cpus[t])) {
			ph_err("CPU %d: its node %d has no memory, and every thread's block must be on its own node",
			       s->binding.cpus[t], numa_node_of_cpu(s->binding.cpus[t]));
			return PH_EXIT_UNSUPPORTED;
		}
	rc = check_blocks(g, s);
	if (rc)
		return rc;
	g->nnodes = n;
	g->dist = xcalloc((size_t)(n * n), sizeof(int));
	g->hops = xcalloc((size_t)(n * n), sizeof(int));
	memcpy(g->dist, s->m.topo.distance, (size_t)(n * n) * sizeof(int));
	scaling_hop_levels(n, g->dist, g->hops);
	cn = xcalloc((size_t)g->nthreads, sizeof(int));
	mn = xcalloc((size_t)g->nthreads, sizeof(int));
	for (int t = 0; t < g->nthreads; t++) {
		cn[t] = topo_at(&s->m.topo, g->cpu_node[t]);
		mn[t] = topo_at(&s->m.topo, g->mem_node[t]);
	}
	g->rows = xcalloc((size_t)g->nturns, sizeof(*g->rows));
	progress_begin(g->nturns, "goaround");
	for (int i = 0; i < g->nturns && !ph_interrupted && !rc; i++) {
		struct ph_goaround_row *row = &g->rows[g->nrows];
		struct ph_bwopt o = { .per_thread = true, .only = -1, .shift = g->turns[i] };

		progress_step("turn %d", g->turns[i]);
		goaround_shape(cn, mn, g->nthreads, g->turns[i], n, g->dist, g->hops, &row->shape);
		rc = bandwidth_figure_opt(s, g->k, &o, &row->bw);
		if (!row->bw.res.n) {
			bandwidth_free(&row->bw);
			rc = rc ? rc : PH_EXIT_FAIL;
			break;
		}
		g->nrows++;
	}
	free(cn);
	free(mn);
	if (!session_still_verified(s) && !rc)
		rc = PH_EXIT_FAIL;
	return rc;
}

static void turns_table(const struct ph_goaround *g, struct ph_session *s, struct ph_doc *doc,
			const char *isa)
{
	struct ph_table *t = doc_add_table(doc, "goaround",
					   "every thread at once on the block of thread (t + turn) mod T");
	static const char *const head[] = { "turn", "kernel", "isa" };
	static const char *const cols[] = {
		"bw_per_thread_GBps", "remote_threads", "remote_share", "mean_hops",
		"mean_distance", "size_per_thread_KiB",
	};

	for (size_t i = 0; i < ARRAY_SIZE(head); i++)
		table_add_col(t, head[i]);
	bandwidth_add_cols(t, "");
	for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
		table_add_col(t, cols[i]);
	session_add_common_cols(t);
	/* The same in every row and said in the run's sections, or remote_threads over threads. */
	table_detail(t, "kernel isa size_per_thread_KiB size_KiB threads remote_share");
	for (int i = 0; i < g->nrows; i++) {
		const struct ph_goaround_row *r = &g->rows[i];
		const struct ph_stats *st = &r->bw.res.st;
		int row = table_add_row(t);

		table_int(t, row, "turn", r->shape.turn);
		table_str(t, row, "kernel", g->k->name);
		table_str(t, row, "isa", isa);
		bandwidth_fill(t, row, "", &r->bw);
		table_num(t, row, "bw_per_thread_GBps", st->median / g->nthreads, "%.2f");
		table_int(t, row, "remote_threads", r->shape.remote);
		table_num(t, row, "remote_share", r->shape.remote_share, "%.3f");
		table_num(t, row, "mean_hops", r->shape.mean_hops, "%.3f");
		table_num(t, row, "mean_distance", r->shape.mean_distance, "%.2f");
		table_int(t, row, "size_per_thread_KiB", (long long)(g->size_per_thread / KiB));
		session_fill_common(s, t, row);
	}
}

static void threads_table(const struct ph_goaround *g, struct ph_session *s, struct ph_doc *doc)
{
	struct ph_table *t = doc_add_table(doc, "threads",
					   "each thread's own bandwidth per turn: its bytes over the turn's span");
	static const char *const cols[] = {
		"turn", "thread", "cpu", "cpu_node", "block_of", "mem_node", "hops", "distance",
	};

	for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
		table_add_col(t, cols[i]);
	bandwidth_thread_add_cols(t);
	for (int i = 0; i < g->nrows; i++)
		for (int j = 0; j < g->rows[i].bw.nthr; j++) {
			const struct ph_goaround_row *r = &g->rows[i];
			int owner = goaround_owner(j, r->shape.turn, g->nthreads);
			int a = topo_at(&s->m.topo, g->cpu_node[j]);
			int b = topo_at(&s->m.topo, g->mem_node[owner]);
			int row = table_add_row(t);

			table_int(t, row, "turn", r->shape.turn);
			table_int(t, row, "thread", j);
			table_int(t, row, "cpu", g->cpus_now[j]);
			table_int(t, row, "cpu_node", g->cpu_node[j]);
			table_int(t, row, "block_of", owner);
			table_int(t, row, "mem_node", g->mem_node[owner]);
			table_int(t, row, "hops", g->hops[a * g->nnodes + b]);
			table_int(t, row, "distance", g->dist[a * g->nnodes + b]);
			bandwidth_thread_fill(t, row, &r->bw.thr[j]);
		}
}

static bool goaround_measured(const void *state)
{
	return ((const struct ph_goaround *)state)->nrows > 0;
}

static struct ph_doc *goaround_doc(void *state, struct ph_session *s, int *rc)
{
	const struct ph_goaround *g = state;
	const char *isa_why = g->kernel.isa_auto ? g->kernel.why[0] : "forced (--isa)";
	struct ph_doc *doc = doc_new("goaround");
	struct ph_section *sec;
	const char *isa = isa_name(g->k->isa);

	turns_table(g, s, doc, isa);
	threads_table(g, s, doc);
	sec = doc_add_section(doc, "goaround_method", "goaround");
	section_str(sec, "kernel", g->k->name);
	section_str(sec, "isa", isa);
	section_bool(sec, "nt", g->k->nt);
	section_str(sec, "isa_auto_reason", isa_why);
	section_str(sec, "placement", place_name(g->place));
	section_int(sec, "threads", g->nthreads);
	section_int(sec, "size_per_thread_KiB", (long long)(g->size_per_thread / KiB));
	section_str(sec, "blocks",
		    "each thread's block laid out on its own CPU's node and read back there before the first turn");
	section_str(sec, "turn", "thread t streams the block of thread (t + turn) mod T, all threads at once");
	section_str(sec, "remote_share", "threads whose block is on another node than their CPU's / T");
	section_str(sec, "mean_hops",
		    "mean over the threads of the hop level of (CPU node, block node): 0 local, 1 + the distinct firmware distances below it in the CPU node's row");
	section_str(sec, "mean_distance", "mean over the threads of the firmware (SLIT) distance");
	section_str(sec, "sample", bandwidth_method);
	session_describe(s, doc);
	session_buffers_table(s, doc);
	(void)rc;
	return doc;
}

static void goaround_free(void *state, struct ph_session *s)
{
	struct ph_goaround *g = state;

	for (int i = 0; i < g->nrows; i++)
		bandwidth_free(&g->rows[i].bw);
	free(g->rows);
	free(g->turns);
	free(g->order);
	free(g->cpus_now);
	free(g->cpu_node);
	free(g->mem_node);
	free(g->dist);
	free(g->hops);
	free(g->turns_given);
	bandwidth_study_free(&g->kernel, s);
	memset(g, 0, sizeof(*g));
}

const struct ph_steps goaround_steps = {
	.size = sizeof(struct ph_goaround),
	.plan = goaround_plan,
	.measure = goaround_measure,
	.measured = goaround_measured,
	.document = goaround_doc,
	.free = goaround_free,
};
