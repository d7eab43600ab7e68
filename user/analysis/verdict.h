/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * verdict.h - what "pagehop slit" concludes from its analysis, the word the
 * report gives it and the command's exit status for it (pagehop(1), EXIT
 * STATUS).  distance.c decides the verdict; this is what it means outside.
 */
#ifndef PAGEHOP_VERDICT_H
#define PAGEHOP_VERDICT_H

enum ph_verdict {
	PH_VERDICT_CONSISTENT = 1,	/* PH_EXIT_OK */
	PH_VERDICT_INCONSISTENT,	/* ordering violation or level mismatch: PH_EXIT_FAIL */
	PH_VERDICT_MAGNITUDE,		/* in order, outside tolerance: PH_EXIT_MAGNITUDE */
	PH_VERDICT_UNCOMPARED,		/* no SLIT to compare with: PH_EXIT_OK */
	PH_VERDICT_CANNOT_TELL,		/* cells without the evidence: PH_EXIT_CANNOT_TELL */
};

/* The command's exit status for a verdict: a PH_EXIT_* of util.h. */
int verdict_exit(enum ph_verdict v);
/* "consistent", "inconsistent", "outside tolerance", "not compared", "cannot tell". */
const char *verdict_status(enum ph_verdict v);

#endif
