/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * read_csv.h - a measured node matrix as plain CSV: a header of node ids,
 * a row per CPU node, as published tables are kept,
 * and what the output layer writes for a matrix ("# pagehop matrix",
 * "# metric: latency_ns|bandwidth_GBps|distance", a "node,<ids>" header,
 * one row per CPU node).  A square "distances" block is the SLIT recorded
 * with it.
 */
#ifndef PAGEHOP_READ_CSV_H
#define PAGEHOP_READ_CSV_H

#include <stddef.h>

#include "nmatrix.h"

/*
 * text is a C string ending with a line end, its name in messages path.
 * 0 with in filled, or -EINVAL with one line in err (read_text.h).
 */
int input_parse_csv(const char *path, const char *text, enum ph_figure fig,
		    struct ph_input *in, char *err, size_t errlen);

#endif
