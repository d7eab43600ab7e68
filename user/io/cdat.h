/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cdat.h - a CXL device's CDAT (Coherent Device Attribute Table, CDAT
 * specification 1.04), as Linux shows it in
 * /sys/bus/cxl/devices/endpointN/CDAT and as QEMU's cdat= file holds it:
 * what the device says of its own memory ranges, their latency and
 * bandwidth, and (a switch's) its ports'.
 *
 * Layout read here (little-endian; offsets from the structure's start):
 *   header, 16 bytes: length u32 @0 (the whole table), revision u8 @4,
 *           checksum u8 @5 (all bytes of the table sum to 0 mod 256),
 *           6 reserved, sequence u32 @12; then structures of
 *           type u8 @0, reserved u8 @1, length u16 @2.
 *   type 0  DSMAS, 24 bytes: DSMAD handle u8 @4, flags u8 @5 (bit 2
 *           non-volatile, bit 3 shareable), DPA base u64 @8, DPA length
 *           u64 @16.
 *   type 1  DSLBIS, 24 bytes: handle u8 @4, flags u8 @5, data type u8
 *           @6 (HMAT's: 0-2 latencies, 3-5 bandwidths), entry base unit
 *           u64 @8, entries u16 @16, @18, @20 (only the first is used by
 *           Linux), 2 reserved.
 *   type 2  DSMSCIS, 20 bytes: handle u8 @4, memory-side cache size u64
 *           @8, cache attributes u32 @16.
 *   type 3  DSIS, 8 bytes: flags u8 @4, handle u8 @5.
 *   type 4  DSEMTS, 24 bytes: handle u8 @4, EFI memory type and
 *           attribute u8 @5, DPA offset u64 @8, DPA length u64 @16.
 *   type 5  SSLBIS, 16 + 8n bytes: data type u8 @4, entry base unit u64
 *           @8, then n entries of port x u16, port y u16, value u16, 2
 *           reserved.
 * Entries become figures as HMAT's revision 2 entries do (acpi_hmat_value:
 * latencies in ps, read as ns rounded up; bandwidths in MB/s), as the
 * kernel's drivers/cxl/core/cdat.c does.
 */
#ifndef PAGEHOP_CDAT_H
#define PAGEHOP_CDAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A bigger file is not read: a device's CDAT is a few hundred bytes. */
#define PH_CDAT_MAX_BYTES (1u << 20)
#define PH_CDAT_HEADER_SIZE 16

enum ph_cdat_type {
	PH_CDAT_DSMAS = 0,
	PH_CDAT_DSLBIS,
	PH_CDAT_DSMSCIS,
	PH_CDAT_DSIS,
	PH_CDAT_DSEMTS,
	PH_CDAT_SSLBIS,
};

struct ph_cdat_dsmas {		/* a device memory range */
	size_t off;		/* its offset in the table */
	uint8_t handle, flags;
	bool nonvolatile;	/* flags bit 2 */
	bool shareable;		/* flags bit 3 */
	uint64_t dpa_base, dpa_length;
};

struct ph_cdat_dslbis {		/* one figure of one range */
	size_t off;
	uint8_t handle, flags, data_type;	/* data_type: enum ph_hmat_data */
	uint64_t base_unit;
	uint16_t entry[3];
};

struct ph_cdat_dsmscis {	/* a memory-side cache of one range */
	size_t off;
	uint8_t handle;
	uint64_t cache_size;
	uint32_t attributes;
};

struct ph_cdat_dsis {		/* an initiator of the device */
	size_t off;
	uint8_t flags, handle;
};

struct ph_cdat_dsemts {		/* the EFI memory type of part of a range */
	size_t off;
	uint8_t handle, efi_type;
	uint64_t dpa_offset, dpa_length;
};

struct ph_cdat_sslbe {
	uint16_t port_x, port_y, value;
};

struct ph_cdat_sslbis {		/* a switch's port-to-port figures */
	size_t off;
	uint8_t data_type;
	uint64_t base_unit;
	struct ph_cdat_sslbe *e;
	int n;
};

struct ph_cdat {
	uint32_t length;
	uint8_t revision, checksum;
	uint32_t sequence;
	struct ph_cdat_dsmas *dsmas;
	int ndsmas;
	struct ph_cdat_dslbis *dslbis;
	int ndslbis;
	struct ph_cdat_dsmscis *dsmscis;
	int ndsmscis;
	struct ph_cdat_dsis *dsis;
	int ndsis;
	struct ph_cdat_dsemts *dsemts;
	int ndsemts;
	struct ph_cdat_sslbis *sslbis;
	int nsslbis;
	int nunknown;		/* structures of later types, skipped as Linux does */
};

/*
 * Parse a whole CDAT from len bytes: 0, or -EINVAL with one phrase in why
 * naming what is wrong and where (the structure's offset).  Refused: fewer
 * bytes than the header says (truncated) or more (not one table), a sum
 * that is not 0, a structure shorter than its header, running past the
 * table, or of another length than its type has, and a DSLBIS or SSLBIS
 * data type outside HMAT's six.  Nothing is read beyond len.
 */
int cdat_parse(const uint8_t *buf, size_t len, struct ph_cdat *t, char *why, size_t whylen);
/*
 * Read path ("-": standard input) and parse it: 0, -errno when it cannot
 * be read (why says so when it is not a regular file), -EINVAL as above.
 */
int cdat_read(const char *path, struct ph_cdat *t, char *why, size_t whylen);
void cdat_free(struct ph_cdat *t);

/*
 * t as a CDAT file (QEMU's cdat=, a device's table): header with length
 * and checksum (revision and sequence t's), then t's DSMAS, DSLBIS,
 * DSMSCIS, DSIS, DSEMTS and SSLBIS structures in that order, reserved
 * bytes 0; structures of unknown types are not written.  A malloc'd
 * buffer of *len bytes; cdat_parse reads back every field.
 */
uint8_t *cdat_build(const struct ph_cdat *t, size_t *len);

/* "DSMAS", ..., "SSLBIS"; "?" for another type. */
const char *cdat_type_name(int type);
/* The DSMAS of that handle, or NULL. */
const struct ph_cdat_dsmas *cdat_dsmas_of(const struct ph_cdat *t, uint8_t handle);

#endif
