// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_c2c.c - "pagehop c2c": core-to-core latency, a cache line handed
 * between every pair of the CPUs asked, the line on a verified page of the
 * node --membind names.  The study is c2c.c's.
 */
#include "c2c.h"
#include "commands.h"
#include "common_opts.h"
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
static const struct ph_opt out_opts[] = { PH_OPT_FORMAT, PH_OPT_PLOT, { 0 } };

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
	struct ph_session s;
	struct bitmask *cpus;
	unsigned repeats;
};

static int c2c_option(void *ctx, const struct ph_opt *o, const char *arg)
{
	struct c2c_args *a = ctx;
	int h = common_option(&a->s, o, arg);

	if (h <= 0)
		return h;
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

int cmd_c2c(int argc, char *argv[])
{
	struct c2c_args a = { .repeats = 3 };
	struct ph_session *s = &a.s;
	struct ph_c2c c = { 0 };
	struct ph_doc *doc = NULL;
	int rc;

	session_init(s, 0);
	s->mcfg.time_s = 0.5;
	rc = opts_parse(&cmd_c2c_spec, argc, argv, c2c_option, &a);
	if (rc) {
		rc = rc == PH_OPTS_HELP ? PH_EXIT_OK : PH_EXIT_USAGE;
		goto out;
	}
	rc = session_machine(s);
	if (!rc)
		rc = c2c_plan(&c, s, a.cpus);
	if (!rc)
		c2c_set_repeats(&c, (int)a.repeats);
	if (!rc)
		rc = c2c_start(&c, s);
	if (rc)
		goto out;
	rc = c2c_measure(&c, s);
	if (!c.npairs) {
		rc = rc ? rc : PH_EXIT_FAIL;
		goto out;
	}
	doc = c2c_doc(&c, s);
	rc = session_render(s, doc, rc);
out:
	doc_free(doc);
	c2c_free(&c, s);
	if (a.cpus)
		numa_bitmask_free(a.cpus);
	session_free(s);
	return rc;
}
