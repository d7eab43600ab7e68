/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * busy.h - whether what else the machine was doing (hostload.h) can
 * explain a timed figure's departure from its reference, and the phrase
 * that names it.  The rule and its thresholds: busy.c and
 * docs/diagnostics.md, "A busy host".
 */
#ifndef PAGEHOP_BUSY_H
#define PAGEHOP_BUSY_H

#include "hostload.h"

#include <stdbool.h>
#include <stddef.h>

/* The thresholds of the rule (busy.c says why each). */
#define BUSY_OTHER_CPUS 0.25	/* other tasks' CPU time, CPUs' worth */
#define BUSY_STEAL 0.05		/* steal, fraction of all CPU time */
#define BUSY_PSI_CPU 0.10	/* "some" CPU stall, fraction of the time */
#define BUSY_PSI_MEM 0.05	/* "some" memory stall, fraction of the time */

/*
 * Whether the load seen over a figure can explain its departure: true
 * with why ("other tasks used 0.93 CPU", "steal 7%", "CPU pressure 35%",
 * joined by "; ") when any threshold is passed.  A load not read (not ok)
 * explains nothing.
 */
bool busy_explains(const struct ph_load *l, char *why, size_t len);

/* "stress-ng-vm[4242] 0.98 s, bash[17] 0.10 s" for the n processes, or "". */
void busy_procs_phrase(const struct ph_busyproc *top, int n, char *out, size_t len);

#endif
