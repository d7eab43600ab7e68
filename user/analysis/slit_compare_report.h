/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * slit_compare_report.h - part of the "pagehop slit" report (slit_report.h).
 */
#ifndef PAGEHOP_SLIT_COMPARE_REPORT_H
#define PAGEHOP_SLIT_COMPARE_REPORT_H

#include "output.h"
#include "slit_words.h"

/*
 * The sections that set job's measurement against the SLIT, into doc: the
 * input and distance matrices, each CPU node's local reference, the
 * levels, and with a SLIT the ordering violations and magnitudes, then the
 * asymmetry.  Rows are made when doc is rendered: job and a must outlive it.
 */
void slit_report_compare(struct ph_doc *doc, const struct ph_slit_job *job, const struct ph_analysis *a);

#endif
