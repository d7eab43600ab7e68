/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * acpi_hmat.h - the raw ACPI HMAT (Heterogeneous Memory Attribute Table,
 * ACPI 6.5 section 5.2.28), every structure of it: sysfs shows only each
 * memory node's best initiators (nodeN/access0, access1), the table holds
 * every initiator x target entry.
 *
 * Layout read here (little-endian; offsets from the structure's start):
 *   table:  36-byte header, 4 reserved, then structures of
 *           type u16 @0, reserved u16 @2, length u32 @4.
 *   type 0  Memory Proximity Domain Attributes, 40 bytes: flags u16 @8
 *           (bit 0: the initiator domain is valid), initiator domain u32
 *           @12, memory domain u32 @16.
 *   type 1  System Locality Latency and Bandwidth Information: flags u8
 *           @8 (bits 0-3: 0 memory, 1-3 a memory-side cache level), data
 *           type u8 @9, minimum transfer size u8 @10, initiator count u32
 *           @12, target count u32 @16, entry base unit u64 @24, then the
 *           initiator domains (u32 each), the target domains (u32 each),
 *           and initiators x targets entries (u16, row = initiator).
 *   type 2  Memory Side Cache Information: memory domain u32 @8, cache
 *           size u64 @16, attributes u32 @24 (bits 0-3 total levels, 4-7
 *           this level, 8-11 associativity, 12-15 write policy, 16-31
 *           line size), SMBIOS handle count u16 @30, handles u16 each.
 * The kernel reads the same (drivers/acpi/numa/hmat.c,
 * hmat_parse_proximity_domain(), hmat_parse_locality(), hmat_parse_cache()).
 */
#ifndef PAGEHOP_ACPI_HMAT_H
#define PAGEHOP_ACPI_HMAT_H

#include "acpi_slit.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PH_ACPI_HMAT_PATH "/sys/firmware/acpi/tables/HMAT"
/* A bigger file is not read: 16 MiB holds 2048 x 2048 entries of 6 kinds. */
#define PH_ACPI_HMAT_MAX_BYTES (16u << 20)

/* Data types of a locality structure (ACPI 6.5 table 5.146). */
enum ph_hmat_data {
	PH_HMAT_ACCESS_LATENCY = 0,
	PH_HMAT_READ_LATENCY,
	PH_HMAT_WRITE_LATENCY,
	PH_HMAT_ACCESS_BANDWIDTH,
	PH_HMAT_READ_BANDWIDTH,
	PH_HMAT_WRITE_BANDWIDTH,
};

/* Entry values with a meaning of their own. */
#define PH_HMAT_ENTRY_NONE 0		/* no information */
#define PH_HMAT_ENTRY_UNREACHABLE 0xffff

struct ph_hmat_mpda {		/* type 0 */
	uint16_t flags;
	bool initiator_valid;	/* flags bit 0 */
	uint32_t initiator_pd, memory_pd;
};

struct ph_hmat_lb {		/* type 1 */
	uint8_t flags;
	int hierarchy;		/* flags & 0xf: 0 memory, 1..3 cache level */
	int data_type;		/* enum ph_hmat_data */
	uint8_t min_transfer;
	uint32_t ni, nt;
	uint64_t base_unit;
	uint32_t *init, *targ;	/* ni and nt domains */
	uint16_t *entry;	/* ni * nt, from init[i] to targ[t] at i * nt + t */
};

struct ph_hmat_cache {		/* type 2 */
	uint32_t memory_pd;
	uint64_t size;
	uint32_t attributes;
	int total_levels, level, associativity, write_policy, line_size;
	uint16_t nhandles;
	uint16_t *handles;	/* nhandles SMBIOS handles; NULL when there are none */
};

struct ph_acpi_hmat {
	struct ph_acpi_header h;
	struct ph_hmat_mpda *mpda;
	int nmpda;
	struct ph_hmat_lb *lb;
	int nlb;
	struct ph_hmat_cache *cache;
	int ncache;
	int nunknown;		/* structures of other types, skipped */
};

/*
 * Parse a whole HMAT from len bytes: 0, or -EINVAL with one phrase in why
 * naming the structure (its offset) and what is wrong.  Nothing is read
 * beyond len nor beyond the header's length.
 */
int acpi_hmat_parse(const uint8_t *buf, size_t len, struct ph_acpi_hmat *t,
		    char *why, size_t whylen);
/*
 * Read path ("-": standard input) and parse it: 0, -errno when it cannot
 * be read (why says so when it is not a regular file), -EINVAL as above.
 */
int acpi_hmat_read(const char *path, struct ph_acpi_hmat *t, char *why,
		   size_t whylen);
void acpi_hmat_free(struct ph_acpi_hmat *t);
/* *dst as a copy of src that owns all it points to (acpi_hmat_free() it). */
void acpi_hmat_copy(struct ph_acpi_hmat *dst, const struct ph_acpi_hmat *src);

/* "access_latency", ..., "write_bandwidth"; "?" outside the enum. */
const char *acpi_hmat_data_name(int data_type);
bool acpi_hmat_is_latency(int data_type);
/*
 * An entry as the kernel turns it into a figure (drivers/acpi/numa/hmat.c,
 * hmat_normalize()): entry x base unit; revision 2 latencies are in
 * picoseconds and become ns rounded up, bandwidths are MB/s; revision 1
 * values are divided by 10, rounded up.  0 for no information,
 * unreachable, or a product above 2^32 - 1 (which the kernel drops too).
 */
uint32_t acpi_hmat_value(uint16_t entry, uint64_t base_unit, int data_type,
			 int revision);

/*
 * t as the source of a revision 2 HMAT in iasl's data-table syntax, with
 * ids in its header and comment (as acpi_slit_source()) on top: every
 * memory proximity domain structure, locality structure and memory-side
 * cache of t, in that order, each field as t holds it (the flags whole,
 * a locality structure's minimum transfer size, a cache's SMBIOS
 * handles), so that iasl writes back the bytes it was parsed from but for
 * reserved fields, which are 0.  Returns a malloc'd string.
 */
char *acpi_hmat_source(const struct ph_acpi_ids *ids, const struct ph_acpi_hmat *t,
		       const char *comment);

/* A comment beside each structure and entry of acpi_hmat_source_noted(). */
struct ph_hmat_notes {
	const char *mpda, *cache;	/* beside every such structure; NULL: none */
	const char **lb;		/* per locality structure, beside its type; NULL: none */
	/* per locality structure k, entry[k][i * nt + t] beside that entry; NULL: none */
	const char *const *const *entry;
};

/* As acpi_hmat_source(), with n's comments (n NULL: none, the same text). */
char *acpi_hmat_source_noted(const struct ph_acpi_ids *ids, const struct ph_acpi_hmat *t,
			     const char *comment, const struct ph_hmat_notes *n);

#endif
