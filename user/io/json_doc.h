/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * json_doc.h - the strict reading of a JSON document that every reader of
 * pagehop's own files shares (read_json, read_baseline, read_report,
 * read_fleet), and its numbers.
 */
#ifndef PAGEHOP_JSON_DOC_H
#define PAGEHOP_JSON_DOC_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>
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

#endif
