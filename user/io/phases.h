/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * phases.h - where a run's time went: seconds spent laying out memory,
 * touching it, reading its placement back, building and checking chains,
 * writing arrays, warming up, measuring and checking the arrays' results,
 * each timed with the monotonic clock around the real work, and the total
 * since the command began.  Every document rendered carries them
 * (output.h), once phases_start() was called.
 */
#ifndef PAGEHOP_PHASES_H
#define PAGEHOP_PHASES_H

#include <stdbool.h>

enum ph_phase {
	PH_PHASE_ALLOC,		/* mmap/mbind or the module's allocation, not the touch */
	PH_PHASE_TOUCH,		/* faulting every page in */
	PH_PHASE_VERIFY,	/* reading the placement back, before and after */
	PH_PHASE_CHAIN,		/* building and checking chase chains */
	PH_PHASE_ARRAYS,	/* bandwidth arrays: their first values written */
	PH_PHASE_WARMUP,	/* untimed passes: warm-up, block sizing */
	PH_PHASE_MEASURE,	/* the timed blocks of every figure */
	PH_PHASE_CHECK,		/* bandwidth arrays read back after each figure */
	PH_PHASE_COUNT
};

/* The setup phases are those before PH_PHASE_WARMUP; the rest are per figure. */
#define PH_PHASE_SETUP_END PH_PHASE_WARMUP

/* The total runs from here (the command's start); phases count from now on. */
void phases_start(void);
bool phases_started(void);
/*
 * Stop the clock when the results are complete (matrix, before its last
 * --save): every document made after that, saved or printed, has the same
 * times, and phase_add() adds nothing more.
 */
void phases_stop(void);
bool phases_stopped(void);
/* Add seconds to a phase.  From the main thread only. */
void phase_add(enum ph_phase p, double seconds);
/* A phase's seconds so far; the setup phases' sum; since phases_start(). */
double phase_seconds(enum ph_phase p);
double phases_setup(void);
double phases_total(void);	/* to now, or to phases_stop() */
/* "alloc_s", as the documents name it. */
const char *phase_key(enum ph_phase p);

#endif
