/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * matrix.h - every CPU node (or group) x memory node (or group) pair:
 * idle latency and read/triad bandwidth, each cell on verified memory.
 * "pagehop matrix" prints it; "pagehop slit" measures through it.  The
 * engine plans and measures; what is made of the result (a document, the
 * analysis's input, a saved file) is matrix_doc.h's.
 */
#ifndef PAGEHOP_MATRIX_H
#define PAGEHOP_MATRIX_H

#include "latency.h"

#include <stdbool.h>

#include "chase.h"
#include "nmatrix.h"
#include "output.h"
#include "placement.h"
#include "session.h"

enum {
	MX_LATENCY = 1 << 0,
	MX_READ = 1 << 1,
	MX_TRIAD = 1 << 2,
};

struct ph_mx_group {
	char name[64];		/* "0-1" or "2" */
	struct bitmask *nodes;
	struct bitmask *cpus;	/* the row's CPUs, or NULL: every CPU of nodes */
	char cpus_text[192];	/* cpus as given, "" without */
	bool has_cpus, has_memory;
};

/* One figure of one cell, as measured and as found. */
struct ph_mx_cell {
	int row, col;		/* ids, as in the matrices */
	enum ph_recorded fig;	/* latency, read or triad (ph_recorded_key[]) */
	struct ph_stats st;
	bool ci_met;
	bool verified;
	char page_size[16];	/* found */
	char backend[16];
	char nodes[64];		/* found */
	char cpus[256];		/* asked (the binding) */
	char cpus_found[256];	/* read back: sched_getcpu() in each thread */
	int cores_found, shared_cores_found;	/* of cpus_found, by hwloc's cores */
	int threads;
};

struct ph_mx {
	/* what to measure */
	unsigned figures;
	struct chase_spec pattern;
	uint64_t lat_size, bw_size;
	enum ph_psize psize;	/* every cell's pages: --page-size, or matrix_default_psize */
	unsigned bw_threads;	/* 0: one per core of the row */
	enum ph_orient orient;	/* how table and CSV print the matrices (0: CPU rows) */
	enum ph_place place;	/* 0, or which CPUs of each row run (matrix_place) */
	struct ph_pu *pus;	/* every CPU this process may use, for the read-back */
	int npus;
	bool grouped;		/* rows and columns are --groups, not nodes */
	int ngroups;
	struct ph_mx_group *groups;	/* every node, or every group */
	/* the result */
	int nrows, ncols;
	int *rows, *cols;	/* indexes into groups */
	struct ph_nmatrix *lat, *read, *triad;	/* ids: node ids, or group indexes */
	struct ph_mx_cell *cellv;	/* every figure of every cell, in order */
	int ncellv;
	int done, total;	/* cells */
	int ci_not_met;
	bool all_verified;
	bool interrupted;
	const char *backend;	/* of the first cell, for the description */
	struct ph_provenance prov;	/* taken when measuring began: every
					 * document of this matrix carries it */
	bool have_prov;
	/*
	 * The memory of the column being measured: laid out, verified and
	 * (latency) given its chain once, measured from every row in turn.
	 * Their laid_out and chains_built count what the matrix set up.
	 */
	struct ph_memory lat_mem, bw_mem;
	/*
	 * --percentiles, --histogram: each latency cell's figure with its
	 * distribution (latency.h), in the order measured, and the cell's
	 * row and column ids (as in the matrices).
	 */
	struct ph_distreq dist;
	struct ph_latency *dists;
	int *dist_row, *dist_col;
	int ndists;
};

/*
 * Plan: rows are the groups (or nodes) with CPUs, within rows_filter if
 * given; columns those with memory, within cols_filter.  groups are the
 * groups of nodes asked for, each with its name and nodes (the plan copies
 * them, checks they are disjoint and finds which have CPUs and memory);
 * NULL: one group per node.  0 or an exit code.
 */
int matrix_plan(struct ph_mx *mx, const struct ph_topology *topo,
		const struct ph_mx_group *groups, int ngroups, struct bitmask *rows_filter,
		struct bitmask *cols_filter);

/*
 * --placement: each row's CPUs chosen by rule mx->place (placement.h)
 * among its nodes' CPUs, mx->bw_threads of them (0: as many as the rule
 * can place there), set as the row's CPU set.  0, or an exit code after
 * one line: PH_EXIT_USAGE when a row cannot hold the threads by the rule,
 * PH_EXIT_UNSUPPORTED for shared without SMT.  Rows with a CPU set of
 * their own (--groups cpus=) are the caller's to refuse.
 */
int matrix_place(struct ph_mx *mx, const struct ph_cpu *cpu);

/*
 * The page size when none was asked: the largest that every column node can
 * give for the sizes to be measured (module, hugetlb with --reserve or free
 * pages, else 4K).
 */
enum ph_psize matrix_default_psize(const struct ph_mx *mx, struct ph_session *s);

/*
 * What matrix_measure() tells its caller: after every cell (last false),
 * and once when it stops (last true: every cell measured, a cell failed or
 * a signal came; rc is the status so far, mx->interrupted is set).  Returns
 * 0, or an exit code that stops the matrix.  "pagehop matrix --save" saves
 * the document through it (matrix_save_cell()), so that an interrupted run
 * keeps what it measured.
 */
typedef int (*ph_mx_cell_fn)(void *ctx, const struct ph_mx *mx, bool last, int rc);

/* Measure every cell; on_cell may be NULL.  0 or an exit code. */
int matrix_measure(struct ph_mx *mx, struct ph_session *s, ph_mx_cell_fn on_cell, void *ctx);

void matrix_free(struct ph_mx *mx);
/* n groups and their masks. */
void matrix_free_groups(struct ph_mx_group *groups, int n);

#endif
