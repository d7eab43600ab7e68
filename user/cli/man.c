// SPDX-License-Identifier: GPL-2.0-only
/*
 * man.c - roff for docs/pagehop.1 from the option declarations and the exit
 * code table (man.h), so that the man page's option lists and exit codes
 * cannot drift from what the command takes and returns.
 */
#include "man.h"
#include "optspec.h"
#include "util.h"

#include <string.h>

/*
 * Text as roff: "-" is a minus (\-), a backslash is \e, and a line never
 * starts with "." or "'" (a request) or a space; a "\n" of the help strings
 * (a continuation line of --help) is a space.
 */
static void roff_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '-': fputs("\\-", f); break;
		case '\\': fputs("\\e", f); break;
		case '\n': fputc(' ', f); break;
		default: fputc(*s, f); break;
		}
	}
}

/* "(K, M, G, T suffixes)" at the start of a line would be fine; "." would not. */
static void roff_line_start(FILE *f, const char *s)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", f);
}

static void man_opt(FILE *f, const struct ph_opt *o)
{
	fputs(".TP\n", f);
	if (o->shortc)
		fprintf(f, "\\fB\\-%c\\fR, ", o->shortc);
	fputs("\\fB\\-\\-", f);
	roff_text(f, o->name);
	fputs("\\fR", f);
	if (o->arg) {
		/* "--name[=WHEN]": a value that may be left out follows the name. */
		fputs(opt_value_optional(o) ? "\\fI" : " \\fI", f);
		roff_text(f, o->arg);
		fputs("\\fR", f);
	}
	fputc('\n', f);
	roff_line_start(f, o->help);
	roff_text(f, o->help);
	if (o->def) {
		fputs(" (default ", f);
		roff_text(f, o->def);
		fputc(')', f);
	} else if (o->defdesc) {
		fputs(" (default: ", f);
		roff_text(f, o->defdesc);
		fputc(')', f);
	}
	fputs(".\n", f);
}

void man_options(FILE *f, const struct ph_cmdspec *spec)
{
	for (const struct ph_optgroup *g = spec->groups; g && g->title; g++) {
		fputs(".PP\n", f);
		roff_line_start(f, g->title);
		fputs("\\fI", f);
		roff_text(f, g->title);
		fputs(":\\fR\n", f);
		for (const struct ph_opt *o = g->opts; o->name; o++)
			man_opt(f, o);
	}
	fputs(".TP\n\\fB\\-h\\fR, \\fB\\-\\-help\\fR\nthis text.\n", f);
}

void man_exit_status(FILE *f)
{
	for (size_t i = 0; i < ph_nexit_codes; i++) {
		const struct ph_exit_code *e = &ph_exit_codes[i];

		fprintf(f, ".TP\n.B %d\n", e->code);
		roff_line_start(f, e->meaning);
		roff_text(f, e->meaning);
		fputs(".\n", f);
		if (e->detail) {
			roff_line_start(f, e->detail);
			roff_text(f, e->detail);
			fputc('\n', f);
		}
	}
}
