/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * baseline.h - pagehop baseline's study: this machine's fingerprint
 * (diag.h) measured as the reference that pagehop check judges against.
 */
#ifndef PAGEHOP_BASELINE_H
#define PAGEHOP_BASELINE_H

#include "diag.h"
#include "steps.h"

struct ph_baseline {
	unsigned repeats;	/* of each figure, 1..20 (the command's --repeats) */
	struct ph_distreq dist;	/* --percentiles: the latency figures' tails */
	struct ph_diag d;
};

/*
 * The steps (steps.h), on a struct ph_baseline.  measure: every figure; none
 * measured is a failure said on stderr.  document: the fingerprint, the
 * machine's load; a figure skipped makes *rc 1 (after --save: the
 * reference holds the others).
 */
extern const struct ph_steps baseline_steps;

#endif
