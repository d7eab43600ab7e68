/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * matrix_parse.h - reading what "pagehop slit" analyses: a measured node
 * matrix as the plain CSV of issue 5 (also what the output layer writes for
 * a matrix) or as pagehop's own JSON, and a SLIT as "numactl --hardware"
 * prints it.
 *
 * Every parser returns 0, or -EINVAL with one line in err saying where
 * (file and line, or file and JSON path) and what was expected there.
 * Standard input ("-") is named "<stdin>".
 */
#ifndef PAGEHOP_MATRIX_PARSE_H
#define PAGEHOP_MATRIX_PARSE_H

#include <stdbool.h>
#include <stddef.h>

#include "distance.h"
#include "topology.h"

/* Which figure of a file to analyse (--metric). */
enum ph_figure {
	PH_FIGURE_DEFAULT = 0,	/* latency if present, else read, else triad bandwidth */
	PH_FIGURE_LATENCY,
	PH_FIGURE_BANDWIDTH,	/* read bandwidth, else triad */
	PH_FIGURE_READ,
	PH_FIGURE_TRIAD,
	PH_FIGURE_DISTANCE,	/* a matrix already normalised (CSV only) */
};

/* "latency", "bandwidth", "read", "triad", "distance"; -EINVAL otherwise. */
int figure_parse(const char *s, enum ph_figure *out);

struct ph_input {
	char *path;
	bool json;
	char *figure;		/* what was analysed: a JSON key, a CSV block's name or metric */
	char *source;		/* "# source:" or the JSON provenance in one line; NULL if none */
	struct ph_nmatrix *m;	/* the selected figure */
	struct ph_nmatrix *latency;	/* for the HMAT comparison; NULL if absent */
	struct ph_nmatrix *read_bw;	/* likewise */
	struct ph_slit *slit;	/* the SLIT recorded with the measurement; NULL if none */
	struct ph_hmat *hmat;	/* recorded HMAT */
	int nhmat;
	int ci_not_met;		/* cells of the figure whose CI target was missed */
};

/*
 * The parsers proper: text is a C string, its name in messages path.  CSV
 * and numactl text must end with a line end (a file cut inside a number
 * would read as another number).
 */
int input_parse_csv(const char *path, const char *text, enum ph_figure fig,
		    struct ph_input *in, char *err, size_t errlen);
int input_parse_json(const char *path, const char *text, enum ph_figure fig,
		     struct ph_input *in, char *err, size_t errlen);
/*
 * len bytes of a file's content: refused unless text (no NUL, no control
 * character but tab and line ends, no UTF-16; a UTF-8 byte-order mark is
 * skipped), then JSON when its first non-blank character is '{', else CSV.
 */
int input_parse(const char *path, const char *buf, size_t len, enum ph_figure fig,
		struct ph_input *in, char *err, size_t errlen);
/*
 * Read path ("-": standard input; only a regular file otherwise, at most
 * 16 MiB) and parse it as input_parse does.
 */
int input_load(const char *path, enum ph_figure fig, struct ph_input *in,
	       char *err, size_t errlen);
void input_free(struct ph_input *in);

/* The "node distances:" table of numactl --hardware. */
int slit_parse_numactl(const char *path, const char *text,
		       struct ph_slit **out, char *err, size_t errlen);
/* The same from len bytes, checked as input_parse checks them. */
int slit_parse(const char *path, const char *buf, size_t len, struct ph_slit **out,
	       char *err, size_t errlen);
/* Read path as input_load does, then slit_parse. */
int slit_load_numactl(const char *path, struct ph_slit **out, char *err,
		      size_t errlen);

#endif
