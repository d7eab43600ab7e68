// SPDX-License-Identifier: GPL-2.0-only
/*
 * tfindings.c - the list of a firmware table check's findings.
 */
#include "tfindings.h"
#include "util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *tseverity_name(enum ph_tseverity s)
{
	return s == PH_T_ERROR ? "error" : s == PH_T_WARNING ? "warning" : "info";
}

void tfindings_add(struct ph_tfindings *out, enum ph_tseverity sev, const char *table,
		   const char *structure, size_t off, const char *fmt, ...)
{
	struct ph_tfinding *f = xappend(&out->f, &out->n, sizeof(*f));
	va_list ap;

	f->sev = sev;
	f->table = table;
	f->structure = structure;
	f->off = off;
	va_start(ap, fmt);
	vsnprintf(f->what, sizeof(f->what), fmt, ap);
	va_end(ap);
	out->count[sev]++;
}

void tfindings_free(struct ph_tfindings *f)
{
	free(f->f);
	memset(f, 0, sizeof(*f));
}
