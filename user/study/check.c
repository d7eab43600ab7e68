// SPDX-License-Identifier: GPL-2.0-only
/*
 * check.c - the study behind "pagehop check" (check.h): reading and
 * picking the baseline, measuring what fits the budget (diag.c), judging
 * (health.c), accounting for what was not measured, and the verdict.
 */
#include "check.h"
#include "read_baseline.h"
#include "runner.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int check_read_baseline(struct ph_check *c)
{
	if (c->baseline && baseline_load_noted(c->baseline, &c->sets, &c->nsets, &c->bnotes, &c->nbnotes, c->why,
					       sizeof(c->why)))
		return PH_H_UNKNOWN;
	c->read_s = now_mono_raw() - c->t0;
	return 0;
}

/*
 * The baseline of this machine's model, or NULL with why.  Of several for
 * this model (a directory), the newest by its own time stamp (the
 * provenance's time_utc, else the file's mtime), named in a note; the
 * others of this model too.  A tie goes to the first by file name.
 */
static const struct ph_hset *pick(const struct ph_hset *sets, int n, const char *model, char *note,
				  size_t notelen, char *why, size_t len)
{
	const struct ph_hset *best = NULL;
	char diff[512];
	int matches = 0;

	for (int i = 0; i < n; i++)
		if (health_model_match(model, sets[i].model, diff, sizeof(diff))) {
			matches++;
			if (!best || sets[i].stamp > best->stamp)
				best = &sets[i];
		}
	if (best) {
		if (matches > 1) {
			char when[32] = "unknown";
			time_t t = (time_t)best->stamp;
			struct tm tm;

			if (best->stamp > 0 && gmtime_r(&t, &tm))
				strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
			snprintf(note, notelen, "baseline: %s, the newest of the %d for this machine model (%s %s); not used:",
				 best->source, matches, best->stamp_from_doc ? "made" : "file modified", when);
			for (int i = 0; i < n; i++) {
				size_t l = strlen(note);

				if (&sets[i] != best && health_model_match(model, sets[i].model, diff, sizeof(diff)))
					snprintf(note + l, notelen - l, " %s", sets[i].source);
			}
		}
		return best;
	}
	health_model_match(model, sets[0].model, diff, sizeof(diff));
	if (n == 1)
		snprintf(why, len, "baseline %s is for another machine model: %s", sets[0].source, diff);
	else
		snprintf(why, len, "none of the %d baselines is for this machine model (%s: %s)", n, sets[0].source,
			 diff);
	return NULL;
}

int check_plan(struct ph_check *c, struct ph_session *s)
{
	/* Reading the baseline counted against the budget: diag_plan() shares
	 * out what is left of it since t0. */
	diag_plan(&c->d, s, true, c->budget_s, c->t0);
	diag_set_dist(&c->d, &c->dist);
	if (c->nsets && !(c->base = pick(c->sets, c->nsets, c->d.set.model, c->note, sizeof(c->note), c->why,
					 sizeof(c->why))))
		return PH_H_UNKNOWN;
	return 0;
}

/* A reason from an item's skipped text, without its own lead-in. */
static const char *reason_of(const char *skipped)
{
	static const char lead[] = "could not be measured: ";

	return strncmp(skipped, lead, sizeof(lead) - 1) ? skipped : skipped + sizeof(lead) - 1;
}

/*
 * What the plan and the measuring did with each timed figure, into f: an
 * UNKNOWN finding for each that could not be measured (but one the
 * baseline base lacks, which would not have been judged: its note says
 * why), a name in the left-out list for each that did not fit or got no
 * CI, and when none was measured, why.
 */
static void account(const struct ph_diag *d, const struct ph_hset *base, double budget, double read_s,
		    struct ph_hfindings *f)
{
	const char *first = NULL;
	int left = 0;

	f->timed_planned = d->nitems;
	f->timed_measured = d->nmeasured;
	for (int i = 0; i < d->nitems; i++) {
		const struct ph_diag_item *it = &d->items[i];

		if (it->measured)
			continue;
		if (it->left_out) {
			health_left_out(f, it->name, it->node, it->mem_node);
			left++;
			continue;
		}
		if (!first)
			first = reason_of(it->skipped);
		if (base && !hset_find(base, it->name, it->node, it->mem_node))
			continue;
		health_unmeasured(f, it->name, it->node, it->mem_node, it->latency ? "ns" : "GB/s",
				  reason_of(it->skipped));
	}
	if (d->nmeasured || !d->nitems)
		return;
	if (d->unmeasurable[0])
		snprintf(f->timed_why, sizeof(f->timed_why), "placement cannot be verified (%.180s); run pagehop check as root",
			 d->unmeasurable);
	else if (first)
		snprintf(f->timed_why, sizeof(f->timed_why), "%s", first);
	else if (read_s >= 0.05)
		snprintf(f->timed_why, sizeof(f->timed_why),
			 "none of the %d fit the budget of %g s, %.1f s of it reading the baseline; give a longer --budget",
			 left, budget, read_s);
	else
		snprintf(f->timed_why, sizeof(f->timed_why), "none of the %d fit the budget of %g s; give a longer --budget",
			 left, budget);
}

/*
 * The tails (--percentiles) not judged, each named in the left-out list,
 * its reason in a note: not claimed (too few runs, a busy host), or
 * claimed with nothing to judge it against (no baseline, or one made
 * without that percentile).
 */
static void account_tails(struct ph_check *c, struct ph_hfindings *f)
{
	for (int i = 0; i < c->d.nitems; i++) {
		const struct ph_diag_item *it = &c->d.items[i];

		for (int k = 0; it->measured && k < it->ntails; k++) {
			const struct ph_diag_tail *t = &it->tails[k];
			char why[256];

			if (!t->ok)
				snprintf(why, sizeof(why), "%s", t->why);
			else if (!c->base)
				snprintf(why, sizeof(why), "no baseline to judge it against (alike nodes' tails are not compared)");
			else if (!hset_find(c->base, t->name, it->node, it->mem_node))
				snprintf(why, sizeof(why), "the baseline holds none (made without --percentiles=%g, or it could not claim it: its tails table says why)", t->pct);
			else
				continue;
			health_left_out(f, t->name, it->node, it->mem_node);
			c->tail_notes = xrealloc(c->tail_notes, (size_t)(c->ntail_notes + 1) * sizeof(*c->tail_notes));
			c->tail_notes[c->ntail_notes++] = xasprintf("node %d->%d %s not judged: %s", it->node, it->mem_node,
								   t->name, why);
		}
	}
}

int check_measure(struct ph_check *c, struct ph_session *s)
{
	struct ph_hfindings *f = &c->f;
	int rc = diag_measure(&c->d, s);

	if (c->base)
		health_against(c->base, &c->d.set, c->over, c->set, f);
	health_siblings(&c->d.set, c->over, c->set, f);
	diag_load_sum(&c->d, f);
	if (!c->busy_judge)
		f->nbusy = diag_busy(&c->d, f);
	health_rules(&c->d.set, c->base != NULL, f);
	f->nnodes = s->m.topo.nnodes;
	account(&c->d, c->base, c->budget_s, c->read_s, f);
	account_tails(c, f);
	if (c->base)
		snprintf(f->against, sizeof(f->against), "%s", c->base->source);
	/* A signal after the last figure is still a run cut short. */
	if (rc == PH_EXIT_INTERRUPTED || ph_interrupted)
		c->status = health_unknown(c->line, sizeof(c->line), "interrupted by a signal");
	else
		c->status = health_fold(f, c->line, sizeof(c->line));
	/* The plugin guidelines' performance data, for after '|'. */
	if (!health_perfdata(f, c->perf, sizeof(c->perf)))
		c->perf[0] = '\0';
	c->judged = true;
	return (int)c->status;
}

struct ph_doc *check_document(struct ph_check *c, struct ph_session *s)
{
	struct ph_section *sec;
	struct ph_doc *doc;

	if (c->judged) {
		doc = diag_doc(&c->d, s, "check", &c->f, c->status, c->line, c->base ? c->base->source : "alike nodes");
		for (int i = 0; i < c->nbnotes; i++)
			doc_note(doc, "%s", c->bnotes[i]);
		if (c->note[0])
			doc_note(doc, "%s", c->note);
		for (int i = 0; i < c->ntail_notes; i++)
			doc_note(doc, "%s", c->tail_notes[i]);
		diag_load_doc(&c->d, doc);
		return doc;
	}
	/* Stopped before measuring: by the baseline (why), else by the machine
	 * (session_machine said why on stderr). */
	c->status = health_unknown(c->line, sizeof(c->line),
				   c->why[0] ? c->why : "the machine could not be read (the reason is on stderr)");
	doc = doc_new("check");
	sec = doc_add_section(doc, "verdict", "verdict");
	section_str(sec, "status", "UNKNOWN");
	section_int(sec, "exit_code", PH_H_UNKNOWN);
	section_str(sec, "line", c->line);
	return doc;
}

void check_free(struct ph_check *c)
{
	for (int i = 0; i < c->nbnotes; i++)
		free(c->bnotes[i]);
	free(c->bnotes);
	for (int i = 0; i < c->ntail_notes; i++)
		free(c->tail_notes[i]);
	free(c->tail_notes);
	hfindings_free(&c->f);
	baseline_free(c->sets, c->nsets);
	diag_free(&c->d);
}
