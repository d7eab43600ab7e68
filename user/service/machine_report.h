/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * machine_report.h - the machine as pagehop info shows it (tables and
 * sections of a document).
 */
#ifndef PAGEHOP_MACHINE_REPORT_H
#define PAGEHOP_MACHINE_REPORT_H

#include "clock.h"
#include "cpu.h"
#include "kmod.h"
#include "topology.h"

struct ph_doc;

/* Table nodes: each node's CPUs, memory and hugepage pools. */
void machine_report_nodes(struct ph_doc *doc, const struct ph_topology *t);
/*
 * Memory (THP), the CPU and its instruction sets, caches, TLBs, SMT
 * siblings, the clock, and pagehop.ko with its prefetcher control.
 */
void machine_report(struct ph_doc *doc, const struct ph_topology *t, const struct ph_cpu *c,
		    const struct ph_clock *clk, const struct ph_kmod *k);

#endif
