/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * chase.h - pointer-chase latency kernels: chain builders and walkers.
 *
 * A chain is one single cycle through 64-byte slots of a buffer; each slot
 * holds, in its first 8 bytes, the address of the next.  Every load depends
 * on the one before, so the time per hop is the load-to-use latency of
 * wherever the slot is (cache, local or remote memory), plus a TLB walk when
 * the slot's page is not in the TLB.  The patterns choose which of those the
 * figure includes (see docs/methodology.md).
 */
#ifndef PAGEHOP_CHASE_H
#define PAGEHOP_CHASE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One cache line: a slot never shares a line with another slot. */
#define CHASE_SLOT 64
/*
 * Up to 13 chains walked together: each walker keeps every head in a
 * register, and x86-64 has registers for 13 heads and a counter even when
 * %rbp is kept as the frame pointer (chase.c).
 */
#define CHASE_MAX_CHAINS 13

enum chase_pattern {
	CHASE_RANDOM = 1,	/* uniform over every slot (Sattolo cycle) */
	CHASE_TLB,		/* windows in random order, random inside each */
	CHASE_PAGE,		/* one slot per page, pages in random order */
	CHASE_SEQ,		/* slot after slot: the prefetchers win */
	CHASE_STRIDE,		/* every slot, N bytes apart, pass after pass */
};

struct chase_spec {
	enum chase_pattern pattern;
	uint64_t param;		/* TLB window, page size or stride, bytes */
	uint64_t seed;		/* the same seed gives the same chain */
};

struct chase_pattern_info {
	const char *name;
	enum chase_pattern pattern;
	const char *syntax;	/* "tlb:SIZE" */
	uint64_t default_param;
	const char *desc;	/* one line of at most 64 characters */
};

extern const struct chase_pattern_info chase_patterns[];
extern const size_t chase_npatterns;

/*
 * The patterns' syntaxes as error messages name them, from chase_patterns[]:
 * "random, tlb:SIZE, page[:SIZE], seq or stride:N".
 */
const char *chase_pattern_list(void);

/* "random", "tlb:2M", "page", "page:2M", "seq", "stride:256"; 0 or -EINVAL. */
int chase_parse(const char *s, struct chase_spec *out);
/* The spec back as text: "tlb:2M". */
const char *chase_spec_name(const struct chase_spec *spec, char *buf, size_t size);

/* Number of slots chase_build() would make over bytes, or -EINVAL. */
int64_t chase_slots(uint64_t bytes, const struct chase_spec *spec);

/*
 * Building or checking a chain over 1 GiB takes seconds.  Those loops look
 * at *cancel (when cancel is not NULL) first and every CHASE_CANCEL_EVERY
 * steps, and stop with -EINTR once it is non-zero; the chain is then unusable.
 */
#define CHASE_CANCEL_EVERY 65536

/* At step 0 and every CHASE_CANCEL_EVERY steps after: has the caller asked to stop? */
static inline bool chase_stop_asked(const volatile sig_atomic_t *cancel, uint64_t i)
{
	return !(i % CHASE_CANCEL_EVERY) && cancel && *cancel;
}

/*
 * Write the chain into buf (bytes long, 64-byte aligned).  Returns the number
 * of slots in the cycle, or -EINVAL if the pattern's parameter does not fit
 * (not a power of two multiple of 64, larger than the buffer, ...), or
 * -EINTR.  *start is the first slot (hop 0).  Allocates nothing.  The same
 * as chase_build_part() of part 0 of 1.
 */
int64_t chase_build(void *buf, uint64_t bytes, const struct chase_spec *spec,
		    void **start, const volatile sig_atomic_t *cancel);

/*
 * Write part `part` of nparts of the chain: the links of the slots in the
 * part-th of nparts contiguous pieces of the buffer.  The parts may be
 * written at once by as many threads; once all are written, the chain is
 * the one chase_build() writes, byte for byte, whatever nparts was.
 * The number of slots in the cycle, or -EINVAL, -EINTR.
 */
int64_t chase_build_part(void *buf, uint64_t bytes, const struct chase_spec *spec,
			 unsigned part, unsigned nparts, const volatile sig_atomic_t *cancel);

/* Byte offset in the buffer of the chain's hop (modulo its length), or -EINVAL. */
int64_t chase_offset_at(uint64_t bytes, const struct chase_spec *spec, uint64_t hop);

/*
 * Check hops [from, to) of the chain built in buf, in up to 16 pieces walked
 * together (their loads in flight at once): each piece, started at the slot
 * chase_offset_at() says, must end where the next starts; every link must
 * be a slot of the buffer; and none may come back to hop 0's slot before
 * hop nslots.  Spans that together cover [0, nslots), checked by any number
 * of threads, prove that the chain is one full cycle through nslots
 * distinct slots, as one walk does.  0, -EINVAL or -EINTR.
 */
int chase_check_span(void *buf, uint64_t bytes, const struct chase_spec *spec,
		     uint64_t from, uint64_t to, const volatile sig_atomic_t *cancel);

/*
 * Chains derived from one random cycle.  The random chain over the largest
 * working set of a sweep is a cycle through its slots; keeping, in that
 * cycle's order, the slots below m gives a cycle through the first m slots,
 * and since the big cycle is uniformly random so is the kept one.  One
 * order of the big cycle then serves every smaller working set: each one's
 * chain costs a read of the order and a write of its own links, no
 * permutation evaluated.
 *
 * chase_order_part: order[p] = the slot (0..n-1) at hop p of the random or
 * tlb chain spec builds over bytes (n slots, below 2^32), for p in [from,
 * to): the parts may be filled by as many threads at once.  0 or -EINVAL,
 * -EINTR.
 */
int chase_order_part(uint64_t bytes, const struct chase_spec *spec, uint32_t *order,
		     uint64_t from, uint64_t to, const volatile sig_atomic_t *cancel);

/*
 * Write into buf the chain over its first bytes (m = bytes / 64 slots)
 * derived from order[0..norder): the slots below m in order's order, the
 * last linked back to the first (hop 0).  next[] is m entries of scratch.
 * marks[j] (j < nmarks <= m) is the byte offset of the slot at hop
 * j m / nmarks, for chase_check_marks and for the walkers' heads.
 * Allocates nothing.  The number of slots (m), or -EINVAL (order holds
 * fewer or more than m slots below m), -EINTR.  That order holds each of
 * them once is for chase_check_marks to find.
 */
int64_t chase_derive(void *buf, uint64_t bytes, const uint32_t *order, uint64_t norder,
		     uint32_t *next, uint64_t *marks, unsigned nmarks,
		     const volatile sig_atomic_t *cancel);

/*
 * The single-cycle check of a chain given by its marks (as chase_derive
 * gives them: the slot at hop j nslots / nmarks is at marks[j]): pieces
 * from..to-1 (at most 16), each walked from its mark, must end on the next
 * (the last on marks[0]), every link a slot of the buffer, none back to
 * marks[0] before the cycle's end.  Pieces that together cover all nmarks
 * prove, as chase_check_span does, that the chain is one cycle through
 * nslots distinct slots, whatever the marks: nothing here trusts the
 * derivation.  0, -EINVAL or -EINTR.
 */
int chase_check_marks(void *buf, uint64_t bytes, uint64_t nslots, const uint64_t *marks,
		      unsigned nmarks, unsigned from, unsigned to,
		      const volatile sig_atomic_t *cancel);

/*
 * A derived chain written from its order and checked in the same passes,
 * in parts that any number of threads run at once, without walking it.
 * order[0..m) is the chain over the first m slots of buf (chase_order_part
 * over them, or chase_order_keep of a larger order); next[] is m entries of
 * scratch.  Each step runs over every part of [0, m) before the next begins:
 *   CHASE_LINK_CLEAR    next[x] = none, for slots x in [from, to);
 *   CHASE_LINK_SCATTER  next[order[i]] = order[i + 1] (the last to
 *                       order[0]), for hops i in [from, to), each below m;
 *   CHASE_LINK_WRITE    slot x's link to slot next[x], for x in [from, to),
 *                       refused where next[x] is still none;
 *   CHASE_LINK_VERIFY   every link of [from, to) read back through buf.
 * Why this proves what one walk of the chain does: SCATTER makes m writes
 * into next[0..m); WRITE finds all m entries set, so the m slots order[i]
 * are distinct: order is a permutation of [0, m), and next maps each
 * order[i] to order[i + 1], one cycle through all m slots.  VERIFY then
 * reads, after every write, exactly those links at the m slots of buf: the
 * memory holds one cycle through exactly its first m slots (a page mapped
 * twice, a write lost or a slot overwritten shows there).  The random
 * accesses are the 4-byte writes of SCATTER, which do not wait on one
 * another, where a walk waits on each load in turn.  0, -EINVAL or -EINTR.
 */
enum chase_link_step { CHASE_LINK_CLEAR = 1, CHASE_LINK_SCATTER, CHASE_LINK_WRITE, CHASE_LINK_VERIFY };
int chase_link_part(void *buf, uint64_t m, const uint32_t *order, uint32_t *next,
		    enum chase_link_step step, uint64_t from, uint64_t to,
		    const volatile sig_atomic_t *cancel);

/*
 * A chain written and checked in one mapping moved in place to another
 * mapping of the same frames, in parts that any number of threads run at
 * once: buf's slot x, for x in [from, to), holds a link into the m slots
 * at old (the bytes as they were written through old), rewritten to the
 * same slot of buf.  Every link must be one of those slots, on its
 * boundary: the first that is not stops the pass, its slot in *bad
 * (-EINVAL; the slots before it are rebased already).  Why this keeps one
 * cycle: the chain at old was one cycle through exactly its m slots, and
 * buf's slot x is old's slot x (the same frame, the same bytes); slot
 * x's link to old + 64 y becomes buf + 64 y, the same map x -> y on slot
 * numbers, so the same cycle, in the same order, through exactly buf's m
 * slots.  The range check is what guards that premise (bytes that are no
 * longer that chain show there unless they happen to look like one): it
 * does not prove a cycle alone, and the caller must know nothing wrote
 * the frames since the chain at old was checked.  0, -EINVAL or -EINTR.
 */
int chase_rebase_part(void *buf, uint64_t m, const void *old, uint64_t from, uint64_t to,
		      uint64_t *bad, const volatile sig_atomic_t *cancel);

/*
 * out[] = the values of in[0..nin) below m, in their order: a larger
 * chain's order cut to the chain over the first m slots.  How many were
 * kept (m if in was an order over m or more slots), -EINVAL (more than m:
 * in was no order, out is full), or -EINTR.
 */
int64_t chase_order_keep(const uint32_t *in, uint64_t nin, uint64_t m, uint32_t *out,
			 const volatile sig_atomic_t *cancel);

/*
 * Follow the chain from start for exactly nslots hops and check that it came
 * back to start then and not before: the chain is one full cycle.  Also the
 * untimed warm-up pass.  If starts is not NULL, stores the slots found at
 * hops 0, nslots/k, 2*nslots/k, ... (k = nstarts): evenly spaced starting
 * points for k chains walked together.  0, -EINVAL or -EINTR.
 */
int chase_verify(void *start, uint64_t nslots, void **starts, unsigned nstarts,
		 const volatile sig_atomic_t *cancel);

/*
 * The measured loops.  Advance each of k chains (1..CHASE_MAX_CHAINS) by
 * hops hops; p[] is updated to where each stopped.  k chains' loads are
 * independent of one another, so up to k are in flight at once.
 */
void chase_walk(void **p, unsigned k, uint64_t hops);

/*
 * nruns timed runs of k chains advanced by hops hops each (as chase_walk),
 * one after the other: ticks[i] = TSC cycles of run i, read with ordered
 * brackets (lfence; rdtsc; lfence before, rdtscp; lfence after).  With
 * hops 0, the cost of the brackets and the call alone, measured the same
 * way.  Allocates nothing; the heads in p[] move on as in chase_walk.
 */
void chase_walk_timed(void **p, unsigned k, uint64_t hops, uint64_t *ticks, size_t nruns);

/*
 * Rewrite the chain's links from addresses to byte offsets from base, the
 * form pagehop.ko's CHASE ioctl follows, or back.  nslots hops from start.
 * 0, or -EINTR with the chain half rewritten.
 */
int chase_to_offsets(void *start, uint64_t nslots, void *base,
		     const volatile sig_atomic_t *cancel);
int chase_to_pointers(void *base, uint64_t start_off, uint64_t nslots,
		      const volatile sig_atomic_t *cancel);

#endif
