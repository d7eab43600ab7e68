// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_interleave.c - "pagehop interleave": read bandwidth under each way
 * of laying memory out over a set of nodes (a node alone, interleave, the
 * kernel's weighted interleave, pagehop's proposed weights and a search
 * around them), every layout's pages counted back per node.  The study
 * is wi_study.c's.
 */
#include "commands.h"
#include "study.h"
#include "common_opts.h"
#include "wi_study.h"
#include "session.h"
#include "util.h"

#include <errno.h>
#include <numa.h>
#include <stdlib.h>

/* The command's own options; below OPT_SIZE, where the common ones start. */
enum {
	OPT_CPU_NODE = 1,
	OPT_NODES,
	OPT_SEARCH,
};

static const struct ph_opt wi_opts[] = {
	{ "cpu-node", 0, "N", OPT_CPU_NODE, "the node whose CPUs read the memory", NULL,
	  "the node of the CPU pagehop starts on" },
	{ "nodes", 0, "NODES", OPT_NODES, "the memory nodes to lay the memory out over", NULL,
	  "every node with memory" },
	{ "search", 0, "N", OPT_SEARCH, "weight candidates tried around the proposal", "4", NULL },
	{ 0 },
};

static const struct ph_opt memory_opts[] = {
	PH_OPT_SIZE("256M"),
	{ 0 },
};

static const struct ph_opt thread_opts[] = {
	PH_OPT_THREADS("one per core of --cpu-node"),
	{ 0 },
};

static const struct ph_optgroup wi_groups[] = {
	{ "interleave", wi_opts },
	{ "memory", memory_opts },
	{ "threads", thread_opts },
	PH_GROUP_STATISTICS("1", "1"),
	PH_GROUP_OUTPUT,
	{ 0 },
};

#define WI_SETS_IT "each layout sets where the memory goes, over --nodes"

static const struct ph_refusal wi_refused[] = {
	{ "membind", WI_SETS_IT },
	{ "interleave", WI_SETS_IT },
	{ "page-size", "every layout is 4K anonymous memory: weighted interleave places 4K pages" },
	{ "backend", "every layout is 4K anonymous memory: weighted interleave places 4K pages" },
	{ "cpunodebind", "the CPUs are --cpu-node's" },
	{ "physcpubind", "the CPUs are --cpu-node's" },
	{ 0 },
};

const struct ph_cmdspec cmd_interleave_spec = {
	.name = "interleave",
	.synopsis = "[OPTIONS]",
	.about =
	"Read bandwidth from the CPUs of --cpu-node over memory laid out on\n"
	"--nodes: each node alone (the CPU node's own is dram), plain interleave\n"
	"(MPOL_INTERLEAVE), the kernel's weighted interleave with the weights\n"
	"sysfs holds (MPOL_WEIGHTED_INTERLEAVE, Linux 6.9+; skipped, and said,\n"
	"where the kernel lacks it), the weights pagehop proposes from each\n"
	"node's bandwidth alone and a few candidates around them (pagehop's own\n"
	"round robin, sysfs never written).  Every layout's pages are counted back\n"
	"per node by move_pages against its weights (exit 1 when they differ);\n"
	"the gains over interleave and dram are ratios with bootstrap CIs.  Each\n"
	"node is named by its kind: CXL (a region of /sys/bus/cxl on it), DRAM\n"
	"(it has CPUs), CPU-less, or unknown (sysfs could not tell).\n",
	.groups = wi_groups,
	.epilog = PH_USAGE_LISTS,
	.refused = wi_refused,
};

static void wi_init(void *args, struct ph_options *opt)
{
	struct ph_wi *w = args;

	(void)opt;
	w->cpu_node_given = -1;
	w->search = 4;
}

static int wi_option(void *args, struct ph_options *opt, const struct ph_opt *o, const char *arg)
{
	struct ph_wi *w = args;
	unsigned v;

	(void)opt;
	switch (o->id) {
	case OPT_CPU_NODE:
		if (cli_parse_uint("--cpu-node", arg, 0, 4095, &v))
			return -EINVAL;
		w->cpu_node_given = (int)v;
		return 0;
	case OPT_NODES:
		if (w->nodes_given)
			numa_bitmask_free(w->nodes_given);
		w->nodes_given = NULL;
		return cli_parse_nodes("--nodes", arg, &w->nodes_given);
	case OPT_SEARCH:
		return cli_parse_uint("--search", arg, 0, 15, &w->search);
	}
	return -EINVAL;
}

/* The read kernel's variant, as pagehop stream chooses it. */
static int wi_check(void *args, struct ph_session *s)
{
	static const char *const read_only[] = { "read" };
	struct ph_wi *w = args;
	const char *missing = NULL;

	(void)s;
	if (bandwidth_study_plan(&w->kernel, read_only, 1, PH_ISA_AUTO, false, &missing)) {
		ph_err("interleave: no read kernel runs here");
		return PH_EXIT_UNSUPPORTED;
	}
	w->k = w->kernel.ks[0];
	return 0;
}

const struct ph_study cmd_interleave_study = {
	.spec = &cmd_interleave_spec,
	.steps = &wi_steps,
	.default_size = 256 * MiB,
	.flags = PH_STUDY_BINDS_ITSELF,
	.init = wi_init,
	.option = wi_option,
	.check = wi_check,
};
