// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_pages.c - "pagehop pages": what page size does to memory access, with
 * everything else held fixed.  The options, and the flow of the page-size
 * study (pages.c).
 */
#include "chase.h"
#include "commands.h"
#include "study.h"
#include "common_opts.h"
#include "pages.h"
#include "session.h"
#include "util.h"

#include <errno.h>
#include <numa.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The command's own options; below OPT_SIZE, where the common ones start. */
enum {
	OPT_PAGE_SIZES = 1,
	OPT_THP,
	OPT_MIN,
	OPT_MAX,
	OPT_TLB_WINDOW,
	OPT_SEED,
	OPT_SAME_FRAMES,
};

static const struct ph_opt pages_opts[] = {
	{ "page-sizes", 0, "LIST", OPT_PAGE_SIZES, "page sizes to sweep: 4k, 2m, 1g, thp\n"
	  "(thp: anonymous memory on transparent huge pages)", NULL,
	  "4k, 2m, 1g and thp, each that can be had here; thp where THP is always or madvise, not with --same-frames=on" },
	{ "thp", 0, NULL, OPT_THP, "also thp (as --page-sizes ...,thp)", NULL, NULL },
	{ "min", 0, "SIZE", OPT_MIN, "smallest working set, a power of two", "16K", NULL },
	{ "max", 0, "SIZE", OPT_MAX, "largest working set, capped by what can be had", "4G", NULL },
	{ "tlb-window", 0, "SIZE", OPT_TLB_WINDOW, "window of the TLB-local chase", NULL,
	  "the L1 data TLB's reach with 4 KiB pages where that is a "
	  "power of two, else 256K" },
	{ "same-frames", 0, "[=WHEN]", OPT_SAME_FRAMES,
	  "auto, on or off (bare: on): one pagehop.ko allocation\n"
	  "of 1 GiB pages, mapped by 4 KiB, 2 MiB and 1 GiB\n"
	  "leaves: the same frames under each page size, checked\n"
	  "by QUERY; auto where the module and a GiB can be had\n"
	  "and thp is not swept, else one allocation per page\n"
	  "size, the output saying why; on: exit 4 where it cannot", "auto", NULL },
	{ "seed", 0, "N", OPT_SEED, "chain seed", "1", NULL },
	{ "save", 0, "FILE", OPT_SAVE_DOC, "write the JSON to FILE as well", NULL, NULL },
	{ 0 },
};

static const struct ph_opt memory_opts[] = {
	{ "membind", 0, "NODE", OPT_MEMBIND, "the node measured", NULL, "the CPU's own node" },
	PH_OPT_RESERVE,
	PH_OPT_ALLOW_UNVERIFIED,
	{ 0 },
};

static const struct ph_opt thread_opts[] = {
	{ "physcpubind", 0, "CPU", OPT_PHYSCPUBIND, "the CPU that measures, one thread", NULL,
	  "the first CPU this process may use" },
	{ 0 },
};

static const struct ph_optgroup pages_groups[] = {
	{ "pages", pages_opts },
	{ "memory", memory_opts },
	{ "threads", thread_opts },
	PH_GROUP_STATISTICS("0.5", "1"),
	PH_GROUP_OUTPUT_PLOT,
	{ 0 },
};

#define SWEEP_SETS_IT "the sweep sets it; use --page-sizes, --min/--max, --membind NODE, --physcpubind CPU"

static const struct ph_refusal pages_refused[] = {
	{ "size", SWEEP_SETS_IT },
	{ "page-size", SWEEP_SETS_IT },
	{ "backend", SWEEP_SETS_IT },
	{ "interleave", SWEEP_SETS_IT },
	{ "cpunodebind", SWEEP_SETS_IT },
	{ "threads", SWEEP_SETS_IT },
	{ 0 },
};

const struct ph_cmdspec cmd_pages_spec = {
	.name = "pages",
	.synopsis = "[OPTIONS]",
	.about =
	"A working-set sweep per page size, everything else held fixed (node, CPU,\n"
	"chain seed, access pattern): at each working set the latency of a random\n"
	"chase (TLB misses included), of a chase with TLB locality (misses amortised)\n"
	"and the read bandwidth, one thread, with hardware counters per load where\n"
	"the CPU has a PMU.  Separates the translation cost (the random chase on a\n"
	"smaller page minus the largest page) from the cache-locality cost (random\n"
	"minus TLB-local on the largest page), gives the knee of each set against\n"
	"the TLB reach (CPUID) and the caches (hwloc), or says it is unexplained,\n"
	"flags what does not make sense, and gives the large/small page ratios.\n"
	"It opens with what was compared (where nothing larger than 4K could be\n"
	"had: why, and what to do); a knee, its cause or \"no rise\" is said only\n"
	"where every figure it rests on met its CI, else \"not resolved at this\n"
	"noise\".\n",
	.groups = pages_groups,
	.epilog = "NODE and CPU are as numactl takes them: 1, or a list that names one.\n",
	.refused = pages_refused,
};

static int parse_psizes(const char *arg, bool want[PH_PS_COUNT])
{
	char *copy, *save = NULL;
	int n = 0;

	if (cli_check_list("--page-sizes", arg, "page sizes separated by commas, e.g. 4k,2m"))
		return -EINVAL;
	copy = xstrdup(arg);
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		enum ph_psize ps;

		if (psize_parse(tok, &ps)) {
			ph_err("--page-sizes: unknown page size '%s'; expected 4k, thp, 2m or 1g", tok);
			free(copy);
			return -EINVAL;
		}
		want[ps] = true;
		n++;
	}
	free(copy);
	if (!n) {
		ph_err("--page-sizes: empty; expected 4k, thp, 2m or 1g");
		return -EINVAL;
	}
	return 0;
}

static int pages_option(void *args, struct ph_options *opt, const struct ph_opt *o, const char *arg)
{
	struct pages_plan *p = &((struct ph_pages *)args)->plan;

	(void)opt;
	switch (o->id) {
	case OPT_PAGE_SIZES:
		memset(p->want, 0, sizeof(p->want));
		p->named = true;
		return parse_psizes(arg, p->want);
	case OPT_THP:
		p->thp = true;
		return 0;
	case OPT_MIN:
		return cli_parse_size("--min", arg, &p->lo);
	case OPT_MAX:
		return cli_parse_size("--max", arg, &p->hi);
	case OPT_TLB_WINDOW:
		if (cli_parse_size("--tlb-window", arg, &p->window))
			return -EINVAL;
		if (p->window % CHASE_SLOT || (p->window & (p->window - 1))) {
			ph_err("--tlb-window: %s is not a power of two of at least 64 bytes", arg);
			return -EINVAL;
		}
		return 0;
	case OPT_SEED:
		return cli_parse_u64("--seed", arg, &p->seed);
	case OPT_SAME_FRAMES:
		if (!arg || !strcmp(arg, "on"))
			p->same_frames = PAGES_FRAMES_ON;
		else if (!strcmp(arg, "auto"))
			p->same_frames = PAGES_FRAMES_AUTO;
		else if (!strcmp(arg, "off"))
			p->same_frames = PAGES_FRAMES_OFF;
		else {
			ph_err("--same-frames: '%s'; expected auto, on or off", arg);
			return -EINVAL;
		}
		return 0;
	}
	return -EINVAL;
}

/* What the options say together, checked before anything is measured. */
static int pages_check(void *args, struct ph_session *s)
{
	const struct ph_bindopts *b = &s->opt->bind;
	struct pages_plan *p = &((struct ph_pages *)args)->plan;

	/* Working sets are powers of two, so every TLB window divides them. */
	if (p->lo < 4 * KiB || (p->lo & (p->lo - 1))) {
		ph_err("--min: the smallest working set must be a power of two of at least 4K");
		return PH_EXIT_USAGE;
	}
	if (p->hi < p->lo) {
		ph_err("--max: smaller than --min");
		return PH_EXIT_USAGE;
	}
	if (b->membind && numa_bitmask_weight(b->membind) != 1) {
		ph_err("--membind: the sweep measures one node; give one");
		return PH_EXIT_USAGE;
	}
	if (b->physcpubind && numa_bitmask_weight(b->physcpubind) != 1) {
		ph_err("--physcpubind: the sweep runs on one CPU; give one");
		return PH_EXIT_USAGE;
	}
	/*
	 * The default compares something wherever anything larger than 4K can
	 * be had: THP needs no reserved pool, so a stock machine has it; the
	 * sweeps of what cannot be had are skipped and the document says why.
	 * --same-frames=on asks for views of one allocation, which THP is not.
	 */
	if (!p->named) {
		p->want[PH_PS_4K] = p->want[PH_PS_2M] = p->want[PH_PS_1G] = true;
		p->want[PH_PS_THP] = p->same_frames != PAGES_FRAMES_ON;
	}
	p->thp_named = p->named && p->want[PH_PS_THP];
	p->want[PH_PS_THP] |= p->thp;
	if (p->same_frames == PAGES_FRAMES_ON && p->want[PH_PS_THP]) {
		ph_err("--same-frames: thp is anonymous memory, not a view of the module's buffer; leave it out");
		return PH_EXIT_USAGE;
	}
	return 0;
}

const struct ph_study cmd_pages_study = {
	.spec = &cmd_pages_spec,
	.default_size = GiB,
	.steps = &pages_steps,
	.option = pages_option,
	.check = pages_check,
};
