/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * loaded.h - loaded latency: one CPU chases pointers (latency.h's figure,
 * on the session's verified memory) while K loader CPUs stream over
 * verified buffers of their own at an injection delay, from idle to
 * saturation.  Each point: the chase's median and CI, and the bandwidth
 * the loaders achieved, counted by them.  pagehop loaded's study.
 */
#ifndef PAGEHOP_LOADED_H
#define PAGEHOP_LOADED_H

#include "contend.h"
#include "latency.h"
#include "session.h"
#include "steps.h"

struct bitmask;

/* The default injection delays, in contend_delay() iterations per line. */
extern const unsigned loaded_default_delays[];
extern const size_t loaded_ndefault_delays;

/*
 * A delay ladder from "D,D,..." (NULL: the default), sorted from the
 * longest delay (least traffic) to the shortest, duplicates dropped.
 * 0, or -EINVAL for a malformed or empty list.
 */
int loaded_ladder(const char *arg, unsigned **out, int *n);

/* GB/s (1e9 bytes/s) of bytes[i] summed over n loaders moved in span_ns. */
double loaded_gbps(const uint64_t *bytes, int n, double span_ns);

struct ph_loadpoint {
	const struct load_mix_info *mix;	/* NULL for the idle point */
	unsigned delay;
	struct ph_latency lat;
	double gbps;			/* all loaders, achieved */
	double span_s;			/* how long the loaders ran */
};

struct ph_loaded {
	/* the options (in): what the plan reads; loaded_free frees the masks */
	struct bitmask *chaser_given;	/* the chaser's CPU (--chaser, else the check's pick) */
	struct bitmask *loaders_given;	/* the loaders' CPUs; NULL: every other CPU */
	struct bitmask *loader_nodes_given;	/* their node; NULL: the first loader's */
	const char *mixes_given;	/* "read,1:1"; NULL: read */
	const char *delays_given;	/* NULL: the default ladder */
	struct ph_distreq dist;		/* --percentiles, --histogram: each point's distribution */
	/* the plan */
	int chaser;			/* CPU */
	int *loaders;			/* CPUs */
	int nloaders;
	int loader_node;
	uint64_t loader_bytes;		/* per loader */
	const struct load_mix_info **mixes;
	int nmixes;
	unsigned *delays;
	int ndelays;
	/* the loaders' memory */
	struct ph_segment *segs;
	bool *have;
	/* the curve: idle, then per mix the delays longest first */
	struct ph_loadpoint *pts;
	int npts;
};

/*
 * The steps of pagehop loaded (steps.h), on a struct ph_loaded.  plan,
 * after session_machine: the loaders (required non-empty, without the
 * chaser: PH_EXIT_USAGE), their node (one node), the mixes and delays; the
 * chaser is exactly one CPU (chaser_given), its node the options'
 * (membind).  Then the chaser's memory (session_start_bind on its CPU)
 * and each loader's buffer, verified.
 * 0 or an exit code after the one-line error.
 */
extern const struct ph_steps loaded_steps;

extern const char loaded_method[];

#endif
