// SPDX-License-Identifier: GPL-2.0-only
/*
 * scale.c - bandwidth against the thread count by placement (pagehop scale).
 */
#include "scale.h"
#include "progress.h"
#include "scaling.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <numa.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* --cpunodebind chooses the placement's CPUs; each count binds its own. */
static int scale_plan(void *state, struct ph_session *s)
{
	struct ph_scale *sc = state;
	const struct bitmask *cpunodes = s->opt->bind.cpunodebind;
	const int *counts = sc->counts_given;
	int ncounts = sc->ncounts_given;
	char why[256];
	int max, err;

	sc->knee = -1;
	sc->npus = placement_pus(&s->m.cpu, cpunodes, &sc->pus);
	if (!sc->npus) {
		ph_err("--cpunodebind: the chosen nodes have no CPU this process may use");
		return PH_EXIT_USAGE;
	}
	if (counts) {
		max = counts[ncounts - 1];
		sc->counts = xcalloc((size_t)ncounts, sizeof(int));
		memcpy(sc->counts, counts, (size_t)ncounts * sizeof(int));
		sc->ncounts = ncounts;
	} else {
		/* As many as the placement takes: the PUs, or the cores for exclusive. */
		max = placement_capacity(sc->place, sc->pus, sc->npus);
		sc->ncounts = max;
		sc->counts = xcalloc((size_t)max, sizeof(int));
		for (int i = 0; i < max; i++)
			sc->counts[i] = i + 1;
	}
	sc->order = xcalloc((size_t)max, sizeof(int));
	err = placement_order(sc->place, sc->pus, sc->npus, max, sc->order, why, sizeof(why));
	if (err) {
		ph_err("%s", why);
		return err == -EOPNOTSUPP ? PH_EXIT_UNSUPPORTED : PH_EXIT_USAGE;
	}
	return 0;
}

static void list_text(const int *v, int n, char *out, size_t size)
{
	size_t len = 0;

	out[0] = '\0';
	for (int i = 0; i < n && len < size; i++)
		len += (size_t)snprintf(out + len, size - len, "%s%d", i ? "," : "", v[i]);
}

/* One count: bind, lay out, verify, measure, read back, free. */
static int measure_count(struct ph_scale *sc, struct ph_session *s, int t, bool last)
{
	struct ph_scale_row *row = &sc->rows[sc->nrows];
	struct ph_bwopt o = { .per_thread = true, .only = -1 };
	struct bitmask *cpus = numa_allocate_cpumask();
	struct ph_layout lay = session_layout(s);
	int rc;

	for (int i = 0; i < t; i++)
		numa_bitmask_setbit(cpus, (unsigned)sc->order[i]);
	lay.size = sc->size_per_thread * (uint64_t)t;
	rc = session_start_on(s, cpus, (unsigned)t, &lay);
	numa_free_cpumask(cpus);
	if (rc)
		goto out;
	row->threads = t;
	row->cpus_now = xcalloc((size_t)t, sizeof(int));
	row->nodes_found = xcalloc((size_t)t, sizeof(int));
	bandwidth_cpus_now(s, row->cpus_now);
	list_text(row->cpus_now, t, row->cpus, sizeof(row->cpus));
	placement_describe(sc->pus, sc->npus, row->cpus_now, t, &row->found);
	rc = bandwidth_figure_opt(s, sc->k, &o, &row->bw);
	if (!row->bw.res.n) {
		bandwidth_free(&row->bw);
		free(row->cpus_now);
		free(row->nodes_found);
		memset(row, 0, sizeof(*row));
		rc = rc ? rc : PH_EXIT_FAIL;
		goto out;
	}
	sc->nrows++;
	if (last && sc->single) {
		/* Bassi's single: each thread alone, on the same memory and CPU. */
		sc->alone = xcalloc((size_t)t, sizeof(*sc->alone));
		for (int i = 0; i < t && !ph_interrupted && !rc; i++) {
			struct ph_bwopt one = { .only = i };

			rc = bandwidth_figure_opt(s, sc->k, &one, &sc->alone[i]);
			sc->nalone += sc->alone[i].res.n > 0;
		}
	}
	if (!session_still_verified(s) && !rc)
		rc = PH_EXIT_FAIL;
	for (int i = 0; i < t; i++)
		row->nodes_found[i] = bandwidth_node_found(s, i);
	session_found(s, row->node, sizeof(row->node), row->psize, sizeof(row->psize));
	row->backend = backend_name(s->segs[0].backend);
	row->verified = s->all_verified;
out:
	session_stop(s);
	return rc;
}

static int scale_measure(void *state, struct ph_session *s)
{
	struct ph_scale *sc = state;
	int rc = 0;
	bool verified = true;

	sc->rows = xcalloc((size_t)sc->ncounts, sizeof(*sc->rows));
	progress_begin(sc->ncounts, "scale");
	for (int i = 0; i < sc->ncounts && !ph_interrupted && !rc; i++) {
		progress_step("%d threads", sc->counts[i]);
		rc = measure_count(sc, s, sc->counts[i], i == sc->ncounts - 1);
		if (sc->nrows)
			verified &= sc->rows[sc->nrows - 1].verified;
	}
	/* The session is stopped between counts; its verdict is every row's. */
	s->all_verified = verified;
	if (sc->nrows) {
		int *t = xcalloc((size_t)sc->nrows, sizeof(int));
		double *bw = xcalloc((size_t)sc->nrows, sizeof(double));

		for (int i = 0; i < sc->nrows; i++) {
			t[i] = sc->rows[i].threads;
			bw[i] = sc->rows[i].bw.res.st.median;
		}
		sc->knee = scaling_knee(t, bw, sc->nrows);
		free(t);
		free(bw);
	}
	return rc;
}

/* The rule behind the knee, said with the figure. */
#define KNEE_RULE "the fewest threads reaching 90% of the highest aggregate measured, if a larger count was measured too; none if only the last count reaches it (still rising)"

static void scale_table(const struct ph_scale *sc, struct ph_doc *doc, const char *isa)
{
	struct ph_table *t = doc_add_table(doc, "scale", "bandwidth against threads");
	static const char *const head[] = { "threads", "placement", "kernel", "isa" };
	static const char *const cols[] = {
		"bw_per_thread_GBps", "efficiency_pct", "knee", "cpus", "cores", "shared_cores",
		"packages", "cpu_nodes", "node", "page_size", "backend", "size_per_thread_KiB",
		"verified",
	};

	for (size_t i = 0; i < ARRAY_SIZE(head); i++)
		table_add_col(t, head[i]);
	bandwidth_add_cols(t, "");
	for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
		table_add_col(t, cols[i]);
	/* The same in every row and said in the scaling section, or what the cpus column says. */
	table_detail(t, "placement kernel isa backend size_per_thread_KiB cores shared_cores packages cpu_nodes");
	for (int i = 0; i < sc->nrows; i++) {
		const struct ph_scale_row *r = &sc->rows[i];
		const struct ph_stats *st = &r->bw.res.st;
		int row = table_add_row(t);
		double eff;
		int t0 = sc->rows[0].threads;
		double bw0 = sc->rows[0].bw.res.st.median;

		eff = scaling_efficiency((const int[]){ t0, r->threads },
					 (const double[]){ bw0, st->median }, 1);
		table_int(t, row, "threads", r->threads);
		table_str(t, row, "placement", place_name(sc->place));
		table_str(t, row, "kernel", sc->k->name);
		table_str(t, row, "isa", isa);
		bandwidth_fill(t, row, "", &r->bw);
		table_num(t, row, "bw_per_thread_GBps", st->median / r->threads, "%.2f");
		table_num(t, row, "efficiency_pct", eff * 100, "%.1f");
		table_bool(t, row, "knee", i == sc->knee);
		table_str(t, row, "cpus", r->cpus);
		table_int(t, row, "cores", r->found.cores);
		table_int(t, row, "shared_cores", r->found.shared_cores);
		table_int(t, row, "packages", r->found.packages);
		table_str(t, row, "cpu_nodes", r->found.nodes);
		table_str(t, row, "node", r->node[0] ? r->node : NULL);
		table_str(t, row, "page_size", r->psize[0] ? r->psize : NULL);
		table_str(t, row, "backend", r->backend);
		table_int(t, row, "size_per_thread_KiB", (long long)(sc->size_per_thread / KiB));
		table_bool(t, row, "verified", r->verified);
	}
}

static void threads_table(const struct ph_scale *sc, struct ph_doc *doc)
{
	struct ph_table *t = doc_add_table(doc, "threads",
					   "each thread's own bandwidth per count: its bytes over the run's span");
	static const char *const cols[] = { "threads", "thread", "cpu", "node" };

	for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
		table_add_col(t, cols[i]);
	bandwidth_thread_add_cols(t);
	for (int i = 0; i < sc->nrows; i++)
		for (int j = 0; j < sc->rows[i].bw.nthr; j++) {
			const struct ph_scale_row *r = &sc->rows[i];
			int row = table_add_row(t);

			table_int(t, row, "threads", r->threads);
			table_int(t, row, "thread", j);
			table_int(t, row, "cpu", r->cpus_now[j]);
			if (r->nodes_found[j] >= 0)
				table_int(t, row, "node", r->nodes_found[j]);
			bandwidth_thread_fill(t, row, &r->bw.thr[j]);
		}
}

/* Bassi's table: per thread, alone against all at once. */
static void single_table(const struct ph_scale *sc, struct ph_doc *doc)
{
	const struct ph_scale_row *r = &sc->rows[sc->nrows - 1];
	struct ph_table *t = doc_add_table(doc, "single_multi",
					   "each thread alone (single) and with all the others at once (multi)");
	static const char *const cols[] = {
		"thread", "cpu", "node", "single_GBps", "multi_GBps", "multi_over_single",
	};

	for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
		table_add_col(t, cols[i]);
	for (int i = 0; i < sc->nalone && i < r->bw.nthr; i++) {
		double one = sc->alone[i].res.st.median, all = r->bw.thr[i].median;
		int row = table_add_row(t);

		table_int(t, row, "thread", i);
		table_int(t, row, "cpu", r->cpus_now[i]);
		if (r->nodes_found[i] >= 0)
			table_int(t, row, "node", r->nodes_found[i]);
		table_num(t, row, "single_GBps", one, "%.2f");
		table_num(t, row, "multi_GBps", all, "%.2f");
		table_num(t, row, "multi_over_single", all / one, "%.3f");
	}
}

static bool scale_measured(const void *state)
{
	return ((const struct ph_scale *)state)->nrows > 0;
}

static struct ph_doc *scale_doc(void *state, struct ph_session *s, int *rc)
{
	const struct ph_scale *sc = state;
	const char *isa_why = sc->kernel.isa_auto ? sc->kernel.why[0] : "forced (--isa)";
	struct ph_doc *doc = doc_new("scale");
	struct ph_section *sec;
	const char *isa = isa_name(sc->k->isa);

	scale_table(sc, doc, isa);
	if (sc->per_thread)
		threads_table(sc, doc);
	if (sc->single && sc->nrows && sc->nalone)
		single_table(sc, doc);
	sec = doc_add_section(doc, "scaling", "scaling");
	section_str(sec, "kernel", sc->k->name);
	section_str(sec, "isa", isa);
	section_bool(sec, "nt", sc->k->nt);
	section_str(sec, "isa_auto_reason", isa_why);
	section_str(sec, "placement", place_name(sc->place));
	section_int(sec, "size_per_thread_KiB", (long long)(sc->size_per_thread / KiB));
	if (sc->knee >= 0)
		section_int(sec, "knee_threads", sc->rows[sc->knee].threads);
	else
		section_str(sec, "knee_threads", NULL);
	section_str(sec, "knee_rule", KNEE_RULE);
	section_str(sec, "efficiency",
		    "(GB/s per thread) / (GB/s per thread at the fewest threads measured)");
	section_str(sec, "cpus",
		    "read back by each thread with sched_getcpu() after pinning; cores, shared_cores and packages from hwloc's relations of those CPUs");
	section_str(sec, "sample", bandwidth_method);
	if (sc->nrows > 1 && sc->knee < 0)
		doc_note(doc, "no saturation knee within the counts measured: the bandwidth still rose at the last count");
	session_describe(s, doc);
	(void)rc;
	return doc;
}

static void scale_free(void *state, struct ph_session *s)
{
	struct ph_scale *sc = state;

	for (int i = 0; i < sc->nrows; i++) {
		bandwidth_free(&sc->rows[i].bw);
		free(sc->rows[i].cpus_now);
		free(sc->rows[i].nodes_found);
	}
	for (int i = 0; sc->alone && i < sc->rows[sc->nrows ? sc->nrows - 1 : 0].threads; i++)
		bandwidth_free(&sc->alone[i]);
	free(sc->alone);
	free(sc->rows);
	free(sc->counts);
	free(sc->order);
	free(sc->pus);
	free(sc->counts_given);
	bandwidth_study_free(&sc->kernel, s);
	memset(sc, 0, sizeof(*sc));
}

const struct ph_steps scale_steps = {
	.size = sizeof(struct ph_scale),
	.plan = scale_plan,
	.measure = scale_measure,
	.measured = scale_measured,
	.document = scale_doc,
	.free = scale_free,
};
