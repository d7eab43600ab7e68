/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * read_numactl.h - a SLIT as "numactl --hardware" prints it: the "node
 * distances:" table (or a bare "node 0 1 ..." table).
 */
#ifndef PAGEHOP_READ_NUMACTL_H
#define PAGEHOP_READ_NUMACTL_H

#include <stddef.h>

#include "nmatrix.h"

/*
 * text is a C string ending with a line end, its name in messages path.
 * 0 with a malloc'd *out, or -EINVAL with one line in err (read_text.h).
 */
int slit_parse_numactl(const char *path, const char *text,
		       struct ph_slit **out, char *err, size_t errlen);
/* The same from len bytes, checked first as text (text_check()). */
int slit_parse(const char *path, const char *buf, size_t len, struct ph_slit **out,
	       char *err, size_t errlen);
/* Read path ("-": standard input) as --slit, then slit_parse. */
int slit_load_numactl(const char *path, struct ph_slit **out, char *err,
		      size_t errlen);

#endif
