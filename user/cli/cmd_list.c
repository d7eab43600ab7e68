// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_list.c - "pagehop list": every measured loop, printed from the same
 * tables the commands run from.
 */
#include "chase.h"
#include "commands.h"
#include "common_opts.h"
#include "output.h"
#include "session.h"
#include "stream.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>

static const struct ph_opt out_opts[] = { PH_OPT_FORMAT, { 0 } };

static const struct ph_optgroup list_groups[] = {
	{ "output", out_opts },
	{ 0 },
};

static const struct ph_refusal list_refused[] = {
	PH_REFUSE_MEASURING("list measures nothing: it prints the loops' tables"),
	{ 0 },
};

const struct ph_cmdspec cmd_list_spec = {
	.name = "list",
	.synopsis = "[OPTIONS]",
	.about =
	"Every bandwidth kernel variant (with the bytes it moves per element,\n"
	"as STREAM counts them and with write-allocate) and whether this CPU can\n"
	"run it, what each kernel computes, and every chase pattern.\n",
	.groups = list_groups,
	.refused = list_refused,
};

/* The loops' tables as a document. */
static struct ph_doc *list_doc(void)
{
	struct ph_doc *doc = doc_new("list");
	struct ph_table *t;

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
	/* The variant every command runs unless --isa says otherwise, and why. */
	t = doc_add_table(doc, "stream_auto", "what --isa auto runs here (docs/methodology.md)");
	table_add_col(t, "kernel");
	table_add_col(t, "nt");
	table_add_col(t, "isa");
	table_add_col(t, "why");
	for (size_t i = 0; i < stream_nkernels; i++) {
		const struct stream_kernel *k = &stream_kernels[i];
		const char *why = NULL;
		int r;

		if (stream_auto(k->name, k->nt, &why) != k)
			continue;
		r = table_add_row(t);
		table_str(t, r, "kernel", k->name);
		table_bool(t, r, "nt", k->nt);
		table_str(t, r, "isa", isa_name(k->isa));
		table_str(t, r, "why", why);
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
	return doc;
}

/* --format and --verbose are the options. */
static int list_option(void *ctx, const struct ph_opt *o, const char *arg)
{
	return common_format_option(o, arg, ctx) ? -EINVAL : 0;
}

int cmd_list(int argc, char *argv[])
{
	enum ph_format fmt = PH_FMT_TABLE;
	struct ph_doc *doc;
	int rc = opts_parse(&cmd_list_spec, argc, argv, list_option, &fmt);

	if (rc)
		return rc == PH_OPTS_HELP ? PH_EXIT_OK : PH_EXIT_USAGE;
	doc = list_doc();
	/* A write error is said once, by main. */
	rc = doc_render(doc, fmt, stdout) ? PH_EXIT_FAIL : PH_EXIT_OK;
	doc_free(doc);
	return rc;
}
