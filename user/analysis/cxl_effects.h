/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cxl_effects.h - what Linux does with a CXL node's coordinates, now and
 * under the figures the measurement proposes: its memory tier (the
 * abstract distance mt_perf_to_adistance() gives its access class 1
 * figures against the lowest node with CPUs and memory, memtier.h; tier
 * = distance >> 7), the nodes that demote to it (those in a higher tier,
 * which find it in the next tier down), and the weight weighted
 * interleave would give it in proportion to min(read, write) bandwidth
 * (wi_reduce(), the auto mode of Linux 6.16), beside the weight sysfs
 * holds now (6.9 to 6.15: 1 unless written by hand).
 */
#ifndef PAGEHOP_CXL_EFFECTS_H
#define PAGEHOP_CXL_EFFECTS_H

#include "cxl.h"
#include "cxl_judge.h"

struct ph_cxl_effect {
	int node;
	int tier_now;		/* sysfs, -1 none */
	int ref;		/* the reference node, -1 none */
	const char *why;	/* no reference, or a figure missing: why nothing is computed */
	long adist_kernel, adist_proposed;	/* -1 none */
	int tier_kernel, tier_proposed;
	char demoted_from[128];	/* the nodes in a higher tier (now, by sysfs) */
	int wi_now;		/* sysfs, -1 none */
	int wi_kernel, wi_proposed;	/* bandwidth-proportional weights, -1 none */
	uint32_t lat_kernel, lat_proposed, bw_kernel, bw_proposed;	/* read, access 1 */
};

/*
 * For explained node e (with the tiering t read from sysfs, and the
 * judged entries j: a read figure of the CDAT judged gives the proposed
 * value, the implied one; others stay as the kernel has them).
 */
void cxl_effect(const struct ph_cxl_explained *e, const struct ph_cxl_tiering *t,
		const struct ph_cxl_judged *j, int nj, struct ph_cxl_effect *out);

struct ph_doc;
/* Table cxl_effects and a note saying how the figures were obtained. */
void cxl_effects_report(struct ph_doc *doc, const struct ph_cxl_effect *x, int n);

#endif
