// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_scan.c - "pagehop scan": a node's memory by physical range, to find
 * the slow range and the DIMM behind it.  The study is scan.c's.
 */
#include "commands.h"
#include "study.h"
#include "cli.h"
#include "common_opts.h"
#include "scan.h"
#include "session.h"
#include "util.h"

#include <errno.h>
#include <numa.h>
#include <stdlib.h>

/* The command's own options; below OPT_SIZE, where the common ones start. */
enum {
	OPT_NODE = 1,
	OPT_RANGE,
	OPT_BUDGET,
	OPT_MADS,
	OPT_TOLERANCE,
	OPT_PATTERN,
};

static const struct ph_opt scan_opts[] = {
	{ "node", 0, "NODES", OPT_NODE, "the nodes to scan, one after another", NULL, "every node with memory" },
	{ "range", 0, "SIZE", OPT_RANGE, "the physical range measured as one, a power of two", "1G", NULL },
	{ "budget", 0, "SECONDS", OPT_BUDGET, "time for all the measuring, shared by the ranges", NULL,
	  "--time per figure" },
	{ "pattern", 0, "P", OPT_PATTERN, "the latency chase, as pagehop chase takes it", "page:4K", NULL },
	{ "mads", 0, "K", OPT_MADS, "a range strays beyond K robust sigmas\n(1.4826 MAD) of its node's median", "4", NULL },
	{ "tolerance", 0, "PERCENT", OPT_TOLERANCE, "... and beyond this much of the median", "10", NULL },
	{ 0 },
};

static const struct ph_opt memory_opts[] = {
	{ "size", 0, "SIZE", OPT_SIZE, "at most this much of each node", NULL,
	  "all of its free memory but the reserve" },
	PH_OPT_PAGE_SIZE(NULL, "2m with pagehop.ko, else thp"),
	PH_OPT_BACKEND,
	PH_OPT_ALLOW_UNVERIFIED,
	{ 0 },
};

static const struct ph_optgroup scan_groups[] = {
	{ "scan", scan_opts },
	{ "memory", memory_opts },
	PH_GROUP_STATISTICS("1", "2"),
	PH_GROUP_OUTPUT,
	{ 0 },
};

#define SCAN_SETS_IT "the scan places every range itself, on a CPU of its node"

static const struct ph_refusal scan_refused[] = {
	{ "membind", "give the nodes with --node" },
	{ "interleave", SCAN_SETS_IT },
	{ "cpunodebind", SCAN_SETS_IT },
	{ "physcpubind", SCAN_SETS_IT },
	{ "threads", "one thread measures each range" },
	{ 0 },
};

const struct ph_cmdspec cmd_scan_spec = {
	.name = "scan",
	.synopsis = "[OPTIONS]",
	.about =
	"Pins as much of each node's memory as can be had safely (all but the\n"
	"reserve: 5% of the node, at least 256 MiB), groups it by physical range\n"
	"(--range), and measures each range's read bandwidth and chase\n"
	"latency, with their CIs, on exactly its frames, read back on the node\n"
	"and in the range.  Ranges that stray from their node's median (median\n"
	"and MAD, beyond --mads and --tolerance) are ranked, with the DIMM behind\n"
	"them where the firmware maps it (DMI type 17 and 20; EDAC's DIMMs and\n"
	"error counts are listed); exit 1 when one strays, named in the first\n"
	"line.  The coverage says how much of each node was scanned and which\n"
	"ranges could not be had.  Without pagehop.ko, anonymous memory whose\n"
	"frames the kernel chose (THP): coverage is partial.\n",
	.groups = scan_groups,
	.epilog = PH_USAGE_LISTS,
	.refused = scan_refused,
};

static void scan_init(void *args, struct ph_options *opt)
{
	struct ph_scan *sc = args;

	(void)opt;
	sc->range = GiB;
	sc->k = 4;
	sc->tol = 0.10;
}

static int scan_option(void *args, struct ph_options *opt, const struct ph_opt *o, const char *arg)
{
	struct ph_scan *sc = args;
	double pct;

	(void)opt;
	switch (o->id) {
	case OPT_NODE:
		if (sc->nodes_given)
			numa_bitmask_free(sc->nodes_given);
		sc->nodes_given = NULL;
		return cli_parse_nodes("--node", arg, &sc->nodes_given);
	case OPT_RANGE:
		return cli_parse_size("--range", arg, &sc->range);
	case OPT_BUDGET:
		return cli_parse_double("--budget", arg, 0.1, 1e7, &sc->budget);
	case OPT_PATTERN:
		if (chase_parse(arg, &sc->pattern)) {
			ph_err("--pattern: unknown pattern '%s'; expected %s", arg, chase_pattern_list());
			return -EINVAL;
		}
		sc->pattern.seed = 1;
		sc->pattern_given = true;
		return 0;
	case OPT_MADS:
		return cli_parse_double("--mads", arg, 0, 1000, &sc->k);
	case OPT_TOLERANCE:
		if (cli_parse_double("--tolerance", arg, 0, 1000, &pct))
			return -EINVAL;
		sc->tol = pct / 100;
		return 0;
	}
	return -EINVAL;
}

static int scan_check(void *args, struct ph_session *s)
{
	struct ph_scan *sc = args;

	sc->cap = s->opt->size_given ? s->opt->size : 0;
	return 0;
}

/* Each range binds its own CPU and node (scan.c): the session binds nothing. */
const struct ph_study cmd_scan_study = {
	.spec = &cmd_scan_spec,
	.steps = &scan_steps,
	.default_size = GiB,
	.flags = PH_STUDY_BINDS_ITSELF | PH_STUDY_OWN_NOTES,
	.init = scan_init,
	.option = scan_option,
	.check = scan_check,
};
