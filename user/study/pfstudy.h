/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfstudy.h - the prefetch study: what hardware and software prefetching
 * do, at a working set well beyond the last-level cache.  The latency of
 * each chase pattern (sequential, strided, random) and the read bandwidth
 * with and without software prefetch; where pagehop.ko can set the
 * prefetchers (prefetch.h), every figure again with each prefetcher off in
 * turn, then all off, and the state as found put back afterwards.  The
 * figures' ratios are pfbenefit.h's arithmetic, each with its interval.
 *
 * "pagehop prefetch" fills the plan from its options and starts the
 * session (one thread, its memory laid out and verified); pfstudy_plan()
 * completes the plan, pfstudy_measure() takes the figures, pfstudy_doc()
 * makes the document.
 */
#ifndef PAGEHOP_PFSTUDY_H
#define PAGEHOP_PFSTUDY_H

#include <stdbool.h>
#include <stdint.h>

#include "bandwidth.h"
#include "chase.h"
#include "latency.h"
#include "output.h"
#include "prefetch.h"
#include "session.h"
#include "steps.h"

#define PFSTUDY_MAX_STATES 16

/* What to measure, filled by the command. */
struct pfstudy_plan {
	struct chase_spec *specs;	/* the chase patterns, with their seed;
					 * malloc'd, freed by pfstudy_free */
	int nspecs;
	bool no_control;		/* leave the prefetchers as they are */
	const char *patterns_given;	/* --patterns, parsed into specs once the seed is known */
	uint64_t seed;
};

/* A prefetcher setting the figures are taken in. */
struct pfstudy_state {
	char name[96];		/* "as found", "l2_stream off", "all off" */
	uint64_t disable;	/* the disable bits asked; once set, what the
				 * register holds, read back */
	/* measured */
	char off[128];		/* what the rows say was off */
	bool done;		/* every figure of the state was taken, or a
				 * signal cut it short: it has ratio rows */
};

/* One latency figure: a pattern in a state. */
struct pfstudy_lat {
	int state, spec;
	struct ph_latency lat;
};

/* One bandwidth figure: a kernel in a state. */
struct pfstudy_bw {
	int state;
	const struct stream_kernel *k;
	struct ph_bandwidth bw;
};

struct ph_pfstudy {
	struct pfstudy_plan plan;
	/* completed by pfstudy_plan */
	struct ph_pf pf;
	struct pfstudy_state states[PFSTUDY_MAX_STATES];
	int nstates;
	const struct stream_kernel *plain, *swpf;	/* read, read_swpf */
	/* measured, in order */
	struct pfstudy_lat *lat;
	int nlat;
	struct pfstudy_bw *bw;
	int nbw;
};

/*
 * The states to measure in: as found; where pf can be set, each prefetcher
 * that can be switched off and is on, off alone, then all off.  At most max
 * (>= 2).  Returns how many.
 */
int pfstudy_states(const struct ph_pf *pf, struct pfstudy_state *out, int max);

/*
 * The steps of pagehop prefetch (steps.h), on a struct ph_pfstudy whose
 * plan the command filled: the plan, measure and document below.
 */
extern const struct ph_steps pfstudy_steps;

/*
 * Lay out and verify the memory (session_start, one thread), then
 * complete the plan on it: every pattern
 * must fit it; the kernels; the prefetchers of the measuring CPU probed
 * (unless plan.no_control) and the states.  Without control, says why on
 * stderr.  0 or an exit code.
 */
int pfstudy_plan(void *state, struct ph_session *s);

/*
 * Take every figure in every state, then put the prefetchers back as they
 * were found (an error if the register does not take it).  Stops at the
 * first failure or signal; what was measured stays.  0 or an exit code.
 */
int pfstudy_measure(void *state, struct ph_session *s);

/*
 * The document: latency, bandwidth and the ratios per state, the method, and
 * the session's "run" section.  Each row says where the memory is, from
 * s: build it before the memory is read back again after measuring
 * (session_still_verified, after which *rc is 1 when it moved), so that
 * the rows say where it was measured; the buffers table last.
 */
struct ph_doc *pfstudy_doc(void *state, struct ph_session *s, int *rc);

#endif
