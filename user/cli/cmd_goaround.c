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

static const struct ph_opt stat_opts[] = { PH_OPT_TIME("1"), PH_OPT_CI("1"), { 0 } };
static const struct ph_opt out_opts[] = { PH_OPT_FORMAT, PH_OPT_PLOT, { 0 } };

static const struct ph_optgroup goaround_groups[] = {
	{ "goaround", goaround_opts },
	{ "memory", memory_opts },
	{ "threads", thread_opts },
	{ "statistics", stat_opts },
	{ "output", out_opts },
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

struct goaround_args {
	struct ph_session s;
	struct common_study c;
	int *turns;
	int nturns;
	struct ph_goaround g;
};

static int goaround_option(void *ctx, const struct ph_opt *o, const char *arg)
{
	struct goaround_args *a = ctx;
	int h = common_option(&a->s, o, arg);

	if (h > 0)
		h = common_study_option(&a->c, o, arg);
	if (h <= 0)
		return h;
	switch (o->id) {
	case OPT_TURNS:
		return cli_parse_ascending("--turns", arg, 0, 4095, "turns, e.g. 0,1,3 or 0-3",
					   &a->turns, &a->nturns);
	}
	return -EINVAL;
}

int cmd_goaround(int argc, char *argv[])
{
	struct goaround_args a = { 0 };
	struct ph_session *s = &a.s;
	struct ph_bwstudy plan = { 0 };
	struct bitmask *cpunodes;
	struct ph_doc *doc = NULL;
	int threads, rc;

	session_init(s, GiB);
	rc = opts_parse(&cmd_goaround_spec, argc, argv, goaround_option, &a);
	if (rc) {
		rc = rc == PH_OPTS_HELP ? PH_EXIT_OK : PH_EXIT_USAGE;
		goto out;
	}
	/* The kernel's variant, as pagehop stream chooses it. */
	rc = common_one_kernel(&plan, &a.c);
	if (rc)
		goto out;
	a.g.place = a.c.place;
	a.g.size_per_thread = a.c.size_per_thread;
	a.g.k = plan.ks[0];
	/* --cpunodebind and --threads choose the placement's CPUs; it binds them. */
	cpunodes = s->bind.cpunodebind;
	threads = (int)s->bind.threads;
	s->bind.cpunodebind = NULL;
	s->bind.threads = 0;
	rc = session_machine(s);
	if (!rc)
		rc = goaround_plan(&a.g, s, cpunodes, threads, a.turns, a.nturns);
	if (cpunodes)
		numa_bitmask_free(cpunodes);
	if (rc)
		goto out;
	rc = goaround_measure(&a.g, s);
	if (!a.g.nrows) {
		rc = rc ? rc : PH_EXIT_FAIL;
		if (rc != PH_EXIT_USAGE && rc != PH_EXIT_UNSUPPORTED && ph_interrupted)
			rc = PH_EXIT_INTERRUPTED;
		goto out;
	}
	doc = goaround_doc(&a.g, s, plan.isa_auto ? plan.why[0] : "forced (--isa)");
	rc = study_render(s, doc, rc);
out:
	doc_free(doc);
	goaround_free(&a.g);
	bandwidth_study_free(&plan);
	free(a.turns);
	session_free(s);
	return rc;
}
