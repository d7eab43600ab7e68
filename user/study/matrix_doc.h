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
#include "steps.h"
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

/*
 * --save FILE, the context of the command's per-cell callback
 * (matrix_save_cell(), user/cli/matrix_save.h): the engine holds it and
 * writes no file itself.
 */
struct ph_mx_save {
	const char *path;	/* "-": standard output */
	struct ph_session *s;	/* for the document */
	bool failed;		/* a write failed: said once, not tried again */
};

/* What pagehop matrix measures: the matrix and the options that plan it. */
struct ph_mx_study {
	struct ph_mx mx;
	struct ph_mx_save saver;	/* --save: every cell as it is measured */
	const char *save;
	ph_mx_cell_fn on_cell;		/* the command's, with saver; NULL: none */
	bool mem_rows_table;		/* tables with memory nodes as rows (not JSON) */
	struct ph_mx_group *groups;	/* --groups, each parsed as a node list */
	int ngroups;
	bool explicit_groups;		/* given as cpus=...;mem=... */
	uint64_t lat_size, bw_size;	/* --lat-size, --bw-size (0: --size) */
};

/*
 * The steps of pagehop matrix (steps.h), on a struct ph_mx_study whose
 * mx.lat_size, bw_size and bw_threads, on_cell and mem_rows_table the
 * command's check set.  plan: rows and columns (--cpunodebind and
 * --membind filter them; each cell binds its own), the placement, the
 * default page size.  measure: every cell, each handed to on_cell as it
 * comes.  document: in the orientation the command chose.
 */
extern const struct ph_steps matrix_steps;
/* Free the groups --groups gave (before another --groups replaces them). */
void matrix_study_free_groups(struct ph_mx_study *ms);

#endif
