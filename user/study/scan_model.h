/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * scan_model.h - what pagehop scan plans and finds (scan.h's steps fill
 * it, scan_doc.h documents it): the ranges of each node, their figures and
 * verdicts, each node's coverage, and the memory devices listed.
 */
#ifndef PAGEHOP_SCAN_MODEL_H
#define PAGEHOP_SCAN_MODEL_H

#include "memblocks.h"
#include "read_dimms.h"
#include "scan_stray.h"
#include "session.h"
#include "stats.h"
#include "buffer.h"
#include "chase.h"

/*
 * What the scan leaves every node: pagehop.ko's floor (5% of the node's
 * memory, the module refuses to pin below it), and never less than
 * SCAN_RESERVE_MIN, for the kernel and the processes that run meanwhile.
 */
#define SCAN_RESERVE_DIV 20
#define SCAN_RESERVE_MIN (256 * MiB)
/* Free memory a chunk never takes the node closer to its reserve than. */
#define SCAN_MARGIN (16 * MiB)
/* Memory is pinned in chunks of at most this (and the range's size). */
#define SCAN_CHUNK (256 * MiB)
/*
 * A range with less than this pinned is not measured: the working set must
 * be far beyond the last-level cache for the figures to be the DRAM's.
 */
#define SCAN_MIN_BYTES (64 * MiB)
/* The view's runs, at most: each moved run is one mapping (vm.max_map_count). */
#define SCAN_MAX_RUNS 32768
/*
 * A bandwidth sample streams one part of the range, at most this many
 * parts of at least a millisecond each (ph_bwopt.parts): the figure's
 * first samples, at least as many as parts, then read the whole range
 * once, in the time one whole-range sample took.
 */
#define SCAN_BW_PARTS 10
/*
 * A latency sample's block: 1 ms of hops (tens of thousands at tens of
 * nanoseconds, 50,000 times the TSC's resolution), so that the figure's
 * ten samples take 10 ms rather than 50.
 */
#define SCAN_LAT_BLOCK_S 0.001

struct ph_scan_range {
	int node;
	uint64_t lo, hi;	/* the range [lo, hi), physical */
	uint64_t node_bytes;	/* the node's online memory blocks in it */
	uint64_t movable;	/* of them, in ZONE_MOVABLE */
	uint64_t pinned;	/* bytes pinned in it, measured if measured */
	uint64_t first, last;	/* its lowest and highest frame address read back (last: the end) */
	uint64_t read_back;	/* bytes of its view found mapped when read back through QUERY or pagemap */
	int runs;		/* runs of frames its view was made of */
	bool measured, verified;
	char why[600];		/* why it was not measured */
	char found[512];	/* the read-back of its view (verify.h) */
	char psize[16];
	int cpu;		/* the CPU that measured */
	struct ph_stats bw, lat;	/* GB/s; ns per load */
	bool bw_ci, lat_ci;
	unsigned bw_parts;	/* the parts its bandwidth samples read in turn (0: timed blocks) */
	double bw_dev, lat_dev;	/* from the node's median, a fraction */
	bool bw_stray, lat_stray;
	double score;		/* the largest |dev| / tol of its strays; 0 none */
	char dimm[128];		/* the DMI devices behind it, or "" */
};

struct ph_scan_node {
	int node;
	uint64_t total, free_before;	/* bytes */
	uint64_t reserve;	/* left free, at least */
	uint64_t want, pinned;	/* asked for; had */
	uint64_t scanned;	/* in ranges measured */
	uint64_t free_min;	/* the least free seen while pinning */
	int nranges, nmeasured, nstray;
	const char *backend;
	char stop[300];		/* why pinning stopped */
	char frames[64];	/* how frames were read */
	struct ph_scan_judged jb, jl;
	bool blocks_read;
};

struct ph_scan {
	/* the options (in) */
	struct bitmask *nodes_given;	/* --node; NULL: every node with memory */
	uint64_t range;			/* --range, bytes */
	double budget;			/* --budget, seconds; 0: --time per figure */
	double k, tol;			/* --mads, --tolerance (a fraction) */
	uint64_t cap;			/* --size: at most this much of a node; 0 all */
	struct chase_spec pattern;	/* --pattern; default page:4K */
	bool pattern_given;
	/* the plan */
	struct ph_bufreq bufreq;	/* the options', with the page size the plan chose */
	int *nodes;
	int nnodes;
	bool partial;			/* without pagehop.ko: the kernel chose the frames */
	/* the result */
	struct ph_scan_range *r;
	int nr;
	struct ph_scan_node *nd;
	int *rank;			/* ranges that stray, the furthest first */
	int nrank;
	struct ph_dimms dimms;
	int edac_err, dmi_err;		/* -errno when not read */
	double measure_s;		/* the time spent measuring */
	uint64_t measured_bytes;
};

#endif
