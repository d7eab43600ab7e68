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

static const struct ph_opt stat_opts[] = { PH_OPT_TIME("0.5"), PH_OPT_CI("1"), { 0 } };
static const struct ph_opt out_opts[] = { PH_OPT_FORMAT, PH_OPT_PLOT, PH_OPT_PROGRESS, { 0 } };

static const struct ph_optgroup c2c_groups[] = {
	{ "c2c", c2c_opts },
	{ "memory", memory_opts },
	{ "statistics", stat_opts },
	{ "output", out_opts },
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
	"relation (smt, l3, node, socket, remote, from hwloc) and by node pair.\n",
	.groups = c2c_groups,
	.epilog = PH_USAGE_LISTS,
	.refused = c2c_refused,
};

struct c2c_args {
	struct bitmask *cpus;
	unsigned repeats;
	struct ph_c2c c;
};

static void c2c_init(void *args, struct ph_session *s)
{
	((struct c2c_args *)args)->repeats = 3;
	s->mcfg.time_s = 0.5;
}

static int c2c_option(void *args, struct ph_session *s, const struct ph_opt *o, const char *arg)
{
	struct c2c_args *a = args;

	(void)s;
	if (o->id == OPT_CPUS) {
		if (a->cpus)
			numa_bitmask_free(a->cpus);
		a->cpus = NULL;
		return cli_parse_cpus("--cpus", arg, &a->cpus);
	}
	if (o->id == OPT_REPEATS)
		return cli_parse_uint("--repeats", arg, 1, C2C_MAX_REPEATS, &a->repeats);
	return -EINVAL;
}

static int c2c_study_plan(void *args, struct ph_session *s)
{
	struct c2c_args *a = args;
	int rc = c2c_plan(&a->c, s, a->cpus);

	if (rc)
		return rc;
	c2c_set_repeats(&a->c, (int)a->repeats);
	return c2c_start(&a->c, s);
}

static int c2c_study_measure(void *args, struct ph_session *s)
{
	return c2c_measure(&((struct c2c_args *)args)->c, s);
}

static bool c2c_measured(const void *args)
{
	return ((const struct c2c_args *)args)->c.npairs > 0;
}

static struct ph_doc *c2c_document(void *args, struct ph_session *s, int *rc)
{
	(void)rc;
	return c2c_doc(&((struct c2c_args *)args)->c, s);
}

static void c2c_study_free(void *args, struct ph_session *s)
{
	struct c2c_args *a = args;

	c2c_free(&a->c, s);
	if (a->cpus)
		numa_bitmask_free(a->cpus);
}

const struct ph_study cmd_c2c_study = {
	.spec = &cmd_c2c_spec,
	.args_size = sizeof(struct c2c_args),
	.init = c2c_init,
	.option = c2c_option,
	.plan = c2c_study_plan,
	.measure = c2c_study_measure,
	.measured = c2c_measured,
	.document = c2c_document,
	.free = c2c_study_free,
};
