/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tfindings.h - what a structural check of a firmware table found (CDAT,
 * SRAT, CEDT), in the spirit of fwts: each finding has a severity, the
 * table and structure it is about (by its offset), and one sentence.
 */
#ifndef PAGEHOP_TFINDINGS_H
#define PAGEHOP_TFINDINGS_H

#include <stddef.h>

enum ph_tseverity {
	PH_T_INFO = 0,		/* worth knowing, changes nothing */
	PH_T_WARNING,		/* Linux reads it, not as meant, or has less than it could */
	PH_T_ERROR,		/* Linux ignores it, or the tables contradict themselves */
};

struct ph_tfinding {
	enum ph_tseverity sev;
	const char *table;	/* "CDAT", "SRAT", "CEDT" */
	const char *structure;	/* its kind ("DSMAS", "CFMWS"), or "table" */
	size_t off;		/* its offset in the table; 0 for the table */
	char what[240];
};

struct ph_tfindings {
	struct ph_tfinding *f;
	int n;
	int count[3];		/* by severity */
};

void tfindings_add(struct ph_tfindings *out, enum ph_tseverity sev, const char *table,
		   const char *structure, size_t off, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
void tfindings_free(struct ph_tfindings *f);
/* "info", "warning", "error". */
const char *tseverity_name(enum ph_tseverity s);

#endif
