/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pagehop_pfstate.h - what pagehop.ko does with the prefetcher registers
 * and what it remembers about them, as pure logic: the register accesses
 * and the CPU topology come in through pagehop_pfops, and there are no
 * kernel calls and no locking here, so that tests/unit/test_pfstate.c runs
 * the same code in user space against a simulated machine.
 * pagehop_prefetch.c supplies the MSR accesses and holds the lock.
 *
 * One slot per register pagehop has changed.  On Intel, MSR 0x1A4 is one
 * register per core, shared by its SMT siblings, so a register's key is its
 * core, and the first value saved is kept however many CPUs and files set
 * it.  Each open file holds one reference to each register it set,
 * whichever sibling it named.  When the last reference goes, only the bits
 * pagehop changed, and that still hold what pagehop left in them, are put
 * back; if no CPU of that register is online then, the restore is owed
 * until one comes online.
 */
#ifndef _PAGEHOP_PFSTATE_H
#define _PAGEHOP_PFSTATE_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdbool.h>
#include <stdint.h>
typedef uint64_t u64;
typedef uint32_t u32;
#endif

struct pagehop_pfreg {
	u64 key;		/* which register: a core, or a CPU */
	u64 orig;		/* what it held before pagehop first changed it */
	u64 last;		/* what it held after pagehop last wrote it */
	u64 changed;		/* bits pagehop's writes changed from orig */
	u32 users;		/* open files holding a reference */
	bool used;		/* this slot names a register */
	bool pending;		/* released while no CPU of it was online */
};

struct pagehop_pfstate {
	struct pagehop_pfreg *reg;
	u32 nr;			/* slots at reg; a file's refs bitmap has nr bits */
	u64 mask;		/* the bits pagehop may change */
};

/* The machine, as pagehop_pfstate sees it. */
struct pagehop_pfops {
	int (*read)(void *ctx, u32 cpu, u64 *val);	/* 0 or -errno */
	int (*write)(void *ctx, u32 cpu, u64 val);	/* 0 or -errno */
	u64 (*key)(void *ctx, u32 cpu);			/* the register cpu uses */
	int (*online_cpu)(void *ctx, u64 key);		/* an online CPU using it, or -1 */
	void *ctx;
};

/*
 * GET: *cur gets the disable bits cpu's register holds, *orig those it held
 * before pagehop first changed it (*cur if pagehop holds no change).
 * 0, or the read's -errno.
 */
int pagehop_pfstate_get(const struct pagehop_pfstate *s, const struct pagehop_pfops *ops,
			u32 cpu, u64 *cur, u64 *orig);
/*
 * SET: write disable into cpu's register (pagehop's bits only), read it
 * back, and give the file whose reference bitmap is refs a reference to
 * it.  *now gets the disable bits the register holds after the write,
 * *orig those before pagehop's first change.  0, the read's or write's
 * -errno, or -ENOSPC if there is no free slot.
 */
int pagehop_pfstate_set(struct pagehop_pfstate *s, const struct pagehop_pfops *ops,
			unsigned long *refs, u32 cpu, u64 disable, u64 *now, u64 *orig);
/*
 * A file goes: drop each of its references; a register whose last
 * reference this was gets its changes undone, or (no CPU of it online)
 * owed.  Returns the number of restores owed now, or the first -errno of
 * a read or write that failed.
 */
int pagehop_pfstate_release(struct pagehop_pfstate *s, const struct pagehop_pfops *ops,
			    unsigned long *refs);
/*
 * Do the restores owed: all of them (cpu < 0), or those of cpu's register
 * (cpu just came online).  Returns the number still owed, or the first
 * -errno of a read or write that failed.
 */
int pagehop_pfstate_settle(struct pagehop_pfstate *s, const struct pagehop_pfops *ops, int cpu);

/*
 * Intel models known to have MSR 0x1A4 with the four prefetcher bits
 * (0 L2 streamer, 1 L2 adjacent line, 2 L1 next line, 3 L1 IP stride).
 */
bool pagehop_pf_intel_model_known(u32 family, u32 model);

#endif /* _PAGEHOP_PFSTATE_H */
