/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * repeats_doc.h - a figure's repeats (repeats.h) in the engines: judged
 * from their results, the columns every figure with --repeats carries and
 * its table of repeats, declared and filled in one place, the sentence
 * saying how they are judged, and a session started anew between repeats.
 */
#ifndef PAGEHOP_REPEATS_DOC_H
#define PAGEHOP_REPEATS_DOC_H

#include <stddef.h>

#include "output.h"
#include "repeats.h"
#include "session.h"

/* Judge n repeats' results (runs[i] NULL or without samples: left out). */
void repeats_of_results(const struct ph_result *const *runs, int n, struct ph_repeats *out);

/*
 * Columns of a table of repeats after the caller's own (kernel, pattern):
 * repeat, VALUE (e.g. lat_ns), ci_lo_UNIT, ci_hi_UNIT, samples, picked.
 */
void repeats_table_cols(struct ph_table *t, const char *value, const char *unit);
void repeats_table_fill(struct ph_table *t, int row, const char *value, const char *unit,
			const char *fmt, const struct ph_result *res, int repeat, bool picked);

/*
 * The next repeat's memory and threads: read the memory back, stop the
 * session and start it again as it was laid out (session_start_bind with
 * the options' binding and default_threads).  0 or an exit code.
 */
int repeats_restart(struct ph_session *s, unsigned default_threads);

/*
 * Columns repeats, rep_lo_UNIT, rep_hi_UNIT (the lowest and highest
 * repeat's median), between_runs (one, agree, differ, unknown), bimodal.
 */
void repeats_add_cols(struct ph_table *t, const char *unit);
void repeats_fill(struct ph_table *t, int row, const struct ph_repeats *j, const char *unit,
		  const char *fmt);
/*
 * One clause for a note: "the 3 repeats differ beyond their CIs, in two
 * groups (bimodal): 2 at 31.6-32.7 ns, 1 at 155.1 ns" or "... over
 * 10.0-30.0 ns (100.0%), not as two groups".
 */
void repeats_describe(const struct ph_repeats *j, const char *unit, const char *fmt,
		      char *buf, size_t len);

/*
 * Where j's repeats differ, a note: "WHO: the 3 repeats differ beyond their
 * CIs, ...; FIGURE is the median repeat's, and" either (bimodal) "no one
 * figure describes it here: CAUSE" or "its uncertainty is that spread,
 * not its CI: CAUSE".  True when it noted.
 */
bool repeats_note(struct ph_doc *doc, const char *who, const char *figure,
		  const struct ph_repeats *j, const char *unit, const char *fmt, const char *cause);

extern const char repeats_method[];

#endif
