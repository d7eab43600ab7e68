// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_hops.c - "pagehop hops": bandwidth and latency against the working
 * set, memory on the CPU's node and on a node of each remote hop level.
 * The study is hops.c's.
 */
#include "commands.h"
#include "study.h"
#include "common_opts.h"
#include "hops.h"
#include "session.h"
#include "util.h"

#include <errno.h>
#include <numa.h>
#include <stdlib.h>

/* The command's own options; below OPT_SIZE, where the common ones start. */
enum {
	OPT_KERNEL = 1,
	OPT_PATTERN,
	OPT_MIN,
	OPT_MAX,
};

static const struct ph_opt hops_opts[] = {
	{ "kernel", 0, "K[,K...]", OPT_KERNEL, "the bandwidth kernels (pagehop list)", "read,write,triad", NULL },
	{ "pattern", 0, "P", OPT_PATTERN, "the latency chase, as pagehop chase takes it", "random", NULL },
	{ "min", 0, "SIZE", OPT_MIN, "smallest working set, a power of two", "64K", NULL },
	{ "max", 0, "SIZE", OPT_MAX, "largest working set, a power of two", "64M", NULL },
	{ 0 },
};

static const struct ph_opt memory_opts[] = {
	PH_OPT_PAGE_SIZE("4k", NULL),
	PH_OPT_BACKEND,
	PH_OPT_RESERVE,
	PH_OPT_ALLOW_UNVERIFIED,
	{ 0 },
};

static const struct ph_opt thread_opts[] = {
	{ "physcpubind", 0, "CPU", OPT_PHYSCPUBIND, "the CPU that measures, one thread", NULL,
	  "the first CPU this process may use" },
	{ 0 },
};

static const struct ph_optgroup hops_groups[] = {
	{ "hops", hops_opts },
	{ "memory", memory_opts },
	{ "threads", thread_opts },
	PH_GROUP_STATISTICS("0.3", "2"),
	PH_GROUP_OUTPUT_PLOT,
	{ 0 },
};

#define HOPS_SETS_IT "the sweep sets it: the sizes with --min/--max, the nodes by hop level from --physcpubind's"

static const struct ph_refusal hops_refused[] = {
	{ "size", HOPS_SETS_IT },
	{ "membind", HOPS_SETS_IT },
	{ "interleave", HOPS_SETS_IT },
	{ "cpunodebind", HOPS_SETS_IT },
	{ "threads", "one thread measures; Schmidl's curves are per thread" },
	{ 0 },
};

const struct ph_cmdspec cmd_hops_spec = {
	.name = "hops",
	.synopsis = "[OPTIONS]",
	.about =
	"Bandwidth (--kernel, default read, write and triad) and latency (a chase)\n"
	"against the working-set size, powers of two from --min to --max, with the\n"
	"memory on the measuring CPU's own node and on one node of each remote hop\n"
	"level (from the firmware distances), one table with a row per level, size\n"
	"and figure.  Each size is laid out and read back on its node.\n",
	.groups = hops_groups,
	.epilog = PH_USAGE_LISTS,
	.refused = hops_refused,
};

static int hops_option(void *args, struct ph_options *opt, const struct ph_opt *o, const char *arg)
{
	struct ph_hops *h = args;

	(void)opt;
	switch (o->id) {
	case OPT_KERNEL:
		return common_parse_kernels(arg, &h->kernels.names_given, &h->kernels.nnames_given);
	case OPT_PATTERN:
		if (chase_parse(arg, &h->pattern)) {
			ph_err("--pattern: unknown pattern '%s'; expected %s", arg, chase_pattern_list());
			return -EINVAL;
		}
		h->pattern.seed = 1;
		return 0;
	case OPT_MIN:
		return cli_parse_size("--min", arg, &h->min);
	case OPT_MAX:
		return cli_parse_size("--max", arg, &h->max);
	}
	return -EINVAL;
}

static int hops_check(void *args, struct ph_session *s)
{
	struct ph_hops *h = args;
	struct ph_bwstudy *k = &h->kernels;
	const struct bitmask *cpus = s->opt->bind.physcpubind;
	const char *missing = NULL;

	h->cpu_given = -1;
	if (cpus) {
		if (numa_bitmask_weight(cpus) != 1) {
			ph_err("--physcpubind: the sweep runs on one CPU; give one");
			return PH_EXIT_USAGE;
		}
		for (unsigned c = 0; c < cpus->size && h->cpu_given < 0; c++)
			if (numa_bitmask_isbitset(cpus, c))
				h->cpu_given = (int)c;
	}
	/* The kernels' variants, as pagehop stream chooses them. */
	if (bandwidth_study_plan(k, k->names_given, k->nnames_given, PH_ISA_AUTO, false, &missing)) {
		ph_err("--kernel %s: no such kernel; expected %s", missing, stream_op_list());
		return PH_EXIT_USAGE;
	}
	h->ks = k->ks;
	h->nks = k->nks;
	k->ks = NULL;
	h->latency = true;
	return 0;
}

/* Each level binds its own CPU and node (hops.c): the session binds nothing. */
const struct ph_study cmd_hops_study = {
	.spec = &cmd_hops_spec,
	.steps = &hops_steps,
	.default_size = GiB,
	.flags = PH_STUDY_BINDS_ITSELF,
	.option = hops_option,
	.check = hops_check,
};
