/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * matrix_doc.h - what is made of a measured matrix (matrix.h): the
 * document "pagehop matrix" prints and saves, the same saved after every
 * cell for --save, and the input "pagehop slit" analyses on this machine,
 * taken straight from the measurement with the digits the document records.
 */
#ifndef PAGEHOP_MATRIX_DOC_H
#define PAGEHOP_MATRIX_DOC_H

#include <stdbool.h>

#include "matrix.h"
#include "nmatrix.h"
#include "output.h"
#include "session.h"
#include "topology.h"

/*
 * Everything measured so far as a document: matrices, cells, SLIT, HMAT.
 * mem_rows: the matrices with a row per memory node (--orientation
 * mem-rows, where the output is a table or CSV), else a row per CPU node.
 */
struct ph_doc *matrix_doc(const struct ph_mx *mx, struct ph_session *s, bool mem_rows);

/*
 * The analysis's input straight from the measurement: the figure fig
 * selects (figure_pick()), latency and read bandwidth beside it, the
 * machine's SLIT and HMAT from topo (none for a grouped matrix), the
 * provenance line and the cells of the figure that missed their CI target.
 * Each median and CI is taken as the document records it, so that the
 * input is the one the JSON reader makes of matrix_doc()'s JSON.  0, or
 * -EINVAL when fig selects no measured figure.
 */
int matrix_input(const struct ph_mx *mx, const struct ph_topology *topo,
		 enum ph_figure fig, struct ph_input *in);

/* --save FILE as a per-cell callback of matrix_measure(). */
struct ph_mx_save {
	const char *path;	/* "-": standard output */
	struct ph_session *s;	/* for the document */
	bool failed;		/* a write failed: said once, not tried again */
};

/*
 * A ph_mx_cell_fn, ctx a struct ph_mx_save: a file is rewritten atomically
 * after every cell, and once more when the run stops early; standard
 * output gets one document, at the end.  A matrix with no cell measured
 * replaces no file (said on stderr).  0, or PH_EXIT_FAIL after one line on
 * stderr when the file cannot be written.
 */
int matrix_save_cell(void *ctx, const struct ph_mx *mx, bool last, int rc);

#endif
