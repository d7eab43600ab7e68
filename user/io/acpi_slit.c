// SPDX-License-Identifier: GPL-2.0-only
/*
 * acpi_slit.c - ACPI table header parsing and SLIT source emission for
 * "pagehop slit --emit-acpi".
 *
 * Why the OEM fields matter: the kernel's initrd table upgrade
 * (drivers/acpi/tables.c, acpi_table_initrd_override()) replaces a
 * firmware table only when signature, all 6 bytes of OEM ID and all 8 of
 * OEM table ID match, and the new OEM revision is strictly greater.
 */
#include "acpi_slit.h"
#include "le.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int acpi_header_parse(const uint8_t *buf, size_t len, struct ph_acpi_header *h)
{
	memset(h, 0, sizeof(*h));
	if (len < PH_ACPI_HEADER_SIZE)
		return -EINVAL;
	memcpy(h->signature, buf, 4);
	h->length = le32(buf + 4);
	h->revision = buf[8];
	h->checksum = buf[9];
	memcpy(h->oem_id, buf + 10, 6);
	memcpy(h->oem_table_id, buf + 16, 8);
	h->oem_revision = le32(buf + 24);
	memcpy(h->asl_compiler_id, buf + 28, 4);
	h->asl_compiler_revision = le32(buf + 32);
	return 0;
}

int acpi_header_read(const char *path, struct ph_acpi_header *h)
{
	uint8_t buf[PH_ACPI_HEADER_SIZE];
	size_t got = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	while (got < sizeof(buf)) {
		ssize_t n = read(fd, buf + got, sizeof(buf) - got);

		if (n < 0) {
			int err = -errno;

			close(fd);
			return err;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	return acpi_header_parse(buf, got, h);
}

int acpi_slit_parse(const uint8_t *buf, size_t len, struct ph_acpi_slit *t,
		    char *why, size_t whylen)
{
	uint64_t n;

	memset(t, 0, sizeof(*t));
	if (acpi_header_parse(buf, len, &t->h) || len < PH_ACPI_HEADER_SIZE + 8) {
		snprintf(why, whylen, "%zu bytes, shorter than a SLIT's header and locality count (44)", len);
		return -EINVAL;
	}
	if (memcmp(t->h.signature, "SLIT", 4)) {
		snprintf(why, whylen, "a '%s' table, not a SLIT", t->h.signature);
		return -EINVAL;
	}
	if (t->h.length > len) {
		snprintf(why, whylen, "%zu bytes where its header says %u", len, t->h.length);
		return -EINVAL;
	}
	n = le64(buf + PH_ACPI_HEADER_SIZE);
	if (n > PH_ACPI_SLIT_MAX_LOCALITIES ||
	    PH_ACPI_HEADER_SIZE + 8 + n * n > t->h.length) {
		snprintf(why, whylen, "%llu localities need %llu bytes of entries; the table's length %u leaves %u",
			 (unsigned long long)n, (unsigned long long)(n * n), t->h.length,
			 t->h.length > PH_ACPI_HEADER_SIZE + 8 ? t->h.length - PH_ACPI_HEADER_SIZE - 8 : 0);
		return -EINVAL;
	}
	t->n = (int)n;
	t->entry = xcalloc(n ? n * n : 1, sizeof(int));
	for (uint64_t k = 0; k < n * n; k++)
		t->entry[k] = buf[PH_ACPI_HEADER_SIZE + 8 + k];
	return 0;
}

int acpi_slit_read(const char *path, struct ph_acpi_slit *t, char *why,
		   size_t whylen)
{
	size_t cap = PH_ACPI_HEADER_SIZE + 8 +
		     (size_t)PH_ACPI_SLIT_MAX_LOCALITIES * PH_ACPI_SLIT_MAX_LOCALITIES;
	size_t got = 0, size = 4096;
	uint8_t *buf;
	struct stat st;
	int fd, err;

	memset(t, 0, sizeof(*t));
	why[0] = '\0';
	/* O_NONBLOCK: a FIFO named by mistake must not hang the command. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		snprintf(why, whylen, "not a regular file");
		return -EINVAL;
	}
	buf = xmalloc(size);
	for (;;) {
		ssize_t n;

		if (got == size) {
			if (size >= cap)
				break;	/* longer than any SLIT read here: parsed as such */
			size = size * 2 < cap ? size * 2 : cap;
			buf = xrealloc(buf, size);
		}
		n = read(fd, buf + got, size - got);
		if (n < 0) {
			err = -errno;
			close(fd);
			free(buf);
			return err;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	err = acpi_slit_parse(buf, got, t, why, whylen);
	free(buf);
	return err;
}

void acpi_slit_free(struct ph_acpi_slit *t)
{
	free(t->entry);
	memset(t, 0, sizeof(*t));
}

static bool id_char_ok(char c)
{
	return c >= 0x20 && c <= 0x7e && c != '"';
}

bool acpi_id_to_string(const uint8_t *raw, size_t n, char *out, size_t outlen)
{
	size_t len = 0;

	if (outlen < n + 1)
		return false;
	while (len < n && raw[len])
		len++;
	for (size_t i = len; i < n; i++)
		if (raw[i])
			return false;	/* a NUL inside the id */
	for (size_t i = 0; i < len; i++)
		if (!id_char_ok((char)raw[i]))
			return false;
	memcpy(out, raw, len);
	out[len] = '\0';
	return true;
}

bool acpi_id_valid(const char *s, size_t max)
{
	size_t len = strlen(s);

	if (!len || len > max)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!id_char_ok(s[i]))
			return false;
	return true;
}

#define FIELD() PH_ACPI_FIELD

void acpi_source_begin(FILE *f, const char *comment, const char *sig, const char *desc,
			unsigned long long length, int revision, const struct ph_acpi_ids *ids)
{
	fputs("/*\n", f);
	for (const char *p = comment; p && *p;) {
		size_t l = strcspn(p, "\n");

		fprintf(f, " *%s", l ? " " : "");
		for (size_t i = 0; i < l; i++) {
			/* A star and a slash would end the comment early. */
			if (p[i] == '*' && i + 1 < l && p[i + 1] == '/')
				fprintf(f, "* ");
			else
				fputc(p[i], f);
		}
		fprintf(f, "\n");
		p += l + (p[l] == '\n');
	}
	if (comment)
		fprintf(f, " *\n");
	fputs(" * Format: [ByteLength]  FieldName : HexFieldValue\n"
	      " */\n", f);
	fprintf(f, "[0004]" FIELD() "\"%s\"    [%s]\n", "Signature", sig, desc);
	/* iasl computes length and checksum itself; the values are for the reader. */
	fprintf(f, "[0004]" FIELD() "%08llX\n", "Table Length", length);
	fprintf(f, "[0001]" FIELD() "%02X\n", "Revision", (unsigned)revision);
	fprintf(f, "[0001]" FIELD() "00\n", "Checksum");
	fprintf(f, "[0006]" FIELD() "\"%s\"\n", "Oem ID", ids->oem_id);
	fprintf(f, "[0008]" FIELD() "\"%s\"\n", "Oem Table ID", ids->oem_table_id);
	fprintf(f, "[0004]" FIELD() "%08X\n", "Oem Revision", ids->oem_revision);
	fprintf(f, "[0004]" FIELD() "\"INTL\"\n", "Asl Compiler ID");
	fprintf(f, "[0004]" FIELD() "00000000\n", "Asl Compiler Revision");
}

FILE *acpi_memstream(char **s, size_t *len)
{
	FILE *f = open_memstream(s, len);

	if (!f) {
		fprintf(stderr, "pagehop: out of memory\n");
		abort();
	}
	return f;
}

void acpi_memstream_close(FILE *f)
{
	if (fclose(f)) {
		fprintf(stderr, "pagehop: out of memory\n");
		abort();
	}
}

char *acpi_slit_source(const struct ph_acpi_ids *ids, int n, const int *dist,
		       const char *comment)
{
	char *s = NULL;
	size_t len = 0;
	unsigned long long length = PH_ACPI_HEADER_SIZE + 8 + (unsigned long long)n * n;
	/* One growing buffer: a string reallocated per entry costs N^2 copies of N^2. */
	FILE *f = acpi_memstream(&s, &len);

	acpi_source_begin(f, comment, "SLIT", "System Locality Information Table", length, 1, ids);
	fprintf(f, "\n[0008]" FIELD() "%016llX\n", "Localities", (unsigned long long)n);
	for (int i = 0; i < n; i++) {
		char name[32];

		snprintf(name, sizeof(name), "Locality %3d", i);
		fprintf(f, "[%04d]" FIELD(), n, name);
		for (int j = 0; j < n; j++) {
			/* 16 bytes a line, continued with a backslash as in the template. */
			if (j && j % 16 == 0)
				fprintf(f, " \\\n%44s", "");
			fprintf(f, "%s%02X", j % 16 ? " " : "", (unsigned)dist[i * n + j] & 0xff);
		}
		fprintf(f, "\n");
	}
	acpi_memstream_close(f);
	return s;
}

