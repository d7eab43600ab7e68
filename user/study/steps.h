/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * steps.h - the steps of a study, as its engine declares them: the
 * engine's state is the study's argument block (the command's option
 * handler fills its fields, the driver zeroes it before and frees it
 * after), and every step takes that block as it is.  The command's
 * struct ph_study (cli/study.h) points at its engine's steps.
 */
#ifndef PAGEHOP_STEPS_H
#define PAGEHOP_STEPS_H

#include <stdbool.h>
#include <stddef.h>

struct ph_doc;
struct ph_session;

struct ph_steps {
	size_t size;		/* the engine's state: the argument block */
	/* With the machine read: plan the figures and start the run (optional). */
	int (*plan)(void *state, struct ph_session *s);
	/* Measure: 0 or an exit code. */
	int (*measure)(void *state, struct ph_session *s);
	/* Whether anything was measured (optional: NULL renders whatever came). */
	bool (*measured)(const void *state);
	/*
	 * The document of what was measured; *rc may become an exit code (a
	 * figure that failed, memory that moved, a verdict).  NULL when the
	 * document cannot be had (an output of its own failed, said on
	 * stderr): nothing is rendered, and the exit code is *rc (1 if 0).
	 */
	struct ph_doc *(*document)(void *state, struct ph_session *s, int *rc);
	/* Free what the steps allocated in the state (optional); the driver frees the block. */
	void (*free)(void *state, struct ph_session *s);
};

/* pagehop chase's (latency.h) and stream's (bandwidth.h): their engines are services. */
extern const struct ph_steps latency_steps, bandwidth_steps;

#endif
