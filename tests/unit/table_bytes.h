/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * table_bytes.h - a little-endian byte writer for the firmware tables the
 * parser tests build by hand (HMAT, CDAT).
 */
#ifndef PAGEHOP_TEST_TABLE_BYTES_H
#define PAGEHOP_TEST_TABLE_BYTES_H

#include <stddef.h>
#include <stdint.h>

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

#endif
