// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_chase.c - "pagehop chase": load-to-use latency by pointer chasing on
 * verified memory, in user space and, with pagehop.ko, inside the kernel
 * with interrupts off.
 */
#include "chase.h"
#include "commands.h"
#include "latency.h"
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
	uint64_t seed = 1;
	const char *patterns = "random";
	bool in_kernel = false;
	struct ph_doc *doc = NULL;
	struct ph_table *t;

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
			patterns = optarg;
			break;
		case OPT_CHAINS:
			if (cli_parse_uint("--chains", optarg, 1, CHASE_MAX_CHAINS, &u))
				goto usage;
			chains = u;
			break;
		case OPT_SEED:
			if (cli_parse_u64("--seed", optarg, &seed))
				goto usage;
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
	if (cli_no_arguments(argc, argv) ||
	    cli_check_list("--pattern", patterns, "patterns separated by commas, e.g. random,seq") ||
	    latency_parse_patterns("--pattern", patterns, seed, &specs, &nspecs))
		goto usage;
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
	latency_add_cols(t, "");
	if (in_kernel)
		latency_add_cols(t, "kern_");
	session_add_common_cols(t);

	for (int p = 0; p < nspecs && !ph_interrupted; p++) {
		struct ph_latency lat;
		char name[64];
		int row, err;

		err = latency_figure(&s, &specs[p], chains, in_kernel, &lat);
		if (!lat.user.n) {
			rc = err ? err : PH_EXIT_FAIL;
			latency_free(&lat);
			break;
		}
		row = table_add_row(t);
		table_str(t, row, "pattern", chase_spec_name(&specs[p], name, sizeof(name)));
		table_int(t, row, "chains", chains);
		latency_fill(t, row, "", &lat.user, s.clk.tsc_hz);
		if (lat.have_kern && !err)
			latency_fill(t, row, "kern_", &lat.kern, s.clk.tsc_hz);
		session_fill_common(&s, t, row);
		if (err)
			rc = err;
		latency_free(&lat);
	}
	if (!session_still_verified(&s))
		rc = PH_EXIT_FAIL;
	session_describe(&s, doc);
	{
		struct ph_section *sec = doc_add_section(doc, "chase_method", "chase");

		section_int(sec, "seed", (long long)seed);
		section_int(sec, "slot_B", CHASE_SLOT);
		section_str(sec, "sample", latency_method);
		if (in_kernel)
			section_str(sec, "kern_sample", "one CHASE window (interrupts off, at most 1 ms of TSC) per sample: its TSC cycles over the hops it took, converted at tsc_hz");
	}
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
