/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hmodel.h - what a health check works on: a machine's model key, its
 * settings and its figures, each figure with its CI and (optionally) its
 * tolerances as ReFrame writes them (ref, lower, upper, unit); and what a
 * check finds for each.  "pagehop baseline" saves such a set, "pagehop
 * check" measures one and judges it (health.h), readers fill it from saved
 * documents (read_baseline.h), renderers print the findings (prom.h).
 */
#ifndef PAGEHOP_HMODEL_H
#define PAGEHOP_HMODEL_H

#include <stdbool.h>
#include <stddef.h>

/* The monitoring-plugin convention: these are also the exit codes of check. */
enum ph_hstatus {
	PH_H_OK = 0,
	PH_H_WARNING = 1,
	PH_H_CRITICAL = 2,
	PH_H_UNKNOWN = 3,
};

/* "OK", "WARNING", "CRITICAL", "UNKNOWN". */
const char *hstatus_name(enum ph_hstatus s);

/*
 * A tolerance as fractions of the reference, as ReFrame writes a
 * reference's lower and upper thresholds: -0.1 and 0.2 accept 90% to 120%
 * of ref.  NAN: that side is unbounded (ReFrame's None).
 */
struct ph_htol {
	double lower, upper;
};

struct ph_hfig {
	char name[40];		/* "latency_4k", "bandwidth_triad", "mem_total" */
	int node;		/* the CPU node (a memory-only node: itself) */
	int mem_node;		/* the memory node */
	char unit[12];		/* "ns", "GB/s", "GiB", "bool" */
	double value;		/* the median */
	double ci_lo, ci_hi;	/* its 95% CI; exact figures: value, value */
	/* A baseline's: the lowest and highest median of its independent
	 * repeats (fresh memory and threads each); NAN: not recorded. */
	double rep_lo, rep_hi;
	int repeats;		/* how many; 0: not recorded */
	struct ph_htol tol;	/* from the file; used when tol_set */
	bool tol_set;
};

struct ph_hsetting {
	char key[40];		/* "thp_enabled" */
	char val[160];
};

struct ph_hnode {
	int id;
	int ncpus;
};

struct ph_hset {
	char model[768];	/* "cpu=...;sockets=2;nodes=4;node0=16x2;..." */
	char source[256];	/* the file it was read from, or "" */
	char host[128];		/* the provenance's host, or "" */
	char time_utc[32];	/* the provenance's time stamp as written, or "" */
	double stamp;		/* when it was made, s since the epoch: the
				 * provenance's time_utc, else the file's mtime; 0: unknown */
	bool stamp_from_doc;	/* stamp is the provenance's, not the mtime */
	struct ph_hnode *nodes;
	int nnodes;
	struct ph_hfig *figs;
	int nfigs;
	struct ph_hsetting *settings;
	int nsettings;
};

/* Append a figure or a setting (the set grows as needed); returns it. */
struct ph_hfig *hset_add_fig(struct ph_hset *s, const char *name, int node, int mem_node,
			     const char *unit, double value, double ci_lo, double ci_hi);
void hset_add_setting(struct ph_hset *s, const char *key, const char *val);
void hset_add_node(struct ph_hset *s, int id, int ncpus);
/* The figure of that name and nodes, or NULL. */
const struct ph_hfig *hset_find(const struct ph_hset *s, const char *name, int node, int mem_node);
/* The setting's value, or NULL. */
const char *hset_setting(const struct ph_hset *s, const char *key);
void hset_free(struct ph_hset *s);

/* Where a finding's reference came from. */
enum ph_hbasis {
	PH_HB_BASELINE = 1,	/* the same figure in the baseline */
	PH_HB_SIBLINGS,		/* the median of alike nodes' figures */
	PH_HB_SETTING,		/* a setting against the baseline's */
	PH_HB_RULE,		/* a rule of its own (the SLIT must be valid) */
	PH_HB_UNMEASURED,	/* a planned timed figure that could not be measured */
};

/* One judged figure, or one setting or rule. */
struct ph_hfinding {
	struct ph_hfig fig;	/* as measured (settings: name = key, node -1) */
	enum ph_hbasis basis;
	double ref, ref_ci_lo, ref_ci_hi;
	struct ph_htol tol;	/* the one applied */
	double limit_lo, limit_hi;	/* the band the CI had to reach; NAN: open */
	double crit_lo, crit_hi;	/* beyond these, CRITICAL; NAN: open (never) */
	double dev;		/* (value - ref) / ref */
	enum ph_hstatus st;
	char why[256];		/* one phrase naming node and figure */
};

struct ph_hfindings {
	struct ph_hfinding *v;
	int n;
	int nnodes;		/* nodes the figures came from */
	/* What the caller planned and got of the timed figures (latency,
	 * bandwidth), for the fold: none measured of several planned is no
	 * evidence, whatever the untimed ones say. */
	int timed_planned, timed_measured;
	char timed_why[256];	/* why none was measured, when none was */
	char left_out[512];	/* "node 0 latency_2m, ...": not judged (budget, samples) */
	int nleft_out;
	char against[256];	/* the baseline file judged against, or "" */
	/* What else the host did while the figures were timed (check: the
	 * whole measuring phase), for the metrics: other tasks' CPUs' worth,
	 * steal and pressure stall as fractions of the time; load_ok when it
	 * could be read, psi_*_ok where the kernel has pressure. */
	bool load_ok, psi_cpu_ok, psi_mem_ok, busy;
	double load_other_cpus, load_steal, psi_cpu, psi_mem;
	int nbusy;		/* findings left unjudged because of the load */
};

struct ph_hfinding *hfindings_add(struct ph_hfindings *f);
void hfindings_free(struct ph_hfindings *f);

#endif
