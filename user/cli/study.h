/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * study.h - a measuring command as a declared study, and the one driver
 * that runs every study (in the spirit of lmbench's benchmp() and lstopo's
 * output methods).  A study declares its options, its argument block and
 * its steps; study_main() owns what every study shares: parsing, the
 * machine, the exit-code policy, --plot, --save and the single render of
 * the document in --format.  A command file is its spec, its handler and
 * its study, never a copy of this skeleton.
 */
#ifndef PAGEHOP_STUDY_H
#define PAGEHOP_STUDY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "optspec.h"
#include "session.h"
#include "steps.h"

struct ph_doc;

/* What a study does itself, so that the driver and the session do not. */
enum {
	/*
	 * The study places its threads itself (--cpunodebind, --threads choose
	 * its CPUs, not the session's binding): session setup binds neither.
	 */
	PH_STUDY_BINDS_ITSELF = 1u << 0,
	/* The study measures nothing on this machine: no session_machine(). */
	PH_STUDY_NO_MACHINE = 1u << 1,
	/* --save writes the document only when nothing failed (a reference). */
	PH_STUDY_SAVE_CLEAN = 1u << 2,
	/*
	 * The document says itself what was verified and where a signal cut
	 * the run short (cell by cell): the driver adds no note of its own.
	 */
	PH_STUDY_OWN_NOTES = 1u << 3,
	/*
	 * A monitoring plugin (Nagios, NHC, Slurm, Prometheus): its exit code
	 * is its verdict, 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN, and whatever
	 * kept it from one (bad usage, nothing measured, a signal) is UNKNOWN;
	 * its document is rendered whatever it measured, and bad usage is its
	 * UNKNOWN line on stdout as well: a monitoring system shows stdout
	 * (study_exit, study_renders).
	 */
	PH_STUDY_PLUGIN = 1u << 4,
	/*
	 * A kernel without NUMA support is an answer, not an error: the steps
	 * after session_machine() run with no topology (s->topo.nnodes 0).
	 */
	PH_STUDY_NUMA_OPTIONAL = 1u << 5,
	/*
	 * The option handler sees the common options too, once they are
	 * applied (whether one was given, not its value): it returns 0 for them.
	 */
	PH_STUDY_SEES_COMMON = 1u << 6,
	/*
	 * The study runs unattended (baseline, from cron or a batch job):
	 * progress only with --progress, even on a terminal.
	 */
	PH_STUDY_UNATTENDED = 1u << 7,
};

struct ph_study {
	const struct ph_cmdspec *spec;	/* its options, help and refusals */
	uint64_t default_size;		/* --size's default (options_init) */
	unsigned flags;			/* PH_STUDY_* */
	/* The engine's steps; args is their state (steps->size bytes, zeroed). */
	const struct ph_steps *steps;
	/*
	 * Defaults beyond options_init's, before the options are parsed
	 * (optional): parsing is the only time the options are written.
	 */
	void (*init)(void *args, struct ph_options *opt);
	/*
	 * One of its own options (the common ones are handled before): 0, or
	 * -EINVAL after the one-line error.
	 */
	int (*option)(void *args, struct ph_options *opt, const struct ph_opt *o, const char *arg);
	/*
	 * What the options say together, before the machine is read
	 * (optional): 0, or an exit code after one line on stderr.
	 */
	int (*check)(void *args, struct ph_session *s);
	/*
	 * Whether this run reads the machine, as its options say (optional:
	 * NULL reads it unless PH_STUDY_NO_MACHINE); asked after check.
	 */
	bool (*needs_machine)(const void *args);
	/*
	 * Its own rendering of doc on out, in place of doc_render() in
	 * --format (optional: a format the document model has not, such as a
	 * plugin's status line or metrics); *rc may become an exit code.
	 * Called once, by the driver, as the single render.
	 */
	void (*render)(void *args, struct ph_session *s, struct ph_doc *doc, FILE *out, int *rc);
};

/* Run st over argv (argv[0] is the command's name); the exit code. */
int study_main(const struct ph_study *st, int argc, char *argv[]);

/*
 * The exit-code policy of every study, in one place (flags: the study's
 * PH_STUDY_*):
 *   --help (parse_rc PH_OPTS_HELP)                      0
 *   bad usage (parse_rc < 0, or measure_rc usage)       2 (PH_EXIT_USAGE)
 *   nothing measured: measure_rc, or 1 when it is 0;
 *     a signal makes it 130 unless measure_rc says the
 *     machine cannot do it (4)
 *   something measured: 130 after a signal, else measure_rc
 * measure_rc is the first non-zero code of check, plan and measure.  The
 * document step's code goes through it again, measured_any then saying
 * whether a document came.
 * A PH_STUDY_PLUGIN study's measure_rc is its verdict (0-3, where 2 is
 * CRITICAL, not bad usage):
 *   --help                                              0
 *   bad usage, at parsing or later (nothing measured)   3 (UNKNOWN)
 *   nothing measured, whatever measure_rc               3
 *   a signal, whatever was measured                     3
 *   measured: measure_rc, the verdict
 */
int study_exit(unsigned flags, int parse_rc, int measure_rc, bool measured_any, bool interrupted);
/*
 * The exit code when an output (stdout, --save, a plot) failed after the
 * run's code was rc: a verdict that did not reach its reader is no verdict.
 *   a PH_STUDY_PLUGIN study                       3 (UNKNOWN), whatever rc
 *   rc 0, 1, 3 or 5 (a verdict or a failure)      1
 *   rc 2, 4 or 130 (usage, not here, a signal)    rc
 */
int study_output_failed(unsigned flags, int rc);
/*
 * Whether a document is rendered on stdout for these outcomes: a plugin's
 * is for every outcome but --help and bad usage (then the driver prints
 * its UNKNOWN line, saying the error).
 */
bool study_renders(unsigned flags, int parse_rc, int measure_rc, bool measured_any);

/*
 * The end of every study: note unverified memory and an interruption by a
 * signal, draw --plot, render doc in --format on stdout.  rc is the exit
 * code so far (study_exit's); returns the final one.  study_main() does
 * this itself, with --save between the plot and the render; a command not
 * yet a study calls it.
 */
int study_render(struct ph_session *s, struct ph_doc *doc, int rc);

#endif
