/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * output.h - the one output layer.  A command builds a document of
 * key/value sections, tables and matrices, then renders it once, as a table
 * for people, CSV, or JSON with a provenance block.  Rendering happens only
 * when the command is done (or interrupted), so a failed run never leaves
 * half a document on stdout.
 */
#ifndef PAGEHOP_OUTPUT_H
#define PAGEHOP_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "number.h"
#include "provenance.h"

/* How a document is rendered (--format, read by cli_parse_format()). */
enum ph_format {
	PH_FMT_TABLE = 1,
	PH_FMT_CSV,
	PH_FMT_JSON,
	/*
	 * The table with every column, each row on one line (--verbose):
	 * the default table leaves out the detail columns and keeps to 100
	 * columns (render_table.c).
	 */
	PH_FMT_TABLE_VERBOSE,
};

struct ph_doc;
struct ph_section;
struct ph_table;
struct ph_matrix;

struct ph_doc *doc_new(const char *command);
void doc_free(struct ph_doc *d);
/* Use p instead of collecting the provenance at render time (tests). */
void doc_set_provenance(struct ph_doc *d, const struct ph_provenance *p);

/* A key/value block: "clock": {"tsc_hz": ..., ...}. */
struct ph_section *doc_add_section(struct ph_doc *d, const char *name,
				   const char *title);
void section_str(struct ph_section *s, const char *key, const char *val);
void section_int(struct ph_section *s, const char *key, long long val);
/*
 * A string too long for a line a person reads (every node pair of a
 * thousand nodes): the table rendering prints brief (the first few and how
 * many more), CSV and JSON print val in full.
 */
void section_str_brief(struct ph_section *s, const char *key, const char *val,
		       const char *brief);
void section_num(struct ph_section *s, const char *key, double val,
		 const char *fmt);
void section_bool(struct ph_section *s, const char *key, bool val);

/*
 * A table of records.  Columns are declared first, in order; column names
 * carry their unit (lat_ns, bw_GBps).  Cells not set are null / "-".
 */
struct ph_table *doc_add_table(struct ph_doc *d, const char *name,
			       const char *title);
/*
 * A table of nrows rows that are made when the document is rendered, one
 * at a time (and more than once: the table layout measures its columns
 * first): fill(ctx, t, row) sets the cells of row with table_str() and the
 * like, and only of that row.  For tables of N^2 rows, which stored would
 * take gigabytes.  ctx must live until the document is rendered.
 */
typedef void (*ph_table_fill_fn)(const void *ctx, struct ph_table *t, int row);
struct ph_table *doc_add_table_rows(struct ph_doc *d, const char *name,
				    const char *title, int nrows,
				    ph_table_fill_fn fill, const void *ctx);
void table_add_col(struct ph_table *t, const char *name);
/*
 * Mark the declared column name (every column of that name) as detail: the
 * statistics behind a figure (its minimum, samples, cycles, whether the CI
 * target was met, a CI percent beside its bounds), which the default table leaves out
 * and the verbose table, CSV and JSON print.  The figure, its CI and what
 * it means stay in the default table.
 */
void table_col_detail(struct ph_table *t, const char *name);
/* table_col_detail() for each name of a list separated by spaces. */
void table_detail(struct ph_table *t, const char *names);
int table_add_row(struct ph_table *t);
int table_nrows(const struct ph_table *t);
void table_str(struct ph_table *t, int row, const char *col, const char *val);
/* A cell's string with a short form for the table rendering, as section_str_brief(). */
void table_str_brief(struct ph_table *t, int row, const char *col, const char *val,
		     const char *brief);
void table_int(struct ph_table *t, int row, const char *col, long long val);
void table_num(struct ph_table *t, int row, const char *col, double val,
	       const char *fmt);
void table_bool(struct ph_table *t, int row, const char *col, bool val);

/*
 * A node x node matrix, printed as numactl prints "node distances" and as
 * the CSV that "pagehop slit --input" reads.  metric names the values:
 * "distance", "latency_ns", "bandwidth_GBps".
 */
struct ph_matrix *doc_add_matrix(struct ph_doc *d, const char *name,
				 const char *title, const char *metric,
				 int nrows, const int *row_ids,
				 int ncols, const int *col_ids);
/* The same, its rows made when rendered: fill(ctx, m, r) sets row r's cells. */
typedef void (*ph_matrix_fill_fn)(const void *ctx, struct ph_matrix *m, int row);
struct ph_matrix *doc_add_matrix_rows(struct ph_doc *d, const char *name,
				      const char *title, const char *metric,
				      int nrows, const int *row_ids,
				      int ncols, const int *col_ids,
				      ph_matrix_fill_fn fill, const void *ctx);
void matrix_int(struct ph_matrix *m, int r, int c, long long val);
void matrix_num(struct ph_matrix *m, int r, int c, double val,
		const char *fmt);

/* A sentence for the reader: a skipped feature and why, a caveat. */
void doc_note(struct ph_doc *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Render the whole document; 0 or -errno. */
int doc_render(struct ph_doc *d, enum ph_format fmt, FILE *out);
/*
 * Write the JSON rendering to path with write_file_atomic ("-": stdout).
 * 0, or -errno with why saying what was wrong.
 */
int doc_save_json(struct ph_doc *d, const char *path, char *why, size_t size);

#endif
