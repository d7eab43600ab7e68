// SPDX-License-Identifier: GPL-2.0-only
/*
 * render_table.c - a document as aligned text for a person: sections as
 * key/value lines, tables with a header, matrices with row and column ids.
 *
 * The table is read on a terminal, so by default every line fits
 * PH_TABLE_WIDTH columns: a table leaves out its detail columns (the
 * statistics behind a figure: its minimum, samples, cycles, the CI's
 * half-width; table_col_detail() in output.h), then, if it is still too
 * wide, writes each column name over two lines (split at an underscore),
 * then wraps its last column when that is prose, and else prints each row
 * as a block of "column  value" lines.  Sections, notes and the time line
 * are wrapped at spaces.  The verbose table (PH_FMT_TABLE_VERBOSE, from
 * --verbose) has every column and each row on one line, for grep and awk;
 * CSV and JSON always hold every column.
 */
#include "output_impl.h"
#include "util.h"

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

/* s, then spaces up to width w; right-aligned for a negative w. */
static void put_padded(FILE *f, const char *s, size_t l, int w)
{
	if (w < 0)
		doc_put_spaces(f, -w - (int)l);
	fwrite_unlocked(s, 1, l, f);
	if (w > 0)
		doc_put_spaces(f, w - (int)l);
}

/* Where a column name is split over two header lines: its '_' nearest the middle; 0: none. */
static size_t name_split(const char *name)
{
	size_t len = strlen(name), best = 0, best_w = len;

	for (size_t i = 1; i + 1 < len; i++) {
		size_t w = i > len - i - 1 ? i : len - i - 1;

		if (name[i] == '_' && w < best_w) {
			best = i;
			best_w = w;
		}
	}
	return best;
}

/* How one table is laid out. */
struct layout {
	int n;			/* columns shown */
	int *col;		/* their indexes */
	int *w;			/* their widths */
	int *cellw;		/* their widest cell */
	bool *right;		/* right-aligned: every value numeric */
	size_t *split;		/* two header lines: where each name is split (0: bottom line only) */
	bool two_lines;
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
	free(l->split);
}

static void plan_layout(struct ph_table *t, struct layout *l, bool verbose)
{
	int n = t->ncols ? t->ncols : 1, last;

	memset(l, 0, sizeof(*l));
	l->col = xcalloc(n, sizeof(int));
	l->w = xcalloc(n, sizeof(int));
	l->cellw = xcalloc(n, sizeof(int));
	l->right = xcalloc(n, sizeof(bool));
	l->split = xcalloc(n, sizeof(size_t));
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
	/* Too wide: each name wider than its values over two lines. */
	l->two_lines = true;
	for (int k = 0; k < l->n; k++) {
		const char *name = t->cols[l->col[k]];
		size_t len = strlen(name), s = name_split(name);
		int hw;

		if ((int)len <= l->cellw[k] || !s)
			continue;
		l->split[k] = s;
		hw = (int)(s > len - s - 1 ? s : len - s - 1);
		l->w[k] = hw > l->cellw[k] ? hw : l->cellw[k];
	}
	l->two_lines = false;
	for (int k = 0; k < l->n; k++)
		l->two_lines |= l->split[k] != 0;
	if (layout_width(l) <= PH_TABLE_WIDTH)
		return;
	/* Still too wide: wrap the last column where it is prose with room, else a block per row. */
	last = l->n - 1;
	if (!l->right[last] && PH_TABLE_WIDTH - (layout_width(l) - l->w[last]) >= MIN_WRAP_WIDTH) {
		l->wrap = PH_TABLE_WIDTH - (layout_width(l) - l->w[last]);
		l->w[last] = l->wrap;
		return;
	}
	l->records = true;
}

static void put_header(FILE *f, const struct ph_table *t, const struct layout *l)
{
	if (l->two_lines) {
		/* The top line: each split name's part before its '_', no trailing spaces. */
		int pending = 0;

		for (int k = 0; k < l->n; k++) {
			int s = (int)l->split[k];

			pending += 2;
			if (!s) {
				pending += l->w[k];
				continue;
			}
			if (l->right[k])
				pending += l->w[k] - s;
			doc_put_spaces(f, pending);
			fwrite_unlocked(t->cols[l->col[k]], 1, (size_t)s, f);
			pending = l->right[k] ? 0 : l->w[k] - s;
		}
		putc_unlocked('\n', f);
	}
	for (int k = 0; k < l->n; k++) {
		const char *name = t->cols[l->col[k]];
		size_t s = l->split[k];
		int w = l->right[k] ? -l->w[k] : l->w[k];

		doc_put_spaces(f, 2);
		if (s)
			name += s + 1;
		/* Nothing follows the last column: a left-aligned one is not padded. */
		put_padded(f, name, strlen(name), k + 1 == l->n && w > 0 ? 0 : w);
	}
	putc_unlocked('\n', f);
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
