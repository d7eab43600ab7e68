// SPDX-License-Identifier: GPL-2.0-only
/*
 * render_table.c - a document as aligned text for a person: sections as
 * key/value lines, tables with a header, matrices with row and column ids.
 *
 * The table is read on a terminal, so by default every line fits
 * PH_TABLE_WIDTH columns: a table leaves out its detail columns (the
 * statistics behind a figure: its minimum, samples, cycles, whether the CI
 * target was met; table_col_detail() in output.h), then, if it is still
 * too wide, writes its column names over two, then three, lines (split at
 * underscores), then wraps its last column when that is prose with at
 * least MIN_WRAP_WIDTH columns left, and else prints each row as a block
 * of "column  value" lines.  Sections, notes and the time line
 * are wrapped at spaces.  The verbose table (PH_FMT_TABLE_VERBOSE, from
 * --verbose) has every column and each row on one line, for grep and awk;
 * CSV and JSON always hold every column.
 */
#include "output_impl.h"
#include "util.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* The width a line of the default table keeps to: a terminal's. */
#define PH_TABLE_WIDTH 100
/* A wrapped last column narrower than this reads worse than a block per row. */
#define MIN_WRAP_WIDTH 30

void doc_put_spaces(FILE *f, int n)
{
	static const char spaces[64] = "                                                               ";

	for (; n > 0; n -= 63)
		fwrite_unlocked(spaces, 1, n < 63 ? (size_t)n : 63, f);
}

/*
 * The length of s's first line of at most width columns, broken at a
 * space after sep (" " or ","): the whole of s if it fits, else up to the
 * last break before width; a word longer than a line stays whole.
 */
static size_t line_break(const char *s, size_t len, int width, char sep)
{
	size_t cut = 0;

	if (len <= (size_t)width)
		return len;
	for (size_t i = 1; i < len; i++) {
		if (s[i] != ' ' || (sep != ' ' && s[i - 1] != sep))
			continue;
		if (i > (size_t)width && cut)
			break;
		cut = i;
		if (i > (size_t)width)
			break;
	}
	return cut ? cut : len;
}

/*
 * s (len bytes) on lines of at most width columns from column first, the
 * lines after the first indented by indent, broken at spaces after sep;
 * no newline after the last line.
 */
static void put_wrapped(FILE *f, const char *s, size_t len, int first, int indent, char sep)
{
	int width = PH_TABLE_WIDTH - first;

	while (len) {
		size_t l = line_break(s, len, width > 1 ? width : 1, sep);

		fwrite_unlocked(s, 1, l, f);
		s += l;
		len -= l;
		while (len && *s == ' ') {
			s++;
			len--;
		}
		if (len) {
			putc_unlocked('\n', f);
			doc_put_spaces(f, indent);
			width = PH_TABLE_WIDTH - indent;
		}
	}
}

/* What the table prints: "-" for no value, a string's short form if it has one. */
static const char *cell_text(const struct cell *c)
{
	if (c->kind == CELL_NONE)
		return "-";
	return c->brief ? c->text + c->brief : ctext(c);
}

static int cell_width(const struct cell *c)
{
	if (c->kind == CELL_NONE)
		return 1;
	return c->brief ? (int)strlen(c->text + c->brief) : c->len;
}

/* A cell's text, then spaces up to width w; right-aligned for a negative w. */
static void put_cell_padded(FILE *f, const struct cell *c, int w)
{
	int l = cell_width(c);

	if (w < 0)
		doc_put_spaces(f, -w - l);
	fwrite_unlocked(cell_text(c), 1, (size_t)l, f);
	if (w > 0)
		doc_put_spaces(f, w - l);
}

/* An item's title, then ':', wrapped (but in the verbose table), the lines after the first indented. */
static void put_title(FILE *f, const char *title, bool verbose)
{
	char *t = xasprintf("%s:", title);
	size_t len = strlen(t);

	if (verbose)
		fwrite_unlocked(t, 1, len, f);
	else
		put_wrapped(f, t, len, 0, 2, ' ');
	putc_unlocked('\n', f);
	free(t);
}

/* A section none of whose keys has a value says nothing: it is left out. */
static bool section_empty(const struct ph_section *s)
{
	for (int i = 0; i < s->n; i++)
		if (s->kv[i].val.kind != CELL_NONE)
			return false;
	return true;
}

static void render_section_table(FILE *f, const struct item *it, bool verbose)
{
	int w = 0;

	put_title(f, it->title, verbose);
	for (int i = 0; i < it->sect.n; i++) {
		int l = (int)strlen(it->sect.kv[i].key);

		w = l > w ? l : w;
	}
	for (int i = 0; i < it->sect.n; i++) {
		const struct cell *v = &it->sect.kv[i].val;

		fprintf(f, "  %-*s  ", w, it->sect.kv[i].key);
		if (verbose)
			fputs(cell_text(v), f);
		else
			put_wrapped(f, cell_text(v), (size_t)cell_width(v), w + 4, w + 4, ' ');
		putc_unlocked('\n', f);
	}
}

/*
 * A column name over several header lines of at most w columns: its parts
 * between underscores, as many on a line as fit (the underscore at a break
 * is left out).  The number of lines, or INT_MAX if a part is wider than w;
 * with idx >= 0, *start and *len say where line idx is in name.
 */
static int name_lines(const char *name, int w, int idx, size_t *start, size_t *len)
{
	size_t n = strlen(name), from = 0;
	int lines = 0;

	while (from < n) {
		size_t p = from, fit = 0;
		bool any = false;

		/* As many whole parts from from as fit in w. */
		for (;;) {
			size_t q = p;

			while (q < n && name[q] != '_')
				q++;
			if ((int)(q - from) > w)
				break;
			fit = q;
			any = true;
			if (q == n)
				break;
			p = q + 1;
		}
		if (!any)
			return INT_MAX;
		if (lines == idx) {
			*start = from;
			*len = fit - from;
		}
		lines++;
		from = fit < n ? fit + 1 : n;
	}
	return lines;
}

/* The narrowest width at which name takes at most maxlines header lines. */
static int name_width(const char *name, int maxlines)
{
	int n = (int)strlen(name);

	for (int w = 1; w < n; w++)
		if (name_lines(name, w, -1, NULL, NULL) <= maxlines)
			return w;
	return n;
}

/* How one table is laid out. */
struct layout {
	int n;			/* columns shown */
	int *col;		/* their indexes */
	int *w;			/* their widths */
	int *cellw;		/* their widest cell */
	bool *right;		/* right-aligned: every value numeric */
	int hlines;		/* header lines: 1, or names over 2 or 3 lines */
	int wrap;		/* the last column wrapped at this width; 0: not */
	bool records;		/* each row a block of "column  value" lines */
};

/* A line's width: two spaces before each column. */
static int layout_width(const struct layout *l)
{
	int sum = 0;

	for (int k = 0; k < l->n; k++)
		sum += 2 + l->w[k];
	return sum;
}

static void layout_free(struct layout *l)
{
	free(l->col);
	free(l->w);
	free(l->cellw);
	free(l->right);
}

static void plan_layout(struct ph_table *t, struct layout *l, bool verbose)
{
	int n = t->ncols ? t->ncols : 1, last;

	memset(l, 0, sizeof(*l));
	l->hlines = 1;
	l->col = xcalloc(n, sizeof(int));
	l->w = xcalloc(n, sizeof(int));
	l->cellw = xcalloc(n, sizeof(int));
	l->right = xcalloc(n, sizeof(bool));
	for (int c = 0; c < t->ncols; c++)
		if (verbose || !t->detail[c])
			l->col[l->n++] = c;
	if (!l->n)			/* nothing but detail: show it all */
		for (int c = 0; c < t->ncols; c++)
			l->col[l->n++] = c;
	for (int k = 0; k < l->n; k++)
		l->right[k] = true;
	/* Widths first: a generated table makes its rows twice. */
	for (int r = 0; r < t->nrows; r++) {
		const struct cell *row = doc_table_row(t, r);

		for (int k = 0; k < l->n; k++) {
			const struct cell *c = &row[l->col[k]];
			int cw = cell_width(c);

			l->cellw[k] = cw > l->cellw[k] ? cw : l->cellw[k];
			if (c->kind != CELL_NONE && !cell_numeric(c))
				l->right[k] = false;
		}
	}
	for (int k = 0; k < l->n; k++) {
		int hw = (int)strlen(t->cols[l->col[k]]);

		l->w[k] = hw > l->cellw[k] ? hw : l->cellw[k];
	}
	if (verbose || layout_width(l) <= PH_TABLE_WIDTH)
		return;
	/* Too wide: names wider than their values over two lines, then three. */
	for (int most = 2; most <= 3; most++) {
		l->hlines = 1;
		for (int k = 0; k < l->n; k++) {
			const char *name = t->cols[l->col[k]];
			int hw = name_width(name, most), nl;

			l->w[k] = hw > l->cellw[k] ? hw : l->cellw[k];
			nl = name_lines(name, l->w[k], -1, NULL, NULL);
			l->hlines = nl > l->hlines ? nl : l->hlines;
		}
		if (layout_width(l) <= PH_TABLE_WIDTH)
			return;
	}
	/* Still too wide: wrap the last column where it is prose with room, else a block per row. */
	last = l->n - 1;
	if (!l->right[last] && PH_TABLE_WIDTH - (layout_width(l) - l->w[last]) >= MIN_WRAP_WIDTH) {
		l->wrap = PH_TABLE_WIDTH - (layout_width(l) - l->w[last]);
		l->w[last] = l->wrap;
		return;
	}
	l->records = true;
}

/* The header: each name over l->hlines lines at its column's width, its last part on the last line. */
static void put_header(FILE *f, const struct ph_table *t, const struct layout *l)
{
	for (int line = 0; line < l->hlines; line++) {
		int pending = 0;	/* spaces not yet written: none at a line's end */

		for (int k = 0; k < l->n; k++) {
			const char *name = t->cols[l->col[k]];
			int nl = l->hlines == 1 ? 1 : name_lines(name, l->w[k], -1, NULL, NULL);
			int idx = line - (l->hlines - nl);
			size_t from = 0, len = strlen(name);

			pending += 2;
			if (idx < 0) {
				pending += l->w[k];
				continue;
			}
			if (l->hlines > 1)
				name_lines(name, l->w[k], idx, &from, &len);
			if (l->right[k])
				pending += l->w[k] - (int)len;
			doc_put_spaces(f, pending);
			fwrite_unlocked(name + from, 1, len, f);
			pending = l->right[k] ? 0 : l->w[k] - (int)len;
		}
		putc_unlocked('\n', f);
	}
}

static void put_row(FILE *f, const struct cell *row, const struct layout *l)
{
	int at = 0;

	for (int k = 0; k < l->n; k++) {
		const struct cell *c = &row[l->col[k]];
		int w = l->right[k] ? -l->w[k] : l->w[k];

		doc_put_spaces(f, 2);
		at += 2;
		if (k + 1 == l->n && l->wrap) {
			put_wrapped(f, cell_text(c), (size_t)cell_width(c), at, at, ' ');
			break;
		}
		put_cell_padded(f, c, k + 1 == l->n && w > 0 ? 0 : w);
		at += l->w[k];
	}
	putc_unlocked('\n', f);
}

/* Each row a block of "  column  value" lines, the value wrapped, a blank line between rows. */
static void put_records(FILE *f, struct ph_table *t, const struct layout *l)
{
	int kw = 0;

	for (int k = 0; k < l->n; k++) {
		int hw = (int)strlen(t->cols[l->col[k]]);

		kw = hw > kw ? hw : kw;
	}
	for (int r = 0; r < t->nrows; r++) {
		const struct cell *row = doc_table_row(t, r);

		if (r)
			putc_unlocked('\n', f);
		for (int k = 0; k < l->n; k++) {
			const struct cell *c = &row[l->col[k]];

			fprintf(f, "  %-*s  ", kw, t->cols[l->col[k]]);
			put_wrapped(f, cell_text(c), (size_t)cell_width(c), kw + 4, kw + 4, ' ');
			putc_unlocked('\n', f);
		}
	}
}

static void render_table_table(FILE *f, struct item *it, bool verbose)
{
	struct ph_table *t = &it->table;
	struct layout l;

	put_title(f, it->title, verbose);
	if (!t->nrows) {
		fprintf(f, "  (none)\n");
		return;
	}
	plan_layout(t, &l, verbose);
	if (l.records) {
		put_records(f, t, &l);
	} else {
		put_header(f, t, &l);
		for (int r = 0; r < t->nrows; r++)
			put_row(f, doc_table_row(t, r), &l);
	}
	layout_free(&l);
}

/*
 * numactl --hardware prints "node   0   1" over rows "  0:  10  21": each
 * value right-aligned in 3 columns after one space.  Wider values widen
 * every column alike.
 */
static void render_matrix_table(FILE *f, struct item *it, bool verbose)
{
	struct ph_matrix *m = &it->matrix;
	int w = 3;
	char id[16];

	for (int r = 0; r < m->nrows; r++) {
		const struct cell *row = doc_matrix_row(m, r);

		for (int c = 0; c < m->ncols; c++) {
			int l = cell_width(&row[c]);

			w = l > w ? l : w;
		}
	}
	for (int c = 0; c < m->ncols; c++) {
		int l = snprintf(id, sizeof(id), "%d", m->col_ids[c]);

		w = l > w ? l : w;
	}
	put_title(f, it->title, verbose);
	fputs("node", f);
	for (int c = 0; c < m->ncols; c++)
		fprintf(f, " %*d", w, m->col_ids[c]);
	putc_unlocked('\n', f);
	for (int r = 0; r < m->nrows; r++) {
		const struct cell *row = doc_matrix_row(m, r);

		fprintf(f, "%3d:", m->row_ids[r]);
		for (int c = 0; c < m->ncols; c++) {
			putc_unlocked(' ', f);
			put_cell_padded(f, &row[c], -w);
		}
		putc_unlocked('\n', f);
	}
}

/* The time line says something only where the run spent time measuring or setting up. */
static bool time_says_something(const struct ph_doc *d)
{
	double sum = d->setup_s;

	for (int i = 0; i < PH_PHASE_COUNT; i++)
		sum += d->phase_s[i];
	return sum >= 0.005;
}

void doc_render_table(struct ph_doc *d, FILE *f, bool verbose)
{
	bool any = false, time_line = d->have_time && time_says_something(d);

	for (int i = 0; i < d->nitems; i++) {
		struct item *it = d->items[i];

		if (it->kind == ITEM_SECTION && section_empty(&it->sect))
			continue;
		if (any)
			fprintf(f, "\n");
		any = true;
		switch (it->kind) {
		case ITEM_SECTION:
			render_section_table(f, it, verbose);
			break;
		case ITEM_TABLE:
			render_table_table(f, it, verbose);
			break;
		case ITEM_MATRIX:
			render_matrix_table(f, it, verbose);
			break;
		}
	}
	if ((d->nnotes || time_line) && any)
		fprintf(f, "\n");
	for (int i = 0; i < d->nnotes; i++) {
		fputs("note: ", f);
		if (verbose)
			fputs(d->notes[i], f);
		else
			put_wrapped(f, d->notes[i], strlen(d->notes[i]), 6, 6, ' ');
		putc_unlocked('\n', f);
	}
	if (time_line) {
		char line[256];

		doc_time_line(d, line, sizeof(line));
		put_wrapped(f, line, strlen(line), 0, 6, ',');
		putc_unlocked('\n', f);
	}
}
