// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_locks.c - "pagehop locks": what acquiring and releasing a lock costs
 * against the number of threads contending for it, per lock kind, the
 * lock on a verified page of the node asked.  The study is locks.c's.
 */
#include "commands.h"
#include "study.h"
#include "common_opts.h"
#include "locks.h"
#include "util.h"

#include <errno.h>
#include <numa.h>

enum { OPT_KINDS = 1, OPT_THREAD_COUNTS, OPT_CPUS, OPT_DELAY };

static const struct ph_opt locks_opts[] = {
	{ "kinds", 0, "K[,K...]", OPT_KINDS, "lock kinds, in this order (listed below)", NULL,
	  "every kind this build has" },
	{ "threads", 0, "N[,N...]", OPT_THREAD_COUNTS, "thread counts, each a figure", NULL,
	  "1, 2, 4, ... and the number of --cpus" },
	{ "cpus", 0, "CPUS", OPT_CPUS, "N threads run on the first N of these", NULL,
	  "every CPU this process may run on" },
	{ "delay", 0, "N", OPT_DELAY,
	  "work inside the lock: N dependent adds (EPCC's\ndelay), the same in the loop without it", "100",
	  NULL },
	{ 0 },
};

static const struct ph_opt memory_opts[] = {
	{ "membind", 0, "NODE", OPT_MEMBIND, "the lock's page on this node", NULL,
	  "the first CPU's node" },
	PH_OPT_PAGE_SIZE("4k", NULL),
	PH_OPT_BACKEND,
	PH_OPT_ALLOW_UNVERIFIED,
	{ 0 },
};

static const struct ph_optgroup locks_groups[] = {
	{ "locks", locks_opts },
	{ "memory", memory_opts },
	PH_GROUP_STATISTICS("0.5", "1"),
	PH_GROUP_OUTPUT_PLOT,
	{ 0 },
};

static const struct ph_refusal locks_refused[] = {
	{ "physcpubind", "threads run on the first N of --cpus" },
	{ "cpunodebind", "threads run on the first N of --cpus" },
	{ "interleave", "the lock is one word, on the one node --membind names" },
	{ "size", "the lock is one word, on a page of its own" },
	{ 0 },
};

static bool kind_value(size_t i, const char **name, const char **desc)
{
	if (i >= lock_nkinds)
		return false;
	*name = lock_kinds[i].name;
	*desc = lock_kinds[i].desc;
	return true;
}

static const struct ph_optvalues locks_values[] = {
	{ "lock kinds (--kinds)", kind_value },
	{ 0 },
};

const struct ph_cmdspec cmd_locks_spec = {
	.name = "locks",
	.synopsis = "[OPTIONS]",
	.about =
	"Lock overhead against thread count, EPCC syncbench's way: N threads take\n"
	"one lock in turn (acquire, a short delay, release), and the time of that\n"
	"loop minus the time of the same loop without the lock, per acquisition,\n"
	"is the overhead.  The lock is on a page of its own, verified on the node\n"
	"--membind names.  --time is per figure (kind x thread count).\n",
	.groups = locks_groups,
	.values = locks_values,
	.epilog = PH_USAGE_LISTS,
	.refused = locks_refused,
};

static int locks_option(void *args, struct ph_options *opt, const struct ph_opt *o, const char *arg)
{
	struct ph_locks *l = args;

	(void)opt;
	switch (o->id) {
	case OPT_KINDS:
		l->kinds_given = arg;
		return cli_check_list("--kinds", arg, "lock kinds separated by commas, e.g. tas,mutex");
	case OPT_THREAD_COUNTS:
		l->threads_given = arg;
		return cli_check_list("--threads", arg, "thread counts separated by commas, e.g. 1,2,4");
	case OPT_CPUS:
		if (l->cpus_given)
			numa_bitmask_free(l->cpus_given);
		l->cpus_given = NULL;
		return cli_parse_cpus("--cpus", arg, &l->cpus_given);
	case OPT_DELAY:
		return cli_parse_uint("--delay", arg, 0, 1000000, &l->delay);
	}
	return -EINVAL;
}

const struct ph_study cmd_locks_study = {
	.spec = &cmd_locks_spec,
	.steps = &locks_steps,
	.option = locks_option,
};
