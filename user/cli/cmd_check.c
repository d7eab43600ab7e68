// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_check.c - "pagehop check": a verdict on this machine within a time
 * budget, against a baseline and against its own alike nodes, with the
 * monitoring-plugin exit codes (0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN;
 * bad usage is UNKNOWN too, for this command only) and a first line that
 * folds under clush -b.  Measuring is diag.c's, judging health.c's.
 */
#include "commands.h"
#include "diag.h"
#include "health.h"
#include "prom.h"
#include "read_baseline.h"
#include "common_opts.h"
#include "session.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum {
	OPT_BUDGET = 1,
	OPT_BASELINE,
	OPT_TOLERANCE,
	OPT_CHECK_FORMAT,
	OPT_PROM_FILE,
	OPT_BUSY,
};

static const struct ph_opt check_opts[] = {
	{ "budget", 0, "SECONDS", OPT_BUDGET,
	  "the whole run's wall time, reading the baseline\n"
	  "included; figures that would not fit, or got too few\n"
	  "samples for a CI, are left out and named, least\n"
	  "telling first", "20", NULL },
	{ "baseline", 0, "FILE|DIR", OPT_BASELINE,
	  "judge against this baseline (at most 16 MiB), or the\n"
	  "one in DIR whose model key is this machine's: of\n"
	  "several, the newest by its provenance's time_utc\n"
	  "(else the file's mtime), named in the line", NULL, "against alike nodes only" },
	{ "tolerance", 0, "KIND=LO:UP[,...]", OPT_TOLERANCE,
	  "override a kind's tolerance (latency, bandwidth,\n"
	  "memory, pages): fractions of the reference, none for\n"
	  "an open side, e.g. bandwidth=-0.05:none", NULL,
	  "the baseline file's, else the kind's, below" },
	{ "busy", 0, "unknown|judge", OPT_BUSY,
	  "a timed figure out of its band while other work\n"
	  "loaded the host (docs/diagnostics.md, \"A busy host\"):\n"
	  "UNKNOWN naming the load, or judged all the same", "unknown", NULL },
	{ 0 },
};
static const struct ph_opt out_opts[] = {
	{ "format", 'f', "table|json|prom", OPT_CHECK_FORMAT,
	  "the verdict line and tables, the JSON document, or\n"
	  "node_exporter textfile metrics", "table", NULL },
	PH_OPT_VERBOSE, PH_OPT_PROGRESS_UNATTENDED,
	{ "prom-file", 0, "PATH", OPT_PROM_FILE,
	  "also write the metrics to PATH atomically (a\n"
	  "temporary file beside it, then rename), for\n"
	  "node_exporter's textfile collector", NULL, NULL },
	{ 0 },
};

static const struct ph_optgroup check_groups[] = {
	{ "check", check_opts },
	{ "output", out_opts },
	{ 0 },
};

static const struct ph_refusal check_refused[] = {
	PH_REFUSE_MEASURING("check measures the baseline's figures, as many as fit --budget"),
	{ 0 },
};

const struct ph_cmdspec cmd_check_spec = {
	.name = "check",
	.synopsis = "[--baseline FILE|DIR] [--budget SECONDS] [OPTIONS]",
	.about =
	"A verdict on this machine within --budget seconds.  Measures the figures\n"
	"of 'pagehop baseline' that fit the budget (triad, latency, read, 2M\n"
	"latency, remote hops, in that order; memory size and hugepages always)\n"
	"and judges each against the baseline's, with the tolerance of its kind\n"
	"widened by both CIs; the settings against the baseline's; each node\n"
	"against the median of its alike nodes (same CPU count, three or more);\n"
	"and whether Linux took the firmware's SLIT.  A timed figure out of its\n"
	"band while other work loaded the host is UNKNOWN, the load and the\n"
	"busiest processes named (--busy).  The first line is\n"
	"  PAGEHOP OK|WARNING|CRITICAL|UNKNOWN - <reason naming node and figure>\n"
	"with Nagios performance data after '|' (table format), and the exit\n"
	"status 0, 1, 2 or 3 the same: the worst finding, CRITICAL over WARNING\n"
	"over UNKNOWN over OK.  A timed figure that could not be measured is UNKNOWN;\n"
	"with none measured (as a user other than root: placement cannot be\n"
	"verified), the untimed figures alone never make it OK.  Bad usage, an\n"
	"unreadable baseline or one for another machine model is UNKNOWN (3).\n",
	.groups = check_groups,
	.epilog =
	"Default tolerances: latency=-0.2:0.1, bandwidth=-0.1:0.25,\n"
	"memory=-0.005:0.005, pages=-0.5:none.\n"
	"See docs/diagnostics.md for Slurm, NHC and Prometheus.\n",
	.refused = check_refused,
};

enum check_format { CF_TABLE, CF_JSON, CF_PROM };

struct check_args {
	double budget;
	const char *baseline, *prom_file;
	enum check_format fmt;
	struct ph_htol over[PH_HK_NKINDS];
	bool set[PH_HK_NKINDS];
	bool busy_judge;	/* --busy judge */
	bool verbose;		/* --verbose: the table with every column */
	enum ph_progress_mode progress;	/* only --progress shows any: check runs unattended */
};

static int check_option(void *ctx, const struct ph_opt *o, const char *arg)
{
	struct check_args *a = ctx;
	char why[256];

	if (!common_progress_option(o->id, &a->progress))
		return 0;
	switch (o->id) {
	case OPT_BUDGET:
		return cli_parse_double("--budget", arg, 1, 3600, &a->budget);
	case OPT_BASELINE:
		a->baseline = arg;
		return 0;
	case OPT_TOLERANCE:
		if (health_parse_tolerance(arg, a->over, a->set, why, sizeof(why))) {
			ph_err("--tolerance: %s", why);
			return -EINVAL;
		}
		return 0;
	case OPT_CHECK_FORMAT:
		if (!strcmp(arg, "table") || !strcmp(arg, "json") || !strcmp(arg, "prom")) {
			a->fmt = arg[0] == 't' ? CF_TABLE : arg[0] == 'j' ? CF_JSON : CF_PROM;
			return 0;
		}
		ph_err("--format: unknown format '%s'; expected table, json or prom", arg);
		return -EINVAL;
	case OPT_PROM_FILE:
		a->prom_file = arg;
		return 0;
	case OPT_VERBOSE:
		a->verbose = true;
		return 0;
	case OPT_BUSY:
		if (strcmp(arg, "unknown") && strcmp(arg, "judge")) {
			ph_err("--busy: unknown value '%s'; expected unknown or judge", arg);
			return -EINVAL;
		}
		a->busy_judge = !strcmp(arg, "judge");
		return 0;
	}
	return -EINVAL;
}

/* Print the result in the format asked, and write --prom-file.  Returns the exit code. */
static int emit(const struct check_args *a, struct ph_doc *doc, const struct ph_hset *now,
		const struct ph_hfindings *f, enum ph_hstatus st, const char *line, double t0)
{
	char *prom = NULL, why[512];
	int rc = (int)st;

	if (a->fmt == CF_PROM || a->prom_file)
		prom = prom_render(now, f, st, now_mono_raw() - t0, (double)time(NULL));
	if (a->fmt == CF_TABLE) {
		char perf[3072] = "";

		/* The plugin guidelines' performance data, after '|' on the
		 * first line, which stays one line. */
		if (f && health_perfdata(f, perf, sizeof(perf)))
			printf("%s | %s\n", line, perf);
		else
			printf("%s\n", line);
		if (doc && doc_render(doc, a->verbose ? PH_FMT_TABLE_VERBOSE : PH_FMT_TABLE, stdout))
			rc = PH_H_UNKNOWN;
	} else if (a->fmt == CF_JSON) {
		if (doc_render(doc, PH_FMT_JSON, stdout))
			rc = PH_H_UNKNOWN;
	} else {
		fputs(prom, stdout);
	}
	if (a->prom_file && write_file_atomic(a->prom_file, prom, strlen(prom), why, sizeof(why))) {
		ph_err("--prom-file: %s: %s", a->prom_file, why);
		rc = PH_H_UNKNOWN;
	}
	free(prom);
	return rc;
}

/* A verdict of UNKNOWN before anything was measured: one line (or its document). */
static int unknown(const struct check_args *a, const char *why, double t0)
{
	struct ph_doc *doc = NULL;
	char line[2048];

	health_unknown(line, sizeof(line), why);
	if (a->fmt == CF_JSON) {
		struct ph_section *sec;

		doc = doc_new("check");
		sec = doc_add_section(doc, "verdict", "verdict");
		section_str(sec, "status", "UNKNOWN");
		section_int(sec, "exit_code", PH_H_UNKNOWN);
		section_str(sec, "line", line);
	}
	emit(a, a->fmt == CF_TABLE ? NULL : doc, NULL, NULL, PH_H_UNKNOWN, line, t0);
	doc_free(doc);
	return PH_H_UNKNOWN;
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

int cmd_check(int argc, char *argv[])
{
	double t0 = now_mono_raw();
	struct check_args a = { .fmt = CF_TABLE };
	struct ph_session s;
	struct ph_diag d = { 0 };
	struct ph_hset *sets = NULL;
	const struct ph_hset *base = NULL;
	struct ph_hfindings f = { 0 };
	struct ph_doc *doc = NULL;
	char why[1024], line[4096], note[1024] = "", **bnotes = NULL;
	enum ph_hstatus st;
	int nsets = 0, nbnotes = 0, rc;
	double read_s = 0;

	session_init(&s, 0);
	ph_clear_last_err();
	rc = opts_parse(&cmd_check_spec, argc, argv, check_option, &a);
	if (rc) {
		session_free(&s);
		if (rc == PH_OPTS_HELP)
			return PH_EXIT_OK;
		/* A monitoring system shows stdout: the reason goes there too. */
		health_unknown(line, sizeof(line), ph_last_err()[0] ? ph_last_err() : "bad usage");
		printf("%s\n", line);
		return PH_H_UNKNOWN;
	}
	progress_setup(a.progress, true);
	if (a.prom_file && output_path_check(a.prom_file, why, sizeof(why))) {
		ph_err("--prom-file: %s: %s", a.prom_file, why);
		health_unknown(line, sizeof(line), ph_last_err());
		printf("%s\n", line);
		session_free(&s);
		return PH_H_UNKNOWN;
	}
	/* Reading the baseline counts against --budget: diag_plan() shares
	 * out what is left of it since t0. */
	if (a.baseline && baseline_load_noted(a.baseline, &sets, &nsets, &bnotes, &nbnotes, why, sizeof(why))) {
		rc = unknown(&a, why, t0);
		goto out;
	}
	read_s = now_mono_raw() - t0;
	if (session_machine(&s)) {
		rc = unknown(&a, "the machine could not be read (the reason is on stderr)", t0);
		goto out;
	}
	diag_plan(&d, &s, true, a.budget, t0);
	if (nsets && !(base = pick(sets, nsets, d.set.model, note, sizeof(note), why, sizeof(why)))) {
		rc = unknown(&a, why, t0);
		goto out;
	}
	rc = diag_measure(&d, &s);
	progress_done();
	if (base)
		health_against(base, &d.set, a.over, a.set, &f);
	health_siblings(&d.set, a.over, a.set, &f);
	diag_load_sum(&d, &f);
	if (!a.busy_judge)
		f.nbusy = diag_busy(&d, &f);
	health_rules(&d.set, base != NULL, &f);
	f.nnodes = s.topo.nnodes;
	account(&d, base, a.budget, read_s, &f);
	if (base)
		snprintf(f.against, sizeof(f.against), "%s", base->source);
	st = rc == PH_EXIT_INTERRUPTED ? health_unknown(line, sizeof(line), "interrupted by a signal")
				       : health_fold(&f, line, sizeof(line));
	doc = diag_doc(&d, &s, "check", &f, st, line, base ? base->source : "alike nodes");
	for (int i = 0; i < nbnotes; i++)
		doc_note(doc, "%s", bnotes[i]);
	if (note[0])
		doc_note(doc, "%s", note);
	diag_load_doc(&d, doc);
	rc = emit(&a, doc, &d.set, &f, st, line, t0);
out:
	doc_free(doc);
	for (int i = 0; i < nbnotes; i++)
		free(bnotes[i]);
	free(bnotes);
	hfindings_free(&f);
	baseline_free(sets, nsets);
	diag_free(&d);
	session_free(&s);
	return rc;
}
