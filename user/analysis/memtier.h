/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * memtier.h - the memory tiers and demotion targets Linux derives from an
 * HMAT and a SLIT (mm/memory-tiers.c; docs/slit.md section 13 cites each
 * function).  Two rules:
 *   PH_MEMTIER_6_1: Linux 6.1 to 6.6, no abstract distance from the HMAT:
 *     every memory node gets MEMTIER_ADISTANCE_DRAM (576), one tier,
 *     no demotion (dax/kmem devices aside, which pagehop cannot see);
 *   PH_MEMTIER_HMAT: Linux 6.7 and later (6.12 included): the nodes with
 *     CPUs and memory set the reference in ascending order, the 10% rule
 *     (mt_set_default_dram_perf()) can switch the HMAT off, else every
 *     node's abstract distance is 576 x latency / reference latency x
 *     reference bandwidth / bandwidth (mt_perf_to_adistance()).
 * Tier = abstract distance >> MEMTIER_CHUNK_BITS (7): sysfs
 * memory_tierN; each node demotes to the nodes of the next tier down at
 * the first distance find_next_best_node() reaches (establish_demotion_targets()).
 */
#ifndef PAGEHOP_MEMTIER_H
#define PAGEHOP_MEMTIER_H

#include "acpi_hmat.h"

#include <stdbool.h>
#include <stdint.h>

#define PH_MEMTIER_CHUNK_BITS 7
#define PH_MEMTIER_ADISTANCE_DRAM ((4L << PH_MEMTIER_CHUNK_BITS) + (1L << (PH_MEMTIER_CHUNK_BITS - 1)))

enum ph_memtier_rule {
	PH_MEMTIER_6_1 = 1,
	PH_MEMTIER_HMAT,
};

struct ph_memtier_node {
	int node;
	bool cpu, memory;
	uint32_t read_lat, write_lat, read_bw, write_bw;	/* access class 1, 0 none */
	long adist;
	int tier;		/* adist >> 7; -1 without memory */
	bool from_hmat;		/* adist computed from the HMAT, else the default */
	char demote[128];	/* preferred demotion targets, "" none */
};

struct ph_memtier {
	enum ph_memtier_rule rule;
	int n;
	struct ph_memtier_node *node;
	int ref;		/* the reference node's id, -1 none */
	int mismatch;		/* the node tripping the 10% rule, -1 none */
	char tiers[256];	/* "4:0-3 40:4", as sysfs memory_tierN/nodelist */
};

/*
 * n nodes ids (ascending), which have CPUs and which memory, the SLIT as
 * Linux uses it (n * n, from row to column), the HMAT t (NULL: none).
 */
void memtier_predict(enum ph_memtier_rule rule, int n, const int *ids, const bool *cpus,
		     const bool *memory, const int *dist, const struct ph_acpi_hmat *t,
		     struct ph_memtier *out);
void memtier_free(struct ph_memtier *m);
/*
 * mt_perf_to_adistance(): 576 x lat / ref_lat x ref_bw / bw in whole
 * numbers, in the kernel's order; lat and bw are read + write of access
 * class 1, the reference's likewise.  -1 when any is 0.
 */
long memtier_adistance(long lat, long bw, long ref_lat, long ref_bw);
/* The rule of a kernel release ("6.12.117+deb12-amd64"): 6.7 and later use the HMAT. */
enum ph_memtier_rule memtier_rule_of(const char *release);
const char *memtier_rule_name(enum ph_memtier_rule r);

#endif
