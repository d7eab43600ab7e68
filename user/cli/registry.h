/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * registry.h - the subcommands pagehop has: name, entry point, one-line
 * summary and option declaration, in the order "pagehop help" lists them.
 */
#ifndef PAGEHOP_REGISTRY_H
#define PAGEHOP_REGISTRY_H

#include <stddef.h>

struct ph_cmdspec;
struct ph_study;

/* A measuring command is a study, run by study_main(); the others have run. */
struct ph_command {
	const char *name;
	int (*run)(int argc, char *argv[]);
	const char *summary;
	const struct ph_cmdspec *spec;	/* its options (optspec.h) */
	const struct ph_study *study;	/* or NULL: run it (study.h) */
};

/* Every subcommand, in the order "pagehop help" lists them. */
extern const struct ph_command ph_commands[];
extern const size_t ph_ncommands;
/* The subcommand called name, or NULL. */
const struct ph_command *command_find(const char *name);

#endif
