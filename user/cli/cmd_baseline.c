// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_baseline.c - "pagehop baseline": this machine's fingerprint (model
 * key, settings, figures per node with their CIs), saved as the reference
 * that "pagehop check --baseline" judges against.  The study is diag.c's.
 */
#include "commands.h"
#include "study.h"
#include "baseline.h"
#include "common_opts.h"
#include "session.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>

enum { OPT_REPEATS = 1 };

static const struct ph_opt baseline_opts[] = {
	{ "save", 0, "FILE", OPT_SAVE_DOC,
	  "write the JSON document to FILE (atomically); 'pagehop\n"
	  "check --baseline FILE' reads it", NULL, NULL },
	{ "repeats", 0, "N", OPT_REPEATS,
	  "measure each figure N times (1-20), each on memory\n"
	  "and threads of its own: check's band covers the\n"
	  "spread between them as well as the CI", "3", NULL },
	{ 0 },
};
static const struct ph_opt out_opts[] = { PH_OPT_FORMAT, PH_OPT_PROGRESS_UNATTENDED, { 0 } };
static const struct ph_opt tail_opts[] = { PH_OPT_TAILS, PH_OPT_TAIL_HISTOGRAM(""), { 0 } };

static const struct ph_optgroup baseline_groups[] = {
	{ "baseline", baseline_opts },
	PH_GROUP_STATISTICS("2", "1"),
	{ "tails", tail_opts },
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

static void baseline_init(void *args, struct ph_options *opt)
{
	(void)opt;
	((struct ph_baseline *)args)->repeats = 3;
}

static int baseline_option(void *args, struct ph_options *opt, const struct ph_opt *o, const char *arg)
{
	(void)opt;
	if (o->id == OPT_REPEATS)
		return cli_parse_uint("--repeats", arg, 1, 20, &((struct ph_baseline *)args)->repeats);
	if (o->id == OPT_PERCENTILES || o->id == OPT_HISTOGRAM)
		return common_tail_option(&((struct ph_baseline *)args)->dist, o->id, arg);
	return -EINVAL;
}

/* --save is the reference check reads: written only when nothing failed. */
const struct ph_study cmd_baseline_study = {
	.spec = &cmd_baseline_spec,
	.steps = &baseline_steps,
	.flags = PH_STUDY_SAVE_CLEAN | PH_STUDY_UNATTENDED,
	.init = baseline_init,
	.option = baseline_option,
};
