/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cxl_study.h - pagehop cxl's study: each CXL memory node of this machine
 * (cxl.h), its access coordinates explained source by source
 * (cxl_explain.h) from the device's CDAT, the SRAT and HMAT's generic
 * port and the PCIe link.
 */
#ifndef PAGEHOP_CXL_STUDY_H
#define PAGEHOP_CXL_STUDY_H

#include "acpi_hmat.h"
#include "acpi_srat.h"
#include "cxl.h"
#include "cxl_explain.h"
#include "cxl_judge.h"
#include "matrix.h"
#include "steps.h"

struct ph_cxl_study {
	/* the command's options */
	const char *input;	/* --input: a saved document to judge offline, NULL this machine */
	double tolerance, noise;	/* fractions */
	bool no_measure;	/* --no-measure: explain only */
	const char *emit_cdat;	/* --emit-cdat: the device's CDAT with the measured figures */
	const char *emit_hmat;	/* --emit-hmat: the HMAT with the generic port's entries, iasl source */
	const char *hmat_table;	/* --hmat-table: the firmware HMAT --emit-hmat carries, NULL this machine's */
	const char *cdat_file;	/* --cdat: the device's CDAT --emit-cdat rewrites, with --input */
	/* the state */
	const char *root;	/* "" this machine; the test binary's PAGEHOP_CXL_ROOT */
	struct ph_cxl c;
	struct ph_acpi_srat srat;
	struct ph_acpi_hmat hmat;
	bool have_srat, have_hmat;
	struct ph_acpi_hmat given_hmat;	/* read from hmat_table */
	bool have_given_hmat;
	struct ph_cdat given_cdat;	/* read from cdat_file */
	bool have_given_cdat;
	char srat_why[256], hmat_why[256];
	struct ph_cxl_explained *e;
	int ne;
	struct ph_cxl_measured *m;	/* the measured rows (from --input, or measured here) */
	int nm;
	struct ph_cxl_tiering tiering;	/* this machine's tiers and weights (with --input, only when same_boot) */
	char input_boot[40];	/* --input's provenance boot_id, "" none */
	bool same_boot;		/* --input was made in this boot of this machine */
	struct ph_mx mx;	/* the measurement: every CPU node to the CXL nodes */
	bool measured_here, all_verified;
};

/*
 * The steps (steps.h), on a struct ph_cxl_study.  measure: with --input,
 * reads the document (a bad one is exit 2); else the CXL devices, the
 * SRAT and HMAT, where no CXL memory node is exit 4 with the reason on
 * stderr; then (unless no_measure) read latency and read bandwidth from
 * every CPU node to each CXL node, as pagehop matrix measures a cell, on
 * verified memory; a --hmat-table that cannot be read or parsed is exit 2,
 * as is a --cdat that cannot, or whose figures are not the document's
 * device CDAT's (another device's table).
 * document: the explanation; with measured rows the judgement
 * of every entry (cxl_judge.h), whose verdict is *rc.
 */
extern const struct ph_steps cxl_steps;

#endif
