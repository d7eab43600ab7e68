// SPDX-License-Identifier: GPL-2.0-only
/*
 * study.c - the one driver of every measuring study: parse, check, read
 * the machine, plan, measure, document, then the exit-code policy, --plot,
 * --save and the single render on stdout.
 */
#include "study.h"
#include "cli.h"
#include "common_opts.h"
#include "health.h"
#include "output.h"
#include "plot.h"
#include "progress.h"
#include "report.h"
#include "runner.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

int study_exit(unsigned flags, int parse_rc, int measure_rc, bool measured_any, bool interrupted)
{
	int rc;

	if (parse_rc == PH_OPTS_HELP)
		return PH_EXIT_OK;
	/* No verdict to give is a verdict of UNKNOWN, never OK. */
	if (flags & PH_STUDY_PLUGIN)
		return parse_rc || !measured_any || interrupted ? PH_H_UNKNOWN : measure_rc;
	if (parse_rc)
		return PH_EXIT_USAGE;
	/* Said on stderr, found as late as a kernel too big for the memory. */
	if (measure_rc == PH_EXIT_USAGE)
		return PH_EXIT_USAGE;
	if (!measured_any) {
		rc = measure_rc ? measure_rc : PH_EXIT_FAIL;
		/* "Not here" is the firmer answer than the signal that came after it. */
		return interrupted && rc != PH_EXIT_UNSUPPORTED ? PH_EXIT_INTERRUPTED : rc;
	}
	return interrupted ? PH_EXIT_INTERRUPTED : measure_rc;
}

int study_output_failed(unsigned flags, int rc)
{
	if (flags & PH_STUDY_PLUGIN)
		return PH_H_UNKNOWN;
	if (rc == PH_EXIT_USAGE || rc == PH_EXIT_UNSUPPORTED || rc == PH_EXIT_INTERRUPTED)
		return rc;
	return PH_EXIT_FAIL;
}

bool study_renders(unsigned flags, int parse_rc, int measure_rc, bool measured_any)
{
	/* A plugin's verdict may be CRITICAL (2): usage only before measuring. */
	if (flags & PH_STUDY_PLUGIN)
		return !parse_rc && (measured_any || measure_rc != PH_EXIT_USAGE);
	return !parse_rc && measure_rc != PH_EXIT_USAGE && measured_any;
}

/*
 * --plot: doc drawn into s->opt->plot (doc_plot), a note in doc saying where or
 * why not; a plot that fails is said on stderr.  Drawn once: later calls do
 * nothing.
 */
static void study_plot(struct ph_session *s, struct ph_doc *doc, int *rc)
{
	char why[512];

	/* Drawn once, by whoever calls first. */
	if (s->plotted)
		return;
	s->plotted = true;
	if (s->opt->plot_skipped)
		doc_note(doc, "--plot: %s; nothing plotted", s->opt->plot_skipped);
	if (!s->opt->plot)
		return;
	if (doc_plot(doc, s->opt->plot, why, sizeof(why))) {
		ph_err("--plot %s: %s", s->opt->plot, why);
		*rc = study_output_failed(0, *rc);	/* a plugin has no --plot */
	} else {
		doc_note(doc, "plot written to %s", s->opt->plot);
	}
}

/* What every document says of the run as a whole. */
static void study_notes(struct ph_session *s, struct ph_doc *doc)
{
	if (!s->all_verified)
		doc_note(doc, "the memory was NOT verified to be where or what was asked; every row's verified column says no");
	if (ph_interrupted) {
		doc_note(doc, "interrupted: the figures above are what was measured before %s",
			 runner_signal_name(ph_interrupted));
		if (s->reverify_skipped)
			doc_note(doc, "interrupted before the memory was read back after measuring: it was verified before");
	}
}

/* Whether st reads the machine for this run's options. */
static bool study_needs_machine(const struct ph_study *st, const void *args)
{
	if (st->flags & PH_STUDY_NO_MACHINE)
		return false;
	return !st->needs_machine || st->needs_machine(args);
}

/* One run of a study: what the option handler sees. */
struct study_run {
	const struct ph_study *st;
	struct ph_options opt;	/* written only while parsing */
	struct ph_session s;
	void *args;
	const char *save;	/* --save FILE, or NULL */
};

static int study_option(void *ctx, const struct ph_opt *o, const char *arg)
{
	struct study_run *r = ctx;
	int h;

	if (o->id == OPT_SAVE_DOC) {
		r->save = arg;
		return 0;
	}
	h = common_option(&r->opt, o, arg);
	if (h < 0 || (!h && !(r->st->flags & PH_STUDY_SEES_COMMON)))
		return h;
	return r->st->option ? r->st->option(r->args, &r->opt, o, arg) : -EINVAL;
}

/* --save: the document as JSON, after the plot so that it says where that went. */
static void study_save(const struct study_run *r, struct ph_doc *doc, int measure_rc, int *rc)
{
	char why[512];

	if (!r->save)
		return;
	if ((r->st->flags & PH_STUDY_SAVE_CLEAN) && measure_rc)
		return;
	if (doc_save_json(doc, r->save, why, sizeof(why))) {
		ph_err("--save %s: %s", r->save, why);
		*rc = study_output_failed(r->st->flags, *rc);
	}
}

/*
 * The end of every document: the run's notes (unless the study says them
 * itself), --plot, --save (r, when a study runs) and the one render on
 * stdout.  rc is the exit code so far; returns the final one.
 */
static int study_finish(struct ph_session *s, struct ph_doc *doc, bool notes,
			const struct study_run *r, int measure_rc, int rc)
{
	if (notes)
		study_notes(s, doc);
	study_plot(s, doc, &rc);
	if (r)
		study_save(r, doc, measure_rc, &rc);
	if (r && r->st->render)
		r->st->render(r->args, s, doc, stdout, &rc);
	else if (doc_render(doc, s->opt->fmt, stdout))
		rc = study_output_failed(r ? r->st->flags : 0, rc);	/* said by main */
	return rc;
}

/*
 * A plugin's bad usage: a monitoring system shows stdout, so its UNKNOWN
 * line says there what stderr did.
 */
static void study_plugin_usage(void)
{
	char line[4096];

	health_unknown(line, sizeof(line), ph_last_err()[0] ? ph_last_err() : "bad usage");
	printf("%s\n", line);
}

int study_render(struct ph_session *s, struct ph_doc *doc, int rc)
{
	/* A usage error found only once the memory was laid out (a size too
	 * small for a kernel) was said on stderr: nothing goes to stdout. */
	if (rc == PH_EXIT_USAGE)
		return rc;
	if (ph_interrupted)
		rc = PH_EXIT_INTERRUPTED;
	return study_finish(s, doc, true, NULL, 0, rc);
}

int study_main(const struct ph_study *st, int argc, char *argv[])
{
	struct study_run *r = xcalloc(1, sizeof(*r));
	struct ph_session *s = &r->s;
	struct ph_doc *doc = NULL;
	bool measured = false;
	int parse_rc, rc = 0, exit_rc;

	r->st = st;
	r->args = xcalloc(1, st->steps->size ? st->steps->size : 1);
	options_init(&r->opt, st->default_size);
	r->opt.binds_itself = (st->flags & PH_STUDY_BINDS_ITSELF) != 0;
	session_init(s, &r->opt);
	if (st->flags & PH_STUDY_PLUGIN)
		ph_clear_last_err();
	if (st->init)
		st->init(r->args, &r->opt);
	parse_rc = opts_parse(st->spec, argc, argv, study_option, r);
	if (!parse_rc && r->save && cli_check_output("--save", r->save))
		parse_rc = -EINVAL;
	if (!parse_rc) {
		progress_setup(s->opt->progress, st->flags & PH_STUDY_UNATTENDED);
		if (st->check)
			rc = st->check(r->args, s);
		if (!rc && study_needs_machine(st, r->args)) {
			rc = session_machine(s);
			if (rc == PH_EXIT_UNSUPPORTED && (st->flags & PH_STUDY_NUMA_OPTIONAL))
				rc = 0;
		}
		if (!rc && st->steps->plan)
			rc = st->steps->plan(r->args, s);
		if (!rc) {
			rc = st->steps->measure(r->args, s);
			measured = st->steps->measured ? st->steps->measured(r->args) : true;
		}
		progress_done();
	}
	exit_rc = study_exit(st->flags, parse_rc, rc, measured, ph_interrupted != 0);
	if (study_renders(st->flags, parse_rc, rc, measured)) {
		int doc_rc = exit_rc;

		doc = st->steps->document(r->args, s, &doc_rc);
		exit_rc = study_exit(st->flags, 0, doc_rc, doc != NULL, ph_interrupted != 0);
		if (study_renders(st->flags, 0, doc_rc, doc != NULL))
			exit_rc = study_finish(s, doc, !(st->flags & PH_STUDY_OWN_NOTES), r, rc, exit_rc);
	} else if ((st->flags & PH_STUDY_PLUGIN) && parse_rc != PH_OPTS_HELP) {
		study_plugin_usage();
	}
	doc_free(doc);
	if (st->steps->free)
		st->steps->free(r->args, s);
	session_free(s);
	options_free(&r->opt);
	free(r->args);
	free(r);
	return exit_rc;
}
