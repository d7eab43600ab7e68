/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * matrix_parse.h - reading what "pagehop slit" analyses: a measured node
 * matrix as the plain CSV of issue 5 (also what the output layer writes for
 * a matrix) or as pagehop's own JSON, and a SLIT as "numactl --hardware"
 * prints it.
 *
 * Every parser returns 0, or -EINVAL with one line in err saying where
 * (file and line, or file and JSON path) and what was expected there.
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

int input_parse_csv(const char *path, const char *text, enum ph_figure fig,
		    struct ph_input *in, char *err, size_t errlen);
int input_parse_json(const char *path, const char *text, enum ph_figure fig,
		     struct ph_input *in, char *err, size_t errlen);
/* Read path; JSON when its first non-blank character is '{', else CSV. */
int input_load(const char *path, enum ph_figure fig, struct ph_input *in,
	       char *err, size_t errlen);
void input_free(struct ph_input *in);

/* The "node distances:" table of numactl --hardware. */
int slit_parse_numactl(const char *path, const char *text,
		       struct ph_slit **out, char *err, size_t errlen);
int slit_load_numactl(const char *path, struct ph_slit **out, char *err,
		      size_t errlen);

/* A whole file of at most max bytes, NUL-terminated; NULL with errno set. */
char *slurp_file(const char *path, size_t max, size_t *len);

#endif
