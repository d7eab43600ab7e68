// SPDX-License-Identifier: GPL-2.0-only
/*
 * acpi_hmat.c - the raw ACPI HMAT, structure by structure (layout in
 * acpi_hmat.h).  Every count and length is checked against the bytes that
 * are there before anything is read: a firmware table, or a file from
 * another machine, can say anything.
 */
#include "acpi_hmat.h"
#include "le.h"
#include "readfile.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HMAT_FIRST 40		/* the header and 4 reserved bytes */
#define MPDA_LEN 40		/* a type 0 structure, exactly (revision 2) */
#define LB_HEAD 32		/* a type 1 structure before its lists */
#define CACHE_HEAD 32		/* a type 2 structure before its handles */

const char *acpi_hmat_data_name(int data_type)
{
	static const char *const names[] = {
		"access_latency", "read_latency", "write_latency",
		"access_bandwidth", "read_bandwidth", "write_bandwidth",
	};

	return data_type >= 0 && data_type < (int)ARRAY_SIZE(names) ? names[data_type] : "?";
}

bool acpi_hmat_is_latency(int data_type)
{
	return data_type >= PH_HMAT_ACCESS_LATENCY && data_type <= PH_HMAT_WRITE_LATENCY;
}

uint32_t acpi_hmat_value(uint16_t entry, uint64_t base_unit, int data_type,
			 int revision)
{
	uint64_t v;

	if (entry == PH_HMAT_ENTRY_NONE || entry == PH_HMAT_ENTRY_UNREACHABLE ||
	    base_unit > UINT32_MAX / entry)
		return 0;
	v = entry * base_unit;
	if (revision == 1)
		return v < 10 ? 0 : (uint32_t)((v + 9) / 10);
	if (revision == 2 && acpi_hmat_is_latency(data_type))
		return (uint32_t)((v + 999) / 1000);
	return (uint32_t)v;
}

static int parse_mpda(const uint8_t *p, uint32_t len, struct ph_acpi_hmat *t,
		      char *why, size_t whylen, size_t off)
{
	struct ph_hmat_mpda *m;

	if (len != MPDA_LEN) {
		snprintf(why, whylen, "memory proximity domain attributes at offset %zu: length %u; expected %d",
			 off, len, MPDA_LEN);
		return -EINVAL;
	}
	t->mpda = xrealloc(t->mpda, (t->nmpda + 1) * sizeof(*t->mpda));
	m = &t->mpda[t->nmpda++];
	m->flags = le16(p + 8);
	m->initiator_valid = m->flags & 1;
	m->initiator_pd = le32(p + 12);
	m->memory_pd = le32(p + 16);
	return 0;
}

static int parse_lb(const uint8_t *p, uint32_t len, struct ph_acpi_hmat *t,
		    char *why, size_t whylen, size_t off)
{
	struct ph_hmat_lb *l;
	uint64_t ni, nt, need;
	const uint8_t *q;

	if (len < LB_HEAD) {
		snprintf(why, whylen, "latency/bandwidth structure at offset %zu: length %u; expected at least %d",
			 off, len, LB_HEAD);
		return -EINVAL;
	}
	ni = le32(p + 12);
	nt = le32(p + 16);
	/* Each count alone first: with len < 2^32 the products below cannot overflow. */
	need = ni <= len && nt <= len ? LB_HEAD + 4 * (ni + nt) + 2 * ni * nt : UINT64_MAX;
	if (need > len) {
		if (need == UINT64_MAX)
			snprintf(why, whylen,
				 "latency/bandwidth structure at offset %zu: %llu initiators x %llu targets do not fit in its length, %u bytes",
				 off, (unsigned long long)ni, (unsigned long long)nt, len);
		else
			snprintf(why, whylen,
				 "latency/bandwidth structure at offset %zu: %llu initiators x %llu targets need %llu bytes; its length is %u",
				 off, (unsigned long long)ni, (unsigned long long)nt,
				 (unsigned long long)need, len);
		return -EINVAL;
	}
	if (p[9] > PH_HMAT_WRITE_BANDWIDTH) {
		snprintf(why, whylen, "latency/bandwidth structure at offset %zu: data type %u; expected 0 to 5",
			 off, p[9]);
		return -EINVAL;
	}
	t->lb = xrealloc(t->lb, (t->nlb + 1) * sizeof(*t->lb));
	l = &t->lb[t->nlb++];
	memset(l, 0, sizeof(*l));
	l->flags = p[8];
	l->hierarchy = p[8] & 0xf;
	l->data_type = p[9];
	l->min_transfer = p[10];
	l->ni = (uint32_t)ni;
	l->nt = (uint32_t)nt;
	l->base_unit = le64(p + 24);
	l->init = xcalloc(ni ? ni : 1, sizeof(*l->init));
	l->targ = xcalloc(nt ? nt : 1, sizeof(*l->targ));
	l->entry = xcalloc(ni && nt ? ni * nt : 1, sizeof(*l->entry));
	q = p + LB_HEAD;
	for (uint64_t i = 0; i < ni; i++, q += 4)
		l->init[i] = le32(q);
	for (uint64_t i = 0; i < nt; i++, q += 4)
		l->targ[i] = le32(q);
	for (uint64_t i = 0; i < ni * nt; i++, q += 2)
		l->entry[i] = le16(q);
	return 0;
}

static int parse_cache(const uint8_t *p, uint32_t len, struct ph_acpi_hmat *t,
		       char *why, size_t whylen, size_t off)
{
	struct ph_hmat_cache *c;
	uint16_t nh;

	nh = len >= CACHE_HEAD ? le16(p + 30) : 0;
	if (len < CACHE_HEAD || CACHE_HEAD + 2u * nh > len) {
		snprintf(why, whylen, "memory-side cache structure at offset %zu: length %u; expected at least %u",
			 off, len, len < CACHE_HEAD ? CACHE_HEAD : CACHE_HEAD + 2u * nh);
		return -EINVAL;
	}
	t->cache = xrealloc(t->cache, (t->ncache + 1) * sizeof(*t->cache));
	c = &t->cache[t->ncache++];
	c->memory_pd = le32(p + 8);
	c->size = le64(p + 16);
	c->attributes = le32(p + 24);
	c->total_levels = c->attributes & 0xf;
	c->level = c->attributes >> 4 & 0xf;
	c->associativity = c->attributes >> 8 & 0xf;
	c->write_policy = c->attributes >> 12 & 0xf;
	c->line_size = c->attributes >> 16;
	c->nhandles = nh;
	c->handles = NULL;
	if (nh) {
		c->handles = xcalloc(nh, sizeof(*c->handles));
		for (uint16_t i = 0; i < nh; i++)
			c->handles[i] = le16(p + CACHE_HEAD + 2u * i);
	}
	return 0;
}

int acpi_hmat_parse(const uint8_t *buf, size_t len, struct ph_acpi_hmat *t,
		    char *why, size_t whylen)
{
	size_t off = HMAT_FIRST, end;
	int err = 0;

	memset(t, 0, sizeof(*t));
	if (acpi_header_parse(buf, len, &t->h) || len < HMAT_FIRST) {
		snprintf(why, whylen, "%zu bytes, shorter than an HMAT's header (%d)", len, HMAT_FIRST);
		return -EINVAL;
	}
	if (memcmp(t->h.signature, "HMAT", 4)) {
		bool text = true;

		for (int i = 0; i < 4; i++)
			text &= buf[i] >= 0x20 && buf[i] < 0x7f;
		/* Bytes that are not text are shown in hex: the message is one line. */
		if (text)
			snprintf(why, whylen, "a '%s' table, not an HMAT", t->h.signature);
		else
			snprintf(why, whylen, "signature %02X %02X %02X %02X, not 'HMAT'",
				 buf[0], buf[1], buf[2], buf[3]);
		memset(&t->h, 0, sizeof(t->h));
		return -EINVAL;
	}
	if (t->h.length > len || t->h.length < HMAT_FIRST) {
		snprintf(why, whylen, "%zu bytes where its header says %u", len, t->h.length);
		return -EINVAL;
	}
	end = t->h.length;
	while (!err && off < end) {
		const uint8_t *p = buf + off;
		uint32_t slen;

		if (end - off < 8) {
			snprintf(why, whylen, "%zu bytes left at offset %zu, shorter than a structure's header (8)",
				 end - off, off);
			err = -EINVAL;
			break;
		}
		slen = le32(p + 4);
		if (slen < 8 || slen > end - off) {
			snprintf(why, whylen, "structure of type %u at offset %zu: length %u; %zu bytes are left",
				 le16(p), off, slen, end - off);
			err = -EINVAL;
			break;
		}
		switch (le16(p)) {
		case 0:
			err = parse_mpda(p, slen, t, why, whylen, off);
			break;
		case 1:
			err = parse_lb(p, slen, t, why, whylen, off);
			break;
		case 2:
			err = parse_cache(p, slen, t, why, whylen, off);
			break;
		default:
			t->nunknown++;	/* a later ACPI's structure: skipped, as the kernel does */
			break;
		}
		off += slen;
	}
	if (err)
		acpi_hmat_free(t);
	return err;
}

int acpi_hmat_read(const char *path, struct ph_acpi_hmat *t, char *why,
		   size_t whylen)
{
	char *buf;
	size_t len;
	int err;

	memset(t, 0, sizeof(*t));
	err = read_table_file(path, PH_ACPI_HMAT_MAX_BYTES, &buf, &len, why, whylen);
	if (err)
		return err;
	err = acpi_hmat_parse((const uint8_t *)buf, len, t, why, whylen);
	free(buf);
	return err;
}

void acpi_hmat_free(struct ph_acpi_hmat *t)
{
	for (int i = 0; i < t->nlb; i++) {
		free(t->lb[i].init);
		free(t->lb[i].targ);
		free(t->lb[i].entry);
	}
	free(t->lb);
	free(t->mpda);
	for (int i = 0; i < t->ncache; i++)
		free(t->cache[i].handles);
	free(t->cache);
	memset(t, 0, sizeof(*t));
}

static void *dup_of(const void *p, size_t n, size_t size)
{
	void *d = xcalloc(n ? n : 1, size);

	if (n)
		memcpy(d, p, n * size);
	return d;
}

void acpi_hmat_copy(struct ph_acpi_hmat *dst, const struct ph_acpi_hmat *src)
{
	*dst = *src;
	dst->mpda = dup_of(src->mpda, (size_t)src->nmpda, sizeof(*src->mpda));
	dst->lb = dup_of(src->lb, (size_t)src->nlb, sizeof(*src->lb));
	for (int k = 0; k < src->nlb; k++) {
		const struct ph_hmat_lb *l = &src->lb[k];

		dst->lb[k].init = dup_of(l->init, l->ni, sizeof(*l->init));
		dst->lb[k].targ = dup_of(l->targ, l->nt, sizeof(*l->targ));
		dst->lb[k].entry = dup_of(l->entry, (size_t)l->ni * l->nt, sizeof(*l->entry));
	}
	dst->cache = dup_of(src->cache, (size_t)src->ncache, sizeof(*src->cache));
	for (int k = 0; k < src->ncache; k++)
		dst->cache[k].handles = src->cache[k].nhandles
					? dup_of(src->cache[k].handles, src->cache[k].nhandles,
						 sizeof(*src->cache[k].handles))
					: NULL;
}
