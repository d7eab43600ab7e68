/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * commands.h - the subcommands.  Each takes argv from its own name on,
 * parses its own options and returns an exit code (util.h).
 */
#ifndef PAGEHOP_COMMANDS_H
#define PAGEHOP_COMMANDS_H

struct ph_cmdspec;
struct ph_study;

int cmd_info(int argc, char *argv[]);
int cmd_list(int argc, char *argv[]);
int cmd_compare(int argc, char *argv[]);
int cmd_report(int argc, char *argv[]);

/* The declarations of the commands' options (optspec.h). */
extern const struct ph_cmdspec cmd_matrix_spec;
extern const struct ph_cmdspec cmd_slit_spec;
extern const struct ph_cmdspec cmd_list_spec;
extern const struct ph_cmdspec cmd_info_spec;
extern const struct ph_cmdspec cmd_stream_spec;
extern const struct ph_cmdspec cmd_chase_spec;
extern const struct ph_cmdspec cmd_survey_spec;
extern const struct ph_cmdspec cmd_pages_spec;
extern const struct ph_cmdspec cmd_prefetch_spec;
extern const struct ph_cmdspec cmd_baseline_spec;
extern const struct ph_cmdspec cmd_check_spec;
extern const struct ph_cmdspec cmd_compare_spec;
extern const struct ph_cmdspec cmd_c2c_spec;
extern const struct ph_cmdspec cmd_locks_spec;
extern const struct ph_cmdspec cmd_loaded_spec;
extern const struct ph_cmdspec cmd_scale_spec;
extern const struct ph_cmdspec cmd_goaround_spec;
extern const struct ph_cmdspec cmd_interleave_spec;
extern const struct ph_cmdspec cmd_hops_spec;
extern const struct ph_cmdspec cmd_scan_spec;
extern const struct ph_cmdspec cmd_report_spec;
extern const struct ph_cmdspec cmd_cxl_spec;

/* The measuring commands, run by study_main() (study.h). */
extern const struct ph_study cmd_c2c_study;
extern const struct ph_study cmd_chase_study;
extern const struct ph_study cmd_stream_study;
extern const struct ph_study cmd_hops_study;
extern const struct ph_study cmd_scan_study;
extern const struct ph_study cmd_locks_study;
extern const struct ph_study cmd_loaded_study;
extern const struct ph_study cmd_scale_study;
extern const struct ph_study cmd_goaround_study;
extern const struct ph_study cmd_interleave_study;
extern const struct ph_study cmd_pages_study;
extern const struct ph_study cmd_prefetch_study;
extern const struct ph_study cmd_survey_study;
extern const struct ph_study cmd_baseline_study;
extern const struct ph_study cmd_matrix_study;
extern const struct ph_study cmd_check_study;
extern const struct ph_study cmd_slit_study;
extern const struct ph_study cmd_cxl_study;

#endif
