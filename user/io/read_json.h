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
 * one: a single JSON object (RFC 8259: no comments, no single quotes, no
 * trailing commas, no text after it).  0 with *root (put it), or -EINVAL
 * with *line (1-based, where json-c stopped) and *why (a static phrase).
 */
int json_doc_parse(const char *text, json_object **root, int *line, const char **why);
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
