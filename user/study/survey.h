/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * survey.h - the first look that 'pagehop' with no command runs, in about
 * ten seconds: on the first node with CPUs and memory, the random-access
 * latency on 4K pages (and on THP where it can be had without reserving
 * anything) and the read and triad bandwidth with a thread per core, each
 * on verified memory of its own, with its interval; then what to run next.
 */
#ifndef PAGEHOP_SURVEY_H
#define PAGEHOP_SURVEY_H

#include "output.h"
#include "session.h"
#include "steps.h"

struct ph_survey {
	int node;		/* where it measures: that node's CPUs and memory */
	struct ph_doc *doc;
	struct ph_table *t;	/* "survey": a row per figure */
	int rc;			/* the exit code so far */
};

/*
 * The steps of pagehop survey (steps.h), on a struct ph_survey: the plan,
 * measure and document below.
 */
extern const struct ph_steps survey_steps;

/*
 * Plan on s (session_machine done): the node, the statistics every figure
 * uses, and the document's machine section and table of figures.
 */
int survey_plan(void *state, struct ph_session *s);
/*
 * Measure each figure on memory and threads of its own (session_start and
 * session_stop around each), adding its row as it is measured: the row's
 * common columns say what that memory was, and it is gone before the next
 * figure.  A figure that cannot be had is said on stderr and left out; the
 * survey goes on.  Returns v->rc.
 */
int survey_measure(void *state, struct ph_session *s);
/* The document, with what to run next; the caller frees it.  v->rc is the exit code. */
struct ph_doc *survey_doc(void *state, struct ph_session *s, int *rc);

#endif
