/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * chain.h - a chase chain built and checked on the CPUs of the memory's
 * own node, all of them at once: each writes the links of its share of the
 * buffer (chase_build_part) and then walks its share of the cycle in
 * pieces (chase_check_span).  The chain is the same for any number of CPUs.
 */
#ifndef PAGEHOP_CHAIN_H
#define PAGEHOP_CHAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "chase.h"
#include "session.h"

/*
 * Build spec's chain over the first bytes of seg and check that it is one
 * full cycle, on the CPUs of seg's node that this process may use (all it
 * may use if the node has none, or with interleave).  *nslots and *start as
 * chase_build() gives them.  The time goes to the chain phase (phases.h).
 * 0, -EINVAL (the pattern does not fit, or the chain is not one cycle),
 * -EINTR (a signal: ph_interrupted), or -errno of starting the threads.
 */
int chain_make(struct ph_session *s, struct ph_segment *seg, uint64_t bytes,
	       const struct chase_spec *spec, int64_t *nslots, void **start);

/* How many CPUs chain_make() would use for seg (for the document). */
int chain_cpus(const struct ph_segment *seg);

/*
 * The random chains of a sweep, derived from one random order (chase.h):
 * the order of spec {random, seed}'s chain over the largest working set,
 * computed once by the CPUs of the memory's node, and cut to each smaller
 * working set's slots (chase_order_keep, each level from the next larger).
 * The levels hold 4 bytes a slot of every working set (about 8 bytes a
 * slot of the largest for doubling sizes), next and own 4 more each.
 * Shared by every buffer the sweep measures (the order is slot numbers,
 * not addresses): each buffer's chain is then written and checked from
 * its level (chase_link_part).
 */
#define PH_MAX_VIEWS 4		/* mappings of one set of frames: one per page size */
struct chain_orders {
	uint64_t seed;
	int nlevels;
	uint64_t *bytes;	/* each working set, ascending */
	uint32_t **order;	/* each one's order, once built */
	size_t *mapped;		/* each order's mapping length */
	uint32_t *next;		/* scratch, the largest's slots */
	size_t next_mapped;
	uint32_t *own;		/* scratch: a tlb chain's order (chain_own_make) */
	size_t own_mapped;
	bool built;
	/*
	 * Mappings of one set of frames (chain_orders_views), and the chain
	 * last written and checked in one of them (laid: its view's address,
	 * NULL for none): over laid_bytes, of laid_spec.  The same chain asked
	 * for in another view is already in its memory with laid's addresses,
	 * and is rebased there in place (chase_rebase_part) instead of being
	 * written again; whatever else writes the frames forgets it
	 * (chain_orders_forget).
	 */
	char *views[PH_MAX_VIEWS];
	int nviews;
	uint64_t view_bytes;
	char *laid;
	uint64_t laid_bytes;
	struct chase_spec laid_spec;
	int rebased;		/* chains rebased, not written */
};

/*
 * Plan the orders for the working sets sizes[0..n) (any order, repeats
 * allowed) with seed: nothing is computed until chain_derive_make needs it.
 */
void chain_orders_plan(struct chain_orders *o, const uint64_t *sizes, int n, uint64_t seed);
/*
 * The n mappings views[] of the same bytes bytes of frames (pages
 * --same-frames): a chain of o written in one is rebased into another.
 */
void chain_orders_views(struct chain_orders *o, void *const *views, int n, uint64_t bytes);
/* Something other than o's chains wrote memory (o may be NULL): no chain is laid in the views. */
void chain_orders_forget(struct chain_orders *o);
void chain_orders_free(struct chain_orders *o);
/* The bytes o's orders and scratch take once built. */
uint64_t chain_orders_bytes(const struct chain_orders *o);
/* Whether spec's chain over bytes, for one thread, is one of o's. */
bool chain_orders_fit(const struct chain_orders *o, const struct chase_spec *spec, uint64_t bytes);
/* Byte offset of hop (modulo the slots) of o's chain over bytes, once built. */
uint64_t chain_orders_offset(const struct chain_orders *o, uint64_t bytes, uint64_t hop);

/*
 * The chain over the first bytes of seg derived from o (chain_orders_fit),
 * written and checked to be one cycle through exactly those slots
 * (chase_link_part), on the CPUs of seg's node as chain_make; the first
 * call also computes o's orders.  Where the same chain is laid in another
 * view of seg's frames (chain_orders_views), it is rebased in place
 * instead, in one sequential pass (chase_rebase_part: a link outside the
 * working set is refused, said on stderr with its slot).  The time goes to
 * the chain phase.  *nslots and *start as chain_make; 0 or chain_make's
 * errors, -ENOMEM.
 */
int chain_derive_make(struct ph_session *s, struct ph_segment *seg, uint64_t bytes,
		      struct chain_orders *o, int64_t *nslots, void **start);

/*
 * A tlb chain of the sweep (spec over bytes, at most the largest working
 * set): the same chain as chain_make builds, from its order
 * (chase_order_part) in o's scratch, written and checked as
 * chain_derive_make does, without a walk, or rebased as it is.
 */
bool chain_orders_own(const struct chain_orders *o, const struct chase_spec *spec, uint64_t bytes);
int chain_own_make(struct ph_session *s, struct ph_segment *seg, uint64_t bytes,
		   const struct chase_spec *spec, struct chain_orders *o, int64_t *nslots,
		   void **start);

#endif
