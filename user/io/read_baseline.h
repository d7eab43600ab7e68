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
 * directory with none that does (each unreadable file is named there
 * only when none is left); -errno when path cannot be read.
 */
int baseline_load(const char *path, struct ph_hset **sets, int *n, char *err, size_t errlen);
void baseline_free(struct ph_hset *sets, int n);

#endif
