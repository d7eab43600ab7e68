/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cdat_check.h - what a parsed CDAT says that Linux cannot use or will
 * read otherwise than the device meant, in the spirit of fwts: structures
 * that name no range, ranges that overlap or run past their range, ranges
 * with no figure, figures the kernel drops (no information, unreachable,
 * an overflowing product) and figures given twice.  Each finding has a
 * severity and names the structure by its offset in the table.
 */
#ifndef PAGEHOP_CDAT_CHECK_H
#define PAGEHOP_CDAT_CHECK_H

#include "cdat.h"

#include <stddef.h>

enum ph_cdat_severity {
	PH_CDAT_INFO = 0,	/* worth knowing, changes nothing */
	PH_CDAT_WARNING,	/* Linux reads it, not as meant, or has less than it could */
	PH_CDAT_ERROR,		/* Linux ignores it, or the table contradicts itself */
};

struct ph_cdat_finding {
	enum ph_cdat_severity sev;
	int type;		/* the structure's (enum ph_cdat_type), -1 for the table */
	size_t off;		/* its offset in the table */
	char what[200];
};

struct ph_cdat_findings {
	struct ph_cdat_finding *f;
	int n;
	int count[3];		/* by severity */
};

/* Judge t; out holds every finding, in the table's order of structures by type. */
void cdat_check(const struct ph_cdat *t, struct ph_cdat_findings *out);
void cdat_findings_free(struct ph_cdat_findings *f);
/* "info", "warning", "error". */
const char *cdat_severity_name(enum ph_cdat_severity s);

#endif
