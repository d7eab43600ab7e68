// SPDX-License-Identifier: GPL-2.0-only
/*
 * optspec.c - getopt_long table, short options, defaults and usage text,
 * all from a command's one declaration (optspec.h).
 */
#include "optspec.h"
#include "cli.h"
#include "util.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Where the help column starts, and the widest line the usage may have. */
#define HELP_COL 25
#define WIDTH 79
/* getopt_long values for options without a short letter: above any char. */
#define LONG_ONLY_BASE 0x1000

static const struct ph_opt help_opt = {
	"help", 'h', NULL, -1, "this text", NULL, NULL,
};

/* Every declared option, in order, then --help; *n is the count. */
static const struct ph_opt **all_opts(const struct ph_cmdspec *spec, size_t *n)
{
	const struct ph_opt **v;
	size_t k = 0;

	for (const struct ph_optgroup *g = spec->groups; g && g->title; g++)
		for (const struct ph_opt *o = g->opts; o->name; o++)
			k++;
	v = xcalloc(k + 1, sizeof(*v));
	k = 0;
	for (const struct ph_optgroup *g = spec->groups; g && g->title; g++)
		for (const struct ph_opt *o = g->opts; o->name; o++)
			v[k++] = o;
	v[k++] = &help_opt;
	*n = k;
	return v;
}

const struct ph_opt *opts_find(const struct ph_cmdspec *spec, const char *name)
{
	for (const struct ph_optgroup *g = spec->groups; g && g->title; g++)
		for (const struct ph_opt *o = g->opts; o->name; o++)
			if (!strcmp(o->name, name))
				return o;
	return NULL;
}

static const struct ph_opt *opts_find_short(const struct ph_cmdspec *spec, char c)
{
	for (const struct ph_optgroup *g = spec->groups; g && g->title; g++)
		for (const struct ph_opt *o = g->opts; o->name; o++)
			if (o->shortc && o->shortc == c)
				return o;
	return NULL;
}

int opts_split_operands(const struct ph_cmdspec *spec, int *argc, char *argv[], char **paths)
{
	int n = 0, out = 1;
	bool rest = false;

	for (int i = 1; i < *argc; i++) {
		const char *a = argv[i];
		const struct ph_opt *o = NULL;

		if (rest || a[0] != '-' || !strcmp(a, "-")) {
			paths[n++] = argv[i];
			continue;
		}
		if (!strcmp(a, "--")) {
			rest = true;
			continue;
		}
		argv[out++] = argv[i];
		if (!strncmp(a, "--", 2))
			o = strchr(a, '=') ? NULL : opts_find(spec, a + 2);
		else if (a[1] && !a[2])
			o = opts_find_short(spec, a[1]);
		if (o && o->arg && !opt_value_optional(o) && i + 1 < *argc)
			argv[out++] = argv[++i];
	}
	*argc = out;
	return n;
}

int opts_defaults(const struct ph_cmdspec *spec, ph_opt_handler handle, void *ctx)
{
	for (const struct ph_optgroup *g = spec->groups; g && g->title; g++)
		for (const struct ph_opt *o = g->opts; o->name; o++) {
			int err;

			if (!o->def)
				continue;
			err = handle(ctx, o, o->arg ? o->def : NULL);
			if (err) {
				/* A default its own handler refuses is pagehop's bug. */
				ph_err("internal error: the default of --%s, '%s', is refused", o->name, o->def);
				return err;
			}
		}
	return 0;
}

/*
 * An option other commands take and this one does not, said with the
 * reason the declaration gives: "--physcpubind: the matrix measures ...".
 */
static bool refused(const struct ph_cmdspec *spec, const char *word)
{
	size_t n;

	if (!spec->refused || strncmp(word, "--", 2))
		return false;
	word += 2;
	n = strcspn(word, "=");
	for (const struct ph_refusal *r = spec->refused; r->name; r++)
		if (strlen(r->name) == n && !strncmp(r->name, word, n)) {
			ph_err("--%s: %s", r->name, r->why);
			return true;
		}
	return false;
}

/*
 * The word of argv that named o, which getopt_long has just returned:
 * "--name VALUE" leaves optind past VALUE, "--name=VALUE" and a flag past
 * the word itself.
 */
static const char *option_word(char *argv[], const struct ph_opt *o)
{
	return o->arg && optarg && optarg == argv[optind - 1] ? argv[optind - 2] : argv[optind - 1];
}

static int val_of(const struct ph_opt *o, size_t i)
{
	return o->shortc ? (unsigned char)o->shortc : LONG_ONLY_BASE + (int)i;
}

int opts_parse(const struct ph_cmdspec *spec, int argc, char *argv[],
	       ph_opt_handler handle, void *ctx)
{
	size_t n, len = 1;
	const struct ph_opt **v = all_opts(spec, &n);
	struct option *lo = xcalloc(n + 1, sizeof(*lo));
	char *shorts = xmalloc(3 * n + 2);
	int c, rc;

	/* ':' first: a missing value is ':' and an unknown option '?', both ours to report. */
	shorts[0] = ':';
	for (size_t i = 0; i < n; i++) {
		lo[i].name = v[i]->name;
		lo[i].has_arg = opt_value_optional(v[i]) ? optional_argument :
				v[i]->arg ? required_argument : no_argument;
		lo[i].val = val_of(v[i], i);
		if (v[i]->shortc) {
			shorts[len++] = v[i]->shortc;
			if (v[i]->arg)
				shorts[len++] = ':';
			if (opt_value_optional(v[i]))
				shorts[len++] = ':';
		}
	}
	shorts[len] = '\0';

	rc = opts_defaults(spec, handle, ctx);
	if (rc)
		goto out;
	opterr = 0;
	optind = 0;	/* glibc: reinitialise for this argv */
	while ((c = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
		const struct ph_opt *o = NULL;

		for (size_t i = 0; i < n && !o; i++)
			if (lo[i].val == c)
				o = v[i];
		if (!o) {
			if (c == '?' && refused(spec, argv[optind - 1]))
				goto bad;
			cli_option_error(c, argv, lo);
			rc = -EINVAL;
			goto out;
		}
		if (o == &help_opt) {
			char *u = opts_usage(spec);

			fputs(u, stdout);
			free(u);
			rc = PH_OPTS_HELP;
			goto out;
		}
		/*
		 * getopt_long takes an abbreviation: "--page-size" for
		 * "--page-sizes".  A name this command refuses is refused, even
		 * where it abbreviates one it takes.
		 */
		if (refused(spec, option_word(argv, o)))
			goto bad;
		/*
		 * A value that may be left out may also be the next word, when
		 * that word starts with a digit ("--percentiles 99,99.9"): no
		 * operand or option word does.
		 */
		if (opt_value_optional(o) && !optarg && optind < argc &&
		    argv[optind][0] >= '0' && argv[optind][0] <= '9')
			optarg = argv[optind++];
		rc = handle(ctx, o, o->arg ? optarg : NULL);
		if (rc)
			goto out;
	}
	if (0) {
bad:
		rc = -EINVAL;
		goto out;
	}
	rc = cli_no_arguments(argc, argv) ? -EINVAL : PH_OPTS_OK;
out:
	free(shorts);
	free(lo);
	free(v);
	return rc;
}

/* A growing string. */
struct sbuf {
	char *s;
	size_t len, cap;
};

static void sb_add(struct sbuf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2;
		b->s = xrealloc(b->s, b->cap);
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

static void sb_str(struct sbuf *b, const char *s)
{
	sb_add(b, s, strlen(s));
}

static void sb_pad(struct sbuf *b, size_t col)
{
	while (col-- > 0)
		sb_add(b, " ", 1);
}

/*
 * A default that does not fit after the help: on lines of its own at
 * HELP_COL, broken after a space or a comma where one line cannot hold it
 * (a default list of patterns is longer than a line).
 */
static void usage_default(struct sbuf *b, const char *d)
{
	const size_t room = WIDTH - HELP_COL;

	while (*d) {
		size_t n = strlen(d), cut = n, shown;

		if (n > room) {
			cut = 0;
			for (size_t i = 0; i < room; i++)
				if (d[i] == ' ' || d[i] == ',')
					cut = i + 1;
			if (!cut)
				cut = n;	/* nowhere to break: one long line */
		}
		shown = cut < n && d[cut - 1] == ' ' ? cut - 1 : cut;
		sb_str(b, "\n");
		sb_pad(b, HELP_COL);
		sb_add(b, d, shown);
		d += cut;
	}
}

/* One option: its left part, then its help lines at HELP_COL. */
static void usage_opt(struct sbuf *b, const struct ph_opt *o)
{
	char left[128], dflt[160] = "";
	const char *h = o->help;
	size_t l;

	/*
	 * "  -x, --name ARG", or "  --name ARG": few options have a letter; a
	 * value that may be left out follows the name: "--name[=WHEN]".
	 */
	const char *sp = o->arg && !opt_value_optional(o) ? " " : "";

	if (o->shortc)
		l = (size_t)snprintf(left, sizeof(left), "  -%c, --%s%s%s", o->shortc, o->name,
				     sp, o->arg ? o->arg : "");
	else
		l = (size_t)snprintf(left, sizeof(left), "  --%s%s%s", o->name,
				     sp, o->arg ? o->arg : "");
	sb_str(b, left);
	if (l + 1 > HELP_COL) {
		sb_str(b, "\n");
		l = 0;
	}
	if (o->def)
		snprintf(dflt, sizeof(dflt), " (default %s)", o->def);
	else if (o->defdesc)
		snprintf(dflt, sizeof(dflt), " (default: %s)", o->defdesc);
	for (;;) {
		const char *nl = strchr(h, '\n');
		size_t n = nl ? (size_t)(nl - h) : strlen(h);

		sb_pad(b, HELP_COL - l);
		sb_add(b, h, n);
		l = HELP_COL + n;
		if (!nl)
			break;
		sb_str(b, "\n");
		l = 0;
		h = nl + 1;
	}
	if (dflt[0] && l + strlen(dflt) <= WIDTH)
		sb_str(b, dflt);
	else if (dflt[0])
		usage_default(b, dflt + 1);
	sb_str(b, "\n");
}

/*
 * text from column col (where the line already is) to WIDTH, broken at
 * spaces onto lines that start at col; a word longer than a line is left
 * whole.
 */
static void usage_wrapped(struct sbuf *b, const char *text, size_t col)
{
	const size_t room = WIDTH - col;

	for (bool first = true; *text; first = false) {
		size_t n = strlen(text), cut = n;

		if (n > room) {
			for (cut = room; cut > 0 && text[cut] != ' '; cut--)
				;
			if (!cut)
				cut = strcspn(text, " ");
		}
		if (!first) {
			sb_str(b, "\n");
			sb_pad(b, col);
		}
		sb_add(b, text, cut);
		text += cut;
		while (*text == ' ')
			text++;
	}
}

/*
 * A heading, then each value at column 2 and its description two columns
 * after the longest value, or at HELP_COL if that is nearer.
 */
static void usage_values(struct sbuf *b, const struct ph_optvalues *v)
{
	const char *name, *desc;
	size_t col = 0;

	for (size_t i = 0; v->get(i, &name, &desc); i++)
		col = 2 + strlen(name) + 2 > col ? 2 + strlen(name) + 2 : col;
	col = col < HELP_COL ? col : HELP_COL;
	sb_str(b, "\n");
	sb_str(b, v->title);
	sb_str(b, ":\n");
	for (size_t i = 0; v->get(i, &name, &desc); i++) {
		size_t l = 2 + strlen(name);

		sb_str(b, "  ");
		sb_str(b, name);
		if (l + 1 > col) {
			sb_str(b, "\n");
			l = 0;
		}
		sb_pad(b, col - l);
		usage_wrapped(b, desc, col);
		sb_str(b, "\n");
	}
}

char *opts_usage(const struct ph_cmdspec *spec)
{
	struct sbuf b = { 0 };

	sb_str(&b, "usage: pagehop ");
	sb_str(&b, spec->name);
	if (spec->synopsis && *spec->synopsis) {
		sb_str(&b, " ");
		sb_str(&b, spec->synopsis);
	}
	sb_str(&b, "\n");
	if (spec->about) {
		sb_str(&b, "\n");
		sb_str(&b, spec->about);
		if (spec->about[0] && spec->about[strlen(spec->about) - 1] != '\n')
			sb_str(&b, "\n");
	}
	for (const struct ph_optgroup *g = spec->groups; g && g->title; g++) {
		sb_str(&b, "\n");
		sb_str(&b, g->title);
		sb_str(&b, ":\n");
		for (const struct ph_opt *o = g->opts; o->name; o++)
			usage_opt(&b, o);
	}
	for (const struct ph_optvalues *v = spec->values; v && v->title; v++)
		usage_values(&b, v);
	sb_str(&b, "\n");
	usage_opt(&b, &help_opt);
	if (spec->epilog) {
		sb_str(&b, spec->epilog);
		if (spec->epilog[0] && spec->epilog[strlen(spec->epilog) - 1] != '\n')
			sb_str(&b, "\n");
	}
	return b.s;
}
