/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pages_frames.h - "pages --same-frames": one pagehop.ko allocation of
 * 1 GiB pages, mapped once per translation (4 KiB PTEs, 2 MiB PMDs, 1 GiB
 * PUDs), lent to each page size's sweep in turn (pages.c).
 */
#ifndef PAGEHOP_PAGES_FRAMES_H
#define PAGEHOP_PAGES_FRAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buffer.h"
#include "session.h"
#include "sweep.h"

/*
 * The order of a random chain as it lies in a view's memory, read back by
 * following its links from the slot at the view's base (in the cycle, as
 * every slot is): the offsets from the base of the first hops, and an
 * FNV-1a hash of every hop's offset (8 bytes, little-endian) in order.
 */
#define PAGES_ORDER_FIRST 6
struct pages_order {
	uint64_t ws;			/* the working set the chain covers; 0: not read */
	uint64_t hops;			/* back at the base after so many: ws / 64 */
	uint64_t first[PAGES_ORDER_FIRST];
	uint64_t hash;
};

/* --same-frames: the allocation, its views and what QUERY showed. */
struct pages_frames {
	struct ph_kbuf kb;		/* 1 GiB pages on the node, mapped by PUDs */
	uint64_t bytes;			/* kb's length: the largest working set, whole GiBs */
	uint64_t *pfn;			/* first frame of each GiB */
	uint64_t npfn;
	uint64_t pfn0;			/* pfn[0], kept for the document */
	void *view[PH_PS_COUNT];	/* the mapping by each translation */
	uint64_t leaves[PH_PS_COUNT];	/* QUERY's leaves in each view */
	bool checked;			/* every view at its level on kb's frames */
	char why[256];			/* why not: the frames differ between page sizes */
	struct pages_order order[PH_PS_COUNT];	/* each view's chain, as walked */
	struct ph_memory mem[PH_PS_COUNT];	/* each view, lent to the session */
};

/*
 * Whether one allocation can be had for every view: a module that maps
 * views, with 1 GiB pages on node (av1g: sweep_availability's 1G entry).
 * 0, or -EOPNOTSUPP with the reason in why, nothing said.
 */
int pages_frames_possible(const struct ph_session *s, int node, const struct sweep_avail *av1g,
			  char *why, size_t len);
/*
 * Allocate bytes (rounded up to whole GiBs) of 1 GiB pages on node, map a
 * view for each of the nps page sizes ps[], and check by QUERY that each is
 * leaves of its level on the 1 GiB mapping's frames.  0 or an exit code;
 * PH_EXIT_UNSUPPORTED when the GiBs cannot be had, with the reason in
 * f->why and nothing said, any other failure said on stderr.
 * pages_frames_close() undoes it either way.
 */
int pages_frames_open(struct pages_frames *f, struct ph_session *s, int node, uint64_t bytes,
		      const enum ph_psize *ps, int nps);
/*
 * Make the view of page size ps the session's memory (ph_memory) for a
 * session_start() whose thread works on per_thread bytes, each view's
 * memory laid out and read back the first time; unlend takes them all back
 * after session_stop().  switch makes view ps the memory of the running
 * session lent one (it was lent before): the same frames, the same node,
 * the same thread.
 */
void pages_frames_lend(struct pages_frames *f, struct ph_session *s, enum ph_psize ps, int node,
		       uint64_t per_thread);
void pages_frames_switch(struct pages_frames *f, struct ph_session *s, enum ph_psize ps);
void pages_frames_unlend(struct pages_frames *f, struct ph_session *s);
/*
 * Read the chain over the first ws bytes of view ps (base) into
 * f->order[ps] by walking it: it must be one cycle through every slot of
 * ws, its links addresses inside it, and the same order as every view's
 * read before over the same ws (the views' chains are rebased from one
 * another's: chain.h; this walk through each view's own translation is
 * the second path).  0, or PH_EXIT_FAIL said on stderr.
 */
int pages_frames_order(struct pages_frames *f, enum ph_psize ps, const void *base, uint64_t ws);
/* f->order[ps] as one line: "16384 hops from +0x0: +0x..., ...; fnv1a 0x...". */
void pages_frames_order_text(const struct pages_order *o, char *buf, size_t len);
void pages_frames_close(struct pages_frames *f, struct ph_session *s);

#endif
