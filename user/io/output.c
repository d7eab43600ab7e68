// SPDX-License-Identifier: GPL-2.0-only
/*
 * output.c - the document model; render.c renders it, with the three
 * renderings of render_table.c, render_csv.c and render_json.c.
 *
 * Strings in JSON are escaped by json-c, so that they are always escaped
 * correctly; numbers keep the text the command formatted them with, so the
 * JSON says "12.34" rather than 12.339999999999999.  The layout is json-c's
 * (JSON_C_TO_STRING_PRETTY | _SPACED | _NOSLASHESCAPE), written as the
 * document is walked rather than built as a json-c tree first: a table of a
 * million rows would take a gigabyte as json-c objects.  test_output.c
 * parses every rendering back with json-c and checks that json-c writes the
 * same bytes.
 *
 * Large tables and matrices need not be stored at all: doc_add_table_rows()
 * and doc_add_matrix_rows() take a function that fills one row when it is
 * rendered, into a scratch row.  Everything is rendered straight to the
 * output stream; nothing is written before the command is done.
 */
#include "output_impl.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Cells held: every one, or the scratch row of a table or matrix made when rendered. */
static size_t table_stored(const struct ph_table *t)
{
	return t->fill ? (t->cells ? (size_t)t->ncols : 0) : (size_t)t->nrows * t->ncols;
}

static size_t matrix_stored(const struct ph_matrix *m)
{
	return m->fill ? (size_t)m->ncols : (size_t)m->nrows * m->ncols;
}

struct ph_doc *doc_new(const char *command)
{
	struct ph_doc *d = xcalloc(1, sizeof(*d));

	d->command = xstrdup(command);
	return d;
}

static void cell_free(struct cell *c)
{
	free(c->text);
	c->text = NULL;
	c->brief = 0;
	c->buf[0] = '\0';
	c->len = 0;
	c->kind = CELL_NONE;
}

void doc_free(struct ph_doc *d)
{
	if (!d)
		return;
	for (int i = 0; i < d->nitems; i++) {
		struct item *it = d->items[i];

		switch (it->kind) {
		case ITEM_SECTION:
			for (int k = 0; k < it->sect.n; k++) {
				free(it->sect.kv[k].key);
				cell_free(&it->sect.kv[k].val);
			}
			free(it->sect.kv);
			break;
		case ITEM_TABLE:
			for (size_t k = 0; k < table_stored(&it->table); k++)
				cell_free(&it->table.cells[k]);
			for (int k = 0; k < it->table.ncols; k++)
				free(it->table.cols[k]);
			free(it->table.cols);
			free(it->table.detail);
			free(it->table.first);
			free(it->table.cells);
			break;
		case ITEM_MATRIX:
			for (size_t k = 0; k < matrix_stored(&it->matrix); k++)
				cell_free(&it->matrix.cells[k]);
			free(it->matrix.cells);
			free(it->matrix.row_ids);
			free(it->matrix.col_ids);
			free(it->matrix.metric);
			break;
		}
		free(it->name);
		free(it->title);
		free(it);
	}
	for (int i = 0; i < d->nnotes; i++)
		free(d->notes[i]);
	free(d->notes);
	free(d->items);
	free(d->command);
	free(d);
}

void doc_set_provenance(struct ph_doc *d, const struct ph_provenance *p)
{
	d->prov = *p;
	d->have_prov = true;
}

static struct item *add_item(struct ph_doc *d, enum item_kind kind,
			     const char *name, const char *title)
{
	struct item *it = xcalloc(1, sizeof(*it));

	it->kind = kind;
	it->name = xstrdup(name);
	it->title = xstrdup(title ? title : name);
	d->items = xrealloc(d->items, (d->nitems + 1) * sizeof(*d->items));
	d->items[d->nitems++] = it;
	return it;
}

/* ---- cells ---- */

static void cell_str(struct cell *c, const char *val)
{
	size_t len;

	cell_free(c);
	if (!val)
		return;
	c->kind = CELL_STR;
	len = strlen(val);
	c->len = (int)len;
	if (len < sizeof(c->buf))
		memcpy(c->buf, val, len + 1);
	else
		c->text = xstrdup(val);
}

/* A string with a short form for the table rendering (output.h). */
static void cell_str_brief(struct cell *c, const char *val, const char *brief)
{
	size_t len, blen;

	if (!val || !brief || !strcmp(val, brief)) {
		cell_str(c, val);
		return;
	}
	cell_free(c);
	c->kind = CELL_STR;
	len = strlen(val);
	blen = strlen(brief);
	c->len = (int)len;
	c->text = xmalloc(len + 1 + blen + 1);
	memcpy(c->text, val, len + 1);
	memcpy(c->text + len + 1, brief, blen + 1);
	c->brief = (int)len + 1;
}

static void cell_int(struct cell *c, long long val)
{
	cell_free(c);
	c->kind = CELL_INT;
	c->i = val;
	c->len = format_int(c->buf, val);
}

static void cell_num(struct cell *c, double val, const char *fmt)
{
	cell_free(c);
	if (!isfinite(val))
		return;		/* not a number is "no value", never "nan" */
	c->kind = CELL_NUM;
	c->d = val;
	c->len = format_number(c->buf, sizeof(c->buf), fmt ? fmt : "%g", val);
	if (c->len >= (int)sizeof(c->buf)) {
		c->text = xasprintf(fmt ? fmt : "%g", val);
		c->len = (int)strlen(c->text);
	}
}

static void cell_bool(struct cell *c, bool val)
{
	cell_free(c);
	c->kind = CELL_BOOL;
	c->i = val;
	strcpy(c->buf, val ? "yes" : "no");
	c->len = val ? 3 : 2;
}

/* ---- sections ---- */

struct ph_section *doc_add_section(struct ph_doc *d, const char *name,
				   const char *title)
{
	return &add_item(d, ITEM_SECTION, name, title)->sect;
}

static struct cell *section_cell(struct ph_section *s, const char *key)
{
	for (int i = 0; i < s->n; i++)
		if (!strcmp(s->kv[i].key, key))
			return &s->kv[i].val;
	s->kv = xrealloc(s->kv, (s->n + 1) * sizeof(*s->kv));
	memset(&s->kv[s->n], 0, sizeof(s->kv[s->n]));
	s->kv[s->n].key = xstrdup(key);
	return &s->kv[s->n++].val;
}

void section_str(struct ph_section *s, const char *key, const char *val)
{
	cell_str(section_cell(s, key), val);
}

void section_str_brief(struct ph_section *s, const char *key, const char *val,
		       const char *brief)
{
	cell_str_brief(section_cell(s, key), val, brief);
}

void section_int(struct ph_section *s, const char *key, long long val)
{
	cell_int(section_cell(s, key), val);
}

void section_num(struct ph_section *s, const char *key, double val,
		 const char *fmt)
{
	cell_num(section_cell(s, key), val, fmt);
}

void section_bool(struct ph_section *s, const char *key, bool val)
{
	cell_bool(section_cell(s, key), val);
}

/* ---- tables ---- */

struct ph_table *doc_add_table(struct ph_doc *d, const char *name,
			       const char *title)
{
	return &add_item(d, ITEM_TABLE, name, title)->table;
}

struct ph_table *doc_add_table_rows(struct ph_doc *d, const char *name,
				    const char *title, int nrows,
				    ph_table_fill_fn fill, const void *ctx)
{
	struct ph_table *t = &add_item(d, ITEM_TABLE, name, title)->table;

	t->nrows = nrows;
	t->fill = fill;
	t->ctx = ctx;
	t->cur = -1;
	return t;
}

void table_add_col(struct ph_table *t, const char *name)
{
	if (t->fill ? t->cells != NULL : t->nrows > 0) {
		/* A column added after rows would leave the rows short. */
		fprintf(stderr, "pagehop: internal error: column %s added after rows\n", name);
		abort();
	}
	t->cols = xrealloc(t->cols, (t->ncols + 1) * sizeof(*t->cols));
	t->first = xrealloc(t->first, (t->ncols + 1) * sizeof(*t->first));
	t->detail = xrealloc(t->detail, (t->ncols + 1) * sizeof(*t->detail));
	t->detail[t->ncols] = false;
	t->first[t->ncols] = t->ncols;
	for (int c = t->ncols - 1; c >= 0; c--)
		if (!strcmp(t->cols[c], name))
			t->first[t->ncols] = c;
	t->cols[t->ncols++] = xstrdup(name);
}

void table_col_detail(struct ph_table *t, const char *name)
{
	bool found = false;

	for (int c = 0; c < t->ncols; c++)
		if (!strcmp(t->cols[c], name))
			found = t->detail[c] = true;
	if (!found) {
		fprintf(stderr, "pagehop: internal error: no column %s to mark as detail\n", name);
		abort();
	}
}

void table_detail(struct ph_table *t, const char *names)
{
	char *copy = xstrdup(names), *save = NULL;

	for (char *n = strtok_r(copy, " ", &save); n; n = strtok_r(NULL, " ", &save))
		table_col_detail(t, n);
	free(copy);
}

int table_add_row(struct ph_table *t)
{
	if (t->fill) {
		fprintf(stderr, "pagehop: internal error: row added to a generated table\n");
		abort();
	}
	/* Room for rows doubles: a row at a time would copy the table each time. */
	if (t->nrows == t->rows_cap) {
		t->rows_cap = t->rows_cap ? 2 * t->rows_cap : 8;
		t->cells = xrealloc(t->cells, (size_t)t->rows_cap * t->ncols * sizeof(*t->cells));
	}
	memset(&t->cells[(size_t)t->nrows * t->ncols], 0,
	       t->ncols * sizeof(*t->cells));
	return t->nrows++;
}

int table_nrows(const struct ph_table *t)
{
	return t->nrows;
}

/* The cells of row r: stored, or made now by the fill function in the scratch row. */
const struct cell *doc_table_row(struct ph_table *t, int r)
{
	if (!t->fill)
		return &t->cells[(size_t)r * t->ncols];
	if (!t->cells)
		t->cells = xcalloc(t->ncols ? t->ncols : 1, sizeof(*t->cells));
	for (int c = 0; c < t->ncols; c++)
		cell_free(&t->cells[c]);
	t->cur = r;
	t->fill(t->ctx, t, r);
	return t->cells;
}

static struct cell *table_cell(struct ph_table *t, int row, const char *col)
{
	/* Rows are mostly filled in column order: try the column after the last first. */
	for (int i = 0; i < t->ncols; i++) {
		int c = (t->hint + i) % t->ncols;

		if (strcmp(t->cols[c], col))
			continue;
		t->hint = c + 1;
		c = t->first[c];	/* a repeated name means its first column */
		if (t->fill && row == t->cur && t->cells)
			return &t->cells[c];
		if (!t->fill && row >= 0 && row < t->nrows)
			return &t->cells[(size_t)row * t->ncols + c];
		break;
	}
	fprintf(stderr, "pagehop: internal error: no cell %s in row %d\n", col, row);
	abort();
}

void table_str(struct ph_table *t, int row, const char *col, const char *val)
{
	cell_str(table_cell(t, row, col), val);
}

void table_str_brief(struct ph_table *t, int row, const char *col, const char *val,
		     const char *brief)
{
	cell_str_brief(table_cell(t, row, col), val, brief);
}

void table_int(struct ph_table *t, int row, const char *col, long long val)
{
	cell_int(table_cell(t, row, col), val);
}

void table_num(struct ph_table *t, int row, const char *col, double val,
	       const char *fmt)
{
	cell_num(table_cell(t, row, col), val, fmt);
}

void table_bool(struct ph_table *t, int row, const char *col, bool val)
{
	cell_bool(table_cell(t, row, col), val);
}

/* ---- matrices ---- */

static struct ph_matrix *new_matrix(struct ph_doc *d, const char *name,
				    const char *title, const char *metric,
				    int nrows, const int *row_ids,
				    int ncols, const int *col_ids, ph_matrix_fill_fn fill,
				    const void *ctx)
{
	struct ph_matrix *m = &add_item(d, ITEM_MATRIX, name, title)->matrix;

	m->metric = xstrdup(metric);
	m->nrows = nrows;
	m->ncols = ncols;
	m->row_ids = xcalloc(nrows ? nrows : 1, sizeof(int));
	m->col_ids = xcalloc(ncols ? ncols : 1, sizeof(int));
	memcpy(m->row_ids, row_ids, nrows * sizeof(int));
	memcpy(m->col_ids, col_ids, ncols * sizeof(int));
	m->fill = fill;
	m->ctx = ctx;
	m->cur = -1;
	m->cells = xcalloc(matrix_stored(m) ? matrix_stored(m) : 1, sizeof(*m->cells));
	return m;
}

struct ph_matrix *doc_add_matrix(struct ph_doc *d, const char *name,
				 const char *title, const char *metric,
				 int nrows, const int *row_ids,
				 int ncols, const int *col_ids)
{
	return new_matrix(d, name, title, metric, nrows, row_ids, ncols, col_ids, NULL, NULL);
}

struct ph_matrix *doc_add_matrix_rows(struct ph_doc *d, const char *name,
				      const char *title, const char *metric,
				      int nrows, const int *row_ids,
				      int ncols, const int *col_ids,
				      ph_matrix_fill_fn fill, const void *ctx)
{
	return new_matrix(d, name, title, metric, nrows, row_ids, ncols, col_ids, fill, ctx);
}

const struct cell *doc_matrix_row(struct ph_matrix *m, int r)
{
	if (!m->fill)
		return &m->cells[(size_t)r * m->ncols];
	for (int c = 0; c < m->ncols; c++)
		cell_free(&m->cells[c]);
	m->cur = r;
	m->fill(m->ctx, m, r);
	return m->cells;
}

static struct cell *matrix_cell(struct ph_matrix *m, int r, int c)
{
	if (r < 0 || r >= m->nrows || c < 0 || c >= m->ncols || (m->fill && r != m->cur)) {
		fprintf(stderr, "pagehop: internal error: matrix cell %d,%d\n", r, c);
		abort();
	}
	return &m->cells[m->fill ? (size_t)c : (size_t)r * m->ncols + c];
}

void matrix_int(struct ph_matrix *m, int r, int c, long long val)
{
	cell_int(matrix_cell(m, r, c), val);
}

void matrix_num(struct ph_matrix *m, int r, int c, double val,
		const char *fmt)
{
	cell_num(matrix_cell(m, r, c), val, fmt);
}

void doc_note(struct ph_doc *d, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = xstrdup(fmt);
	va_end(ap);
	d->notes = xrealloc(d->notes, (d->nnotes + 1) * sizeof(*d->notes));
	d->notes[d->nnotes++] = s;
}

void doc_time_line(const struct ph_doc *d, char *buf, size_t size)
{
	const double *t = d->phase_s;

	snprintf(buf, size,
		 "time: setup %.2f s (alloc %.2f, touch %.2f, verify %.2f, chain %.2f, arrays %.2f), warm-up %.2f s, measure %.2f s, check %.2f s, total %.2f s",
		 d->setup_s, t[PH_PHASE_ALLOC], t[PH_PHASE_TOUCH], t[PH_PHASE_VERIFY],
		 t[PH_PHASE_CHAIN], t[PH_PHASE_ARRAYS], t[PH_PHASE_WARMUP], t[PH_PHASE_MEASURE],
		 t[PH_PHASE_CHECK], d->total_s);
}
