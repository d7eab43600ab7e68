/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * acpi_cedt.h - the raw ACPI CEDT (CXL Early Discovery Table, CXL 3.1
 * section 9.18.1): the CXL host bridges and the fixed memory windows the
 * platform decodes to them.
 *
 * Layout read here (little-endian; offsets from the structure's start):
 *   table:  36-byte header, then structures of type u8 @0, reserved u8
 *           @1, length u16 @2.
 *   type 0  CHBS, 32 bytes: host bridge _UID u32 @4, CXL version u32 @8
 *           (0: 1.1, an RCRB; 1: 2.0 and later, a CHBCR), base u64 @16,
 *           length u64 @24.
 *   type 1  CFMWS, 36 + 4 x ways bytes: base HPA u64 @8, window size u64
 *           @16, encoded interleave ways u8 @24 (0-4: 1, 2, 4, 8, 16;
 *           8-10: 3, 6, 12), interleave arithmetic u8 @25 (0 modulo, 1
 *           XOR), host bridge interleave granularity u32 @28 (256 << it),
 *           window restrictions u16 @32 (bit 0 type 2, 1 type 3, 2
 *           volatile, 3 persistent, 4 fixed configuration), QTG id u16
 *           @34, the target host bridges' _UIDs u32 each @36.
 *   type 2  CXIMS, 8 + 8 x maps bytes: granularity u8 @6, maps u8 @7.
 *   Types 3 and 4 (RDPAS, CSDS) are counted; later types are unknown.
 */
#ifndef PAGEHOP_ACPI_CEDT_H
#define PAGEHOP_ACPI_CEDT_H

#include "acpi_slit.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PH_ACPI_CEDT_PATH "/sys/firmware/acpi/tables/CEDT"
#define PH_ACPI_CEDT_MAX_BYTES (1u << 20)
/* The most targets a window can interleave over (ways 16). */
#define PH_CEDT_MAX_WAYS 16

enum {
	PH_CFMWS_TYPE2 = 1 << 0,
	PH_CFMWS_TYPE3 = 1 << 1,
	PH_CFMWS_VOLATILE = 1 << 2,
	PH_CFMWS_PMEM = 1 << 3,
	PH_CFMWS_FIXED = 1 << 4,
};

struct ph_cedt_chbs {
	size_t off;
	uint32_t uid, version;
	uint64_t base, length;
};

struct ph_cedt_cfmws {
	size_t off;
	uint64_t base, size;
	uint8_t eniw;		/* as encoded */
	int ways;		/* decoded; 0 for an encoding the spec does not have */
	uint8_t arithmetic;
	uint32_t hbig;		/* as encoded: granularity 256 << hbig */
	uint16_t restrictions, qtg;
	uint32_t target[PH_CEDT_MAX_WAYS];
	unsigned extra;		/* bytes past its targets (Linux reads past them) */
};

struct ph_acpi_cedt {
	struct ph_acpi_header h;
	bool sum_ok;
	struct ph_cedt_chbs *chbs;
	int nchbs;
	struct ph_cedt_cfmws *cfmws;
	int ncfmws;
	int ncxims, nother, nunknown;
};

/* Interleave ways of an encoding (0-4, 8-10), 0 for any other. */
int acpi_cedt_ways(uint8_t eniw);
/*
 * Parse a whole CEDT from len bytes: 0, or -EINVAL with one phrase in why
 * (not a CEDT, shorter than its header says, a structure shorter than its
 * header, past the table, or of another length than its type and ways
 * give -- a CFMWS may be longer, as Linux allows, said in extra; a CFMWS
 * whose ways encoding the spec does not have).  A sum that
 * is not 0 is said in sum_ok, not refused.
 */
int acpi_cedt_parse(const uint8_t *buf, size_t len, struct ph_acpi_cedt *t, char *why,
		    size_t whylen);
int acpi_cedt_read(const char *path, struct ph_acpi_cedt *t, char *why, size_t whylen);
void acpi_cedt_free(struct ph_acpi_cedt *t);
/* The host bridge of that _UID, or NULL. */
const struct ph_cedt_chbs *acpi_cedt_chbs_of(const struct ph_acpi_cedt *t, uint32_t uid);

#endif
