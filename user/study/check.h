/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * check.h - the study behind "pagehop check": the baseline of this
 * machine's model read and picked, diag.c's figures that fit the budget
 * measured, each judged (health.c) against the baseline and against the
 * alike nodes, and the findings folded into one verdict and its line.  It
 * prints nothing: the command renders the line, the document or the
 * metrics.
 */
#ifndef PAGEHOP_CHECK_H
#define PAGEHOP_CHECK_H

#include "diag.h"
#include "health.h"

struct ph_check {
	/* in: filled by the command */
	double t0;			/* when the command began (now_mono_raw) */
	double budget_s;		/* the whole run's wall time */
	const char *baseline;		/* FILE or DIR; NULL: alike nodes only */
	struct ph_htol over[PH_HK_NKINDS];	/* --tolerance, where set[] */
	bool set[PH_HK_NKINDS];
	bool busy_judge;		/* judge a timed figure a load explains */
	struct ph_distreq dist;		/* --percentiles: latency figures' tails */
	/* out */
	struct ph_diag d;
	struct ph_hset *sets;		/* the baselines read */
	int nsets;
	char **bnotes;			/* the files of a directory not read, why */
	int nbnotes;
	char **tail_notes;		/* the tails not judged, why */
	int ntail_notes;
	const struct ph_hset *base;	/* the one judged against, or NULL */
	bool judged;			/* measured and judged: d.set and f hold it */
	struct ph_hfindings f;
	enum ph_hstatus status;
	char line[4096];		/* "PAGEHOP <status> - <reason>", one line */
	char perf[3072];		/* its performance data (judged), or "" */
	char why[1024];			/* what kept it from measuring, or "" */
	char note[1024];		/* which of several baselines, or "" */
	double read_s;			/* spent reading the baseline */
};

/*
 * Before the machine is read (its time counts against the budget): the
 * baseline, if one was given.  0, or PH_H_UNKNOWN with c->why.
 */
int check_read_baseline(struct ph_check *c);
/*
 * After session_machine: the figures that fit the budget, and the
 * baseline of this machine's model.  0, or PH_H_UNKNOWN with c->why.
 */
int check_plan(struct ph_check *c, struct ph_session *s);
/* Measure and judge: the verdict, c->status, c->line and c->perf. */
int check_measure(struct ph_check *c, struct ph_session *s);
/*
 * The document: diag.c's with the findings and the verdict once judged;
 * else only the verdict section, UNKNOWN for c->why (or for the machine
 * that could not be read), c->line saying it.
 */
struct ph_doc *check_document(struct ph_check *c, struct ph_session *s);
void check_free(struct ph_check *c);

#endif
