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
#include "bandwidth.h"
#include "chase.h"
#include "commands.h"
#include "latency.h"
#include "prefetch.h"
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

struct pf_state {
	char name[96];		/* "as found", "l2_stream off", "all off" */
	uint64_t disable;
};

/* The largest cache, to say whether the working set is "well beyond" it. */
static uint64_t llc_bytes(const struct ph_cpu *c)
{
	uint64_t best = 0;

	for (int i = 0; i < c->ncaches; i++)
		if (strcmp(c->caches[i].type, "instruction") && c->caches[i].size > best)
			best = c->caches[i].size;
	return best;
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
	struct chase_spec *specs = NULL;
	int nspecs = 0, c, rc = PH_EXIT_OK, nstates = 0;
	bool no_control = false;
	uint64_t seed = 1;
	const char *patterns = DEFAULT_PATTERNS;
	struct ph_pf pf;
	struct pf_state states[16];
	char off_orig[128];
	struct ph_doc *doc = NULL;
	struct ph_table *lt, *bt, *ft;
	const struct stream_kernel *plain, *swpf;

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
	    latency_parse_patterns("--patterns", patterns, seed, &specs, &nspecs))
		goto usage;
	if (s.bind.physcpubind && numa_bitmask_weight(s.bind.physcpubind) != 1) {
		ph_err("--physcpubind: the study runs on one CPU; give one");
		goto usage;
	}
	s.bind.threads = 1;

	rc = session_machine(&s);
	if (rc)
		goto out;
	runner_catch_sigint();
	rc = session_start(&s, 1);
	if (rc)
		goto out;
	for (int i = 0; i < nspecs; i++) {
		char name[64];

		if (chase_slots(s.per_thread, &specs[i]) < 1) {
			ph_err("--patterns %s does not fit a %llu-byte working set",
			       chase_spec_name(&specs[i], name, sizeof(name)),
			       (unsigned long long)s.per_thread);
			rc = PH_EXIT_USAGE;
			goto out;
		}
	}
	plain = stream_find("read", isa_best(), false);
	swpf = swpf_find(isa_best());

	/* The states to measure in. */
	if (no_control) {
		memset(&pf, 0, sizeof(pf));
		snprintf(pf.why, sizeof(pf.why), "prefetcher control not attempted (--no-control)");
	} else {
		pf_probe(&s.km, s.binding.cpus[0], &pf);
	}
	states[nstates++] = (struct pf_state){ .name = "as found", .disable = pf.original };
	if (pf.control) {
		for (int i = 0; i < pf.nbits && nstates < (int)ARRAY_SIZE(states) - 1; i++) {
			uint64_t bit = 1ull << pf.bits[i].bit;

			if (!(pf.supported & bit) || (pf.original & bit))
				continue;	/* cannot be set, or already off */
			snprintf(states[nstates].name, sizeof(states[nstates].name), "%s off",
				 pf.bits[i].name);
			states[nstates++].disable = pf.original | bit;
		}
		snprintf(states[nstates].name, sizeof(states[nstates].name), "all off");
		states[nstates++].disable = pf.original | pf.supported;
	} else {
		ph_warn("%s; measuring the access patterns alone", pf.why);
	}

	doc = doc_new("prefetch");
	lt = doc_add_table(doc, "latency", "latency per access pattern");
	table_add_col(lt, "prefetchers_off");
	table_add_col(lt, "pattern");
	latency_add_cols(lt, "");
	session_add_common_cols(lt);
	bt = doc_add_table(doc, "bandwidth", "read bandwidth, with and without software prefetch");
	table_add_col(bt, "prefetchers_off");
	table_add_col(bt, "kernel");
	table_add_col(bt, "isa");
	bandwidth_add_cols(bt, "");
	session_add_common_cols(bt);
	ft = doc_add_table(doc, "benefit", "what prefetching is worth");
	table_add_col(ft, "prefetchers_off");
	table_add_col(ft, "random_ns");
	table_add_col(ft, "seq_ns");
	table_add_col(ft, "prefetch_benefit");
	table_add_col(ft, "read_GBps");
	table_add_col(ft, "read_swpf_GBps");
	table_add_col(ft, "swpf_gain");

	for (int k = 0; k < nstates && !ph_interrupted; k++) {
		char off[128];
		double rnd = 0, seq = 0, bw_plain = 0, bw_swpf = 0;
		int fr;

		if (pf.control) {
			uint64_t now = 0;
			int err = pf_set(&s.km, &pf, states[k].disable, &now);

			if (err) {
				ph_errno(-err, "setting the prefetchers of CPU %d to %s", pf.cpu,
					 states[k].name);
				rc = PH_EXIT_FAIL;
				break;
			}
			/* What the register holds, read back, not what was asked. */
			if (now != (states[k].disable & pf.supported)) {
				ph_err("setting the prefetchers of CPU %d to %s: the register holds 0x%llx (off: %s), not 0x%llx",
				       pf.cpu, states[k].name, (unsigned long long)now,
				       pf_names(&pf, now, off, sizeof(off)),
				       (unsigned long long)(states[k].disable & pf.supported));
				rc = PH_EXIT_FAIL;
				break;
			}
			states[k].disable = now;
		}
		pf_names(&pf, pf.control ? states[k].disable : 0, off, sizeof(off));
		if (!pf.control)
			snprintf(off, sizeof(off), "as found (not controllable)");
		for (int i = 0; i < nspecs && !ph_interrupted; i++) {
			struct ph_latency lat;
			char name[64];
			int row, err;

			err = latency_figure(&s, &specs[i], 1, false, &lat);
			if (!lat.user.n) {
				rc = err ? err : PH_EXIT_FAIL;
				latency_free(&lat);
				goto restore;
			}
			row = table_add_row(lt);
			table_str(lt, row, "prefetchers_off", off);
			table_str(lt, row, "pattern", chase_spec_name(&specs[i], name, sizeof(name)));
			latency_fill(lt, row, "", &lat.user, s.clk.tsc_hz);
			session_fill_common(&s, lt, row);
			if (specs[i].pattern == CHASE_RANDOM)
				rnd = lat.user.st.median;
			if (specs[i].pattern == CHASE_SEQ)
				seq = lat.user.st.median;
			latency_free(&lat);
			if (err) {
				rc = err;
				goto restore;
			}
		}
		for (int j = 0; j < 2 && !ph_interrupted; j++) {
			const struct stream_kernel *kk = j ? swpf : plain;
			struct ph_bandwidth bw;
			int row, err;

			err = bandwidth_figure(&s, kk, &bw);
			if (!bw.res.n) {
				rc = err ? err : PH_EXIT_FAIL;
				bandwidth_free(&bw);
				goto restore;
			}
			row = table_add_row(bt);
			table_str(bt, row, "prefetchers_off", off);
			table_str(bt, row, "kernel", kk->name);
			table_str(bt, row, "isa", isa_name(kk->isa));
			bandwidth_fill(bt, row, "", &bw);
			session_fill_common(&s, bt, row);
			*(j ? &bw_swpf : &bw_plain) = bw.res.st.median;
			bandwidth_free(&bw);
			if (err) {
				rc = err;
				goto restore;
			}
		}
		fr = table_add_row(ft);
		table_str(ft, fr, "prefetchers_off", off);
		if (rnd > 0)
			table_num(ft, fr, "random_ns", rnd, "%.2f");
		if (seq > 0)
			table_num(ft, fr, "seq_ns", seq, "%.2f");
		if (rnd > 0 && seq > 0)
			table_num(ft, fr, "prefetch_benefit", rnd / seq, "%.2f");
		table_num(ft, fr, "read_GBps", bw_plain, "%.2f");
		table_num(ft, fr, "read_swpf_GBps", bw_swpf, "%.2f");
		if (bw_plain > 0)
			table_num(ft, fr, "swpf_gain", bw_swpf / bw_plain, "%.3f");
	}
restore:
	if (pf.control) {
		uint64_t now = 0;
		char why[128];
		int err = pf_set(&s.km, &pf, pf.original, &now);

		if (err)
			snprintf(why, sizeof(why), "%s", strerror(-err));
		else
			snprintf(why, sizeof(why), "the register holds 0x%llx",
				 (unsigned long long)now);
		if (err || now != (pf.original & pf.supported)) {
			ph_err("could not put the prefetchers of CPU %d back to 0x%llx (off: %s): %s; closing pagehop.ko's fd restores what pagehop changed",
			       pf.cpu, (unsigned long long)pf.original,
			       pf_names(&pf, pf.original, off_orig, sizeof(off_orig)), why);
			rc = PH_EXIT_FAIL;
		}
	}
	if (!session_still_verified(&s) && !rc)
		rc = PH_EXIT_FAIL;
	{
		struct ph_section *sec = doc_add_section(doc, "prefetch_method", "the study");
		char buf[128];

		section_int(sec, "cpu", s.binding.cpus[0]);
		section_bool(sec, "control", pf.control);
		if (pf.control) {
			section_str(sec, "msr", pf_msr_name(pf.msr_kind));
			section_str(sec, "controllable", pf_names(&pf, pf.supported, buf, sizeof(buf)));
			section_str(sec, "off_as_found", pf_names(&pf, pf.original, buf, sizeof(buf)));
			section_str(sec, "restored", "to the state as found, after the study (and by the module when the fd closes)");
		} else {
			section_str(sec, "why_no_control", pf.why);
		}
		section_int(sec, "swpf_distance_B", SWPF_DISTANCE);
		section_str(sec, "prefetch_benefit", "median random latency / median sequential latency");
		section_str(sec, "swpf_gain", "read bandwidth with prefetcht0 2 KiB ahead / without");
		if (llc_bytes(&s.cpu) && s.size < 8 * llc_bytes(&s.cpu))
			doc_note(doc, "--size %llu MiB is less than 8x the largest cache (%llu MiB): caches will hide part of what prefetching does",
				 (unsigned long long)(s.size / MiB),
				 (unsigned long long)(llc_bytes(&s.cpu) / MiB));
	}
	if (!pf.control)
		doc_note(doc, "%s", pf.why);
	session_describe(&s, doc);
	session_buffers_table(&s, doc);
	rc = session_render(&s, doc, rc);
	goto out;
usage:
	rc = PH_EXIT_USAGE;
out:
	doc_free(doc);
	free(specs);
	free(opts);
	session_free(&s);
	return rc;
}
