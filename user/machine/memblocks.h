/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * memblocks.h - a node's memory blocks as the kernel lists them
 * (/sys/devices/system/node/nodeN/memoryM, each block_size_bytes of
 * physical address from M times that size; Documentation/admin-guide/mm/
 * memory-hotplug.rst): which physical ranges hold the node's memory, and
 * whether each block is online and in which zones it may be.
 */
#ifndef PAGEHOP_MEMBLOCKS_H
#define PAGEHOP_MEMBLOCKS_H

#include <stdbool.h>
#include <stdint.h>

struct ph_memblock {
	uint64_t start;		/* physical, bytes */
	bool online;
	bool movable;		/* its zone is ZONE_MOVABLE (valid_zones "Movable") */
};

struct ph_memblocks {
	uint64_t block_size;	/* bytes; 0: not exposed */
	struct ph_memblock *v;	/* ascending start */
	int n;
};

/* The blocks of node under root (/sys/devices/system); 0 or -errno. */
int memblocks_read(const char *root, int node, struct ph_memblocks *b);
/* Bytes of online blocks in [lo, hi); *movable of them in ZONE_MOVABLE. */
uint64_t memblocks_bytes(const struct ph_memblocks *b, uint64_t lo, uint64_t hi, uint64_t *movable);
void memblocks_free(struct ph_memblocks *b);

#endif
