// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_report.c - "pagehop report FILE.json... -o report.html": saved
 * documents of any command as one self-contained HTML page.  Reading is
 * read_report.c's, the page report_html.c's and svg.c's.  The page is
 * written whole or not at all (write_file_atomic): a bad input, or an
 * output that cannot be written, leaves no file.
 */
#include "commands.h"
#include "optspec.h"
#include "read_text.h"
#include "report.h"
#include "util.h"
#include "version.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OPT_OUTPUT = 1 };

static const struct ph_opt report_opts[] = {
	{ "output", 'o', "FILE", OPT_OUTPUT,
	  "the HTML page to write (- for standard output)", NULL, NULL },
	{ 0 },
};

static const struct ph_optgroup report_groups[] = {
	{ "report", report_opts },
	{ 0 },
};

const struct ph_cmdspec cmd_report_spec = {
	.name = "report",
	.synopsis = "-o FILE.html FILE.json...",
	.about =
	"Draw saved documents of any pagehop command (--format json) as one\n"
	"HTML page that needs nothing else: no network, no script.  The\n"
	"verdicts first, in words, with exit status and margin; then for each\n"
	"document its provenance (host, kernel, CPU, BIOS, time, command line),\n"
	"a heatmap of each matrix with the SLIT beside it and the cells outside\n"
	"tolerance outlined, the proposed SLIT, and its curves with their 95%\n"
	"CIs as error bars.  A document of a kind or version this pagehop does\n"
	"not know is named in the page as not shown, with the reason.\n",
	.groups = report_groups,
};

static int report_option(void *ctx, const struct ph_opt *o, const char *arg)
{
	const char **out = ctx;

	if (o->id != OPT_OUTPUT)
		return -EINVAL;
	*out = arg;
	return 0;
}

/* The page in memory, for write_file_atomic; 0 or -errno. */
static int render(const struct rep_doc *docs, int n, char **page, size_t *len)
{
	FILE *f = open_memstream(page, len);
	char *by;
	int rc;

	if (!f)
		return -errno;
	by = xasprintf("pagehop %s: %s", PAGEHOP_VERSION, ph_cmdline());
	rc = report_html(f, docs, n, by);
	free(by);
	if (fclose(f) && !rc)
		rc = -EIO;
	return rc;
}

int cmd_report(int argc, char *argv[])
{
	char **paths = xcalloc((size_t)argc + 1, sizeof(*paths)), err[1024], *page = NULL;
	const char *out = NULL;
	int npaths = opts_split_operands(&cmd_report_spec, &argc, argv, paths), n = 0, rc;
	struct rep_doc *docs = xcalloc((size_t)npaths + 1, sizeof(*docs));
	size_t len = 0;

	rc = opts_parse(&cmd_report_spec, argc, argv, report_option, &out);
	if (rc) {
		rc = rc == PH_OPTS_HELP ? PH_EXIT_OK : PH_EXIT_USAGE;
		goto done;
	}
	rc = PH_EXIT_USAGE;
	if (!out) {
		ph_err("no --output FILE; see 'pagehop report --help'");
		goto done;
	}
	if (!npaths) {
		ph_err("no FILE.json to report on; see 'pagehop report --help'");
		goto done;
	}
	if (strcmp(out, "-") && output_path_check(out, err, sizeof(err))) {
		ph_err("--output %s: %s", out, err);
		goto done;
	}
	for (; n < npaths; n++) {
		char *text = NULL;
		size_t tlen;

		if (read_input_file("FILE", paths[n], &text, &tlen, err, sizeof(err)) ||
		    report_read(paths[n], text, PAGEHOP_VERSION, &docs[n], err, sizeof(err))) {
			free(text);
			ph_err("%s", err);
			goto done;
		}
		free(text);
	}
	if (render(docs, n, &page, &len)) {
		ph_err("cannot build the page: %s", strerror(ENOMEM));
		rc = PH_EXIT_FAIL;
		goto done;
	}
	if (write_file_atomic(out, page, len, err, sizeof(err))) {
		ph_err("--output %s: %s", out, err);
		rc = PH_EXIT_FAIL;
		goto done;
	}
	rc = PH_EXIT_OK;
done:
	for (int i = 0; i < n; i++)
		report_doc_free(&docs[i]);
	free(docs);
	free(page);
	free(paths);
	return rc;
}
