/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * slit_model_report.h - part of the "pagehop slit" report (slit_report.h).
 */
#ifndef PAGEHOP_SLIT_MODEL_REPORT_H
#define PAGEHOP_SLIT_MODEL_REPORT_H

#include "output.h"
#include "slit_words.h"

/*
 * The sections that model job's measurement, into doc: the HMAT's local
 * figures against it (if job has an HMAT), the per-hop model and the
 * proposed SLIT.  Rows are made when doc is rendered: job and a must
 * outlive it.
 */
void slit_report_model(struct ph_doc *doc, const struct ph_slit_job *job, const struct ph_analysis *a);

#endif
