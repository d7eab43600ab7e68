/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pages.h - the page-size study: for each page size that can be had, a
 * sweep of working sets on one node and CPU with one chain seed, everything
 * but the page size held fixed.  At each working set the latency of a
 * random chase (TLB misses included), of a TLB-local chase (misses
 * amortised) and the read bandwidth, with hardware counters per load where
 * the CPU has them (counters.h).  The document (pages_doc.c) separates the
 * translation cost (small pages against the largest) from the
 * cache-locality cost (random against TLB-local on the largest), attributes
 * their knees (pagefx.h), flags anomalies and gives the large/small page
 * ratios (sweep.h does the arithmetic).
 *
 * "pagehop pages" fills the plan from its options; pages_plan() completes it
 * against the machine, pages_measure() takes the figures, pages_doc() makes
 * the document; --plot draws it from the document (report_plot.c).
 */
#ifndef PAGEHOP_PAGES_H
#define PAGEHOP_PAGES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bandwidth.h"
#include "buffer.h"
#include "counters.h"
#include "output.h"
#include "chain.h"
#include "pages_frames.h"
#include "session.h"
#include "steps.h"
#include "sweep.h"
#include "tlb.h"

/* Working sets per sweep, at most: 16K to 4G is 19. */
#define PAGES_MAX_POINTS 40

/* --same-frames: auto (the default), on, off. */
enum pages_same_frames { PAGES_FRAMES_AUTO, PAGES_FRAMES_ON, PAGES_FRAMES_OFF };

/* The word of each, for the document. */
const char *pages_same_frames_name(enum pages_same_frames m);

/* What to measure, filled by the command. */
struct pages_plan {
	bool want[PH_PS_COUNT];	/* page sizes to sweep, PH_PS_THP included */
	bool named;		/* the page sizes were named: one that cannot be
				 * had is said on stderr (THP only if thp_named);
				 * else 4K, 2M, 1G and THP, each that can be had
				 * (THP unless same_frames is on) */
	bool thp_named;		/* thp was in --page-sizes, not only --thp */
	bool thp;		/* --thp: thp as well (the command folds it into want) */
	uint64_t lo, hi;	/* working sets: powers of two from lo (>= 4K) up to hi */
	uint64_t window;	/* the TLB-local chase's window (a power of two);
				 * 0: the L1 DTLB's reach with 4 KiB pages, else 256K */
	uint64_t seed;		/* of every chain */
	enum pages_same_frames same_frames;	/* one pagehop.ko allocation of
						 * 1 GiB pages, each page size a
						 * translation of it: where it
						 * can be had, always, never */
};

struct pages_point {
	uint64_t ws;
	struct ph_result rnd, tlb;	/* latency, ns per load */
	struct ph_bandwidth bw;		/* read */
	bool counted;			/* the counters below were read */
	double rnd_ctr[PMU_NROLES];	/* per load, NAN: not counted */
	double tlb_ctr[PMU_NROLES];
	double step_s;			/* its three figures' wall time, their chains' included */
};

/* One page size's sweep. */
struct pages_sweep {
	enum ph_psize ps;
	/* planned */
	uint64_t sizes[PAGES_MAX_POINTS];
	int nsizes;		/* 0: cannot be had (why says so) */
	bool capped;		/* hi is more than can be had (avail.why says why) */
	bool shared;		/* a view of the one allocation (pg->same); THP,
				 * anonymous memory, never is */
	struct sweep_avail avail;
	/* measured */
	bool ran;		/* its memory was allocated */
	char why[256];		/* why not measured */
	int fail_rc;		/* the exit code of an allocation that failed */
	int n;			/* points measured */
	struct pages_point pt[PAGES_MAX_POINTS];
};

struct ph_pages {
	struct pages_plan plan;
	/* completed by pages_plan */
	int node, cpu;
	uint64_t window;
	struct ph_tlbs tlbs;
	const struct stream_kernel *read;
	struct ph_counters ctr;		/* hardware counters, or why not */
	struct pages_sweep sw[PH_PS_COUNT];	/* 4K, THP, 2M, 1G: those wanted */
	int nsw;
	struct sweep_avail avail[PH_PS_COUNT];	/* what the node offers */
	bool same;		/* the hugetlb-sized sweeps are views of one
				 * allocation (frames), THP its own; else
				 * frames.why says why not */
	/* measured */
	int reached;		/* sweeps the measure step came to; the rest are
				 * not reported (a failure or a signal came first) */
	int points;		/* working sets measured, all sweeps */
	struct pages_frames frames;
	/* Every sweep's random chains derive from one order over the largest working set. */
	struct chain_orders orders;
	int rebased;		/* chains rebased from one view into another, not written */
};

/*
 * The steps of pagehop pages (steps.h), on a struct ph_pages whose plan
 * the command filled.
 */
extern const struct ph_steps pages_steps;

/*
 * plan: complete pg->plan against the machine (s after session_machine; one
 * thread, where s's binding says): the node and CPU, the TLB window, and
 * for each page size the working sets that can be had.  0 or an exit code.
 */
int pages_plan(void *state, struct ph_session *s);

/*
 * measure: take every sweep: memory of its page size on the node, each working set's
 * figures.  A page size that cannot be had is skipped (said on stderr if it
 * was named).  When nothing was measured, says why on stderr and returns
 * the exit code (pg->points is 0).  0 or an exit code.
 */
int pages_measure(void *state, struct ph_session *s);

/*
 * document: the points, the knees, the ratios, notes on page sizes not
 * measured, the method, and the session's "run" section.
 */
struct ph_doc *pages_doc(void *state, struct ph_session *s, int *rc);
void pages_free(void *state, struct ph_session *s);


#endif
