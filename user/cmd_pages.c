// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_pages.c - "pagehop pages": what page size does to memory access, with
 * everything else held fixed.  For each page size that can be had, a sweep
 * of working sets on the same node, CPU and chain seed: latency with random
 * order (TLB misses included), with TLB locality (misses amortised), and
 * read bandwidth.  Derived: the TLB miss penalty per working set, where it
 * starts (set beside the TLB reach from CPUID), and large/small page ratios.
 */
#include "bandwidth.h"
#include "chase.h"
#include "commands.h"
#include "latency.h"
#include "plot.h"
#include "session.h"
#include "sweep.h"
#include "tlb.h"
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

#define MAX_POINTS 40

/* Below this a rise in the penalty is not called a knee: about two DRAM clocks. */
#define KNEE_FLOOR_NS 2.0

struct point {
	uint64_t ws;
	struct ph_result rnd, tlb;
	struct ph_bandwidth bw;
	bool have;
};

struct psweep {
	enum ph_psize ps;
	bool ran;
	char why[256];		/* why not run */
	int fail_rc;		/* the exit code of an allocation that failed */
	int n;
	struct point pt[MAX_POINTS];
	struct sweep_knee knee;
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

/* What the measured node offers, for the planner. */
static void machine_of(struct ph_session *s, int node, struct sweep_machine *m)
{
	int i = topology_index(&s->topo, node);
	long long freeb = 0;

	memset(m, 0, sizeof(*m));
	m->kmod_features = s->km.fd >= 0 ? s->km.info.features : 0;
	m->free_2m = s->topo.nodes[i].hp_2m.free;
	m->total_2m = s->topo.nodes[i].hp_2m.total;
	m->free_1g = s->topo.nodes[i].hp_1g.free;
	m->total_1g = s->topo.nodes[i].hp_1g.total;
	m->thp = strcmp(s->topo.thp_enabled, "never") && strcmp(s->topo.thp_enabled, "unsupported");
	m->reserve = s->bufreq.reserve;
	m->node_total = (uint64_t)numa_node_size64(node, &freeb);
	m->node_free = freeb > 0 ? (uint64_t)freeb : 0;
}

static double half_width(const struct ph_result *r)
{
	return isfinite(r->st.ci_hi) && isfinite(r->st.ci_lo) ? (r->st.ci_hi - r->st.ci_lo) / 2 : 0;
}

/* One page size's sweep.  0, or an exit code. */
static int run_sweep(struct ph_session *s, struct psweep *sw, const uint64_t *sizes, int n,
		     uint64_t window, uint64_t seed, const struct stream_kernel *read)
{
	char why[256];
	int rc;

	s->bufreq.psize = sw->ps;
	s->bufreq.backend = PH_BACKEND_AUTO;
	s->size = sizes[n - 1];
	rc = session_start(s, 1);
	if (rc) {
		snprintf(sw->why, sizeof(sw->why), "could not allocate %s pages (the reason is above)",
			 psize_name(sw->ps));
		sw->fail_rc = rc;
		session_stop(s);
		return rc == PH_EXIT_USAGE ? rc : 0;
	}
	sw->ran = true;
	for (int i = 0; i < n && !ph_interrupted; i++) {
		struct chase_spec rnd = { .pattern = CHASE_RANDOM, .seed = seed };
		struct chase_spec tlb = { .pattern = CHASE_TLB, .param = window < sizes[i] ? window : sizes[i] / 2,
					  .seed = seed };
		struct ph_latency lr, lt;
		struct point *p = &sw->pt[i];

		if (isatty(2))
			fprintf(stderr, "pages: %s, working set %s (%d of %d)\n", psize_name(sw->ps),
				format_size(sizes[i], why, sizeof(why)), i + 1, n);
		p->ws = sizes[i];
		s->per_thread = sizes[i];
		rc = latency_figure(s, &rnd, 1, false, &lr);
		p->rnd = lr.user;
		if (rc)
			break;
		rc = latency_figure(s, &tlb, 1, false, &lt);
		p->tlb = lt.user;
		if (rc)
			break;
		rc = bandwidth_figure(s, read, &p->bw);
		if (rc)
			break;
		p->have = true;
		sw->n = i + 1;
	}
	if (!session_still_verified(s) && !rc)
		rc = PH_EXIT_FAIL;
	session_stop(s);
	return rc;
}

static const char *fmt_ws(uint64_t ws, char *buf, size_t size)
{
	return format_size(ws, buf, size);
}

/* "4K: penalty appears above 256 KiB (64-entry L1 DTLB x 4 KiB = 256 KiB), reaches +85 ns at 1 GiB" */
static void knee_sentence(const struct psweep *sw, const struct ph_tlbs *tlbs, char *out, size_t size)
{
	uint64_t page = psize_bytes(sw->ps);
	char a[32], b[32], reach[160] = "";
	int e1 = 0, e2 = 0;
	uint64_t r1 = sw->ps == PH_PS_THP ? tlb_reach(tlbs, 1, 2 * MiB, &e1) : tlb_reach(tlbs, 1, page, &e1);
	uint64_t r2 = sw->ps == PH_PS_THP ? tlb_reach(tlbs, 2, 2 * MiB, &e2) : tlb_reach(tlbs, 2, page, &e2);
	size_t len = 0;

	if (r1)
		len += (size_t)snprintf(reach + len, sizeof(reach) - len, "%d-entry L1 DTLB x %s = %s",
					e1, fmt_ws(page, a, sizeof(a)), fmt_ws(r1, b, sizeof(b)));
	if (r2)
		len += (size_t)snprintf(reach + len, sizeof(reach) - len, "%s%d-entry L2 TLB x %s = %s",
					len ? "; " : "", e2, fmt_ws(page, a, sizeof(a)), fmt_ws(r2, b, sizeof(b)));
	if (!len)
		snprintf(reach, sizeof(reach), "TLB reach not reported by this CPU");
	if (sw->knee.index < 0) {
		snprintf(out, size, "%s: no TLB penalty up to %s (%s)", psize_name(sw->ps),
			 fmt_ws(sw->pt[sw->n - 1].ws, a, sizeof(a)), reach);
	} else if (sw->knee.index == 0) {
		snprintf(out, size, "%s: penalty already at %s, the smallest working set (%s), reaches %+.0f ns at %s",
			 psize_name(sw->ps), fmt_ws(sw->pt[0].ws, a, sizeof(a)), reach, sw->knee.at_max,
			 fmt_ws(sw->pt[sw->n - 1].ws, b, sizeof(b)));
	} else {
		snprintf(out, size, "%s: penalty appears above %s (%s), reaches %+.0f ns at %s",
			 psize_name(sw->ps), fmt_ws(sw->pt[sw->knee.index - 1].ws, a, sizeof(a)), reach,
			 sw->knee.at_max, fmt_ws(sw->pt[sw->n - 1].ws, b, sizeof(b)));
	}
}

/* Latency against working set, a solid and a dashed line per page size. */
static int plot_sweeps(const char *path, const struct psweep *sw, int nsw, char *why, size_t size)
{
	static const struct plot p = {
		.title = "pagehop pages: random chase (solid), TLB-local chase (dashed)",
		.xlabel = "working set",
		.ylabel = "latency per load, ns (median)",
		.x_log2_bytes = true,
	};
	struct plot_series s[2 * PH_PS_COUNT];
	double x[PH_PS_COUNT][MAX_POINTS], rnd[PH_PS_COUNT][MAX_POINTS], tlb[PH_PS_COUNT][MAX_POINTS];
	char titles[2 * PH_PS_COUNT][32];
	int ns = 0;

	for (int k = 0; k < nsw && k < PH_PS_COUNT; k++) {
		if (!sw[k].ran || !sw[k].n)
			continue;
		for (int i = 0; i < sw[k].n; i++) {
			x[k][i] = (double)sw[k].pt[i].ws;
			rnd[k][i] = sw[k].pt[i].rnd.st.median;
			tlb[k][i] = sw[k].pt[i].tlb.st.median;
		}
		snprintf(titles[ns], sizeof(titles[ns]), "%s random", psize_name(sw[k].ps));
		s[ns] = (struct plot_series){ .title = titles[ns], .n = sw[k].n, .x = x[k], .y = rnd[k],
					      .color = ns / 2 + 1 };
		ns++;
		snprintf(titles[ns], sizeof(titles[ns]), "%s TLB-local", psize_name(sw[k].ps));
		s[ns] = (struct plot_series){ .title = titles[ns], .n = sw[k].n, .x = x[k], .y = tlb[k],
					      .color = ns / 2 + 1, .dashed = true };
		ns++;
	}
	return plot_draw(PLOT_GNUPLOT, path, &p, s, ns, why, size);
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
	bool want[PH_PS_COUNT] = { false }, asked = false, thp = false;
	uint64_t lo = 16 * KiB, hi = 4 * GiB, window = 0;
	uint64_t seed = 1;
	const char *save = NULL, *plot_path = NULL;
	char why[512], *plot_skipped = NULL;
	struct psweep sw[PH_PS_COUNT];
	int nsw = 0, c, rc = PH_EXIT_OK, node, cpu = -1;
	struct ph_tlbs tlbs;
	struct ph_doc *doc = NULL;
	struct ph_table *t;
	const struct stream_kernel *read;

	session_init(&s, GiB);
	s.mcfg.time_s = 0.5;
	memset(sw, 0, sizeof(sw));
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
			memset(want, 0, sizeof(want));
			if (parse_psizes(optarg, want))
				goto usage;
			asked = true;
			break;
		case OPT_THP:
			thp = true;
			break;
		case OPT_MIN:
			if (cli_parse_size("--min", optarg, &lo))
				goto usage;
			break;
		case OPT_MAX:
			if (cli_parse_size("--max", optarg, &hi))
				goto usage;
			break;
		case OPT_TLB_WINDOW:
			if (cli_parse_size("--tlb-window", optarg, &window))
				goto usage;
			if (window % CHASE_SLOT || (window & (window - 1))) {
				ph_err("--tlb-window: %s is not a power of two of at least 64 bytes", optarg);
				goto usage;
			}
			break;
		case OPT_SEED:
			if (cli_parse_u64("--seed", optarg, &seed))
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
	if (lo < 4 * KiB || (lo & (lo - 1))) {
		ph_err("--min: the smallest working set must be a power of two of at least 4K");
		goto usage;
	}
	if (hi < lo) {
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

	rc = session_machine(&s);
	if (rc)
		goto out;
	tlb_load(s.cpu.vendor, &tlbs);
	if (!window) {
		int e;
		uint64_t r = tlb_reach(&tlbs, 1, 4096, &e);

		/* The L1 DTLB's reach: a window's pages all stay in the L1 DTLB. */
		window = r && !(r & (r - 1)) ? r : 256 * KiB;
	}
	read = stream_find("read", isa_best(), false);
	{
		struct ph_binding b;

		if (binding_resolve(&s.bind, &s.cpu, 1, &b, why, sizeof(why))) {
			ph_err("%s", why);
			rc = PH_EXIT_USAGE;
			goto out;
		}
		node = b.nodes[0];
		cpu = b.cpus[0];
		binding_free(&b);
	}
	if (!asked)
		want[PH_PS_4K] = want[PH_PS_2M] = want[PH_PS_1G] = true;
	want[PH_PS_THP] = thp;

	runner_catch_sigint();
	{
		struct sweep_machine m;
		struct sweep_avail av[PH_PS_COUNT];
		static const enum ph_psize order[] = { PH_PS_4K, PH_PS_2M, PH_PS_1G, PH_PS_THP };

		machine_of(&s, node, &m);
		sweep_availability(&m, av);
		for (size_t k = 0; k < ARRAY_SIZE(order) && !ph_interrupted; k++) {
			enum ph_psize ps = order[k];
			uint64_t sizes[MAX_POINTS], cap;
			int n;

			if (!want[ps])
				continue;
			sw[nsw].ps = ps;
			cap = av[ps].cap < hi ? av[ps].cap : hi;
			n = av[ps].ok ? sweep_sizes(lo, cap, sizes, MAX_POINTS) : 0;
			if (!n) {
				snprintf(sw[nsw].why, sizeof(sw[nsw].why), "%s",
					 av[ps].ok ? "less than --min can be had" : av[ps].why);
				if (asked && ps != PH_PS_THP)
					ph_warn("%s pages: %s; skipped", psize_name(ps), sw[nsw].why);
				nsw++;
				continue;
			}
			if (cap < hi && isatty(2))
				fprintf(stderr, "pages: %s capped at %s: %s\n", psize_name(ps),
					format_size(sizes[n - 1], (char[32]){ 0 }, 32), av[ps].why);
			rc = run_sweep(&s, &sw[nsw], sizes, n, window, seed, read);
			nsw++;
			if (rc)
				break;
		}
	}
	if (rc == PH_EXIT_USAGE)
		goto out;
	{
		/* Nothing measured: no document, the reasons on stderr, never exit 0. */
		int points = 0, fail = 0;
		char all[1024] = "";
		size_t len = 0;

		for (int k = 0; k < nsw; k++) {
			points += sw[k].n;
			fail = fail ? fail : sw[k].fail_rc;
			if (!sw[k].n && len < sizeof(all))
				len += (size_t)snprintf(all + len, sizeof(all) - len, "%s%s pages: %s",
							len ? "; " : "", psize_name(sw[k].ps),
							sw[k].why[0] ? sw[k].why : "measured nothing");
		}
		if (!points) {
			if (ph_interrupted) {
				ph_err("interrupted before anything was measured");
				rc = PH_EXIT_INTERRUPTED;
			} else {
				ph_err("nothing measured: %s", all[0] ? all : "no page size was asked");
				rc = rc ? rc : fail ? fail : PH_EXIT_UNSUPPORTED;
			}
			goto out;
		}
	}

	/* Knees: where the penalty (random - TLB-local) rises and stays up. */
	for (int k = 0; k < nsw; k++) {
		double pen[MAX_POINTS], noise[MAX_POINTS];

		for (int i = 0; i < sw[k].n; i++) {
			pen[i] = sw[k].pt[i].rnd.st.median - sw[k].pt[i].tlb.st.median;
			noise[i] = half_width(&sw[k].pt[i].rnd) + half_width(&sw[k].pt[i].tlb);
		}
		sweep_knee(pen, noise, sw[k].n, KNEE_FLOOR_NS, &sw[k].knee);
	}

	doc = doc_new("pages");
	t = doc_add_table(doc, "pages", "working-set sweep per page size");
	table_add_col(t, "page_size");
	table_add_col(t, "ws_KiB");
	latency_add_cols(t, "rnd_");
	latency_add_cols(t, "tlb_");
	table_add_col(t, "penalty_ns");
	bandwidth_add_cols(t, "read_");
	table_add_col(t, "backend");
	table_add_col(t, "node");
	table_add_col(t, "cpu");
	table_add_col(t, "clock");
	table_add_col(t, "verified");
	for (int k = 0; k < nsw; k++)
		for (int i = 0; i < sw[k].n; i++) {
			const struct point *p = &sw[k].pt[i];
			int r = table_add_row(t);

			table_str(t, r, "page_size", psize_name(sw[k].ps));
			table_int(t, r, "ws_KiB", (long long)(p->ws / KiB));
			latency_fill(t, r, "rnd_", &p->rnd, s.clk.tsc_hz);
			latency_fill(t, r, "tlb_", &p->tlb, s.clk.tsc_hz);
			table_num(t, r, "penalty_ns", p->rnd.st.median - p->tlb.st.median, "%.2f");
			bandwidth_fill(t, r, "read_", &p->bw);
			table_str(t, r, "backend", backend_name(buffer_auto_backend(&s.km, sw[k].ps)));
			table_int(t, r, "node", node);
			table_int(t, r, "cpu", cpu);
			table_str(t, r, "clock", s.clk.name);
			table_bool(t, r, "verified", s.all_verified);
		}
	{
		struct ph_table *kt = doc_add_table(doc, "knees", "where the TLB penalty appears");
		char sentence[512];

		table_add_col(kt, "page_size");
		table_add_col(kt, "knee_above_KiB");
		table_add_col(kt, "penalty_at_max_ns");
		table_add_col(kt, "tlb_reach_l1_KiB");
		table_add_col(kt, "tlb_reach_l2_KiB");
		table_add_col(kt, "summary");
		for (int k = 0; k < nsw; k++) {
			int r;
			uint64_t page = psize_bytes(sw[k].ps);

			if (!sw[k].n)
				continue;
			r = table_add_row(kt);
			table_str(kt, r, "page_size", psize_name(sw[k].ps));
			if (sw[k].knee.index > 0)
				table_int(kt, r, "knee_above_KiB", (long long)(sw[k].pt[sw[k].knee.index - 1].ws / KiB));
			table_num(kt, r, "penalty_at_max_ns", sw[k].knee.at_max, "%.1f");
			if (tlb_reach(&tlbs, 1, page, NULL))
				table_int(kt, r, "tlb_reach_l1_KiB", (long long)(tlb_reach(&tlbs, 1, page, NULL) / KiB));
			if (tlb_reach(&tlbs, 2, page, NULL))
				table_int(kt, r, "tlb_reach_l2_KiB", (long long)(tlb_reach(&tlbs, 2, page, NULL) / KiB));
			knee_sentence(&sw[k], &tlbs, sentence, sizeof(sentence));
			table_str(kt, r, "summary", sentence);
		}
	}
	{
		/* Large/small page ratios as speed-ups, per figure, at each working set both have. */
		struct ph_table *rt = doc_add_table(doc, "ratios", "large/small page speed-up (>1: large pages faster)");
		int small = -1;

		for (int k = 0; k < nsw; k++)
			if (sw[k].ps == PH_PS_4K && sw[k].n)
				small = k;
		table_add_col(rt, "ws_KiB");
		table_add_col(rt, "pages");
		table_add_col(rt, "lat_random");
		table_add_col(rt, "lat_tlb_local");
		table_add_col(rt, "read_bw");
		for (int k = 0; small >= 0 && k < nsw; k++) {
			if (k == small || !sw[k].n)
				continue;
			for (int i = 0; i < sw[k].n; i++)
				for (int j = 0; j < sw[small].n; j++) {
					const struct point *a = &sw[small].pt[j], *b = &sw[k].pt[i];
					char name[16];
					int r;

					if (a->ws != b->ws)
						continue;
					r = table_add_row(rt);
					snprintf(name, sizeof(name), "%s/4K", psize_name(sw[k].ps));
					table_int(rt, r, "ws_KiB", (long long)(a->ws / KiB));
					table_str(rt, r, "pages", name);
					table_num(rt, r, "lat_random", sweep_ratio(a->rnd.st.median, b->rnd.st.median, true), "%.3f");
					table_num(rt, r, "lat_tlb_local", sweep_ratio(a->tlb.st.median, b->tlb.st.median, true), "%.3f");
					table_num(rt, r, "read_bw", sweep_ratio(a->bw.res.st.median, b->bw.res.st.median, false), "%.3f");
				}
		}
		if (small < 0)
			doc_note(doc, "ratios: no 4K sweep to compare against");
	}
	for (int k = 0; k < nsw; k++)
		if (!sw[k].ran)
			doc_note(doc, "%s pages not measured: %s", psize_name(sw[k].ps), sw[k].why);
	{
		struct ph_section *sec = doc_add_section(doc, "pages_method", "the sweep");
		char w[32];

		section_int(sec, "node", node);
		section_int(sec, "seed", (long long)seed);
		section_str(sec, "tlb_window", format_size(window, w, sizeof(w)));
		section_str(sec, "tlb_source", tlbs.n ? tlbs.source : "not reported");
		section_str(sec, "penalty", "median random latency minus median TLB-local latency at the same working set");
		section_str(sec, "knee", "the first working set from which the penalty stays more than max(2 ns, twice the two CIs' half-widths) above its level at the three smallest working sets");
		section_str(sec, "ratio", "speed-up of the large page over 4K: latency 4K/large, bandwidth large/4K");
		section_str(sec, "held_fixed", "node, CPU, chain seed and pattern; the physical pages differ (each page size is its own allocation on the node)");
	}
	session_describe(&s, doc);
	if (plot_skipped)
		doc_note(doc, "--plot: %s; nothing plotted", plot_skipped);
	if (plot_path) {
		if (plot_sweeps(plot_path, sw, nsw, why, sizeof(why))) {
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
	for (int k = 0; k < nsw; k++)
		for (int i = 0; i < MAX_POINTS; i++) {
			result_free(&sw[k].pt[i].rnd);
			result_free(&sw[k].pt[i].tlb);
			bandwidth_free(&sw[k].pt[i].bw);
		}
	doc_free(doc);
	free(plot_skipped);
	free(opts);
	session_free(&s);
	return rc;
}
