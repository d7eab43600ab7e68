// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_stream.c - "pagehop stream": STREAM's copy, scale, add and triad,
 * plus read and write, on verified memory, per ISA and store kind.
 */
#include "bandwidth.h"
#include "commands.h"
#include "session.h"
#include "stream.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	OPT_KERNEL = 1,
	OPT_ISA,
	OPT_NT,
};

static void stream_usage(void)
{
	printf("usage: pagehop stream [OPTIONS]\n"
	       "\n"
	       "Memory bandwidth with STREAM's kernels on verified memory, all threads\n"
	       "pinned and started together.  GB/s counts bytes as STREAM does (each\n"
	       "element read or written once); bw_wa_GBps also counts the write-allocate\n"
	       "read of every stored line (not for --nt).  Reports the median, the best,\n"
	       "the 95%% confidence interval of the median and the sample count; the\n"
	       "arrays are checked afterwards.\n"
	       "\n"
	       "stream:\n"
	       "  --kernel K[,K...]      copy, scale, add, triad, read, write (default all)\n"
	       "  --isa auto|scalar|sse2|avx2|avx512   (default auto: the widest here)\n"
	       "  --nt                   non-temporal stores (read stores nothing: it runs as is)\n"
	       "  (default --size 1G: the working set of the arrays a kernel uses, all\n"
	       "  threads together; default --threads: one per core)\n"
	       "%s"
	       "'pagehop list' prints every kernel variant.\n", session_common_usage);
}

static int parse_kernels(const char *arg, const char ***out, int *n)
{
	char *copy, *save = NULL;
	int count = 0;

	*out = NULL;
	if (cli_check_list("--kernel", arg, "kernels separated by commas, e.g. copy,triad"))
		return -EINVAL;
	copy = xstrdup(arg);
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		bool known = false;

		for (size_t i = 0; i < stream_nkernels; i++)
			known |= !strcmp(stream_kernels[i].name, tok);
		if (!known) {
			ph_err("--kernel: unknown kernel '%s'; expected copy, scale, add, triad, read or write", tok);
			free(copy);
			free(*out);
			*out = NULL;
			return -EINVAL;
		}
		*out = xrealloc(*out, (size_t)(count + 1) * sizeof(**out));
		for (size_t i = 0; i < stream_nkernels; i++)
			if (!strcmp(stream_kernels[i].name, tok)) {
				(*out)[count++] = stream_kernels[i].name;
				break;
			}
	}
	free(copy);
	if (!count) {
		ph_err("--kernel: empty; expected copy, scale, add, triad, read or write");
		return -EINVAL;
	}
	*n = count;
	return 0;
}

int cmd_stream(int argc, char *argv[])
{
	static const struct option own[] = {
		{ "kernel", required_argument, NULL, OPT_KERNEL },
		{ "isa", required_argument, NULL, OPT_ISA },
		{ "nt", no_argument, NULL, OPT_NT },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const all[] = { "copy", "scale", "add", "triad", "read", "write" };
	struct option *opts = session_options(own);
	struct ph_session s;
	const char **names = NULL;
	const struct stream_kernel **ks = NULL;
	int nnames = 0, c, rc = PH_EXIT_OK;
	enum ph_isa isa = 0;
	bool nt = false;
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
		case OPT_KERNEL:
			free(names);
			if (parse_kernels(optarg, &names, &nnames))
				goto usage;
			break;
		case OPT_ISA:
			if (isa_parse(optarg, &isa)) {
				ph_err("--isa: unknown ISA '%s'; expected auto, scalar, sse2, avx2 or avx512", optarg);
				goto usage;
			}
			break;
		case OPT_NT:
			nt = true;
			break;
		case 'h':
		case OPT_HELP:
			stream_usage();
			goto out;
		default:
			cli_option_error(c, argv, opts);
			goto usage;
		}
	}
	if (cli_no_arguments(argc, argv))
		goto usage;
	if (!isa)
		isa = isa_best();
	if (!isa_supported(isa)) {
		ph_err("--isa %s: this CPU (or the OS) does not support it; the widest here is %s",
		       isa_name(isa), isa_name(isa_best()));
		rc = PH_EXIT_UNSUPPORTED;
		goto out;
	}
	if (!names) {
		names = xcalloc(ARRAY_SIZE(all), sizeof(*names));
		for (size_t i = 0; i < ARRAY_SIZE(all); i++)
			names[nnames++] = all[i];
	}
	ks = xcalloc((size_t)nnames, sizeof(*ks));
	for (int i = 0; i < nnames; i++) {
		ks[i] = stream_find(names[i], isa, nt && strcmp(names[i], "read"));
		if (!ks[i]) {
			ph_err("--kernel %s: no %s variant%s", names[i], isa_name(isa), nt ? " with --nt" : "");
			goto usage;
		}
	}

	rc = session_machine(&s);
	if (rc)
		goto out;
	runner_catch_sigint();
	rc = session_start(&s, 0);
	if (rc)
		goto out;

	doc = doc_new("stream");
	t = doc_add_table(doc, "stream", "bandwidth");
	table_add_col(t, "kernel");
	table_add_col(t, "isa");
	table_add_col(t, "nt");
	bandwidth_add_cols(t, "");
	session_add_common_cols(t);
	for (int i = 0; i < nnames && !ph_interrupted; i++) {
		struct ph_bandwidth bw;
		int err, row;

		err = bandwidth_figure(&s, ks[i], &bw);
		if (!bw.res.n) {
			rc = err ? err : PH_EXIT_FAIL;
			bandwidth_free(&bw);
			break;
		}
		row = table_add_row(t);
		table_str(t, row, "kernel", ks[i]->name);
		table_str(t, row, "isa", isa_name(ks[i]->isa));
		table_bool(t, row, "nt", ks[i]->nt);
		bandwidth_fill(t, row, "", &bw);
		session_fill_common(&s, t, row);
		if (err)
			rc = err;
		bandwidth_free(&bw);
	}
	if (!session_still_verified(&s))
		rc = PH_EXIT_FAIL;
	session_describe(&s, doc);
	{
		struct ph_section *sec = doc_add_section(doc, "stream_method", "stream");

		section_str(sec, "sample", bandwidth_method);
		section_str(sec, "arrays", bandwidth_arrays);
	}
	session_buffers_table(&s, doc);
	rc = session_render(&s, doc, rc);
	goto out;
usage:
	rc = PH_EXIT_USAGE;
out:
	doc_free(doc);
	free(names);
	free(ks);
	free(opts);
	session_free(&s);
	return rc;
}
