/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * slit_report.h - the report of "pagehop slit", reusable: offline it is built from
 * a file (--input), online from a matrix "pagehop matrix" has just measured.
 */
#ifndef PAGEHOP_SLIT_REPORT_H
#define PAGEHOP_SLIT_REPORT_H

#include "distance.h"
#include "output.h"
#include "slit_job.h"
#include "slit_words.h"

struct ph_acpi_slit;

/*
 * Analyse job into a, and describe the analysis in doc.  0, or -EINVAL
 * with a one-line reason in err (nothing to normalise).
 */
int slit_analyse(const struct ph_slit_job *job, struct ph_analysis *a,
		 char *err, size_t errlen);
/*
 * The report of a into doc.  Its per-cell tables and matrices are made
 * from job and a when doc is rendered: both must outlive the rendering.
 */
void slit_report(const struct ph_slit_job *job, const struct ph_analysis *a,
		 struct ph_doc *doc);
/*
 * A firmware SLIT (binary ACPI table) at path, as acpi_slit_read() left it
 * (err 0 and t, or its -errno and why), judged as Linux judges it: a
 * section "firmware_slit" saying whether Linux uses it and, if not, why.
 * this_machine: path is the running kernel's own table.
 */
void slit_report_firmware(struct ph_doc *doc, const char *path, bool this_machine,
			  int err, const char *why, const struct ph_acpi_slit *t);

#endif
