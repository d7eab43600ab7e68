/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cxl_judge.h - each firmware entry behind a CXL node's coordinates (the
 * device's CDAT DSLBIS, the generic port's HMAT figure) against the
 * measurement, one entry at a time, with the HMAT check's rules: the
 * relative error (entry - measured) / measured against --tolerance (15%),
 * each measured value uncertain by its CI or --noise (2.5%), whichever
 * is wider.
 *
 * The measurement is of the whole path, so each entry is judged against
 * what the measurement implies for it with the other parts as the tables
 * and Linux give them: a latency entry against the best measured read
 * latency less the other two parts, a bandwidth entry only where it is
 * the least of the three (elsewhere it cannot show) or the measurement
 * exceeds it.  The link is computed by Linux from the PCIe link, not
 * read from a table: it is shown, never blamed.  Write figures cannot be
 * told: pagehop measures reads (chase, read bandwidth).
 *
 * An entry agrees when |error| + uncertainty <= tolerance, is off when
 * |error| - uncertainty > tolerance, and cannot be told between, or when
 * the measured figure missed its CI target or the implied value is not
 * positive (the other parts alone exceed the measurement).
 */
#ifndef PAGEHOP_CXL_JUDGE_H
#define PAGEHOP_CXL_JUDGE_H

#include "cxl_explain.h"

#include <stdbool.h>

/* One measured row: read latency and read bandwidth from a CPU node to a CXL node. */
struct ph_cxl_measured {
	int node, cpu_node;
	bool have_lat, have_bw;
	double lat_ns, lat_lo, lat_hi;	/* lo, hi NAN: no CI */
	double bw_GBps, bw_lo, bw_hi;
	bool lat_ci_met, bw_ci_met;	/* true where no CI was recorded: the noise stands for it */
};

enum ph_cxl_verdict {
	PH_CXL_AGREES = 1,
	PH_CXL_OFF,
	PH_CXL_CANNOT_TELL,
	/*
	 * Not to be seen here, whatever is measured: a write figure, or a
	 * bandwidth below which another part binds.  Not part of the verdict.
	 */
	PH_CXL_UNSEEN,
};

struct ph_cxl_judged {
	int node;
	const char *source;	/* "device CDAT", "generic port", "link" */
	char entry[64];		/* "DSLBIS read_latency (DSMAS 0)", "HMAT read latency to domain 4" */
	int fig;		/* enum ph_cxl_fig */
	double table;		/* the entry: ns, or GB/s from the table's MiB/s */
	double implied;		/* what the measurement implies for it, NAN none */
	double rel_err, unc;	/* (table - implied) / implied; the uncertainty, fractions */
	int cpu_node;		/* whose measurement, -1 none */
	enum ph_cxl_verdict verdict;
	char why[128];		/* for CANNOT TELL, and what an OFF entry should be */
};

/*
 * Judge the entries of every explained node e[0..ne) against the measured
 * rows m[0..nm): out[0..returned) (malloc'd).  tolerance and noise are
 * fractions (0.15, 0.025).
 */
int cxl_judge(const struct ph_cxl_explained *e, int ne, const struct ph_cxl_measured *m, int nm,
	      double tolerance, double noise, struct ph_cxl_judged **out);
const char *cxl_verdict_name(enum ph_cxl_verdict v);

/*
 * The device's CDAT t with its measured figures: each memory-hierarchy
 * DSLBIS of the range the node's coordinates came from (e->cdat_handle)
 * whose figure was judged (agrees, off or cannot tell; not a figure
 * that is not seen) gets the value the measurement implies for it: a
 * latency in ns as entry x base unit ps, a bandwidth from GB/s to MiB/s
 * (as the HMAT check reads tables); the base unit is kept unless the
 * entry would not fit in 16 bits (then it grows tenfold until it does).
 * An access-latency or access-bandwidth entry sets write as well: it is
 * left as it is (said in *why).  out is t's copy (cdat_free it); returns
 * how many entries changed, or -1 (why says it) when t cannot be copied.
 */
int cxl_propose_cdat(const struct ph_cdat *t, const struct ph_cxl_explained *e,
		     const struct ph_cxl_judged *j, int nj, struct ph_cdat *out, const char **why);

struct ph_doc;
/*
 * Table cxl_judge and a note per entry that is off, naming its source;
 * returns the exit code of the verdict: 0 every judged entry agrees, 1 an
 * entry is off, 5 (cannot tell) none is off but one could not be told, or
 * none could be judged at all.
 */
int cxl_judge_report(struct ph_doc *doc, const struct ph_cxl_judged *j, int n, double tolerance,
		     double noise);

#endif
