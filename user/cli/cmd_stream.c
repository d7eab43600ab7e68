// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_stream.c - "pagehop stream": STREAM's copy, scale, add and triad,
 * plus read and write, on verified memory, per ISA and store kind.  The
 * study is bandwidth.c's (bandwidth_study_*).
 */
#include "bandwidth.h"
#include "commands.h"
#include "study.h"
#include "common_opts.h"
#include "session.h"
#include "stream.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The command's own options; below OPT_SIZE, where the common ones start. */
enum {
	OPT_KERNEL = 1,
	OPT_ISA,
	OPT_NT,
	OPT_PER_THREAD,
	OPT_REPEATS,
};

static const struct ph_opt stream_opts[] = {
	{ "kernel", 0, "K[,K...]", OPT_KERNEL, "the kernels to run, in this order (listed below)",
	  NULL, "every kernel" },
	{ "isa", 0, "ISA", OPT_ISA,
	  "their instruction set (listed below); auto: per kernel\nand store kind, as 'pagehop list' shows", "auto", NULL },
	{ "nt", 0, NULL, OPT_NT,
	  "non-temporal stores (read stores nothing: it runs\nas it is)", NULL, NULL },
	{ "per-thread", 0, NULL, OPT_PER_THREAD,
	  "also each thread's own GB/s (its bytes over the\nrun's span), with its CPU and node: table threads", NULL, NULL },
	{ "repeats", 0, "N", OPT_REPEATS,
	  "measure every figure N times (1-20), each on memory\n"
	  "and threads of its own, sharing its --time: costs a\n"
	  "lay-out and read-back of the memory per repeat", "1", NULL },
	{ 0 },
};

static const struct ph_opt memory_opts[] = {
	{ "size", 0, "SIZE", OPT_SIZE,
	  "the arrays a kernel uses, all threads together\n(K, M, G, T suffixes)", "1G", NULL },
	PH_OPT_PAGE_SIZE("4k", NULL),
	PH_OPT_BACKEND,
	PH_OPT_MEMBIND,
	PH_OPT_INTERLEAVE,
	PH_OPT_RESERVE,
	PH_OPT_ALLOW_UNVERIFIED,
	{ 0 },
};

static const struct ph_opt thread_opts[] = {
	PH_OPT_CPUNODEBIND,
	PH_OPT_PHYSCPUBIND,
	PH_OPT_THREADS("one per core of those CPUs"),
	{ 0 },
};

static const struct ph_optgroup stream_groups[] = {
	{ "stream", stream_opts },
	{ "memory", memory_opts },
	{ "threads", thread_opts },
	PH_GROUP_STATISTICS("2", "1"),
	PH_GROUP_OUTPUT,
	{ 0 },
};

/* The kernels and the ISAs, from the loops' tables. */
static bool kernel_value(size_t i, const char **name, const char **desc)
{
	if (i >= stream_nops)
		return false;
	*name = stream_ops[i].name;
	*desc = stream_ops[i].desc;
	return true;
}

static bool isa_value(size_t i, const char **name, const char **desc)
{
	enum ph_isa isa = (enum ph_isa)(PH_ISA_SCALAR + i);

	if (isa > PH_ISA_AVX512)
		return false;
	*name = isa_name(isa);
	*desc = isa_desc(isa);
	return true;
}

static const struct ph_optvalues stream_values[] = {
	{ "kernels (--kernel)", kernel_value },
	{ "instruction sets (--isa)", isa_value },
	{ 0 },
};

const struct ph_cmdspec cmd_stream_spec = {
	.name = "stream",
	.synopsis = "[OPTIONS]",
	.about =
	"Memory bandwidth with STREAM's kernels on verified memory, all threads\n"
	"pinned and started together.  GB/s counts bytes as STREAM does (each\n"
	"element read or written once); bw_wa_GBps also counts the write-allocate\n"
	"read of every stored line (not for --nt).  Reports the median, the best,\n"
	"the 95% confidence interval of the median and the sample count; the\n"
	"arrays are checked afterwards.  With --repeats, the spread between the\n"
	"repeats' medians and whether they differ beyond their CIs (between_runs,\n"
	"bimodal).  'pagehop list' prints every variant and whether this CPU\n"
	"runs it.\n",
	.groups = stream_groups,
	.values = stream_values,
	.epilog = PH_USAGE_LISTS,
};

static int stream_option(void *args, struct ph_options *opt, const struct ph_opt *o, const char *arg)
{
	struct ph_bwstudy *st = args;
	unsigned repeats = 0;
	int rc;

	(void)opt;
	switch (o->id) {
	case OPT_KERNEL:
		return common_parse_kernels(arg, &st->names_given, &st->nnames_given);
	case OPT_ISA:
		return common_parse_isa(arg, &st->isa_given);
	case OPT_NT:
		st->nt_given = true;
		return 0;
	case OPT_PER_THREAD:
		st->per_thread = true;
		return 0;
	case OPT_REPEATS:
		rc = cli_parse_uint("--repeats", arg, 1, 20, &repeats);
		st->repeats = (int)repeats;
		return rc;
	}
	return -EINVAL;
}

/* The kernels' variants, before the machine is read. */
static int stream_kernels_check(void *args, struct ph_session *s)
{
	struct ph_bwstudy *st = args;
	const char *missing = NULL;
	int rc = bandwidth_study_plan(st, st->names_given, st->nnames_given, st->isa_given,
				      st->nt_given, &missing);

	(void)s;
	if (rc == -EOPNOTSUPP) {
		ph_err("--isa %s: this CPU (or the OS) does not support it; the widest here is %s",
		       isa_name(st->isa_given), isa_name(isa_best()));
		return PH_EXIT_UNSUPPORTED;
	}
	if (rc) {
		ph_err("--kernel %s: no %s variant%s", missing, isa_name(st->isa_given),
		       st->nt_given ? " with --nt" : "");
		return PH_EXIT_USAGE;
	}
	return 0;
}

const struct ph_study cmd_stream_study = {
	.spec = &cmd_stream_spec,
	.steps = &bandwidth_steps,
	.default_size = GiB,
	.option = stream_option,
	.check = stream_kernels_check,
};
