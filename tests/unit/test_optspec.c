// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_optspec.c - one declaration gives the getopt table, the short
 * options, the defaults and the usage text: checked on a made-up command
 * against hand-written expectations.
 */
#include "unit.h"
#include "registry.h"
#include "optspec.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { ID_SIZE = 1, ID_FLAG, ID_FMT, ID_SEED };

static const struct ph_opt mem_opts[] = {
	{ "size", 0, "SIZE", ID_SIZE, "working set", "1G", NULL },
	{ "flag", 0, NULL, ID_FLAG, "a switch\nover two lines", NULL, NULL },
	{ 0 },
};

static const struct ph_opt out_opts[] = {
	{ "format", 'f', "FMT", ID_FMT, "table, csv or json", "table", NULL },
	{ "a-rather-long-option-name", 0, "N", ID_SEED, "seed", NULL, "the time of day" },
	{ 0 },
};

static const struct ph_optgroup groups[] = {
	{ "memory", mem_opts },
	{ "output", out_opts },
	{ 0 },
};

static const struct ph_refusal refusals[] = {
	{ "threads", "the demo runs one thread" },
	{ 0 },
};

static const struct ph_cmdspec spec = {
	.name = "demo",
	.synopsis = "[OPTIONS]",
	.about = "Demonstrates the declaration.",
	.groups = groups,
	.epilog = "NODES are lists as numactl takes them.",
	.refused = refusals,
};

/* What the handler saw, in order. */
static char seen[1024];

static int record(void *ctx, const struct ph_opt *o, const char *arg)
{
	size_t len = strlen(seen);

	(void)ctx;
	if (arg && !strcmp(arg, "bad")) {
		fprintf(stderr, "pagehop demo: --%s: bad value\n", o->name);
		return -EINVAL;
	}
	snprintf(seen + len, sizeof(seen) - len, "%s%d=%s", len ? " " : "", o->id, arg ? arg : "-");
	return 0;
}

/* The declaration parse() reads: spec, unless a test says otherwise. */
static const struct ph_cmdspec *under_test = &spec;

/* Run opts_parse on a NULL-terminated argument list. */
static int parse(const char *first, ...)
{
	char *argv[16];
	int argc = 0;
	va_list ap;

	seen[0] = '\0';
	argv[argc++] = (char *)"demo";
	va_start(ap, first);
	for (const char *a = first; a && argc < 15; a = va_arg(ap, const char *))
		argv[argc++] = (char *)a;
	va_end(ap);
	argv[argc] = NULL;
	return opts_parse(under_test, argc, argv, record, NULL);
}

static void test_defaults_first(void **state)
{
	(void)state;
	assert_int_equal(parse(NULL), PH_OPTS_OK);
	/* Defaults in declaration order; an option without one is not called. */
	assert_string_equal(seen, "1=1G 3=table");
	assert_int_equal(parse("--size", "64M", "--flag", "-f", "json", NULL), PH_OPTS_OK);
	assert_string_equal(seen, "1=1G 3=table 1=64M 2=- 3=json");
	assert_int_equal(parse("-fcsv", "--a-rather-long-option-name=7", NULL), PH_OPTS_OK);
	assert_string_equal(seen, "1=1G 3=table 3=csv 4=7");
}

static void test_errors(void **state)
{
	(void)state;
	fflush(stderr);
	assert_int_equal(parse("--nope", NULL), -EINVAL);
	assert_int_equal(parse("-x", NULL), -EINVAL);
	assert_int_equal(parse("--size", NULL), -EINVAL);
	assert_int_equal(parse("-f", NULL), -EINVAL);
	assert_int_equal(parse("--size", "bad", NULL), -EINVAL);
	assert_int_equal(parse("stray", NULL), -EINVAL);
	/* A flag takes no value. */
	assert_int_equal(parse("--flag=1", NULL), -EINVAL);
	/* Options of no group are not options of the command. */
	assert_int_equal(parse("--threads", "2", NULL), -EINVAL);
	assert_int_equal(parse("--threads=2", NULL), -EINVAL);
	assert_int_equal(parse("--interleave", "0", NULL), -EINVAL);
}

/* What parse() wrote to stderr. */
static char errbuf[1024];

static int parse_err(const char *a, const char *b)
{
	FILE *f = tmpfile();
	int saved = dup(2), rc;
	size_t n;

	fflush(stderr);
	dup2(fileno(f), 2);
	rc = parse(a, b, NULL);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(f);
	n = fread(errbuf, 1, sizeof(errbuf) - 1, f);
	errbuf[n] = '\0';
	fclose(f);
	return rc;
}

static void test_refused(void **state)
{
	(void)state;
	/* An option the command does not take, with the reason it declares. */
	assert_int_equal(parse_err("--threads", "2"), -EINVAL);
	assert_string_equal(errbuf, "pagehop demo: --threads: the demo runs one thread\n");
	assert_int_equal(parse_err("--threads=2", NULL), -EINVAL);
	assert_string_equal(errbuf, "pagehop demo: --threads: the demo runs one thread\n");
	/* Any other unknown option: the usual line. */
	assert_int_equal(parse_err("--thread", "2"), -EINVAL);
	assert_string_equal(errbuf, "pagehop demo: unknown option '--thread'; see 'pagehop demo --help'\n");
}

static void test_help(void **state)
{
	int out = dup(1), null = open("/dev/null", O_WRONLY);

	(void)state;
	fflush(stdout);
	dup2(null, 1);
	assert_int_equal(parse("--help", NULL), PH_OPTS_HELP);
	assert_int_equal(parse("-h", NULL), PH_OPTS_HELP);
	fflush(stdout);
	dup2(out, 1);
	close(out);
	close(null);
}

static void test_usage_text(void **state)
{
	char *u = opts_usage(&spec);
	static const char want[] =
		"usage: pagehop demo [OPTIONS]\n"
		"\n"
		"Demonstrates the declaration.\n"
		"\n"
		"memory:\n"
		"  --size SIZE            working set (default 1G)\n"
		"  --flag                 a switch\n"
		"                         over two lines\n"
		"\n"
		"output:\n"
		"  -f, --format FMT       table, csv or json (default table)\n"
		"  --a-rather-long-option-name N\n"
		"                         seed (default: the time of day)\n"
		"\n"
		"  -h, --help             this text\n"
		"NODES are lists as numactl takes them.\n";

	(void)state;
	assert_string_equal(u, want);
	free(u);
}

/* The values of an option, from a table: short, long enough to wrap, a long name. */
static bool demo_value(size_t i, const char **name, const char **desc)
{
	static const char *const v[][2] = {
		{ "one", "the first" },
		{ "two:N", "a description long enough that it cannot end on the line it starts on, wrapped at a space" },
		{ "a-value-name-past-the-column", "on a line of its own" },
	};

	if (i >= sizeof(v) / sizeof(v[0]))
		return false;
	*name = v[i][0];
	*desc = v[i][1];
	return true;
}

/* Short values: their descriptions two columns after the longest. */
static bool short_value(size_t i, const char **name, const char **desc)
{
	static const char *const v[][2] = { { "a", "first" }, { "abc", "third" } };

	if (i >= sizeof(v) / sizeof(v[0]))
		return false;
	*name = v[i][0];
	*desc = v[i][1];
	return true;
}

static void test_values_text(void **state)
{
	static const struct ph_optvalues values[] = {
		{ "values (--value)", demo_value },
		{ "short ones", short_value },
		{ 0 },
	};
	static const struct ph_opt opts[] = { { "value", 0, "V", 1, "which one", "one", NULL }, { 0 } };
	static const struct ph_optgroup g[] = { { "demo", opts }, { 0 } };
	static const struct ph_cmdspec vspec = {
		.name = "demo", .synopsis = "[OPTIONS]", .groups = g, .values = values,
	};
	static const char want[] =
		"usage: pagehop demo [OPTIONS]\n"
		"\n"
		"demo:\n"
		"  --value V              which one (default one)\n"
		"\n"
		"values (--value):\n"
		"  one                    the first\n"
		"  two:N                  a description long enough that it cannot end on the\n"
		"                         line it starts on, wrapped at a space\n"
		"  a-value-name-past-the-column\n"
		"                         on a line of its own\n"
		"\n"
		"short ones:\n"
		"  a    first\n"
		"  abc  third\n"
		"\n"
		"  -h, --help             this text\n";
	char *u = opts_usage(&vspec);

	(void)state;
	assert_string_equal(u, want);
	free(u);
}

static void test_find(void **state)
{
	(void)state;
	assert_non_null(opts_find(&spec, "size"));
	assert_int_equal(opts_find(&spec, "format")->shortc, 'f');
	assert_null(opts_find(&spec, "help-me"));
}

/*
 * A command that takes --page-sizes and refuses --page-size, which
 * getopt_long would otherwise take as an abbreviation of --page-sizes; and
 * defaults too long for one line.
 */
enum { ID_PSIZES = 1, ID_PATTERNS, ID_WINDOW };

static const struct ph_opt sweep_opts[] = {
	{ "page-sizes", 0, "LIST", ID_PSIZES, "page sizes", NULL, NULL },
	{ "patterns", 0, "LIST", ID_PATTERNS, "chase patterns",
	  "seq,stride:128,stride:256,stride:512,stride:1K,stride:2K,stride:4K,random", NULL },
	{ "window", 0, "SIZE", ID_WINDOW, "window of the chase", NULL,
	  "the L1 data TLB's reach with 4 KiB pages, else 256K" },
	{ 0 },
};

static const struct ph_optgroup sweep_groups[] = { { "sweep", sweep_opts }, { 0 } };

static const struct ph_refusal sweep_refused[] = {
	{ "page-size", "the sweep sets it; use --page-sizes" },
	{ 0 },
};

static const struct ph_cmdspec sweep_spec = {
	.name = "sweep",
	.synopsis = "[OPTIONS]",
	.groups = sweep_groups,
	.refused = sweep_refused,
};

static void test_refused_abbreviation(void **state)
{
	(void)state;
	under_test = &sweep_spec;
	assert_int_equal(parse_err("--page-size", "2m"), -EINVAL);
	assert_string_equal(errbuf, "pagehop demo: --page-size: the sweep sets it; use --page-sizes\n");
	assert_int_equal(parse_err("--page-size=2m", NULL), -EINVAL);
	assert_string_equal(errbuf, "pagehop demo: --page-size: the sweep sets it; use --page-sizes\n");
	/* The option itself, and an abbreviation that names nothing refused. */
	assert_int_equal(parse("--page-sizes", "2m", NULL), PH_OPTS_OK);
	assert_string_equal(seen, "2=seq,stride:128,stride:256,stride:512,stride:1K,stride:2K,stride:4K,random 1=2m");
	assert_int_equal(parse("--page-s=4k", NULL), PH_OPTS_OK);
	assert_string_equal(seen, "2=seq,stride:128,stride:256,stride:512,stride:1K,stride:2K,stride:4K,random 1=4k");
	under_test = &spec;
}

static void test_usage_long_default(void **state)
{
	char *u = opts_usage(&sweep_spec);
	static const char want[] =
		"usage: pagehop sweep [OPTIONS]\n"
		"\n"
		"sweep:\n"
		"  --page-sizes LIST      page sizes\n"
		"  --patterns LIST        chase patterns\n"
		"                         (default seq,stride:128,stride:256,stride:512,\n"
		"                         stride:1K,stride:2K,stride:4K,random)\n"
		"  --window SIZE          window of the chase\n"
		"                         (default: the L1 data TLB's reach with 4 KiB pages,\n"
		"                         else 256K)\n"
		"\n"
		"  -h, --help             this text\n";

	(void)state;
	assert_string_equal(u, want);
	free(u);
}

/*
 * A value that may be left out ("[=WHEN]"): only as --name=VALUE, the bare
 * option calls the handler with no value; "--name VALUE" leaves VALUE a
 * stray argument, as for ls --color.  The usage writes it without a space.
 */
static void test_optional_value(void **state)
{
	static const struct ph_opt opts[] = {
		{ "same", 0, "[=WHEN]", 1, "auto, on or off", "auto", NULL },
		{ "size", 0, "SIZE", 2, "working set", NULL, NULL },
		{ 0 },
	};
	static const struct ph_optgroup g[] = { { "demo", opts }, { 0 } };
	static const struct ph_cmdspec ospec = { .name = "demo", .synopsis = "[OPTIONS]", .groups = g };
	static const char want[] =
		"usage: pagehop demo [OPTIONS]\n"
		"\n"
		"demo:\n"
		"  --same[=WHEN]          auto, on or off (default auto)\n"
		"  --size SIZE            working set\n"
		"\n"
		"  -h, --help             this text\n";
	char *u = opts_usage(&ospec);

	(void)state;
	assert_string_equal(u, want);
	free(u);
	under_test = &ospec;
	assert_int_equal(parse("--same", "--size", "4K", NULL), PH_OPTS_OK);
	assert_string_equal(seen, "1=auto 1=- 2=4K");
	assert_int_equal(parse("--same=off", NULL), PH_OPTS_OK);
	assert_string_equal(seen, "1=auto 1=off");
	assert_int_equal(parse_err("--same", "off"), -EINVAL);
	under_test = &spec;
}

/*
 * Every command's declaration: a short letter means one long option in
 * every command; no long name or id twice in one command; usage lines fit
 * 80 columns and end in no space.
 */
static void test_all_commands(void **state)
{
	const char *letter_of[128] = { NULL };
	int nspecs = 0;

	(void)state;
	for (size_t i = 0; i < ph_ncommands; i++) {
		const struct ph_cmdspec *sp = ph_commands[i].spec;
		char *u, *line, *save = NULL;

		if (!sp)
			continue;
		nspecs++;
		assert_string_equal(sp->name, ph_commands[i].name);
		for (const struct ph_optgroup *g = sp->groups; g->title; g++)
			for (const struct ph_opt *o = g->opts; o->name; o++) {
				if (o->shortc) {
					unsigned char c = (unsigned char)o->shortc;

					assert_true(c < 128 && c != 'h');
					if (letter_of[c] && strcmp(letter_of[c], o->name))
						fail_msg("-%c is --%s in one command and --%s in %s",
							 c, letter_of[c], o->name, sp->name);
					letter_of[c] = o->name;
				}
				for (const struct ph_optgroup *g2 = sp->groups; g2->title; g2++)
					for (const struct ph_opt *o2 = g2->opts; o2->name; o2++)
						if (o2 != o && (!strcmp(o2->name, o->name) || o2->id == o->id))
							fail_msg("%s: --%s and --%s share a name or an id",
								 sp->name, o->name, o2->name);
				assert_true(strcmp(o->name, "help"));
			}
		u = opts_usage(sp);
		for (line = strtok_r(u, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			size_t n = strlen(line);

			if (n > 80 || (n && line[n - 1] == ' '))
				fail_msg("%s --help: '%s' (%zu columns)", sp->name, line, n);
		}
		free(u);
	}
	assert_true(nspecs > 0);
}

/*
 * slit keeps its short options (test_all_commands sees that no other
 * command gives the letters to another option), and its usage says that
 * --input is optional: without it slit measures this machine.
 */
static void test_slit_declaration(void **state)
{
	static const struct {
		const char *name;
		char letter;
	} letters[] = {
		{ "input", 'i' }, { "slit", 's' }, { "metric", 'm' }, { "tolerance", 't' },
		{ "noise", 'n' }, { "emit-acpi", 'e' }, { "format", 'f' },
	};
	static const char first[] = "usage: pagehop slit [--input FILE] [OPTIONS]\n";
	const struct ph_command *c = command_find("slit");
	char *u;

	(void)state;
	assert_non_null(c);
	assert_non_null(c->spec);
	for (size_t i = 0; i < ARRAY_SIZE(letters); i++) {
		const struct ph_opt *o = opts_find(c->spec, letters[i].name);

		if (!o || o->shortc != letters[i].letter)
			fail_msg("slit: --%s should be -%c", letters[i].name, letters[i].letter);
	}
	u = opts_usage(c->spec);
	assert_true(!strncmp(u, first, strlen(first)));
	free(u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults_first),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_help),
		cmocka_unit_test(test_usage_text),
		cmocka_unit_test(test_values_text),
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_refused_abbreviation),
		cmocka_unit_test(test_usage_long_default),
		cmocka_unit_test(test_optional_value),
		cmocka_unit_test(test_all_commands),
		cmocka_unit_test(test_slit_declaration),
	};

	ph_set_progname("pagehop demo");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
