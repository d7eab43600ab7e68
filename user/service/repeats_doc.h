/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * repeats_doc.h - a figure's repeats (repeats.h) in a result row: the
 * columns every figure with --repeats carries, declared and filled in one
 * place, and the sentence saying how they are judged.
 */
#ifndef PAGEHOP_REPEATS_DOC_H
#define PAGEHOP_REPEATS_DOC_H

#include <stddef.h>

#include "output.h"
#include "repeats.h"

/*
 * Columns repeats, rep_lo_UNIT, rep_hi_UNIT (the lowest and highest
 * repeat's median), between_runs (one, agree, differ, unknown), bimodal.
 */
void repeats_add_cols(struct ph_table *t, const char *unit);
void repeats_fill(struct ph_table *t, int row, const struct ph_repeats *j, const char *unit,
		  const char *fmt);
/*
 * One clause for a note: "the 3 repeats differ beyond their CIs: 2 at
 * 31.6-32.7 ns, 1 at 155.1 ns" (two groups) or "... range over
 * 10.0-30.0 ns, not as two groups".
 */
void repeats_describe(const struct ph_repeats *j, const char *unit, const char *fmt,
		      char *buf, size_t len);

extern const char repeats_method[];

#endif
