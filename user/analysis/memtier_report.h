/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * memtier_report.h - the memory tiers and demotion targets Linux derives
 * from the firmware's HMAT and SLIT and from the proposed ones
 * (memtier.h), side by side in a "pagehop slit" report.
 */
#ifndef PAGEHOP_MEMTIER_REPORT_H
#define PAGEHOP_MEMTIER_REPORT_H

#include "acpi_hmat.h"
#include "distance.h"
#include "host_facts.h"
#include "memtier.h"
#include "output.h"

/*
 * A section "memory_tiers" (the rule applied, for which kernel, each
 * side's tiers as sysfs memory_tierN/nodelist lists them, the 10% rule)
 * and a table "kernel_tiers" (per node: abstract distance, tier and
 * demotion targets on each side, "*" where they differ), over the
 * proposal's nodes (CPU nodes: m's rows, memory nodes: its columns).
 * fw: the firmware's HMAT, NULL when none was read; the proposed HMAT is
 * made from lat (ns) and bw (GB/s).  release names the measured machine's
 * kernel, whose rule is applied; NULL: not known, and the section says
 * what it would need instead of any tier.  Nothing without a SLIT or when the proposal has unknown
 * entries.
 */
void memtier_report(struct ph_doc *doc, const struct ph_slit *slit, const struct ph_proposal *p,
		    const struct ph_nmatrix *m, const struct ph_acpi_hmat *fw,
		    const struct ph_nmatrix *lat, const struct ph_nmatrix *bw, const char *release);

#endif
