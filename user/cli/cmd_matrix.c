// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_matrix.c - "pagehop matrix": idle latency and read/triad bandwidth
 * for every CPU node x memory node pair (or socket groups), with the
 * normalised distance matrices to set beside the SLIT.
 */
#include "commands.h"
#include "study.h"
#include "common_opts.h"
#include "matrix.h"
#include "matrix_doc.h"
#include "matrix_save.h"
#include "session.h"
#include "util.h"

#include <errno.h>
#include <numa.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The command's own options; below OPT_SIZE, where the common ones start. */
enum {
	OPT_FIGURES = 1,
	OPT_GROUPS,
	OPT_PATTERN,
	OPT_SAVE,
	OPT_LAT_SIZE,
	OPT_BW_SIZE,
	OPT_ORIENTATION,
	OPT_PLACEMENT,
};

static const struct ph_opt matrix_opts[] = {
	{ "figures", 0, "F[,F...]", OPT_FIGURES, "latency, read, triad", "latency,read,triad", NULL },
	{ "groups", 0, "G,G...", OPT_GROUPS,
	  "aggregate nodes into groups (sockets), each a node\n"
	  "or a range: 0-1,2-3; threads run on all CPUs of\n"
	  "the row's group, memory on the column's group.\n"
	  "Or one group with its CPUs chosen, repeated per\n"
	  "group: --groups 'cpus=0,2,4,6;mem=0-1' --groups\n"
	  "'cpus=8,10,12,14;mem=2-3': the row runs a thread on\n"
	  "each CPU given (--threads: the first N), memory on\n"
	  "the group's nodes", NULL, "one group per node" },
	{ "cpunodebind", 0, "NODES", OPT_CPUNODEBIND, "only these rows", NULL, "every node with CPUs" },
	{ "membind", 0, "NODES", OPT_MEMBIND, "only these columns", NULL, "every node with memory" },
	{ "pattern", 0, "P", OPT_PATTERN, "latency pattern, as pagehop chase takes it", "random", NULL },
	{ "lat-size", 0, "SIZE", OPT_LAT_SIZE, "latency working set", NULL, "--size" },
	{ "bw-size", 0, "SIZE", OPT_BW_SIZE, "bandwidth working set", NULL, "--size" },
	{ "orientation", 0, "cpu-rows|mem-rows", OPT_ORIENTATION,
	  "print the matrices with rows = CPU node, or rows =\n"
	  "memory node as published tables do (table and CSV;\n"
	  "JSON keeps CPU rows, as slit --input reads it)", "cpu-rows", NULL },
	{ "save", 0, "FILE", OPT_SAVE,
	  "write the JSON to FILE after every cell (atomically),\n"
	  "so an interrupted run keeps what it measured", NULL, NULL },
	PH_OPT_PERCENTILES,
	PH_OPT_HISTOGRAM,
	{ 0 },
};

static const struct ph_opt memory_opts[] = {
	PH_OPT_SIZE("1G"),
	PH_OPT_PAGE_SIZE(NULL, "the largest every memory node can give"),
	PH_OPT_BACKEND,
	PH_OPT_RESERVE,
	PH_OPT_ALLOW_UNVERIFIED,
	{ 0 },
};

static const struct ph_opt thread_opts[] = {
	PH_OPT_THREADS("one per core of the row, for bandwidth"),
	{ "placement", 0, "P", OPT_PLACEMENT,
	  "which CPUs of each row's nodes run the --threads\n"
	  "(default: as many as P can place there), as pagehop\n"
	  "scale places them: compact: in order; scatter: round\n"
	  "robin over the row's nodes, spread over each node's\n"
	  "cores (4 of 8: every other core); exclusive: one per\n"
	  "core; shared: SMT siblings of a core first", NULL,
	  "one per core of the row, distinct cores first" },
	{ 0 },
};

static const struct ph_optgroup matrix_groups[] = {
	{ "matrix", matrix_opts },
	{ "memory", memory_opts },
	{ "threads", thread_opts },
	PH_GROUP_STATISTICS("2", "1"),
	PH_GROUP_OUTPUT_PLOT,
	{ 0 },
};

static const struct ph_refusal matrix_refused[] = {
	{ "physcpubind", "the matrix measures every node pair; choose rows with --cpunodebind and columns with --membind" },
	{ "interleave", "the matrix measures every node pair; choose rows with --cpunodebind and columns with --membind" },
	{ 0 },
};

const struct ph_cmdspec cmd_matrix_spec = {
	.name = "matrix",
	.synopsis = "[OPTIONS]",
	.about =
	"For every CPU node (row) and memory node (column): the idle latency (one\n"
	"thread on the row's first CPU, a random pointer chase) and the read and\n"
	"triad bandwidth (one thread per core of the row's CPUs), each cell on\n"
	"memory of its own, verified on the column's node.  Memory-only nodes get\n"
	"a column and no row; CPU-only nodes a row.  Prints each figure as a\n"
	"matrix in numactl's layout, the distances normalised to local = 10 (from\n"
	"latency: 10 L[c][m]/L[c][local]; from bandwidth: 10 B[c][local]/B[c][m]),\n"
	"every cell's median, CI and sample count, and the machine's SLIT and HMAT.\n"
	"'pagehop slit --input' reads the JSON back.\n",
	.groups = matrix_groups,
	.epilog = PH_USAGE_LISTS,
	.refused = matrix_refused,
};

static int parse_figures(const char *arg, unsigned *out)
{
	char *copy, *save = NULL;

	*out = 0;
	if (cli_check_list("--figures", arg, "figures separated by commas, e.g. latency,read"))
		return -EINVAL;
	copy = xstrdup(arg);
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "latency"))
			*out |= MX_LATENCY;
		else if (!strcmp(tok, "read"))
			*out |= MX_READ;
		else if (!strcmp(tok, "triad"))
			*out |= MX_TRIAD;
		else {
			ph_err("--figures: unknown figure '%s'; expected latency, read or triad", tok);
			free(copy);
			return -EINVAL;
		}
	}
	free(copy);
	if (!*out) {
		ph_err("--figures: empty; expected latency, read or triad");
		return -EINVAL;
	}
	return 0;
}

/*
 * --groups 'cpus=0,2,4,6;mem=0-1': one group, its CPUs (libnuma's CPU list,
 * as --physcpubind) and its nodes (a node list, as --membind); each such
 * --groups adds a group.
 */
static int parse_explicit_group(const char *arg, struct ph_mx_study *a)
{
	const char *semi = strchr(arg, ';');
	struct ph_mx_group g = { 0 };
	char opt[96], *cpus;
	int rc;

	if (a->ngroups && !a->explicit_groups) {
		ph_err("--groups '%s': give either node groups (0-1,2-3) or groups with CPUs (cpus=...;mem=...), not both", arg);
		return -EINVAL;
	}
	if (strncmp(arg, "cpus=", 5) || !semi || strncmp(semi + 1, "mem=", 4)) {
		ph_err("--groups '%s': expected cpus=CPUS;mem=NODES, e.g. 'cpus=0,2,4,6;mem=0-1'", arg);
		return -EINVAL;
	}
	a->explicit_groups = true;
	snprintf(opt, sizeof(opt), "--groups (group %d, cpus)", a->ngroups);
	cpus = xstrdup(arg + 5);
	cpus[semi - arg - 5] = '\0';
	rc = cli_parse_cpus(opt, cpus, &g.cpus);
	snprintf(g.cpus_text, sizeof(g.cpus_text), "%s", cpus);
	free(cpus);
	if (rc)
		return -EINVAL;
	snprintf(opt, sizeof(opt), "--groups (group %d, mem)", a->ngroups);
	if (cli_parse_nodes(opt, semi + 5, &g.nodes)) {
		numa_bitmask_free(g.cpus);
		return -EINVAL;
	}
	snprintf(g.name, sizeof(g.name), "%s", semi + 5);
	*(struct ph_mx_group *)xappend(&a->groups, &a->ngroups, sizeof(g)) = g;
	return 0;
}

/* --groups 0-1,2-3: each group a node list as numactl takes it. */
static int parse_groups(const char *arg, struct ph_mx_study *a)
{
	char *copy, *save = NULL;

	if (strchr(arg, '='))
		return parse_explicit_group(arg, a);
	if (a->explicit_groups) {
		ph_err("--groups '%s': give either node groups (0-1,2-3) or groups with CPUs (cpus=...;mem=...), not both", arg);
		return -EINVAL;
	}
	matrix_study_free_groups(a);
	if (cli_check_list("--groups", arg, "groups of nodes separated by commas, e.g. 0-1,2-3"))
		return -EINVAL;
	copy = xstrdup(arg);
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		struct ph_mx_group g = { 0 };
		char opt[96];

		snprintf(opt, sizeof(opt), "--groups (group %d)", a->ngroups);
		if (cli_parse_nodes(opt, tok, &g.nodes)) {
			free(copy);
			return -EINVAL;
		}
		snprintf(g.name, sizeof(g.name), "%s", tok);
		*(struct ph_mx_group *)xappend(&a->groups, &a->ngroups, sizeof(g)) = g;
	}
	free(copy);
	if (!a->ngroups) {
		ph_err("--groups: empty; expected groups of nodes, e.g. 0-1,2-3");
		return -EINVAL;
	}
	return 0;
}

static int matrix_option(void *args, struct ph_options *opt, const struct ph_opt *o, const char *arg)
{
	struct ph_mx_study *a = args;

	(void)opt;
	switch (o->id) {
	case OPT_FIGURES:
		return parse_figures(arg, &a->mx.figures);
	case OPT_GROUPS:
		return parse_groups(arg, a);
	case OPT_PATTERN:
		if (chase_parse(arg, &a->mx.pattern)) {
			ph_err("--pattern: unknown pattern '%s'; expected %s", arg, chase_pattern_list());
			return -EINVAL;
		}
		a->mx.pattern.seed = 1;
		return 0;
	case OPT_SAVE:
		a->save = arg;
		return 0;
	case OPT_PLACEMENT:
		return common_parse_placement(arg, &a->mx.place);
	case OPT_ORIENTATION:
		if (orient_parse(arg, &a->mx.orient)) {
			ph_err("--orientation: unknown orientation '%s'; expected cpu-rows or mem-rows", arg);
			return -EINVAL;
		}
		return 0;
	case OPT_LAT_SIZE:
		return cli_parse_size("--lat-size", arg, &a->lat_size);
	case OPT_BW_SIZE:
		return cli_parse_size("--bw-size", arg, &a->bw_size);
	case OPT_PERCENTILES:
	case OPT_HISTOGRAM:
		return common_dist_option(&a->mx.dist, o->id, arg);
	}
	return -EINVAL;
}

static int matrix_check(void *args, struct ph_session *s)
{
	struct ph_mx_study *a = args;
	struct ph_mx *mx = &a->mx;

	/*
	 * Its own --save, not the driver's: the measurement so far, written
	 * after every cell, so that an interrupted run keeps its cells.
	 */
	if (a->save && cli_check_output("--save", a->save))
		return PH_EXIT_USAGE;
	mx->lat_size = a->lat_size ? a->lat_size : s->opt->size;
	mx->bw_size = a->bw_size ? a->bw_size : s->opt->size;
	mx->bw_threads = s->opt->bind.threads;
	common_dist_finish(&mx->dist);
	a->on_cell = a->save ? matrix_save_cell : NULL;
	/* JSON keeps CPU rows, as pagehop slit --input reads every pagehop JSON. */
	a->mem_rows_table = mx->orient == PH_ORIENT_MEM_ROWS && s->opt->fmt != PH_FMT_JSON;
	if (mx->place && a->explicit_groups) {
		ph_err("--placement: the groups give their CPUs (cpus=...); give either --placement or --groups cpus=..., not both");
		return PH_EXIT_USAGE;
	}
	return 0;
}

/* The document says itself which cells were verified and where a signal stopped it. */
const struct ph_study cmd_matrix_study = {
	.spec = &cmd_matrix_spec,
	.steps = &matrix_steps,
	.default_size = GiB,
	.flags = PH_STUDY_BINDS_ITSELF | PH_STUDY_OWN_NOTES,
	.option = matrix_option,
	.check = matrix_check,
};
