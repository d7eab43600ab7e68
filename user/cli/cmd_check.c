// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_check.c - "pagehop check": a verdict on this machine within a time
 * budget, against a baseline and its own alike nodes, as a monitoring
 * plugin gives it (PH_STUDY_PLUGIN: 0 OK .. 3 UNKNOWN, bad usage UNKNOWN
 * too), its first line folding under clush -b.  The study is check.c's,
 * the plugin's output check_out.c's.
 */
#include "commands.h"
#include "study.h"
#include "check.h"
#include "check_out.h"
#include "common_opts.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

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
	  "memory, pages, tail): fractions of the reference,\n"
	  "none for an open side, e.g. bandwidth=-0.05:none", NULL,
	  "the baseline file's, else the kind's, below" },
	{ "busy", 0, "unknown|judge", OPT_BUSY,
	  "a timed figure out of its band while other work\n"
	  "loaded the host (docs/diagnostics.md, \"A busy host\"):\n"
	  "UNKNOWN naming the load, or judged all the same", "unknown", NULL },
	PH_OPT_TAILS,
	PH_OPT_TAIL_HISTOGRAM("\n(--format json only: the line, perfdata and metrics\n"
			      "never carry it)"),
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
	"memory=-0.005:0.005, pages=-0.5:none, tail=none:0.5.\n"
	"See docs/diagnostics.md for Slurm, NHC and Prometheus.\n",
	.refused = check_refused,
};

struct check_args {
	struct ph_check c;
	struct check_out out;
};

static int check_option(void *args, struct ph_options *opt, const struct ph_opt *o, const char *arg)
{
	struct check_args *a = args;
	char why[256];

	(void)opt;
	switch (o->id) {
	case OPT_BUDGET:
		return cli_parse_double("--budget", arg, 1, 3600, &a->c.budget_s);
	case OPT_BASELINE:
		a->c.baseline = arg;
		return 0;
	case OPT_TOLERANCE:
		if (health_parse_tolerance(arg, a->c.over, a->c.set, why, sizeof(why))) {
			ph_err("--tolerance: %s", why);
			return -EINVAL;
		}
		return 0;
	case OPT_CHECK_FORMAT:
		return check_out_format(arg, &a->out.fmt);
	case OPT_PROM_FILE:
		a->out.prom_file = arg;
		return 0;
	case OPT_PERCENTILES:
	case OPT_HISTOGRAM:
		return common_tail_option(&a->c.dist, o->id, arg);
	case OPT_BUSY:
		if (strcmp(arg, "unknown") && strcmp(arg, "judge")) {
			ph_err("--busy: unknown value '%s'; expected unknown or judge", arg);
			return -EINVAL;
		}
		a->c.busy_judge = !strcmp(arg, "judge");
		return 0;
	}
	return -EINVAL;
}

/* The options together; then the run, and its budget, begin by reading the baseline. */
static int check_check(void *args, struct ph_session *s)
{
	struct check_args *a = args;
	int rc = check_out_check(&a->out);

	(void)s;
	if (rc)
		return rc;
	/*
	 * The table (the plugin's line and long output) and the metrics are
	 * read by monitoring: they carry the verdict, never the histogram.
	 * The distribution is still taken, for the tails.
	 */
	if (a->c.dist.histogram && a->out.fmt != CF_JSON) {
		ph_warn("--histogram: only --format json carries the histogram; the %s output leaves it out",
			a->out.fmt == CF_PROM ? "prom" : "table");
		a->c.dist.histogram = false;
	}
	a->c.t0 = now_mono_raw();
	return check_read_baseline(&a->c);
}

static int check_plan_step(void *args, struct ph_session *s)
{
	return check_plan(&((struct check_args *)args)->c, s);
}

static int check_measure_step(void *args, struct ph_session *s)
{
	return check_measure(&((struct check_args *)args)->c, s);
}

static bool check_measured(const void *args)
{
	return ((const struct check_args *)args)->c.judged;
}

static struct ph_doc *check_doc(void *args, struct ph_session *s, int *rc)
{
	(void)rc;
	return check_document(&((struct check_args *)args)->c, s);
}

static void check_render(void *args, struct ph_session *s, struct ph_doc *doc, FILE *out, int *rc)
{
	struct check_args *a = args;

	check_out_render(&a->out, &a->c, doc, s->opt->fmt, out, rc);
}

static void check_free_args(void *args, struct ph_session *s)
{
	(void)s;
	check_free(&((struct check_args *)args)->c);
}

/* The engine's steps (check.h) with the plugin's output options beside them. */
static const struct ph_steps check_steps = {
	.size = sizeof(struct check_args),
	.plan = check_plan_step,
	.measure = check_measure_step,
	.measured = check_measured,
	.document = check_doc,
	.free = check_free_args,
};

/* Its own notes: the verdict says what was verified and what a signal cut. */
const struct ph_study cmd_check_study = {
	.spec = &cmd_check_spec,
	.steps = &check_steps,
	.flags = PH_STUDY_PLUGIN | PH_STUDY_OWN_NOTES | PH_STUDY_UNATTENDED,
	.option = check_option,
	.check = check_check,
	.render = check_render,
};
