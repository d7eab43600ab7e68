/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kmod.h - the command's side of /dev/pagehop.  Opening it issues INFO
 * first and refuses a module whose API version differs, saying so.
 */
#ifndef PAGEHOP_KMOD_H
#define PAGEHOP_KMOD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "uapi/pagehop.h"

#define PAGEHOP_DEVICE_PATH "/dev/" PAGEHOP_DEVICE_NAME

struct ph_kmod {
	int fd;			/* -1 when not usable */
	bool present;		/* the device node exists */
	int err;		/* why not usable: positive errno, 0 if usable */
	char why[160];		/* the same, as a sentence */
	struct pagehop_info info;
	uint64_t *node_free;	/* free 4 KiB pages per node id */
	uint32_t nr_node_ids;
};

/* 0 if usable, else -errno with k->why filled; k->fd is -1 then. */
int kmod_open(struct ph_kmod *k);
void kmod_close(struct ph_kmod *k);
bool kmod_has(const struct ph_kmod *k, uint64_t feature);
/* "4k,2m,query,chase" */
const char *kmod_feature_list(uint64_t features, char *buf, size_t size);

/* A buffer pinned by the module and mapped into this process. */
struct ph_kbuf {
	uint32_t id;		/* the module's buffer id */
	uint64_t mmap_offset;	/* ALLOC's, for more mappings (kmod_map_view) */
	void *addr;		/* where it is mapped (MAP_SHARED) */
	uint64_t length;	/* bytes */
	uint32_t page_size;	/* enum pagehop_page_size */
	int node;
};

/*
 * ALLOC length bytes of page_size pages on node, and mmap them MAP_SHARED.
 * 0 or -errno (the module's: -ENOMEM, -EOPNOTSUPP, -E2BIG, -EINVAL, ...);
 * on failure nothing stays allocated or mapped.
 */
int kmod_alloc_map(struct ph_kmod *k, int node, uint32_t page_size, uint64_t length,
		   struct ph_kbuf *out);
/*
 * Map all of b once more, MAP_SHARED, with leaves of page size xlate (enum
 * pagehop_page_size, no larger than b's pages): the same frames under
 * another translation (PAGEHOP_MMAP_XLATE).  The address, or NULL with
 * errno set (EOPNOTSUPP: the module cannot; EINVAL: xlate too large).
 * The caller munmaps it (b->length bytes).
 */
void *kmod_map_view(struct ph_kmod *k, const struct ph_kbuf *b, uint32_t xlate);
/*
 * Why an ALLOC failed, as a phrase for "pagehop.ko: <what>: <why>": the
 * module's errnos mean more than strerror() says (docs/abi.md); err is the
 * negative errno kmod_alloc_map() returned.
 */
const char *kmod_alloc_why(int err);
/* munmap and FREE; b is zeroed.  Safe on a zeroed ph_kbuf. */
void kmod_unmap_free(struct ph_kmod *k, struct ph_kbuf *b);
/*
 * QUERY [addr, addr + length) of this process, calling cb once per entry
 * (leaf or hole) in address order, call after call on next_addr; one hole
 * may come as several adjacent entries.  Stops early and returns cb's value
 * if it is non-zero; else 0 or -errno (-EIO if the module does not move on).
 */
int kmod_query(struct ph_kmod *k, const void *addr, uint64_t length,
	       int (*cb)(const struct pagehop_query_entry *e, void *arg), void *arg);
/*
 * CHASE buffer id on cpu from byte offset start: windows windows of at most
 * loads_per_window hops each, each ending early at PAGEHOP_CHASE_WINDOW_US
 * of TSC where the module says so (PAGEHOP_FEAT_CHASE_HOPS); cycles[w] gets
 * window w's TSC cycles, hops[w] the hops it took (loads_per_window on a
 * module without that feature), *end the offset reached after them all.
 * 0 or -errno.
 */
int kmod_chase_windows(struct ph_kmod *k, uint32_t id, int cpu, uint64_t start,
		       uint32_t loads_per_window, uint32_t windows, uint64_t *cycles,
		       uint32_t *hops, uint64_t *end);
/*
 * The same for a caller that wants whole windows: each of windows x
 * loads_per_window hops is walked (a window the module ended early is
 * made up with more, untimed, hops at the end, so *end is after exactly
 * that many), and cycles[w] is window w's cycles scaled to
 * loads_per_window hops.  0 or -errno.
 */
int kmod_chase(struct ph_kmod *k, uint32_t id, int cpu, uint64_t start,
	       uint32_t loads_per_window, uint32_t windows, uint64_t *cycles, uint64_t *end);
/* PREFETCH with pf's op, cpu and (for SET) disable; fills pf->size. 0 or -errno. */
int kmod_prefetch(struct ph_kmod *k, struct pagehop_prefetch *pf);

#endif
