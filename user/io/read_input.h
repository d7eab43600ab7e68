/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * read_input.h - what "pagehop slit --input" reads: pagehop's JSON or a
 * CSV, told apart by their first character.
 */
#ifndef PAGEHOP_READ_INPUT_H
#define PAGEHOP_READ_INPUT_H

#include <stddef.h>

#include "nmatrix.h"

/*
 * len bytes of a file's content: refused unless text (no NUL, no control
 * character but tab and line ends, no UTF-16; a UTF-8 byte-order mark is
 * skipped), then JSON when its first non-blank character is '{', else CSV.
 * 0, or -EINVAL with one line in err.
 */
int input_parse(const char *path, const char *buf, size_t len, enum ph_figure fig,
		struct ph_input *in, char *err, size_t errlen);
/*
 * Read path ("-": standard input; only a regular file otherwise, at most
 * PH_INPUT_MAX_BYTES) and parse it as input_parse does.
 */
int input_load(const char *path, enum ph_figure fig, struct ph_input *in,
	       char *err, size_t errlen);

/*
 * Apply --orientation want to what input_parse read: with mem-rows on a
 * table that said nothing, the matrix is transposed to rows = CPU node; a
 * table that said the other (a "MEM CPU" corner, a "# rows:" or
 * "# orientation:" line, pagehop's JSON) is refused.  0, or -EINVAL with
 * one line in err.
 */
int input_orient(struct ph_input *in, enum ph_orient want, const char *path,
		 char *err, size_t errlen);

#endif
