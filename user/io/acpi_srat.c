// SPDX-License-Identifier: GPL-2.0-only
/*
 * acpi_srat.c - the raw ACPI SRAT, structure by structure (layout in
 * acpi_srat.h).  Every length is checked against its type and against the
 * bytes that are there before anything is read.
 */
#include "acpi_srat.h"
#include "le.h"
#include "readfile.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SRAT_FIRST 48		/* the header and 12 reserved bytes */

/* The one length of each type this reader knows (0 to 7); 0: unknown. */
static unsigned srat_length(int type)
{
	static const unsigned len[] = { 16, 40, 24, 18, 12, 32, 32, 20 };

	return type >= 0 && type < (int)ARRAY_SIZE(len) ? len[type] : 0;
}

static void parse_one(const uint8_t *p, size_t off, struct ph_acpi_srat *t)
{
	switch (p[0]) {
	case 0:
	case 2: {
		struct ph_srat_cpu *c = xappend(&t->cpu, &t->ncpu, sizeof(*c));

		c->off = off;
		c->type = p[0];
		if (p[0] == 0) {
			c->domain = p[2] | (uint32_t)p[9] << 8 | (uint32_t)p[10] << 16 | (uint32_t)p[11] << 24;
			c->apic_id = p[3];
			c->enabled = le32(p + 4) & 1;
		} else {
			c->domain = le32(p + 4);
			c->apic_id = le32(p + 8);
			c->enabled = le32(p + 12) & 1;
		}
		break;
	}
	case 1: {
		struct ph_srat_mem *m = xappend(&t->mem, &t->nmem, sizeof(*m));

		m->off = off;
		m->domain = le32(p + 2);
		m->base = le64(p + 8);
		m->length = le64(p + 16);
		m->flags = le32(p + 28);
		m->enabled = m->flags & 1;
		m->hotplug = m->flags & 2;
		m->nonvolatile = m->flags & 4;
		break;
	}
	case 5:
	case 6: {
		struct ph_srat_dev *d = xappend(&t->dev, &t->ndev, sizeof(*d));

		d->off = off;
		d->type = p[0];
		d->handle_type = p[3];
		d->domain = le32(p + 4);
		if (d->handle_type == 0) {
			memcpy(d->hid, p + 8, 8);
			d->uid = le32(p + 16);
		} else {
			d->segment = le16(p + 8);
			d->bdf = le16(p + 10);
		}
		d->flags = le32(p + 24);
		d->enabled = d->flags & 1;
		break;
	}
	default:
		if (srat_length(p[0]))
			t->nother++;
		else
			t->nunknown++;
	}
}

int acpi_srat_parse(const uint8_t *buf, size_t len, struct ph_acpi_srat *t, char *why,
		    size_t whylen)
{
	size_t off = SRAT_FIRST, end;
	uint8_t sum = 0;

	memset(t, 0, sizeof(*t));
	if (acpi_header_parse(buf, len, &t->h) || len < SRAT_FIRST) {
		snprintf(why, whylen, "%zu bytes, shorter than an SRAT's header (%d)", len, SRAT_FIRST);
		return -EINVAL;
	}
	if (memcmp(t->h.signature, "SRAT", 4)) {
		snprintf(why, whylen, "signature %02X %02X %02X %02X, not 'SRAT'", buf[0], buf[1], buf[2], buf[3]);
		memset(&t->h, 0, sizeof(t->h));
		return -EINVAL;
	}
	if (t->h.length > len || t->h.length < SRAT_FIRST) {
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
		unsigned slen, want;

		if (end - off < 2 || (slen = p[1]) < 2 || slen > end - off) {
			snprintf(why, whylen, "structure at offset %zu: %s; %zu bytes are left", off,
				 end - off < 2 ? "no room for its type and length" : "its length runs past the table or is below 2",
				 end - off);
			acpi_srat_free(t);
			return -EINVAL;
		}
		want = srat_length(p[0]);
		if (want && slen != want) {
			snprintf(why, whylen, "structure of type %u at offset %zu: length %u; that type is %u bytes",
				 p[0], off, slen, want);
			acpi_srat_free(t);
			return -EINVAL;
		}
		parse_one(p, off, t);
		off += slen;
	}
	return 0;
}

int acpi_srat_read(const char *path, struct ph_acpi_srat *t, char *why, size_t whylen)
{
	char *buf;
	size_t len;
	int err;

	memset(t, 0, sizeof(*t));
	err = read_table_file(path, PH_ACPI_SRAT_MAX_BYTES, &buf, &len, why, whylen);
	if (err)
		return err;
	err = acpi_srat_parse((const uint8_t *)buf, len, t, why, whylen);
	free(buf);
	return err;
}

void acpi_srat_free(struct ph_acpi_srat *t)
{
	free(t->cpu);
	free(t->mem);
	free(t->dev);
	memset(t, 0, sizeof(*t));
}

const struct ph_srat_dev *acpi_srat_port_of(const struct ph_acpi_srat *t, uint32_t uid)
{
	for (int i = 0; i < t->ndev; i++)
		if (t->dev[i].type == 6 && t->dev[i].handle_type == 0 && t->dev[i].uid == uid)
			return &t->dev[i];
	return NULL;
}
