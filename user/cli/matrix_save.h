/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * matrix_save.h - --save of a matrix as it is measured: the command hands
 * matrix_measure() this callback, which writes the document the engine
 * makes of the cells so far (matrix_doc()), so that an interrupted run
 * keeps what it measured.  The engine itself writes no file.
 */
#ifndef PAGEHOP_MATRIX_SAVE_H
#define PAGEHOP_MATRIX_SAVE_H

#include <stdbool.h>

#include "matrix.h"
#include "matrix_doc.h"
#include "session.h"

/*
 * A ph_mx_cell_fn, ctx a struct ph_mx_save: a file is rewritten atomically
 * after every cell, and once more when the run stops early; standard
 * output gets one document, at the end.  A matrix with no cell measured
 * replaces no file (said on stderr).  0, or PH_EXIT_FAIL after one line on
 * stderr when the file cannot be written.
 */
int matrix_save_cell(void *ctx, const struct ph_mx *mx, bool last, int rc);

#endif
