/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * slit_study.h - "pagehop slit" as a study: take a measured matrix (from a
 * file, or measured on this machine by the matrix engine), analyse it
 * against a SLIT (distance.h), report it (slit_report.h), write the
 * proposed SLIT when asked (slit_emit.h), and give the exit status of the
 * verdict.  The steps are those of a study (study.h): the command's driver
 * runs them and renders the document; nothing here renders or prints on
 * stdout.
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
	struct ph_acpi_out acpi;	/* acpi.path NULL: no --emit-acpi; its OEM fields
					 * name those of both tables written */
	struct ph_acpi_out hmat_acpi;	/* path NULL: no --emit-hmat; table: the HMAT
					 * of its IDs (--hmat-table, or this machine's) */
	const char *hmat_table;	/* a binary HMAT to read entry by entry; NULL: this
				 * machine's when measuring it, none for --input */
	const char *hwloc;	/* --hwloc FILE: the matrices as hwloc XML; NULL: none */
	const char *kernel_version;	/* --kernel-version: the measured machine's kernel; NULL none */
	bool this_kernel;	/* --this-kernel: this machine's kernel and sysfs for any input */
	/* measuring only */
	const char *save;	/* keep the measurement (pagehop's JSON); NULL: not kept */
};

/*
 * What the plan says together, before anything is read: options that go
 * only with others, standard input named twice, an input-only figure
 * without an input, two outputs on one file.  measuring names the
 * measuring options when one was given (NULL: none), refused with an
 * input.  0, or PH_EXIT_USAGE after one line on stderr.
 */
int slit_plan_check(const struct ph_slit_plan *p, const char *measuring);

/* One run: what was read or measured, and its analysis while the document is made. */
struct ph_slit_study;

/*
 * A run of p, which must outlive it; on_cell (or NULL) gets each cell as
 * it is measured, with cell_ctx (--save: the command's).
 */
struct ph_slit_study *slit_study_new(const struct ph_slit_plan *p, ph_mx_cell_fn on_cell, void *cell_ctx);

/*
 * Read --input (with one), --slit and --hmat-table, or this machine's HMAT
 * when measuring; then, measuring, plan the matrix on s's machine
 * (s->topo.nnodes 0: a kernel without NUMA).  On a single node nothing is
 * to be measured: there is nothing to compare, unless an output was asked
 * for (--save, --emit-*, --hwloc), which is named on stderr:
 * PH_EXIT_UNSUPPORTED.  0, PH_EXIT_USAGE after one line on stderr for an
 * input that cannot be used, or the matrix engine's exit code.
 */
int slit_study_plan(struct ph_slit_study *r, struct ph_session *s);

/*
 * Measure this machine as "pagehop matrix" does, latency and read
 * bandwidth (and triad when p->fig asks for it), when measuring more than
 * one node; then analyse the input or the measurement against the SLIT
 * given, or the one recorded with it.  0, PH_EXIT_USAGE after one line
 * when they cannot be compared, or the engine's exit code (130 after a
 * signal: nothing to compare).
 */
int slit_study_measure(struct ph_slit_study *r, struct ph_session *s);

/* Whether there is a report: an analysis, or nothing to compare on one node. */
bool slit_study_reported(const struct ph_slit_study *r);

/*
 * The report, drawn from the live analysis, and the ACPI source and hwloc
 * XML asked for written: *rc becomes the verdict's exit status
 * (verdict_exit()) unless it is already an error.  NULL when an output
 * cannot be written, after one line on stderr: *rc PH_EXIT_USAGE (nothing
 * written) or PH_EXIT_FAIL (some were).
 */
struct ph_doc *slit_study_document(struct ph_slit_study *r, int *rc);

void slit_study_free(struct ph_slit_study *r);

#endif
