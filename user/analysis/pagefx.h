/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pagefx.h - what a knee of the page-size study can be attributed to, and
 * which of its figures do not make sense, on plain numbers so that both are
 * tested on hand-made curves.
 *
 * The study separates two effects (docs/methodology.md, "Page size"):
 * translation (the same random chase on small pages against the largest
 * page size: only the translation differs) and cache locality (random
 * against TLB-local on the largest page size, where the TLB does not miss:
 * only the cache footprint differs).  Each effect's knee is set against the
 * capacities that could cause it, the data TLBs' reach (CPUID) and the
 * caches (hwloc); a knee no capacity fits is "unexplained", never labelled.
 */
#ifndef PAGEHOP_PAGEFX_H
#define PAGEHOP_PAGEFX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum pagefx_kind {
	PAGEFX_NONE = 0,	/* no knee */
	PAGEFX_TLB,
	PAGEFX_CACHE,
	PAGEFX_UNEXPLAINED,
};

/* One capacity a knee could come from: a TLB's reach or a cache's size. */
struct pagefx_capacity {
	enum pagefx_kind kind;	/* PAGEFX_TLB or PAGEFX_CACHE */
	uint64_t bytes;
	char what[64];		/* "L1 DTLB 64 x 4 KiB", "L2 cache" */
};

struct pagefx_attr {
	enum pagefx_kind kind;	/* what the knee fits; UNEXPLAINED if nothing */
	int cap;		/* index of the capacity it is attributed to, or -1 */
	int also;		/* a capacity of the other kind that fits too, or -1 */
	bool below_reach;	/* expected a TLB effect, but the curve rises while
				 * the working set is at most half the smallest
				 * TLB reach among caps */
};

/*
 * Whether capacity c fits a knee between above (the last working set on the
 * baseline) and at (the first one above it): the effect of a capacity shows
 * once the working set passes it, give or take one doubling for set
 * conflicts and replacement, so c in [above / 2, 2 x at).
 */
bool pagefx_fits(uint64_t above, uint64_t at, uint64_t c);

/*
 * Attribute a knee (above, at as pagefx_fits; at == 0: no knee) of an effect
 * of kind expected.  A fitting capacity of the expected kind is preferred,
 * the closest in log2 to above; else one of the other kind (a cache knee on
 * the translation curve is called a cache knee); else UNEXPLAINED.
 */
void pagefx_attribute(uint64_t above, uint64_t at, enum pagefx_kind expected,
		      const struct pagefx_capacity *caps, int ncaps, struct pagefx_attr *out);

const char *pagefx_kind_name(enum pagefx_kind k);	/* "tlb", "cache", "unexplained", "none" */

/* One figure of a curve: median, half-width of its 95% CI (NAN unknown), CI met. */
struct pagefx_fig {
	uint64_t ws;
	double ns, hw;
	bool ci_met;
};

/* A page size's random-chase curve. */
struct pagefx_curve {
	const char *name;	/* "4K", "2M", "1G", "THP" */
	uint64_t page;		/* bytes */
	const struct pagefx_fig *f;
	int n;
};

/* One thing that does not make sense, with its likely reason in words. */
struct pagefx_flag {
	char figure[64];	/* "1G random at 8 MiB" */
	char what[256];
	char reason[320];
};

/*
 * How much slower a larger page must be to be flagged, besides CIs apart:
 * at least PAGEFX_SLOWER_MIN_NS and PAGEFX_SLOWER_MIN_REL of the smaller
 * page's figure.  A CI covers the blocks of one run on one allocation, not
 * what changes between allocations (the frames, so the cache sets and DRAM
 * banks the lines fall in): two runs of the same 4K random chase at 4 MiB on
 * fresh allocations gave 15.18 ns [15.08, 15.29] and 16.59 ns [16.07,
 * 17.12] on the development host, CIs apart, 9% and 1.4 ns.  A difference
 * below both thresholds is what a second allocation of the same page size
 * can do; 2 ns is also the knee floor (KNEE_FLOOR_NS in pages_doc.c).
 */
#define PAGEFX_SLOWER_MIN_NS 2.0
#define PAGEFX_SLOWER_MIN_REL 0.10

/*
 * Larger pages slower than smaller ones beyond both CIs (large's lower end
 * above small's upper end; never where a CI is unknown) and by a practical
 * amount (both thresholds above), at every working set both curves have;
 * large's page must be larger.  same_frames: both ran over the same physical
 * frames; hypervisor: under one.  The reason names what the comparison
 * cannot rule out.  Flags appended to out (at most max); returns how many.
 */
int pagefx_slower_large(const struct pagefx_curve *small, const struct pagefx_curve *large,
			bool same_frames, bool hypervisor, struct pagefx_flag *out, int max);

/*
 * The figures a conclusion rests on whose CI was not met: for a knee, the
 * points on both sides of it (index at and at - 1) of each curve it is
 * computed from.  conclusion names it ("the translation knee of 4K vs 1G").
 */
int pagefx_ci_unmet(const char *conclusion, const struct pagefx_curve *curves, int ncurves,
		    int at, struct pagefx_flag *out, int max);

/*
 * How many of the figures a conclusion about an effect rests on did not
 * meet their CI; *total (if not NULL): how many it rests on.  The effect
 * is computed from ncurves curves aligned point by point (point i of each
 * is the same working set, n = the shortest).  A knee at index at (as
 * sweep_knee gives it) rests on the baseline (the three smallest working
 * sets) and on every point from at - 1 to the last (where the curve must
 * stay above it); no knee (at < 0), "no rise", rests on every point.
 */
int pagefx_unmet(const struct pagefx_curve *c, int ncurves, int at, int *total);

/*
 * The summary line of an effect's knee row.  at < 0: no knee; above: the
 * last working set on the baseline; last: the largest working set; at_max:
 * the cost there.  Categorical ("a TLB knee: ...", "a cache knee: ...",
 * "unexplained", "no rise up to ...") only when unmet is 0; otherwise "not
 * resolved at this noise", how many of the total figures missed their CI,
 * and how to resolve it (a longer --time than time_s, a quieter host).
 * Returns whether it is resolved (unmet == 0).
 */
bool pagefx_summary(const char *effect, const char *pages, int at, uint64_t above, uint64_t last,
		    double at_max, const struct pagefx_attr *a, const struct pagefx_capacity *caps,
		    int unmet, int total, double time_s, char *out, size_t len);

/* A knee below the reach it is attributed to (attr->below_reach): one flag or 0. */
int pagefx_below_reach(const char *effect, uint64_t above, const struct pagefx_attr *a,
		       const struct pagefx_capacity *caps, int ncaps, struct pagefx_flag *out, int max);

/*
 * The note for a run under a hypervisor (vendor: its CPUID 0x40000000
 * string, "" unknown): the host's backing page size and nested paging are
 * part of every figure and cannot be controlled from inside.
 */
void pagefx_hypervisor_note(const char *vendor, char *out, size_t size);

#endif
