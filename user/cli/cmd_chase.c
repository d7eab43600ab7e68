// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_chase.c - "pagehop chase": load-to-use latency by pointer chasing on
 * verified memory, in user space and, with pagehop.ko, inside the kernel
 * with interrupts off.  The study is latency.c's (latency_study_*).
 */
#include "chase.h"
#include "commands.h"
#include "study.h"
#include "common_opts.h"
#include "latency.h"
#include "session.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

/* The command's own options; below OPT_SIZE, where the common ones start. */
enum {
	OPT_PATTERN = 1,
	OPT_CHAINS,
	OPT_SEED,
	OPT_IN_KERNEL,
	OPT_REPEATS,
};

/* CHASE_MAX_CHAINS as text, for the option's help. */
#define CHAINS_TEXT(n) #n
#define CHAINS_MAX_TEXT_(n) CHAINS_TEXT(n)
#define CHAINS_MAX_TEXT CHAINS_MAX_TEXT_(CHASE_MAX_CHAINS)

static const struct ph_opt chase_opts[] = {
	{ "pattern", 0, "P[,P...]", OPT_PATTERN, "access patterns, in this order (listed below)",
	  "random", NULL },
	{ "chains", 0, "K", OPT_CHAINS,
	  "walk K independent chains at once (1-" CHAINS_MAX_TEXT "): the\n"
	  "time per load then shows memory-level parallelism", "1", NULL },
	{ "seed", 0, "N", OPT_SEED, "chain seed: the same seed, the same chain", "1", NULL },
	{ "in-kernel", 0, NULL, OPT_IN_KERNEL,
	  "also walk the chain inside pagehop.ko with interrupts\n"
	  "off (needs --backend kmod, one thread, one chain)", NULL, NULL },
	{ "repeats", 0, "N", OPT_REPEATS,
	  "measure every figure N times (1-20), each on memory,\n"
	  "chains and threads of their own, sharing its --time:\n"
	  "costs a lay-out, read-back and chain per repeat", "1", NULL },
	PH_OPT_PERCENTILES,
	PH_OPT_HISTOGRAM,
	{ 0 },
};

static const struct ph_opt memory_opts[] = {
	PH_OPT_SIZE("1G"),
	PH_OPT_PAGE_SIZE("4k", NULL),
	PH_OPT_BACKEND,
	PH_OPT_MEMBIND,
	PH_OPT_INTERLEAVE,
	PH_OPT_RESERVE,
	PH_OPT_ALLOW_UNVERIFIED,
	{ 0 },
};

static const struct ph_opt thread_opts[] = {
	PH_OPT_CPUNODEBIND,
	PH_OPT_PHYSCPUBIND,
	PH_OPT_THREADS("1"),
	{ 0 },
};

static const struct ph_optgroup chase_groups[] = {
	{ "chase", chase_opts },
	{ "memory", memory_opts },
	{ "threads", thread_opts },
	PH_GROUP_STATISTICS("2", "1"),
	PH_GROUP_OUTPUT_PLOT,
	{ 0 },
};

/* The patterns, from the loops' table. */
static bool pattern_value(size_t i, const char **name, const char **desc)
{
	if (i >= chase_npatterns)
		return false;
	*name = chase_patterns[i].syntax;
	*desc = chase_patterns[i].desc;
	return true;
}

static const struct ph_optvalues chase_values[] = {
	{ "patterns (--pattern; SIZE and N in bytes, multiples of 64)", pattern_value },
	{ 0 },
};

const struct ph_cmdspec cmd_chase_spec = {
	.name = "chase",
	.synopsis = "[OPTIONS]",
	.about =
	"Load-to-use latency by pointer chasing: every load's address comes from\n"
	"the load before, through one random cycle over 64-byte slots of verified\n"
	"memory.  Reports ns and TSC cycles per load: median, minimum, the 95%\n"
	"confidence interval of the median, and the sample count; with --repeats,\n"
	"the spread between the repeats' medians and whether they differ beyond\n"
	"their CIs (between_runs, bimodal).\n",
	.groups = chase_groups,
	.values = chase_values,
	.epilog = PH_USAGE_LISTS,
};

static int chase_option(void *args, struct ph_options *opt, const struct ph_opt *o, const char *arg)
{
	struct ph_latstudy *st = args;
	unsigned repeats = 0;
	int rc;

	(void)opt;
	switch (o->id) {
	case OPT_PATTERN:
		st->patterns_given = arg;
		return cli_check_list("--pattern", arg, "patterns separated by commas, e.g. random,seq");
	case OPT_CHAINS:
		return cli_parse_uint("--chains", arg, 1, CHASE_MAX_CHAINS, &st->chains);
	case OPT_SEED:
		return cli_parse_u64("--seed", arg, &st->seed);
	case OPT_IN_KERNEL:
		st->in_kernel = true;
		return 0;
	case OPT_PERCENTILES:
	case OPT_HISTOGRAM:
		return common_dist_option(&st->dist, o->id, arg);
	case OPT_REPEATS:
		rc = cli_parse_uint("--repeats", arg, 1, 20, &repeats);
		st->repeats = (int)repeats;
		return rc;
	}
	return -EINVAL;
}

static int chase_check(void *args, struct ph_session *s)
{
	struct ph_latstudy *st = args;

	/* Every pattern gets the seed, wherever --seed was on the line. */
	if (latency_parse_patterns("--pattern", st->patterns_given, st->seed, &st->specs, &st->nspecs))
		return PH_EXIT_USAGE;
	common_dist_finish(&st->dist);
	/* A chase's curves are its distribution's: without one there is nothing to draw. */
	if (s->opt->plot && !st->dist.want) {
		ph_err("--plot: chase draws its latency distribution: add --percentiles or --histogram");
		return PH_EXIT_USAGE;
	}
	if (st->in_kernel && (st->chains != 1 || s->opt->bind.threads > 1)) {
		ph_err("--in-kernel: walks one chain on one thread; drop --chains/--threads");
		return PH_EXIT_USAGE;
	}
	return 0;
}

const struct ph_study cmd_chase_study = {
	.spec = &cmd_chase_spec,
	.steps = &latency_steps,
	.default_size = GiB,
	.option = chase_option,
	.check = chase_check,
};
