// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_slit.c - "pagehop slit": compare a measured node matrix with the SLIT
 * and HMAT, and propose a SLIT.  The options and the study's declaration
 * here; its steps (read or measure, analyse, report) in slit_study.c, the
 * plan's checks in slit_plan.c, the arithmetic in distance.c, the readers
 * in read_*.c, the report in slit_report.c, the ACPI source in
 * slit_emit.c.  docs/slit.md explains the method.
 */
#include "acpi_hmat.h"
#include "acpi_slit.h"
#include "commands.h"
#include "common_opts.h"
#include "distance.h"
#include "matrix_save.h"
#include "read_text.h"
#include "session.h"
#include "slit_study.h"
#include "study.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A number as the text of a default ("15" for 15). */
#define STR_(x) #x
#define STR(x) STR_(x)

/* The command's own options; below OPT_SIZE, where the common ones start. */
enum {
	OPT_INPUT = 1,
	OPT_SLIT,
	OPT_METRIC,
	OPT_TOLERANCE,
	OPT_NOISE,
	OPT_EMIT_ACPI,
	OPT_OEM_ID,
	OPT_OEM_TABLE_ID,
	OPT_OEM_REVISION,
	OPT_SLIT_TABLE,
	OPT_SAVE,
	OPT_ORIENTATION,
	OPT_HMAT_TABLE,
	OPT_EMIT_HMAT,
	OPT_HWLOC,
	OPT_PROPOSAL,
	OPT_KERNEL_VERSION,
	OPT_THIS_KERNEL,
};

static const struct ph_opt input_opts[] = {
	{ "input", 'i', "FILE", OPT_INPUT,
	  "the measured matrix: pagehop's JSON (pagehop matrix\n"
	  "--format json) or CSV: '# pagehop matrix', '# metric:\n"
	  "latency_ns|bandwidth_GBps|distance', 'node,<ids>',\n"
	  "one row per CPU node; or a table as published:\n"
	  "tab-separated, 'MEM CPU' in its corner, one row per\n"
	  "memory node (bandwidth in GB/s)", NULL, "measure this machine" },
	{ "orientation", 0, "cpu-rows|mem-rows", OPT_ORIENTATION,
	  "what the input's rows are, for a CSV that does not\n"
	  "say it with '# orientation: cpu-rows|mem-rows'\n"
	  "or '# rows: cpu node|memory node' (one that does\n"
	  "must agree)",
	  NULL, "as the input says, else cpu-rows" },
	{ "slit", 's', "FILE", OPT_SLIT,
	  "the SLIT: numactl --hardware output as is.  One\n"
	  "Linux would ignore (diagonal not 10, or another entry\n"
	  "10 or less) is not compared: Linux's 10 local, 20\n"
	  "remote are, and the verdict says why (slit_linux)",
	  NULL, "the distances recorded with the input" },
	{ "hmat-table", 0, "FILE", OPT_HMAT_TABLE,
	  "a binary ACPI HMAT (a copy of\n"
	  "/sys/firmware/acpi/tables/HMAT): every entry against\n"
	  "the measurement and the SLIT, and Linux's 10% rule\n"
	  "for memory tiering (docs/slit.md, section 12)",
	  NULL, "this machine's when measuring it, else none" },
	{ 0 },
};

static const struct ph_opt analysis_opts[] = {
	{ "metric", 'm', "WHICH", OPT_METRIC,
	  "latency, bandwidth, read, triad or distance: the\n"
	  "figure of the input to analyse (distance: a CSV\n"
	  "--input already normalised)", NULL, "latency, else read, else triad" },
	{ "tolerance", 't', "PCT", OPT_TOLERANCE,
	  "magnitude tolerance against the SLIT, and SLIT\n"
	  "values this close form one level", STR(PH_DEFAULT_TOLERANCE_PCT), NULL },
	{ "noise", 'n', "PCT", OPT_NOISE,
	  "uncertainty assumed for each measured value where\n"
	  "its CI is narrower or absent", STR(PH_DEFAULT_NOISE_PCT), NULL },
	{ "proposal", 0, "levels|cells", OPT_PROPOSAL,
	  "the proposed SLIT printed and emitted: one value per\n"
	  "measured level (its pooled distance, rounded;\n"
	  "symmetric unless a pair is asymmetric beyond the\n"
	  "CIs), or every cell's own distance rounded (the JSON\n"
	  "holds both)", "levels", NULL },
	{ "kernel-version", 0, "RELEASE", OPT_KERNEL_VERSION,
	  "the measured machine's kernel (uname -r there, e.g.\n"
	  "6.12.117+deb12-amd64): its rules for the memory\n"
	  "tiers and weighted interleave; no sysfs is read",
	  NULL, "this machine's when the input was measured here, else unknown" },
	{ "this-kernel", 0, NULL, OPT_THIS_KERNEL,
	  "judge an input measured elsewhere, or of unknown\n"
	  "origin, by this machine's running kernel and its\n"
	  "weighted-interleave sysfs", NULL, NULL },
	{ 0 },
};

static const struct ph_opt acpi_opts[] = {
	{ "emit-acpi", 'e', "FILE", OPT_EMIT_ACPI,
	  "write the proposed SLIT as iasl source (iasl FILE)", NULL, NULL },
	{ "emit-hmat", 0, "FILE", OPT_EMIT_HMAT,
	  "write the proposed HMAT as iasl source: access\n"
	  "latency and bandwidth of every measured pair, the\n"
	  "firmware's domains and caches kept (--hmat-table\n"
	  "or this machine's HMAT gives them and the IDs)", NULL, NULL },
	{ "oem-id", 0, "ID", OPT_OEM_ID, "their OEM ID", NULL,
	  "the firmware table's; for another machine's --input, its provenance.acpi's, else " PH_ACPI_NEUTRAL_OEM_ID },
	{ "oem-table-id", 0, "ID", OPT_OEM_TABLE_ID, "their OEM table ID", NULL,
	  "the firmware table's; for another machine's --input, its provenance.acpi's, else " PH_ACPI_NEUTRAL_OEM_TABLE_ID },
	{ "oem-revision", 0, "N", OPT_OEM_REVISION, "their OEM revision", NULL,
	  "the firmware table's plus one; for another machine's --input, its provenance.acpi's plus one, else 1" },
	{ "slit-table", 0, "FILE", OPT_SLIT_TABLE, "the binary SLIT to take the SLIT's from",
	  NULL, PH_ACPI_SLIT_PATH },
	{ 0 },
};

/* Measuring options: refused with --input, and named in that message in this order. */
static const struct ph_opt measure_opts[] = {
	{ "save", 0, "FILE", OPT_SAVE,
	  "keep the measurement (pagehop's JSON) in FILE,\n"
	  "written after every cell (atomically)", NULL, NULL },
	PH_OPT_TIME("2"),
	PH_OPT_CI("1"),
	PH_OPT_SIZE("1G"),
	PH_OPT_PAGE_SIZE(NULL, "the largest every memory node can give"),
	PH_OPT_BACKEND,
	PH_OPT_THREADS("one per core of the row, for bandwidth"),
	PH_OPT_RESERVE,
	PH_OPT_ALLOW_UNVERIFIED,
	{ 0 },
};

static const struct ph_opt out_opts[] = {
	PH_OPT_FORMAT,
	{ "hwloc", 0, "FILE", OPT_HWLOC,
	  "write the topology as hwloc XML with the measured\n"
	  "latency and read bandwidth as user distances\n"
	  "pagehopLatency (ps) and pagehopBandwidth (MB/s,\n"
	  "lstopo --input FILE --distances) and as memory\n"
	  "attributes Latency (ns) and Bandwidth (MiB/s,\n"
	  "lstopo --memattrs); for --input, a synthetic\n"
	  "topology of its nodes", NULL, NULL },
	{ 0 },
};

static const struct ph_optgroup slit_groups[] = {
	{ "input", input_opts },
	{ "analysis", analysis_opts },
	{ "ACPI output", acpi_opts },
	{ "measuring (without --input)", measure_opts },
	{ "output", out_opts },
	{ 0 },
};

#define SLIT_SOME_PAIRS \
	"slit measures every node pair; for some rows or columns, run pagehop matrix with --cpunodebind or --membind and --save FILE, then pagehop slit --input FILE"
#define SLIT_EACH_PAIR \
	"slit measures every node pair, each on the row's CPUs and the column's memory"

static const struct ph_refusal slit_refused[] = {
	{ "cpunodebind", SLIT_SOME_PAIRS },
	{ "membind", SLIT_SOME_PAIRS },
	{ "physcpubind", SLIT_EACH_PAIR },
	{ "interleave", SLIT_EACH_PAIR },
	{ 0 },
};

const struct ph_cmdspec cmd_slit_spec = {
	.name = "slit",
	.synopsis = "[--input FILE] [OPTIONS]",
	.about =
	"Compare a measured NUMA matrix (rows: CPU node, columns: memory node) with\n"
	"the firmware's SLIT and HMAT: distance levels, ordering, magnitude,\n"
	"asymmetry, a per-hop model, and a proposed SLIT.  Method: docs/slit.md.\n"
	"Without --input, measures this machine first, as 'pagehop matrix' does\n"
	"(latency and read bandwidth; on one node there is nothing to compare).\n",
	.groups = slit_groups,
	.epilog =
	"--input and --slit may be - for standard input (not both); any other FILE\n"
	"must be a regular text file of at most " STR(PH_INPUT_MAX_MIB) " MiB (pagehop(1)).\n"
	"The exit status is the verdict, 0 consistent (or nothing to compare),\n"
	"1 inconsistent, 3 in order but outside the tolerance, 5 cannot tell (a\n"
	"cell with fewer than 6 samples or its CI target missed), unless\n"
	"something failed: 'pagehop help' lists every code.  On one node an\n"
	"output file asked for (--save, --emit-*, --hwloc) is not written: exit 4.\n"
	"An --input is this machine's only when its provenance names this host;\n"
	"one naming another host, or none (a CSV, a published table), gets nothing\n"
	"of this machine's kernel or sysfs unless --this-kernel asks for it\n"
	"(section origin says which rule decided).\n",
	.refused = slit_refused,
};

/* What the options say, and the run of the study. */
struct slit_args {
	struct ph_slit_plan plan;
	bool measuring;		/* a measuring option was given */
	struct ph_mx_save saver;	/* --save, cell by cell */
	struct ph_slit_study *run;
};

static bool is_measuring(const struct ph_opt *o)
{
	for (const struct ph_opt *m = measure_opts; m->name; m++)
		if (m == o)
			return true;
	return false;
}

/* The files written: --emit-acpi, --emit-hmat and their IDs, --save, --hwloc. */
static int output_option(struct ph_slit_plan *p, const struct ph_opt *o, const char *arg)
{
	switch (o->id) {
	case OPT_EMIT_ACPI:
		p->acpi.path = arg;
		return 0;
	case OPT_OEM_ID:
		return cli_parse_acpi_id("--oem-id", arg, 6, &p->acpi.oem_id);
	case OPT_OEM_TABLE_ID:
		return cli_parse_acpi_id("--oem-table-id", arg, 8, &p->acpi.oem_table_id);
	case OPT_OEM_REVISION:
		p->acpi.have_rev = true;
		return cli_parse_u32("--oem-revision", arg, &p->acpi.rev);
	case OPT_SLIT_TABLE:
		p->acpi.table = arg;
		p->acpi.table_given = true;
		return 0;
	case OPT_SAVE:
		p->save = arg;
		return 0;
	case OPT_HMAT_TABLE:
		p->hmat_table = arg;
		p->hmat_acpi.table = arg;
		p->hmat_acpi.table_given = true;
		return 0;
	case OPT_EMIT_HMAT:
		p->hmat_acpi.path = arg;
		return 0;
	case OPT_HWLOC:
		p->hwloc = arg;
		return 0;
	}
	return -EINVAL;
}

/* Sees the common options too (PH_STUDY_SEES_COMMON): whether a measuring one was given. */
static int slit_option(void *args, struct ph_options *opt, const struct ph_opt *o, const char *arg)
{
	struct slit_args *a = args;
	struct ph_slit_plan *p = &a->plan;
	double pct;

	(void)opt;
	/* opts_parse applies a default by passing the declaration's own string. */
	a->measuring |= is_measuring(o) && (!o->def || arg != o->def);
	if (o->id >= OPT_SIZE && o->id < OPT_COMMON_END)
		return 0;	/* applied by the driver */
	switch (o->id) {
	case OPT_INPUT:
		p->input = arg;
		return 0;
	case OPT_SLIT:
		p->slit = arg;
		return 0;
	case OPT_ORIENTATION:
		if (orient_parse(arg, &p->orient)) {
			ph_err("--orientation: unknown orientation '%s'; expected cpu-rows or mem-rows", arg);
			return -EINVAL;
		}
		return 0;
	case OPT_METRIC:
		if (figure_parse(arg, &p->fig)) {
			ph_err("--metric: unknown figure '%s'; expected latency, bandwidth, read, triad or distance",
			       arg);
			return -EINVAL;
		}
		return 0;
	case OPT_TOLERANCE:
		if (cli_parse_double("--tolerance", arg, 0, 1000, &pct))
			return -EINVAL;
		p->opts.tolerance = pct / 100;
		return 0;
	case OPT_NOISE:
		if (cli_parse_double("--noise", arg, 0, 50, &pct))
			return -EINVAL;
		p->opts.noise = pct / 100;
		return 0;
	case OPT_PROPOSAL:
		if (!strcmp(arg, "levels")) {
			p->opts.proposal = PH_PROPOSE_LEVELS;
		} else if (!strcmp(arg, "cells")) {
			p->opts.proposal = PH_PROPOSE_CELLS;
		} else {
			ph_err("--proposal: unknown proposal '%s'; expected levels or cells", arg);
			return -EINVAL;
		}
		return 0;
	case OPT_KERNEL_VERSION:
		if (!*arg || strlen(arg) > 200 || strspn(arg, "0123456789") == 0) {
			ph_err("--kernel-version: '%s'; expected a kernel release as uname -r prints it (e.g. 6.12.117+deb12-amd64)", arg);
			return -EINVAL;
		}
		p->kernel_version = arg;
		return 0;
	case OPT_THIS_KERNEL:
		p->this_kernel = true;
		return 0;
	}
	return output_option(p, o, arg);
}

/* "--save, --time, ..., --reserve and --allow-unverified", from the declaration. */
static char *measuring_list(void)
{
	char *list = xstrdup(""), *next;
	int n = 0, i = 0;

	while (measure_opts[n].name)
		n++;
	for (const struct ph_opt *o = measure_opts; o->name; o++, i++) {
		next = xasprintf("%s%s--%s", list, !i ? "" : i == n - 1 ? " and " : ", ", o->name);
		free(list);
		list = next;
	}
	return list;
}

static void slit_args_init(void *args, struct ph_options *opt)
{
	struct slit_args *a = args;

	(void)opt;
	a->plan.acpi.table = PH_ACPI_SLIT_PATH;
	a->plan.hmat_acpi.table = PH_ACPI_HMAT_PATH;
}

/* The plan's checks (slit_plan.c), then the output files, before anything is read or measured. */
static int slit_check(void *args, struct ph_session *s)
{
	const struct slit_args *a = args;
	const struct ph_slit_plan *p = &a->plan;
	char *list = a->measuring ? measuring_list() : NULL;
	int rc = slit_plan_check(p, list);

	(void)s;
	free(list);
	if (rc)
		return rc;
	if ((p->save && cli_check_output("--save", p->save)) ||
	    (p->acpi.path && cli_check_output("--emit-acpi", p->acpi.path)) ||
	    (p->hmat_acpi.path && cli_check_output("--emit-hmat", p->hmat_acpi.path)) ||
	    (p->hwloc && cli_check_output("--hwloc", p->hwloc)))
		return PH_EXIT_USAGE;
	return 0;
}

/* An --input is read offline: nothing of this machine is read or mixed in. */
static bool slit_needs_machine(const void *args)
{
	return !((const struct slit_args *)args)->plan.input;
}

static int slit_plan(void *args, struct ph_session *s)
{
	struct slit_args *a = args;

	a->saver = (struct ph_mx_save){ .path = a->plan.save, .s = s };
	a->run = slit_study_new(&a->plan, a->plan.save ? matrix_save_cell : NULL, &a->saver);
	return slit_study_plan(a->run, s);
}

static int slit_measure(void *args, struct ph_session *s)
{
	return slit_study_measure(((struct slit_args *)args)->run, s);
}

static bool slit_reported(const void *args)
{
	return slit_study_reported(((const struct slit_args *)args)->run);
}

/* The verdict is the exit status (*rc): 0, 1 inconsistent, 3 outside the tolerance, 5 cannot tell. */
static struct ph_doc *slit_document(void *args, struct ph_session *s, int *rc)
{
	(void)s;
	return slit_study_document(((struct slit_args *)args)->run, rc);
}

static void slit_args_free(void *args, struct ph_session *s)
{
	(void)s;
	slit_study_free(((struct slit_args *)args)->run);
}

/*
 * The report says what its verdict rests on; a measurement cut short by a
 * signal is no report.  A kernel without NUMA is one node: nothing to
 * compare.
 */
/* The engine's steps (slit_study.h) on the plan the options made. */
static const struct ph_steps slit_steps = {
	.size = sizeof(struct slit_args),
	.plan = slit_plan,
	.measure = slit_measure,
	.measured = slit_reported,
	.document = slit_document,
	.free = slit_args_free,
};

const struct ph_study cmd_slit_study = {
	.spec = &cmd_slit_spec,
	.steps = &slit_steps,
	.default_size = GiB,
	.flags = PH_STUDY_OWN_NOTES | PH_STUDY_NUMA_OPTIONAL | PH_STUDY_SEES_COMMON,
	.init = slit_args_init,
	.option = slit_option,
	.check = slit_check,
	.needs_machine = slit_needs_machine,
};
