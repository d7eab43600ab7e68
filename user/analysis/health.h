/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * health.h - the verdict of "pagehop check": each figure against its
 * reference (the baseline's, or the median of alike nodes'), with
 * tolerances per kind of figure, settings against the baseline's, rules
 * of their own, and one stable line folding them all.  Pure functions on
 * the model of hmodel.h: no measuring, no printing.
 */
#ifndef PAGEHOP_HEALTH_H
#define PAGEHOP_HEALTH_H

#include "hmodel.h"

/* The kinds of figure, each with its default tolerance. */
enum ph_hkind {
	PH_HK_LATENCY = 0,	/* latency_* (ns) */
	PH_HK_BANDWIDTH,	/* bandwidth_* (GB/s) */
	PH_HK_MEMORY,		/* mem_total (GiB) */
	PH_HK_PAGES,		/* hugepages_* (1: can be had, 0: cannot) */
	PH_HK_TAIL,		/* tail_pP_latency_* (ns): a latency figure's P-th
				 * percentile of N-hop run means; a WARNING at most */
	PH_HK_NKINDS,
};

/* The kind of a figure from its name's prefix; -1 for none. */
int health_kind_of(const char *figure);
/* "latency", "bandwidth", "memory", "pages"; and back (-1: unknown). */
const char *health_kind_name(enum ph_hkind k);
int health_kind_parse(const char *s);
/* The documented default for a kind (docs/diagnostics.md). */
struct ph_htol health_default_tol(enum ph_hkind k);

/*
 * --tolerance KIND=LOWER:UPPER[,...] (fractions, "none" for an open side),
 * into over[kind] with set[kind].  0, or -EINVAL with one phrase in why.
 */
int health_parse_tolerance(const char *arg, struct ph_htol over[PH_HK_NKINDS],
			   bool set[PH_HK_NKINDS], char *why, size_t whylen);

/*
 * Judge one figure: value with its CI [ci_lo, ci_hi] against ref with its
 * CI [ref_lo, ref_hi] and tolerance tol.  The band the figure may take is
 * [ref_lo (1 + lower), ref_hi (1 + upper)] (both CIs widen it: a figure is
 * flagged only beyond the tolerance and beyond the CIs); the figure is
 * out when even the end of its CI nearest the band lies outside it.  Out
 * by more than the tolerance: WARNING; beyond twice the tolerance
 * ([ref_lo (1 + 2 lower), ref_hi (1 + 2 upper)]): CRITICAL, unless on the
 * better side (latency below the band, the others above), which says the
 * reference is stale and is a WARNING at most.  A value,
 * reference or CI that is not a number: UNKNOWN.  Fills the finding's
 * ref, limits, dev and status (not why).
 */
enum ph_hstatus health_judge(struct ph_hfinding *f, double ref, double ref_lo, double ref_hi,
			     struct ph_htol tol);

/*
 * Whether two model keys are the same machine model.  When not, diff gets
 * the first field that differs: "nodes: 4 here, 2 in the baseline".
 */
bool health_model_match(const char *here, const char *base, char *diff, size_t difflen);

/*
 * The reference interval of a baseline's figure: its CI widened to the
 * range of its repeats' medians where it has one (the larger of the
 * within-run and the between-run spread, on each side).
 */
void health_ref_band(const struct ph_hfig *b, double *lo, double *hi);

/*
 * Every figure of now that the baseline has (its reference interval:
 * health_ref_band()), judged against it with the
 * tolerance from over (when set), else the baseline file's, else the
 * default; every setting of the baseline that now has and differs
 * (WARNING).  Appended to out.
 */
void health_against(const struct ph_hset *base, const struct ph_hset *now,
		    const struct ph_htol over[PH_HK_NKINDS], const bool set[PH_HK_NKINDS],
		    struct ph_hfindings *out);

/*
 * Without a baseline: the nodes of now with the same CPU count are
 * siblings; with three or more, each one's figure is judged against the
 * median of the siblings' (a reference with no CI of its own), with the
 * kind's tolerance, but memory at 5% (node 0 holds the kernel).  With two,
 * neither can be called the odd one: they are not judged.  Appended to out.
 */
void health_siblings(const struct ph_hset *now, const struct ph_htol over[PH_HK_NKINDS],
		     const bool set[PH_HK_NKINDS], struct ph_hfindings *out);

/*
 * Rules of their own on now's settings: "slit_valid" other than "yes" or
 * "none" (Linux ignores the table) is a WARNING; without a baseline, the
 * kernel's defaults stand in for it: numa_balancing 0 on several nodes,
 * and thp_enabled "never", are WARNINGs.  Appended to out.
 */
void health_rules(const struct ph_hset *now, bool have_baseline, struct ph_hfindings *out);

/*
 * A planned timed figure that could not be measured: an UNKNOWN finding
 * whose why names it and the reason ("node 0 latency_4k not measured:
 * <reason>").  Appended to out.
 */
void health_unmeasured(struct ph_hfindings *out, const char *name, int node, int mem_node,
		       const char *unit, const char *reason);
/*
 * A figure left out (it did not fit the budget, or got too few samples for
 * a CI): not judged, named in out->left_out for the line.
 */
void health_left_out(struct ph_hfindings *out, const char *name, int node, int mem_node);

/*
 * The verdict of all findings, as monitoring plugins fold theirs:
 * CRITICAL > WARNING > UNKNOWN > OK, and the line that says it:
 * "PAGEHOP CRITICAL - node 1 bandwidth_triad 41.2 GB/s, 24% below baseline
 * 54.3 (limit -10%)" (the finding furthest out of the worst ones, then
 * "; +N more" when others are out too), or "PAGEHOP OK - 2 nodes, 8 timed
 * and 6 untimed figures within tolerance"; then "; left out: ..." and
 * "; against FILE" when f has them.  With timed figures planned and none
 * measured (f->timed_planned, f->timed_measured), or none judged (no
 * reference for any), and no WARNING or CRITICAL among the rest, the
 * verdict is UNKNOWN, saying f->timed_why (or that none had a reference):
 * untimed figures alone never make an OK.  No finding at all: UNKNOWN.
 * The line is one line (health_clean_line).
 */
enum ph_hstatus health_fold(const struct ph_hfindings *f, char *line, size_t linelen);

/* "PAGEHOP UNKNOWN - <why>" into line, cleaned; returns PH_H_UNKNOWN. */
enum ph_hstatus health_unknown(char *line, size_t linelen, const char *why);

/*
 * In place: every control character (a newline, a tab, ESC) becomes '?',
 * and '|' becomes '/' (it would start the performance data): whatever a
 * baseline holds, the line stays one line of plugin output.
 */
void health_clean_line(char *s);

/*
 * Nagios performance data for the judged figures (each once), separated
 * by spaces: "node0_latency_4k_ns=98.2;~:110;~:121 node0_bandwidth_triad_GBps
 * =41.2;48.6:68.3;43.2:": the value, then the WARNING band and the
 * CRITICAL one as ranges that alert outside them (an open side left out,
 * "~" for minus infinity).  The units are in the labels (ns, GB/s, GiB have
 * no plugin UOM).  Whole items only, as many as fit len.  Returns how
 * many were written.
 */
int health_perfdata(const struct ph_hfindings *f, char *buf, size_t len);

#endif
