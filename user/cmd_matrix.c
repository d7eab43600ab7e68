// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_matrix.c - "pagehop matrix": idle latency and read/triad bandwidth
 * for every CPU node x memory node pair (or socket groups), with the
 * normalised distance matrices to set beside the SLIT.
 */
#include "commands.h"
#include "matrix.h"
#include "session.h"
#include "util.h"

#include <errno.h>
#include <numa.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	OPT_FIGURES = 1,
	OPT_GROUPS,
	OPT_PATTERN,
	OPT_SAVE,
	OPT_LAT_SIZE,
	OPT_BW_SIZE,
};

static void matrix_usage(void)
{
	printf("usage: pagehop matrix [OPTIONS]\n"
	       "\n"
	       "For every CPU node (row) and memory node (column): the idle latency (one\n"
	       "thread on the row's first CPU, a random pointer chase) and the read and\n"
	       "triad bandwidth (one thread per core of the row's CPUs), each cell on\n"
	       "memory of its own, verified on the column's node.  Memory-only nodes get\n"
	       "a column and no row; CPU-only nodes a row.  Prints each figure as a\n"
	       "matrix in numactl's layout, the distances normalised to local = 10 (from\n"
	       "latency: 10 L[c][m]/L[c][local]; from bandwidth: 10 B[c][local]/B[c][m]),\n"
	       "every cell's median, CI and sample count, and the machine's SLIT and HMAT.\n"
	       "'pagehop slit --input' reads the JSON back.\n"
	       "\n"
	       "matrix:\n"
	       "  --figures F[,F...]     latency, read, triad (default all three)\n"
	       "  --groups G,G...        aggregate nodes into groups (sockets), each a node\n"
	       "                         or a range: 0-1,2-3; threads run on all CPUs of\n"
	       "                         the row's group, memory on the column's group\n"
	       "  --cpunodebind NODES    only these rows\n"
	       "  --membind NODES        only these columns\n"
	       "  --pattern P            latency pattern (default random; see pagehop chase)\n"
	       "  --lat-size SIZE        latency working set (default: --size, 1G)\n"
	       "  --bw-size SIZE         bandwidth working set (default: --size, 1G)\n"
	       "  --save FILE            write the JSON to FILE after every cell (atomically),\n"
	       "                         so an interrupted run keeps what it measured\n"
	       "  (default --page-size: the largest every memory node can give)\n"
	       "%s", session_common_usage);
}

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

int cmd_matrix(int argc, char *argv[])
{
	static const struct option own[] = {
		{ "figures", required_argument, NULL, OPT_FIGURES },
		{ "groups", required_argument, NULL, OPT_GROUPS },
		{ "pattern", required_argument, NULL, OPT_PATTERN },
		{ "save", required_argument, NULL, OPT_SAVE },
		{ "lat-size", required_argument, NULL, OPT_LAT_SIZE },
		{ "bw-size", required_argument, NULL, OPT_BW_SIZE },
		{ NULL, 0, NULL, 0 },
	};
	struct option *opts = session_options(own);
	struct ph_session s;
	struct ph_mx mx = { 0 };
	const char *groups = NULL, *save = NULL;
	struct bitmask *rows = NULL, *cols = NULL;
	uint64_t lat_size = 0, bw_size = 0;
	bool psize_given = false;
	struct ph_doc *doc = NULL;
	int c, rc = PH_EXIT_OK;

	session_init(&s, GiB);
	mx.figures = MX_LATENCY | MX_READ | MX_TRIAD;
	chase_parse("random", &mx.pattern);
	mx.pattern.seed = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":f:h", opts, NULL)) != -1) {
		int h;

		if (c == OPT_PHYSCPUBIND || c == OPT_INTERLEAVE) {
			ph_err("%s: the matrix measures every node pair; choose rows with --cpunodebind and columns with --membind",
			       c == OPT_PHYSCPUBIND ? "--physcpubind" : "--interleave");
			goto usage;
		}
		if (c == OPT_PAGE_SIZE)
			psize_given = true;
		h = session_parse_option(&s, c == 'f' ? OPT_FORMAT : c, optarg);
		if (h < 0)
			goto usage;
		if (h > 0)
			continue;
		switch (c) {
		case OPT_FIGURES:
			if (parse_figures(optarg, &mx.figures))
				goto usage;
			break;
		case OPT_GROUPS:
			if (cli_check_list("--groups", optarg, "groups of nodes separated by commas, e.g. 0-1,2-3"))
				goto usage;
			groups = optarg;
			break;
		case OPT_PATTERN:
			if (chase_parse(optarg, &mx.pattern)) {
				ph_err("--pattern: unknown pattern '%s'; expected random, tlb:SIZE, page[:SIZE], seq or stride:N",
				       optarg);
				goto usage;
			}
			mx.pattern.seed = 1;
			break;
		case OPT_SAVE:
			save = optarg;
			break;
		case OPT_LAT_SIZE:
			if (cli_parse_size("--lat-size", optarg, &lat_size))
				goto usage;
			break;
		case OPT_BW_SIZE:
			if (cli_parse_size("--bw-size", optarg, &bw_size))
				goto usage;
			break;
		case 'h':
		case OPT_HELP:
			matrix_usage();
			goto out;
		default:
			cli_option_error(c, argv, opts);
			goto usage;
		}
	}
	if (cli_no_arguments(argc, argv))
		goto usage;
	if (save) {
		char why[256];

		/* Before measuring: a bad path found after an hour is an hour lost. */
		if (output_path_check(save, why, sizeof(why))) {
			ph_err("--save %s: %s", save, why);
			goto usage;
		}
	}
	mx.lat_size = lat_size ? lat_size : s.size;
	mx.bw_size = bw_size ? bw_size : s.size;
	mx.bw_threads = s.bind.threads;
	/* The row and column filters; each cell sets its own binding. */
	rows = s.bind.cpunodebind;
	cols = s.bind.membind;
	s.bind.cpunodebind = s.bind.membind = NULL;
	s.bind.threads = 0;

	rc = session_machine(&s);
	if (rc)
		goto out;
	rc = matrix_plan(&mx, &s.topo, groups, rows, cols);
	if (rc)
		goto out;
	if (!psize_given)
		s.bufreq.psize = matrix_default_psize(&mx, &s);
	runner_catch_sigint();
	rc = matrix_measure(&mx, &s, save);
	if (mx.interrupted)
		rc = PH_EXIT_INTERRUPTED;
	/* A matrix with no measured cell is not printed: the reason is on stderr. */
	if (rc == PH_EXIT_USAGE || !mx.ncellv) {
		if (mx.interrupted)
			ph_err("interrupted before any cell was measured");
		goto out;
	}
	doc = matrix_doc(&mx, &s);
	if (doc_render(doc, s.fmt, stdout) && !rc)
		rc = PH_EXIT_FAIL;
	goto out;
usage:
	rc = PH_EXIT_USAGE;
out:
	doc_free(doc);
	if (rows)
		numa_bitmask_free(rows);
	if (cols)
		numa_bitmask_free(cols);
	matrix_free(&mx);
	free(opts);
	session_free(&s);
	return rc;
}
