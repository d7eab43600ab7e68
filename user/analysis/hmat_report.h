/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hmat_report.h - the firmware's whole HMAT in a "pagehop slit" report.
 */
#ifndef PAGEHOP_HMAT_REPORT_H
#define PAGEHOP_HMAT_REPORT_H

#include "acpi_hmat.h"
#include "hmat_table.h"
#include "output.h"

/*
 * A section "hmat_table" for the table at path as acpi_hmat_read() left it
 * (err 0 and t, or its -errno and why), and with err 0 the tables of every
 * entry, the domains, caches, ordering disagreements, ratios and the
 * tiering check of v.  Everything is copied: t and v may go afterwards.
 */
void hmat_report(struct ph_doc *doc, const char *path, int err, const char *why,
		 const struct ph_acpi_hmat *t, const struct ph_hmat_view *v);

#endif
