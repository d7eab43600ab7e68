/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * latency.h - one latency figure on a started session: build each thread's
 * chain, check it is one cycle (the warm-up), size the blocks, measure.
 * Used by chase, matrix, pages and prefetch alike.
 */
#ifndef PAGEHOP_LATENCY_H
#define PAGEHOP_LATENCY_H

#include "chase.h"
#include "session.h"

struct ph_latency {
	struct ph_result user;		/* ns per load, user space */
	struct ph_result kern;		/* ns per load in pagehop.ko (in_kernel) */
	bool have_kern;
};

/*
 * Measure spec with chains chains per thread on s's memory (s->per_thread
 * bytes of each thread's segment).  With in_kernel, also through the
 * module's CHASE (one thread, one chain, kmod memory).  0, or an exit code
 * after printing why.
 */
int latency_figure(struct ph_session *s, const struct chase_spec *spec,
		   unsigned chains, bool in_kernel, struct ph_latency *out);
void latency_free(struct ph_latency *l);

/* Columns lat_ns, lat_min_ns, ci_lo_ns, ci_hi_ns, ci_pct, ci_met, samples,
 * tsc_cycles (prefixed, e.g. "kern_"), declared and filled. */
void latency_add_cols(struct ph_table *t, const char *prefix);
void latency_fill(struct ph_table *t, int row, const char *prefix,
		  const struct ph_result *res, double tsc_hz);

/*
 * A comma-separated list of chase patterns for option opt; the specs get
 * seed.  0, or -EINVAL after the one-line error.
 */
int latency_parse_patterns(const char *opt, const char *arg, uint64_t seed,
			   struct chase_spec **out, int *n);

/* The sentence describing how a latency sample is taken, for "run" sections. */
extern const char latency_method[];

#endif
