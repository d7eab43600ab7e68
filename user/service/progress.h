/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * progress.h - what a long run is doing, on stderr and nowhere else: the
 * step it is at ("[3/12]"), what the step is, and the time left at the mean
 * step time so far.  On a terminal one line, rewritten and cleared at the
 * end; with --progress one line per step, for logs; with --quiet (or when
 * stderr is not a terminal) nothing.  One process-wide line: the studies
 * mark their steps, the runner adds the figure it is timing.
 */
#ifndef PAGEHOP_PROGRESS_H
#define PAGEHOP_PROGRESS_H

#include <stdbool.h>
#include <stdio.h>

/* What the options ask (--progress, --quiet, neither). */
enum ph_progress_mode {
	PH_PROGRESS_AUTO = 0,	/* the line when stderr is a terminal */
	PH_PROGRESS_LOG,	/* --progress: one line per step, on any stderr */
	PH_PROGRESS_OFF,	/* --quiet */
};

/* How it is shown, once resolved. */
enum ph_progress_out {
	PH_PROGRESS_NONE = 0,
	PH_PROGRESS_TTY,	/* one line, rewritten with \r */
	PH_PROGRESS_LINES,	/* one line per step, no escape codes */
};

/*
 * Show progress on stderr as mode asks: AUTO is the rewritten line when
 * stderr is a terminal, nothing when it is not or when the run is
 * unattended (check, baseline: only --progress shows anything).  The line
 * is as wide as the terminal (TIOCGWINSZ, else 80 columns).
 */
void progress_setup(enum ph_progress_mode mode, bool unattended);
/*
 * Show it on out in that form, as wide as width columns, timed by now
 * (seconds): progress_setup's work, and the unit tests' fake clock and
 * captured file.
 */
void progress_open(enum ph_progress_out how, FILE *out, double (*now)(void), int width);
/* The form progress is shown in. */
enum ph_progress_out progress_shown(void);

/* A run of total steps starts; what names it ("pages"). */
void progress_begin(int total, const char *what);
/*
 * The next step starts: "what [k/total] label", and once a step is done
 * ", ~N s left" at the mean time of the steps done.  One line each with
 * --progress.
 */
void progress_step(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * Setup that takes a while (laying out memory, building a chain): on the
 * terminal it follows the step; with --progress a line of its own only
 * outside a run of steps.
 */
void progress_phase(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * Seconds since the current step started, shown or not (0 before the first
 * step): a document's per-step time, from the same boundaries.
 */
double progress_step_seconds(void);
/* How far the figure being timed is: on the terminal only, after the step. */
void progress_detail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * The run of steps ends: the line cleared; with --progress one line saying
 * how many steps took how long.  Safe to call when nothing began.
 */
void progress_done(void);
/*
 * A signal came (the runner's stop flag): clear the line and show nothing
 * more.  Async-signal-safe (one write(2)).
 */
void progress_signal(void);

/* "~12 s left" for seconds left into buf: s under 90, min under 90, else h. */
const char *progress_eta(double left_s, char *buf, size_t size);

#endif
