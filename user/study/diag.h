/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * diag.h - the study behind "pagehop baseline" and "pagehop check": this
 * machine's identity (a model key), its settings, and its figures per node
 * (local latency on 4K and 2M pages, local read and triad bandwidth with
 * all the node's cores, latency and read bandwidth per remote hop level,
 * memory size, whether 2M and 1G pages can be had), each figure on
 * verified memory of its own and with its CI.  A check measures a subset
 * chosen to fit its budget, most telling figures first.
 */
#ifndef PAGEHOP_DIAG_H
#define PAGEHOP_DIAG_H

#include "hmodel.h"
#include "hostload.h"
#include "latdist.h"
#include "output.h"
#include "session.h"

/*
 * A latency figure's percentile above the median (--percentiles), a figure
 * of its own: "tail_p99_latency_4k".  Claimed (ok) only with its CI
 * (dist_percentile_ci: enough runs beyond it) on a quiet host (latdist's
 * host_quiet); else why says what kept it, and it is not judged.
 */
struct ph_diag_tail {
	char name[40];
	double pct;
	bool ok;
	double value, ci_lo, ci_hi;	/* ns */
	double rep_lo, rep_hi;		/* a baseline's repeats' lowest and highest; NAN: one */
	char why[160];
};

/* One figure to measure. */
struct ph_diag_item {
	char name[40];		/* "latency_4k", "bandwidth_read_hop1" */
	int node, mem_node;
	bool latency;		/* else bandwidth */
	const char *kernel;	/* "read", "triad" */
	enum ph_psize psize;
	int prio;		/* lower first */
	uint64_t size;		/* the working set, all threads together */
	/* the result */
	bool measured;
	char skipped[256];	/* why not, when not */
	bool left_out;		/* not measured for the budget or too few samples
				 * for a CI (not judged), rather than a failure */
	double value, ci_lo, ci_hi;
	size_t samples;
	bool verified;
	char page_size[16], cpus[256];
	char method[48];	/* what ran: "chase random", "triad avx2" */
	int threads;
	bool ci_met;		/* every repeat reached the CI target */
	int repeats;		/* independent repeats measured */
	double rep_lo, rep_hi;	/* the lowest and highest of their medians */
	struct ph_load load;	/* what else ran while it was timed (the last repeat) */
	/* --percentiles: the distribution's runs, hops a run, its percentiles above 50 */
	size_t runs;
	unsigned hops, batches;
	double timer_ns, other_cpus;
	bool quiet;
	char busy[160];		/* not quiet: "the host was not quiet (<what>)" */
	struct ph_diag_tail tails[DIST_MAX_PCTS];
	int ntails;
	/* --histogram: the same runs in dist_histogram's buckets (owned) */
	struct dist_bucket *hist;
	size_t nhist;
};

struct ph_diag {
	/* the plan */
	bool check;		/* a check: the budget decides what is measured */
	double budget_s;	/* check: the whole run's wall time */
	double t0;		/* when the command began (now_mono_raw) */
	uint64_t lat_size;
	struct ph_diag_item *items;
	int nitems;
	/* the result */
	struct ph_hset set;	/* model key, nodes, settings, figures */
	double time_s;		/* per figure, as measured */
	int nmeasured, nskipped;
	char unmeasurable[256];	/* check: why no timed figure could be measured
				 * at all (placement cannot be read back), or "" */
	int repeats;		/* each figure's independent repeats (a baseline's) */
	struct ph_distreq dist;	/* --percentiles: latency figures' tails; --histogram */
	/* What else ran over the whole measuring phase, and its busiest
	 * processes by CPU time (the document lists them, a reason names
	 * the first three). */
	struct ph_load load;
	struct ph_busyproc top[8];
	int ntop;
};

/*
 * After session_machine: the model key, the settings, the exact figures
 * (memory, hugepages), and the figures to measure.  check: with budget_s
 * seconds of wall time since t0.
 */
void diag_plan(struct ph_diag *d, struct ph_session *s, bool check, double budget_s, double t0);
/* A baseline: measure each figure n times (1-20), each on fresh memory and threads. */
void diag_set_repeats(struct ph_diag *d, int n);
/*
 * --percentiles: each latency figure's distribution, its percentiles above
 * 50 as tail figures; with req->histogram, its histogram in the document.
 */
void diag_set_dist(struct ph_diag *d, const struct ph_distreq *req);
/*
 * Measure the planned figures, each on memory and threads of its own, the
 * check's in the order of priority and only while the budget lasts.  A
 * figure that cannot be had is noted and skipped.  0, or an exit code
 * (interrupted).
 */
int diag_measure(struct ph_diag *d, struct ph_session *s);
/*
 * A check that does not judge a figure its host's load can explain: each
 * finding of a timed figure (latency, bandwidth) out of its band on the
 * side a load pushes it (slower, less), whose figure was timed while the
 * load passed busy.h's rule, becomes UNKNOWN, its why naming the load and
 * the busiest processes.  Returns how many.
 */
int diag_busy(const struct ph_diag *d, struct ph_hfindings *f);
/* The whole phase's load into f's load fields, for the metrics. */
void diag_load_sum(const struct ph_diag *d, struct ph_hfindings *f);
/*
 * The document: sections identity and settings, tables nodes and figures
 * (each figure with its CI, tolerance and how it was measured), and with
 * findings (a check) the verdict and a table of findings.  status and line
 * are the check's; ignored when findings is NULL.
 */
struct ph_doc *diag_doc(const struct ph_diag *d, struct ph_session *s, const char *command,
			const struct ph_hfindings *findings, enum ph_hstatus status,
			const char *line, const char *basis);
/*
 * Add to doc what else the machine did while measuring: the section load
 * (the whole phase: other tasks' CPUs, steal, pressure, whether busy.h's
 * rule held) and the table load_processes (the busiest processes).
 */
void diag_load_doc(const struct ph_diag *d, struct ph_doc *doc);
void diag_free(struct ph_diag *d);

#endif
