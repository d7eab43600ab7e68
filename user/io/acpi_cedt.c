// SPDX-License-Identifier: GPL-2.0-only
/*
 * acpi_cedt.c - the raw ACPI CEDT, structure by structure (layout in
 * acpi_cedt.h); every length checked against its type before it is read.
 */
#include "acpi_cedt.h"
#include "le.h"
#include "readfile.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CEDT_FIRST PH_ACPI_HEADER_SIZE
#define SUB_HEAD 4
#define CHBS_LEN 32
#define CFMWS_HEAD 36
#define CXIMS_HEAD 8

int acpi_cedt_ways(uint8_t eniw)
{
	if (eniw <= 4)
		return 1 << eniw;
	if (eniw >= 8 && eniw <= 10)
		return 3 << (eniw - 8);
	return 0;
}

/* The length a structure of this type must have, from its first bytes; 0: any. */
static unsigned want_length(const uint8_t *p, unsigned slen)
{
	switch (p[0]) {
	case 0:
		return CHBS_LEN;
	case 1:
		return slen > 24 && acpi_cedt_ways(p[24]) ? CFMWS_HEAD + 4u * (unsigned)acpi_cedt_ways(p[24]) : 0;
	case 2:
		return slen >= CXIMS_HEAD ? CXIMS_HEAD + 8u * p[7] : CXIMS_HEAD;
	default:
		return 0;
	}
}

static void parse_one(const uint8_t *p, unsigned slen, size_t off, struct ph_acpi_cedt *t)
{
	if (p[0] == 0) {
		struct ph_cedt_chbs *c = xappend(&t->chbs, &t->nchbs, sizeof(*c));

		*c = (struct ph_cedt_chbs){ off, le32(p + 4), le32(p + 8), le64(p + 16), le64(p + 24) };
	} else if (p[0] == 1) {
		struct ph_cedt_cfmws *w = xappend(&t->cfmws, &t->ncfmws, sizeof(*w));

		w->off = off;
		w->base = le64(p + 8);
		w->size = le64(p + 16);
		w->eniw = p[24];
		w->ways = acpi_cedt_ways(p[24]);
		w->arithmetic = p[25];
		w->hbig = le32(p + 28);
		w->restrictions = le16(p + 32);
		w->qtg = le16(p + 34);
		for (int i = 0; i < w->ways; i++)
			w->target[i] = le32(p + CFMWS_HEAD + 4 * i);
		w->extra = slen - (CFMWS_HEAD + 4u * (unsigned)w->ways);
	} else if (p[0] == 2) {
		t->ncxims++;
	} else if (p[0] <= 4) {
		t->nother++;
	} else {
		t->nunknown++;
	}
}

int acpi_cedt_parse(const uint8_t *buf, size_t len, struct ph_acpi_cedt *t, char *why,
		    size_t whylen)
{
	size_t off = CEDT_FIRST, end;
	uint8_t sum = 0;

	memset(t, 0, sizeof(*t));
	if (acpi_header_parse(buf, len, &t->h)) {
		snprintf(why, whylen, "%zu bytes, shorter than a CEDT's header (%d)", len, CEDT_FIRST);
		return -EINVAL;
	}
	if (memcmp(t->h.signature, "CEDT", 4) || t->h.length > len || t->h.length < CEDT_FIRST) {
		if (memcmp(t->h.signature, "CEDT", 4))
			snprintf(why, whylen, "signature %02X %02X %02X %02X, not 'CEDT'", buf[0], buf[1], buf[2], buf[3]);
		else
			snprintf(why, whylen, "%zu bytes where its header says %u", len, t->h.length);
		memset(&t->h, 0, sizeof(t->h));
		return -EINVAL;
	}
	end = t->h.length;
	for (size_t i = 0; i < end; i++)
		sum = (uint8_t)(sum + buf[i]);
	t->sum_ok = !sum;
	while (off < end) {
		const uint8_t *p = buf + off;
		unsigned slen = end - off >= SUB_HEAD ? le16(p + 2) : 0, want;

		if (slen < SUB_HEAD || slen > end - off) {
			snprintf(why, whylen, "structure at offset %zu: length %u; %zu bytes are left", off, slen, end - off);
			acpi_cedt_free(t);
			return -EINVAL;
		}
		if (p[0] == 1 && (slen <= 24 || !acpi_cedt_ways(p[24]))) {
			snprintf(why, whylen, "CFMWS at offset %zu: %s", off,
				 slen <= 24 ? "too short to hold its interleave ways" : "an interleave ways encoding the spec does not have");
			acpi_cedt_free(t);
			return -EINVAL;
		}
		want = want_length(p, slen);
		if (want && (p[0] == 1 ? slen < want : slen != want)) {
			snprintf(why, whylen, "structure of type %u at offset %zu: length %u; expected %u",
				 p[0], off, slen, want);
			acpi_cedt_free(t);
			return -EINVAL;
		}
		parse_one(p, slen, off, t);
		off += slen;
	}
	return 0;
}

int acpi_cedt_read(const char *path, struct ph_acpi_cedt *t, char *why, size_t whylen)
{
	char *buf;
	size_t len;
	int err;

	memset(t, 0, sizeof(*t));
	err = read_table_file(path, PH_ACPI_CEDT_MAX_BYTES, &buf, &len, why, whylen);
	if (err)
		return err;
	err = acpi_cedt_parse((const uint8_t *)buf, len, t, why, whylen);
	free(buf);
	return err;
}

void acpi_cedt_free(struct ph_acpi_cedt *t)
{
	free(t->chbs);
	free(t->cfmws);
	memset(t, 0, sizeof(*t));
}

const struct ph_cedt_chbs *acpi_cedt_chbs_of(const struct ph_acpi_cedt *t, uint32_t uid)
{
	for (int i = 0; i < t->nchbs; i++)
		if (t->chbs[i].uid == uid)
			return &t->chbs[i];
	return NULL;
}
