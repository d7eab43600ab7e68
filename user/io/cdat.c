// SPDX-License-Identifier: GPL-2.0-only
/*
 * cdat.c - a CXL device's CDAT, structure by structure (layout in
 * cdat.h).  The header's length and sum are checked before any structure
 * is read, and every structure's length against its type: a device, or a
 * file from another machine, can say anything.
 */
#include "cdat.h"
#include "acpi_hmat.h"
#include "le.h"
#include "readfile.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SUB_HEAD 4		/* a structure's type, reserved, length */
#define SSLBIS_HEAD 16		/* an SSLBIS before its entries */
#define SSLBE_LEN 8

const char *cdat_type_name(int type)
{
	static const char *const names[] = { "DSMAS", "DSLBIS", "DSMSCIS", "DSIS", "DSEMTS", "SSLBIS" };

	return type >= 0 && type < (int)ARRAY_SIZE(names) ? names[type] : "?";
}

/* The one length a structure of that type has; 0 for SSLBIS and unknown types. */
static unsigned fixed_length(int type)
{
	static const unsigned len[] = { 24, 24, 20, 8, 24 };

	return type >= 0 && type < (int)ARRAY_SIZE(len) ? len[type] : 0;
}

static int bad_data_type(size_t off, int type, uint8_t dt, char *why, size_t whylen)
{
	if (dt <= PH_HMAT_WRITE_BANDWIDTH)
		return 0;
	snprintf(why, whylen, "%s at offset %zu: data type %u; expected 0-5 (latency or bandwidth, as HMAT's)",
		 cdat_type_name(type), off, dt);
	return -EINVAL;
}

/* One structure of slen bytes at p (its length already checked). */
static int parse_one(const uint8_t *p, unsigned slen, size_t off, struct ph_cdat *t, char *why,
		     size_t whylen)
{
	switch (p[0]) {
	case PH_CDAT_DSMAS: {
		struct ph_cdat_dsmas *d = xappend(&t->dsmas, &t->ndsmas, sizeof(*d));

		d->off = off;
		d->handle = p[4];
		d->flags = p[5];
		d->nonvolatile = p[5] & 0x4;
		d->shareable = p[5] & 0x8;
		d->dpa_base = le64(p + 8);
		d->dpa_length = le64(p + 16);
		return 0;
	}
	case PH_CDAT_DSLBIS: {
		struct ph_cdat_dslbis *d;

		if (bad_data_type(off, p[0], p[6], why, whylen))
			return -EINVAL;
		d = xappend(&t->dslbis, &t->ndslbis, sizeof(*d));
		d->off = off;
		d->handle = p[4];
		d->flags = p[5];
		d->data_type = p[6];
		d->base_unit = le64(p + 8);
		for (int i = 0; i < 3; i++)
			d->entry[i] = le16(p + 16 + 2 * i);
		return 0;
	}
	case PH_CDAT_DSMSCIS: {
		struct ph_cdat_dsmscis *d = xappend(&t->dsmscis, &t->ndsmscis, sizeof(*d));

		d->off = off;
		d->handle = p[4];
		d->cache_size = le64(p + 8);
		d->attributes = le32(p + 16);
		return 0;
	}
	case PH_CDAT_DSIS: {
		struct ph_cdat_dsis *d = xappend(&t->dsis, &t->ndsis, sizeof(*d));

		d->off = off;
		d->flags = p[4];
		d->handle = p[5];
		return 0;
	}
	case PH_CDAT_DSEMTS: {
		struct ph_cdat_dsemts *d = xappend(&t->dsemts, &t->ndsemts, sizeof(*d));

		d->off = off;
		d->handle = p[4];
		d->efi_type = p[5];
		d->dpa_offset = le64(p + 8);
		d->dpa_length = le64(p + 16);
		return 0;
	}
	case PH_CDAT_SSLBIS: {
		struct ph_cdat_sslbis *d;

		if (bad_data_type(off, p[0], p[4], why, whylen))
			return -EINVAL;
		d = xappend(&t->sslbis, &t->nsslbis, sizeof(*d));
		d->off = off;
		d->data_type = p[4];
		d->base_unit = le64(p + 8);
		d->n = (int)((slen - SSLBIS_HEAD) / SSLBE_LEN);
		d->e = xcalloc((size_t)(d->n ? d->n : 1), sizeof(*d->e));
		for (int i = 0; i < d->n; i++) {
			const uint8_t *e = p + SSLBIS_HEAD + (size_t)i * SSLBE_LEN;

			d->e[i] = (struct ph_cdat_sslbe){ le16(e), le16(e + 2), le16(e + 4) };
		}
		return 0;
	}
	default:
		t->nunknown++;
		return 0;
	}
}

/* Whether slen is a length a structure of that type can have; why says what it should be. */
static int check_length(int type, unsigned slen, size_t off, char *why, size_t whylen)
{
	unsigned want = fixed_length(type);

	if (want && slen != want) {
		snprintf(why, whylen, "%s at offset %zu: length %u; a %s is %u bytes",
			 cdat_type_name(type), off, slen, cdat_type_name(type), want);
		return -EINVAL;
	}
	if (type == PH_CDAT_SSLBIS && (slen < SSLBIS_HEAD || (slen - SSLBIS_HEAD) % SSLBE_LEN)) {
		snprintf(why, whylen, "SSLBIS at offset %zu: length %u; expected %u and 8 bytes an entry",
			 off, slen, SSLBIS_HEAD);
		return -EINVAL;
	}
	return 0;
}

int cdat_parse(const uint8_t *buf, size_t len, struct ph_cdat *t, char *why, size_t whylen)
{
	size_t off = PH_CDAT_HEADER_SIZE;
	uint8_t sum = 0;
	int err = 0;

	memset(t, 0, sizeof(*t));
	if (len < PH_CDAT_HEADER_SIZE) {
		snprintf(why, whylen, "%zu bytes, shorter than a CDAT's header (%d)", len, PH_CDAT_HEADER_SIZE);
		return -EINVAL;
	}
	t->length = le32(buf);
	t->revision = buf[4];
	t->checksum = buf[5];
	t->sequence = le32(buf + 12);
	if (t->length < PH_CDAT_HEADER_SIZE || t->length != len) {
		snprintf(why, whylen, "%zu bytes where its header says %u%s", len, t->length,
			 t->length > len ? ": truncated" : t->length < PH_CDAT_HEADER_SIZE ? "" : ": not one table");
		memset(t, 0, sizeof(*t));
		return -EINVAL;
	}
	for (size_t i = 0; i < len; i++)
		sum = (uint8_t)(sum + buf[i]);
	if (sum) {
		snprintf(why, whylen, "its bytes sum to %u, not 0 mod 256: checksum 0x%02x would make them",
			 sum, (uint8_t)(t->checksum - sum));
		memset(t, 0, sizeof(*t));
		return -EINVAL;
	}
	while (!err && off < len) {
		const uint8_t *p = buf + off;
		unsigned slen;

		if (len - off < SUB_HEAD) {
			snprintf(why, whylen, "%zu bytes left at offset %zu, shorter than a structure's header (%d)",
				 len - off, off, SUB_HEAD);
			err = -EINVAL;
			break;
		}
		slen = le16(p + 2);
		if (slen < SUB_HEAD || slen > len - off) {
			snprintf(why, whylen, "structure of type %u (%s) at offset %zu: length %u; %zu bytes are left",
				 p[0], cdat_type_name(p[0]), off, slen, len - off);
			err = -EINVAL;
			break;
		}
		err = check_length(p[0], slen, off, why, whylen);
		if (!err)
			err = parse_one(p, slen, off, t, why, whylen);
		off += slen;
	}
	if (err)
		cdat_free(t);
	return err;
}

int cdat_read(const char *path, struct ph_cdat *t, char *why, size_t whylen)
{
	char *buf;
	size_t len;
	int err;

	memset(t, 0, sizeof(*t));
	err = read_table_file(path, PH_CDAT_MAX_BYTES, &buf, &len, why, whylen);
	if (err)
		return err;
	err = cdat_parse((const uint8_t *)buf, len, t, why, whylen);
	free(buf);
	return err;
}

void cdat_free(struct ph_cdat *t)
{
	for (int i = 0; i < t->nsslbis; i++)
		free(t->sslbis[i].e);
	free(t->dsmas);
	free(t->dslbis);
	free(t->dsmscis);
	free(t->dsis);
	free(t->dsemts);
	free(t->sslbis);
	memset(t, 0, sizeof(*t));
}

const struct ph_cdat_dsmas *cdat_dsmas_of(const struct ph_cdat *t, uint8_t handle)
{
	for (int i = 0; i < t->ndsmas; i++)
		if (t->dsmas[i].handle == handle)
			return &t->dsmas[i];
	return NULL;
}

/* A little-endian writer into a buffer sized beforehand. */
struct out {
	uint8_t *b;
	size_t n;
};

static void put(struct out *o, uint64_t v, int size)
{
	for (int i = 0; i < size; i++)
		o->b[o->n++] = (uint8_t)(v >> (8 * i));
}

static void put_sub(struct out *o, int type, unsigned len)
{
	put(o, (uint64_t)type, 1), put(o, 0, 1), put(o, len, 2);
}

uint8_t *cdat_build(const struct ph_cdat *t, size_t *len)
{
	size_t n = PH_CDAT_HEADER_SIZE;
	struct out o;
	uint8_t sum = 0;

	n += (size_t)t->ndsmas * fixed_length(PH_CDAT_DSMAS) + (size_t)t->ndslbis * fixed_length(PH_CDAT_DSLBIS) +
	     (size_t)t->ndsmscis * fixed_length(PH_CDAT_DSMSCIS) + (size_t)t->ndsis * fixed_length(PH_CDAT_DSIS) +
	     (size_t)t->ndsemts * fixed_length(PH_CDAT_DSEMTS);
	for (int i = 0; i < t->nsslbis; i++)
		n += SSLBIS_HEAD + (size_t)t->sslbis[i].n * SSLBE_LEN;
	o.b = xcalloc(n, 1);
	o.n = 0;
	put(&o, n, 4), put(&o, t->revision, 1), put(&o, 0, 1), put(&o, 0, 6), put(&o, t->sequence, 4);
	for (int i = 0; i < t->ndsmas; i++) {
		const struct ph_cdat_dsmas *d = &t->dsmas[i];

		put_sub(&o, PH_CDAT_DSMAS, fixed_length(PH_CDAT_DSMAS));
		put(&o, d->handle, 1), put(&o, d->flags, 1), put(&o, 0, 2);
		put(&o, d->dpa_base, 8), put(&o, d->dpa_length, 8);
	}
	for (int i = 0; i < t->ndslbis; i++) {
		const struct ph_cdat_dslbis *d = &t->dslbis[i];

		put_sub(&o, PH_CDAT_DSLBIS, fixed_length(PH_CDAT_DSLBIS));
		put(&o, d->handle, 1), put(&o, d->flags, 1), put(&o, d->data_type, 1), put(&o, 0, 1);
		put(&o, d->base_unit, 8);
		for (int k = 0; k < 3; k++)
			put(&o, d->entry[k], 2);
		put(&o, 0, 2);
	}
	for (int i = 0; i < t->ndsmscis; i++) {
		const struct ph_cdat_dsmscis *d = &t->dsmscis[i];

		put_sub(&o, PH_CDAT_DSMSCIS, fixed_length(PH_CDAT_DSMSCIS));
		put(&o, d->handle, 1), put(&o, 0, 3), put(&o, d->cache_size, 8), put(&o, d->attributes, 4);
	}
	for (int i = 0; i < t->ndsis; i++) {
		put_sub(&o, PH_CDAT_DSIS, fixed_length(PH_CDAT_DSIS));
		put(&o, t->dsis[i].flags, 1), put(&o, t->dsis[i].handle, 1), put(&o, 0, 2);
	}
	for (int i = 0; i < t->ndsemts; i++) {
		const struct ph_cdat_dsemts *d = &t->dsemts[i];

		put_sub(&o, PH_CDAT_DSEMTS, fixed_length(PH_CDAT_DSEMTS));
		put(&o, d->handle, 1), put(&o, d->efi_type, 1), put(&o, 0, 2);
		put(&o, d->dpa_offset, 8), put(&o, d->dpa_length, 8);
	}
	for (int i = 0; i < t->nsslbis; i++) {
		const struct ph_cdat_sslbis *d = &t->sslbis[i];

		put_sub(&o, PH_CDAT_SSLBIS, SSLBIS_HEAD + (unsigned)d->n * SSLBE_LEN);
		put(&o, d->data_type, 1), put(&o, 0, 3), put(&o, d->base_unit, 8);
		for (int k = 0; k < d->n; k++)
			put(&o, d->e[k].port_x, 2), put(&o, d->e[k].port_y, 2), put(&o, d->e[k].value, 2), put(&o, 0, 2);
	}
	for (size_t i = 0; i < o.n; i++)
		sum = (uint8_t)(sum + o.b[i]);
	o.b[5] = (uint8_t)-sum;
	*len = o.n;
	return o.b;
}
