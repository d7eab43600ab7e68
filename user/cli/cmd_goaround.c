// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_goaround.c - "pagehop goaround": Schmidl's mem_go_around.  Every
 * thread's block on its own node; in turn k all threads at once stream
 * the block of thread (t + k) mod T.  The study is goaround.c's.
 */
#include "bandwidth.h"
#include "commands.h"
#include "study.h"
#include "common_opts.h"
#include "goaround.h"
#include "session.h"
#include "util.h"

#include <errno.h>
#include <numa.h>
#include <stdlib.h>

/* The command's own options; below OPT_SIZE, where the common ones start. */
enum {
	OPT_TURNS = 1,
};

static const struct ph_opt goaround_opts[] = {
	PH_OPT_STUDY_KERNEL,
	{ "turns", 0, "K[,K...]", OPT_TURNS,
	  "the turns to measure, ascending, each below the\n"
	  "thread count; a range A-B is every turn from A to B", NULL,
	  "every turn up to 16 threads, log spaced above" },
	{ 0 },
};

static const struct ph_opt memory_opts[] = {
	PH_OPT_STUDY_SIZE_PER_THREAD("each thread's block"),
	PH_OPT_PAGE_SIZE("4k", NULL),
	PH_OPT_BACKEND,
	PH_OPT_RESERVE,
	PH_OPT_ALLOW_UNVERIFIED,
	{ 0 },
};

static const struct ph_opt thread_opts[] = {
	{ "threads", 0, "N", OPT_THREADS, "the thread count T", NULL,
	  "every CPU the placement can take" },
	PH_OPT_STUDY_PLACEMENT,
	{ "cpunodebind", 0, "NODES", OPT_CPUNODEBIND,
	  "place the threads on the CPUs of these nodes", NULL, "every node with CPUs" },
	{ 0 },
};

static const struct ph_optgroup goaround_groups[] = {
	{ "goaround", goaround_opts },
	{ "memory", memory_opts },
	{ "threads", thread_opts },
	PH_GROUP_STATISTICS("1", "1"),
	PH_GROUP_OUTPUT_PLOT,
	{ 0 },
};

static const struct ph_refusal goaround_refused[] = {
	{ "size", "each thread's block is --size-per-thread" },
	{ "membind", "every block is on its own thread's node; the turns move the threads to the others'" },
	{ "interleave", "every block is on its own thread's node; the turns move the threads to the others'" },
	{ "physcpubind", "the CPUs come from --placement over --cpunodebind's nodes" },
	{ 0 },
};

const struct ph_cmdspec cmd_goaround_spec = {
	.name = "goaround",
	.synopsis = "[OPTIONS]",
	.about =
	"mem_go_around (Schmidl et al.): T threads placed by --placement, each\n"
	"with a block laid out and read back on its own CPU's node.  In turn k\n"
	"every thread at once streams the block of thread (t + k) mod T, so that\n"
	"the remote share and the hop distance grow with k under the whole\n"
	"interconnect's load.  Per turn: the aggregate GB/s with its CI, per\n"
	"thread, the share of threads on remote memory, the mean hop level and\n"
	"firmware distance; table threads gives each thread's own figure.\n",
	.groups = goaround_groups,
	.epilog = PH_USAGE_LISTS,
	.refused = goaround_refused,
};

static int goaround_option(void *args, struct ph_options *opt, const struct ph_opt *o, const char *arg)
{
	struct ph_goaround *g = args;
	int h = common_study_option(&g->c, o, arg);

	(void)opt;
	if (h <= 0)
		return h;
	switch (o->id) {
	case OPT_TURNS:
		return cli_parse_ascending("--turns", arg, 0, 4095, "turns, e.g. 0,1,3 or 0-3",
					   &g->turns_given, &g->nturns_given);
	}
	return -EINVAL;
}

/* The kernel's variant, as pagehop stream chooses it. */
static int goaround_check(void *args, struct ph_session *s)
{
	struct ph_goaround *g = args;
	int rc = common_one_kernel(&g->kernel, &g->c);

	(void)s;
	g->place = g->c.place;
	g->size_per_thread = g->c.size_per_thread;
	if (!rc)
		g->k = g->kernel.ks[0];
	return rc;
}

const struct ph_study cmd_goaround_study = {
	.spec = &cmd_goaround_spec,
	.steps = &goaround_steps,
	.default_size = GiB,
	.flags = PH_STUDY_BINDS_ITSELF,
	.option = goaround_option,
	.check = goaround_check,
};
