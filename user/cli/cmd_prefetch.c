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

static const struct ph_optgroup prefetch_groups[] = {
	{ "prefetch", prefetch_opts },
	{ "memory", memory_opts },
	{ "threads", thread_opts },
	PH_GROUP_STATISTICS("2", "1"),
	PH_GROUP_OUTPUT_PLOT,
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

static int prefetch_option(void *args, struct ph_options *opt, const struct ph_opt *o, const char *arg)
{
	struct pfstudy_plan *p = &((struct ph_pfstudy *)args)->plan;

	(void)opt;
	switch (o->id) {
	case OPT_PATTERNS:
		/* Read once the seed is known, which may come after. */
		p->patterns_given = arg;
		return 0;
	case OPT_NO_CONTROL:
		p->no_control = true;
		return 0;
	case OPT_SEED:
		return cli_parse_u64("--seed", arg, &p->seed);
	}
	return -EINVAL;
}

/* What the options say together, checked before anything is measured. */
static int prefetch_check(void *args, struct ph_session *s)
{
	struct pfstudy_plan *p = &((struct ph_pfstudy *)args)->plan;

	if (cli_check_list("--patterns", p->patterns_given, "patterns separated by commas, e.g. random,seq") ||
	    latency_parse_patterns("--patterns", p->patterns_given, p->seed, &p->specs, &p->nspecs))
		return PH_EXIT_USAGE;
	if (s->opt->bind.physcpubind && numa_bitmask_weight(s->opt->bind.physcpubind) != 1) {
		ph_err("--physcpubind: the study runs on one CPU; give one");
		return PH_EXIT_USAGE;
	}
	return 0;
}

const struct ph_study cmd_prefetch_study = {
	.spec = &cmd_prefetch_spec,
	.default_size = GiB,
	.steps = &pfstudy_steps,
	.option = prefetch_option,
	.check = prefetch_check,
};
