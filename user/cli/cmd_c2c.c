// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_c2c.c - "pagehop c2c": core-to-core latency, a cache line handed
 * between every pair of the CPUs asked, the line on a verified page of the
 * node --membind names.  The study is c2c.c's.
 */
#include "c2c.h"
#include "commands.h"
#include "common_opts.h"
#include "study.h"
#include "util.h"

#include <errno.h>
#include <numa.h>

enum { OPT_CPUS = 1, OPT_REPEATS };

static const struct ph_opt c2c_opts[] = {
	{ "cpus", 0, "CPUS", OPT_CPUS, "measure every pair of these CPUs", NULL,
	  "every CPU this process may run on" },
	{ "repeats", 0, "N", OPT_REPEATS,
	  "measure each pair N times (1-20), each on a line and\n"
	  "threads of its own, sharing the pair's --time: costs\n"
	  "a calibration and a page per repeat, not more time;\n"
	  "1 is a single run", "3", NULL },
	/* PH_OPT_PERCENTILES's, with c2c's hops: one-way hand-offs, two a round trip. */
	{ "percentiles", 0, "[=LIST]", OPT_PERCENTILES,
	  "also each pair's distribution of one-way means over\n"
	  "runs of N round trips (N >= 32), timer cost\n"
	  "subtracted: these percentiles (bare: 50,90,99,99.9)", NULL, NULL },
	PH_OPT_HISTOGRAM,
	{ 0 },
};

static const struct ph_opt memory_opts[] = {
	{ "membind", 0, "NODE", OPT_MEMBIND, "the line's page on this node", NULL,
	  "the first CPU's node" },
	PH_OPT_PAGE_SIZE("4k", NULL),
	PH_OPT_BACKEND,
	PH_OPT_ALLOW_UNVERIFIED,
	{ 0 },
};

static const struct ph_optgroup c2c_groups[] = {
	{ "c2c", c2c_opts },
	{ "memory", memory_opts },
	PH_GROUP_STATISTICS("0.5", "1"),
	PH_GROUP_OUTPUT_PLOT,
	{ 0 },
};

static const struct ph_refusal c2c_refused[] = {
	{ "physcpubind", "the pairs are every two of --cpus" },
	{ "cpunodebind", "the pairs are every two of --cpus" },
	{ "threads", "a hand-off is two threads, one per CPU of the pair" },
	{ "interleave", "the line is one line, on the one node --membind names" },
	{ "size", "the line is one cache line, on a page of its own" },
	{ 0 },
};

const struct ph_cmdspec cmd_c2c_spec = {
	.name = "c2c",
	.synopsis = "[OPTIONS]",
	.about =
	"Core-to-core latency: for every pair of CPUs, two pinned threads hand one\n"
	"cache line back and forth (a load that waits for the other's store, then\n"
	"a store); the time of a round trip, halved.  The line is on a page of its\n"
	"own, verified on the node --membind names, so that the line's home can be\n"
	"told from the CPUs' distance.  --time is per pair, shared by its\n"
	"--repeats: a run's CI cannot see what changes between runs (under a\n"
	"hypervisor, which cores the vCPUs are on), the repeats' spread can.\n"
	"Prints every pair's median, CI and samples, the spread between its\n"
	"repeats and whether they differ beyond their CIs (between_runs,\n"
	"bimodal), each repeat, the CPU x CPU matrix, and the pairs summarised by\n"
	"relation (smt, l3, node, socket, remote, from hwloc) and by node pair.\n"
	"--percentiles adds each pair's distribution, within the same --time:\n"
	"runs of a few dozen round trips, each timed alone, beside the median.\n",
	.groups = c2c_groups,
	.epilog = PH_USAGE_LISTS,
	.refused = c2c_refused,
};

static void c2c_init(void *args, struct ph_options *opt)
{
	((struct ph_c2c *)args)->repeats_given = 3;
	opt->mcfg.time_s = 0.5;
}

static int c2c_option(void *args, struct ph_options *opt, const struct ph_opt *o, const char *arg)
{
	struct ph_c2c *c = args;

	(void)opt;
	if (o->id == OPT_CPUS) {
		if (c->cpus_given)
			numa_bitmask_free(c->cpus_given);
		c->cpus_given = NULL;
		return cli_parse_cpus("--cpus", arg, &c->cpus_given);
	}
	if (o->id == OPT_REPEATS)
		return cli_parse_uint("--repeats", arg, 1, C2C_MAX_REPEATS, &c->repeats_given);
	if (o->id == OPT_PERCENTILES || o->id == OPT_HISTOGRAM)
		return common_dist_option(&c->dist, o->id, arg);
	return -EINVAL;
}

static int c2c_check(void *args, struct ph_session *s)
{
	(void)s;
	common_dist_finish(&((struct ph_c2c *)args)->dist);
	return 0;
}

const struct ph_study cmd_c2c_study = {
	.spec = &cmd_c2c_spec,
	.steps = &c2c_steps,
	.init = c2c_init,
	.option = c2c_option,
	.check = c2c_check,
};
