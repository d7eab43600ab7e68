// SPDX-License-Identifier: GPL-2.0-only
/*
 * output.c - the document model and its three renderings.
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
	char *text;		/* what table and CSV print, when longer than buf */
	long long i;
	double d;
	char buf[24];		/* the text when it fits: a cell costs no allocation */
	int len;		/* of the text */
};

/* What table and CSV print for a cell that has a value. */
static const char *ctext(const struct cell *c)
{
	return c->text ? c->text : c->buf;
}

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
	struct cell *cells;	/* nrows * ncols; one scratch row with fill */
	int nrows, rows_cap;
	int hint;		/* where table_cell() looks first */
	int *first;		/* per column: the first column of its name */
	ph_table_fill_fn fill;	/* rows made when rendered */
	const void *ctx;
	int cur;		/* the row in the scratch row */
};

struct ph_matrix {
	char *metric;
	int nrows, ncols;
	int *row_ids, *col_ids;
	struct cell *cells;	/* nrows * ncols; one scratch row with fill */
	ph_matrix_fill_fn fill;
	const void *ctx;
	int cur;
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

/* ---- numbers ---- */

static const unsigned long long pow10_u64[20] = {
	1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL,
	100000000ULL, 1000000000ULL, 10000000000ULL, 100000000000ULL,
	1000000000000ULL, 10000000000000ULL, 100000000000000ULL,
	1000000000000000ULL, 10000000000000000ULL, 100000000000000000ULL,
	1000000000000000000ULL, 10000000000000000000ULL,
};

/* 10^-4 .. 10^19: pow10_d[i] is 10^(i - 4), the nearest double. */
static const double pow10_d[24] = {
	1e-4, 1e-3, 1e-2, 1e-1, 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
	1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
};

/*
 * |v| * 10^k rounded to an integer as printf rounds: v is m * 2^e exactly
 * (m below 2^53), so m * 10^k is exact in 128 bits, and the shift by e
 * rounds half to even on the exact value, as glibc does in the default
 * rounding mode.  false when the result would not fit 64 bits.
 */
static bool scaled_round(double v, int k, unsigned long long *out)
{
#ifndef __SIZEOF_INT128__
	(void)v;
	(void)k;
	(void)out;
	return false;	/* no 128-bit integers: printf does it */
#else
	int e2;
	double f = frexp(fabs(v), &e2);
	unsigned __int128 t = (unsigned long long)ldexp(f, 53), q, rem, half;
	int e = e2 - 53, s;

	t *= pow10_u64[k];	/* k <= 19: below 2^117 */
	if (e >= 0) {
		if (e > 10)
			return false;
		t <<= e;
		if (t > (unsigned __int128)UINT64_MAX)
			return false;
		*out = (unsigned long long)t;
		return true;
	}
	s = -e;
	if (s >= 119) {
		*out = 0;	/* t < 2^117 <= half */
		return true;
	}
	q = t >> s;
	rem = t - (q << s);
	half = (unsigned __int128)1 << (s - 1);
	if (rem > half || (rem == half && (q & 1)))
		q++;
	if (q > (unsigned __int128)UINT64_MAX)
		return false;
	*out = (unsigned long long)q;
	return true;
#endif
}

/* The digits of u, at least width of them (zero-padded); returns the count. */
static int put_digits(char *p, unsigned long long u, int width)
{
	char tmp[24];
	int n = 0, len = 0;

	do {
		tmp[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	for (; width > n; width--)
		p[len++] = '0';
	while (n)
		p[len++] = tmp[--n];
	return len;
}

/* "%.Nf" or "%+.Nf" of a finite v; -1 where it cannot be done exactly here. */
static int fixed(char *p, double v, int prec, bool plus)
{
	unsigned long long r;
	int len = 0;

	if (prec > 19 || !scaled_round(v, prec, &r))
		return -1;
	if (signbit(v))
		p[len++] = '-';
	else if (plus)
		p[len++] = '+';
	len += put_digits(p + len, r / pow10_u64[prec], 1);
	if (prec) {
		p[len++] = '.';
		len += put_digits(p + len, r % pow10_u64[prec], prec);
	}
	p[len] = '\0';
	return len;
}

/*
 * "%.Pg" of a finite v in the fixed style (decimal exponent X from -4 to
 * P - 1): P significant digits, trailing zeros dropped; -1 for the
 * exponent style or where it cannot be done exactly here.
 */
static int general(char *p, double v, int prec)
{
	unsigned long long r = 0;
	int x, k, len = 0, tries;

	if (prec == 0)
		prec = 1;
	if (prec > 17 || v == 0)
		return -1;
	/* The decimal exponent, give or take one (the loop settles it): no log10(). */
	x = -5;
	while (x < 19 && fabs(v) >= pow10_d[x + 5])
		x++;
	for (tries = 0; tries < 4; tries++) {
		k = prec - 1 - x;
		if (k < 0 || k > 19 || !scaled_round(v, k, &r))
			return -1;
		if (r < pow10_u64[prec - 1]) {
			x--;		/* log10 said too much */
		} else if (r > pow10_u64[prec]) {
			x++;		/* or too little */
		} else {
			if (r == pow10_u64[prec]) {
				/* Rounded up to the next power of ten. */
				x++;
				r /= 10;
			}
			break;
		}
	}
	if (tries == 4 || x < -4 || x >= prec)
		return -1;
	k = prec - 1 - x;
	if (signbit(v))
		p[len++] = '-';
	len += put_digits(p + len, r / pow10_u64[k], 1);
	if (k) {
		unsigned long long frac = r % pow10_u64[k];

		while (k && frac % 10 == 0) {
			frac /= 10;
			k--;
		}
		if (k) {
			p[len++] = '.';
			len += put_digits(p + len, frac, k);
		}
	}
	p[len] = '\0';
	return len;
}

/*
 * Generated rows format millions of numbers; glibc's printf takes some
 * 300 ns for one.  The formats documents use ("%.2f", "%+.1f", "%g",
 * "%.4g") are done here exactly as printf does them, the rest by printf.
 */
int format_number(char *buf, size_t size, const char *fmt, double v)
{
	char tmp[48];
	const char *f = fmt;
	bool plus = false;
	int prec = -1, len = -1;

	if (*f++ != '%' || !isfinite(v))
		goto slow;
	if (*f == '+') {
		plus = true;
		f++;
	}
	if (*f == '.') {
		f++;
		if (*f < '0' || *f > '9')
			goto slow;
		prec = 0;
		while (*f >= '0' && *f <= '9' && prec < 100)
			prec = prec * 10 + (*f++ - '0');
	}
	if (f[0] == 'f' && !f[1] && prec >= 0)
		len = fixed(tmp, v, prec, plus);
	else if (f[0] == 'g' && !f[1] && !plus)
		len = general(tmp, v, prec < 0 ? 6 : prec);
	if (len < 0)
		goto slow;
	if ((size_t)len < size) {
		memcpy(buf, tmp, (size_t)len + 1);
	} else if (size) {
		memcpy(buf, tmp, size - 1);	/* truncated, as snprintf */
		buf[size - 1] = '\0';
	}
	return len;
slow:
	return snprintf(buf, size, fmt, v);
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

/* "%lld" without printf: generated rows format millions of these. */
static int format_int(char *buf, long long v)
{
	char tmp[24];
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
	int n = 0, len = 0;

	do {
		tmp[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		buf[len++] = '-';
	while (n)
		buf[len++] = tmp[--n];
	buf[len] = '\0';
	return len;
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
	t->first[t->ncols] = t->ncols;
	for (int c = t->ncols - 1; c >= 0; c--)
		if (!strcmp(t->cols[c], name))
			t->first[t->ncols] = c;
	t->cols[t->ncols++] = xstrdup(name);
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
static const struct cell *table_row(struct ph_table *t, int r)
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

static const struct cell *matrix_row(struct ph_matrix *m, int r)
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

/* ---- table rendering ---- */

static void put_spaces(FILE *f, int n)
{
	static const char spaces[64] = "                                                               ";

	for (; n > 0; n -= 63)
		fwrite_unlocked(spaces, 1, n < 63 ? (size_t)n : 63, f);
}

static const char *cell_text(const struct cell *c)
{
	return c->kind == CELL_NONE ? "-" : ctext(c);
}

static int cell_width(const struct cell *c)
{
	return c->kind == CELL_NONE ? 1 : c->len;
}

/* A cell's text, then spaces up to width w; right-aligned for a negative w. */
static void put_cell_padded(FILE *f, const struct cell *c, int w)
{
	int l = cell_width(c);

	if (w < 0)
		put_spaces(f, -w - l);
	fwrite_unlocked(cell_text(c), 1, (size_t)l, f);
	if (w > 0)
		put_spaces(f, w - l);
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


/* s, then spaces up to width w; right-aligned for a negative w. */
static void put_padded(FILE *f, const char *s, int w)
{
	size_t l = strlen(s);

	if (w < 0)
		put_spaces(f, -w - (int)l);
	fwrite_unlocked(s, 1, l, f);
	if (w > 0)
		put_spaces(f, w - (int)l);
}

static void render_table_table(FILE *f, struct item *it)
{
	struct ph_table *t = &it->table;
	int *w = xcalloc(t->ncols ? t->ncols : 1, sizeof(int));
	bool *right = xcalloc(t->ncols ? t->ncols : 1, sizeof(bool));

	/* Widths first: a generated table makes its rows twice. */
	for (int c = 0; c < t->ncols; c++) {
		w[c] = (int)strlen(t->cols[c]);
		right[c] = true;
	}
	for (int r = 0; r < t->nrows; r++) {
		const struct cell *row = table_row(t, r);

		for (int c = 0; c < t->ncols; c++) {
			int l = cell_width(&row[c]);

			w[c] = l > w[c] ? l : w[c];
			if (row[c].kind != CELL_NONE && !cell_numeric(&row[c]))
				right[c] = false;
		}
	}
	fprintf(f, "%s:\n", it->title);
	if (!t->nrows) {
		fprintf(f, "  (none)\n");
		goto out;
	}
	/* Nothing follows the last column: a left-aligned one is not padded. */
	if (t->ncols && !right[t->ncols - 1])
		w[t->ncols - 1] = 0;
	putc_unlocked(' ', f);
	for (int c = 0; c < t->ncols; c++) {
		putc_unlocked(' ', f);
		put_padded(f, t->cols[c], right[c] ? -w[c] : w[c]);
		if (c + 1 < t->ncols)
			putc_unlocked(' ', f);
	}
	putc_unlocked('\n', f);
	for (int r = 0; r < t->nrows; r++) {
		const struct cell *row = table_row(t, r);

		putc_unlocked(' ', f);
		for (int c = 0; c < t->ncols; c++) {
			putc_unlocked(' ', f);
			put_cell_padded(f, &row[c], right[c] ? -w[c] : w[c]);
			if (c + 1 < t->ncols)
				putc_unlocked(' ', f);
		}
		putc_unlocked('\n', f);
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
static void render_matrix_table(FILE *f, struct item *it)
{
	struct ph_matrix *m = &it->matrix;
	int w = 3;
	char id[16];

	for (int r = 0; r < m->nrows; r++) {
		const struct cell *row = matrix_row(m, r);

		for (int c = 0; c < m->ncols; c++) {
			int l = cell_width(&row[c]);

			w = l > w ? l : w;
		}
	}
	for (int c = 0; c < m->ncols; c++) {
		int l = snprintf(id, sizeof(id), "%d", m->col_ids[c]);

		w = l > w ? l : w;
	}
	fprintf(f, "%s:\nnode", it->title);
	for (int c = 0; c < m->ncols; c++)
		fprintf(f, " %*d", w, m->col_ids[c]);
	putc_unlocked('\n', f);
	for (int r = 0; r < m->nrows; r++) {
		const struct cell *row = matrix_row(m, r);

		fprintf(f, "%3d:", m->row_ids[r]);
		for (int c = 0; c < m->ncols; c++) {
			putc_unlocked(' ', f);
			put_cell_padded(f, &row[c], -w);
		}
		putc_unlocked('\n', f);
	}
}

static void render_table(struct ph_doc *d, FILE *f)
{
	for (int i = 0; i < d->nitems; i++) {
		struct item *it = d->items[i];

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

static void csv_text(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs_unlocked(s, f);
		return;
	}
	putc_unlocked('"', f);
	for (; *s; s++) {
		if (*s == '"')
			putc_unlocked('"', f);
		putc_unlocked(*s, f);
	}
	putc_unlocked('"', f);
}

static void csv_field(FILE *f, const struct cell *c)
{
	if (c->kind == CELL_NONE)
		return;		/* an empty field is a missing value */
	csv_text(f, ctext(c));
}

static void render_csv(struct ph_doc *d, FILE *f)
{
	const struct ph_provenance *p = &d->prov;

	fprintf(f, "# pagehop %s %s; host %s; kernel %s; %s\n", p->version,
		d->command, p->host, p->kernel, p->time_utc);
	for (int i = 0; i < d->nitems; i++) {
		struct item *it = d->items[i];

		fprintf(f, "\n");
		switch (it->kind) {
		case ITEM_SECTION:
			fprintf(f, "# section: %s\nkey,value\n", it->name);
			for (int k = 0; k < it->sect.n; k++) {
				csv_text(f, it->sect.kv[k].key);
				putc_unlocked(',', f);
				csv_field(f, &it->sect.kv[k].val);
				putc_unlocked('\n', f);
			}
			break;
		case ITEM_TABLE:
			fprintf(f, "# table: %s\n", it->name);
			for (int c = 0; c < it->table.ncols; c++) {
				if (c)
					putc_unlocked(',', f);
				csv_text(f, it->table.cols[c]);
			}
			putc_unlocked('\n', f);
			for (int r = 0; r < it->table.nrows; r++) {
				const struct cell *row = table_row(&it->table, r);

				for (int c = 0; c < it->table.ncols; c++) {
					if (c)
						putc_unlocked(',', f);
					csv_field(f, &row[c]);
				}
				putc_unlocked('\n', f);
			}
			break;
		case ITEM_MATRIX:
			/* The format "pagehop slit --input" reads back. */
			fprintf(f, "# pagehop matrix\n# name: %s\n# metric: %s\n"
				"# rows: cpu node, columns: memory node\nnode",
				it->name, it->matrix.metric);
			for (int c = 0; c < it->matrix.ncols; c++)
				fprintf(f, ",%d", it->matrix.col_ids[c]);
			putc_unlocked('\n', f);
			for (int r = 0; r < it->matrix.nrows; r++) {
				const struct cell *row = matrix_row(&it->matrix, r);

				fprintf(f, "%d", it->matrix.row_ids[r]);
				for (int c = 0; c < it->matrix.ncols; c++) {
					putc_unlocked(',', f);
					csv_field(f, &row[c]);
				}
				putc_unlocked('\n', f);
			}
			break;
		}
	}
	for (int i = 0; i < d->nnotes; i++) {
		fprintf(f, "%s# note: ", i ? "" : "\n");
		/* A note is one line; keep it one in the CSV too. */
		for (const char *s = d->notes[i]; *s; s++)
			putc_unlocked(*s == '\n' ? ' ' : *s, f);
		putc_unlocked('\n', f);
	}
}

/* ---- JSON rendering: json-c's pretty layout, written as it goes ---- */

#define JSON_FLAGS (JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | \
		    JSON_C_TO_STRING_NOSLASHESCAPE)

static void json_indent(FILE *f, int level)
{
	put_spaces(f, 2 * level);
}

/* A string as json-c writes it, quotes and escapes included; malloc'd. */
static char *json_quoted(const char *s)
{
	json_object *o = json_object_new_string(s);
	char *q = xstrdup(o ? json_object_to_json_string_ext(o, JSON_FLAGS) : "null");

	json_object_put(o);
	return q;
}

static void json_string(FILE *f, const char *s)
{
	char *q = json_quoted(s);

	fputs_unlocked(q, f);
	free(q);
}

static void json_cell(FILE *f, const struct cell *c)
{
	switch (c->kind) {
	case CELL_NONE:
		fputs_unlocked("null", f);
		break;
	case CELL_STR:
		json_string(f, ctext(c));
		break;
	case CELL_INT:
		fwrite_unlocked(ctext(c), 1, (size_t)c->len, f);
		break;
	case CELL_NUM:
		/* "%+.1f" reads well in a table; JSON has no leading '+'. */
		if (ctext(c)[0] == '+')
			fwrite_unlocked(ctext(c) + 1, 1, (size_t)c->len - 1, f);
		else
			fwrite_unlocked(ctext(c), 1, (size_t)c->len, f);
		break;
	case CELL_BOOL:
		fputs_unlocked(c->i ? "true" : "false", f);
		break;
	}
}

/*
 * json-c's containers at nesting level L: the opening bracket and a newline;
 * each member on its own line at level L + 1, a comma after all but the
 * last; a newline after the last member, if any, then the closing bracket
 * at level L.
 */
static void json_open(FILE *f, char bracket)
{
	putc_unlocked(bracket, f);
	putc_unlocked('\n', f);
}

static void json_member(FILE *f, int level, int i, const char *key)
{
	if (i)
		fwrite_unlocked(",\n", 1, 2, f);
	json_indent(f, level + 1);
	if (key) {
		json_string(f, key);
		fwrite_unlocked(": ", 1, 2, f);
	}
}

/* The same with the key already quoted: a table's keys, once for all its rows. */
static void json_member_quoted(FILE *f, int level, int i, const char *quoted)
{
	if (i)
		fwrite_unlocked(",\n", 1, 2, f);
	json_indent(f, level + 1);
	fputs_unlocked(quoted, f);
	fwrite_unlocked(": ", 1, 2, f);
}

static void json_close(FILE *f, int level, int n, char bracket)
{
	if (n)
		putc_unlocked('\n', f);
	json_indent(f, level);
	putc_unlocked(bracket, f);
}

/*
 * Keys of one object: json_object_object_add() replaces the value of a key
 * already there, keeping its place.  last[i] is the index of the key whose
 * value is written at key i's place, -1 where an earlier i took it.
 */
static int *json_keys(const char *const *keys, int n)
{
	int *last = xmalloc((n ? n : 1) * sizeof(int));

	for (int i = 0; i < n; i++) {
		last[i] = i;
		for (int j = 0; j < i; j++) {
			if (last[j] >= 0 && !strcmp(keys[j], keys[i])) {
				last[j] = i;
				last[i] = -1;
				break;
			}
		}
	}
	return last;
}

static void json_section(FILE *f, const struct ph_section *s, int level)
{
	const char **keys = xmalloc((s->n ? s->n : 1) * sizeof(*keys));
	int *last, n = 0;

	for (int i = 0; i < s->n; i++)
		keys[i] = s->kv[i].key;
	last = json_keys(keys, s->n);
	json_open(f, '{');
	for (int i = 0; i < s->n; i++) {
		if (last[i] < 0)
			continue;
		json_member(f, level, n++, keys[i]);
		json_cell(f, &s->kv[last[i]].val);
	}
	json_close(f, level, n, '}');
	free(last);
	free(keys);
}

static void json_table(FILE *f, struct ph_table *t, int level)
{
	int *last = json_keys((const char *const *)t->cols, t->ncols);
	char **quoted = xcalloc(t->ncols ? t->ncols : 1, sizeof(*quoted));

	for (int c = 0; c < t->ncols; c++)
		quoted[c] = json_quoted(t->cols[c]);
	json_open(f, '[');
	for (int r = 0; r < t->nrows; r++) {
		const struct cell *row = table_row(t, r);
		int n = 0;

		json_member(f, level, r, NULL);
		json_open(f, '{');
		for (int c = 0; c < t->ncols; c++) {
			if (last[c] < 0)
				continue;
			json_member_quoted(f, level + 1, n++, quoted[c]);
			json_cell(f, &row[last[c]]);
		}
		json_close(f, level + 1, n, '}');
	}
	json_close(f, level, t->nrows, ']');
	for (int c = 0; c < t->ncols; c++)
		free(quoted[c]);
	free(quoted);
	free(last);
}

static void json_ids(FILE *f, const int *ids, int n, int level)
{
	char num[16];

	json_open(f, '[');
	for (int i = 0; i < n; i++) {
		json_member(f, level, i, NULL);
		format_int(num, ids[i]);
		fputs_unlocked(num, f);
	}
	json_close(f, level, n, ']');
}

static void json_matrix(FILE *f, struct ph_matrix *m, int level)
{
	json_open(f, '{');
	json_member(f, level, 0, "metric");
	json_string(f, m->metric);
	json_member(f, level, 1, "rows");
	json_ids(f, m->row_ids, m->nrows, level + 1);
	json_member(f, level, 2, "columns");
	json_ids(f, m->col_ids, m->ncols, level + 1);
	json_member(f, level, 3, "values");
	json_open(f, '[');
	for (int r = 0; r < m->nrows; r++) {
		const struct cell *row = matrix_row(m, r);

		json_member(f, level + 1, r, NULL);
		json_open(f, '[');
		for (int c = 0; c < m->ncols; c++) {
			json_member(f, level + 2, c, NULL);
			json_cell(f, &row[c]);
		}
		json_close(f, level + 2, m->ncols, ']');
	}
	json_close(f, level + 1, m->nrows, ']');
	json_close(f, level, 4, '}');
}

static void json_provenance(FILE *f, const struct ph_provenance *p,
			    const char *command, int level)
{
	const char *const kv[][2] = {
		{ "tool", "pagehop" },
		{ "version", p->version },
		{ "subcommand", command },
		{ "command_line", p->command },
		{ "time_utc", p->time_utc },
		{ "host", p->host },
		{ "kernel", p->kernel },
		{ "machine", p->machine },
		{ "cpu", p->cpu },
		{ "microcode", p->microcode[0] ? p->microcode : NULL },
		{ "bios", p->bios[0] ? p->bios : NULL },
	};

	json_open(f, '{');
	for (size_t i = 0; i < ARRAY_SIZE(kv); i++) {
		json_member(f, level, (int)i, kv[i][0]);
		if (kv[i][1])
			json_string(f, kv[i][1]);
		else
			fputs_unlocked("null", f);
	}
	json_close(f, level, (int)ARRAY_SIZE(kv), '}');
}

static void render_json(struct ph_doc *d, FILE *f)
{
	/* The root's keys: provenance, one per item, notes (a repeat replaces). */
	int nkeys = d->nitems + 2, n = 0;
	const char **keys = xmalloc(nkeys * sizeof(*keys));
	int *last;

	keys[0] = "provenance";
	for (int i = 0; i < d->nitems; i++)
		keys[i + 1] = d->items[i]->name;
	keys[nkeys - 1] = "notes";
	if (!d->nnotes)
		nkeys--;
	last = json_keys(keys, nkeys);
	json_open(f, '{');
	for (int i = 0; i < nkeys; i++) {
		int k = last[i];

		if (k < 0)
			continue;
		json_member(f, 0, n++, keys[i]);
		if (k == 0) {
			json_provenance(f, &d->prov, d->command, 1);
		} else if (k <= d->nitems) {
			struct item *it = d->items[k - 1];

			switch (it->kind) {
			case ITEM_SECTION:
				json_section(f, &it->sect, 1);
				break;
			case ITEM_TABLE:
				json_table(f, &it->table, 1);
				break;
			case ITEM_MATRIX:
				json_matrix(f, &it->matrix, 1);
				break;
			}
		} else {
			json_open(f, '[');
			for (int j = 0; j < d->nnotes; j++) {
				json_member(f, 1, j, NULL);
				json_string(f, d->notes[j]);
			}
			json_close(f, 1, d->nnotes, ']');
		}
	}
	json_close(f, 0, n, '}');
	putc_unlocked('\n', f);
	free(last);
	free(keys);
}

/* The renderers write with the *_unlocked calls: the stream is locked once, here. */
static void render(struct ph_doc *d, enum ph_format fmt, FILE *f)
{
	if (!d->have_prov) {
		provenance_collect(&d->prov);
		d->have_prov = true;
	}
	flockfile(f);
	switch (fmt) {
	case PH_FMT_CSV:
		render_csv(d, f);
		break;
	case PH_FMT_JSON:
		render_json(d, f);
		break;
	case PH_FMT_TABLE:
	default:
		render_table(d, f);
		break;
	}
	funlockfile(f);
}

/*
 * Straight to out: the document is complete before anything is written,
 * and a stream that fails is reported, as a buffer written at once would
 * be; a document of a million rows never sits in memory as text.
 */
int doc_render(struct ph_doc *d, enum ph_format fmt, FILE *out)
{
	int err = 0;

	errno = 0;
	render(d, fmt, out);
	if (fflush(out) || ferror(out)) {
		err = errno ? -errno : -EIO;
		if (out == stdout)
			ph_stdout_failed(-err);
	}
	return err;
}

int doc_save_json(struct ph_doc *d, const char *path, char *why, size_t size)
{
	size_t len = 0;
	char *buf = NULL;
	FILE *m = open_memstream(&buf, &len);
	int err;

	if (!m) {
		snprintf(why, size, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	render(d, PH_FMT_JSON, m);
	if (fclose(m)) {
		free(buf);
		snprintf(why, size, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	err = write_file_atomic(path, buf, len, why, size);
	free(buf);
	return err;
}
