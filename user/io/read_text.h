/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * read_text.h - what the readers of "pagehop slit"'s inputs share: reading
 * an input file with the one-line message for each way it can fail, the
 * checks every input passes (text, and for CSV and numactl a last line
 * end), lines and node ids.
 *
 * Every reader returns 0, or -EINVAL with one line in err saying where
 * (file and line, or file and JSON path) and what was expected there.
 * Standard input ("-") is named "<stdin>".
 */
#ifndef PAGEHOP_READ_TEXT_H
#define PAGEHOP_READ_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "nmatrix.h"
#include "util.h"

/* The largest input read: a 1024-node matrix with CIs is far less. */
#define PH_INPUT_MAX_MIB 16
#define PH_INPUT_MAX_BYTES (PH_INPUT_MAX_MIB * MiB)
/* Node ids are below this: Linux's MAX_NUMNODES at NODES_SHIFT 10, its largest. */
#define PH_MAX_NODES 1024

/* What a recorded SLIT (CSV or JSON) must be, for messages. */
#define PH_SLIT_SHAPE "expected a SLIT: a square table, the same nodes as rows and columns, integers up to 255"

/* Write the message into err (len bytes); returns -EINVAL. */
int read_err(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * The bytes must be text: no NUL, no control character but tab and line
 * ends, no carriage return but before a line feed.  A UTF-8 byte-order
 * mark is skipped: *start is where the text begins.  0 or -EINVAL.
 */
int text_check(const char *path, const char *buf, size_t len, size_t *start,
	       char *err, size_t errlen);
/* The text of buf after a successful text_check, as a C string; malloc'd. */
char *text_copy(const char *buf, size_t len, size_t start);
/* How a path is named in messages: standard input as "<stdin>". */
const char *input_name(const char *path);
/*
 * Read path for option opt ("--input"): "-" is standard input, anything
 * else a regular file of at most PH_INPUT_MAX_BYTES (read_whole_file()).
 * 0 with a malloc'd *buf of *len bytes, or -EINVAL with one line in err.
 */
int read_input_file(const char *opt, const char *path, char **buf, size_t *len,
		    char *err, size_t errlen);

/*
 * Split text into lines in place (\n or \r\n); returns the count and the
 * malloc'd array of line starts in *out.
 */
int text_lines(char *text, char ***out);
/* s without leading and trailing white space (cut in place). */
char *text_trim(char *s);
/*
 * A CSV or numactl text must end with a line end: one cut short inside a
 * value would read as another number.  0, or -EINVAL naming the last line.
 */
int text_last_line(const char *path, const char *text, char *err, size_t errlen);

/*
 * A node id at *s: decimal digits only, below PH_MAX_NODES; *s moves past
 * them.  false when there is none, or it is too large.
 */
bool node_id_prefix(const char **s, int *out);
/* All of s is a node id. */
bool parse_node_id(const char *s, int *out);

/* The figure asked for, as messages name it: "latency_ns", "read bandwidth_GBps". */
const char *figure_word(enum ph_figure fig);

#endif
