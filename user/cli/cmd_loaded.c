// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_loaded.c - "pagehop loaded": latency under load, a pointer chase on
 * one CPU while loader CPUs stream at an injection delay ladder, from idle
 * to saturation.  The study is loaded.c's.
 */
#include "commands.h"
#include "study.h"
#include "common_opts.h"
#include "homed.h"
#include "loaded.h"
#include "util.h"

#include <errno.h>
#include <numa.h>
#include <stdio.h>

enum { OPT_CHASER = 1, OPT_LOADERS, OPT_LOADER_MEMBIND, OPT_LOADER_SIZE, OPT_MIX, OPT_DELAYS };

static const struct ph_opt loaded_opts[] = {
	{ "chaser", 0, "CPU", OPT_CHASER, "the CPU that chases", NULL,
	  "the first CPU this process may run on" },
	{ "loaders", 0, "CPUS", OPT_LOADERS, "the CPUs that make traffic, one loader each", NULL,
	  "every other CPU" },
	{ "mix", 0, "M[,M...]", OPT_MIX, "traffic mixes, a curve each (listed below)", "read", NULL },
	{ "delays", 0, "D[,D...]", OPT_DELAYS,
	  "injection delays: D dependent adds after each line\na loader touches; sorted longest first",
	  "5000,2000,1000,500,200,100,50,20,0", NULL },
	PH_OPT_PERCENTILES,
	PH_OPT_HISTOGRAM,
	{ 0 },
};

static const struct ph_opt memory_opts[] = {
	PH_OPT_SIZE("256M"),
	{ "membind", 0, "NODE", OPT_MEMBIND, "the chaser's memory on this node", NULL,
	  "the chaser's node" },
	{ "loader-membind", 0, "NODE", OPT_LOADER_MEMBIND, "the loaders' memory on this node", NULL,
	  "the first loader's node" },
	{ "loader-size", 0, "SIZE", OPT_LOADER_SIZE, "each loader's buffer", "64M", NULL },
	PH_OPT_PAGE_SIZE("4k", NULL),
	PH_OPT_BACKEND,
	PH_OPT_ALLOW_UNVERIFIED,
	{ 0 },
};

static const struct ph_optgroup loaded_groups[] = {
	{ "loaded", loaded_opts },
	{ "memory", memory_opts },
	PH_GROUP_STATISTICS("1", "1"),
	PH_GROUP_OUTPUT_PLOT,
	{ 0 },
};

static const struct ph_refusal loaded_refused[] = {
	{ "physcpubind", "the chaser is --chaser, the loaders --loaders" },
	{ "cpunodebind", "the chaser is --chaser, the loaders --loaders" },
	{ "threads", "one chaser; the loaders are --loaders" },
	{ "interleave", "the chaser's memory is on the one node --membind names" },
	{ 0 },
};

static bool mix_value(size_t i, const char **name, const char **desc)
{
	if (i >= load_nmixes)
		return false;
	*name = load_mixes[i].name;
	*desc = load_mixes[i].desc;
	return true;
}

static const struct ph_optvalues loaded_values[] = {
	{ "traffic mixes (--mix)", mix_value },
	{ 0 },
};

const struct ph_cmdspec cmd_loaded_spec = {
	.name = "loaded",
	.synopsis = "[OPTIONS]",
	.about =
	"Loaded latency: one CPU chases a random chain over verified memory (as\n"
	"pagehop chase does) while the loader CPUs each stream over a verified\n"
	"buffer of their own, waiting the injection delay after every line.  A\n"
	"point per delay, from the longest (least traffic) to none, after an idle\n"
	"point without loaders: the chase's median and CI, and the bandwidth the\n"
	"loaders achieved, bytes they counted over the time they ran.  --time is\n"
	"per point.\n",
	.groups = loaded_groups,
	.values = loaded_values,
	.epilog = PH_USAGE_LISTS,
	.refused = loaded_refused,
};

static void loaded_init(void *args, struct ph_options *opt)
{
	(void)args;
	opt->mcfg.time_s = 1;
}

static int loaded_option(void *args, struct ph_options *opt, const struct ph_opt *o, const char *arg)
{
	struct ph_loaded *ld = args;
	struct bitmask **bm = NULL;

	(void)opt;
	switch (o->id) {
	case OPT_CHASER:
		bm = &ld->chaser_given;
		break;
	case OPT_LOADERS:
		bm = &ld->loaders_given;
		break;
	case OPT_LOADER_MEMBIND:
		if (ld->loader_nodes_given)
			numa_bitmask_free(ld->loader_nodes_given);
		ld->loader_nodes_given = NULL;
		return cli_parse_nodes("--loader-membind", arg, &ld->loader_nodes_given);
	case OPT_LOADER_SIZE:
		return cli_parse_size("--loader-size", arg, &ld->loader_bytes);
	case OPT_MIX:
		ld->mixes_given = arg;
		return cli_check_list("--mix", arg, "mixes separated by commas, e.g. read,1:1");
	case OPT_DELAYS:
		ld->delays_given = arg;
		return cli_check_list("--delays", arg, "delays separated by commas, e.g. 1000,100,0");
	case OPT_PERCENTILES:
	case OPT_HISTOGRAM:
		return common_dist_option(&ld->dist, o->id, arg);
	default:
		return -EINVAL;
	}
	if (*bm)
		numa_bitmask_free(*bm);
	*bm = NULL;
	return cli_parse_cpus(o->id == OPT_CHASER ? "--chaser" : "--loaders", arg, bm);
}

/* The chaser: --chaser, or the first CPU this process may run on. */
static int loaded_check(void *args, struct ph_session *s)
{
	struct ph_loaded *ld = args;
	int *cpus = NULL, n = 0, node;

	common_dist_finish(&ld->dist);
	if (!ld->chaser_given) {
		if (contend_cpus(NULL, "--chaser", &cpus, &n) || !n) {
			free(cpus);
			return PH_EXIT_USAGE;
		}
		ld->chaser_given = numa_allocate_cpumask();
		numa_bitmask_setbit(ld->chaser_given, (unsigned)cpus[0]);
		free(cpus);
	}
	if (s->opt->bind.membind)
		return homed_node(s->opt->bind.membind, "--membind", 0, &node);
	return 0;
}

const struct ph_study cmd_loaded_study = {
	.spec = &cmd_loaded_spec,
	.default_size = 256 * MiB,
	.steps = &loaded_steps,
	.init = loaded_init,
	.option = loaded_option,
	.check = loaded_check,
};
