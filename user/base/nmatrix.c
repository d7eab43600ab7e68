// SPDX-License-Identifier: GPL-2.0-only
/*
 * nmatrix.c - the data model of node matrices, SLITs and HMAT records:
 * making, copying, growing and looking up.  No arithmetic on the values:
 * that is the analysis (distance.c).
 */
#include "nmatrix.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *metric_name(enum ph_metric m)
{
	switch (m) {
	case PH_METRIC_LATENCY:
		return "latency_ns";
	case PH_METRIC_BANDWIDTH:
		return "bandwidth_GBps";
	case PH_METRIC_DISTANCE:
		return "distance";
	}
	return "unknown";
}

enum ph_metric metric_parse(const char *s)
{
	if (!strcmp(s, "latency_ns"))
		return PH_METRIC_LATENCY;
	if (!strcmp(s, "bandwidth_GBps"))
		return PH_METRIC_BANDWIDTH;
	if (!strcmp(s, "distance"))
		return PH_METRIC_DISTANCE;
	return 0;
}

int *nmatrix_ids_dup(const int *ids, int n)
{
	int *p = xcalloc(n > 0 ? n : 1, sizeof(int));

	if (n > 0)
		memcpy(p, ids, n * sizeof(int));
	return p;
}

double *nmatrix_nans(size_t n)
{
	double *p = xmalloc((n ? n : 1) * sizeof(double));

	for (size_t i = 0; i < n; i++)
		p[i] = NAN;
	return p;
}

/* ---- matrices ---- */

struct ph_nmatrix *nmatrix_new(enum ph_metric metric, int nrows,
			       const int *row_ids, int ncols, const int *col_ids)
{
	struct ph_nmatrix *m = xcalloc(1, sizeof(*m));
	size_t n = (size_t)nrows * ncols;

	m->metric = metric;
	m->nrows = nrows;
	m->ncols = ncols;
	m->row_ids = nmatrix_ids_dup(row_ids, nrows);
	m->col_ids = nmatrix_ids_dup(col_ids, ncols);
	m->val = nmatrix_nans(n);
	m->ci_lo = nmatrix_nans(n);
	m->ci_hi = nmatrix_nans(n);
	m->samples = xcalloc(n ? n : 1, sizeof(int));
	m->ci_missed = xcalloc(n ? n : 1, sizeof(bool));
	m->rows_cap = nrows;
	return m;
}

void nmatrix_add_row(struct ph_nmatrix *m, int id, const double *vals)
{
	size_t nc = (size_t)m->ncols, at = (size_t)m->nrows * nc;

	if (m->nrows >= m->rows_cap) {
		size_t cap = m->rows_cap > 2 ? 2 * (size_t)m->rows_cap : 4, n = cap * nc;

		m->row_ids = xrealloc(m->row_ids, cap * sizeof(int));
		m->val = xrealloc(m->val, (n ? n : 1) * sizeof(double));
		m->ci_lo = xrealloc(m->ci_lo, (n ? n : 1) * sizeof(double));
		m->ci_hi = xrealloc(m->ci_hi, (n ? n : 1) * sizeof(double));
		m->samples = xrealloc(m->samples, (n ? n : 1) * sizeof(int));
		m->ci_missed = xrealloc(m->ci_missed, (n ? n : 1) * sizeof(bool));
		m->rows_cap = (int)cap;
	}
	m->row_ids[m->nrows] = id;
	for (size_t c = 0; c < nc; c++) {
		m->val[at + c] = vals[c];
		m->ci_lo[at + c] = NAN;
		m->ci_hi[at + c] = NAN;
		m->samples[at + c] = 0;
		m->ci_missed[at + c] = false;
	}
	m->nrows++;
}

struct ph_nmatrix *nmatrix_dup(const struct ph_nmatrix *m)
{
	struct ph_nmatrix *d = nmatrix_new(m->metric, m->nrows, m->row_ids,
					   m->ncols, m->col_ids);
	size_t n = (size_t)m->nrows * m->ncols;

	memcpy(d->val, m->val, n * sizeof(double));
	memcpy(d->ci_lo, m->ci_lo, n * sizeof(double));
	memcpy(d->ci_hi, m->ci_hi, n * sizeof(double));
	memcpy(d->samples, m->samples, n * sizeof(int));
	memcpy(d->ci_missed, m->ci_missed, n * sizeof(bool));
	return d;
}

void nmatrix_free(struct ph_nmatrix *m)
{
	if (!m)
		return;
	free(m->row_ids);
	free(m->col_ids);
	free(m->val);
	free(m->ci_lo);
	free(m->ci_hi);
	free(m->samples);
	free(m->ci_missed);
	free(m);
}

static int find_id(const int *ids, int n, int node)
{
	for (int i = 0; i < n; i++)
		if (ids[i] == node)
			return i;
	return -1;
}

/* node_index(): one sort and a binary search per id, the first index as find_id(). */
struct id_at {
	int id, at;
};

static int id_at_cmp(const void *pa, const void *pb)
{
	const struct id_at *a = pa, *b = pb;

	if (a->id != b->id)
		return (a->id > b->id) - (a->id < b->id);
	return (a->at > b->at) - (a->at < b->at);
}

int *node_index(const int *ids, int n, const int *q, int nq)
{
	struct id_at *sorted = xmalloc((n > 0 ? n : 1) * sizeof(*sorted));
	int *out = xmalloc((nq > 0 ? nq : 1) * sizeof(int));

	for (int i = 0; i < n; i++)
		sorted[i] = (struct id_at){ ids[i], i };
	qsort(sorted, n, sizeof(*sorted), id_at_cmp);
	for (int k = 0; k < nq; k++) {
		int lo = 0, hi = n;

		/* The first entry with id >= q[k]: its lowest index comes first. */
		while (lo < hi) {
			int mid = lo + (hi - lo) / 2;

			if (sorted[mid].id < q[k])
				lo = mid + 1;
			else
				hi = mid;
		}
		out[k] = lo < n && sorted[lo].id == q[k] ? sorted[lo].at : -1;
	}
	free(sorted);
	return out;
}

int nmatrix_row(const struct ph_nmatrix *m, int node)
{
	return find_id(m->row_ids, m->nrows, node);
}

int nmatrix_col(const struct ph_nmatrix *m, int node)
{
	return find_id(m->col_ids, m->ncols, node);
}

struct ph_slit *slit_new(int n, const int *ids)
{
	struct ph_slit *s = xcalloc(1, sizeof(*s));

	s->n = n;
	s->ids = nmatrix_ids_dup(ids, n);
	s->dist = xcalloc((size_t)(n > 0 ? n : 1) * (n > 0 ? n : 1), sizeof(int));
	return s;
}

void slit_free(struct ph_slit *s)
{
	if (!s)
		return;
	free(s->ids);
	free(s->dist);
	free(s);
}

int slit_at(const struct ph_slit *s, int a, int b)
{
	int i, j;

	if (!s)
		return -1;
	i = find_id(s->ids, s->n, a);
	j = find_id(s->ids, s->n, b);
	return i < 0 || j < 0 ? -1 : s->dist[i * s->n + j];
}

/* A square distance block (rows and columns the same nodes) as a SLIT. */
struct ph_slit *slit_from_nmatrix(const struct ph_nmatrix *m)
{
	struct ph_slit *s;

	if (m->nrows != m->ncols)
		return NULL;
	for (int i = 0; i < m->nrows; i++)
		if (nmatrix_col(m, m->row_ids[i]) < 0)
			return NULL;
	s = slit_new(m->nrows, m->row_ids);
	for (int i = 0; i < m->nrows; i++) {
		for (int j = 0; j < m->nrows; j++) {
			double v = m->val[i * m->ncols + nmatrix_col(m, m->row_ids[j])];

			if (!isfinite(v) || v != floor(v) || v > 255) {
				slit_free(s);
				return NULL;
			}
			s->dist[i * s->n + j] = (int)v;
		}
	}
	return s;
}

/* ---- HMAT ---- */

int parse_id_list(const char *s, int *ids, int max)
{
	int n = 0;

	while (*s) {
		char *end;
		long a = strtol(s, &end, 10), b;

		if (end == s || a < 0)
			return -EINVAL;
		b = a;
		s = end;
		if (*s == '-') {
			b = strtol(s + 1, &end, 10);
			if (end == s + 1 || b < a)
				return -EINVAL;
			s = end;
		}
		for (long i = a; i <= b; i++) {
			if (n >= max)
				return -EINVAL;
			ids[n++] = (int)i;
		}
		if (*s == ',')
			s++;
		else if (*s)
			return -EINVAL;
	}
	return n;
}

/* ---- what "pagehop slit" analyses ---- */

int figure_parse(const char *s, enum ph_figure *out)
{
	static const struct {
		const char *name;
		enum ph_figure fig;
	} names[] = {
		{ "latency", PH_FIGURE_LATENCY },
		{ "bandwidth", PH_FIGURE_BANDWIDTH },
		{ "read", PH_FIGURE_READ },
		{ "triad", PH_FIGURE_TRIAD },
		{ "distance", PH_FIGURE_DISTANCE },
	};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		if (!strcmp(s, names[i].name)) {
			*out = names[i].fig;
			return 0;
		}
	}
	return -EINVAL;
}

const char *const ph_recorded_key[PH_NREC] = {
	[PH_REC_LATENCY] = "latency_ns",
	[PH_REC_READ] = "bandwidth_read_GBps",
	[PH_REC_TRIAD] = "bandwidth_triad_GBps",
};

int figure_pick(enum ph_figure fig, const bool have[PH_NREC])
{
	switch (fig) {
	case PH_FIGURE_DEFAULT:
		for (int i = 0; i < PH_NREC; i++)
			if (have[i])
				return i;
		return -1;
	case PH_FIGURE_LATENCY:
		return have[PH_REC_LATENCY] ? PH_REC_LATENCY : -1;
	case PH_FIGURE_BANDWIDTH:
		return have[PH_REC_READ] ? PH_REC_READ : have[PH_REC_TRIAD] ? PH_REC_TRIAD : -1;
	case PH_FIGURE_READ:
		return have[PH_REC_READ] ? PH_REC_READ : -1;
	case PH_FIGURE_TRIAD:
		return have[PH_REC_TRIAD] ? PH_REC_TRIAD : -1;
	case PH_FIGURE_DISTANCE:
		break;
	}
	return -1;
}

void input_take_recorded(struct ph_input *in, struct ph_nmatrix *figs[PH_NREC], int pick)
{
	in->figure = xstrdup(ph_recorded_key[pick]);
	in->m = figs[pick];
	in->latency = pick == PH_REC_LATENCY ? nmatrix_dup(in->m) : figs[PH_REC_LATENCY];
	in->read_bw = pick == PH_REC_READ ? nmatrix_dup(in->m) : figs[PH_REC_READ];
	if (pick != PH_REC_TRIAD)
		nmatrix_free(figs[PH_REC_TRIAD]);
	for (int i = 0; i < PH_NREC; i++)
		figs[i] = NULL;
}

char *input_source_line(const char *command, const char *host, const char *time_utc,
			const char *version)
{
	char *line = xasprintf("%s on %s at %s (pagehop %s)", command ? command : "pagehop",
			       host ? host : "?", time_utc ? time_utc : "?",
			       version ? version : "?");

	/*
	 * Only a label of the report, so kept, but as one line of text: a
	 * control character (from a JSON escape) would reach the terminal.
	 */
	for (char *c = line; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	return line;
}

void input_free(struct ph_input *in)
{
	free(in->path);
	free(in->figure);
	free(in->source);
	free(in->host);
	nmatrix_free(in->m);
	nmatrix_free(in->latency);
	nmatrix_free(in->read_bw);
	slit_free(in->slit);
	free(in->hmat);
	free(in->note);
	memset(in, 0, sizeof(*in));
}

struct ph_nmatrix *nmatrix_transpose(const struct ph_nmatrix *m)
{
	struct ph_nmatrix *t = nmatrix_new(m->metric, m->ncols, m->col_ids, m->nrows, m->row_ids);

	for (int r = 0; r < m->nrows; r++)
		for (int c = 0; c < m->ncols; c++) {
			size_t from = (size_t)r * m->ncols + c, to = (size_t)c * m->nrows + r;

			t->val[to] = m->val[from];
			t->ci_lo[to] = m->ci_lo[from];
			t->ci_hi[to] = m->ci_hi[from];
			t->samples[to] = m->samples[from];
			t->ci_missed[to] = m->ci_missed[from];
		}
	return t;
}

int orient_parse(const char *s, enum ph_orient *out)
{
	if (!strcmp(s, "cpu-rows"))
		*out = PH_ORIENT_CPU_ROWS;
	else if (!strcmp(s, "mem-rows"))
		*out = PH_ORIENT_MEM_ROWS;
	else
		return -EINVAL;
	return 0;
}

const char *orient_name(enum ph_orient o)
{
	return o == PH_ORIENT_MEM_ROWS ? "mem-rows" : "cpu-rows";
}
