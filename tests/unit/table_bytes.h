/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * table_bytes.h - a little-endian byte writer for the firmware tables the
 * parser tests build by hand (HMAT, CDAT, SRAT, CEDT), and the hostile
 * inputs every such parser is given: each truncation, each bit flip.
 * Include after unit.h (cmocka's asserts).
 */
#ifndef PAGEHOP_TEST_TABLE_BYTES_H
#define PAGEHOP_TEST_TABLE_BYTES_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct bytes {
	uint8_t b[1024];
	size_t n;
};

/* Append the size (at most 8) low bytes of v, least significant first. */
static inline void put(struct bytes *w, uint64_t v, int size)
{
	for (int i = 0; i < size; i++)
		w->b[w->n++] = (uint8_t)(v >> (8 * i));
}

/*
 * A parser under test, as the helpers below call it: 0 after it parsed
 * (and freed what it made, having checked what it must), or its error
 * with a reason in why.
 */
typedef int (*table_parse_fn)(const uint8_t *b, size_t n, char *why, size_t whylen);

/*
 * Every truncation of w refused, each into a copy of exactly that size (a
 * read past it is an ASan report): with short_why in the reason below
 * head bytes, else with trunc_why.
 */
static inline void each_truncation_refused(const struct bytes *w, table_parse_fn parse, size_t head,
					   const char *short_why, const char *trunc_why)
{
	for (size_t n = 0; n < w->n; n++) {
		uint8_t *c = malloc(n ? n : 1);
		char why[256] = "";

		memcpy(c, w->b, n);
		assert_true(parse(c, n, why, sizeof(why)) != 0);
		if (!strstr(why, n < head ? short_why : trunc_why))
			fail_msg("%zu bytes: '%s'", n, why);
		free(c);
	}
}

/*
 * Every single-bit flip of w's bytes from 'from' on, each in a copy of
 * exactly w's size: parsed, or refused with a reason.  Counts both.
 */
static inline void each_flip(const struct bytes *w, size_t from, table_parse_fn parse, int *parsed,
			     int *refused)
{
	*parsed = *refused = 0;
	for (size_t i = from; i < w->n; i++)
		for (int bit = 0; bit < 8; bit++) {
			uint8_t *c = malloc(w->n);
			char why[256] = "";

			memcpy(c, w->b, w->n);
			c[i] ^= (uint8_t)(1u << bit);
			if (parse(c, w->n, why, sizeof(why))) {
				assert_true(why[0] != '\0');
				(*refused)++;
			} else {
				(*parsed)++;
			}
			free(c);
		}
}

#endif
