/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * interleave_report.h - the weighted-interleave weights Linux derives
 * from the firmware's HMAT and from the proposed one (interleave.h), side
 * by side in a "pagehop slit" report, with what the running kernel holds.
 */
#ifndef PAGEHOP_INTERLEAVE_REPORT_H
#define PAGEHOP_INTERLEAVE_REPORT_H

#include "acpi_hmat.h"
#include "distance.h"
#include "host_facts.h"
#include "output.h"

/*
 * A section "interleave_weights" (which kernels set them, the weights on
 * each side as "node:weight" lists, the running kernel's sysfs) and a
 * table "kernel_interleave" (per memory node, m's columns: the bandwidth
 * mempolicy_set_node_perf() would cache and the weight, on each side,
 * "*" where they differ, and the sysfs weight).  fw: the firmware's HMAT,
 * NULL when none was read; the proposed HMAT is made from lat (ns) and
 * bw (GB/s).  f: the measured machine's facts as the study gathered
 * them: f->kernel names the kernel (NULL: not known, and said so), f->wi
 * what its sysfs holds (f->wi.read false: not read, f->wi.unread why).
 * Nothing when the proposal has unknown entries.
 */
void interleave_report(struct ph_doc *doc, const struct ph_proposal *p, const struct ph_nmatrix *m,
		       const struct ph_acpi_hmat *fw, const struct ph_nmatrix *lat,
		       const struct ph_nmatrix *bw, const struct ph_host_facts *f);

#endif
