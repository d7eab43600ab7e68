/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * check_out.h - "pagehop check"'s output as a monitoring plugin gives it
 * (check.h's verdict): the status line with the performance data after
 * '|' and the tables, the JSON document, or node_exporter's textfile
 * metrics; and --prom-file, the metrics written atomically beside the
 * output.  The study driver calls it as check's single render.
 */
#ifndef PAGEHOP_CHECK_OUT_H
#define PAGEHOP_CHECK_OUT_H

#include <stdio.h>

#include "check.h"
#include "output.h"

enum check_format { CF_TABLE, CF_JSON, CF_PROM };

struct check_out {
	enum check_format fmt;		/* --format */
	const char *prom_file;		/* --prom-file, or NULL */
};

/* --format table|json|prom: 0, or -EINVAL after the one-line error. */
int check_out_format(const char *arg, enum check_format *fmt);
/* Before the run: --prom-file's directory.  0, or PH_EXIT_USAGE after the error. */
int check_out_check(const struct check_out *o);
/*
 * c's verdict on out in o->fmt (a table in table_fmt, the table or the
 * verbose one), doc being check_document()'s; then --prom-file.  *rc
 * becomes UNKNOWN when either cannot be written.
 */
void check_out_render(const struct check_out *o, const struct ph_check *c, struct ph_doc *doc,
		      enum ph_format table_fmt, FILE *out, int *rc);

#endif
