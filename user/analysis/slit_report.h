/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * slit_report.h - the report of "pagehop slit", reusable: offline it is built from
 * a file (--input), online from a matrix "pagehop matrix" has just measured.
 */
#ifndef PAGEHOP_SLIT_REPORT_H
#define PAGEHOP_SLIT_REPORT_H

#include "distance.h"
#include "output.h"

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
 * The node pairs of one level as the report prints them: "local (4 nodes)
 * {0,1} {2,3} 4>0" ({a,b} both ways in the level, a>b one way only).
 */
char *slit_level_pairs(const struct ph_dmatrix *d, const struct ph_levels *l, int level);
/* The one-line verdict: "inconsistent: measurement shows 1 level, SLIT has 3". */
char *slit_summary(const struct ph_analysis *a);
/*
 * Why Linux ignores a SLIT that slit_linux_check() rejected, one sentence;
 * unit ("node", "locality") names the indexes from and to of the entry.
 */
char *slit_rejection(const struct ph_slit_check *c, const char *unit,
		     int from, int to);
/*
 * A firmware SLIT (binary ACPI table) at path, as acpi_slit_read() left it
 * (err 0 and t, or its -errno and why), judged as Linux judges it: a
 * section "firmware_slit" saying whether Linux uses it and, if not, why.
 * this_machine: path is the running kernel's own table.
 */
void slit_report_firmware(struct ph_doc *doc, const char *path, bool this_machine,
			  int err, const char *why, const struct ph_acpi_slit *t);

#endif
