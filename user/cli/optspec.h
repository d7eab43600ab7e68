/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * optspec.h - a command's options, declared once.  From one declaration come
 * the getopt_long table, the short options (as numactl derives them: an
 * option whose table entry carries a letter has that short form), the
 * defaults, which are applied through the same handler as the user's values
 * before argv is read, and the usage text with each default printed from
 * the declaration.  A command never lists an option it then refuses.
 *
 * The one rule for short options: a letter belongs to one long option in
 * every command that has it (checked by tests/unit/test_optspec.c over all
 * commands).
 */
#ifndef PAGEHOP_OPTSPEC_H
#define PAGEHOP_OPTSPEC_H

#include <stdbool.h>
#include <stddef.h>

struct ph_opt {
	const char *name;	/* long name without "--"; NULL ends a list */
	char shortc;		/* short letter, or 0 */
	const char *arg;	/* metavariable ("SIZE"); NULL for a flag; one in
				 * brackets ("[=WHEN]") is a value that may be
				 * left out, given as --name=VALUE or, when it
				 * starts with a digit, as the next word: the bare
				 * option calls the handler with NULL */
	int id;			/* what the handler is called with */
	const char *help;	/* one line; "\n" starts a continuation line */
	const char *def;	/* default as the user would write it: applied
				 * before argv and printed "(default DEF)"; NULL
				 * when there is none or it is not a value */
	const char *defdesc;	/* printed "(default: DEFDESC)" when def is
				 * NULL: a default that depends on the machine */
};

/* Whether o's value may be left out ("[=WHEN]"). */
static inline bool opt_value_optional(const struct ph_opt *o)
{
	return o->arg && o->arg[0] == '[';
}

/* A heading and its options, e.g. "memory" and --size, --page-size. */
struct ph_optgroup {
	const char *title;		/* NULL ends a list */
	const struct ph_opt *opts;	/* terminated by an entry with name NULL */
};

/* An option of other commands that this one does not take, and why. */
struct ph_refusal {
	const char *name;	/* long name without "--"; NULL ends the list */
	const char *why;	/* the rest of the one-line error */
};

/*
 * The values an option takes, listed under the options from the table
 * that defines them (chase's patterns, stream's kernels), so that no list
 * is copied into the help: a heading, and a function giving the i-th value
 * and its one-line description, false past the last.
 */
struct ph_optvalues {
	const char *title;	/* "patterns (--pattern)"; NULL ends the list */
	bool (*get)(size_t i, const char **name, const char **desc);
};

struct ph_cmdspec {
	const char *name;		/* "pages" */
	const char *synopsis;		/* after "pagehop NAME ": "[OPTIONS]" */
	const char *about;		/* the paragraph under the usage line */
	const struct ph_optgroup *groups;	/* terminated by title NULL */
	const char *epilog;		/* lines after the options, or NULL */
	const struct ph_refusal *refused;	/* or NULL */
	const struct ph_optvalues *values;	/* or NULL */
};

/*
 * Called for each default, then for each option on the command line, with
 * the option as declared and its argument (NULL for a flag).  Returns 0, or
 * -EINVAL with the one-line error already printed.
 */
typedef int (*ph_opt_handler)(void *ctx, const struct ph_opt *o, const char *arg);

enum {
	PH_OPTS_OK = 0,
	PH_OPTS_HELP = 1,	/* --help was given: the usage is on stdout */
};

/*
 * Apply the defaults, then parse argv (argv[0] is the command's name),
 * refusing unknown options, missing values and stray arguments.  Returns
 * PH_OPTS_OK, PH_OPTS_HELP, or -EINVAL after one line on stderr.
 */
int opts_parse(const struct ph_cmdspec *spec, int argc, char *argv[],
	       ph_opt_handler handle, void *ctx);

/* Apply only the defaults (for tests, and for commands run by others). */
int opts_defaults(const struct ph_cmdspec *spec, ph_opt_handler handle, void *ctx);

/* The usage text, as --help prints it, into a malloc'd string. */
char *opts_usage(const struct ph_cmdspec *spec);

/* Find a declared option by long name, or NULL. */
const struct ph_opt *opts_find(const struct ph_cmdspec *spec, const char *name);

/*
 * Move the operands (words that are not options or their values, "-", and
 * everything after "--") out of argv into paths, in order; argv keeps the
 * options, each with its value when SPEC says it takes one.  Returns how
 * many operands; paths must hold *argc entries.
 */
int opts_split_operands(const struct ph_cmdspec *spec, int *argc, char *argv[], char **paths);

#endif
