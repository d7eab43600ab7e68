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

#include "json_doc.h"
#include "nmatrix.h"

#include <json-c/json.h>
#include <stdbool.h>
#include <stdint.h>

/*
 * text is a C string, its name in messages path.  0 with in filled, or
 * -EINVAL with one line in err (read_text.h).
 */
int input_parse_json(const char *path, const char *text, enum ph_figure fig,
		     struct ph_input *in, char *err, size_t errlen);

#endif
