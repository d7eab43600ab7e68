/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * output_impl.h - the inside of a document (output.h), shared by the model
 * (output.c), its renderers (render_table.c, render_csv.c,
 * render_json.c) and render.c, which runs them; nothing outside user/io/
 * includes it.  It is part of output.c's unit (scripts/structure.py).
 */
#ifndef PAGEHOP_OUTPUT_IMPL_H
#define PAGEHOP_OUTPUT_IMPL_H

#include "output.h"
#include "phases.h"

#include <stdbool.h>
#include <stdio.h>

enum cell_kind {
	CELL_NONE = 0,
	CELL_STR,
	CELL_INT,
	CELL_NUM,
	CELL_BOOL,
};

struct cell {
	enum cell_kind kind;
	/*
	 * A string's short form for the table rendering, when it has one:
	 * its offset in text, which holds the string, a NUL, then the short
	 * form; 0 when none.  (It fills the padding after kind: a cell stays
	 * 64 bytes.)
	 */
	int brief;
	char *text;		/* what table and CSV print, when longer than buf */
	long long i;
	double d;
	char buf[24];		/* the text when it fits: a cell costs no allocation */
	int len;		/* of the text */
};

/* What CSV and JSON print for a cell that has a value, and the table without a short form. */
static inline const char *ctext(const struct cell *c)
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
	bool *detail;		/* per column: left out of the default table */
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
	/* Where the run's time went, taken when rendered (phases.h). */
	bool have_time;
	double phase_s[PH_PHASE_COUNT];
	double setup_s, total_s;
	const char *total_until;	/* "measuring done" or "document made" */
};

static inline bool cell_numeric(const struct cell *c)
{
	return c->kind == CELL_INT || c->kind == CELL_NUM;
}

/* The cells of row r: stored, or made now by the fill function in the scratch row. */
const struct cell *doc_table_row(struct ph_table *t, int r);
const struct cell *doc_matrix_row(struct ph_matrix *m, int r);
/*
 * The time line: "time: setup 1.20 s (alloc 0.01, touch 0.50, verify 0.10,
 * chain 0.59, arrays 0.00), warm-up 0.10 s, measure 2.00 s, total 3.41 s".
 */
void doc_time_line(const struct ph_doc *d, char *buf, size_t size);
/* n spaces. */
void doc_put_spaces(FILE *f, int n);

/* The renderings, written with the *_unlocked calls (the caller locks f). */
void doc_render_table(struct ph_doc *d, FILE *f, bool verbose);
void doc_render_csv(struct ph_doc *d, FILE *f);
void doc_render_json(struct ph_doc *d, FILE *f);

#endif
