// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_chase_derive.c - chains derived from one random cycle (chase.h):
 * for several working sets, each derived chain is one cycle through
 * exactly the slots of its working set (walked here with a visit bitmap,
 * not trusting chase_check_marks), it visits them in the order the random
 * chain built directly over the largest working set does (walked from
 * chase_build's start), its marks are where its hops say, and its
 * successors are as uniform as those of a chain built directly over the
 * same working set (the same chi-square test on both).  chase_check_marks
 * passes the chains and refuses a shorter cycle and a link out of the
 * working set.  Chains written from an order by chase_link_part, whose
 * passes are also their check: a cycle worked out by hand; each working
 * set's order cut from the next larger one's (chase_order_keep), walked
 * with a visit bitmap as above and through the same chi-square test; and
 * the refusals (a slot twice, one out of range, a page mapped twice).
 * Chains moved to another mapping of the same frames by chase_rebase_part:
 * a cycle by hand copied to a second buffer; a derived chain through one
 * mapping of a memfd rebased into a second mapping, walked there with a
 * visit bitmap in the order it was written in; and the refusals (a link
 * past the working set, below it, off a slot boundary), each naming its
 * slot.
 */
#include "unit.h"
#include "chase.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define BUF (1u << 20)
#define NSLOTS (BUF / CHASE_SLOT)
#define NMARKS 16

static char *buf;
static uint32_t *order, *next, *lv_scratch;

static int setup(void **state)
{
	(void)state;
	buf = aligned_alloc(4096, BUF);
	order = calloc(NSLOTS, sizeof(*order));
	next = calloc(NSLOTS, sizeof(*next));
	lv_scratch = calloc(NSLOTS, sizeof(*lv_scratch));
	return buf && order && next && lv_scratch ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	free(buf);
	free(order);
	free(next);
	free(lv_scratch);
	return 0;
}

static const struct chase_spec big = { .pattern = CHASE_RANDOM, .seed = 7 };

/* The big cycle's order, in three parts as three threads would fill it. */
static void fill_order(void)
{
	for (unsigned t = 0; t < 3; t++)
		assert_int_equal(chase_order_part(BUF, &big, order, (uint64_t)NSLOTS * t / 3,
						  (uint64_t)NSLOTS * (t + 1) / 3, NULL), 0);
}

/* The slots below m in the order of the chain built directly over BUF. */
static uint64_t direct_kept(uint64_t m, uint64_t *out)
{
	void *start;
	char *p;
	uint64_t k = 0;

	assert_int_equal(chase_build(buf, BUF, &big, &start, NULL), NSLOTS);
	p = start;
	for (uint64_t i = 0; i < NSLOTS; i++) {
		uint64_t x = (uint64_t)(p - buf) / CHASE_SLOT;

		if (x < m)
			out[k++] = x;
		p = *(char **)p;
	}
	return k;
}

/*
 * Chi-square of the successor pairs over 8 x 8 cells (the slot's eighth of
 * the working set against its successor's): 63 degrees of freedom, refused
 * above 103.4 (p = 0.001).  A chain with structure (successors near, or in
 * a fixed part) piles into few cells.
 */
static double pair_chi2(void *start, uint64_t m)
{
	uint64_t cell[64] = { 0 };
	double e = (double)m / 64, chi = 0;
	char *p = start;

	for (uint64_t i = 0; i < m; i++) {
		char *q = *(char **)p;
		uint64_t a = (uint64_t)(p - buf) / CHASE_SLOT * 8 / m, b = (uint64_t)(q - buf) / CHASE_SLOT * 8 / m;

		cell[a * 8 + b]++;
		p = q;
	}
	for (int c = 0; c < 64; c++)
		chi += ((double)cell[c] - e) * ((double)cell[c] - e) / e;
	return chi;
}

/*
 * Walk m hops from start with a visit bitmap: every hop a slot of the
 * first bytes, none twice, hop i at slot kept[i], back at start after m.
 */
static void walk_kept(char *start, uint64_t m, uint64_t bytes, const uint64_t *kept,
		      unsigned char *seen)
{
	char *p = start;

	memset(seen, 0, NSLOTS);
	for (uint64_t i = 0; i < m; i++) {
		uint64_t x = (uint64_t)(p - buf) / CHASE_SLOT;

		assert_true(p >= buf && p < buf + bytes && (uint64_t)(p - buf) % CHASE_SLOT == 0);
		assert_int_equal(seen[x], 0);
		seen[x] = 1;
		if (x != kept[i])
			fail_msg("%llu slots: hop %llu at slot %llu, the big chain keeps %llu there",
				 (unsigned long long)m, (unsigned long long)i, (unsigned long long)x,
				 (unsigned long long)kept[i]);
		p = *(char **)p;
	}
	assert_ptr_equal(p, start);
}

static void test_derived_cycles(void **state)
{
	static const uint64_t sizes[] = { 128, 4096, 64 * 1024, 256 * 1024, 512 * 1024, BUF };
	uint64_t *kept = calloc(NSLOTS, sizeof(*kept));
	unsigned char *seen = calloc(NSLOTS, 1);

	(void)state;
	fill_order();
	for (size_t z = 0; z < sizeof(sizes) / sizeof(sizes[0]); z++) {
		uint64_t m = sizes[z] / CHASE_SLOT, marks[NMARKS], nk = direct_kept(m, kept);
		unsigned nm = m < NMARKS ? (unsigned)m : NMARKS;

		assert_int_equal(nk, m);
		memset(buf, 0xa5, BUF);
		assert_int_equal(chase_derive(buf, sizes[z], order, NSLOTS, next, marks, nm, NULL), (int64_t)m);
		/* One cycle through exactly slots 0..m-1, in the big chain's order. */
		walk_kept(buf + marks[0], m, sizes[z], kept, seen);
		for (unsigned j = 0; j < nm; j++)
			assert_int_equal(marks[j], kept[m * j / nm] * CHASE_SLOT);
		/* Nothing beyond the working set written. */
		if (sizes[z] < BUF)
			assert_int_equal((unsigned char)buf[sizes[z]], 0xa5);
		/* The check, in two spans of pieces as two threads would. */
		assert_int_equal(chase_check_marks(buf, sizes[z], m, marks, nm, 0, nm / 2, NULL) ||
				 chase_check_marks(buf, sizes[z], m, marks, nm, nm / 2, nm, NULL), 0);
	}
	free(kept);
	free(seen);
}

static void test_derived_random(void **state)
{
	static const uint64_t sizes[] = { 64 * 1024, 256 * 1024, 512 * 1024 };

	(void)state;
	fill_order();
	for (size_t z = 0; z < sizeof(sizes) / sizeof(sizes[0]); z++) {
		uint64_t m = sizes[z] / CHASE_SLOT, marks[NMARKS];
		struct chase_spec own = { .pattern = CHASE_RANDOM, .seed = 7 };
		void *start;
		double chi_direct, chi_derived;

		assert_int_equal(chase_build(buf, sizes[z], &own, &start, NULL), (int64_t)m);
		chi_direct = pair_chi2(start, m);
		assert_int_equal(chase_derive(buf, sizes[z], order, NSLOTS, next, marks, NMARKS, NULL),
				 (int64_t)m);
		chi_derived = pair_chi2(buf + marks[0], m);
		if (chi_direct > 103.4 || chi_derived > 103.4)
			fail_msg("%llu slots: successor chi-square %.1f built directly, %.1f derived (limit 103.4)",
				 (unsigned long long)m, chi_direct, chi_derived);
	}
	/* The test sees structure: a sequential chain fails it. */
	{
		struct chase_spec seq = { .pattern = CHASE_SEQ };
		void *start;

		chase_build(buf, BUF, &seq, &start, NULL);
		assert_true(pair_chi2(start, NSLOTS) > 103.4);
	}
}

static void test_check_marks_refuses(void **state)
{
	uint64_t m = 4096, marks[NMARKS], saved;
	char *p;

	(void)state;
	fill_order();
	assert_int_equal(chase_derive(buf, m * CHASE_SLOT, order, NSLOTS, next, marks, NMARKS, NULL), (int64_t)m);
	assert_int_equal(chase_check_marks(buf, m * CHASE_SLOT, m, marks, NMARKS, 0, NMARKS, NULL), 0);
	/* A slot linked back to hop 0 half-way: a shorter cycle. */
	p = buf + marks[NMARKS / 2];
	saved = *(uint64_t *)p;
	*(char **)p = buf + marks[0];
	assert_int_equal(chase_check_marks(buf, m * CHASE_SLOT, m, marks, NMARKS, 0, NMARKS, NULL), -EINVAL);
	/* A link out of the working set. */
	*(char **)p = buf + m * CHASE_SLOT;
	assert_int_equal(chase_check_marks(buf, m * CHASE_SLOT, m, marks, NMARKS, 0, NMARKS, NULL), -EINVAL);
	*(uint64_t *)p = saved;
	assert_int_equal(chase_check_marks(buf, m * CHASE_SLOT, m, marks, NMARKS, 0, NMARKS, NULL), 0);
	/* An order that holds a slot twice and misses another: the check refuses its chain. */
	order[0] = order[1];
	assert_int_equal(chase_derive(buf, BUF, order, NSLOTS, next, marks, NMARKS, NULL), NSLOTS);
	assert_int_equal(chase_check_marks(buf, BUF, NSLOTS, marks, NMARKS, 0, NMARKS, NULL), -EINVAL);
	/* One that misses slots below m derives nothing. */
	order[2] = NSLOTS - 1;
	assert_int_equal(chase_derive(buf, BUF / 2, order, NSLOTS, next, marks, NMARKS, NULL), -EINVAL);
}

/* ---- chains written from their order and checked in the same passes (chase_link_part) ---- */

/* Every step over [0, m) in nparts parts, as so many threads would; the first error. */
static int link_all(char *b, uint64_t m, const uint32_t *ord, unsigned nparts)
{
	static const enum chase_link_step steps[] = {
		CHASE_LINK_CLEAR, CHASE_LINK_SCATTER, CHASE_LINK_WRITE, CHASE_LINK_VERIFY,
	};

	for (size_t k = 0; k < sizeof(steps) / sizeof(steps[0]); k++)
		for (unsigned t = 0; t < nparts; t++) {
			int err = chase_link_part(b, m, ord, next, steps[k], m * t / nparts,
						  m * (t + 1) / nparts, NULL);

			if (err)
				return err;
		}
	return 0;
}

/* A cycle worked out by hand: order 2 0 3 1 links 2 to 0, 0 to 3, 3 to 1 and 1 back to 2. */
static void test_link_by_hand(void **state)
{
	static const uint32_t ord[] = { 2, 0, 3, 1 };
	static const unsigned want[4] = { 3, 2, 0, 1 };	/* slot x links to slot want[x] */

	(void)state;
	memset(buf, 0xa5, BUF);
	assert_int_equal(link_all(buf, 4, ord, 2), 0);
	for (unsigned x = 0; x < 4; x++)
		assert_ptr_equal(*(char **)(buf + x * CHASE_SLOT), buf + want[x] * CHASE_SLOT);
	assert_int_equal((unsigned char)buf[4 * CHASE_SLOT], 0xa5);
}

/*
 * Each working set's order cut from the next larger one's (as a sweep
 * does), its chain written in three parts: walked here with a visit
 * bitmap, one cycle through exactly its slots in the order of the chain
 * built directly over the largest, nothing beyond it written, and its
 * successors as uniform as a directly built chain's (pair_chi2).
 */
static void test_link_levels(void **state)
{
	static const uint64_t sizes[] = { BUF, 512 * 1024, 256 * 1024, 64 * 1024, 4096, 128 };
	uint64_t *kept = calloc(NSLOTS, sizeof(*kept));
	unsigned char *seen = calloc(NSLOTS, 1);
	uint32_t *lv = calloc(NSLOTS, sizeof(*lv)), *up = calloc(NSLOTS, sizeof(*up));

	(void)state;
	fill_order();
	memcpy(up, order, NSLOTS * sizeof(*order));
	for (size_t z = 0; z < sizeof(sizes) / sizeof(sizes[0]); z++) {
		uint64_t m = sizes[z] / CHASE_SLOT, nup = z ? sizes[z - 1] / CHASE_SLOT : NSLOTS,
			 nk = direct_kept(m, kept);

		assert_int_equal(chase_order_keep(up, nup, m, lv, NULL), (int64_t)m);
		assert_int_equal(nk, m);
		memset(buf, 0xa5, BUF);
		assert_int_equal(link_all(buf, m, lv, 3), 0);
		walk_kept(buf + (uint64_t)lv[0] * CHASE_SLOT, m, sizes[z], kept, seen);
		if (sizes[z] < BUF)
			assert_int_equal((unsigned char)buf[sizes[z]], 0xa5);
		if (m >= 1024) {
			struct chase_spec own = { .pattern = CHASE_RANDOM, .seed = 7 };
			double chi_linked = pair_chi2(buf + (uint64_t)lv[0] * CHASE_SLOT, m), chi_direct;
			void *start;

			assert_int_equal(chase_build(buf, sizes[z], &own, &start, NULL), (int64_t)m);
			chi_direct = pair_chi2(start, m);
			if (chi_direct > 103.4 || chi_linked > 103.4)
				fail_msg("%llu slots: successor chi-square %.1f built directly, %.1f written from the order (limit 103.4)",
					 (unsigned long long)m, chi_direct, chi_linked);
		}
		memcpy(up, lv, m * sizeof(*lv));
	}
	free(kept);
	free(seen);
	free(lv);
	free(up);
}

/*
 * A tlb chain's own order (chase_order_part, three parts), written by
 * chase_link_part: byte for byte the chain chase_build writes, and hop 0
 * where chase_offset_at says; the order of the random chain likewise.
 */
static void test_link_own(void **state)
{
	static const struct chase_spec specs[] = {
		{ .pattern = CHASE_TLB, .param = 64 * 1024, .seed = 3 },
		{ .pattern = CHASE_TLB, .param = 4096, .seed = 9 },
		{ .pattern = CHASE_RANDOM, .seed = 5 },
	};
	char *direct = aligned_alloc(4096, BUF);
	void *start;

	(void)state;
	assert_non_null(direct);
	for (size_t k = 0; k < sizeof(specs) / sizeof(specs[0]); k++) {
		for (unsigned t = 0; t < 3; t++)
			assert_int_equal(chase_order_part(BUF, &specs[k], lv_scratch, (uint64_t)NSLOTS * t / 3,
							  (uint64_t)NSLOTS * (t + 1) / 3, NULL), 0);
		assert_int_equal(chase_build(direct, BUF, &specs[k], &start, NULL), NSLOTS);
		assert_int_equal(link_all(buf, NSLOTS, lv_scratch, 3), 0);
		assert_int_equal((uint64_t)lv_scratch[0] * CHASE_SLOT,
				 (uint64_t)chase_offset_at(BUF, &specs[k], 0));
		/* The links are pointers into their own buffer: compare them as offsets. */
		for (uint64_t x = 0; x < NSLOTS; x++)
			if (*(char **)(buf + x * CHASE_SLOT) - buf != *(char **)(direct + x * CHASE_SLOT) - direct)
				fail_msg("spec %zu: slot %llu links elsewhere than chase_build's", k,
					 (unsigned long long)x);
	}
	/* Other patterns have no order here. */
	{
		struct chase_spec seq = { .pattern = CHASE_SEQ };

		assert_int_equal(chase_order_part(BUF, &seq, lv_scratch, 0, NSLOTS, NULL), -EINVAL);
	}
	free(direct);
}

/* What the passes refuse: no permutation, a slot out of range, memory that does not hold the links. */
static void test_link_refuses(void **state)
{
	uint32_t ord[8] = { 5, 1, 7, 0, 3, 6, 2, 4 }, more[9] = { 5, 1, 7, 0, 3, 6, 2, 4, 1 };
	long pg = sysconf(_SC_PAGESIZE);
	int fd = memfd_create("test_chase_derive", 0);
	char *twice;

	(void)state;
	assert_int_equal(link_all(buf, 8, ord, 2), 0);
	/* A slot twice and one missing (the walk would find a shorter cycle). */
	ord[6] = 5;
	assert_int_equal(link_all(buf, 8, ord, 2), -EINVAL);
	/* A slot beyond the working set. */
	ord[6] = 8;
	assert_int_equal(link_all(buf, 8, ord, 2), -EINVAL);
	/* More slots below m than m: no order. */
	assert_int_equal(chase_order_keep(more, 9, 8, lv_scratch, NULL), -EINVAL);
	/*
	 * The same page mapped twice, one after the other: the links written
	 * through the second copy overwrite the first's, which the read-back
	 * sees (a walk would find a shorter cycle or a wrong end).
	 */
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, pg), 0);
	twice = mmap(NULL, 2 * (size_t)pg, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(twice != MAP_FAILED);
	assert_true(mmap(twice, (size_t)pg, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) == twice);
	assert_true(mmap(twice + pg, (size_t)pg, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) ==
		    twice + pg);
	{
		uint64_t m = 2 * (uint64_t)pg / CHASE_SLOT;

		fill_order();
		assert_int_equal(chase_order_keep(order, NSLOTS, m, lv_scratch, NULL), (int64_t)m);
		assert_int_equal(link_all(twice, m, lv_scratch, 2), -EINVAL);
		/* The same chain over one copy is fine. */
		assert_int_equal(chase_order_keep(order, NSLOTS, m / 2, lv_scratch, NULL), (int64_t)(m / 2));
		assert_int_equal(link_all(twice, m / 2, lv_scratch, 2), 0);
	}
	munmap(twice, 2 * (size_t)pg);
	close(fd);
}

/* ---- a chain moved to another mapping of the same frames (chase_rebase_part) ---- */

/* Rebase [0, m) of b from old in nparts parts, as so many threads would; the first error. */
static int rebase_all(char *b, uint64_t m, const char *old, unsigned nparts, uint64_t *bad)
{
	for (unsigned t = 0; t < nparts; t++) {
		int err = chase_rebase_part(b, m, old, m * t / nparts, m * (t + 1) / nparts, bad, NULL);

		if (err)
			return err;
	}
	return 0;
}

/* The cycle by hand (order 2 0 3 1) written in buf, copied byte for byte to a second buffer and rebased there. */
static void test_rebase_by_hand(void **state)
{
	static const uint32_t ord[] = { 2, 0, 3, 1 };
	static const unsigned want[4] = { 3, 2, 0, 1 };
	char *b = aligned_alloc(4096, 4096);
	uint64_t bad = 99;

	(void)state;
	assert_non_null(b);
	assert_int_equal(link_all(buf, 4, ord, 1), 0);
	memset(b, 0xa5, 4096);
	memcpy(b, buf, 4 * CHASE_SLOT);
	assert_int_equal(rebase_all(b, 4, buf, 2, &bad), 0);
	assert_int_equal(bad, 99);
	for (unsigned x = 0; x < 4; x++)
		assert_ptr_equal(*(char **)(b + x * CHASE_SLOT), b + want[x] * CHASE_SLOT);
	/* Nothing past the working set is touched, and the source is left as it was. */
	assert_int_equal((unsigned char)b[4 * CHASE_SLOT], 0xa5);
	for (unsigned x = 0; x < 4; x++)
		assert_ptr_equal(*(char **)(buf + x * CHASE_SLOT), buf + want[x] * CHASE_SLOT);
	free(b);
}

/*
 * Two mappings of one memfd, the same frames at two addresses: a derived
 * chain over half of it written and checked through the first, rebased
 * in three parts into the second, is there one cycle through exactly the
 * second's m slots, hop h at slot lv[h] (the order it was written from),
 * every link inside them; the half beyond is not written.
 */
static void test_rebase_views(void **state)
{
	int fd = memfd_create("test_chase_rebase", 0);
	uint64_t m = NSLOTS / 2, bad = 0;
	unsigned char *seen = calloc(NSLOTS, 1);
	char *va, *vb, *p;

	(void)state;
	assert_true(fd >= 0 && seen);
	assert_int_equal(ftruncate(fd, BUF), 0);
	va = mmap(NULL, BUF, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	vb = mmap(NULL, BUF, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	assert_true(va != MAP_FAILED && vb != MAP_FAILED && va != vb);
	memset(va, 0xa5, BUF);
	fill_order();
	assert_int_equal(chase_order_keep(order, NSLOTS, m, lv_scratch, NULL), (int64_t)m);
	assert_int_equal(link_all(va, m, lv_scratch, 3), 0);
	assert_int_equal(rebase_all(vb, m, va, 3, &bad), 0);
	p = vb + (uint64_t)lv_scratch[0] * CHASE_SLOT;
	for (uint64_t h = 0; h < m; h++) {
		uint64_t off = (uint64_t)(p - vb);

		if (p < vb || off >= m * CHASE_SLOT || off % CHASE_SLOT)
			fail_msg("hop %llu: %p is not one of the second view's slots",
				 (unsigned long long)h, (void *)p);
		if (off / CHASE_SLOT != lv_scratch[h])
			fail_msg("hop %llu at slot %llu, the order says %u", (unsigned long long)h,
				 (unsigned long long)(off / CHASE_SLOT), lv_scratch[h]);
		if (seen[off / CHASE_SLOT]++)
			fail_msg("hop %llu: slot %llu twice", (unsigned long long)h,
				 (unsigned long long)(off / CHASE_SLOT));
		p = *(char **)p;
	}
	assert_ptr_equal(p, vb + (uint64_t)lv_scratch[0] * CHASE_SLOT);
	assert_int_equal((unsigned char)vb[m * CHASE_SLOT], 0xa5);
	munmap(va, BUF);
	munmap(vb, BUF);
	close(fd);
	free(seen);
}

/* A link past the working set, below it, or off a slot boundary stops the pass at its slot. */
static void test_rebase_refuses(void **state)
{
	static const uint32_t ord[8] = { 5, 1, 7, 0, 3, 6, 2, 4 };
	char *b = aligned_alloc(4096, 4096);
	uint64_t bad = 0;

	(void)state;
	assert_non_null(b);
	assert_int_equal(link_all(buf, 8, ord, 1), 0);
	/* Slot 5's link one slot past the 8 of the working set. */
	memcpy(b, buf, 8 * CHASE_SLOT);
	*(char **)(b + 5 * CHASE_SLOT) = buf + 8 * CHASE_SLOT;
	assert_int_equal(rebase_all(b, 8, buf, 1, &bad), -EINVAL);
	assert_int_equal(bad, 5);
	/* In parts: the part holding slot 5 says so. */
	memcpy(b, buf, 8 * CHASE_SLOT);
	*(char **)(b + 5 * CHASE_SLOT) = buf + 8 * CHASE_SLOT;
	assert_int_equal(chase_rebase_part(b, 8, buf, 4, 8, &bad, NULL), -EINVAL);
	assert_int_equal(bad, 5);
	/* Slot 2's link below the working set. */
	memcpy(b, buf, 8 * CHASE_SLOT);
	*(char **)(b + 2 * CHASE_SLOT) = buf - CHASE_SLOT;
	assert_int_equal(rebase_all(b, 8, buf, 1, &bad), -EINVAL);
	assert_int_equal(bad, 2);
	/* Slot 7's link inside it, 8 bytes into slot 3. */
	memcpy(b, buf, 8 * CHASE_SLOT);
	*(char **)(b + 7 * CHASE_SLOT) = buf + 3 * CHASE_SLOT + 8;
	assert_int_equal(rebase_all(b, 8, buf, 1, &bad), -EINVAL);
	assert_int_equal(bad, 7);
	/* Already rebased: its links are b's own, not buf's. */
	memcpy(b, buf, 8 * CHASE_SLOT);
	assert_int_equal(rebase_all(b, 8, buf, 1, &bad), 0);
	assert_int_equal(rebase_all(b, 8, buf, 1, &bad), -EINVAL);
	assert_int_equal(bad, 0);
	/* A mapping off a slot boundary, or fewer than two slots. */
	assert_int_equal(chase_rebase_part(b + 8, 4, buf, 0, 4, &bad, NULL), -EINVAL);
	assert_int_equal(chase_rebase_part(b, 1, buf, 0, 1, &bad, NULL), -EINVAL);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_derived_cycles),
		cmocka_unit_test(test_derived_random),
		cmocka_unit_test(test_check_marks_refuses),
		cmocka_unit_test(test_link_by_hand),
		cmocka_unit_test(test_link_levels),
		cmocka_unit_test(test_link_own),
		cmocka_unit_test(test_link_refuses),
		cmocka_unit_test(test_rebase_by_hand),
		cmocka_unit_test(test_rebase_views),
		cmocka_unit_test(test_rebase_refuses),
	};

	return cmocka_run_group_tests_name("chase_derive", tests, setup, teardown);
}
