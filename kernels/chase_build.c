// SPDX-License-Identifier: GPL-2.0-only
/*
 * chase_build.c - pointer-chase chain builders, and the check of a chain in
 * spans.
 *
 * The builders write every chain in place, in the buffer being measured, and
 * allocate nothing beside it: where each hop is comes from a permutation
 * that is a function (see struct perm), so a 4 GiB chain costs no 4 GiB of
 * bookkeeping, each link is written in address order, and the work splits
 * into parts that any number of threads build at once.
 */
#include "chase.h"

#include <errno.h>
#include <string.h>

/* ---- splitmix64: seeds the permutations' keys ---- */

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/*
 * A pseudo-random permutation of [0, n), computable both ways at any point:
 * a 4-round Feistel network over 2h bits (2^2h >= n), each round function a
 * keyed multiply-xorshift hash, and cycle walking (apply again until the
 * value is below n), which keeps it a bijection of [0, n).  4 rounds of
 * independent pseudo-random functions make a strong pseudo-random
 * permutation (Luby and Rackoff).  The domain is at most 4n, so a value
 * walks fewer than 4 times on average.
 *
 * Why not Sattolo's shuffle: it swaps slots at random across the whole
 * buffer, one cache and TLB miss after another (40 s over 4 GiB on 4K
 * pages); and a shuffle is serial.  A permutation that is a function can be
 * asked where hop p is and which hop slot s is, so every slot's link is
 * written in address order, by any number of threads, the same for any
 * number of them.
 */
struct perm {
	uint64_t n;
	unsigned h;		/* bits per half */
	uint64_t mask;		/* (1 << h) - 1 */
	uint64_t key[4];
};

static inline uint64_t round_fn(uint64_t x, uint64_t key, unsigned h)
{
	uint64_t z = (x ^ key) * 0x9e3779b97f4a7c15ull;

	z ^= z >> 29;
	z *= 0xbf58476d1ce4e5b9ull;
	return z >> (64 - h);	/* the high bits: those every input bit reaches */
}

/* The smallest h with 2^2h >= n, at least 1. */
static unsigned perm_half_bits(uint64_t n)
{
	unsigned bits = 1;

	while (bits < 64 && (1ull << bits) < n)
		bits++;
	return (bits + 1) / 2;
}

static void perm_init(struct perm *p, uint64_t n, unsigned h, uint64_t seed)
{
	p->n = n;
	p->h = h;
	p->mask = (1ull << h) - 1;
	for (int i = 0; i < 4; i++)
		p->key[i] = splitmix64(&seed);
}

static inline uint64_t perm_fwd(const struct perm *p, uint64_t x)
{
	do {
		uint64_t l = x >> p->h, r = x & p->mask;

		for (int i = 0; i < 4; i++) {
			uint64_t t = l ^ round_fn(r, p->key[i], p->h);

			l = r;
			r = t;
		}
		x = (l << p->h) | r;
	} while (x >= p->n);
	return x;
}

static inline uint64_t perm_inv(const struct perm *p, uint64_t y)
{
	do {
		uint64_t l = y >> p->h, r = y & p->mask;

		for (int i = 3; i >= 0; i--) {
			uint64_t t = r ^ round_fn(l, p->key[i], p->h);

			r = l;
			l = t;
		}
		y = (l << p->h) | r;
	} while (y >= p->n);
	return y;
}

/*
 * Where each hop of a chain is, and which hop each slot is: every pattern is
 * a pair of functions between hop numbers (0..nslots-1, hop 0 the start)
 * and byte offsets in the buffer.
 *   random  hop p at slot perm(p) over every slot.
 *   tlb     hop p = q * spw + t: window order(q), slot perm_w(t) inside it,
 *           perm_w keyed by the seed and the window.
 *   page    hop p: page order(p), at a line of that page chosen by a hash
 *           of the seed and the page (so the slots spread over every cache
 *           set rather than the few that offset 0 maps to).
 *   seq, stride:N  hop p = pass * blocks + b: block b, line pass.
 */
struct geom {
	enum chase_pattern pattern;
	uint64_t n;		/* slots on the chain */
	uint64_t units;		/* what the builder walks in address order:
				 * pages for page, slots otherwise */
	uint64_t win, spw, nw;	/* tlb and page: window bytes, slots per window, windows */
	uint64_t stride, blocks;	/* seq and stride */
	struct perm order;	/* random: of the slots; tlb and page: of the windows */
	uint64_t wseed;		/* tlb: seeds perm_w; page: the line of each page */
	unsigned wh;		/* tlb: perm_w's half bits */
};

static int geom_init(struct geom *g, uint64_t bytes, const struct chase_spec *spec)
{
	int64_t n = chase_slots(bytes, spec);
	uint64_t seed = spec->seed;

	if (n < 0)
		return (int)n;
	memset(g, 0, sizeof(*g));
	g->pattern = spec->pattern;
	g->n = (uint64_t)n;
	g->units = g->n;
	switch (spec->pattern) {
	case CHASE_RANDOM:
		perm_init(&g->order, g->n, perm_half_bits(g->n), seed);
		break;
	case CHASE_SEQ:
	case CHASE_STRIDE:
		g->stride = spec->pattern == CHASE_SEQ ? CHASE_SLOT : spec->param;
		g->blocks = bytes / g->stride;
		break;
	case CHASE_TLB:
	case CHASE_PAGE:
		g->win = spec->param;
		g->spw = g->win / CHASE_SLOT;
		g->nw = bytes / g->win;
		perm_init(&g->order, g->nw, perm_half_bits(g->nw), seed);
		g->wseed = splitmix64(&seed);
		g->wh = perm_half_bits(g->spw);
		break;
	}
	return 0;
}

/* tlb: the order of the slots inside window w. */
static inline void window_perm(const struct geom *g, uint64_t w, struct perm *p)
{
	perm_init(p, g->spw, g->wh, g->wseed ^ (w * 0xd6e8feb86659fd93ull));
}

/* page: the line of page w that is on the chain. */
static inline uint64_t page_line(const struct geom *g, uint64_t w)
{
	uint64_t x = g->wseed ^ (w * 0xd6e8feb86659fd93ull);

	return (uint64_t)(((unsigned __int128)splitmix64(&x) * g->spw) >> 64);
}

static uint64_t geom_offset_at(const struct geom *g, uint64_t pos)
{
	struct perm pw;
	uint64_t w;

	switch (g->pattern) {
	case CHASE_RANDOM:
		return perm_fwd(&g->order, pos) * CHASE_SLOT;
	case CHASE_TLB:
		w = perm_fwd(&g->order, pos / g->spw);
		window_perm(g, w, &pw);
		return w * g->win + perm_fwd(&pw, pos % g->spw) * CHASE_SLOT;
	case CHASE_PAGE:
		w = perm_fwd(&g->order, pos);
		return w * g->win + page_line(g, w) * CHASE_SLOT;
	case CHASE_SEQ:
	case CHASE_STRIDE:
		break;
	}
	return pos % g->blocks * g->stride + pos / g->blocks * CHASE_SLOT;
}

/* The hop of the slot at off, which must be on the chain. */
static uint64_t geom_pos_of(const struct geom *g, uint64_t off)
{
	struct perm pw;
	uint64_t w;

	switch (g->pattern) {
	case CHASE_RANDOM:
		return perm_inv(&g->order, off / CHASE_SLOT);
	case CHASE_TLB:
		w = off / g->win;
		window_perm(g, w, &pw);
		return perm_inv(&g->order, w) * g->spw + perm_inv(&pw, off % g->win / CHASE_SLOT);
	case CHASE_PAGE:
		return perm_inv(&g->order, off / g->win);
	case CHASE_SEQ:
	case CHASE_STRIDE:
		break;
	}
	return off % g->stride / CHASE_SLOT * g->blocks + off / g->stride;
}

/* The slot of unit u, in address order: page u's line for page, slot u otherwise. */
static inline uint64_t geom_unit_offset(const struct geom *g, uint64_t u)
{
	if (g->pattern == CHASE_PAGE)
		return u * g->win + page_line(g, u) * CHASE_SLOT;
	return u * CHASE_SLOT;
}

int64_t chase_slots(uint64_t bytes, const struct chase_spec *spec)
{
	uint64_t p = spec->param;

	if (bytes < 2 * CHASE_SLOT || bytes % CHASE_SLOT)
		return -EINVAL;
	switch (spec->pattern) {
	case CHASE_RANDOM:
	case CHASE_SEQ:
		return (int64_t)(bytes / CHASE_SLOT);
	case CHASE_STRIDE:
		if (!p || p % CHASE_SLOT || p > bytes / 2 || bytes % p)
			return -EINVAL;
		return (int64_t)(bytes / CHASE_SLOT);
	case CHASE_TLB:
		if (!p || p % CHASE_SLOT || p > bytes || bytes % p)
			return -EINVAL;
		return (int64_t)(bytes / CHASE_SLOT);
	case CHASE_PAGE:
		if (!p || p % CHASE_SLOT || bytes % p || bytes / p < 2)
			return -EINVAL;
		return (int64_t)(bytes / p);
	}
	return -EINVAL;
}

int64_t chase_offset_at(uint64_t bytes, const struct chase_spec *spec, uint64_t hop)
{
	struct geom g;
	int err = geom_init(&g, bytes, spec);

	if (err)
		return err;
	return (int64_t)geom_offset_at(&g, hop % g.n);
}

/*
 * tlb: slots lo..hi-1 as geom_pos_of() and geom_offset_at() link them, with
 * the window's permutation made once per window rather than twice a slot.
 */
static int64_t build_windows(char *base, const struct geom *g, uint64_t lo, uint64_t hi,
			     const volatile sig_atomic_t *cancel)
{
	uint64_t w = UINT64_MAX, q = 0;
	struct perm pw = { 0 }, pnext;

	for (uint64_t u = lo; u < hi; u++) {
		uint64_t off = u * CHASE_SLOT, t, next;

		if (chase_stop_asked(cancel, u - lo))
			return -EINTR;
		if (off / g->win != w) {
			w = off / g->win;
			q = perm_inv(&g->order, w);
			window_perm(g, w, &pw);
		}
		t = perm_inv(&pw, off % g->win / CHASE_SLOT);
		if (t + 1 < g->spw) {
			next = w * g->win + perm_fwd(&pw, t + 1) * CHASE_SLOT;
		} else {
			uint64_t w2 = perm_fwd(&g->order, q + 1 == g->nw ? 0 : q + 1);

			window_perm(g, w2, &pnext);
			next = w2 * g->win + perm_fwd(&pnext, 0) * CHASE_SLOT;
		}
		*(void **)(base + off) = base + next;
	}
	return (int64_t)g->n;
}

int64_t chase_build_part(void *buf, uint64_t bytes, const struct chase_spec *spec,
			 unsigned part, unsigned nparts, const volatile sig_atomic_t *cancel)
{
	char *base = buf;
	struct geom g;
	uint64_t lo, hi;
	int err = geom_init(&g, bytes, spec);

	if (err)
		return err;
	if (!nparts || part >= nparts || (uintptr_t)buf % CHASE_SLOT)
		return -EINVAL;
	/* Contiguous shares of the units: each thread writes its own pages. */
	lo = (uint64_t)((unsigned __int128)g.units * part / nparts);
	hi = (uint64_t)((unsigned __int128)g.units * (part + 1) / nparts);
	if (g.pattern == CHASE_TLB)
		return build_windows(base, &g, lo, hi, cancel);
	for (uint64_t u = lo; u < hi; u++) {
		uint64_t off = geom_unit_offset(&g, u), pos = geom_pos_of(&g, off);

		if (chase_stop_asked(cancel, u - lo))
			return -EINTR;
		*(void **)(base + off) = base + geom_offset_at(&g, pos + 1 == g.n ? 0 : pos + 1);
	}
	return (int64_t)g.n;
}

int64_t chase_build(void *buf, uint64_t bytes, const struct chase_spec *spec,
		    void **start, const volatile sig_atomic_t *cancel)
{
	int64_t n = chase_build_part(buf, bytes, spec, 0, 1, cancel);

	if (n > 0)
		*start = (char *)buf + chase_offset_at(bytes, spec, 0);
	return n;
}

/*
 * Up to CHASE_CHECK_HEADS pieces walked together by one thread: their loads
 * do not depend on one another, so as many misses are in flight at once.
 */
#define CHASE_CHECK_HEADS 16

/*
 * Walk k pieces together: piece j from p[j] for len[j] hops must end at
 * end[j]; every link inside the buffer and on a slot; none back to start
 * before hop n (a shorter cycle), which only the piece ending the cycle
 * (last[j]) reaches, at its last hop.
 */
static int walk_pieces(char *base, uint64_t bytes, const char *start, unsigned k, char **p,
		       char *const *end, const uint64_t *len, const bool *last,
		       const volatile sig_atomic_t *cancel)
{
	uint64_t longest = 0;

	for (unsigned j = 0; j < k; j++)
		longest = len[j] > longest ? len[j] : longest;
	for (uint64_t i = 0; i < longest; i++) {
		if (chase_stop_asked(cancel, i))
			return -EINTR;
		for (unsigned j = 0; j < k; j++) {
			char *q;

			if (i >= len[j])
				continue;
			q = *(char **)p[j];
			if (q < base || q >= base + bytes || (uint64_t)(q - base) % CHASE_SLOT)
				return -EINVAL;
			if (q == start && !(i + 1 == len[j] && last[j]))
				return -EINVAL;
			p[j] = q;
		}
	}
	for (unsigned j = 0; j < k; j++)
		if (p[j] != end[j])
			return -EINVAL;
	return 0;
}

int chase_check_span(void *buf, uint64_t bytes, const struct chase_spec *spec,
		     uint64_t from, uint64_t to, const volatile sig_atomic_t *cancel)
{
	char *base = buf, *start, *p[CHASE_CHECK_HEADS], *end[CHASE_CHECK_HEADS];
	uint64_t len[CHASE_CHECK_HEADS];
	bool last[CHASE_CHECK_HEADS];
	struct geom g;
	unsigned k;
	int err = geom_init(&g, bytes, spec);

	if (err)
		return err;
	if (from >= to || to > g.n)
		return -EINVAL;
	start = base + geom_offset_at(&g, 0);
	k = to - from < CHASE_CHECK_HEADS ? (unsigned)(to - from) : CHASE_CHECK_HEADS;
	for (unsigned j = 0; j < k; j++) {
		uint64_t a = from + (to - from) * j / k, b = from + (to - from) * (j + 1) / k;

		p[j] = base + geom_offset_at(&g, a);
		end[j] = base + geom_offset_at(&g, b == g.n ? 0 : b);
		len[j] = b - a;
		last[j] = b == g.n;
	}
	return walk_pieces(base, bytes, start, k, p, end, len, last, cancel);
}

/* ---- chains derived from one random cycle over the largest working set ---- */

int chase_order_part(uint64_t bytes, const struct chase_spec *spec, uint32_t *order,
		     uint64_t from, uint64_t to, const volatile sig_atomic_t *cancel)
{
	struct perm pw = { 0 };
	uint64_t w = 0, q = UINT64_MAX;
	struct geom g;
	int err;

	if (spec->pattern != CHASE_RANDOM && spec->pattern != CHASE_TLB)
		return -EINVAL;
	err = geom_init(&g, bytes, spec);
	if (err)
		return err;
	if (g.n > UINT32_MAX || from > to || to > g.n)
		return -EINVAL;
	for (uint64_t p = from; p < to; p++) {
		if (chase_stop_asked(cancel, p - from))
			return -EINTR;
		if (g.pattern == CHASE_RANDOM) {
			order[p] = (uint32_t)perm_fwd(&g.order, p);
			continue;
		}
		/* tlb: the window's permutation made once per window, as build_windows does. */
		if (p / g.spw != q) {
			q = p / g.spw;
			w = perm_fwd(&g.order, q);
			window_perm(&g, w, &pw);
		}
		order[p] = (uint32_t)(w * g.spw + perm_fwd(&pw, p % g.spw));
	}
	return 0;
}

int64_t chase_derive(void *buf, uint64_t bytes, const uint32_t *order, uint64_t norder,
		     uint32_t *next, uint64_t *marks, unsigned nmarks,
		     const volatile sig_atomic_t *cancel)
{
	uint64_t m = bytes / CHASE_SLOT, kept = 0, mark = 0;
	uint32_t first = 0, prev = 0;
	char *base = buf;

	if (bytes < 2 * CHASE_SLOT || bytes % CHASE_SLOT || m > norder || !nmarks ||
	    (uintptr_t)buf % CHASE_SLOT)
		return -EINVAL;
	/*
	 * The big cycle in its order, keeping the slots below m: each kept slot
	 * is the successor of the one kept before it.  The successors go to
	 * next[], 4 bytes a slot, rather than straight into the buffer: that
	 * scatter then touches 16 times fewer pages and lines.
	 */
	for (uint64_t p = 0; p < norder; p++) {
		uint32_t x = order[p];

		if (chase_stop_asked(cancel, p))
			return -EINTR;
		if (x >= m)
			continue;
		/* The slots at hops j m / nmarks of the derived cycle. */
		while (mark < nmarks && kept == m * mark / nmarks)
			marks[mark++] = (uint64_t)x * CHASE_SLOT;
		if (kept)
			next[prev] = x;
		else
			first = x;
		prev = x;
		kept++;
	}
	/* Not m slots: order was not a permutation over the slots (the check would fail too). */
	if (kept != m)
		return -EINVAL;
	next[prev] = first;
	/* The links in address order, from next[]. */
	for (uint64_t x = 0; x < m; x++) {
		if (chase_stop_asked(cancel, x))
			return -EINTR;
		*(void **)(base + x * CHASE_SLOT) = base + (uint64_t)next[x] * CHASE_SLOT;
	}
	return (int64_t)m;
}

int chase_check_marks(void *buf, uint64_t bytes, uint64_t nslots, const uint64_t *marks,
		      unsigned nmarks, unsigned from, unsigned to,
		      const volatile sig_atomic_t *cancel)
{
	char *base = buf, *p[CHASE_CHECK_HEADS], *end[CHASE_CHECK_HEADS];
	uint64_t len[CHASE_CHECK_HEADS];
	bool last[CHASE_CHECK_HEADS];
	unsigned k = to - from;

	if (from >= to || to > nmarks || k > CHASE_CHECK_HEADS || nslots < nmarks ||
	    nslots > bytes / CHASE_SLOT)
		return -EINVAL;
	for (unsigned j = 0; j < nmarks; j++)
		if (marks[j] >= bytes || marks[j] % CHASE_SLOT)
			return -EINVAL;
	for (unsigned j = 0; j < k; j++) {
		unsigned a = from + j;

		p[j] = base + marks[a];
		end[j] = base + marks[a + 1 == nmarks ? 0 : a + 1];
		len[j] = nslots * (a + 1) / nmarks - nslots * a / nmarks;
		last[j] = a + 1 == nmarks;
	}
	return walk_pieces(base, bytes, base + marks[0], k, p, end, len, last, cancel);
}

/* ---- a derived chain written from its order and checked without a walk ---- */

#define CHASE_NO_NEXT UINT32_MAX

int chase_link_part(void *buf, uint64_t m, const uint32_t *order, uint32_t *next,
		    enum chase_link_step step, uint64_t from, uint64_t to,
		    const volatile sig_atomic_t *cancel)
{
	char *base = buf;

	if (m < 2 || m > CHASE_NO_NEXT || from > to || to > m || (uintptr_t)buf % CHASE_SLOT)
		return -EINVAL;
	for (uint64_t i = from; i < to; i++) {
		if (chase_stop_asked(cancel, i - from))
			return -EINTR;
		switch (step) {
		case CHASE_LINK_CLEAR:
			next[i] = CHASE_NO_NEXT;
			break;
		case CHASE_LINK_SCATTER: {
			uint32_t x = order[i], y = order[i + 1 == m ? 0 : i + 1];

			if (x >= m || y >= m)
				return -EINVAL;
			next[x] = y;
			break;
		}
		case CHASE_LINK_WRITE:
			/* SCATTER writes only values below m: anything else is none. */
			if (next[i] >= m)
				return -EINVAL;
			*(void **)(base + i * CHASE_SLOT) = base + (uint64_t)next[i] * CHASE_SLOT;
			break;
		case CHASE_LINK_VERIFY:
			if (*(void *volatile *)(base + i * CHASE_SLOT) !=
			    base + (uint64_t)next[i] * CHASE_SLOT)
				return -EINVAL;
			break;
		default:
			return -EINVAL;
		}
	}
	return 0;
}

int chase_rebase_part(void *buf, uint64_t m, const void *old, uint64_t from, uint64_t to,
		      uint64_t *bad, const volatile sig_atomic_t *cancel)
{
	char *base = buf;
	uintptr_t lo = (uintptr_t)old, delta = (uintptr_t)buf - lo;

	if (m < 2 || from > to || to > m || (uintptr_t)buf % CHASE_SLOT || lo % CHASE_SLOT)
		return -EINVAL;
	for (uint64_t x = from; x < to; x++) {
		void **slot = (void **)(base + x * CHASE_SLOT);
		uintptr_t link = (uintptr_t)*slot, off = link - lo;

		if (chase_stop_asked(cancel, x - from))
			return -EINTR;
		/* Below old wraps off past every slot: one compare covers both ends. */
		if (off >= m * CHASE_SLOT || off % CHASE_SLOT) {
			*bad = x;
			return -EINVAL;
		}
		*slot = (void *)(link + delta);
	}
	return 0;
}

int64_t chase_order_keep(const uint32_t *in, uint64_t nin, uint64_t m, uint32_t *out,
			 const volatile sig_atomic_t *cancel)
{
	uint64_t kept = 0;

	for (uint64_t p = 0; p < nin; p++) {
		if (chase_stop_asked(cancel, p))
			return -EINTR;
		if (in[p] >= m)
			continue;
		if (kept == m)
			return -EINVAL;
		out[kept++] = in[p];
	}
	return (int64_t)kept;
}
