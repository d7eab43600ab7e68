/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kernel_report.h - what Linux derives from the SLIT in force and from the
 * proposed one, side by side, in a "pagehop slit" report.
 */
#ifndef PAGEHOP_KERNEL_REPORT_H
#define PAGEHOP_KERNEL_REPORT_H

#include "distance.h"
#include "output.h"

/*
 * A section "kernel_view" (scheduler NUMA levels, pairs beyond
 * node_reclaim's distance) and a table "kernel_fallback" (each node's
 * fallback order), for slit (the table in force) and the proposal p over
 * p's nodes; a note for each node whose order differs.  CPU nodes are m's
 * rows, memory nodes its columns.  Nothing without a SLIT, or when the
 * proposal has unknown entries.
 */
void kernel_report(struct ph_doc *doc, const struct ph_slit *slit, const struct ph_proposal *p,
		   const struct ph_nmatrix *m);

#endif
