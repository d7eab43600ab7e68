// SPDX-License-Identifier: GPL-2.0-only
/*
 * render_table.c - a document as aligned text: sections as key/value lines, tables
 * with a header, matrices with row and column ids.
 */
#include "output_impl.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* ---- table rendering ---- */

void doc_put_spaces(FILE *f, int n)
{
	static const char spaces[64] = "                                                               ";

	for (; n > 0; n -= 63)
		fwrite_unlocked(spaces, 1, n < 63 ? (size_t)n : 63, f);
}

/*
 * s on lines of at most width columns, broken only after ", " (a part
 * longer than a line stays whole), each line after the first indented by
 * indent.
 */
static void print_wrapped(FILE *f, const char *s, int width, int indent)
{
	int col = 0;

	while (*s) {
		const char *comma = strstr(s, ", ");
		size_t w = comma ? (size_t)(comma - s) + 1 : strlen(s);

		if (col && col + 1 + (int)w > width) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (col) {
			fputc(' ', f);
			col++;
		}
		fwrite(s, 1, w, f);
		col += (int)w;
		s += w;
		while (*s == ' ')
			s++;
	}
	fputc('\n', f);
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
		doc_put_spaces(f, -w - (int)l);
	fwrite_unlocked(s, 1, l, f);
	if (w > 0)
		doc_put_spaces(f, w - (int)l);
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
		const struct cell *row = doc_table_row(t, r);

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
		const struct cell *row = doc_table_row(t, r);

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
	fprintf(f, "%s:\nnode", it->title);
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

void doc_render_table(struct ph_doc *d, FILE *f)
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
	if ((d->nnotes || d->have_time) && d->nitems)
		fprintf(f, "\n");
	for (int i = 0; i < d->nnotes; i++)
		fprintf(f, "note: %s\n", d->notes[i]);
	if (d->have_time) {
		char line[256];

		doc_time_line(d, line, sizeof(line));
		print_wrapped(f, line, 80, 6);
	}
}
