// SPDX-License-Identifier: GPL-2.0-only
/*
 * acpi_hmat_src.c - an HMAT as iasl source ("pagehop slit --emit-hmat",
 * "pagehop cxl --emit-hmat"), laid out as "iasl -T HMAT" prints its
 * template (acpica-tools 20200925, Debian 12).  iasl computes the table's
 * and each structure's length and the checksum.  Each flags field is
 * written whole on its "Flags (decoded below)" line, which iasl takes as
 * the field's value, and its decoded bits below it; the byte at offset 10
 * of a locality structure, its minimum transfer size, is the low byte of
 * the template's "Reserved1".
 */
#include "acpi_hmat.h"

#include <stdio.h>

#define F "[%04d]" PH_ACPI_FIELD

/* " / * note * /" at the end of a line, or nothing. */
static void note(FILE *f, const char *n)
{
	if (n)
		fprintf(f, "    /* %s */", n);
	fputc('\n', f);
}

static void put_mpda(FILE *f, const struct ph_hmat_mpda *m, const char *n)
{
	fprintf(f, "\n" F "0000 [Memory Proximity Domain Attributes]", 2, "Structure Type");
	note(f, n);
	fprintf(f, F "0000\n", 2, "Reserved");
	fprintf(f, F "00000028\n", 4, "Length");
	fprintf(f, F "%04X\n", 2, "Flags (decoded below)", m->flags);
	fprintf(f, "%41s : %u\n", "Processor Proximity Domain Valid", m->flags & 1u);
	fprintf(f, F "0000\n", 2, "Reserved1");
	fprintf(f, "[0004] Attached Initiator Proximity Domain : %08X\n", m->initiator_pd);
	fprintf(f, F "%08X\n", 4, "Memory Proximity Domain", m->memory_pd);
	fprintf(f, F "00000000\n", 4, "Reserved2");
	fprintf(f, F "0000000000000000\n", 8, "Reserved3");
	fprintf(f, F "0000000000000000\n", 8, "Reserved4");
}

static void put_lb(FILE *f, const struct ph_hmat_lb *l, const char *n,
		   const char *const *entry_notes)
{
	unsigned long long len = 32 + 4ull * (l->ni + l->nt) + 2ull * l->ni * l->nt;

	fprintf(f, "\n" F "0001 [System Locality Latency and Bandwidth Information]", 2, "Structure Type");
	note(f, n);
	fprintf(f, F "0000\n", 2, "Reserved");
	fprintf(f, F "%08llX\n", 4, "Length", len);
	fprintf(f, F "%02X\n", 1, "Flags (decoded below)", l->flags);
	fprintf(f, "%41s : %X\n", "Memory Hierarchy", (unsigned)l->flags & 0xf);
	fprintf(f, F "%02X\n", 1, "Data Type", (unsigned)l->data_type);
	fprintf(f, F "%04X\n", 2, "Reserved1", l->min_transfer);
	fprintf(f, F "%08X\n", 4, "Initiator Proximity Domains #", l->ni);
	fprintf(f, F "%08X\n", 4, "Target Proximity Domains #", l->nt);
	fprintf(f, F "00000000\n", 4, "Reserved2");
	fprintf(f, F "%016llX\n", 8, "Entry Base Unit", (unsigned long long)l->base_unit);
	for (uint32_t i = 0; i < l->ni; i++)
		fprintf(f, F "%08X\n", 4, "Initiator Proximity Domain List", l->init[i]);
	for (uint32_t t = 0; t < l->nt; t++)
		fprintf(f, F "%08X\n", 4, "Target Proximity Domain List", l->targ[t]);
	for (uint32_t i = 0; i < l->ni; i++)
		for (uint32_t t = 0; t < l->nt; t++) {
			fprintf(f, F "%04X", 2, "Entry", l->entry[i * l->nt + t]);
			note(f, entry_notes ? entry_notes[i * l->nt + t] : NULL);
		}
}

static void put_cache(FILE *f, const struct ph_hmat_cache *c, const char *n)
{
	fprintf(f, "\n" F "0002 [Memory Side Cache Information]", 2, "Structure Type");
	note(f, n);
	fprintf(f, F "0000\n", 2, "Reserved");
	fprintf(f, F "%08X\n", 4, "Length", 32u + 2u * (c->handles ? c->nhandles : 0));
	fprintf(f, F "%08X\n", 4, "Memory Proximity Domain", c->memory_pd);
	fprintf(f, F "00000000\n", 4, "Reserved1");
	fprintf(f, F "%016llX\n", 8, "Memory Side Cache Size", (unsigned long long)c->size);
	fprintf(f, F "%08X\n", 4, "Cache Attributes (decoded below)", c->attributes);
	fprintf(f, "%41s : %X\n", "Total Cache Levels", c->attributes & 0xf);
	fprintf(f, "%41s : %X\n", "Cache Level", c->attributes >> 4 & 0xf);
	fprintf(f, "%41s : %X\n", "Cache Associativity", c->attributes >> 8 & 0xf);
	fprintf(f, "%41s : %X\n", "Write Policy", c->attributes >> 12 & 0xf);
	fprintf(f, "%41s : %04X\n", "Cache Line Size", c->attributes >> 16);
	fprintf(f, F "0000\n", 2, "Reserved2");
	fprintf(f, F "%04X\n", 2, "SMBIOS Handle #", c->handles ? c->nhandles : 0);
	for (uint16_t i = 0; c->handles && i < c->nhandles; i++)
		fprintf(f, F "%04X\n", 2, "SMBIOS Handle", c->handles[i]);
}

char *acpi_hmat_source_noted(const struct ph_acpi_ids *ids, const struct ph_acpi_hmat *t,
			     const char *comment, const struct ph_hmat_notes *n)
{
	unsigned long long length = PH_ACPI_HEADER_SIZE + 4;
	char *s = NULL;
	size_t len = 0;
	FILE *f = acpi_memstream(&s, &len);

	length += 40ull * t->nmpda;
	for (int k = 0; k < t->ncache; k++)
		length += 32 + 2ull * (t->cache[k].handles ? t->cache[k].nhandles : 0);
	for (int k = 0; k < t->nlb; k++)
		length += 32 + 4ull * (t->lb[k].ni + t->lb[k].nt) + 2ull * t->lb[k].ni * t->lb[k].nt;
	acpi_source_begin(f, comment, "HMAT", "Heterogeneous Memory Attributes Table", length, 2, ids);
	fprintf(f, "\n" F "00000000\n", 4, "Reserved");
	for (int k = 0; k < t->nmpda; k++)
		put_mpda(f, &t->mpda[k], n ? n->mpda : NULL);
	for (int k = 0; k < t->nlb; k++)
		put_lb(f, &t->lb[k], n && n->lb ? n->lb[k] : NULL,
		       n && n->entry ? n->entry[k] : NULL);
	for (int k = 0; k < t->ncache; k++)
		put_cache(f, &t->cache[k], n ? n->cache : NULL);
	acpi_memstream_close(f);
	return s;
}

char *acpi_hmat_source(const struct ph_acpi_ids *ids, const struct ph_acpi_hmat *t,
		       const char *comment)
{
	return acpi_hmat_source_noted(ids, t, comment, NULL);
}
