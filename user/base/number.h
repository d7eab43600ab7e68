/* SPDX-License-Identifier: GPL-2.0-only */
/* number.h - one number as text, as snprintf writes it, faster. */
#ifndef PAGEHOP_NUMBER_H
#define PAGEHOP_NUMBER_H

#include <stddef.h>

/*
 * snprintf(buf, size, fmt, v) for one double, the same text and return
 * value, faster for "%.Nf", "%+.Nf", "%g" and "%.Ng" (exact: the rounding
 * is printf's, on the binary value).
 */
int format_number(char *buf, size_t size, const char *fmt, double v);

/*
 * "%lld" of v into buf (at least 21 bytes), NUL-terminated, without
 * printf: documents of a million rows format millions of these.  Returns
 * the length.
 */
int format_int(char *buf, long long v);

#endif
