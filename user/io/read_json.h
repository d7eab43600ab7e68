/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * read_json.h - a measurement as pagehop's own JSON ("pagehop matrix
 * --format json"): its latency and bandwidth matrices, each cell's CI and
 * sample count, the SLIT ("distances") and HMAT recorded with it, and its
 * provenance.
 */
#ifndef PAGEHOP_READ_JSON_H
#define PAGEHOP_READ_JSON_H

#include <stddef.h>

#include "nmatrix.h"

#include <json-c/json.h>
#include <stdbool.h>
#include <stdint.h>

/*
 * The one strict reading of a pagehop JSON document, for every reader of
 * one: a single JSON object as RFC 8259 has it (no comments, no single
 * quotes, no trailing commas, no text after it, no NaN or Infinity, no
 * number a double cannot hold, no lone surrogate, no key twice in one
 * object) nested at most 32 deep.  0 with *root (put it), or -EINVAL with
 * *line (1-based, where it stopped) and why (what is wrong, naming the
 * key or number and, past json-c's own checks, the column).
 */
#define JSON_WHY_MAX 160
int json_doc_parse(const char *text, json_object **root, int *line, char *why, size_t whylen);
/* A finite number; an integer beyond 2^53 (json-c saturates them) is not one. */
bool json_number(json_object *o, double *v);
/* An integer, not a number with a fraction or an exponent, in [lo, hi]. */
bool json_int(json_object *o, int64_t lo, int64_t hi, int64_t *v);
/* Half a unit of the last digit a JSON number was written with. */
double json_rounding(json_object *x);

/*
 * text is a C string, its name in messages path.  0 with in filled, or
 * -EINVAL with one line in err (read_text.h).
 */
int input_parse_json(const char *path, const char *text, enum ph_figure fig,
		     struct ph_input *in, char *err, size_t errlen);

#endif
