// SPDX-License-Identifier: GPL-2.0-only
/*
 * read_dimms.c - EDAC's DIMMs and SMBIOS memory devices, and which of
 * them a physical range sits on.
 */
#include "read_dimms.h"
#include "readfile.h"
#include "util.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct ph_dimm *new_dimm(struct ph_dimms *d, enum ph_dimm_source src)
{
	struct ph_dimm *x = xappend(&d->v, &d->n, sizeof(*x));

	memset(x, 0, sizeof(*x));
	x->source = src;
	x->ce = x->ue = -1;
	return x;
}

static long read_long(const char *dir, const char *name)
{
	char path[1200];
	uint64_t v;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return read_u64(path, &v) ? -1 : (long)v;
}

static void read_str(const char *dir, const char *name, char *out, size_t len)
{
	char path[1200];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (read_text(path, out, len) < 0)
		out[0] = '\0';
}

/* mcN/dimmM or mcN/rankM: one device. */
static void edac_one(const char *dir, int mc, const char *name, struct ph_dimms *d)
{
	struct ph_dimm *x = new_dimm(d, PH_DIMM_EDAC);
	char where[48];
	long mib = read_long(dir, "size");

	read_str(dir, "dimm_label", x->label, sizeof(x->label));
	read_str(dir, "dimm_location", where, sizeof(where));
	snprintf(x->location, sizeof(x->location), "mc%d %.12s%s%.40s", mc, name, where[0] ? ": " : "", where);
	read_str(dir, "dimm_mem_type", x->type, sizeof(x->type));
	x->size = mib > 0 ? (uint64_t)mib * MiB : 0;
	x->ce = read_long(dir, "dimm_ce_count");
	x->ue = read_long(dir, "dimm_ue_count");
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strverscmp((*a)->d_name, (*b)->d_name);
}

int dimms_read_edac(const char *root, struct ph_dimms *d)
{
	struct dirent **mcs;
	int nmc = scandir(root, &mcs, NULL, by_name), found = 0;

	if (nmc < 0)
		return -errno;
	for (int i = 0; i < nmc; i++) {
		struct dirent **ds;
		char mcdir[600];
		int mc, nd;

		if (sscanf(mcs[i]->d_name, "mc%d", &mc) != 1)
			continue;
		snprintf(mcdir, sizeof(mcdir), "%s/%s", root, mcs[i]->d_name);
		nd = scandir(mcdir, &ds, NULL, by_name);
		for (int j = 0; j < nd; j++) {
			char dir[1024];
			int k;

			if (sscanf(ds[j]->d_name, "dimm%d", &k) == 1 || sscanf(ds[j]->d_name, "rank%d", &k) == 1) {
				snprintf(dir, sizeof(dir), "%s/%s", mcdir, ds[j]->d_name);
				edac_one(dir, mc, ds[j]->d_name, d);
				found++;
			}
			free(ds[j]);
		}
		if (nd >= 0)
			free(ds);
	}
	for (int i = 0; i < nmc; i++)
		free(mcs[i]);
	free(mcs);
	return found;
}

static const char *const mem_types[] = {
	[0x01] = "Other", [0x02] = "Unknown", [0x03] = "DRAM", [0x07] = "RAM", [0x0F] = "SDRAM",
	[0x12] = "DDR", [0x13] = "DDR2", [0x18] = "DDR3", [0x1A] = "DDR4", [0x1B] = "LPDDR",
	[0x1C] = "LPDDR2", [0x1D] = "LPDDR3", [0x1E] = "LPDDR4", [0x1F] = "Logical non-volatile device",
	[0x20] = "HBM", [0x21] = "HBM2", [0x22] = "DDR5", [0x23] = "LPDDR5", [0x24] = "HBM3",
};

/* String number idx (1-based) of the structure, or "" (0: none, or past the end). */
static void smbios_string(const unsigned char *p, size_t len, unsigned idx, char *out, size_t olen)
{
	size_t off = p[1];

	out[0] = '\0';
	if (!idx)
		return;
	for (unsigned i = 1; off < len && p[off]; i++) {
		size_t n = strnlen((const char *)p + off, len - off);

		if (i == idx) {
			snprintf(out, olen, "%.*s", (int)n, p + off);
			return;
		}
		off += n + 1;
	}
}

static unsigned le16(const unsigned char *p)
{
	return p[0] | (unsigned)p[1] << 8;
}

static uint32_t le32(const unsigned char *p)
{
	return le16(p) | (uint32_t)le16(p + 2) << 16;
}

static uint64_t le64(const unsigned char *p)
{
	return le32(p) | (uint64_t)le32(p + 4) << 32;
}

int dimms_add_smbios(const unsigned char *p, size_t len, struct ph_dimms *d)
{
	if (len < 4 || p[1] > len)
		return 0;
	if (p[0] == 17 && p[1] >= 0x15) {
		struct ph_dimm *x = new_dimm(d, PH_DIMM_DMI);
		unsigned sz = le16(p + 0x0C);

		x->handle = le16(p + 2);
		snprintf(x->location, sizeof(x->location), "handle 0x%04X", x->handle);
		smbios_string(p, len, p[0x10], x->label, sizeof(x->label));
		smbios_string(p, len, p[0x11], x->bank, sizeof(x->bank));
		if (p[0x12] < ARRAY_SIZE(mem_types) && mem_types[p[0x12]])
			snprintf(x->type, sizeof(x->type), "%s", mem_types[p[0x12]]);
		/* 0xFFFF: unknown; 0x7FFF: the extended size (MiB) at 0x1C; bit 15: KiB units. */
		if (sz == 0x7FFF && p[1] >= 0x20)
			x->size = (uint64_t)(le32(p + 0x1C) & 0x7FFFFFFF) * MiB;
		else if (sz != 0xFFFF)
			x->size = sz & 0x8000 ? (uint64_t)(sz & 0x7FFF) * KiB : (uint64_t)sz * MiB;
		return 1;
	}
	if (p[0] == 20 && p[1] >= 0x13) {
		struct ph_dimm_map *m = xappend(&d->map, &d->nmap, sizeof(*m));
		uint32_t s = le32(p + 4), e = le32(p + 8);

		memset(m, 0, sizeof(*m));
		m->handle = le16(p + 0x0C);
		m->interleave_pos = p[0x11] == 0xFF ? 0 : p[0x11];
		/* KiB, the end inclusive; 0xFFFFFFFF: the extended byte addresses at 0x13 and 0x1B. */
		if (s == 0xFFFFFFFF && p[1] >= 0x23) {
			m->start = le64(p + 0x13);
			m->end = le64(p + 0x1B) + 1;
		} else {
			m->start = (uint64_t)s * KiB;
			m->end = ((uint64_t)e + 1) * KiB;
		}
		return 1;
	}
	return 0;
}

int dimms_read_dmi_sysfs(const char *root, struct ph_dimms *d)
{
	struct dirent **es;
	int n = scandir(root, &es, NULL, by_name), found = 0;

	if (n < 0)
		return -errno;
	for (int i = 0; i < n; i++) {
		char path[1200], *buf = NULL, why[64];
		size_t len = 0;

		if (!strncmp(es[i]->d_name, "17-", 3) || !strncmp(es[i]->d_name, "20-", 3)) {
			snprintf(path, sizeof(path), "%s/%s/raw", root, es[i]->d_name);
			if (!read_table_file(path, 4096, &buf, &len, why, sizeof(why)))
				found += dimms_add_smbios((const unsigned char *)buf, len, d);
			free(buf);
		}
		free(es[i]);
	}
	free(es);
	return found;
}

/* "Key: value" of a dmidecode line (after its tab): value, or NULL. */
static const char *field(const char *line, const char *key)
{
	size_t k = strlen(key);

	while (*line == '\t' || *line == ' ')
		line++;
	if (strncmp(line, key, k) || line[k] != ':')
		return NULL;
	line += k + 1;
	while (*line == ' ')
		line++;
	return line;
}

static uint64_t dmidecode_size(const char *v)
{
	unsigned long long n;
	char unit[8];

	if (sscanf(v, "%llu %7s", &n, unit) != 2)
		return 0;
	if (!strcmp(unit, "kB") || !strcmp(unit, "KB"))
		return n * KiB;
	if (!strcmp(unit, "MB"))
		return n * MiB;
	if (!strcmp(unit, "GB"))
		return n * GiB;
	if (!strcmp(unit, "TB"))
		return n * GiB * 1024;
	return 0;
}

/* "Not Specified", "Unknown" and the like say that no label was given. */
static void label_of(const char *v, char *out, size_t len)
{
	if (!strcmp(v, "Not Specified") || !strcmp(v, "Unknown") || !strcmp(v, "Not Provided") ||
	    !strcmp(v, "To Be Filled By O.E.M."))
		out[0] = '\0';
	else
		snprintf(out, len, "%s", v);
}

int dimms_read_dmidecode(const char *text, struct ph_dimms *d)
{
	struct ph_dimm *x = NULL;
	struct ph_dimm_map *m = NULL;
	unsigned handle = 0, type = 0;
	int found = 0;

	for (const char *p = text; p && *p;) {
		const char *nl = strchr(p, '\n');
		char line[256];
		const char *v;
		unsigned long long a;

		snprintf(line, sizeof(line), "%.*s", (int)(nl ? nl - p : (long)strlen(p)), p);
		p = nl ? nl + 1 : NULL;
		if (sscanf(line, "Handle 0x%x, DMI type %u", &handle, &type) == 2) {
			x = NULL;
			m = NULL;
			if (type == 17) {
				x = new_dimm(d, PH_DIMM_DMI);
				x->handle = handle;
				snprintf(x->location, sizeof(x->location), "handle 0x%04X", handle);
				found++;
			} else if (type == 20) {
				m = xappend(&d->map, &d->nmap, sizeof(*m));
				memset(m, 0, sizeof(*m));
				found++;
			}
			continue;
		}
		if (x && (v = field(line, "Size")))
			x->size = dmidecode_size(v);
		else if (x && (v = field(line, "Locator")))
			label_of(v, x->label, sizeof(x->label));
		else if (x && (v = field(line, "Bank Locator")))
			label_of(v, x->bank, sizeof(x->bank));
		else if (x && (v = field(line, "Type")))
			snprintf(x->type, sizeof(x->type), "%s", v);
		else if (m && (v = field(line, "Starting Address")) && sscanf(v, "0x%llx", &a) == 1)
			m->start = a;
		else if (m && (v = field(line, "Ending Address")) && sscanf(v, "0x%llx", &a) == 1)
			m->end = a + 1;	/* dmidecode prints the last byte */
		else if (m && (v = field(line, "Physical Device Handle")) && sscanf(v, "0x%llx", &a) == 1)
			m->handle = (unsigned)a;
		else if (m && (v = field(line, "Interleave Position")))
			m->interleave_pos = isdigit((unsigned char)*v) ? atoi(v) : 0;
	}
	return found;
}

static const struct ph_dimm *dmi_device(const struct ph_dimms *d, unsigned handle)
{
	for (int i = 0; i < d->n; i++)
		if (d->v[i].source == PH_DIMM_DMI && d->v[i].handle == handle)
			return &d->v[i];
	return NULL;
}

int dimms_for_range(const struct ph_dimms *d, uint64_t lo, uint64_t hi, char *out, size_t len)
{
	size_t used = 0;
	int found = 0;

	out[0] = '\0';
	for (int i = 0; i < d->nmap; i++) {
		const struct ph_dimm_map *m = &d->map[i];
		const struct ph_dimm *x;
		char name[80];
		bool dup = false;

		if (m->end <= lo || m->start >= hi)
			continue;
		for (int j = 0; j < i && !dup; j++)
			dup = d->map[j].handle == m->handle && d->map[j].end > lo && d->map[j].start < hi;
		if (dup)
			continue;
		x = dmi_device(d, m->handle);
		if (x && x->label[0])
			snprintf(name, sizeof(name), "%s", x->label);
		else
			snprintf(name, sizeof(name), "(no label, handle 0x%04X)", m->handle);
		if (used < len)
			used += (size_t)snprintf(out + used, len - used, "%s%s", found ? "+" : "", name);
		found++;
	}
	return found;
}

void dimms_free(struct ph_dimms *d)
{
	free(d->v);
	free(d->map);
	memset(d, 0, sizeof(*d));
}
