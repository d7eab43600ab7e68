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

static const struct ph_opt stat_opts[] = { PH_OPT_TIME("0.3"), PH_OPT_CI("2"), { 0 } };
static const struct ph_opt out_opts[] = { PH_OPT_FORMAT, PH_OPT_PLOT, { 0 } };

static const struct ph_optgroup hops_groups[] = {
	{ "hops", hops_opts },
	{ "memory", memory_opts },
	{ "threads", thread_opts },
	{ "statistics", stat_opts },
	{ "output", out_opts },
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

struct hops_args {
	struct ph_session s;
	const char **names;
	int nnames;
	struct ph_hops h;
};

static int hops_option(void *ctx, const struct ph_opt *o, const char *arg)
{
	struct hops_args *a = ctx;
	int h = common_option(&a->s, o, arg);

	if (h <= 0)
		return h;
	switch (o->id) {
	case OPT_KERNEL:
		return common_parse_kernels(arg, &a->names, &a->nnames);
	case OPT_PATTERN:
		if (chase_parse(arg, &a->h.pattern)) {
			ph_err("--pattern: unknown pattern '%s'; expected %s", arg, chase_pattern_list());
			return -EINVAL;
		}
		a->h.pattern.seed = 1;
		return 0;
	case OPT_MIN:
		return cli_parse_size("--min", arg, &a->h.min);
	case OPT_MAX:
		return cli_parse_size("--max", arg, &a->h.max);
	}
	return -EINVAL;
}

int cmd_hops(int argc, char *argv[])
{
	struct hops_args a = { 0 };
	struct ph_session *s = &a.s;
	struct ph_bwstudy plan = { 0 };
	struct ph_doc *doc = NULL;
	const char *missing = NULL;
	int cpu = -1, rc;

	session_init(s, GiB);
	rc = opts_parse(&cmd_hops_spec, argc, argv, hops_option, &a);
	if (rc) {
		rc = rc == PH_OPTS_HELP ? PH_EXIT_OK : PH_EXIT_USAGE;
		goto out;
	}
	if (s->bind.physcpubind) {
		if (numa_bitmask_weight(s->bind.physcpubind) != 1) {
			ph_err("--physcpubind: the sweep runs on one CPU; give one");
			rc = PH_EXIT_USAGE;
			goto out;
		}
		for (unsigned c = 0; c < s->bind.physcpubind->size && cpu < 0; c++)
			if (numa_bitmask_isbitset(s->bind.physcpubind, c))
				cpu = (int)c;
		numa_bitmask_free(s->bind.physcpubind);
		s->bind.physcpubind = NULL;
	}
	/* The kernels' variants, as pagehop stream chooses them. */
	if (bandwidth_study_plan(&plan, a.names, a.nnames, PH_ISA_AUTO, false, &missing)) {
		ph_err("--kernel %s: no such kernel; expected %s", missing, stream_op_list());
		rc = PH_EXIT_USAGE;
		goto out;
	}
	a.h.ks = plan.ks;
	a.h.nks = plan.nks;
	plan.ks = NULL;
	a.h.latency = true;
	rc = session_machine(s);
	if (!rc)
		rc = hops_plan(&a.h, s, cpu);
	if (!rc)
		rc = hops_measure(&a.h, s);
	if (!a.h.nrows) {
		rc = rc ? rc : PH_EXIT_FAIL;
		goto out;
	}
	doc = hops_doc(&a.h, s);
	rc = study_render(s, doc, rc);
out:
	doc_free(doc);
	hops_free(&a.h);
	bandwidth_study_free(&plan);
	free(a.names);
	session_free(s);
	return rc;
}
