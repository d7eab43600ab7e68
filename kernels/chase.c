// SPDX-License-Identifier: GPL-2.0-only
/*
 * chase.c - pointer-chase patterns, the full-cycle walk, the walkers.
 *
 * The builders and the check of a chain in spans are in chase_build.c.
 */
#include "chase.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Each description is one line of at most 64 characters, so that 'pagehop
 * list' and 'chase --help' print it within 80 columns; docs/methodology.md
 * says what each pattern includes and why at length.
 */
const struct chase_pattern_info chase_patterns[] = {
	{ "random", CHASE_RANDOM, "random", 0,
	  "every slot in one random cycle (Sattolo): cache and TLB misses" },
	{ "tlb", CHASE_TLB, "tlb:SIZE", 2 << 20,
	  "SIZE windows in random order, random inside each: few TLB misses" },
	{ "page", CHASE_PAGE, "page[:SIZE]", 4096,
	  "one line per SIZE page (default 4K), pages shuffled: TLB misses" },
	{ "seq", CHASE_SEQ, "seq", CHASE_SLOT,
	  "slot after slot, ascending: a stream for the prefetchers" },
	{ "stride", CHASE_STRIDE, "stride:N", 256,
	  "every slot, N bytes apart, one pass per line offset: a stride" },
};

const size_t chase_npatterns = sizeof(chase_patterns) / sizeof(chase_patterns[0]);

const char *chase_pattern_list(void)
{
	/*
	 * Made on the first call and the same on every call after: option
	 * parsing asks for it, before any thread is started.
	 */
	static char list[256];
	size_t len = 0;

	if (list[0])
		return list;
	for (size_t i = 0; i < chase_npatterns && len < sizeof(list); i++)
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s",
					!i ? "" : i + 1 < chase_npatterns ? ", " : " or ",
					chase_patterns[i].syntax);
	return list;
}

/* ---- parsing ---- */

/*
 * Decimal digits with an optional K, M or G.  Not strtoull: it skips white
 * space and takes a sign, and a shift would wrap "17179869185G" to 1G.
 */
static int parse_bytes(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	unsigned shift = 0;
	const char *p = s;

	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
			return -EINVAL;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	if (p == s)
		return -EINVAL;
	switch (*p) {
	case 'k': case 'K': shift = 10; p++; break;
	case 'm': case 'M': shift = 20; p++; break;
	case 'g': case 'G': shift = 30; p++; break;
	default: break;
	}
	if (*p || !v || v > (UINT64_MAX >> shift))
		return -EINVAL;
	*out = v << shift;
	return 0;
}

int chase_parse(const char *s, struct chase_spec *out)
{
	const char *colon = strchr(s, ':');
	size_t len = colon ? (size_t)(colon - s) : strlen(s);

	for (size_t i = 0; i < chase_npatterns; i++) {
		const struct chase_pattern_info *p = &chase_patterns[i];
		uint64_t v = p->default_param;

		if (strlen(p->name) != len || strncmp(s, p->name, len))
			continue;
		if (colon) {
			/* random and seq take no parameter. */
			if (p->pattern == CHASE_RANDOM || p->pattern == CHASE_SEQ)
				return -EINVAL;
			if (parse_bytes(colon + 1, &v))
				return -EINVAL;
		}
		/* Every parameter is a whole number of slots. */
		if (v % CHASE_SLOT)
			return -EINVAL;
		out->pattern = p->pattern;
		out->param = v;
		return 0;
	}
	return -EINVAL;
}

const char *chase_spec_name(const struct chase_spec *spec, char *buf, size_t size)
{
	const char *name = "?";
	uint64_t v = spec->param;
	const char *unit = "";

	for (size_t i = 0; i < chase_npatterns; i++)
		if (chase_patterns[i].pattern == spec->pattern)
			name = chase_patterns[i].name;
	if (spec->pattern == CHASE_RANDOM || spec->pattern == CHASE_SEQ) {
		snprintf(buf, size, "%s", name);
		return buf;
	}
	if (v && !(v % (1ull << 30))) {
		v >>= 30;
		unit = "G";
	} else if (v && !(v % (1ull << 20))) {
		v >>= 20;
		unit = "M";
	} else if (v && !(v % (1ull << 10))) {
		v >>= 10;
		unit = "K";
	}
	snprintf(buf, size, "%s:%llu%s", name, (unsigned long long)v, unit);
	return buf;
}

int chase_verify(void *start, uint64_t nslots, void **starts, unsigned nstarts,
		 const volatile sig_atomic_t *cancel)
{
	uint64_t next_at = 0;
	unsigned next_k = 0;
	void *p = start;

	if (!start || !nslots)
		return -EINVAL;
	for (uint64_t i = 0; i < nslots; i++) {
		if (chase_stop_asked(cancel, i))
			return -EINTR;
		/* Chain k starts at hop floor(k * nslots / nstarts). */
		if (starts && next_k < nstarts && i == next_at) {
			starts[next_k++] = p;
			next_at = (uint64_t)next_k * nslots / nstarts;
		}
		if (i && p == start)
			return -EINVAL;	/* a shorter cycle: not every slot is on it */
		p = *(void **)p;
	}
	return p == start ? 0 : -EINVAL;
}

/*
 * The walkers, one per chain count K, each made by WALKER(K).  Every hop is
 * one load from a head into the same head, "mov (%reg),%reg", and the whole
 * loop is written in one asm statement whose K heads and counter are
 * register operands: the compiler can neither spill a head to the stack
 * inside the loop nor reorder the hops.  Plain C does not guarantee that:
 * gcc 12 -O2 kept a head array on the stack from 4 chains on, so every hop
 * became a load, a load and a store, and the time per load in L1 doubled
 * from 3 to 4 chains.  x86-64 has 15 general registers besides %rsp, 14
 * in a build that keeps the frame pointer (-fno-omit-frame-pointer, as the
 * ASan build and some distributions' default flags do): K heads plus the
 * counter fit up to K = 13, which is CHASE_MAX_CHAINS.
 * tests/host/test_chase_walkers.sh reads the object code back and checks it.
 */
#if !defined(__x86_64__)
#error "the chase walkers in kernels/chase.c are written for x86-64"
#endif

#define REP1(M) M(0)
#define REP2(M) REP1(M) M(1)
#define REP3(M) REP2(M) M(2)
#define REP4(M) REP3(M) M(3)
#define REP5(M) REP4(M) M(4)
#define REP6(M) REP5(M) M(5)
#define REP7(M) REP6(M) M(6)
#define REP8(M) REP7(M) M(7)
#define REP9(M) REP8(M) M(8)
#define REP10(M) REP9(M) M(9)
#define REP11(M) REP10(M) M(10)
#define REP12(M) REP11(M) M(11)
#define REP13(M) REP12(M) M(12)

#define HEAD_IN(i) void *q##i = p[i];
#define HEAD_OUT(i) p[i] = q##i;
#define HEAD_OPERAND(i) "+r"(q##i),
#define HOP_ASM(i) "mov (%" #i "), %" #i "\n\t"

/*
 * Operands %0..%(K-1) are the heads, %K the count of rounds (never 0 on
 * entry).  The main loop makes 4 rounds of K hops per count, the tail loop
 * one round per count: hops % 4 rounds.
 */
#define WALK_LOOP(K, ROUND, n)						\
	__asm__ __volatile__("1:\n\t" ROUND				\
			     "sub $1, %" #K "\n\t"			\
			     "jnz 1b"					\
			     : REP##K(HEAD_OPERAND) "+r"(n)		\
			     : : "cc", "memory")

#define WALKER(K)							\
	static void walk_##K(void **p, uint64_t hops)			\
	{								\
		REP##K(HEAD_IN)						\
		uint64_t rounds4 = hops / 4, rounds1 = hops % 4;	\
									\
		if (rounds4)						\
			WALK_LOOP(K, REP##K(HOP_ASM) REP##K(HOP_ASM)	\
				  REP##K(HOP_ASM) REP##K(HOP_ASM), rounds4); \
		if (rounds1)						\
			WALK_LOOP(K, REP##K(HOP_ASM), rounds1);		\
		REP##K(HEAD_OUT)					\
	}
WALKER(1) WALKER(2) WALKER(3) WALKER(4) WALKER(5) WALKER(6) WALKER(7)
WALKER(8) WALKER(9) WALKER(10) WALKER(11) WALKER(12) WALKER(13)

void chase_walk(void **p, unsigned k, uint64_t hops)
{
	static void (*const walkers[CHASE_MAX_CHAINS + 1])(void **, uint64_t) = {
		NULL, walk_1, walk_2, walk_3, walk_4, walk_5, walk_6, walk_7, walk_8,
		walk_9, walk_10, walk_11, walk_12, walk_13,
	};

	if (k >= 1 && k <= CHASE_MAX_CHAINS)
		walkers[k](p, hops);
}

int chase_to_offsets(void *start, uint64_t nslots, void *base,
		     const volatile sig_atomic_t *cancel)
{
	char *p = start;

	for (uint64_t i = 0; i < nslots; i++) {
		char *next = *(char **)p;

		if (chase_stop_asked(cancel, i))
			return -EINTR;
		*(uint64_t *)p = (uint64_t)(next - (char *)base);
		p = next;
	}
	return 0;
}

int chase_to_pointers(void *base, uint64_t start_off, uint64_t nslots,
		      const volatile sig_atomic_t *cancel)
{
	uint64_t off = start_off;

	for (uint64_t i = 0; i < nslots; i++) {
		char *slot = (char *)base + off;
		uint64_t next = *(uint64_t *)slot;

		if (chase_stop_asked(cancel, i))
			return -EINTR;
		*(void **)slot = (char *)base + next;
		off = next;
	}
	return 0;
}
