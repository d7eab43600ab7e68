// SPDX-License-Identifier: GPL-2.0-only
/*
 * read_text.c - what the readers of "pagehop slit"'s inputs share: the
 * file, the text checks, lines and node ids.
 */
#include "read_text.h"
#include "readfile.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int read_err(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/*
 * The bytes must be text: no NUL (UTF-16 and binary files hold them; the
 * parsers would stop there), no control character but tab and line ends
 * (one would reach a message and the terminal), no carriage return but
 * before a line feed (classic Mac line ends make one long line).  A UTF-8
 * byte-order mark is skipped: *start is where the text begins.
 */
int text_check(const char *path, const char *buf, size_t len, size_t *start,
	       char *err, size_t errlen)
{
	const unsigned char *b = (const unsigned char *)buf;
	size_t i = 0, line_start;
	int line = 1;

	*start = 0;
	if (len >= 2 && ((b[0] == 0xff && b[1] == 0xfe) || (b[0] == 0xfe && b[1] == 0xff)))
		return read_err(err, errlen, "%s:1: UTF-16 text (byte-order mark %02X %02X); expected ASCII or UTF-8: convert it with iconv -f UTF-16 -t UTF-8",
				path, b[0], b[1]);
	if (len >= 3 && b[0] == 0xef && b[1] == 0xbb && b[2] == 0xbf)
		i = 3;
	*start = line_start = i;
	for (; i < len; i++) {
		unsigned char c = b[i];
		size_t col = i - line_start + 1;

		if (c == '\n') {
			line++;
			line_start = i + 1;
			continue;
		}
		if ((c >= 0x20 && c != 0x7f) || c == '\t' || (c == '\r' && i + 1 < len && b[i + 1] == '\n'))
			continue;
		if (c == 0)
			/* ASCII in UTF-16: every other byte NUL, from the first two on. */
			return read_err(err, errlen, "%s:%d: a NUL byte at column %zu; expected text (ASCII or UTF-8)%s",
					path, line, col,
					len - *start >= 2 && !b[*start] != !b[*start + 1]
					? "; UTF-16? convert it with iconv -f UTF-16 -t UTF-8" : "");
		if (c == '\r')
			return read_err(err, errlen, "%s:%d: a carriage return not followed by a line feed at column %zu; expected \\n or \\r\\n line ends",
					path, line, col);
		return read_err(err, errlen, "%s:%d: control character 0x%02x at column %zu; expected text",
				path, line, c, col);
	}
	return 0;
}

/* The text of buf after a successful text_check, as a C string. */
char *text_copy(const char *buf, size_t len, size_t start)
{
	char *t = xmalloc(len - start + 1);

	memcpy(t, buf + start, len - start);
	t[len - start] = '\0';
	return t;
}

/* How a path is named in messages: standard input as "<stdin>". */
const char *input_name(const char *path)
{
	return strcmp(path, "-") ? path : "<stdin>";
}

/* Read an input file for option opt; 0, or -EINVAL with one line in err. */
int read_input_file(const char *opt, const char *path, char **buf, size_t *len,
		    char *err, size_t errlen)
{
	const char *kind;
	int ret = read_whole_file(path, PH_INPUT_MAX_BYTES, buf, len, &kind);

	if (!ret)
		return 0;
	if (kind)
		return read_err(err, errlen, "%s %s: %s; expected a regular file, or - for standard input",
				opt, path, kind);
	if (ret == -EFBIG && *len)
		return read_err(err, errlen, "%s %s: %zu bytes; expected a file of at most %llu MiB",
				opt, path, *len, PH_INPUT_MAX_BYTES / MiB);
	if (ret == -EFBIG)
		return read_err(err, errlen, "%s %s: more than %llu MiB; expected a file of at most %llu MiB",
				opt, path, PH_INPUT_MAX_BYTES / MiB, PH_INPUT_MAX_BYTES / MiB);
	return read_err(err, errlen, "%s %s: %s", opt, path, strerror(-ret));
}

/*
 * Split text into lines in place; returns the count.  Handles \r\n.  The
 * lines are counted first: one allocation, however many lines.
 */
int text_lines(char *text, char ***out)
{
	char **lines;
	int n = 1;
	char *p = text;

	for (const char *q = text; (q = strchr(q, '\n')); q++)
		n++;
	lines = xcalloc(n, sizeof(*lines));
	n = 0;
	while (*p) {
		char *nl = strchr(p, '\n');

		lines[n++] = p;
		if (!nl)
			break;
		*nl = '\0';
		if (nl > p && nl[-1] == '\r')
			nl[-1] = '\0';
		p = nl + 1;
	}
	*out = lines;
	return n;
}

char *text_trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/*
 * A CSV or numactl file ends with a line end.  Without one the file may
 * have been cut short, and a value cut inside ("18.9" to "1") would read as
 * another number; no reader can tell, so such a file is refused.  Blanks
 * after the last line end are no line.
 */
int text_last_line(const char *path, const char *text, char *err, size_t errlen)
{
	const char *nl = strrchr(text, '\n'), *p = nl ? nl + 1 : text;
	int line = 1;

	while (isspace((unsigned char)*p))
		p++;
	if (!*p)
		return 0;
	for (const char *q = text; q < p; q++)
		line += *q == '\n';
	return read_err(err, errlen, "%s:%d: the last line has no line end; the file looks cut short, perhaps inside a number; expected every line to end with a line end",
			path, line);
}

/*
 * A node id at *s: decimal digits only (no sign, no blanks), below
 * PH_MAX_NODES; *s moves past them.  Counted digit by digit, so that no id is
 * too long to reject (strtol's and sscanf's overflow are not).
 */
bool node_id_prefix(const char **s, int *out)
{
	const char *p = *s;
	int v = 0;

	if (!isdigit((unsigned char)*p))
		return false;
	for (; isdigit((unsigned char)*p); p++) {
		v = v * 10 + (*p - '0');
		if (v >= PH_MAX_NODES)
			return false;
	}
	*out = v;
	*s = p;
	return true;
}

bool parse_node_id(const char *s, int *out)
{
	return node_id_prefix(&s, out) && !*s;
}

const char *figure_word(enum ph_figure fig)
{
	switch (fig) {
	case PH_FIGURE_LATENCY:
		return "latency_ns";
	case PH_FIGURE_BANDWIDTH:
		return "bandwidth_GBps";
	case PH_FIGURE_READ:
		return "read bandwidth_GBps";
	case PH_FIGURE_TRIAD:
		return "triad bandwidth_GBps";
	case PH_FIGURE_DISTANCE:
		return "distance";
	case PH_FIGURE_DEFAULT:
		break;
	}
	return "measured";
}
