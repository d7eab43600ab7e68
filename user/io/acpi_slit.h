/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * acpi_slit.h - the ACPI side of a proposed SLIT: the header of the
 * machine's own table (/sys/firmware/acpi/tables/SLIT) and the source of
 * a replacement in iasl's data-table syntax, as "iasl -T SLIT" prints the
 * template (checked against acpica-tools 20200925, Debian 12).
 */
#ifndef PAGEHOP_ACPI_SLIT_H
#define PAGEHOP_ACPI_SLIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define PH_ACPI_HEADER_SIZE 36
#define PH_ACPI_SLIT_PATH "/sys/firmware/acpi/tables/SLIT"
/* iasl's template layout: "[LEN]", the name right-aligned, its colon in column 43. */
#define PH_ACPI_FIELD "%35s : "

/* The common ACPI table header (ACPI 6.5, 5.2.6), fields as in the table. */
struct ph_acpi_header {
	char signature[5];		/* NUL-terminated copies */
	uint32_t length;
	uint8_t revision;
	uint8_t checksum;
	uint8_t oem_id[6];		/* raw bytes: the kernel compares all 6 */
	uint8_t oem_table_id[8];	/* and all 8 */
	uint32_t oem_revision;
	char asl_compiler_id[5];
	uint32_t asl_compiler_revision;
};

/* 0, or -EINVAL when len is shorter than the header. Little-endian fields. */
int acpi_header_parse(const uint8_t *buf, size_t len, struct ph_acpi_header *h);
/* Read and parse the first 36 bytes of path; -errno, -EINVAL if short. */
int acpi_header_read(const char *path, struct ph_acpi_header *h);

/*
 * Turn a raw OEM id into the string iasl writes back byte for byte:
 * printable ASCII except '"', then only NUL padding (iasl pads a short
 * string with NULs).  false when the bytes cannot be written that way.
 */
bool acpi_id_to_string(const uint8_t *raw, size_t n, char *out, size_t outlen);
/* Is s (from an option) usable as an id of at most max characters? */
bool acpi_id_valid(const char *s, size_t max);

/* A whole SLIT (ACPI 6.5, 5.2.17): the header, then localities and entries. */
struct ph_acpi_slit {
	struct ph_acpi_header h;
	int n;			/* localities: proximity domains 0..n-1 */
	int *entry;		/* n * n, from locality i to j at i * n + j */
};

/* A SLIT of more localities is not read (16 MiB of entries). */
#define PH_ACPI_SLIT_MAX_LOCALITIES 4096

/*
 * Parse a whole SLIT from len bytes: 0, or -EINVAL with one phrase in why
 * (not a SLIT, shorter than its header or locality count says).
 */
int acpi_slit_parse(const uint8_t *buf, size_t len, struct ph_acpi_slit *t,
		    char *why, size_t whylen);
/* Read path and parse it: 0, -errno when it cannot be read, or -EINVAL as above. */
int acpi_slit_read(const char *path, struct ph_acpi_slit *t, char *why,
		   size_t whylen);
void acpi_slit_free(struct ph_acpi_slit *t);

struct ph_acpi_ids {
	char oem_id[7];
	char oem_table_id[9];
	uint32_t oem_revision;
};

/*
 * The SLIT source for n localities, entry i*n+j from locality i to j,
 * every entry 0..255.  comment, if any, goes into the leading comment (one
 * or more lines).  Returns a malloc'd string.
 */
char *acpi_slit_source(const struct ph_acpi_ids *ids, int n, const int *dist,
		       const char *comment);

/*
 * The start of any table's iasl source: the comment (as above), then the
 * 36-byte header with signature sig (desc is iasl's name for it), the
 * length for the reader (iasl computes it), revision and ids.
 */
void acpi_source_begin(FILE *f, const char *comment, const char *sig, const char *desc,
			unsigned long long length, int revision, const struct ph_acpi_ids *ids);
/* open_memstream(), and its fclose(); out of memory aborts. */
FILE *acpi_memstream(char **s, size_t *len);
void acpi_memstream_close(FILE *f);


#endif
