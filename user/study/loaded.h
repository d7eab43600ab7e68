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
 * After session_machine: the chaser (exactly one CPU), the loaders (CPUs,
 * required non-empty, without the chaser: PH_EXIT_USAGE), their node (one
 * node; NULL: the first loader's), the mixes ("read,1:1"; NULL: read) and
 * delays (NULL: the default ladder).  The chaser's node is the options'
 * (membind).  0 or an exit code after the one-line error.
 */
int loaded_plan(struct ph_loaded *ld, struct ph_session *s, const struct bitmask *chaser,
		const struct bitmask *loaders, const struct bitmask *loader_nodes,
		const char *mixes, const char *delays);
/* The chaser's memory (session_start_bind on its CPU) and each loader's buffer, verified. */
int loaded_start(struct ph_loaded *ld, struct ph_session *s);
int loaded_measure(struct ph_loaded *ld, struct ph_session *s);
struct ph_doc *loaded_doc(const struct ph_loaded *ld, struct ph_session *s);
void loaded_free(struct ph_loaded *ld, struct ph_session *s);

extern const char loaded_method[];

#endif
