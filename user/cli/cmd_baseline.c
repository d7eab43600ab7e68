// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_baseline.c - "pagehop baseline": this machine's fingerprint (model
 * key, settings, figures per node with their CIs), saved as the reference
 * that "pagehop check --baseline" judges against.  The study is diag.c's.
 */
#include "commands.h"
#include "study.h"
#include "diag.h"
#include "common_opts.h"
#include "session.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>

enum { OPT_SAVE = 1, OPT_REPEATS };

static const struct ph_opt baseline_opts[] = {
	{ "save", 0, "FILE", OPT_SAVE,
	  "write the JSON document to FILE (atomically); 'pagehop\n"
	  "check --baseline FILE' reads it", NULL, NULL },
	{ "repeats", 0, "N", OPT_REPEATS,
	  "measure each figure N times (1-20), each on memory\n"
	  "and threads of its own: check's band covers the\n"
	  "spread between them as well as the CI", "3", NULL },
	{ 0 },
};
static const struct ph_opt stat_opts[] = { PH_OPT_TIME("2"), PH_OPT_CI("1"), { 0 } };
static const struct ph_opt out_opts[] = { PH_OPT_FORMAT, { 0 } };

static const struct ph_optgroup baseline_groups[] = {
	{ "baseline", baseline_opts },
	{ "statistics", stat_opts },
	{ "output", out_opts },
	{ 0 },
};

#define FIXED "the baseline's figures are fixed, so that 'pagehop check' repeats them exactly"
static const struct ph_refusal baseline_refused[] = {
	{ "size", FIXED }, { "page-size", FIXED }, { "backend", FIXED }, { "membind", FIXED },
	{ "interleave", FIXED }, { "cpunodebind", FIXED }, { "physcpubind", FIXED },
	{ "threads", FIXED }, { "reserve", FIXED }, { "allow-unverified", FIXED },
	{ 0 },
};

const struct ph_cmdspec cmd_baseline_spec = {
	.name = "baseline",
	.synopsis = "[--save FILE] [OPTIONS]",
	.about =
	"Record this machine's fingerprint: its identity as a model key (CPU\n"
	"model, sockets, nodes, cores x SMT of each node), its settings (THP,\n"
	"numa_balancing, cpufreq governor, SMT, prefetchers where pagehop.ko reads\n"
	"them, hugepage pools, hashes of the SLIT and HMAT, whether Linux took the\n"
	"SLIT, kernel, microcode, BIOS) and per node its figures: local latency on\n"
	"4K and 2M (THP) pages, local read and triad bandwidth with a thread per\n"
	"core, latency and read bandwidth to one node of each remote hop level,\n"
	"memory size, whether 2M and 1G pages can be had.  Each measured figure\n"
	"is on verified memory of its own, with its 95% CI; each carries the\n"
	"tolerance of its kind (lower, upper, as ReFrame writes them), which may\n"
	"be edited in the saved file.  See docs/diagnostics.md.\n",
	.groups = baseline_groups,
	.refused = baseline_refused,
};

struct baseline_args {
	struct ph_session s;
	const char *save;
	unsigned repeats;
};

static int baseline_option(void *ctx, const struct ph_opt *o, const char *arg)
{
	struct baseline_args *a = ctx;
	int h = common_option(&a->s, o, arg);

	if (h <= 0)
		return h;
	if (o->id == OPT_SAVE) {
		a->save = arg;
		return 0;
	}
	if (o->id == OPT_REPEATS)
		return cli_parse_uint("--repeats", arg, 1, 20, &a->repeats);
	return -EINVAL;
}

int cmd_baseline(int argc, char *argv[])
{
	struct baseline_args a = { .save = NULL, .repeats = 3 };
	struct ph_session *s = &a.s;
	struct ph_diag d = { 0 };
	struct ph_doc *doc = NULL;
	char why[512];
	int rc;

	session_init(s, 0);
	rc = opts_parse(&cmd_baseline_spec, argc, argv, baseline_option, &a);
	if (rc) {
		session_free(s);
		return rc == PH_OPTS_HELP ? PH_EXIT_OK : PH_EXIT_USAGE;
	}
	if (a.save && cli_check_output("--save", a.save)) {
		session_free(s);
		return PH_EXIT_USAGE;
	}
	rc = session_machine(s);
	if (rc)
		goto out;
	diag_plan(&d, s, false, 0, now_mono_raw());
	diag_set_repeats(&d, (int)a.repeats);
	rc = diag_measure(&d, s);
	if (!d.nmeasured && !rc) {
		ph_err("no figure could be measured; the reasons are above");
		rc = PH_EXIT_FAIL;
	}
	if (!d.nmeasured && rc == PH_EXIT_INTERRUPTED)
		ph_err("interrupted before anything was measured");
	if (!d.nmeasured)
		goto out;
	doc = diag_doc(&d, s, "baseline", NULL, PH_H_OK, NULL, NULL);
	diag_load_doc(&d, doc);
	if (a.save && !rc && doc_save_json(doc, a.save, why, sizeof(why))) {
		ph_err("--save: %s: %s", a.save, why);
		rc = PH_EXIT_FAIL;
	}
	rc = study_render(s, doc, rc ? rc : d.nskipped ? PH_EXIT_FAIL : 0);
out:
	doc_free(doc);
	diag_free(&d);
	session_free(s);
	return rc;
}
