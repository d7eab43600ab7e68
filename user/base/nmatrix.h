/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * nmatrix.h - the data model that "pagehop matrix" measures into, the
 * readers of saved files fill and "pagehop slit" analyses: node matrices
 * (a figure per CPU node and memory node), SLITs and HMAT records.  Making,
 * copying and looking up only; the arithmetic is distance.h's.
 *
 * Orientation everywhere: rows are CPU (initiator) nodes, columns memory
 * nodes, as in the SLIT (from initiator to memory).  A memory-only node is
 * a column without a row; a CPU-only node a row without a column.
 */
#ifndef PAGEHOP_NMATRIX_H
#define PAGEHOP_NMATRIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acpi_oem.h"

enum ph_metric {
	PH_METRIC_LATENCY = 1,	/* ns; larger is farther */
	PH_METRIC_BANDWIDTH,	/* GB/s (10^9 B/s); smaller is farther */
	PH_METRIC_DISTANCE,	/* already normalised, local = 10 */
};

/* "latency_ns", "bandwidth_GBps", "distance": the names files carry. */
const char *metric_name(enum ph_metric m);
/* The inverse; 0 when s names no metric. */
enum ph_metric metric_parse(const char *s);

/* A measured matrix, node ids in the order measured. */
struct ph_nmatrix {
	enum ph_metric metric;
	int nrows, ncols;
	int *row_ids, *col_ids;
	double *val;		/* nrows * ncols, NAN where unknown */
	double *ci_lo, *ci_hi;	/* NAN where the input gave no CI */
	int *samples;		/* 0 where unknown */
	bool *ci_missed;	/* the cell's CI target was missed (ci_met false) */
	int rows_cap;		/* rows the arrays have room for (nmatrix_add_row) */
};

struct ph_nmatrix *nmatrix_new(enum ph_metric metric, int nrows,
			       const int *row_ids, int ncols, const int *col_ids);
struct ph_nmatrix *nmatrix_dup(const struct ph_nmatrix *m);
/* The same matrix with rows and columns swapped (values, CIs, samples). */
struct ph_nmatrix *nmatrix_transpose(const struct ph_nmatrix *m);

/*
 * Which node a table's rows are.  pagehop's own matrices and the SLIT have
 * rows = CPU node (from initiator to memory); published tables are often
 * printed with rows = memory node ("MEM CPU" in the corner).
 */
enum ph_orient {
	PH_ORIENT_UNSET = 0,	/* not said: rows = CPU node */
	PH_ORIENT_CPU_ROWS,
	PH_ORIENT_MEM_ROWS,
};
/* "cpu-rows" / "mem-rows": 0, or -EINVAL. */
int orient_parse(const char *s, enum ph_orient *out);
const char *orient_name(enum ph_orient o);
void nmatrix_free(struct ph_nmatrix *m);
/*
 * Append a row for node id with ncols values (no CI): the arrays grow by
 * doubling, so a reader adding N rows of N moves O(N^2) values, not N^3.
 */
void nmatrix_add_row(struct ph_nmatrix *m, int id, const double *vals);
/* Index of a node among the rows / columns, or -1. */
int nmatrix_row(const struct ph_nmatrix *m, int node);
int nmatrix_col(const struct ph_nmatrix *m, int node);
/*
 * The same for many nodes at once: for each of the nq ids in q its index
 * among the n ids (the first), or -1; malloc'd.  O((n + nq) log n), where
 * a lookup per cell would make a matrix of N nodes cost N^3.
 */
int *node_index(const int *ids, int n, const int *q, int nq);

/* A SLIT by node id: what numactl prints, or /sys, or a JSON "distances". */
struct ph_slit {
	int n;
	int *ids;
	int *dist;		/* n * n, from row to column */
};

struct ph_slit *slit_new(int n, const int *ids);
void slit_free(struct ph_slit *s);
/* The distance from node a to node b, or -1 when either is absent. */
int slit_at(const struct ph_slit *s, int a, int b);
/*
 * A square distance matrix (the same nodes as rows and columns, whole
 * numbers up to 255) as a SLIT; NULL when it is not one.
 */
struct ph_slit *slit_from_nmatrix(const struct ph_nmatrix *m);

/* A copy of n ids (room for one when n is 0); malloc'd. */
int *nmatrix_ids_dup(const int *ids, int n);
/* n doubles, all NAN (room for one when n is 0); malloc'd. */
double *nmatrix_nans(size_t n);

/*
 * One HMAT access class of one memory node, from
 * /sys/devices/system/node/nodeN/accessK/initiators/.  Latencies in ns and
 * bandwidths in MiB/s as the kernel reports them; -1 where absent.
 */
struct ph_hmat {
	int target;
	int access;		/* 0: any initiator, 1: CPU initiators */
	char initiators[128];	/* the best initiators, e.g. "0" or "0-1" */
	int64_t read_latency_ns, write_latency_ns;
	int64_t read_bandwidth_MiBps, write_bandwidth_MiBps;
};

/* Parse "0", "0-1", "0,2-3" into ids; returns the count or -EINVAL. */
int parse_id_list(const char *s, int *ids, int max);

/* ---- what "pagehop slit" analyses ---- */

/* Which figure of an input to analyse (--metric). */
enum ph_figure {
	PH_FIGURE_DEFAULT = 0,	/* latency if present, else read, else triad bandwidth */
	PH_FIGURE_LATENCY,
	PH_FIGURE_BANDWIDTH,	/* read bandwidth, else triad */
	PH_FIGURE_READ,
	PH_FIGURE_TRIAD,
	PH_FIGURE_DISTANCE,	/* a matrix already normalised (CSV only) */
};

/* "latency", "bandwidth", "read", "triad", "distance"; -EINVAL otherwise. */
int figure_parse(const char *s, enum ph_figure *out);

/* The figures pagehop measures, in the order its documents hold them. */
enum ph_recorded {
	PH_REC_LATENCY,
	PH_REC_READ,
	PH_REC_TRIAD,
	PH_NREC,
};

/* Their keys in pagehop's documents: "latency_ns", "bandwidth_read_GBps", ... */
extern const char *const ph_recorded_key[PH_NREC];

/*
 * The recorded figure that fig selects among those present (have[i]): its
 * index, or -1 when none is (PH_FIGURE_DISTANCE never selects one).
 */
int figure_pick(enum ph_figure fig, const bool have[PH_NREC]);

/* What "pagehop slit" analyses: one figure, and what to set beside it. */
struct ph_input {
	char *path;		/* the file read; NULL for a measurement of this run */
	bool json;
	char *figure;		/* what was analysed: a JSON key, a CSV block's name or metric */
	char *source;		/* who measured it, in one line; NULL if unknown */
	char *host;		/* the host its provenance names; NULL if none */
	int packages;		/* the measured machine's CPU packages as its provenance
				 * says ("# packages: N", provenance.packages); 0 if it does not */
	/* The measured machine's SLIT and HMAT headers, as provenance.acpi records them. */
	struct ph_acpi_oem acpi[PH_PROV_NACPI];
	struct ph_nmatrix *m;	/* the selected figure */
	struct ph_nmatrix *latency;	/* for the HMAT comparison; NULL if absent */
	struct ph_nmatrix *read_bw;	/* likewise */
	struct ph_slit *slit;	/* the SLIT recorded with the measurement; NULL if none */
	struct ph_hmat *hmat;	/* recorded HMAT */
	int nhmat;
	int ci_not_met;		/* cells of the figure whose CI target was missed */
	enum ph_orient rows;	/* what the file said its rows are; m has CPU rows */
	int rows_line;		/* where it said so (0: by its format) */
	/* What the reader could not tell, one line naming the file; NULL if
	 * nothing: the command says it on stderr and in its document. */
	char *note;
};

/*
 * Take pagehop's recorded figures (figs[i] NULL where absent) into in:
 * figs[pick] is analysed, latency and read bandwidth are kept for the HMAT
 * comparison, the rest freed; every figs[i] is NULL afterwards.
 */
void input_take_recorded(struct ph_input *in, struct ph_nmatrix *figs[PH_NREC], int pick);
/*
 * Who measured it, as in->source says it: "COMMAND on HOST at TIME
 * (pagehop VERSION)", "?" for what is NULL, control characters as '?'.
 */
char *input_source_line(const char *command, const char *host, const char *time_utc,
			const char *version);
void input_free(struct ph_input *in);

#endif
