// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_compare.c - "pagehop compare FILE|DIR...": a fleet's baseline or
 * check documents, grouped by model key; the hosts whose figures stray
 * from their model's median beyond k MADs and beyond the tolerance, ranked.
 * Exit 1 when a host strays, else 5 when a document was skipped or a model
 * could not be judged.  Reading is read_fleet.c's, judging and the
 * document fleet.c's.
 */
#include "commands.h"
#include "fleet.h"
#include "read_fleet.h"
#include "common_opts.h"
#include "session.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OPT_K = 1, OPT_TOLERANCE };

static const struct ph_opt compare_opts[] = {
	{ "k", 0, "K", OPT_K,
	  "a figure strays beyond K robust sigmas (1.4826 MAD)\n"
	  "from its model's median, and beyond its tolerance", "4", NULL },
	{ "tolerance", 0, "KIND=LO:UP[,...]", OPT_TOLERANCE,
	  "as for pagehop check", NULL, "the kind's, as for check" },
	{ 0 },
};
static const struct ph_opt out_opts[] = { PH_OPT_FORMAT, { 0 } };

static const struct ph_optgroup compare_groups[] = {
	{ "compare", compare_opts },
	{ "output", out_opts },
	{ 0 },
};

static const struct ph_refusal compare_refused[] = {
	PH_REFUSE_MEASURING("compare reads documents; it measures nothing"),
	{ 0 },
};

const struct ph_cmdspec cmd_compare_spec = {
	.name = "compare",
	.synopsis = "[OPTIONS] FILE|DIR...",
	.about =
	"Read many hosts' 'pagehop baseline' or 'pagehop check --format json'\n"
	"documents (a directory: every *.json in it, which is how a fleet too\n"
	"large for one command line is given), keep each host's newest (by the\n"
	"provenance's time_utc; the others are named), group them by model key,\n"
	"and for each figure of each model with three hosts or more find the\n"
	"hosts beyond K robust sigmas of the median and beyond the tolerance.\n"
	"Lists those hosts ranked by how many tolerances they stray (stray_tols),\n"
	"with the figures that make them stray.  A document that cannot be read\n"
	"is skipped and named, and the rest compared; a model with fewer hosts\n"
	"is UNKNOWN.\n",
	.groups = compare_groups,
	.epilog =
	"Exit status: 1 when a host strays (whatever was skipped); else 5 when\n"
	"a document was skipped or a model is UNKNOWN; else 0.  2 for bad usage,\n"
	"or when no document reads.\n"
	"See docs/diagnostics.md, section \"Comparing a fleet\".\n",
	.refused = compare_refused,
};

struct compare_args {
	struct ph_options opt;	/* --format */
	double k;
	struct ph_htol over[PH_HK_NKINDS];
	bool set[PH_HK_NKINDS];
};

static int compare_option(void *ctx, const struct ph_opt *o, const char *arg)
{
	struct compare_args *a = ctx;
	int h = common_option(&a->opt, o, arg);
	char why[256];

	if (h <= 0)
		return h;
	if (o->id == OPT_K)
		return cli_parse_double("--k", arg, 0, 1000, &a->k);
	if (o->id == OPT_TOLERANCE && health_parse_tolerance(arg, a->over, a->set, why, sizeof(why))) {
		ph_err("--tolerance: %s", why);
		return -EINVAL;
	}
	return o->id == OPT_TOLERANCE ? 0 : -EINVAL;
}

/* What the exit status says: a stray first; then whatever could not be judged; then none. */
static int compare_status(const struct ph_fleet_docs *d, const struct ph_fleet *f)
{
	if (f->nranked)
		return PH_EXIT_FAIL;
	return d->nskipped || f->nunknown ? PH_EXIT_CANNOT_TELL : PH_EXIT_OK;
}

/* The most documents named one by one on stderr; the output's table has them all. */
#define COMPARE_SKIPS_SAID 20

int cmd_compare(int argc, char *argv[])
{
	struct compare_args a = { .k = 4 };
	char **paths = xcalloc((size_t)argc + 1, sizeof(*paths));
	struct ph_fleet_docs d = { 0 };
	struct ph_fleet f = { 0 };
	struct ph_doc *doc = NULL;
	int npaths = opts_split_operands(&cmd_compare_spec, &argc, argv, paths), rc;

	options_init(&a.opt, 0);
	rc = opts_parse(&cmd_compare_spec, argc, argv, compare_option, &a);
	if (rc) {
		rc = rc == PH_OPTS_HELP ? PH_EXIT_OK : PH_EXIT_USAGE;
		goto out;
	}
	rc = PH_EXIT_USAGE;
	if (!npaths) {
		ph_err("no FILE or DIR; see 'pagehop compare --help'");
		goto out;
	}
	for (int p = 0; p < npaths; p++)
		fleet_read(&d, paths[p]);
	if (!d.n) {
		if (d.nskipped == 1)
			ph_err("%s", d.skipped[0].why);
		else
			ph_err("none of %d documents reads: %s (and %d more)", d.nskipped, d.skipped[0].why,
			       d.nskipped - 1);
		goto out;
	}
	for (int i = 0; i < d.nskipped && i < COMPARE_SKIPS_SAID; i++)
		ph_warn("skipped %s", d.skipped[i].why);
	if (d.nskipped > COMPARE_SKIPS_SAID)
		ph_warn("skipped %d more documents (the output's skipped table names them all)",
			d.nskipped - COMPARE_SKIPS_SAID);
	fleet_compare(d.sets, d.n, a.k, a.over, a.set, &f);
	doc = fleet_doc(&d, &f, a.k);
	rc = doc_render(doc, a.opt.fmt, stdout) ? PH_EXIT_FAIL : compare_status(&d, &f);
out:
	doc_free(doc);
	fleet_free(&f);
	fleet_docs_free(&d);
	free(paths);
	options_free(&a.opt);
	return rc;
}
