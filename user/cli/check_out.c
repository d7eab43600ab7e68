// SPDX-License-Identifier: GPL-2.0-only
/*
 * check_out.c - check's verdict rendered as a monitoring plugin's output
 * (check_out.h).
 */
#include "check_out.h"
#include "prom.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int check_out_format(const char *arg, enum check_format *fmt)
{
	if (!strcmp(arg, "table") || !strcmp(arg, "json") || !strcmp(arg, "prom")) {
		*fmt = arg[0] == 't' ? CF_TABLE : arg[0] == 'j' ? CF_JSON : CF_PROM;
		return 0;
	}
	ph_err("--format: unknown format '%s'; expected table, json or prom", arg);
	return -EINVAL;
}

int check_out_check(const struct check_out *o)
{
	char why[512];

	if (o->prom_file && output_path_check(o->prom_file, why, sizeof(why))) {
		ph_err("--prom-file: %s: %s", o->prom_file, why);
		return PH_EXIT_USAGE;
	}
	return 0;
}

void check_out_render(const struct check_out *o, const struct ph_check *c, struct ph_doc *doc,
		      enum ph_format table_fmt, FILE *out, int *rc)
{
	bool judged = c->judged;
	char *prom = NULL, why[512];
	int err = 0;

	if (o->fmt == CF_PROM || o->prom_file)
		prom = prom_render(judged ? &c->d.set : NULL, judged ? &c->f : NULL, c->status,
				   now_mono_raw() - c->t0, (double)time(NULL));
	/* The performance data stays on the first line, which stays one line. */
	if (o->fmt == CF_TABLE)
		fprintf(out, "%s%s%s\n", c->line, c->perf[0] ? " | " : "", c->perf);
	/* Before measuring, the table is the line alone; the JSON its verdict. */
	if (o->fmt == CF_JSON || (o->fmt == CF_TABLE && judged))
		err = doc_render(doc, o->fmt == CF_JSON ? PH_FMT_JSON : table_fmt, out);
	if (o->fmt == CF_PROM)
		fputs(prom, out);
	if (o->prom_file && write_file_atomic(o->prom_file, prom, strlen(prom), why, sizeof(why))) {
		ph_err("--prom-file: %s: %s", o->prom_file, why);
		err = -1;
	}
	if (err)
		*rc = PH_H_UNKNOWN;
	free(prom);
}
