// SPDX-License-Identifier: GPL-2.0-only
/*
 * render_csv.c - a document as CSV (RFC 4180 quoting): one block per item.
 */
#include "output_impl.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

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

void doc_render_csv(struct ph_doc *d, FILE *f)
{
	const struct ph_provenance *p = &d->prov;

	fprintf(f, "# pagehop %s %s; host %s; kernel %s; %s\n", p->version,
		d->command, p->host, p->kernel, p->time_utc);
	if (d->have_time) {
		char line[256];

		doc_time_line(d, line, sizeof(line));
		fprintf(f, "# %s\n", line);
	}
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
				const struct cell *row = doc_table_row(&it->table, r);

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
				const struct cell *row = doc_matrix_row(&it->matrix, r);

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
