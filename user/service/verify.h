/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * verify.h - placement verification, pagehop's central promise: before
 * anything is measured (and again after), where every page of a segment
 * really is and what size it is, read back through a second path
 * (pagehop.ko's QUERY, or move_pages with /proc/self/pagemap and
 * /proc/kpageflags), and compared with what was asked.
 */
#ifndef PAGEHOP_VERIFY_H
#define PAGEHOP_VERIFY_H

#include <stddef.h>
#include <stdint.h>

#include "buffer.h"
#include "kmod.h"

struct bitmask;

/*
 * Read back where seg's pages are and their size into seg->found; set
 * seg->verified and seg->verify_msg.  0 if the read-back itself worked
 * (verified or not); -EINTR, with seg as it was, if the request's cancel
 * flag was set.
 */
int segment_verify(struct ph_kmod *km, struct ph_segment *seg,
		   const struct bitmask *interleave);

/*
 * The comparison segment_verify() ends with: seg->found (read back, or
 * err, the read-back's -errno) against what seg asked (bytes of psize on
 * node, or on the members of interleave).  Sets seg->verified, when every
 * byte was found mapped, of the size asked, on a node asked; and
 * seg->verify_msg, which says what was found against what was asked.
 */
void verify_compare(struct ph_segment *seg, int err, const struct bitmask *interleave);

/*
 * The 4 KiB pages of [addr, addr + bytes) on each node, by move_pages()
 * alone (no root needed): pages[n] for n below nr_nodes, *unplaced the
 * pages move_pages found on no node of those (not present, or an error
 * status).  0, or -errno from move_pages.
 */
int verify_count_nodes(const void *addr, uint64_t bytes, int nr_nodes, uint64_t *pages,
		       uint64_t *unplaced);

/*
 * Can this process read back where memory is?  Through pagehop.ko's QUERY,
 * or /proc/kpageflags and the frame numbers of /proc/self/pagemap, both of
 * which need root (CAP_SYS_ADMIN).  0, or -errno with why naming what is
 * missing.
 */
int verify_ready(const struct ph_kmod *km, char *why, size_t whylen);

#endif
