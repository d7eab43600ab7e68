/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * slit_job.h - what "pagehop slit" analyses and reports on (slit_report.h):
 * the matrix, the SLIT and HMAT, where each came from.
 */
#ifndef PAGEHOP_SLIT_JOB_H
#define PAGEHOP_SLIT_JOB_H

#include "distance.h"

struct ph_acpi_slit;

/* What was analysed and where each part came from; every pointer borrowed. */
struct ph_slit_job {
	const struct ph_nmatrix *m;	/* the analysed figure */
	const char *input;		/* a file name, or e.g. "measured by this run" */
	const char *figure;		/* "latency_ns", "bandwidth_read_GBps", a CSV block name */
	const char *source;		/* who measured it (provenance line); may be NULL */
	const struct ph_nmatrix *latency;	/* for the HMAT comparison; may be NULL */
	const struct ph_nmatrix *read_bw;	/* likewise */
	const struct ph_slit *slit;	/* NULL: nothing to compare with */
	const char *slit_from;		/* where the SLIT came from */
	const struct ph_hmat *hmat;
	int nhmat;
	int ci_not_met;			/* cells whose CI target was missed */
	struct ph_dist_opts opts;
	/*
	 * Measured on this machine: its firmware SLIT as acpi_slit_read()
	 * left it, judged beside the verdict.  fw_path NULL: not looked at
	 * (an input file may come from another machine).
	 */
	const char *fw_path;
	int fw_err;
	const char *fw_why;
	const struct ph_acpi_slit *fw;
};

#endif
