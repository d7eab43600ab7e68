// SPDX-License-Identifier: GPL-2.0-only
/*
 * matrix.c - measure every CPU node x memory node pair.
 *
 * Each column's memory is allocated on the column's node(s), verified and
 * given its chain (latency) or its arrays (bandwidth, per kernel) once,
 * then measured from every row in turn, each row warming up on it first
 * (bandwidth: all rows' read, then all rows' triad); it is read back once more and freed
 * before the next column, so no column can borrow another's placement.
 * The latency memory is freed before the bandwidth memory is laid out: one
 * at a time, as much as a single cell needed before.  Latency runs one
 * thread on the row's first CPU (an idle latency); bandwidth runs one
 * thread per core of the row's CPUs.
 */
#include "matrix.h"
#include "progress.h"
#include "bandwidth.h"
#include "latency.h"
#include "phases.h"
#include "sweep.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <numa.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool node_has_memory(int n)
{
	long long freeb;

	return numa_node_size64(n, &freeb) > 0;
}

static bool node_has_cpus(int n)
{
	struct bitmask *c = numa_allocate_cpumask();
	bool has = !numa_node_to_cpus(n, c) && numa_bitmask_weight(c) > 0;

	numa_free_cpumask(c);
	return has;
}

static void group_fill(struct ph_mx_group *g)
{
	for (int n = 0; n <= numa_max_node(); n++) {
		if (!numa_bitmask_isbitset(g->nodes, (unsigned)n))
			continue;
		g->has_cpus |= node_has_cpus(n);
		g->has_memory |= node_has_memory(n);
	}
}

/* The first CPU of cpus on none of nodes, or -1. */
static int cpu_off_nodes(const struct bitmask *cpus, const struct bitmask *nodes)
{
	for (unsigned c = 0; c < cpus->size; c++)
		if (numa_bitmask_isbitset(cpus, c)) {
			int n = numa_node_of_cpu((int)c);

			if (n < 0 || !numa_bitmask_isbitset(nodes, (unsigned)n))
				return (int)c;
		}
	return -1;
}

static bool group_within(const struct ph_mx_group *g, const struct bitmask *filter)
{
	if (!filter)
		return true;
	for (int n = 0; n <= numa_max_node(); n++)
		if (numa_bitmask_isbitset(g->nodes, (unsigned)n) &&
		    !numa_bitmask_isbitset(filter, (unsigned)n))
			return false;
	return true;
}

int matrix_plan(struct ph_mx *mx, const struct ph_topology *topo,
		const struct ph_mx_group *groups, int ngroups, struct bitmask *rows_filter,
		struct bitmask *cols_filter)
{
	if (groups) {
		struct bitmask *seen = numa_allocate_nodemask();

		mx->grouped = true;
		for (int i = 0; i < ngroups; i++) {
			struct ph_mx_group g = groups[i];

			for (int n = 0; n <= numa_max_node(); n++)
				if (numa_bitmask_isbitset(g.nodes, (unsigned)n)) {
					if (numa_bitmask_isbitset(seen, (unsigned)n)) {
						ph_err("--groups: node %d is in two groups; expected disjoint groups, e.g. 0-1,2-3", n);
						numa_bitmask_free(seen);
						return PH_EXIT_USAGE;
					}
					numa_bitmask_setbit(seen, (unsigned)n);
				}
			g.nodes = numa_allocate_nodemask();
			copy_bitmask_to_bitmask(groups[i].nodes, g.nodes);
			group_fill(&g);
			if (groups[i].cpus) {
				int bad = cpu_off_nodes(groups[i].cpus, g.nodes);

				g.cpus = numa_allocate_cpumask();
				copy_bitmask_to_bitmask(groups[i].cpus, g.cpus);
				g.has_cpus = numa_bitmask_weight(g.cpus) > 0;
				if (bad >= 0) {
					ph_err("--groups: group %d: CPU %d is not on its nodes %s; a group's CPUs are some of its own nodes' CPUs",
					       i, bad, g.name);
					mx->groups = xrealloc(mx->groups, (size_t)(mx->ngroups + 1) * sizeof(g));
					mx->groups[mx->ngroups++] = g;
					numa_bitmask_free(seen);
					return PH_EXIT_USAGE;
				}
			}
			mx->groups = xrealloc(mx->groups, (size_t)(mx->ngroups + 1) * sizeof(g));
			mx->groups[mx->ngroups++] = g;
		}
		numa_bitmask_free(seen);
		if (!mx->ngroups) {
			ph_err("--groups: empty; expected groups of nodes, e.g. 0-1,2-3");
			return PH_EXIT_USAGE;
		}
	} else {
		for (int i = 0; i < topo->nnodes; i++) {
			struct ph_mx_group g = { 0 };

			g.nodes = numa_allocate_nodemask();
			numa_bitmask_setbit(g.nodes, (unsigned)topo->nodes[i].id);
			snprintf(g.name, sizeof(g.name), "%d", topo->nodes[i].id);
			group_fill(&g);
			mx->groups = xrealloc(mx->groups, (size_t)(mx->ngroups + 1) * sizeof(g));
			mx->groups[mx->ngroups++] = g;
		}
	}
	mx->rows = xcalloc((size_t)mx->ngroups, sizeof(int));
	mx->cols = xcalloc((size_t)mx->ngroups, sizeof(int));
	for (int g = 0; g < mx->ngroups; g++) {
		if (mx->groups[g].has_cpus && group_within(&mx->groups[g], rows_filter))
			mx->rows[mx->nrows++] = g;
		if (mx->groups[g].has_memory && group_within(&mx->groups[g], cols_filter))
			mx->cols[mx->ncols++] = g;
	}
	if (!mx->nrows || !mx->ncols) {
		ph_err("nothing to measure: %d CPU %s and %d memory %s selected",
		       mx->nrows, mx->grouped ? "groups" : "nodes", mx->ncols,
		       mx->grouped ? "groups" : "nodes");
		return PH_EXIT_USAGE;
	}
	{
		int rid[mx->nrows], cid[mx->ncols];

		for (int r = 0; r < mx->nrows; r++)
			rid[r] = mx->grouped ? mx->rows[r] : topo->nodes[mx->rows[r]].id;
		for (int c = 0; c < mx->ncols; c++)
			cid[c] = mx->grouped ? mx->cols[c] : topo->nodes[mx->cols[c]].id;
		if (mx->figures & MX_LATENCY)
			mx->lat = nmatrix_new(PH_METRIC_LATENCY, mx->nrows, rid, mx->ncols, cid);
		if (mx->figures & MX_READ)
			mx->read = nmatrix_new(PH_METRIC_BANDWIDTH, mx->nrows, rid, mx->ncols, cid);
		if (mx->figures & MX_TRIAD)
			mx->triad = nmatrix_new(PH_METRIC_BANDWIDTH, mx->nrows, rid, mx->ncols, cid);
	}
	mx->total = mx->nrows * mx->ncols;
	mx->all_verified = true;
	return 0;
}

int matrix_place(struct ph_mx *mx, const struct ph_cpu *cpu)
{
	for (int r = 0; r < mx->nrows; r++) {
		struct ph_mx_group *g = &mx->groups[mx->rows[r]];
		struct ph_pu *pus;
		int npus = placement_pus(cpu, g->nodes, &pus), n, err, *cpus;
		char why[256] = "";

		n = mx->bw_threads ? (int)mx->bw_threads : placement_capacity(mx->place, pus, npus);
		cpus = xcalloc((size_t)(n > 0 ? n : 1), sizeof(int));
		err = npus ? placement_order(mx->place, pus, npus, n, cpus, why, sizeof(why)) : -EINVAL;
		if (!npus)
			snprintf(why, sizeof(why), "no CPU this process may use");
		if (!err) {
			g->cpus = numa_allocate_cpumask();
			for (int i = 0; i < n; i++)
				numa_bitmask_setbit(g->cpus, (unsigned)cpus[i]);
			ints_text(cpus, n, g->cpus_text, sizeof(g->cpus_text));
		}
		free(cpus);
		free(pus);
		if (err) {
			ph_err("row %s%s: %s", mx->grouped ? "group " : "node ", g->name, why);
			return err == -EOPNOTSUPP ? PH_EXIT_UNSUPPORTED : PH_EXIT_USAGE;
		}
	}
	return 0;
}

/* Cores (first PU of each) among the CPUs of nodes. */
static int cores_of(const struct ph_cpu *cpu, const struct bitmask *nodes)
{
	int n = 0;

	for (int k = 0; k < cpu->ncore_list; k++) {
		int pu = cpu->core_list[k].pu_ids[0];

		if (numa_bitmask_isbitset(nodes, (unsigned)numa_node_of_cpu(pu)))
			n++;
	}
	return n ? n : 1;
}

enum ph_psize matrix_default_psize(const struct ph_mx *mx, struct ph_session *s)
{
	static const enum ph_psize order[] = { PH_PS_1G, PH_PS_2M };
	unsigned threads = mx->bw_threads;

	if (!threads)
		for (int r = 0; r < mx->nrows; r++) {
			const struct ph_mx_group *g = &mx->groups[mx->rows[r]];
			unsigned t = g->cpus ? numa_bitmask_weight(g->cpus) :
					       (unsigned)cores_of(&s->m.cpu, g->nodes);

			threads = t > threads ? t : threads;
		}
	for (size_t o = 0; o < ARRAY_SIZE(order); o++) {
		enum ph_psize ps = order[o];
		uint64_t page = psize_bytes(ps), need = 0;
		bool all = true;

		if (mx->figures & MX_LATENCY)
			need = (mx->lat_size + page - 1) / page * page;
		if (mx->figures & (MX_READ | MX_TRIAD)) {
			uint64_t per = (mx->bw_size / threads + page - 1) / page * page * threads;

			need = per > need ? per : need;
		}
		for (int c = 0; c < mx->ncols && all; c++)
			for (int n = 0; n <= numa_max_node() && all; n++) {
				struct sweep_machine m = { 0 };
				struct sweep_avail a[PH_PS_COUNT];
				int i;
				long long freeb;

				if (!numa_bitmask_isbitset(mx->groups[mx->cols[c]].nodes, (unsigned)n) ||
				    !node_has_memory(n))
					continue;
				i = topology_index(&s->m.topo, n);
				m.kmod_features = s->m.km.fd >= 0 ? s->m.km.info.features : 0;
				m.free_2m = s->m.topo.nodes[i].hp_2m.free;
				m.total_2m = s->m.topo.nodes[i].hp_2m.total;
				m.free_1g = s->m.topo.nodes[i].hp_1g.free;
				m.total_1g = s->m.topo.nodes[i].hp_1g.total;
				m.reserve = s->opt->bufreq.reserve;
				m.node_total = (uint64_t)numa_node_size64(n, &freeb);
				m.node_free = freeb > 0 ? (uint64_t)freeb : 0;
				sweep_availability(&m, a);
				all = a[ps].ok && a[ps].cap >= need;
			}
		if (all)
			return ps;
	}
	return PH_PS_4K;
}

static void add_cell(struct ph_mx *mx, struct ph_session *s, int r, int c,
		     enum ph_recorded fig, const struct ph_result *res)
{
	const struct ph_nmatrix *m = mx->lat ? mx->lat : mx->read ? mx->read : mx->triad;
	struct ph_mx_cell *cell;

	mx->cellv = xrealloc(mx->cellv, (size_t)(mx->ncellv + 1) * sizeof(*mx->cellv));
	cell = &mx->cellv[mx->ncellv++];
	memset(cell, 0, sizeof(*cell));
	cell->row = m->row_ids[r];
	cell->col = m->col_ids[c];
	cell->fig = fig;
	cell->st = res->st;
	cell->ci_met = res->ci_met;
	cell->verified = s->all_verified;
	cell->threads = s->binding.n;
	snprintf(cell->cpus, sizeof(cell->cpus), "%s", s->binding.cpus_text);
	{
		/* Where the threads are, as each finds itself: a second reading of the binding. */
		int *now = xcalloc((size_t)s->binding.n, sizeof(int));
		struct ph_place_found f;

		bandwidth_cpus_now(s, now);
		ints_text(now, s->binding.n, cell->cpus_found, sizeof(cell->cpus_found));
		placement_describe(mx->pus, mx->npus, now, s->binding.n, &f);
		cell->cores_found = f.cores;
		cell->shared_cores_found = f.shared_cores;
		free(now);
	}
	snprintf(cell->backend, sizeof(cell->backend), "%s", backend_name(s->segs[0].backend));
	session_found(s, cell->nodes, sizeof(cell->nodes), cell->page_size, sizeof(cell->page_size));
	if (!res->ci_met)
		mx->ci_not_met++;
	if (!s->all_verified)
		mx->all_verified = false;
}

static void store(struct ph_nmatrix *m, int r, int c, const struct ph_result *res)
{
	int k = r * m->ncols + c;

	m->val[k] = res->st.median;
	m->ci_lo[k] = res->st.ci_lo;
	m->ci_hi[k] = res->st.ci_hi;
	m->samples[k] = (int)res->n;
	m->ci_missed[k] = !res->ci_met;
}

static struct bitmask *first_cpu_of(const struct bitmask *nodes)
{
	struct bitmask *cpus = numa_allocate_cpumask();

	for (int n = 0; n <= numa_max_node(); n++) {
		struct bitmask *nc;

		if (!numa_bitmask_isbitset(nodes, (unsigned)n))
			continue;
		nc = numa_allocate_cpumask();
		if (!numa_node_to_cpus(n, nc))
			for (unsigned c = 0; c < nc->size; c++)
				if (numa_bitmask_isbitset(nc, c)) {
					numa_bitmask_setbit(cpus, c);
					numa_free_cpumask(nc);
					return cpus;
				}
		numa_free_cpumask(nc);
	}
	return cpus;
}

/* The first CPU a row's latency runs on: of its CPU set, or of its nodes. */
static struct bitmask *first_cpu_of_group(const struct ph_mx_group *g)
{
	struct bitmask *cpus;

	if (!g->cpus)
		return first_cpu_of(g->nodes);
	cpus = numa_allocate_cpumask();
	for (unsigned c = 0; c < g->cpus->size; c++)
		if (numa_bitmask_isbitset(g->cpus, c)) {
			numa_bitmask_setbit(cpus, c);
			break;
		}
	return cpus;
}

static struct bitmask *copy_nodes(const struct bitmask *b)
{
	struct bitmask *c = numa_allocate_nodemask();

	copy_bitmask_to_bitmask((struct bitmask *)b, c);
	return c;
}

/*
 * The memory of a cell was not where it was asked, before measuring
 * (session_start refused it) or after (it moved): the figures of this cell
 * recorded from cellv[from] on, and the matrix, say so.
 */
static void cell_not_verified(struct ph_mx *mx, int from)
{
	for (int i = from; i < mx->ncellv; i++)
		mx->cellv[i].verified = false;
	mx->all_verified = false;
}

/* What a cell lays out: size bytes of the matrix's page size, else as the options ask. */
static struct ph_layout cell_layout(const struct ph_mx *mx, const struct ph_session *s,
				    uint64_t size)
{
	struct ph_layout lay = session_layout(s);

	lay.size = size;
	lay.bufreq.psize = mx->psize;
	return lay;
}

/* One cell's latency: one thread on the row's first CPU, memory on the column. */
static int cell_latency(struct ph_mx *mx, struct ph_session *s, int r, int c)
{
	/* The cell's own binding: the options' rows and columns chose the cells. */
	struct ph_bindopts bind = {
		.physcpubind = first_cpu_of_group(&mx->groups[mx->rows[r]]),
		.membind = copy_nodes(mx->groups[mx->cols[c]].nodes),
		.threads = 1,
	};
	struct ph_layout lay = cell_layout(mx, s, mx->lat_size);
	struct ph_latency lat;
	int rc, from = mx->ncellv;

	progress_step("cell %s,%s latency", mx->groups[mx->rows[r]].name, mx->groups[mx->cols[c]].name);
	s->mem = &mx->lat_mem;
	rc = session_start_bind(s, &bind, &lay, 1);
	if (rc && s->segs && !s->all_verified)
		cell_not_verified(mx, from);
	if (!rc) {
		rc = latency_figure_dist(s, &mx->pattern, 1, false, &mx->dist, &lat);
		if (lat.user.n) {
			store(mx->lat, r, c, &lat.user);
			add_cell(mx, s, r, c, PH_REC_LATENCY, &lat.user);
		}
		if (lat.user.n && mx->dist.want) {
			/* Kept whole for the document's distribution table: matrix_free frees it. */
			mx->dists = xrealloc(mx->dists, (size_t)(mx->ndists + 1) * sizeof(*mx->dists));
			mx->dist_row = xrealloc(mx->dist_row, (size_t)(mx->ndists + 1) * sizeof(int));
			mx->dist_col = xrealloc(mx->dist_col, (size_t)(mx->ndists + 1) * sizeof(int));
			mx->dists[mx->ndists] = lat;
			mx->dist_row[mx->ndists] = mx->lat->row_ids[r];
			mx->dist_col[mx->ndists++] = mx->lat->col_ids[c];
		} else {
			latency_free(&lat);
		}
		if (!mx->backend)
			mx->backend = backend_name(s->segs[0].backend);
	}
	session_stop(s);
	s->mem = NULL;
	bindopts_free(&bind);
	return rc;
}

/* The bandwidth figures, in the order a column measures them. */
static const struct {
	unsigned fig;
	enum ph_recorded rec;
	const char *kernel;
} bw_figs[] = {
	{ MX_READ, PH_REC_READ, "read" },
	{ MX_TRIAD, PH_REC_TRIAD, "triad" },
};

/* Whether bandwidth figure f is the last one the matrix measures. */
static bool last_bw_figure(const struct ph_mx *mx, size_t f)
{
	for (size_t g = f + 1; g < ARRAY_SIZE(bw_figs); g++)
		if (mx->figures & bw_figs[g].fig)
			return false;
	return true;
}

/* One bandwidth figure of a cell: one thread per core of the row, memory on the column. */
static int cell_bandwidth(struct ph_mx *mx, struct ph_session *s, int r, int c, size_t f)
{
	struct ph_bandwidth bw;
	int rc, from = mx->ncellv;

	const struct ph_mx_group *row = &mx->groups[mx->rows[r]];
	struct ph_bindopts bind = {
		.membind = copy_nodes(mx->groups[mx->cols[c]].nodes),
		.threads = mx->bw_threads,
	};

	if (row->cpus) {
		/* An explicit CPU set runs on every CPU given (the socket table). */
		bind.physcpubind = numa_allocate_cpumask();
		copy_bitmask_to_bitmask(row->cpus, bind.physcpubind);
		if (!bind.threads)
			bind.threads = numa_bitmask_weight(row->cpus);
	} else {
		bind.cpunodebind = copy_nodes(row->nodes);
	}
	struct ph_layout lay = cell_layout(mx, s, mx->bw_size);

	progress_step("cell %s,%s %s", row->name, mx->groups[mx->cols[c]].name, bw_figs[f].kernel);
	s->mem = &mx->bw_mem;
	rc = session_start_bind(s, &bind, &lay, 0);
	if (rc && s->segs && !s->all_verified)
		cell_not_verified(mx, from);
	if (!rc && !ph_interrupted) {
		rc = bandwidth_figure(s, stream_auto(bw_figs[f].kernel, false, NULL), &bw);
		if (bw.res.n) {
			store(bw_figs[f].fig == MX_READ ? mx->read : mx->triad, r, c, &bw.res);
			add_cell(mx, s, r, c, bw_figs[f].rec, &bw.res);
		}
		bandwidth_free(&bw);
	}
	if (!rc && !mx->backend && s->segs)
		mx->backend = backend_name(s->segs[0].backend);
	session_stop(s);
	s->mem = NULL;
	bindopts_free(&bind);
	return rc;
}

/*
 * A column's memory, read back after every row measured it and freed: if a
 * page moved, the figures measured on it from cellv[from] on say so.
 */
static int release(struct ph_mx *mx, struct ph_session *s, struct ph_memory *m, int from)
{
	if (memory_release(s, m))
		return 0;
	cell_not_verified(mx, from);
	return PH_EXIT_FAIL;
}

/* After one more figure of row r: the cell is done when its last figure is. */
static int figure_done(struct ph_mx *mx, bool cell_done, ph_mx_cell_fn on_cell, void *ctx)
{
	if (cell_done && !ph_interrupted)
		mx->done++;
	/*
	 * The results are complete: the file saved now (matrix_save_cell writes
	 * it after the last cell, not again) and the printed document say the
	 * same times.
	 */
	if (mx->done == mx->total)
		phases_stop();
	return on_cell ? on_cell(ctx, mx, false, 0) : 0;
}

int matrix_measure(struct ph_mx *mx, struct ph_session *s, ph_mx_cell_fn on_cell, void *ctx)
{
	bool bw = mx->figures & (MX_READ | MX_TRIAD);
	int rc = 0;

	if (!mx->pus)
		mx->npus = placement_pus(&s->m.cpu, NULL, &mx->pus);
	provenance_collect(&mx->prov);
	mx->have_prov = true;
	/* A step per figure of each cell: a cell's latency and bandwidths differ in length. */
	progress_begin(mx->total * __builtin_popcount(mx->figures & (MX_LATENCY | MX_READ | MX_TRIAD)),
		       "matrix");
	/*
	 * Column by column: all rows' latencies on the column's latency memory,
	 * then all rows' bandwidths on its bandwidth memory.  A cell that cannot
	 * be had stops the matrix: the rest would be a matrix with holes nobody
	 * asked for.
	 */
	for (int c = 0; c < mx->ncols && !ph_interrupted && !rc; c++) {
		int from = mx->ncellv;

		for (int r = 0; (mx->figures & MX_LATENCY) && r < mx->nrows && !ph_interrupted; r++) {
			rc = cell_latency(mx, s, r, c);
			if (rc || (rc = figure_done(mx, !bw, on_cell, ctx)))
				break;
		}
		if (mx->lat_mem.segs) {
			int e = release(mx, s, &mx->lat_mem, from);

			rc = rc ? rc : e;
		}
		from = mx->ncellv;
		/*
		 * Figure by figure, every row in turn: the arrays one kernel
		 * left and checked are the next row's start (bandwidth.c), so
		 * each is written once per column, not once per cell.
		 */
		for (size_t f = 0; bw && !rc && f < ARRAY_SIZE(bw_figs); f++)
			for (int r = 0; (mx->figures & bw_figs[f].fig) && !rc && r < mx->nrows &&
			     !ph_interrupted; r++) {
				rc = cell_bandwidth(mx, s, r, c, f);
				if (rc || (rc = figure_done(mx, last_bw_figure(mx, f), on_cell, ctx)))
					break;
			}
		if (mx->bw_mem.segs) {
			int e = release(mx, s, &mx->bw_mem, from);

			rc = rc ? rc : e;
		}
	}
	mx->interrupted = ph_interrupted;
	phases_stop();
	if (on_cell) {
		int e = on_cell(ctx, mx, true, rc);

		rc = rc ? rc : e;
	}
	return rc;
}

void matrix_free_groups(struct ph_mx_group *groups, int n)
{
	for (int g = 0; g < n; g++) {
		numa_bitmask_free(groups[g].nodes);
		if (groups[g].cpus)
			numa_bitmask_free(groups[g].cpus);
	}
	free(groups);
}

void matrix_free(struct ph_mx *mx)
{
	matrix_free_groups(mx->groups, mx->ngroups);
	free(mx->pus);
	free(mx->rows);
	free(mx->cols);
	nmatrix_free(mx->lat);
	nmatrix_free(mx->read);
	nmatrix_free(mx->triad);
	free(mx->cellv);
	for (int i = 0; i < mx->ndists; i++)
		latency_free(&mx->dists[i]);
	free(mx->dists);
	free(mx->dist_row);
	free(mx->dist_col);
	memset(mx, 0, sizeof(*mx));
}
