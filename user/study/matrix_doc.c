// SPDX-License-Identifier: GPL-2.0-only
/*
 * matrix_doc.c - a measured matrix as a document, as a saved file after
 * every cell (--save), and as the input of "pagehop slit".  The document
 * records each figure with the digits of recorded_fmt[]; the input takes
 * the same digits, so that slit on this machine and slit --input on the
 * saved file analyse the same numbers.
 */
#include "matrix_doc.h"
#include "distance.h"
#include "stream.h"
#include "topo_report.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * The digits the document keeps of each figure: its matrix of medians
 * (value), and each cell's median and CI (cell).  0.1 ns and 0.01 GB/s are
 * far below what the noise of a measurement lets one tell apart.
 */
static const struct {
	const char *value, *cell;
} recorded_fmt[PH_NREC] = {
	[PH_REC_LATENCY] = { "%.1f", "%.2f" },
	[PH_REC_READ] = { "%.2f", "%.3f" },
	[PH_REC_TRIAD] = { "%.2f", "%.3f" },
};

/* The figures of mx in recorded order; NULL where not measured. */
static void figures_of(const struct ph_mx *mx, const struct ph_nmatrix *figs[PH_NREC])
{
	figs[PH_REC_LATENCY] = mx->lat;
	figs[PH_REC_READ] = mx->read;
	figs[PH_REC_TRIAD] = mx->triad;
}

static struct ph_doc *build_doc(const struct ph_mx *mx, struct ph_session *s, bool mem);

/*
 * A figure or distance matrix into doc, with rows = CPU node, or with rows
 * = memory node (mem_rows: as the seeds print their tables; the title says
 * so).  v[r * ncols + c] has CPU rows either way.
 */
static void add_values(struct ph_doc *doc, const char *name, const char *title,
		       const char *metric, int nrows, const int *row_ids, int ncols,
		       const int *col_ids, const double *v, const char *fmt, bool mem_rows)
{
	struct ph_matrix *out;
	char t[160];

	snprintf(t, sizeof(t), "%s%s", title, mem_rows ? "; rows = memory node" : "");
	out = mem_rows ? doc_add_matrix(doc, name, t, metric, ncols, col_ids, nrows, row_ids) :
			 doc_add_matrix(doc, name, t, metric, nrows, row_ids, ncols, col_ids);
	for (int r = 0; r < nrows; r++)
		for (int c = 0; c < ncols; c++)
			matrix_num(out, mem_rows ? c : r, mem_rows ? r : c, v[r * ncols + c], fmt);
}

static void add_nmatrix(struct ph_doc *doc, enum ph_recorded fig, const char *title,
			const struct ph_nmatrix *m, bool mem_rows)
{
	add_values(doc, ph_recorded_key[fig], title, metric_name(m->metric), m->nrows, m->row_ids,
		   m->ncols, m->col_ids, m->val, recorded_fmt[fig].value, mem_rows);
}

static void add_distance(struct ph_doc *doc, const char *name, const char *title,
			 const struct ph_nmatrix *m, const struct ph_slit *slit, bool mem_rows)
{
	struct ph_dmatrix d;

	if (!dist_normalise(m, slit, PH_DEFAULT_NOISE, &d))
		add_values(doc, name, title, "distance", d.nrows, d.row_ids, d.ncols, d.col_ids,
			   d.d, "%.1f", mem_rows);
	dmatrix_free(&d);	/* filled even when it fails */
}

static struct ph_slit *machine_slit(const struct ph_topology *t)
{
	int ids[t->nnodes > 0 ? t->nnodes : 1];
	struct ph_slit *s;

	for (int i = 0; i < t->nnodes; i++)
		ids[i] = t->nodes[i].id;
	s = slit_new(t->nnodes, ids);
	memcpy(s->dist, t->distance, (size_t)t->nnodes * t->nnodes * sizeof(int));
	return s;
}

/* What the cells' read and triad ran (the choice of auto, as in matrix.c):
 * "avx2", or "read avx512, triad avx2" where the two differ. */
static const char *bandwidth_isas(char *buf, size_t size)
{
	const struct stream_kernel *r = stream_auto("read", false, NULL);
	const struct stream_kernel *t = stream_auto("triad", false, NULL);

	if (r->isa == t->isa)
		snprintf(buf, size, "%s", isa_name(r->isa));
	else
		snprintf(buf, size, "read %s, triad %s", isa_name(r->isa), isa_name(t->isa));
	return buf;
}

struct ph_doc *matrix_doc(const struct ph_mx *mx, struct ph_session *s, bool mem_rows)
{
	return build_doc(mx, s, mem_rows);
}

/* A cell's row and column ids, as the cells table gives them. */
static void cell_keys(struct ph_table *t, int row, const struct ph_mx *mx, int i)
{
	table_int(t, row, "cpu_node", mx->dist_row[i]);
	table_int(t, row, "mem_node", mx->dist_col[i]);
}

/* Tables "matrix_dist" (a row per latency cell) and, with --histogram, "matrix_histogram". */
static void matrix_dist_tables(const struct ph_mx *mx, struct ph_doc *doc, struct ph_section *sec)
{
	struct ph_table *t = latency_dist_table(doc, "matrix_dist", "cpu_node mem_node", &mx->dist);
	struct ph_table *h = mx->dist.histogram ?
		latency_hist_table(doc, "matrix_histogram", "cpu_node mem_node") : NULL;

	for (int i = 0; i < mx->ndists; i++) {
		char label[48];
		int first, n;

		snprintf(label, sizeof(label), "cell %d,%d", mx->dist_row[i], mx->dist_col[i]);
		cell_keys(t, latency_dist_row(doc, t, &mx->dist, &mx->dists[i].user.st,
						   &mx->dists[i].dist, label), mx, i);
		if (!h)
			continue;
		n = latency_hist_rows(h, &mx->dists[i].dist, &first);
		for (int r = first; r < first + n; r++)
			cell_keys(h, r, mx, i);
	}
	latency_dist_method(sec, &mx->dist);
}

static struct ph_doc *build_doc(const struct ph_mx *mx, struct ph_session *s, bool mem)
{
	struct ph_doc *doc = doc_new("matrix");
	struct ph_section *sec = doc_add_section(doc, "matrix", "how the matrix was measured");
	struct ph_slit *slit = mx->grouped ? NULL : machine_slit(&s->m.topo);
	struct ph_table *t;
	char pat[64], isas[48];
	static const char *const cols[] = {
		"cpu_node", "mem_node", "figure", "median", "ci_low", "ci_high", "min", "samples",
		"ci_met", "verified", "page_size", "backend", "nodes_found", "cpus", "cpus_found", "cores_found", "shared_cores_found", "threads",
	};

	if (mx->have_prov)
		doc_set_provenance(doc, &mx->prov);
	{
		const char *cpu = mx->grouped ? "CPU groups (index into groups)" : "CPU nodes";
		const char *memory = mx->grouped ? "memory groups (index into groups)" : "memory nodes";

		section_str(sec, "rows", mem ? memory : cpu);
		section_str(sec, "columns", mem ? cpu : memory);
	}
	section_str(sec, "page_size_asked", psize_name(mx->psize));
	section_str(sec, "backend", mx->backend);
	if (mx->figures & MX_LATENCY) {
		section_str(sec, "latency", "idle: one thread on the row's first CPU, a pointer chase over memory on the column");
		section_str(sec, "latency_pattern", chase_spec_name(&mx->pattern, pat, sizeof(pat)));
		section_int(sec, "latency_size_KiB", (long long)(mx->lat_size / KiB));
		/* Set up once per memory column, not once per cell (matrix.c). */
		section_int(sec, "latency_buffers_built", mx->lat_mem.laid_out);
		section_int(sec, "chains_built", mx->lat_mem.chains_built);
	}
	if (mx->figures & (MX_READ | MX_TRIAD)) {
		section_str(sec, "bandwidth", "one thread per core of the row's CPUs (or --threads), STREAM read and triad, memory on the column");
		section_int(sec, "bandwidth_size_KiB", (long long)(mx->bw_size / KiB));
		section_str(sec, "bandwidth_isa", bandwidth_isas(isas, sizeof(isas)));
		section_int(sec, "bandwidth_buffers_built", mx->bw_mem.laid_out);
		/* Once per kernel per column, not per cell (bandwidth.c). */
		section_int(sec, "bandwidth_arrays_written", mx->bw_mem.arrays_written);
	}
	if (mx->place)
		section_str(sec, "placement", place_name(mx->place));
	section_str(sec, "cpus_found",
		    "read back by each thread with sched_getcpu() after pinning; cores_found and shared_cores_found by hwloc's cores of those CPUs");
	section_str(sec, "orientation", mem ? "mem-rows: rows = memory node (table and CSV only)" :
					    "cpu-rows: rows = CPU node");
	section_int(sec, "cells_done", mx->done);
	section_int(sec, "cells", mx->total);
	section_bool(sec, "interrupted", mx->interrupted);
	section_bool(sec, "all_verified", mx->all_verified);
	section_int(sec, "cells_ci_not_met", mx->ci_not_met);

	if (mx->lat)
		add_nmatrix(doc, PH_REC_LATENCY, "idle latency, ns (median)", mx->lat, mem);
	if (mx->read)
		add_nmatrix(doc, PH_REC_READ, "read bandwidth, GB/s (median)", mx->read, mem);
	if (mx->triad)
		add_nmatrix(doc, PH_REC_TRIAD, "triad bandwidth, GB/s (median)", mx->triad, mem);
	if (mx->lat)
		add_distance(doc, "distance_from_latency",
			     "distance from latency, 10 x L[c][m] / L[c][local]", mx->lat, slit, mem);
	if (mx->read)
		add_distance(doc, "distance_from_read",
			     "distance from read bandwidth, 10 x B[c][local] / B[c][m]", mx->read, slit, mem);

	t = doc_add_table(doc, "cells", "every figure of every cell");
	for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
		table_add_col(t, cols[i]);
	/* The statistics, and where the threads and pages were found (verified says whether as asked). */
	table_detail(t, "min samples ci_met backend nodes_found cpus_found cores_found "
		     "shared_cores_found threads");
	for (int i = 0; i < mx->ncellv; i++) {
		const struct ph_mx_cell *cl = &mx->cellv[i];
		bool lat = cl->fig == PH_REC_LATENCY;
		const char *f = recorded_fmt[cl->fig].cell;
		int r = table_add_row(t);

		table_int(t, r, "cpu_node", cl->row);
		table_int(t, r, "mem_node", cl->col);
		table_str(t, r, "figure", ph_recorded_key[cl->fig]);
		table_num(t, r, "median", cl->st.median, f);
		table_num(t, r, "ci_low", cl->st.ci_lo, f);
		table_num(t, r, "ci_high", cl->st.ci_hi, f);
		/* The best sample: the lowest latency, the highest bandwidth. */
		table_num(t, r, "min", lat ? cl->st.min : cl->st.max, f);
		table_int(t, r, "samples", (long long)cl->st.n);
		table_bool(t, r, "ci_met", cl->ci_met);
		table_bool(t, r, "verified", cl->verified);
		table_str(t, r, "page_size", cl->page_size);
		table_str(t, r, "backend", cl->backend);
		table_str(t, r, "nodes_found", cl->nodes);
		table_str(t, r, "cpus", cl->cpus);
		table_str(t, r, "cpus_found", cl->cpus_found[0] ? cl->cpus_found : NULL);
		table_int(t, r, "cores_found", cl->cores_found);
		table_int(t, r, "shared_cores_found", cl->shared_cores_found);
		table_int(t, r, "threads", cl->threads);
	}
	if (mx->grouped) {
		t = doc_add_table(doc, "groups", "groups");
		table_add_col(t, "group");
		table_add_col(t, "nodes");
		table_add_col(t, "cpus");
		table_add_col(t, "has_cpus");
		table_add_col(t, "has_memory");
		for (int g = 0; g < mx->ngroups; g++) {
			int r = table_add_row(t);

			table_int(t, r, "group", g);
			table_str(t, r, "nodes", mx->groups[g].name);
			table_str(t, r, "cpus", mx->groups[g].cpus_text[0] ? mx->groups[g].cpus_text : NULL);
			table_bool(t, r, "has_cpus", mx->groups[g].has_cpus);
			table_bool(t, r, "has_memory", mx->groups[g].has_memory);
		}
		doc_note(doc, "rows and columns are group indexes; the SLIT is per node, so it is not recorded beside a grouped matrix");
	} else {
		topology_report_distances(doc, &s->m.topo);
		topology_report_hmat(doc, &s->m.topo);
	}
	if (mx->dist.want)
		matrix_dist_tables(mx, doc, sec);
	session_describe(s, doc);
	if (mx->interrupted)
		doc_note(doc, "interrupted after %d of %d cells: cells not measured are null", mx->done, mx->total);
	if (mx->ci_not_met)
		doc_note(doc, "%d figures did not reach the CI target within --time; see cells.ci_met", mx->ci_not_met);
	if (!mx->all_verified)
		doc_note(doc, "some memory was NOT verified to be where or what was asked (see cells.verified)");
	slit_free(slit);
	return doc;
}


/* v as a reader of the document gets it back: printed with fmt, read with strtod. */
static double as_recorded(double v, const char *fmt)
{
	char buf[64];

	if (!isfinite(v))
		return NAN;
	format_number(buf, sizeof(buf), fmt, v);
	return strtod(buf, NULL);
}

/* One figure as the document records it: medians, CIs and sample counts. */
static struct ph_nmatrix *recorded(const struct ph_nmatrix *m, enum ph_recorded fig)
{
	struct ph_nmatrix *r = nmatrix_dup(m);

	for (int k = 0; k < m->nrows * m->ncols; k++) {
		r->val[k] = as_recorded(m->val[k], recorded_fmt[fig].value);
		r->ci_lo[k] = as_recorded(m->ci_lo[k], recorded_fmt[fig].cell);
		r->ci_hi[k] = as_recorded(m->ci_hi[k], recorded_fmt[fig].cell);
	}
	return r;
}

int matrix_input(const struct ph_mx *mx, const struct ph_topology *topo,
		 enum ph_figure fig, struct ph_input *in)
{
	const struct ph_nmatrix *m[PH_NREC];
	struct ph_nmatrix *figs[PH_NREC] = { NULL };
	bool present[PH_NREC];
	int pick;

	memset(in, 0, sizeof(*in));
	figures_of(mx, m);
	for (int i = 0; i < PH_NREC; i++)
		present[i] = m[i];
	pick = figure_pick(fig, present);
	if (pick < 0)
		return -EINVAL;
	for (int i = 0; i < PH_NREC; i++)
		if (m[i] && (i == pick || i == PH_REC_LATENCY || i == PH_REC_READ))
			figs[i] = recorded(m[i], i);
	in->json = true;
	if (mx->have_prov)
		in->source = input_source_line(mx->prov.command, mx->prov.host,
					       mx->prov.time_utc, mx->prov.version);
	input_take_recorded(in, figs, pick);
	for (int i = 0; i < mx->ncellv; i++)
		if ((int)mx->cellv[i].fig == pick && !mx->cellv[i].ci_met)
			in->ci_not_met++;
	/* The document records no SLIT or HMAT beside groups of nodes. */
	if (!mx->grouped) {
		in->slit = machine_slit(topo);
		in->nhmat = topo->nhmat;
		in->hmat = xcalloc(topo->nhmat ? topo->nhmat : 1, sizeof(*in->hmat));
		memcpy(in->hmat, topo->hmat, topo->nhmat * sizeof(*in->hmat));
	}
	return 0;
}

void matrix_study_free_groups(struct ph_mx_study *ms)
{
	matrix_free_groups(ms->groups, ms->ngroups);
	ms->groups = NULL;
	ms->ngroups = 0;
}

static int matrix_study_plan(void *state, struct ph_session *s)
{
	struct ph_mx_study *ms = state;
	struct ph_mx *mx = &ms->mx;
	int rc = matrix_plan(mx, &s->m.topo, ms->groups, ms->ngroups, s->opt->bind.cpunodebind,
			     s->opt->bind.membind);

	if (!rc && mx->place)
		rc = matrix_place(mx, &s->m.cpu);
	if (!rc)
		mx->psize = s->opt->psize_given ? s->opt->bufreq.psize : matrix_default_psize(mx, s);
	return rc;
}

static int matrix_study_measure(void *state, struct ph_session *s)
{
	struct ph_mx_study *ms = state;
	struct ph_mx *mx = &ms->mx;
	int rc;

	ms->saver.path = ms->save;
	ms->saver.s = s;
	rc = matrix_measure(mx, s, ms->on_cell, &ms->saver);
	if (mx->interrupted && !mx->ncellv)
		ph_err("interrupted before any cell was measured");
	return mx->interrupted ? PH_EXIT_INTERRUPTED : rc;
}

/* A matrix with no measured cell is not printed: the reason is on stderr. */
static bool matrix_study_measured(const void *state)
{
	return ((const struct ph_mx_study *)state)->mx.ncellv > 0;
}

static struct ph_doc *matrix_study_doc(void *state, struct ph_session *s, int *rc)
{
	const struct ph_mx_study *ms = state;

	(void)rc;
	return matrix_doc(&ms->mx, s, ms->mem_rows_table);
}

static void matrix_study_free(void *state, struct ph_session *s)
{
	struct ph_mx_study *ms = state;

	(void)s;
	matrix_study_free_groups(ms);
	matrix_free(&ms->mx);
}

const struct ph_steps matrix_steps = {
	.size = sizeof(struct ph_mx_study),
	.plan = matrix_study_plan,
	.measure = matrix_study_measure,
	.measured = matrix_study_measured,
	.document = matrix_study_doc,
	.free = matrix_study_free,
};
