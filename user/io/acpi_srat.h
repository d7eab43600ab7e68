/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * acpi_srat.h - the raw ACPI SRAT (System Resource Affinity Table, ACPI
 * 6.5 section 5.2.16): which proximity domain each processor, memory
 * range, generic initiator and generic port (a CXL host bridge) is in.
 *
 * Layout read here (little-endian; offsets from the structure's start):
 *   table:  36-byte header, 4 reserved (table revision 1), 8 reserved,
 *           then structures of type u8 @0, length u8 @1.
 *   type 0  Processor Local APIC Affinity, 16 bytes: domain bits 0-7 u8
 *           @2, APIC ID u8 @3, flags u32 @4 (bit 0 enabled), domain bits
 *           8-31 in 3 bytes @9.
 *   type 1  Memory Affinity, 40 bytes: domain u32 @2, base u64 @8, length
 *           u64 @16, flags u32 @28 (bit 0 enabled, 1 hot-pluggable, 2
 *           non-volatile).
 *   type 2  Processor Local x2APIC Affinity, 24 bytes: domain u32 @4,
 *           x2APIC ID u32 @8, flags u32 @12.
 *   type 5  Generic Initiator Affinity and type 6 Generic Port Affinity,
 *           32 bytes: device handle type u8 @3 (0 ACPI, 1 PCI), domain
 *           u32 @4, device handle 16 bytes @8 (ACPI: _HID 8 bytes, _UID
 *           u32; PCI: segment u16, BDF u16), flags u32 @24 (bit 0 enabled).
 *   Types 3, 4, 7 (GICC, GIC ITS, RINTC) are checked for their length and
 *   counted; later types are counted as unknown, as the kernel skips them.
 */
#ifndef PAGEHOP_ACPI_SRAT_H
#define PAGEHOP_ACPI_SRAT_H

#include "acpi_slit.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PH_ACPI_SRAT_PATH "/sys/firmware/acpi/tables/SRAT"
#define PH_ACPI_SRAT_MAX_BYTES (16u << 20)

struct ph_srat_cpu {		/* types 0 and 2 */
	size_t off;
	int type;
	uint32_t domain, apic_id;
	bool enabled;
};

struct ph_srat_mem {		/* type 1 */
	size_t off;
	uint32_t domain;
	uint64_t base, length;
	uint32_t flags;
	bool enabled, hotplug, nonvolatile;
};

struct ph_srat_dev {		/* types 5 (generic initiator) and 6 (generic port) */
	size_t off;
	int type;
	uint8_t handle_type;	/* 0 ACPI, 1 PCI */
	uint32_t domain;
	char hid[9];		/* ACPI: the _HID, NUL-terminated */
	uint32_t uid;		/* ACPI: the _UID */
	uint16_t segment, bdf;	/* PCI */
	uint32_t flags;
	bool enabled;
};

struct ph_acpi_srat {
	struct ph_acpi_header h;
	bool sum_ok;		/* the table's bytes sum to 0 mod 256 */
	struct ph_srat_cpu *cpu;
	int ncpu;
	struct ph_srat_mem *mem;
	int nmem;
	struct ph_srat_dev *dev;
	int ndev;
	int nother;		/* GICC, GIC ITS, RINTC */
	int nunknown;		/* later types, skipped */
};

/*
 * Parse a whole SRAT from len bytes: 0, or -EINVAL with one phrase in why
 * naming the structure (its offset) and what is wrong: not an SRAT,
 * shorter than its header says, a structure shorter than 2 bytes, running
 * past the table or of another length than its type has.  A sum that is
 * not 0 is not refused (Linux takes the table with a warning): sum_ok.
 */
int acpi_srat_parse(const uint8_t *buf, size_t len, struct ph_acpi_srat *t, char *why,
		    size_t whylen);
int acpi_srat_read(const char *path, struct ph_acpi_srat *t, char *why, size_t whylen);
void acpi_srat_free(struct ph_acpi_srat *t);

/* The generic port of that ACPI _UID (a CXL host bridge's), or NULL. */
const struct ph_srat_dev *acpi_srat_port_of(const struct ph_acpi_srat *t, uint32_t uid);

#endif
