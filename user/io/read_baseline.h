/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * read_baseline.h - a saved "pagehop baseline" or "pagehop check --format
 * json" document as the health model (hmodel.h): its model key, nodes,
 * settings and figures, each figure with its CI and its tolerances.  A
 * figure without a CI is refused: a reference without one cannot tell
 * noise from a fault.
 */
#ifndef PAGEHOP_READ_BASELINE_H
#define PAGEHOP_READ_BASELINE_H

#include <stddef.h>

#include "hmodel.h"

/* text (a C string) read from path: 0 with out filled, or -EINVAL with one line in err. */
int baseline_parse(const char *path, const char *text, struct ph_hset *out, char *err, size_t errlen);

/*
 * path a file, or a directory of them (every *.json in it, in name order):
 * *sets gets each document that parses, *n how many.  0 with at least one;
 * -EINVAL with one line in err for a file that does not parse, or a
 * directory with none that does (the first that does not is named
 * there); -errno when path cannot be read.  A document is at most
 * PH_INPUT_MAX_BYTES (16 MiB), the cap of every input pagehop reads.
 */
int baseline_load(const char *path, struct ph_hset **sets, int *n, char *err, size_t errlen);
/*
 * The same, and for a directory each *.json in it that is not a baseline
 * (does not read or parse) gets a note, malloc'd, appended to *notes
 * (*nnotes of them; notes may be NULL).  Each set's stamp is its
 * provenance's time_utc, else the file's mtime.
 */
int baseline_load_noted(const char *path, struct ph_hset **sets, int *n, char ***notes, int *nnotes,
			char *err, size_t errlen);
void baseline_free(struct ph_hset *sets, int n);

#endif
