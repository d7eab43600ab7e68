// SPDX-License-Identifier: GPL-2.0-only
/*
 * main.c - the pagehop command: find the subcommand and run it.
 */
#include "complete.h"
#include "man.h"
#include "phases.h"
#include "registry.h"
#include "study.h"
#include "report.h"
#include "util.h"
#include "version.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

static void usage(FILE *f)
{
	fprintf(f,
		"usage: pagehop [COMMAND] [OPTIONS]\n"
		"\n"
		"Measure memory bandwidth and latency per NUMA node, page size and\n"
		"prefetch setting on verified memory, and compare it with the\n"
		"firmware's SLIT and HMAT.  With no command, runs 'pagehop survey'.\n"
		"\n"
		"commands:\n");
	for (size_t i = 0; i < ph_ncommands; i++)
		fprintf(f, "  %-10s %s\n", ph_commands[i].name, ph_commands[i].summary);
	fprintf(f,
		"  %-10s this text, or 'pagehop help COMMAND' for a command's options\n"
		"\n"
		"Every command takes --format table|csv|json and --help.\n"
		"\n"
		"exit status:\n", "help");
	for (size_t i = 0; i < ph_nexit_codes; i++)
		fprintf(f, "  %-4d %s\n", ph_exit_codes[i].code, ph_exit_codes[i].meaning);
	fprintf(f, "\nSee pagehop(1).\n");
}

/* The command dispatch ran, for stdout_checked's exit code. */
static const struct ph_command *ran;

static int run(const struct ph_command *cmd, int argc, char *argv[])
{
	static char progname[64];

	ran = cmd;
	snprintf(progname, sizeof(progname), "pagehop %s", cmd->name);
	ph_set_progname(progname);
	optind = 0;	/* glibc: 0 reinitialises getopt for a fresh argv */
	progress_setup(PH_PROGRESS_AUTO, false);	/* a study's options may change it */
	return cmd->study ? study_main(cmd->study, argc, argv) : cmd->run(argc, argv);
}

/*
 * Whatever a command did, what it printed must have reached stdout's file:
 * a full disk (> /dev/full) or a closed stdout is said here, once, for every
 * command and --help alike, and is never exit 0 (study_output_failed: a
 * verdict that did not reach its reader is no verdict).
 */
static int stdout_checked(int rc)
{
	int err;

	errno = 0;
	if (!fflush(stdout) && !ferror(stdout))
		return rc;
	err = errno ? errno : ph_stdout_error();
	ph_errno(err ? err : EIO, "cannot write to standard output");
	return study_output_failed(ran && ran->study ? ran->study->flags : 0, rc);
}

static int dispatch(int argc, char *argv[]);

int main(int argc, char *argv[])
{
	/*
	 * A reader that goes away (pagehop ... | head) makes a write to stdout
	 * fail with EPIPE rather than kill the process with SIGPIPE: the
	 * command then ends as it would have, putting back the hugetlb pools
	 * it grew, and stdout_checked says the output failed (exit 1).
	 */
	signal(SIGPIPE, SIG_IGN);
	return stdout_checked(dispatch(argc, argv));
}

static int dispatch(int argc, char *argv[])
{
	const struct ph_command *cmd;

	static const char *kinds[64];

	ph_set_cmdline(argc, argv);
	phases_start();
	/* The documents 'pagehop report' knows: those of the commands here. */
	for (size_t i = 0; i < ph_ncommands && i < ARRAY_SIZE(kinds); i++)
		kinds[i] = ph_commands[i].name;
	report_set_kinds(kinds, ph_ncommands < ARRAY_SIZE(kinds) ? ph_ncommands : ARRAY_SIZE(kinds));
	if (argc < 2) {
		char *def[] = { "survey", NULL };

		return run(command_find("survey"), 1, def);
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return PH_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("pagehop %s\n", PAGEHOP_VERSION);
		return PH_EXIT_OK;
	}
	/*
	 * Not in the usage: the roff docs/update-man.sh puts into
	 * docs/pagehop.1, from the same tables as --help and 'pagehop help'.
	 */
	if (!strcmp(argv[1], "--man-exit-status") && argc == 2) {
		man_exit_status(stdout);
		return PH_EXIT_OK;
	}
	/* Not in the usage either: the bash completion, from the same tables. */
	if (!strcmp(argv[1], "--bash-completion") && argc == 2) {
		complete_bash(stdout);
		return PH_EXIT_OK;
	}
	if (!strcmp(argv[1], "--man-options") && argc == 3) {
		cmd = command_find(argv[2]);
		if (!cmd) {
			ph_err("unknown command '%s'; see 'pagehop help'", argv[2]);
			return PH_EXIT_USAGE;
		}
		man_options(stdout, cmd->spec);
		return PH_EXIT_OK;
	}
	if (!strcmp(argv[1], "help")) {
		char *help[] = { NULL, "--help", NULL };

		if (argc < 3) {
			usage(stdout);
			return PH_EXIT_OK;
		}
		cmd = command_find(argv[2]);
		if (!cmd) {
			ph_err("unknown command '%s'; see 'pagehop help'", argv[2]);
			return PH_EXIT_USAGE;
		}
		if (argc > 3) {
			ph_err("help: unexpected argument '%s'; expected one command, see 'pagehop help'",
			       argv[3]);
			return PH_EXIT_USAGE;
		}
		help[0] = (char *)cmd->name;
		return run(cmd, 2, help);
	}
	cmd = command_find(argv[1]);
	if (!cmd) {
		if (argv[1][0] == '-')
			ph_err("unknown option '%s' before the command; see 'pagehop help'", argv[1]);
		else
			ph_err("unknown command '%s'; see 'pagehop help'", argv[1]);
		return PH_EXIT_USAGE;
	}
	return run(cmd, argc - 1, argv + 1);
}
