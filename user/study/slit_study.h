/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * slit_study.h - "pagehop slit" as a study: take a measured matrix (from a
 * file, or measured on this machine by the matrix engine), analyse it
 * against a SLIT (distance.h), report it (slit_report.h), write the
 * proposed SLIT when asked (slit_emit.h), and give the exit status of the
 * verdict.
 */
#ifndef PAGEHOP_SLIT_STUDY_H
#define PAGEHOP_SLIT_STUDY_H

#include <stdbool.h>

#include "distance.h"
#include "matrix.h"
#include "nmatrix.h"
#include "output.h"
#include "session.h"
#include "slit_emit.h"

/* One run of the study, as the command's options make it. */
struct ph_slit_plan {
	const char *input;	/* a file ("-": standard input); NULL: measure this machine */
	const char *slit;	/* numactl --hardware text; NULL: the SLIT recorded with
				 * the input, or this machine's */
	enum ph_figure fig;	/* which figure to analyse */
	enum ph_orient orient;	/* --orientation of the input; 0: as it says, else CPU rows */
	struct ph_dist_opts opts;	/* tolerance and noise */
	struct ph_acpi_out acpi;	/* acpi.path NULL: no --emit-acpi */
	struct ph_acpi_out hmat_acpi;	/* path NULL: no --emit-hmat; table: the HMAT
					 * of its IDs (--hmat-table, or this machine's) */
	const char *hmat_table;	/* a binary HMAT to read entry by entry; NULL: this
				 * machine's when measuring it, none for --input */
	const char *hwloc;	/* --hwloc FILE: the matrices as hwloc XML; NULL: none */
	const char *kernel_version;	/* --kernel-version: the measured machine's kernel; NULL none */
	bool this_kernel;	/* --this-kernel: this machine's kernel and sysfs for any input */
	/* measuring only */
	const char *save;	/* keep the measurement (pagehop's JSON); NULL: not kept */
	bool psize_given;	/* else the largest page every memory node can give */
};

/*
 * Where the report goes: the command's output (it renders in --format).
 * The study calls emit once, with the document whose rows are drawn from
 * the analysis, while that analysis is alive; emit returns 0, or non-zero
 * when the output failed.
 */
struct ph_slit_out {
	int (*emit)(void *ctx, struct ph_doc *doc);
	void *ctx;
	/* Each cell as it is measured (--save: the command's), or NULL. */
	ph_mx_cell_fn on_cell;
	void *cell_ctx;
};

/*
 * Read p->input and p->slit, analyse, hand the report to out.  The
 * verdict's exit status (verdict_exit()), PH_EXIT_USAGE after one line on
 * stderr for an input that cannot be used, PH_EXIT_FAIL when out fails.
 */
int slit_study_file(const struct ph_slit_plan *p, const struct ph_slit_out *out);

/*
 * Measure this machine with s (its options applied) as "pagehop matrix"
 * does, latency and read bandwidth (and triad when p->fig asks for it),
 * then analyse the measurement as slit_study_file() analyses a file, and
 * judge the machine's own ACPI SLIT beside it.  On a single node nothing is
 * measured: there is nothing to compare (exit 0).  p->slit is read before
 * anything is measured.  Returns as slit_study_file(), or the measuring
 * engine's exit code.
 */
int slit_study_machine(struct ph_session *s, const struct ph_slit_plan *p,
		       const struct ph_slit_out *out);

#endif
