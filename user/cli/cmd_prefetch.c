// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_prefetch.c - "pagehop prefetch": what hardware and software
 * prefetching do.  The options, and the flow of the prefetch study
 * (pfstudy.c).
 */
#include "commands.h"
#include "study.h"
#include "common_opts.h"
#include "latency.h"
#include "pfstudy.h"
#include "session.h"
#include "swpf.h"
#include "util.h"

#include <errno.h>
#include <numa.h>
#include <stdio.h>
#include <stdlib.h>

/* The command's own options; below OPT_SIZE, where the common ones start. */
enum {
	OPT_PATTERNS = 1,
	OPT_NO_CONTROL,
	OPT_SEED,
};

#define STR_(x) #x
#define STR(x) STR_(x)

static const struct ph_opt prefetch_opts[] = {
	{ "patterns", 0, "LIST", OPT_PATTERNS, "chase patterns, as pagehop chase takes them",
	  "seq,stride:128,stride:256,stride:512,stride:1K,stride:2K,stride:4K,random", NULL },
	{ "no-control", 0, NULL, OPT_NO_CONTROL, "do not touch the prefetchers even where possible",
	  NULL, NULL },
	{ "seed", 0, "N", OPT_SEED, "chain seed", "1", NULL },
	{ 0 },
};

static const struct ph_opt memory_opts[] = {
	PH_OPT_SIZE("1G"),
	PH_OPT_PAGE_SIZE("4k", NULL),
	PH_OPT_BACKEND,
	PH_OPT_MEMBIND,
	PH_OPT_RESERVE,
	PH_OPT_ALLOW_UNVERIFIED,
	{ 0 },
};

static const struct ph_opt thread_opts[] = {
	{ "physcpubind", 0, "CPU", OPT_PHYSCPUBIND, "the CPU that measures, one thread", NULL,
	  "the first CPU this process may use" },
	{ 0 },
};

static const struct ph_opt stat_opts[] = { PH_OPT_TIME("2"), PH_OPT_CI("1"), { 0 } };
static const struct ph_opt out_opts[] = { PH_OPT_FORMAT, PH_OPT_PLOT, PH_OPT_PROGRESS, { 0 } };

static const struct ph_optgroup prefetch_groups[] = {
	{ "prefetch", prefetch_opts },
	{ "memory", memory_opts },
	{ "threads", thread_opts },
	{ "statistics", stat_opts },
	{ "output", out_opts },
	{ 0 },
};

#define ONE_THREAD "the study runs one thread; choose it with --physcpubind CPU"

static const struct ph_refusal prefetch_refused[] = {
	{ "threads", ONE_THREAD },
	{ "interleave", ONE_THREAD },
	{ "cpunodebind", ONE_THREAD },
	{ 0 },
};

const struct ph_cmdspec cmd_prefetch_spec = {
	.name = "prefetch",
	.synopsis = "[OPTIONS]",
	.about =
	"What hardware prefetching does, at a working set well beyond the LLC:\n"
	"latency per access pattern (sequential, strided, random) and read\n"
	"bandwidth with and without software prefetch (prefetcht0 " STR(SWPF_DISTANCE) " bytes ahead),\n"
	"both reads the one loop at the ISA every command's read runs (the automatic\n"
	"choice 'pagehop list' prints as stream_auto).  Every ratio (random over\n"
	"sequential latency, the software prefetch's gain, and with control each\n"
	"state against as found) has a 95% bootstrap CI; one whose CI holds 1 is\n"
	"\"no effect shown\".  Random over sequential latency holds more than the\n"
	"prefetchers (TLB and DRAM row misses too): their own share needs them\n"
	"switched off.  With pagehop.ko on a CPU that allows it (Intel MSR 0x1a4,\n"
	"AMD Zen 4+ MSR 0xc0000108), every figure is measured with the prefetchers\n"
	"as found, with each one off in turn, and with all off; the original state\n"
	"is restored afterwards, also on Ctrl-C or a crash (the module restores it\n"
	"when its fd is closed).\n",
	.groups = prefetch_groups,
	.epilog = "NODES are lists as numactl takes them: 0,2-3, all, !1; CPU is one CPU.\n",
	.refused = prefetch_refused,
};

/* What the options say, before the session is set up. */
struct prefetch_args {
	struct ph_pfstudy st;
	const char *patterns;
	uint64_t seed;
};

static int prefetch_option(void *args, struct ph_session *s, const struct ph_opt *o, const char *arg)
{
	struct prefetch_args *a = args;

	(void)s;
	switch (o->id) {
	case OPT_PATTERNS:
		/* Read once the seed is known, which may come after. */
		a->patterns = arg;
		return 0;
	case OPT_NO_CONTROL:
		a->st.plan.no_control = true;
		return 0;
	case OPT_SEED:
		return cli_parse_u64("--seed", arg, &a->seed);
	}
	return -EINVAL;
}

/* What the options say together, checked before anything is measured. */
static int prefetch_check(void *args, struct ph_session *s)
{
	struct prefetch_args *a = args;
	struct pfstudy_plan *p = &a->st.plan;

	if (cli_check_list("--patterns", a->patterns, "patterns separated by commas, e.g. random,seq") ||
	    latency_parse_patterns("--patterns", a->patterns, a->seed, &p->specs, &p->nspecs))
		return PH_EXIT_USAGE;
	if (s->bind.physcpubind && numa_bitmask_weight(s->bind.physcpubind) != 1) {
		ph_err("--physcpubind: the study runs on one CPU; give one");
		return PH_EXIT_USAGE;
	}
	return 0;
}

/* One thread (--threads is refused), its memory laid out and verified. */
static int prefetch_plan(void *args, struct ph_session *s)
{
	int rc = session_start(s, 1);

	return rc ? rc : pfstudy_plan(&((struct prefetch_args *)args)->st, s);
}

static int prefetch_measure(void *args, struct ph_session *s)
{
	return pfstudy_measure(&((struct prefetch_args *)args)->st, s);
}

static struct ph_doc *prefetch_document(void *args, struct ph_session *s, int *rc)
{
	/* Before the memory is read back again: the rows say where it was measured. */
	struct ph_doc *doc = pfstudy_doc(&((struct prefetch_args *)args)->st, s);

	if (!session_still_verified(s) && !*rc)
		*rc = PH_EXIT_FAIL;
	session_buffers_table(s, doc);
	return doc;
}

static void prefetch_free(void *args, struct ph_session *s)
{
	(void)s;
	pfstudy_free(&((struct prefetch_args *)args)->st);
}

const struct ph_study cmd_prefetch_study = {
	.spec = &cmd_prefetch_spec,
	.default_size = GiB,
	.args_size = sizeof(struct prefetch_args),
	.option = prefetch_option,
	.check = prefetch_check,
	.plan = prefetch_plan,
	.measure = prefetch_measure,
	.document = prefetch_document,
	.free = prefetch_free,
};
