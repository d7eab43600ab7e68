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

static const struct ph_opt stat_opts[] = { PH_OPT_TIME("0.5"), PH_OPT_CI("1"), { 0 } };
static const struct ph_opt out_opts[] = { PH_OPT_FORMAT, PH_OPT_PLOT, PH_OPT_PROGRESS, { 0 } };

static const struct ph_optgroup locks_groups[] = {
	{ "locks", locks_opts },
	{ "memory", memory_opts },
	{ "statistics", stat_opts },
	{ "output", out_opts },
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

struct locks_args {
	struct ph_locks l;
	const char *kinds, *threads;
	struct bitmask *cpus;
};

static int locks_option(void *args, struct ph_session *s, const struct ph_opt *o, const char *arg)
{
	struct locks_args *a = args;

	(void)s;
	switch (o->id) {
	case OPT_KINDS:
		a->kinds = arg;
		return cli_check_list("--kinds", arg, "lock kinds separated by commas, e.g. tas,mutex");
	case OPT_THREAD_COUNTS:
		a->threads = arg;
		return cli_check_list("--threads", arg, "thread counts separated by commas, e.g. 1,2,4");
	case OPT_CPUS:
		if (a->cpus)
			numa_bitmask_free(a->cpus);
		a->cpus = NULL;
		return cli_parse_cpus("--cpus", arg, &a->cpus);
	case OPT_DELAY:
		return cli_parse_uint("--delay", arg, 0, 1000000, &a->l.delay);
	}
	return -EINVAL;
}

static int locks_study_plan(void *args, struct ph_session *s)
{
	struct locks_args *a = args;
	int rc = locks_plan(&a->l, s, a->kinds, a->threads, a->cpus);

	return rc ? rc : locks_start(&a->l, s);
}

static int locks_study_measure(void *args, struct ph_session *s)
{
	return locks_measure(&((struct locks_args *)args)->l, s);
}

static bool locks_measured(const void *args)
{
	return ((const struct locks_args *)args)->l.nfigs > 0;
}

static struct ph_doc *locks_document(void *args, struct ph_session *s, int *rc)
{
	(void)rc;
	return locks_doc(&((struct locks_args *)args)->l, s);
}

static void locks_study_free(void *args, struct ph_session *s)
{
	struct locks_args *a = args;

	locks_free(&a->l, s);
	if (a->cpus)
		numa_bitmask_free(a->cpus);
}

const struct ph_study cmd_locks_study = {
	.spec = &cmd_locks_spec,
	.args_size = sizeof(struct locks_args),
	.option = locks_option,
	.plan = locks_study_plan,
	.measure = locks_study_measure,
	.measured = locks_measured,
	.document = locks_document,
	.free = locks_study_free,
};
