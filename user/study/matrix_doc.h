/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * matrix_doc.h - what is made of a measured matrix (matrix.h): the
 * document "pagehop matrix" prints and saves (after every cell too, for
 * --save: matrix_save.h), and the input "pagehop slit" analyses on this machine,
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

#endif
