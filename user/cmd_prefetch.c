// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_prefetch.c - "pagehop prefetch": what hardware prefetching does.
 *
 * At a working set well beyond the last-level cache, the latency of a
 * sequential chase, of strided chases (64 B to 4 KiB) and of a random one,
 * and the read bandwidth with and without software prefetch.  Where
 * pagehop.ko can set the prefetchers, every figure is taken again with each
 * prefetcher off in turn, then all off; every row records the state it was
 * measured in.  The module puts the original state back when its fd is
 * closed, so an interrupted or crashed run cannot leave a prefetcher off.
 */
#include "commands.h"
#include "latency.h"
#include "pfstudy.h"
#include "session.h"
#include "swpf.h"
#include "util.h"

#include <errno.h>
#include <numa.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	OPT_PATTERNS = 1,
	OPT_NO_CONTROL,
	OPT_SEED,
};

#define DEFAULT_PATTERNS "seq,stride:128,stride:256,stride:512,stride:1K,stride:2K,stride:4K,random"

static void prefetch_usage(void)
{
	printf("usage: pagehop prefetch [OPTIONS]\n"
	       "\n"
	       "What hardware prefetching does, at a working set well beyond the LLC:\n"
	       "latency per access pattern (sequential, strided, random) and read\n"
	       "bandwidth with and without software prefetch (prefetcht0 %d bytes ahead).\n"
	       "The prefetch benefit is random / sequential latency.  With pagehop.ko on\n"
	       "a CPU that allows it (Intel MSR 0x1a4, AMD Zen 4+ MSR 0xc0000108), every\n"
	       "figure is measured with the prefetchers as found, with each one off in\n"
	       "turn, and with all off; the original state is restored afterwards, also\n"
	       "on Ctrl-C or a crash (the module restores it when its fd is closed).\n"
	       "\n"
	       "prefetch:\n"
	       "  --patterns LIST        chase patterns (default %s)\n"
	       "  --no-control           do not touch the prefetchers even where possible\n"
	       "  --seed N               chain seed (default 1)\n"
	       "  (one thread; default --size 1G; --physcpubind CPU and --membind NODE\n"
	       "  choose where)\n"
	       "%s", SWPF_DISTANCE, DEFAULT_PATTERNS, session_common_usage);
}

int cmd_prefetch(int argc, char *argv[])
{
	static const struct option own[] = {
		{ "patterns", required_argument, NULL, OPT_PATTERNS },
		{ "no-control", no_argument, NULL, OPT_NO_CONTROL },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ NULL, 0, NULL, 0 },
	};
	struct option *opts = session_options(own);
	struct ph_session s;
	struct ph_pfstudy st = { 0 };
	int c, rc = PH_EXIT_OK;
	bool no_control = false;
	uint64_t seed = 1;
	const char *patterns = DEFAULT_PATTERNS;
	struct ph_doc *doc = NULL;

	session_init(&s, GiB);
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":f:h", opts, NULL)) != -1) {
		int h;

		if (c == OPT_THREADS || c == OPT_INTERLEAVE || c == OPT_CPUNODEBIND) {
			ph_err("%s: the study runs one thread; choose it with --physcpubind CPU",
			       c == OPT_THREADS ? "--threads" : c == OPT_INTERLEAVE ? "--interleave" :
			       "--cpunodebind");
			goto usage;
		}
		h = session_parse_option(&s, c == 'f' ? OPT_FORMAT : c, optarg);
		if (h < 0)
			goto usage;
		if (h > 0)
			continue;
		switch (c) {
		case OPT_PATTERNS:
			patterns = optarg;
			break;
		case OPT_NO_CONTROL:
			no_control = true;
			break;
		case OPT_SEED:
			if (cli_parse_u64("--seed", optarg, &seed))
				goto usage;
			break;
		case 'h':
		case OPT_HELP:
			prefetch_usage();
			goto out;
		default:
			cli_option_error(c, argv, opts);
			goto usage;
		}
	}
	if (cli_no_arguments(argc, argv) ||
	    cli_check_list("--patterns", patterns, "patterns separated by commas, e.g. random,seq") ||
	    latency_parse_patterns("--patterns", patterns, seed, &st.plan.specs, &st.plan.nspecs))
		goto usage;
	if (s.bind.physcpubind && numa_bitmask_weight(s.bind.physcpubind) != 1) {
		ph_err("--physcpubind: the study runs on one CPU; give one");
		goto usage;
	}
	s.bind.threads = 1;

	st.plan.no_control = no_control;

	rc = session_machine(&s);
	if (!rc)
		rc = session_start(&s, 1);
	if (!rc)
		rc = pfstudy_plan(&st, &s);
	if (rc)
		goto out;
	rc = pfstudy_measure(&st, &s);
	/* Before the memory is read back again: the rows say where it was measured. */
	doc = pfstudy_doc(&st, &s);
	if (!session_still_verified(&s) && !rc)
		rc = PH_EXIT_FAIL;
	session_buffers_table(&s, doc);
	rc = session_render(&s, doc, rc);
	goto out;
usage:
	rc = PH_EXIT_USAGE;
out:
	doc_free(doc);
	pfstudy_free(&st);
	free(opts);
	session_free(&s);
	return rc;
}
