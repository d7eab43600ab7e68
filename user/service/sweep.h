/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sweep.h - the page-size study's arithmetic, kept free of I/O so that it
 * can be tested on fixed inputs: which page sizes can be had and up to how
 * much, the working sets to visit and where a TLB penalty starts (the
 * knee).
 */
#ifndef PAGEHOP_SWEEP_H
#define PAGEHOP_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buffer.h"

/* What the machine offers on the measured node, as the planner sees it. */
struct sweep_machine {
	uint64_t kmod_features;		/* PAGEHOP_FEAT_* of a usable module, else 0 */
	int64_t free_2m, total_2m;	/* node's hugetlb pool, pages; -1 no pool */
	int64_t free_1g, total_1g;
	bool thp;			/* THP not "never" */
	bool reserve;			/* --reserve: pools may grow */
	uint64_t node_free;		/* bytes free on the node */
	uint64_t node_total;		/* bytes on the node */
};

struct sweep_avail {
	bool ok;
	uint64_t cap;			/* most bytes of this page size to be had */
	enum ph_backend backend;
	char why[160];			/* why not, or where it comes from */
};

/*
 * For each page size, whether it can be had on the node and how much.  The
 * node keeps 5% free, as for any allocation; a pool that may grow (reserve)
 * can take up to that much, rounded down to whole pages.
 */
void sweep_availability(const struct sweep_machine *m, struct sweep_avail out[PH_PS_COUNT]);

/* Working sets from lo to hi, doubling; at most max_points.  Returns n. */
int sweep_sizes(uint64_t lo, uint64_t hi, uint64_t *out, int max_points);

/*
 * The knee of a penalty curve: the first working set from which the penalty
 * (random minus TLB-local latency) stays above its baseline (the median of
 * the first three points) by more than max(floor_ns, 2 x noise[i]), noise[i]
 * being the half-widths of the two latencies' intervals added.  index is
 * that point; -1 if the penalty never rises.
 */
struct sweep_knee {
	int index;
	double baseline;
	double at_max;			/* penalty at the largest working set */
};

void sweep_knee(const double *penalty, const double *noise, int n,
		double floor_ns, struct sweep_knee *out);

/*
 * One working set of a sweep, as the analysis sees it: the medians of the
 * random and the TLB-local chase with the half-widths of their 95% CIs (0
 * where a CI is not known), and the read bandwidth's median.
 */
struct sweep_point {
	uint64_t ws;			/* working set, bytes */
	double rnd_ns, rnd_hw;
	double tlb_ns, tlb_hw;
	double read_GBps;
};

/* Half the width of the interval [lo, hi]; 0 when an end is not finite. */
double sweep_half_width(double lo, double hi);

/* The TLB miss penalty at a working set: random minus TLB-local latency. */
double sweep_penalty(const struct sweep_point *p);

/*
 * sweep_knee of a sweep's penalty curve, the noise at each point being the
 * two latencies' half-widths added.
 */
void sweep_point_knee(const struct sweep_point *p, int n, double floor_ns,
		      struct sweep_knee *out);

#endif
