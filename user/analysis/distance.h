/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * distance.h - what a measured node matrix says about the firmware's
 * distances: normalisation to SLIT units, noise-aware levels, ordering
 * violations, magnitude against the SLIT, asymmetry, HMAT against the
 * measurement, a per-hop latency model and a proposed SLIT.
 *
 * Pure arithmetic on matrices: no I/O, no printing, no global state.  The
 * method, with every formula, is in docs/slit.md; the comments here say
 * what each function computes, the document says why.  The matrices, SLITs
 * and HMAT records analysed, and their orientation, are nmatrix.h's.
 */
#ifndef PAGEHOP_DISTANCE_H
#define PAGEHOP_DISTANCE_H

#include <stdbool.h>

#include "nmatrix.h"
#include "verdict.h"

#define PH_LOCAL_DISTANCE 10	/* the ACPI SLIT's "local" */
#define PH_SLIT_MIN_REMOTE 11	/* srat.c's slit_valid(): off-diagonal > 10 */
#define PH_SLIT_MAX_REMOTE 254	/* 255 means "unreachable" in ACPI */

/* What the proposed SLIT is made of (--proposal). */
enum ph_prop_mode {
	PH_PROPOSE_LEVELS = 0,	/* one value per measured level (the default) */
	PH_PROPOSE_CELLS,	/* every cell's own distance, rounded */
};

struct ph_dist_opts {
	double tolerance;	/* relative, e.g. 0.15 */
	double noise;		/* relative uncertainty floor per value, e.g. 0.025 */
	enum ph_prop_mode proposal;	/* which proposal is printed and emitted */
};

/*
 * The evidence a verdict needs of every analysed cell that carries a
 * sample count: at least this many samples (the fewest for which the
 * median has a 95% CI, stats.h) and its CI target met.
 */
#define PH_EVIDENCE_MIN_SAMPLES 6

/* The defaults of --tolerance and --noise, in percent as the options take them. */
#define PH_DEFAULT_TOLERANCE_PCT 15
#define PH_DEFAULT_NOISE_PCT 2.5
#define PH_DEFAULT_TOLERANCE (PH_DEFAULT_TOLERANCE_PCT / 100.0)
#define PH_DEFAULT_NOISE (PH_DEFAULT_NOISE_PCT / 100.0)

/*
 * The interval a value is known to lie in: its CI, widened to
 * v * (1 -/+ noise) where the CI is narrower or absent.  false when the
 * cell has no usable value.
 */
bool cell_interval(const struct ph_nmatrix *m, int k, double noise,
		   double *lo, double *hi);

/* How a row's reference ("local") column was chosen. */
enum ph_local {
	PH_LOCAL_OWN = 1,	/* the column with the row's own node id */
	PH_LOCAL_SLIT_NEAREST,	/* no own memory: nearest column by the SLIT */
	PH_LOCAL_FASTEST,	/* no own memory, no SLIT: best measured column */
};

/* The measured matrix normalised to SLIT units; same shape as the input. */
struct ph_dmatrix {
	enum ph_metric metric;	/* of the input */
	int nrows, ncols;
	int *row_ids, *col_ids;
	int *ref;		/* per row: column index of the reference, -1 if none */
	enum ph_local *ref_how;	/* per row */
	double *ref_dist;	/* per row: 10, or the SLIT's distance to ref */
	double *d;		/* nrows * ncols, NAN where unknown */
	double *lo, *hi;	/* interval, the reference's uncertainty included */
	double *rlo, *rhi;	/* interval within the row (reference as a point) */
};

/*
 * Normalise: latency and distance 10 * v / v_ref, bandwidth 10 * v_ref / v
 * (with ref_dist in place of 10 for rows without their own memory).  slit
 * may be NULL; it is used only to choose the reference of such rows.
 * Returns 0, or -EINVAL when no row has a usable reference.
 */
int dist_normalise(const struct ph_nmatrix *m, const struct ph_slit *slit,
		   double noise, struct ph_dmatrix *out);
void dmatrix_free(struct ph_dmatrix *d);

/* Levels: groups of cells that the measurement (or the SLIT) cannot tell apart. */
struct ph_level {
	double min, max, mean;	/* of the member distances */
	int n;			/* cells */
	bool has_local;		/* holds a row's own (diagonal) cell */
};

struct ph_levels {
	int n;
	struct ph_level *lv;	/* ascending distance */
	int *cell;		/* per cell of the matrix: level index, -1 if none */
	int nremote;		/* levels holding no diagonal cell */
};

/*
 * Measured levels: sort the cells' intervals [lo, hi] by lo; a cell joins
 * the current level when its interval overlaps the union of the level's
 * intervals so far, else it starts a new level.  That is the connected
 * components of "intervals overlap", so the result is independent of order.
 */
void levels_measured(const struct ph_dmatrix *d, struct ph_levels *out);
/*
 * SLIT levels over the same cells (those with a measured distance): sorted
 * distinct values; a value joins the current level when it is within the
 * tolerance of the level's smallest value (v <= first * (1 + tol)), so
 * the values of a level are all within the tolerance of one another.
 */
void levels_slit(const struct ph_dmatrix *d, const struct ph_slit *s,
		 double tolerance, struct ph_levels *out);
void levels_free(struct ph_levels *l);

/* SLIT says column near is nearer than far for row, the measurement the opposite. */
struct ph_violation {
	int row, near, far;	/* indexes into the matrix */
	int slit_near, slit_far;
};

/* Row by row: S[r][a] < S[r][b] but rlo[r][a] > rhi[r][b].  Returns the count. */
int ordering_violations(const struct ph_dmatrix *d, const struct ph_slit *s,
			struct ph_violation **out);

struct ph_magnitude {
	int row, col;
	double measured;
	double rel_err;		/* (measured - slit) / slit */
	int slit;
	bool within;		/* |rel_err| <= tolerance */
};

/*
 * Every off-diagonal cell with both a measured distance and a SLIT value,
 * except the reference cells of rows without their own memory (equal to the
 * SLIT by construction).  Returns the count; *nout the cells outside.
 */
int magnitude_check(const struct ph_dmatrix *d, const struct ph_slit *s,
		    double tolerance, struct ph_magnitude **out, int *nout);

struct ph_asymmetry {
	int a, b;		/* node ids, a < b */
	double ab, ba;		/* raw values, metric units: a's CPUs to b's memory, and back */
	double diff;		/* |ab - ba| */
	double rel;		/* diff / min(ab, ba) */
	double d_ab, d_ba;	/* normalised */
	bool beyond;		/* their intervals (cell_interval()) do not overlap */
};

/* Every pair a < b measured both ways.  Returns the count. */
int asymmetry_check(const struct ph_nmatrix *m, const struct ph_dmatrix *d,
		    double noise, struct ph_asymmetry **out);

/*
 * Per-hop model: a remote cell's hop count is its level index minus that
 * of its row's own local cell.  For each hop count, the extra over local:
 * latency ns (latency), distance units (bandwidth, distance) -- for
 * bandwidth also the ratio v / v_local.  The single cost per hop is the
 * least-squares fit through the origin of extra = hops * cost.
 */
struct ph_hop_class {
	int hops;
	int n;
	double extra_mean, extra_min, extra_max;
	double ratio_mean;	/* v / v_local (bandwidth); NAN otherwise */
	double drop_mean;	/* v_local - v in GB/s (bandwidth); NAN otherwise */
};

struct ph_hop_model {
	int nclasses;
	struct ph_hop_class *cls;	/* ascending hops */
	int n;				/* cells fitted */
	double cost;			/* per hop; NAN when no cell has hops > 0 */
	double rms;			/* residual of the fit */
	int nnegative;			/* cells below their local level (left out) */
	int nskipped_rows;		/* rows without their own memory (left out) */
};

void hop_model(const struct ph_nmatrix *m, const struct ph_dmatrix *d,
	       const struct ph_levels *lv, struct ph_hop_model *out);
void hop_model_free(struct ph_hop_model *h);

/* Where an entry of the proposed SLIT came from. */
enum ph_prop_src {
	PH_PROP_NONE = 0,	/* nothing known: the proposal is incomplete */
	PH_PROP_LOCAL,		/* the diagonal, 10 by definition */
	PH_PROP_MEASURED,	/* this cell, rounded */
	PH_PROP_REFERENCE,	/* a CPU-only row's reference, as assumed */
	PH_PROP_TRANSPOSED,	/* not measured this way: the reverse cell */
	PH_PROP_SLIT,		/* not measured either way: the given SLIT */
	PH_PROP_SYMMETRISED,	/* levels: the reverse entry's value, the pair not asymmetric beyond the CIs */
};

const char *prop_src_name(enum ph_prop_src s);

struct ph_proposal {
	int n;
	int *ids;		/* every node in rows or columns, ascending */
	int *dist;		/* n * n; -1 where unknown */
	enum ph_prop_src *src;
	bool *clamped;		/* rounded value was outside 11..254 */
	int nunknown, nclamped;
	int *except;		/* entries not simply from their own cell (its level's value
				 * for PH_PROPOSE_LEVELS), or clamped */
	int nexcept;
	enum ph_prop_mode mode;
	/*
	 * PH_PROPOSE_LEVELS: per measured level, the pooled distance of its
	 * remote cells (NAN when it has none), the value its remote cells get,
	 * and how many cells were pooled; nsymmetrised entries took their
	 * reverse's value.
	 */
	int nlevels;
	double *level_dist;
	int *level_value;
	int *level_pooled;
	int nsymmetrised;
};

/* Round half away from zero, then clamp to 11..254. */
int slit_round(double d, bool *clamped);
/* The proposal of PH_PROPOSE_CELLS: every entry its own cell's distance, rounded. */
void slit_propose(const struct ph_dmatrix *d, const struct ph_slit *s,
		  struct ph_proposal *out);
/*
 * The proposal of PH_PROPOSE_LEVELS: every measured entry the value of its
 * measured level (lv), the level's distance pooled over its remote cells
 * as the ratio of their summed figures to their rows' summed local
 * figures (latency: 10 x sum L / sum L_local; bandwidth: 10 x sum B_local
 * / sum B; docs/slit.md section 9), rounded; then a pair whose two entries
 * differ is given the smaller of the two unless asym (nasym pairs, from
 * asymmetry_check()) found it asymmetric beyond the CIs.
 */
void slit_propose_levels(const struct ph_nmatrix *m, const struct ph_dmatrix *d,
			 const struct ph_levels *lv, const struct ph_asymmetry *asym,
			 int nasym, const struct ph_slit *s, struct ph_proposal *out);
void proposal_free(struct ph_proposal *p);
/* What drivers/acpi/numa/srat.c accepts, and 255 ruled out: diagonal 10, else 11..254. */
bool slit_valid_for_linux(int n, const int *dist);

/*
 * Would Linux use this SLIT?  drivers/acpi/numa/srat.c, slit_valid(), the
 * same in 6.1 and 6.12, walks the table row by row and rejects all of it at
 * the first entry that breaks one of two rules; acpi_parse_slit() then logs
 * "SLIT table looks invalid. Not used." and the kernel keeps its default
 * distances: LOCAL_DISTANCE (10) from a node to itself, REMOTE_DISTANCE
 * (20) between any two nodes (__node_distance() without a table).
 */
#define PH_REMOTE_DISTANCE 20

enum ph_slit_rule {
	PH_SLIT_RULE_OK = 0,
	PH_SLIT_RULE_LOCAL,	/* a diagonal entry other than 10 */
	PH_SLIT_RULE_REMOTE,	/* an entry off the diagonal of 10 or less */
};

struct ph_slit_check {
	enum ph_slit_rule rule;	/* of the first offending entry; OK when none */
	int row, col;		/* its indexes in the table, row by row as the kernel walks */
	int value;
	int nbad;		/* entries breaking either rule */
	int nentries;		/* n * n */
	bool uniform;		/* every entry is the same value (value) */
};

/* true when Linux would use the table; *c says why not. */
bool slit_linux_check(int n, const int *dist, struct ph_slit_check *c);
/* "the diagonal must be 10 (LOCAL_DISTANCE)" and the like; "" for OK. */
const char *slit_rule_text(enum ph_slit_rule r);
/* "local_not_10", "remote_not_above_10": the rule as a JSON/CSV token. */
const char *slit_rule_name(enum ph_slit_rule r);
/* The table Linux uses instead: s's nodes, 10 on the diagonal, 20 elsewhere. */
struct ph_slit *slit_linux_default(const struct ph_slit *s);

/*
 * HMAT against the measurement: for each HMAT entry, the best measured cell
 * among its initiators (lowest latency, highest bandwidth) into its target.
 */
struct ph_hmat_cmp {
	int target, access;
	const char *initiators;	/* the entry's, borrowed */
	const char *figure;	/* "read_latency_ns", "read_bandwidth_GBps" */
	double hmat;		/* ns, or GB/s converted from the HMAT's MiB/s */
	double measured;
	int cpu_node;		/* row of the measured cell; -1 when none */
	double ratio;		/* measured / hmat */
};

/* lat or bw may be NULL.  Returns the count of comparisons. */
int hmat_compare(const struct ph_hmat *h, int nh, const struct ph_nmatrix *lat,
		 const struct ph_nmatrix *bw, struct ph_hmat_cmp **out);

/* Everything, as "pagehop slit" reports it. */
struct ph_analysis {
	const struct ph_nmatrix *m;	/* the matrix analysed, borrowed */
	struct ph_dist_opts opts;
	/*
	 * A SLIT that Linux would reject is not what the kernel uses: the
	 * analysis compares with what it uses instead, slit_default.
	 */
	bool slit_rejected;
	struct ph_slit_check slit_check;	/* of the SLIT given */
	struct ph_slit *slit_default;		/* Linux's 10/20, when rejected */
	struct ph_dmatrix dm;
	struct ph_levels measured;
	struct ph_levels slit;		/* n == 0 without a SLIT */
	bool have_slit;
	struct ph_violation *viol;
	int nviol;
	int nlevel_cells_differ;	/* equal level counts, cells in different levels */
	struct ph_magnitude *mag;
	int nmag, nmag_out;
	struct ph_asymmetry *asym;
	int nasym, nasym_beyond;
	struct ph_hop_model hops;
	struct ph_proposal prop;	/* the one asked for (opts.proposal): printed, emitted */
	struct ph_proposal prop_other;	/* the other kind, for the JSON */
	/*
	 * Evidence (PH_EVIDENCE_MIN_SAMPLES): have_counts, some analysed cell
	 * carries a sample count; lacking, the nlacking cells (indexes into
	 * the matrix) with fewer samples or a CI target missed.  Any lacking
	 * makes the verdict PH_VERDICT_CANNOT_TELL.
	 */
	bool have_counts;
	int ncounted;
	int *lacking;
	int nlacking;
	enum ph_verdict verdict;
	enum ph_verdict verdict_figures;	/* what the figures alone would say */
};

/*
 * slit may be NULL.  A slit Linux would reject (slit_linux_check()) is
 * replaced by Linux's defaults before anything is compared.  0, or -EINVAL
 * when the matrix has nothing to normalise.
 */
int analysis_run(const struct ph_nmatrix *m, const struct ph_slit *slit,
		 const struct ph_dist_opts *o, struct ph_analysis *a);
void analysis_free(struct ph_analysis *a);

#endif
