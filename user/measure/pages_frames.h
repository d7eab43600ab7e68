/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pages_frames.h - "pages --same-frames": one pagehop.ko allocation of
 * 1 GiB pages, mapped once per translation (4 KiB PTEs, 2 MiB PMDs, 1 GiB
 * PUDs), lent to each page size's sweep in turn (pages.c).
 */
#ifndef PAGEHOP_PAGES_FRAMES_H
#define PAGEHOP_PAGES_FRAMES_H

#include <stdbool.h>
#include <stdint.h>

#include "buffer.h"
#include "session.h"
#include "sweep.h"

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
	struct ph_memory mem;		/* lent to the session for one sweep */
};

/*
 * Refuse (PH_EXIT_UNSUPPORTED, said on stderr) without a module that maps
 * views, or without 1 GiB pages from it on node (av1g: sweep_availability's
 * 1G entry).  0 or the exit code.
 */
int pages_frames_plan(struct ph_session *s, int node, const struct sweep_avail *av1g);
/*
 * Allocate bytes (rounded up to whole GiBs) of 1 GiB pages on node, map a
 * view for each of the nps page sizes ps[], and check by QUERY that each is
 * leaves of its level on the 1 GiB mapping's frames.  0 or an exit code
 * (said on stderr); pages_frames_close() undoes it either way.
 */
int pages_frames_open(struct pages_frames *f, struct ph_session *s, int node, uint64_t bytes,
		      const enum ph_psize *ps, int nps);
/*
 * Make the view of page size ps the session's memory (ph_memory) for a
 * session_start() whose thread works on per_thread bytes; unlend takes it
 * back after session_stop().
 */
void pages_frames_lend(struct pages_frames *f, struct ph_session *s, enum ph_psize ps, int node,
		       uint64_t per_thread);
void pages_frames_unlend(struct pages_frames *f, struct ph_session *s);
void pages_frames_close(struct pages_frames *f, struct ph_session *s);

#endif
