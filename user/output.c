// SPDX-License-Identifier: GPL-2.0-only
/*
 * output.c - the document model and its three renderings.
 *
 * JSON is produced with json-c rather than by hand so that strings are
 * always escaped correctly; numbers keep the text the command formatted them
 * with, so the JSON says "12.34" rather than 12.339999999999999.
 */
#include "output.h"
#include "util.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum cell_kind {
	CELL_NONE = 0,
	CELL_STR,
	CELL_INT,
	CELL_NUM,
	CELL_BOOL,
};

struct cell {
	enum cell_kind kind;
	char *text;		/* what table and CSV print */
	long long i;
	double d;
};

struct kv {
	char *key;
	struct cell val;
};

struct ph_section {
	struct kv *kv;
	int n;
};

struct ph_table {
	char **cols;
	int ncols;
	struct cell *cells;	/* nrows * ncols */
	int nrows;
};

struct ph_matrix {
	char *metric;
	int nrows, ncols;
	int *row_ids, *col_ids;
	struct cell *cells;
};

enum item_kind {
	ITEM_SECTION = 1,
	ITEM_TABLE,
	ITEM_MATRIX,
};

struct item {
	enum item_kind kind;
	char *name;
	char *title;
	union {
		struct ph_section sect;
		struct ph_table table;
		struct ph_matrix matrix;
	};
};

struct ph_doc {
	char *command;
	struct item **items;
	int nitems;
	char **notes;
	int nnotes;
	bool have_prov;
	struct ph_provenance prov;
};

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
			for (int k = 0; k < it->table.nrows * it->table.ncols; k++)
				cell_free(&it->table.cells[k]);
			for (int k = 0; k < it->table.ncols; k++)
				free(it->table.cols[k]);
			free(it->table.cols);
			free(it->table.cells);
			break;
		case ITEM_MATRIX:
			for (int k = 0; k < it->matrix.nrows * it->matrix.ncols; k++)
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
	cell_free(c);
	if (!val)
		return;
	c->kind = CELL_STR;
	c->text = xstrdup(val);
}

static void cell_int(struct cell *c, long long val)
{
	cell_free(c);
	c->kind = CELL_INT;
	c->i = val;
	c->text = xasprintf("%lld", val);
}

static void cell_num(struct cell *c, double val, const char *fmt)
{
	cell_free(c);
	if (!isfinite(val))
		return;		/* not a number is "no value", never "nan" */
	c->kind = CELL_NUM;
	c->d = val;
	c->text = xasprintf(fmt ? fmt : "%g", val);
}

static void cell_bool(struct cell *c, bool val)
{
	cell_free(c);
	c->kind = CELL_BOOL;
	c->i = val;
	c->text = xstrdup(val ? "yes" : "no");
}

static bool cell_numeric(const struct cell *c)
{
	return c->kind == CELL_INT || c->kind == CELL_NUM;
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

void table_add_col(struct ph_table *t, const char *name)
{
	if (t->nrows) {
		/* A column added after rows would leave the rows short. */
		fprintf(stderr, "pagehop: internal error: column %s added after rows\n", name);
		abort();
	}
	t->cols = xrealloc(t->cols, (t->ncols + 1) * sizeof(*t->cols));
	t->cols[t->ncols++] = xstrdup(name);
}

int table_add_row(struct ph_table *t)
{
	size_t n = (size_t)(t->nrows + 1) * t->ncols;

	t->cells = xrealloc(t->cells, n * sizeof(*t->cells));
	memset(&t->cells[(size_t)t->nrows * t->ncols], 0,
	       t->ncols * sizeof(*t->cells));
	return t->nrows++;
}

int table_nrows(const struct ph_table *t)
{
	return t->nrows;
}

static struct cell *table_cell(struct ph_table *t, int row, const char *col)
{
	for (int c = 0; c < t->ncols; c++)
		if (!strcmp(t->cols[c], col) && row >= 0 && row < t->nrows)
			return &t->cells[(size_t)row * t->ncols + c];
	fprintf(stderr, "pagehop: internal error: no cell %s in row %d\n", col, row);
	abort();
}

void table_str(struct ph_table *t, int row, const char *col, const char *val)
{
	cell_str(table_cell(t, row, col), val);
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

struct ph_matrix *doc_add_matrix(struct ph_doc *d, const char *name,
				 const char *title, const char *metric,
				 int nrows, const int *row_ids,
				 int ncols, const int *col_ids)
{
	struct ph_matrix *m = &add_item(d, ITEM_MATRIX, name, title)->matrix;

	m->metric = xstrdup(metric);
	m->nrows = nrows;
	m->ncols = ncols;
	m->row_ids = xcalloc(nrows, sizeof(int));
	m->col_ids = xcalloc(ncols, sizeof(int));
	memcpy(m->row_ids, row_ids, nrows * sizeof(int));
	memcpy(m->col_ids, col_ids, ncols * sizeof(int));
	m->cells = xcalloc((size_t)nrows * ncols, sizeof(*m->cells));
	return m;
}

static struct cell *matrix_cell(struct ph_matrix *m, int r, int c)
{
	if (r < 0 || r >= m->nrows || c < 0 || c >= m->ncols) {
		fprintf(stderr, "pagehop: internal error: matrix cell %d,%d\n", r, c);
		abort();
	}
	return &m->cells[(size_t)r * m->ncols + c];
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

/* ---- table rendering ---- */

static const char *cell_text(const struct cell *c)
{
	return c->kind == CELL_NONE ? "-" : c->text;
}

static void render_section_table(FILE *f, const struct item *it)
{
	int w = 0;

	fprintf(f, "%s:\n", it->title);
	for (int i = 0; i < it->sect.n; i++) {
		int l = (int)strlen(it->sect.kv[i].key);

		w = l > w ? l : w;
	}
	for (int i = 0; i < it->sect.n; i++)
		fprintf(f, "  %-*s  %s\n", w, it->sect.kv[i].key,
			cell_text(&it->sect.kv[i].val));
}

static void render_table_table(FILE *f, const struct item *it)
{
	const struct ph_table *t = &it->table;
	int *w = xcalloc(t->ncols, sizeof(int));
	bool *right = xcalloc(t->ncols, sizeof(bool));

	for (int c = 0; c < t->ncols; c++) {
		w[c] = (int)strlen(t->cols[c]);
		right[c] = true;
		for (int r = 0; r < t->nrows; r++) {
			const struct cell *cl = &t->cells[(size_t)r * t->ncols + c];
			int l = (int)strlen(cell_text(cl));

			w[c] = l > w[c] ? l : w[c];
			if (cl->kind != CELL_NONE && !cell_numeric(cl))
				right[c] = false;
		}
	}
	fprintf(f, "%s:\n", it->title);
	if (!t->nrows) {
		fprintf(f, "  (none)\n");
		goto out;
	}
	fprintf(f, " ");
	for (int c = 0; c < t->ncols; c++)
		fprintf(f, " %*s%s", right[c] ? w[c] : -w[c], t->cols[c],
			c + 1 < t->ncols ? " " : "");
	fprintf(f, "\n");
	for (int r = 0; r < t->nrows; r++) {
		fprintf(f, " ");
		for (int c = 0; c < t->ncols; c++)
			fprintf(f, " %*s%s", right[c] ? w[c] : -w[c],
				cell_text(&t->cells[(size_t)r * t->ncols + c]),
				c + 1 < t->ncols ? " " : "");
		fprintf(f, "\n");
	}
out:
	free(w);
	free(right);
}

/*
 * numactl --hardware prints "node   0   1" over rows "  0:  10  21": each
 * value right-aligned in 3 columns after one space.  Wider values widen
 * every column alike.
 */
static void render_matrix_table(FILE *f, const struct item *it)
{
	const struct ph_matrix *m = &it->matrix;
	int w = 3;
	char id[16];

	for (int k = 0; k < m->nrows * m->ncols; k++) {
		int l = (int)strlen(cell_text(&m->cells[k]));

		w = l > w ? l : w;
	}
	for (int c = 0; c < m->ncols; c++) {
		int l = snprintf(id, sizeof(id), "%d", m->col_ids[c]);

		w = l > w ? l : w;
	}
	fprintf(f, "%s:\nnode", it->title);
	for (int c = 0; c < m->ncols; c++)
		fprintf(f, " %*d", w, m->col_ids[c]);
	fprintf(f, "\n");
	for (int r = 0; r < m->nrows; r++) {
		fprintf(f, "%3d:", m->row_ids[r]);
		for (int c = 0; c < m->ncols; c++)
			fprintf(f, " %*s", w, cell_text(&m->cells[(size_t)r * m->ncols + c]));
		fprintf(f, "\n");
	}
}

static void render_table(struct ph_doc *d, FILE *f)
{
	for (int i = 0; i < d->nitems; i++) {
		const struct item *it = d->items[i];

		if (i)
			fprintf(f, "\n");
		switch (it->kind) {
		case ITEM_SECTION:
			render_section_table(f, it);
			break;
		case ITEM_TABLE:
			render_table_table(f, it);
			break;
		case ITEM_MATRIX:
			render_matrix_table(f, it);
			break;
		}
	}
	if (d->nnotes && d->nitems)
		fprintf(f, "\n");
	for (int i = 0; i < d->nnotes; i++)
		fprintf(f, "note: %s\n", d->notes[i]);
}

/* ---- CSV rendering (RFC 4180 quoting) ---- */

static void csv_field(FILE *f, const struct cell *c)
{
	const char *s;

	if (c->kind == CELL_NONE)
		return;		/* an empty field is a missing value */
	s = c->text;
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void csv_text(FILE *f, const char *s)
{
	struct cell c = { .kind = CELL_STR, .text = (char *)s };

	csv_field(f, &c);
}

static void render_csv(struct ph_doc *d, FILE *f)
{
	const struct ph_provenance *p = &d->prov;

	fprintf(f, "# pagehop %s %s; host %s; kernel %s; %s\n", p->version,
		d->command, p->host, p->kernel, p->time_utc);
	for (int i = 0; i < d->nitems; i++) {
		const struct item *it = d->items[i];

		fprintf(f, "\n");
		switch (it->kind) {
		case ITEM_SECTION:
			fprintf(f, "# section: %s\nkey,value\n", it->name);
			for (int k = 0; k < it->sect.n; k++) {
				csv_text(f, it->sect.kv[k].key);
				fputc(',', f);
				csv_field(f, &it->sect.kv[k].val);
				fputc('\n', f);
			}
			break;
		case ITEM_TABLE:
			fprintf(f, "# table: %s\n", it->name);
			for (int c = 0; c < it->table.ncols; c++) {
				if (c)
					fputc(',', f);
				csv_text(f, it->table.cols[c]);
			}
			fputc('\n', f);
			for (int r = 0; r < it->table.nrows; r++) {
				for (int c = 0; c < it->table.ncols; c++) {
					if (c)
						fputc(',', f);
					csv_field(f, &it->table.cells[(size_t)r * it->table.ncols + c]);
				}
				fputc('\n', f);
			}
			break;
		case ITEM_MATRIX:
			/* The format "pagehop slit --input" reads back. */
			fprintf(f, "# pagehop matrix\n# name: %s\n# metric: %s\n"
				"# rows: cpu node, columns: memory node\nnode",
				it->name, it->matrix.metric);
			for (int c = 0; c < it->matrix.ncols; c++)
				fprintf(f, ",%d", it->matrix.col_ids[c]);
			fputc('\n', f);
			for (int r = 0; r < it->matrix.nrows; r++) {
				fprintf(f, "%d", it->matrix.row_ids[r]);
				for (int c = 0; c < it->matrix.ncols; c++) {
					fputc(',', f);
					csv_field(f, &it->matrix.cells[(size_t)r * it->matrix.ncols + c]);
				}
				fputc('\n', f);
			}
			break;
		}
	}
	for (int i = 0; i < d->nnotes; i++) {
		fprintf(f, "%s# note: ", i ? "" : "\n");
		/* A note is one line; keep it one in the CSV too. */
		for (const char *s = d->notes[i]; *s; s++)
			fputc(*s == '\n' ? ' ' : *s, f);
		fputc('\n', f);
	}
}

/* ---- JSON rendering ---- */

static json_object *cell_json(const struct cell *c)
{
	switch (c->kind) {
	case CELL_NONE:
		return NULL;
	case CELL_STR:
		return json_object_new_string(c->text);
	case CELL_INT:
		return json_object_new_int64(c->i);
	case CELL_NUM:
		return json_object_new_double_s(c->d, c->text);
	case CELL_BOOL:
		return json_object_new_boolean((json_bool)c->i);
	}
	return NULL;
}

static json_object *provenance_json(const struct ph_provenance *p,
				    const char *command)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "tool", json_object_new_string("pagehop"));
	json_object_object_add(o, "version", json_object_new_string(p->version));
	json_object_object_add(o, "subcommand", json_object_new_string(command));
	json_object_object_add(o, "command_line", json_object_new_string(p->command));
	json_object_object_add(o, "time_utc", json_object_new_string(p->time_utc));
	json_object_object_add(o, "host", json_object_new_string(p->host));
	json_object_object_add(o, "kernel", json_object_new_string(p->kernel));
	json_object_object_add(o, "machine", json_object_new_string(p->machine));
	json_object_object_add(o, "cpu", json_object_new_string(p->cpu));
	json_object_object_add(o, "microcode",
			       p->microcode[0] ? json_object_new_string(p->microcode) : NULL);
	json_object_object_add(o, "bios",
			       p->bios[0] ? json_object_new_string(p->bios) : NULL);
	return o;
}

static json_object *doc_json(struct ph_doc *d)
{
	json_object *root = json_object_new_object();

	json_object_object_add(root, "provenance", provenance_json(&d->prov, d->command));
	for (int i = 0; i < d->nitems; i++) {
		const struct item *it = d->items[i];
		json_object *o;

		switch (it->kind) {
		case ITEM_SECTION:
			o = json_object_new_object();
			for (int k = 0; k < it->sect.n; k++)
				json_object_object_add(o, it->sect.kv[k].key,
						       cell_json(&it->sect.kv[k].val));
			break;
		case ITEM_TABLE:
			o = json_object_new_array();
			for (int r = 0; r < it->table.nrows; r++) {
				json_object *row = json_object_new_object();

				for (int c = 0; c < it->table.ncols; c++)
					json_object_object_add(row, it->table.cols[c],
							       cell_json(&it->table.cells[(size_t)r * it->table.ncols + c]));
				json_object_array_add(o, row);
			}
			break;
		case ITEM_MATRIX: {
			const struct ph_matrix *m = &it->matrix;
			json_object *rows = json_object_new_array();
			json_object *cols = json_object_new_array();
			json_object *vals = json_object_new_array();

			for (int r = 0; r < m->nrows; r++)
				json_object_array_add(rows, json_object_new_int(m->row_ids[r]));
			for (int c = 0; c < m->ncols; c++)
				json_object_array_add(cols, json_object_new_int(m->col_ids[c]));
			for (int r = 0; r < m->nrows; r++) {
				json_object *row = json_object_new_array();

				for (int c = 0; c < m->ncols; c++)
					json_object_array_add(row, cell_json(&m->cells[(size_t)r * m->ncols + c]));
				json_object_array_add(vals, row);
			}
			o = json_object_new_object();
			json_object_object_add(o, "metric", json_object_new_string(m->metric));
			json_object_object_add(o, "rows", rows);
			json_object_object_add(o, "columns", cols);
			json_object_object_add(o, "values", vals);
			break;
		}
		default:
			o = NULL;
		}
		json_object_object_add(root, it->name, o);
	}
	if (d->nnotes) {
		json_object *notes = json_object_new_array();

		for (int i = 0; i < d->nnotes; i++)
			json_object_array_add(notes, json_object_new_string(d->notes[i]));
		json_object_object_add(root, "notes", notes);
	}
	return root;
}

static void render_json(struct ph_doc *d, FILE *f)
{
	json_object *root = doc_json(d);

	fputs(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
					     JSON_C_TO_STRING_SPACED |
					     JSON_C_TO_STRING_NOSLASHESCAPE), f);
	fputc('\n', f);
	json_object_put(root);
}

static char *render_to_memory(struct ph_doc *d, enum ph_format fmt, size_t *len)
{
	char *buf = NULL;
	FILE *m = open_memstream(&buf, len);

	if (!m)
		return NULL;
	if (!d->have_prov) {
		provenance_collect(&d->prov);
		d->have_prov = true;
	}
	switch (fmt) {
	case PH_FMT_CSV:
		render_csv(d, m);
		break;
	case PH_FMT_JSON:
		render_json(d, m);
		break;
	case PH_FMT_TABLE:
	default:
		render_table(d, m);
		break;
	}
	if (fclose(m)) {
		free(buf);
		return NULL;
	}
	return buf;
}

int doc_render(struct ph_doc *d, enum ph_format fmt, FILE *out)
{
	size_t len = 0;
	char *buf = render_to_memory(d, fmt, &len);
	int err = 0;

	if (!buf)
		return -ENOMEM;
	if (fwrite(buf, 1, len, out) != len || fflush(out)) {
		err = errno ? -errno : -EIO;
		if (out == stdout)
			ph_stdout_failed(-err);
	}
	free(buf);
	return err;
}

int doc_save_json(struct ph_doc *d, const char *path, char *why, size_t size)
{
	size_t len = 0;
	char *buf = render_to_memory(d, PH_FMT_JSON, &len);
	int err;

	if (!buf) {
		snprintf(why, size, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	err = write_file_atomic(path, buf, len, why, size);
	free(buf);
	return err;
}
