/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cxl_report.h - the CXL memory devices and their firmware tables as the
 * tables of a document (pagehop info).
 */
#ifndef PAGEHOP_CXL_REPORT_H
#define PAGEHOP_CXL_REPORT_H

#include "acpi_cedt.h"
#include "acpi_srat.h"
#include "cxl.h"

struct ph_doc;

/*
 * Tables cxl_memdevs, cxl_cdat, cxl_cdat_findings, cxl_regions and
 * cxl_access; a note when no CXL memory device is found.
 */
void cxl_report(struct ph_doc *doc, const struct ph_cxl *c);
/*
 * Table acpi_cxl_findings: the structural findings of the SRAT and CEDT
 * at these paths (PH_ACPI_SRAT_PATH, PH_ACPI_CEDT_PATH: this machine's);
 * a note for a table that cannot be read or parsed, when neither is
 * there, or when nothing was found.
 */
void acpi_cxl_report(struct ph_doc *doc, const char *srat_path, const char *cedt_path);

#endif
