/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cli.h - option parsing shared by every subcommand.  Node and CPU lists
 * go through libnuma's own parsers, so they mean exactly what they mean to
 * numactl; this layer only turns libnuma's warnings into one-line errors.
 */
#ifndef PAGEHOP_CLI_H
#define PAGEHOP_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>

#include "output.h"	/* enum ph_format, for cli_parse_format() */

struct bitmask;

/*
 * Each returns 0, or prints "pagehop CMD: OPT: why; expected ..." and
 * returns -EINVAL.  opt is the option as the user wrote it ("--membind").
 */
int cli_parse_format(const char *opt, const char *arg, enum ph_format *out);
int cli_parse_nodes(const char *opt, const char *arg, struct bitmask **out);
int cli_parse_cpus(const char *opt, const char *arg, struct bitmask **out);
int cli_parse_size(const char *opt, const char *arg, uint64_t *out);
int cli_parse_uint(const char *opt, const char *arg, unsigned min,
		   unsigned max, unsigned *out);
int cli_parse_double(const char *opt, const char *arg, double min,
		     double max, double *out);
/* A 32-bit number, decimal or 0x hex (an ACPI table's OEM revision). */
int cli_parse_u32(const char *opt, const char *arg, uint32_t *out);
/* An ACPI id of at most max printable ASCII characters, no '"' (acpi_id_valid()). */
int cli_parse_acpi_id(const char *opt, const char *arg, size_t max, const char **out);

/*
 * A comma-separated list ("copy,triad") must not have an empty element:
 * "copy,", ",copy" and "copy,,triad" are refused (strtok would skip them,
 * as libnuma's node lists do not).  expected completes "expected ...".
 */
int cli_check_list(const char *opt, const char *arg, const char *expected);

/*
 * An ascending list of whole numbers, each once, each min..max: "1,2,4"
 * or ranges "1-4,8" (every number from 1 to 4).  *out (malloc'd, freed
 * first if set) and *n; expected completes the error's "expected ...".
 */
int cli_parse_ascending(const char *opt, const char *arg, unsigned min, unsigned max,
			const char *expected, int **out, int *n);

/* An unsigned 64-bit number (decimal or 0x hex), e.g. a seed. */
int cli_parse_u64(const char *opt, const char *arg, uint64_t *out);

/*
 * An output file option (--save, --plot, --emit-acpi), checked before
 * anything is measured: 0, or "OPT PATH: why" on stderr and -EINVAL.
 */
int cli_check_output(const char *opt, const char *path);

/* Refuse anything left after the options: "unexpected argument 'x'". */
int cli_no_arguments(int argc, char *const argv[]);

/*
 * Report what getopt_long() returned for a bad option ('?' or ':'), in the
 * house format.  Call with opterr = 0 and an optstring starting with ':'.
 */
void cli_option_error(int c, char *const argv[], const struct option *longopts);

/*
 * The last libnuma warning captured while parsing, for tests; "" if none.
 */
const char *cli_last_numa_message(void);

#endif
