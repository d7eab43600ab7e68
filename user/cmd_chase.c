// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_chase.c - "pagehop chase": load-to-use latency by pointer chasing on
 * verified memory, in user space and, with pagehop.ko, inside the kernel
 * with interrupts off.
 */
#include "chase.h"
#include "commands.h"
#include "session.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	OPT_PATTERN = 1,
	OPT_CHAINS,
	OPT_SEED,
	OPT_IN_KERNEL,
};

/*
 * A timed block lasts about 5 ms: 250,000 times the TSC's resolution here,
 * and short enough that a 2 s budget gives a few hundred samples.  A timer
 * tick (every 1-4 ms) lands in most blocks and adds a few microseconds: at
 * most 0.1%, and the same in every block.
 */
#define BLOCK_SECONDS 0.005

struct chase_run {
	struct ph_session *s;
	struct chase_spec spec;
	unsigned chains;
	void **start;		/* per thread */
	int64_t *nslots;	/* per thread */
	void **heads;		/* per thread, CHASE_MAX_CHAINS each */
	int *err;		/* per thread */
	uint64_t hops;		/* per chain per block */
	uint64_t *ticks;
};

static void work_build(void *ctx, int tid)
{
	struct chase_run *r = ctx;
	struct ph_segment *seg = &r->s->segs[tid];
	struct chase_spec spec = r->spec;

	/* Each thread its own chain: same pattern, seed offset by thread. */
	spec.seed += (uint64_t)tid;
	/* The chain covers the working set asked for, not the page rounding. */
	r->nslots[tid] = chase_build(seg->addr, r->s->per_thread, &spec, &r->start[tid]);
	r->err[tid] = r->nslots[tid] < 0 ? (int)r->nslots[tid] : 0;
}

/* The untimed warm-up: one full cycle, checked to be one cycle. */
static void work_verify(void *ctx, int tid)
{
	struct chase_run *r = ctx;

	r->err[tid] = chase_verify(r->start[tid], (uint64_t)r->nslots[tid],
				   &r->heads[tid * CHASE_MAX_CHAINS], r->chains);
}

static void work_walk(void *ctx, int tid)
{
	struct chase_run *r = ctx;

	chase_walk(&r->heads[tid * CHASE_MAX_CHAINS], r->chains, r->hops);
}

/* One block on every thread; the sample is the mean time per load. */
static int sample_user(void *ctx, double *sample)
{
	struct chase_run *r = ctx;
	struct ph_session *s = r->s;
	double sum = 0;

	team_run(s->team, work_walk, r, &s->clk, r->ticks);
	for (int i = 0; i < s->binding.n; i++)
		sum += clock_ticks_to_ns(&s->clk, r->ticks[i]) / (double)(r->hops * r->chains);
	*sample = sum / s->binding.n;
	return 0;
}

/* Grow the block until it lasts about BLOCK_SECONDS (these runs are discarded). */
static void calibrate(struct chase_run *r)
{
	struct ph_session *s = r->s;

	r->hops = 1024;
	for (int i = 0; i < 20; i++) {
		double slowest = 0;

		team_run(s->team, work_walk, r, &s->clk, r->ticks);
		for (int t = 0; t < s->binding.n; t++) {
			double sec = clock_ticks_to_ns(&s->clk, r->ticks[t]) * 1e-9;

			slowest = sec > slowest ? sec : slowest;
		}
		if (slowest >= BLOCK_SECONDS / 2)
			break;
		r->hops = slowest > 0 ? (uint64_t)((double)r->hops * BLOCK_SECONDS / slowest) + 1 :
			r->hops * 16;
	}
}

/* ---- in-kernel chase through pagehop.ko ---- */

struct kernel_run {
	struct chase_run *r;
	uint64_t off;		/* where the next window starts */
	uint64_t total_hops;
	uint32_t loads;
	uint64_t cycles[16];
	unsigned have, next;
	int err;
};

static int sample_kernel(void *ctx, double *sample)
{
	struct kernel_run *k = ctx;
	struct ph_session *s = k->r->s;

	if (k->next == k->have) {
		uint64_t end;
		int err = kmod_chase(&s->km, s->segs[0].kbuf.id, s->binding.cpus[0], k->off,
				     k->loads, 16, k->cycles, &end);

		if (err) {
			k->err = err;
			return err;
		}
		k->off = end;
		k->total_hops += (uint64_t)k->loads * 16;
		k->have = 16;
		k->next = 0;
	}
	*sample = (double)k->cycles[k->next++] * 1e9 / s->clk.tsc_hz / k->loads;
	return 0;
}

static void chase_usage(void)
{
	char pat[1024];
	size_t len = 0;

	for (size_t i = 0; i < chase_npatterns; i++)
		len += (size_t)snprintf(pat + len, sizeof(pat) - len, "  %-22s %s\n",
					chase_patterns[i].syntax, chase_patterns[i].desc);
	printf("usage: pagehop chase [OPTIONS]\n"
	       "\n"
	       "Load-to-use latency by pointer chasing: every load's address comes from\n"
	       "the load before, through one random cycle over 64-byte slots of verified\n"
	       "memory.  Reports ns and TSC cycles per load: median, minimum, the 95%%\n"
	       "confidence interval of the median, and the sample count.\n"
	       "\n"
	       "chase:\n"
	       "  --pattern P[,P...]     access patterns (default random):\n%s"
	       "  --chains K             walk K independent chains at once (1-16): the\n"
	       "                         time per load then shows memory-level parallelism\n"
	       "  --seed N               chain seed (default 1): the same seed, the same chain\n"
	       "  --in-kernel            also walk the chain inside pagehop.ko with interrupts\n"
	       "                         off (needs --backend kmod, one thread, one chain)\n"
	       "  (default --size 1G: the working set, all threads together)\n"
	       "%s", pat, session_common_usage);
}

static int parse_patterns(const char *arg, struct chase_spec **out, int *n)
{
	char *copy = xstrdup(arg), *save = NULL;
	int count = 0;

	*out = NULL;
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		struct chase_spec sp = { 0 };

		if (chase_parse(tok, &sp)) {
			ph_err("--pattern: unknown pattern '%s'; expected random, tlb:SIZE, page[:SIZE], seq or stride:N (sizes in multiples of 64 bytes)",
			       tok);
			free(copy);
			free(*out);
			*out = NULL;
			return -EINVAL;
		}
		*out = xrealloc(*out, (size_t)(count + 1) * sizeof(**out));
		(*out)[count++] = sp;
	}
	free(copy);
	if (!count) {
		ph_err("--pattern: empty; expected random, tlb:SIZE, page[:SIZE], seq or stride:N");
		return -EINVAL;
	}
	*n = count;
	return 0;
}

static void add_figure(struct ph_table *t, int row, const char *prefix,
		       const struct ph_result *res, double tsc_hz, bool with_min)
{
	char col[48];

	snprintf(col, sizeof(col), "%slat_ns", prefix);
	table_num(t, row, col, res->st.median, "%.2f");
	if (with_min) {
		snprintf(col, sizeof(col), "%slat_min_ns", prefix);
		table_num(t, row, col, res->st.min, "%.2f");
	}
	snprintf(col, sizeof(col), "%sci_lo_ns", prefix);
	table_num(t, row, col, res->st.ci_lo, "%.2f");
	snprintf(col, sizeof(col), "%sci_hi_ns", prefix);
	table_num(t, row, col, res->st.ci_hi, "%.2f");
	snprintf(col, sizeof(col), "%sci_pct", prefix);
	table_num(t, row, col, res->st.ci_rel * 100, "%.2f");
	snprintf(col, sizeof(col), "%sci_met", prefix);
	table_bool(t, row, col, res->ci_met);
	snprintf(col, sizeof(col), "%ssamples", prefix);
	table_int(t, row, col, (long long)res->n);
	snprintf(col, sizeof(col), "%stsc_cycles", prefix);
	table_num(t, row, col, res->st.median * tsc_hz * 1e-9, "%.1f");
}

int cmd_chase(int argc, char *argv[])
{
	static const struct option own[] = {
		{ "pattern", required_argument, NULL, OPT_PATTERN },
		{ "chains", required_argument, NULL, OPT_CHAINS },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "in-kernel", no_argument, NULL, OPT_IN_KERNEL },
		{ NULL, 0, NULL, 0 },
	};
	struct option *opts = session_options(own);
	struct ph_session s;
	struct chase_spec *specs = NULL;
	int nspecs = 0, c, rc = PH_EXIT_OK;
	unsigned chains = 1, u;
	unsigned long long seed = 1;
	bool in_kernel = false;
	struct chase_run r = { 0 };
	struct ph_doc *doc = NULL;
	struct ph_table *t;
	char *end;

	session_init(&s, GiB);
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":f:h", opts, NULL)) != -1) {
		int h = session_parse_option(&s, c == 'f' ? OPT_FORMAT : c, optarg);

		if (h < 0)
			goto usage;
		if (h > 0)
			continue;
		switch (c) {
		case OPT_PATTERN:
			free(specs);
			if (parse_patterns(optarg, &specs, &nspecs))
				goto usage;
			break;
		case OPT_CHAINS:
			if (cli_parse_uint("--chains", optarg, 1, CHASE_MAX_CHAINS, &u))
				goto usage;
			chains = u;
			break;
		case OPT_SEED:
			seed = strtoull(optarg, &end, 0);
			if (!*optarg || *end) {
				ph_err("--seed: invalid number '%s'; expected an unsigned integer", optarg);
				goto usage;
			}
			break;
		case OPT_IN_KERNEL:
			in_kernel = true;
			break;
		case 'h':
		case OPT_HELP:
			chase_usage();
			goto out;
		default:
			cli_option_error(c, argv, opts);
			goto usage;
		}
	}
	if (optind < argc) {
		ph_err("unexpected argument '%s'; see 'pagehop chase --help'", argv[optind]);
		goto usage;
	}
	if (!specs && parse_patterns("random", &specs, &nspecs))
		goto usage;
	for (int i = 0; i < nspecs; i++)
		specs[i].seed = seed;
	if (in_kernel && (chains != 1 || s.bind.threads > 1)) {
		ph_err("--in-kernel: walks one chain on one thread; drop --chains/--threads");
		goto usage;
	}

	rc = session_machine(&s);
	if (rc)
		goto out;
	if (in_kernel && !kmod_has(&s.km, PAGEHOP_FEAT_CHASE)) {
		ph_err("--in-kernel: %s", s.km.fd < 0 ? s.km.why :
		       "the loaded pagehop.ko has no CHASE");
		rc = PH_EXIT_UNSUPPORTED;
		goto out;
	}
	if (in_kernel && s.bufreq.backend != PH_BACKEND_KMOD &&
	    buffer_auto_backend(&s.km, s.bufreq.psize) != PH_BACKEND_KMOD) {
		ph_err("--in-kernel: the chain must be in pagehop.ko's memory, which cannot have %s pages here",
		       psize_name(s.bufreq.psize));
		rc = PH_EXIT_UNSUPPORTED;
		goto out;
	}
	if (in_kernel)
		s.bufreq.backend = PH_BACKEND_KMOD;
	runner_catch_sigint();
	rc = session_start(&s, 1);
	if (!rc && s.per_thread < 2 * CHASE_SLOT * chains) {
		ph_err("--size: %llu bytes is too small for %d threads x %u chains",
		       (unsigned long long)s.size, s.binding.n, chains);
		rc = PH_EXIT_USAGE;
	}
	if (rc)
		goto out;
	/* Every pattern must fit before anything is measured or printed. */
	for (int p = 0; p < nspecs; p++) {
		char name[64];

		if (chase_slots(s.per_thread, &specs[p]) < (int64_t)chains) {
			ph_err("--pattern %s does not fit a %llu-byte working set per thread (its size must divide it and be at most half of it)",
			       chase_spec_name(&specs[p], name, sizeof(name)),
			       (unsigned long long)s.per_thread);
			rc = PH_EXIT_USAGE;
			goto out;
		}
	}
	doc = doc_new("chase");
	t = doc_add_table(doc, "chase", "latency per load");
	table_add_col(t, "pattern");
	table_add_col(t, "chains");
	table_add_col(t, "lat_ns");
	table_add_col(t, "lat_min_ns");
	table_add_col(t, "ci_lo_ns");
	table_add_col(t, "ci_hi_ns");
	table_add_col(t, "ci_pct");
	table_add_col(t, "ci_met");
	table_add_col(t, "samples");
	table_add_col(t, "tsc_cycles");
	if (in_kernel) {
		table_add_col(t, "kern_lat_ns");
		table_add_col(t, "kern_ci_lo_ns");
		table_add_col(t, "kern_ci_hi_ns");
		table_add_col(t, "kern_ci_pct");
		table_add_col(t, "kern_ci_met");
		table_add_col(t, "kern_samples");
		table_add_col(t, "kern_tsc_cycles");
	}
	session_add_common_cols(t);

	r.s = &s;
	r.chains = chains;
	r.start = xcalloc((size_t)s.binding.n, sizeof(void *));
	r.nslots = xcalloc((size_t)s.binding.n, sizeof(int64_t));
	r.heads = xcalloc((size_t)s.binding.n * CHASE_MAX_CHAINS, sizeof(void *));
	r.err = xcalloc((size_t)s.binding.n, sizeof(int));
	r.ticks = xcalloc((size_t)s.binding.n, sizeof(uint64_t));

	for (int p = 0; p < nspecs && !ph_interrupted; p++) {
		struct ph_result res = { 0 }, kres = { 0 };
		struct ph_mcfg cfg = s.mcfg;
		char name[64], label[96];
		int row;

		r.spec = specs[p];
		chase_spec_name(&r.spec, name, sizeof(name));
		team_run(s.team, work_build, &r, &s.clk, r.ticks);
		for (int i = 0; i < s.binding.n; i++)
			if (r.err[i]) {
				ph_errno(-r.err[i], "building the %s chain of thread %d", name, i);
				rc = PH_EXIT_FAIL;
				goto render;
			}
		team_run(s.team, work_verify, &r, &s.clk, r.ticks);
		for (int i = 0; i < s.binding.n; i++)
			if (r.err[i]) {
				ph_err("the %s chain of thread %d is not one full cycle", name, i);
				rc = PH_EXIT_FAIL;
				goto render;
			}
		calibrate(&r);
		snprintf(label, sizeof(label), "chase %s", name);
		cfg.label = label;
		measure_figure(&cfg, sample_user, &r, &res);

		row = table_add_row(t);
		table_str(t, row, "pattern", name);
		table_int(t, row, "chains", chains);
		add_figure(t, row, "", &res, s.clk.tsc_hz, true);
		session_fill_common(&s, t, row);

		if (in_kernel && !ph_interrupted) {
			struct kernel_run k = { .r = &r };
			char *base = s.segs[0].addr;
			void *p2;
			uint64_t walk;

			/* Windows of at most the ABI's limit, at most ~4 ms each. */
			k.loads = res.st.median > 0 ?
				(uint32_t)fmin(PAGEHOP_CHASE_MAX_LOADS, 0.004e9 / res.st.median) : 1024;
			k.loads = k.loads ? k.loads : 1;
			k.off = (uint64_t)((char *)r.start[0] - base);
			chase_to_offsets(r.start[0], (uint64_t)r.nslots[0], base);
			snprintf(label, sizeof(label), "chase %s in pagehop.ko", name);
			cfg.label = label;
			measure_figure(&cfg, sample_kernel, &k, &kres);
			chase_to_pointers(base, (uint64_t)((char *)r.start[0] - base),
					  (uint64_t)r.nslots[0]);
			if (k.err) {
				ph_errno(-k.err, "pagehop.ko CHASE");
				rc = PH_EXIT_FAIL;
			} else {
				/* The kernel must have stopped where a user walk of as many hops does. */
				p2 = r.start[0];
				walk = k.total_hops % (uint64_t)r.nslots[0];
				chase_walk(&p2, 1, walk);
				if ((uint64_t)((char *)p2 - base) != k.off) {
					ph_err("pagehop.ko CHASE ended at offset %llu, the chain says %llu",
					       (unsigned long long)k.off,
					       (unsigned long long)((char *)p2 - base));
					rc = PH_EXIT_FAIL;
				}
				add_figure(t, row, "kern_", &kres, s.clk.tsc_hz, false);
			}
			result_free(&kres);
		}
		result_free(&res);
	}
	if (!session_still_verified(&s))
		rc = PH_EXIT_FAIL;
render:
	session_describe(&s, doc);
	{
		struct ph_section *sec = doc_add_section(doc, "chase_method", "chase");

		section_int(sec, "seed", (long long)seed);
		section_int(sec, "slot_B", CHASE_SLOT);
		section_str(sec, "sample", "one block of hops (~5 ms) per sample; per-load time = block time / (hops x chains), averaged over threads");
		if (in_kernel)
			section_str(sec, "kern_sample", "one CHASE window (interrupts off) per sample; TSC cycles converted at tsc_hz");
	}
	session_buffers_table(&s, doc);
	if (!s.all_verified)
		doc_note(doc, "the memory was NOT verified to be where or what was asked (see buffers); figures are marked verified=no");
	if (ph_interrupted) {
		doc_note(doc, "interrupted: the figures above are what was measured before SIGINT");
		rc = PH_EXIT_INTERRUPTED;
	}
	if (doc_render(doc, s.fmt, stdout))
		rc = PH_EXIT_FAIL;
	goto out;
usage:
	rc = PH_EXIT_USAGE;
out:
	doc_free(doc);
	free(r.start);
	free(r.nslots);
	free(r.heads);
	free(r.err);
	free(r.ticks);
	free(specs);
	free(opts);
	session_free(&s);
	return rc;
}
