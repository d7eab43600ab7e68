// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_list.c - "pagehop list": every measured loop, printed from the same
 * tables the commands run from.
 */
#include "chase.h"
#include "cli.h"
#include "commands.h"
#include "output.h"
#include "stream.h"
#include "util.h"

#include <getopt.h>
#include <stdio.h>

int cmd_list(int argc, char *argv[])
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	enum ph_format fmt = PH_FMT_TABLE;
	struct ph_doc *doc;
	struct ph_table *t;
	int c, rc = PH_EXIT_OK;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":f:h", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (cli_parse_format("--format", optarg, &fmt))
				return PH_EXIT_USAGE;
			break;
		case 'h':
			printf("usage: pagehop list [--format table|csv|json]\n\n"
			       "Every bandwidth kernel variant (with the bytes it moves per element,\n"
			       "as STREAM counts them and with write-allocate), whether this CPU can\n"
			       "run it, and every chase pattern.\n");
			return PH_EXIT_OK;
		default:
			cli_option_error(c, argv, opts);
			return PH_EXIT_USAGE;
		}
	}
	if (cli_no_arguments(argc, argv))
		return PH_EXIT_USAGE;
	doc = doc_new("list");
	t = doc_add_table(doc, "stream_kernels",
			  "bandwidth kernel variants (pagehop stream --kernel K --isa I [--nt])");
	table_add_col(t, "kernel");
	table_add_col(t, "isa");
	table_add_col(t, "nt");
	table_add_col(t, "arrays");
	table_add_col(t, "bytes_per_elem");
	table_add_col(t, "bytes_per_elem_wa");
	table_add_col(t, "runs_here");
	for (size_t i = 0; i < stream_nkernels; i++) {
		const struct stream_kernel *k = &stream_kernels[i];
		int r = table_add_row(t);

		table_str(t, r, "kernel", k->name);
		table_str(t, r, "isa", isa_name(k->isa));
		table_bool(t, r, "nt", k->nt);
		table_int(t, r, "arrays", k->arrays);
		table_int(t, r, "bytes_per_elem", k->bytes_stream);
		table_int(t, r, "bytes_per_elem_wa", k->bytes_wa);
		table_bool(t, r, "runs_here", isa_supported(k->isa));
	}
	/* What an op computes is the same in every variant: said once. */
	t = doc_add_table(doc, "stream_ops", "what each bandwidth kernel computes (pagehop stream --kernel)");
	table_add_col(t, "kernel");
	table_add_col(t, "description");
	for (size_t i = 0; i < stream_nops; i++) {
		int r = table_add_row(t);

		table_str(t, r, "kernel", stream_ops[i].name);
		table_str(t, r, "description", stream_ops[i].desc);
	}
	t = doc_add_table(doc, "chase_patterns", "chase patterns (pagehop chase --pattern)");
	table_add_col(t, "pattern");
	table_add_col(t, "description");
	for (size_t i = 0; i < chase_npatterns; i++) {
		int r = table_add_row(t);

		table_str(t, r, "pattern", chase_patterns[i].syntax);
		table_str(t, r, "description", chase_patterns[i].desc);
	}
	if (doc_render(doc, fmt, stdout))
		rc = PH_EXIT_FAIL;
	doc_free(doc);
	return rc;
}
