// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_pages.c - "pagehop pages": what page size does to memory access, with
 * everything else held fixed.  For each page size that can be had, a sweep
 * of working sets on the same node, CPU and chain seed: latency with random
 * order (TLB misses included), with TLB locality (misses amortised), and
 * read bandwidth.  Derived: the TLB miss penalty per working set, where it
 * starts (set beside the TLB reach from CPUID), and large/small page ratios.
 */
#include "chase.h"
#include "commands.h"
#include "pages.h"
#include "plot.h"
#include "session.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <numa.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum {
	OPT_PAGE_SIZES = 1,
	OPT_THP,
	OPT_MIN,
	OPT_MAX,
	OPT_TLB_WINDOW,
	OPT_SEED,
	OPT_SAVE,
	OPT_PLOT,
};

static void pages_usage(void)
{
	printf("usage: pagehop pages [OPTIONS]\n"
	       "\n"
	       "A working-set sweep per page size, everything else held fixed (node, CPU,\n"
	       "chain seed, access pattern): at each working set the latency of a random\n"
	       "chase (TLB misses included), of a chase with TLB locality (misses amortised)\n"
	       "and the read bandwidth.  Derives the TLB miss penalty (random minus\n"
	       "TLB-local) per working set, the working set where each page size's penalty\n"
	       "appears, set beside the TLB reach the CPU reports, and the large/small\n"
	       "page ratio table per figure.\n"
	       "\n"
	       "pages:\n"
	       "  --page-sizes LIST      4k,2m,1g (default: all that can be had here)\n"
	       "  --thp                  also anonymous memory backed by THP\n"
	       "  --min SIZE             smallest working set (default 16K)\n"
	       "  --max SIZE             largest (default 4G, capped by what can be had)\n"
	       "  --tlb-window SIZE      window of the TLB-local chase (default: the L1 data\n"
	       "                         TLB's reach with 4 KiB pages, else 256K)\n"
	       "  --seed N               chain seed (default 1)\n"
	       "  --save FILE            write the JSON to FILE as well\n"
	       "  --plot FILE.svg|.png   latency against working set, one line per page size\n"
	       "                         (" PLOT_GNUPLOT ", Debian's gnuplot-nox)\n"
	       "  (one thread; --membind NODE and --physcpubind CPU choose where; default\n"
	       "  --time 0.5 per figure)\n"
	       "%s", session_common_usage);
}

static int parse_psizes(const char *arg, bool want[PH_PS_COUNT])
{
	char *copy, *save = NULL;
	int n = 0;

	if (cli_check_list("--page-sizes", arg, "page sizes separated by commas, e.g. 4k,2m"))
		return -EINVAL;
	copy = xstrdup(arg);
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		enum ph_psize ps;

		if (psize_parse(tok, &ps) || ps == PH_PS_THP) {
			ph_err("--page-sizes: unknown page size '%s'; expected 4k, 2m or 1g (THP: --thp)", tok);
			free(copy);
			return -EINVAL;
		}
		want[ps] = true;
		n++;
	}
	free(copy);
	if (!n) {
		ph_err("--page-sizes: empty; expected 4k, 2m or 1g");
		return -EINVAL;
	}
	return 0;
}

int cmd_pages(int argc, char *argv[])
{
	static const struct option own[] = {
		{ "page-sizes", required_argument, NULL, OPT_PAGE_SIZES },
		{ "thp", no_argument, NULL, OPT_THP },
		{ "min", required_argument, NULL, OPT_MIN },
		{ "max", required_argument, NULL, OPT_MAX },
		{ "tlb-window", required_argument, NULL, OPT_TLB_WINDOW },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "save", required_argument, NULL, OPT_SAVE },
		{ "plot", required_argument, NULL, OPT_PLOT },
		{ NULL, 0, NULL, 0 },
	};
	struct option *opts = session_options(own);
	struct ph_session s;
	struct ph_pages pg = { 0 };
	struct pages_plan *plan = &pg.plan;
	bool thp = false;
	const char *save = NULL, *plot_path = NULL;
	char why[512], *plot_skipped = NULL;
	int c, rc = PH_EXIT_OK;
	struct ph_doc *doc = NULL;

	session_init(&s, GiB);
	s.mcfg.time_s = 0.5;
	plan->lo = 16 * KiB;
	plan->hi = 4 * GiB;
	plan->seed = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":f:h", opts, NULL)) != -1) {
		int h;

		if (c == OPT_PAGE_SIZE || c == OPT_BACKEND || c == OPT_SIZE || c == OPT_INTERLEAVE ||
		    c == OPT_CPUNODEBIND || c == OPT_THREADS) {
			ph_err("%s: the sweep sets it; use --page-sizes, --min/--max, --membind NODE, --physcpubind CPU",
			       c == OPT_PAGE_SIZE ? "--page-size" : c == OPT_BACKEND ? "--backend" :
			       c == OPT_SIZE ? "--size" : c == OPT_INTERLEAVE ? "--interleave" :
			       c == OPT_CPUNODEBIND ? "--cpunodebind" : "--threads");
			goto usage;
		}
		h = session_parse_option(&s, c == 'f' ? OPT_FORMAT : c, optarg);
		if (h < 0)
			goto usage;
		if (h > 0)
			continue;
		switch (c) {
		case OPT_PAGE_SIZES:
			memset(plan->want, 0, sizeof(plan->want));
			if (parse_psizes(optarg, plan->want))
				goto usage;
			plan->named = true;
			break;
		case OPT_THP:
			thp = true;
			break;
		case OPT_MIN:
			if (cli_parse_size("--min", optarg, &plan->lo))
				goto usage;
			break;
		case OPT_MAX:
			if (cli_parse_size("--max", optarg, &plan->hi))
				goto usage;
			break;
		case OPT_TLB_WINDOW:
			if (cli_parse_size("--tlb-window", optarg, &plan->window))
				goto usage;
			if (plan->window % CHASE_SLOT || (plan->window & (plan->window - 1))) {
				ph_err("--tlb-window: %s is not a power of two of at least 64 bytes", optarg);
				goto usage;
			}
			break;
		case OPT_SEED:
			if (cli_parse_u64("--seed", optarg, &plan->seed))
				goto usage;
			break;
		case OPT_SAVE:
			save = optarg;
			break;
		case OPT_PLOT:
			plot_path = optarg;
			if (plot_check_name(optarg, why, sizeof(why))) {
				ph_err("--plot %s: %s", optarg, why);
				goto usage;
			}
			break;
		case 'h':
		case OPT_HELP:
			pages_usage();
			goto out;
		default:
			cli_option_error(c, argv, opts);
			goto usage;
		}
	}
	if (cli_no_arguments(argc, argv))
		goto usage;
	/* Working sets are powers of two, so every TLB window divides them. */
	if (plan->lo < 4 * KiB || (plan->lo & (plan->lo - 1))) {
		ph_err("--min: the smallest working set must be a power of two of at least 4K");
		goto usage;
	}
	if (plan->hi < plan->lo) {
		ph_err("--max: smaller than --min");
		goto usage;
	}
	if (s.bind.membind && numa_bitmask_weight(s.bind.membind) != 1) {
		ph_err("--membind: the sweep measures one node; give one");
		goto usage;
	}
	if (s.bind.physcpubind && numa_bitmask_weight(s.bind.physcpubind) != 1) {
		ph_err("--physcpubind: the sweep runs on one CPU; give one");
		goto usage;
	}
	/* Where the results go is checked before anything is measured. */
	if (save && output_path_check(save, why, sizeof(why))) {
		ph_err("--save %s: %s", save, why);
		goto usage;
	}
	if (plot_path && output_path_check(plot_path, why, sizeof(why))) {
		ph_err("--plot %s: %s", plot_path, why);
		goto usage;
	}
	if (plot_path && !plot_available(PLOT_GNUPLOT, why, sizeof(why))) {
		ph_warn("--plot: %s; measuring without the plot", why);
		plot_skipped = xstrdup(why);
		plot_path = NULL;
	}
	s.bind.threads = 1;

	if (!plan->named)
		plan->want[PH_PS_4K] = plan->want[PH_PS_2M] = plan->want[PH_PS_1G] = true;
	plan->want[PH_PS_THP] = thp;

	rc = session_machine(&s);
	if (!rc)
		rc = pages_plan(&pg, &s);
	if (rc)
		goto out;
	rc = pages_measure(&pg, &s);
	if (rc == PH_EXIT_USAGE || !pg.points)
		goto out;
	doc = pages_doc(&pg, &s);
	if (plot_skipped)
		doc_note(doc, "--plot: %s; nothing plotted", plot_skipped);
	if (plot_path) {
		if (pages_plot(&pg, plot_path, why, sizeof(why))) {
			ph_err("--plot %s: %s", plot_path, why);
			rc = rc ? rc : PH_EXIT_FAIL;
		} else {
			doc_note(doc, "plot written to %s", plot_path);
		}
	}
	if (save) {
		if (doc_save_json(doc, save, why, sizeof(why))) {
			ph_err("--save %s: %s", save, why);
			rc = rc ? rc : PH_EXIT_FAIL;
		}
	}
	rc = session_render(&s, doc, rc);
	goto out;
usage:
	rc = PH_EXIT_USAGE;
out:
	pages_free(&pg);
	doc_free(doc);
	free(plot_skipped);
	free(opts);
	session_free(&s);
	return rc;
}
