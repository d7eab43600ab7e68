// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_scale.c - "pagehop scale": bandwidth of one stream kernel against the
 * thread count, the threads placed compact, scatter, exclusive or shared,
 * a fixed size per thread.  The study is scale.c's.
 */
#include "bandwidth.h"
#include "commands.h"
#include "study.h"
#include "common_opts.h"
#include "scale.h"
#include "session.h"
#include "util.h"

#include <errno.h>
#include <numa.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The command's own options; below OPT_SIZE, where the common ones start. */
enum {
	OPT_COUNTS = 1,
	OPT_PER_THREAD,
	OPT_SINGLE,
};

static const struct ph_opt scale_opts[] = {
	PH_OPT_STUDY_KERNEL,
	{ "threads-list", 0, "N[,N...]", OPT_COUNTS,
	  "thread counts, ascending; a range A-B is every count\nfrom A to B", NULL,
	  "1 up to every CPU the placement can take" },
	PH_OPT_STUDY_PLACEMENT,
	{ "per-thread", 0, NULL, OPT_PER_THREAD,
	  "each thread's own GB/s per count: table threads", NULL, NULL },
	{ "single", 0, NULL, OPT_SINGLE,
	  "also run each thread of the largest count alone:\n"
	  "table single_multi (single, multi, their ratio)", NULL, NULL },
	{ 0 },
};

static const struct ph_opt memory_opts[] = {
	PH_OPT_STUDY_SIZE_PER_THREAD("the arrays of one thread"),
	PH_OPT_PAGE_SIZE("4k", NULL),
	PH_OPT_BACKEND,
	PH_OPT_MEMBIND,
	PH_OPT_INTERLEAVE,
	PH_OPT_RESERVE,
	PH_OPT_ALLOW_UNVERIFIED,
	{ 0 },
};

static const struct ph_opt thread_opts[] = {
	{ "cpunodebind", 0, "NODES", OPT_CPUNODEBIND,
	  "place the threads on the CPUs of these nodes", NULL, "every node with CPUs" },
	{ 0 },
};

static const struct ph_optgroup scale_groups[] = {
	{ "scale", scale_opts },
	{ "memory", memory_opts },
	{ "threads", thread_opts },
	PH_GROUP_STATISTICS("1", "1"),
	PH_GROUP_OUTPUT_PLOT,
	{ 0 },
};

static const struct ph_refusal scale_refused[] = {
	{ "size", "the studies fix the size per thread: give --size-per-thread" },
	{ "threads", "give the counts with --threads-list" },
	{ "physcpubind", "the CPUs come from --placement over --cpunodebind's nodes" },
	{ 0 },
};

const struct ph_cmdspec cmd_scale_spec = {
	.name = "scale",
	.synopsis = "[OPTIONS]",
	.about =
	"Bandwidth of one stream kernel against the thread count: per count the\n"
	"aggregate GB/s with its CI, GB/s per thread, the efficiency against the\n"
	"fewest threads, and over the counts the saturation knee.  The threads are\n"
	"placed by --placement over the CPUs of --cpunodebind's nodes; each reads\n"
	"back its CPU (sched_getcpu) and every row prints the CPUs, the cores,\n"
	"the cores shared by two threads and the packages they amount to, beside\n"
	"the node the memory was verified on.  Memory: each thread's own node,\n"
	"--membind's nearest node, or --interleave.\n",
	.groups = scale_groups,
	.epilog = PH_USAGE_LISTS,
	.refused = scale_refused,
};

static int scale_option(void *args, struct ph_options *opt, const struct ph_opt *o, const char *arg)
{
	struct ph_scale *sc = args;
	int h = common_study_option(&sc->c, o, arg);

	(void)opt;
	if (h <= 0)
		return h;
	switch (o->id) {
	case OPT_COUNTS:
		return cli_parse_ascending("--threads-list", arg, 1, 4096, "thread counts, e.g. 1,2,4 or 1-8",
					   &sc->counts_given, &sc->ncounts_given);
	case OPT_PER_THREAD:
		sc->per_thread = true;
		return 0;
	case OPT_SINGLE:
		sc->single = true;
		return 0;
	}
	return -EINVAL;
}

/* The kernel's variant, as pagehop stream chooses it. */
static int scale_check(void *args, struct ph_session *s)
{
	struct ph_scale *sc = args;
	int rc = common_one_kernel(&sc->kernel, &sc->c);

	(void)s;
	sc->place = sc->c.place;
	sc->size_per_thread = sc->c.size_per_thread;
	if (!rc)
		sc->k = sc->kernel.ks[0];
	return rc;
}

const struct ph_study cmd_scale_study = {
	.spec = &cmd_scale_spec,
	.steps = &scale_steps,
	.default_size = GiB,
	.flags = PH_STUDY_BINDS_ITSELF,
	.option = scale_option,
	.check = scale_check,
};
