/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * slit_report.h - the report of "pagehop slit", reusable: offline it is built from
 * a file (--input), online from a matrix "pagehop matrix" has just measured.
 */
#ifndef PAGEHOP_SLIT_REPORT_H
#define PAGEHOP_SLIT_REPORT_H

#include "distance.h"
#include "output.h"
#include "topology.h"

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
};

/*
 * Analyse job into a, and describe the analysis in doc.  0, or -EINVAL
 * with a one-line reason in err (nothing to normalise).
 */
int slit_analyse(const struct ph_slit_job *job, struct ph_analysis *a,
		 char *err, size_t errlen);
void slit_report(const struct ph_slit_job *job, const struct ph_analysis *a,
		 struct ph_doc *doc);
/* The one-line verdict: "inconsistent: measurement shows 1 level, SLIT has 3". */
char *slit_summary(const struct ph_analysis *a);

#endif
