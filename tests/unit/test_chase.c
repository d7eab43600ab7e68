// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_chase.c - every chain builder makes one full cycle that visits every
 * slot (or every page) exactly once, checked by walking it with a visit
 * bitmap here rather than trusting chase_verify; and each pattern has its
 * locality property: TLB windows entered once each, one slot per page,
 * sequential and strided steps.  A raised cancel flag stops every builder
 * and walk over the chain with -EINTR, and a lowered one changes nothing.
 */
#include "unit.h"
#include "chase.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define BUF (1u << 20)

static char *buf;

static int setup(void **state)
{
	(void)state;
	buf = aligned_alloc(4096, BUF);
	return buf ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	free(buf);
	return 0;
}

static struct chase_spec spec_of(const char *s, uint64_t seed)
{
	struct chase_spec sp;

	assert_int_equal(chase_parse(s, &sp), 0);
	sp.seed = seed;
	return sp;
}

/* Walk n hops from start with a bitmap; every step in the buffer, aligned, new. */
static void walk_once(void *start, uint64_t n, uint64_t unit)
{
	unsigned char *seen = calloc(BUF / CHASE_SLOT, 1);
	char *p = start;

	for (uint64_t i = 0; i < n; i++) {
		uint64_t off = (uint64_t)(p - buf);

		assert_true(p >= buf && p < buf + BUF);
		assert_int_equal(off % CHASE_SLOT, 0);
		assert_int_equal(seen[off / unit], 0);
		seen[off / unit] = 1;
		p = *(char **)p;
	}
	assert_ptr_equal(p, start);
	free(seen);
}

static void test_cycles(void **state)
{
	static const struct { const char *spec; uint64_t n, unit; } cases[] = {
		{ "random", BUF / 64, 64 },
		{ "seq", BUF / 64, 64 },
		{ "stride:256", BUF / 64, 64 },
		{ "stride:4096", BUF / 64, 64 },
		{ "tlb:4K", BUF / 64, 64 },
		{ "tlb:64K", BUF / 64, 64 },
		{ "page", BUF / 4096, 4096 },
		{ "page:64K", BUF / 65536, 65536 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct chase_spec sp = spec_of(cases[i].spec, 42);
		void *start;
		int64_t n = chase_build(buf, BUF, &sp, &start, NULL);

		assert_int_equal(n, cases[i].n);
		walk_once(start, (uint64_t)n, cases[i].unit);
		assert_int_equal(chase_verify(start, (uint64_t)n, NULL, 0, NULL), 0);
		/* One hop short or long is not a full cycle. */
		assert_int_equal(chase_verify(start, (uint64_t)n - 1, NULL, 0, NULL), -EINVAL);
		assert_int_equal(chase_verify(start, (uint64_t)n + 1, NULL, 0, NULL), -EINVAL);
	}
}

static void test_locality(void **state)
{
	struct chase_spec sp;
	void *start;
	char *p;
	uint64_t changes = 0, off_steps = 0;
	int64_t n;

	(void)state;
	/* tlb:64K: the window changes exactly once per window. */
	sp = spec_of("tlb:64K", 7);
	n = chase_build(buf, BUF, &sp, &start, NULL);
	p = start;
	for (int64_t i = 0; i < n; i++) {
		char *q = *(char **)p;

		changes += (uint64_t)(p - buf) / 65536 != (uint64_t)(q - buf) / 65536;
		p = q;
	}
	assert_int_equal(changes, BUF / 65536);

	/* page: every hop goes to another page, at a line not always 0. */
	sp = spec_of("page", 7);
	n = chase_build(buf, BUF, &sp, &start, NULL);
	p = start;
	changes = 0;
	for (int64_t i = 0; i < n; i++) {
		char *q = *(char **)p;

		assert_true((uint64_t)(p - buf) / 4096 != (uint64_t)(q - buf) / 4096);
		changes += (uint64_t)(q - buf) % 4096 != 0;
		p = q;
	}
	assert_true(changes > (uint64_t)n / 2);

	/* seq: +64 except the one wrap; stride:256: +256 except once a pass. */
	sp = spec_of("seq", 0);
	n = chase_build(buf, BUF, &sp, &start, NULL);
	p = start;
	for (int64_t i = 0; i < n; i++) {
		char *q = *(char **)p;

		off_steps += q - p != 64;
		p = q;
	}
	assert_int_equal(off_steps, 1);
	sp = spec_of("stride:256", 0);
	n = chase_build(buf, BUF, &sp, &start, NULL);
	p = start;
	off_steps = 0;
	for (int64_t i = 0; i < n; i++) {
		char *q = *(char **)p;

		off_steps += q - p != 256;
		p = q;
	}
	assert_int_equal(off_steps, 256 / 64);
}

static void test_seed(void **state)
{
	char *copy = malloc(BUF);
	struct chase_spec sp = spec_of("random", 1);
	void *start;

	(void)state;
	chase_build(buf, BUF, &sp, &start, NULL);
	memcpy(copy, buf, BUF);
	chase_build(buf, BUF, &sp, &start, NULL);
	assert_memory_equal(copy, buf, BUF);	/* same seed, same chain */
	sp.seed = 2;
	chase_build(buf, BUF, &sp, &start, NULL);
	assert_memory_not_equal(copy, buf, BUF);
	free(copy);
}

static void test_walk_and_offsets(void **state)
{
	struct chase_spec sp = spec_of("random", 3);
	void *start, *starts[4], *p[4];
	int64_t n = chase_build(buf, BUF, &sp, &start, NULL);

	(void)state;
	assert_int_equal(chase_verify(start, (uint64_t)n, starts, 4, NULL), 0);
	/* The four starts are a quarter of the cycle apart. */
	p[0] = start;
	chase_walk(p, 1, (uint64_t)n / 4);
	assert_ptr_equal(p[0], starts[1]);
	memcpy(p, starts, sizeof(p));
	/* A full cycle brings every chain back to where it began. */
	chase_walk(p, 4, (uint64_t)n);
	assert_memory_equal(p, starts, sizeof(p));

	assert_int_equal(chase_to_offsets(start, (uint64_t)n, buf, NULL), 0);
	for (int64_t i = 0; i < n; i++) {
		uint64_t off = *(uint64_t *)(buf + i * CHASE_SLOT);

		assert_true(off < BUF && off % CHASE_SLOT == 0);
	}
	assert_int_equal(chase_to_pointers(buf, (uint64_t)((char *)start - buf), (uint64_t)n, NULL), 0);
	assert_int_equal(chase_verify(start, (uint64_t)n, NULL, 0, NULL), 0);
}

/*
 * The cancel flag: raised, every builder and every walk over the chain
 * stops with -EINTR (they look at it first, then every CHASE_CANCEL_EVERY
 * steps); lowered, the chain is the one built without it.
 */
static void test_cancel(void **state)
{
	static const char *const specs[] = { "random", "seq", "stride:256", "tlb:4K", "page:64" };
	volatile sig_atomic_t stop = 1, go = 0;
	char *copy = malloc(BUF);
	void *start, *start2;
	int64_t n;

	(void)state;
	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		struct chase_spec sp = spec_of(specs[i], 5);

		assert_int_equal(chase_build(buf, BUF, &sp, &start, &stop), -EINTR);
		n = chase_build(buf, BUF, &sp, &start, NULL);
		assert_true(n > 0);
		memcpy(copy, buf, BUF);
		assert_int_equal(chase_build(buf, BUF, &sp, &start2, &go), n);
		assert_ptr_equal(start, start2);
		assert_memory_equal(copy, buf, BUF);
		assert_int_equal(chase_verify(start, (uint64_t)n, NULL, 0, &go), 0);
	}
	/* The walks over a random chain of BUF / 64 slots. */
	{
		struct chase_spec sp = spec_of("random", 6);

		n = chase_build(buf, BUF, &sp, &start, NULL);
		assert_int_equal(chase_verify(start, (uint64_t)n, NULL, 0, &stop), -EINTR);
		assert_int_equal(chase_to_offsets(start, (uint64_t)n, buf, &stop), -EINTR);
		n = chase_build(buf, BUF, &sp, &start, NULL);
		assert_int_equal(chase_to_offsets(start, (uint64_t)n, buf, &go), 0);
		assert_int_equal(chase_to_pointers(buf, (uint64_t)((char *)start - buf), (uint64_t)n,
						   &stop), -EINTR);
	}
	free(copy);
}

static void test_parse(void **state)
{
	static const char *const good[] = {
		"random", "seq", "page", "page:2M", "tlb:4K", "tlb:1G", "stride:64", "stride:4K",
	};
	static const char *const bad[] = {
		"", "rand", "random:4K", "seq:64", "tlb:", "tlb:100", "stride:0", "stride:-64",
		"page:4X", "tlb:4K:4K",
		/* No space, no sign, nothing that wraps: 2^34 G wraps to 0, 2^34+1 G to 1G. */
		"tlb: 4K", "tlb:+4K", "stride: -64", "tlb:17179869184G", "tlb:17179869185G",
		"stride:99999999999999999999", "tlb:4K ",
	};
	struct chase_spec sp;
	char name[32];

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		assert_int_equal(chase_parse(good[i], &sp), 0);
		chase_spec_name(&sp, name, sizeof(name));
		/* Round trip, with the default page size spelled out. */
		if (strcmp(good[i], "page"))
			assert_string_equal(name, good[i]);
		else
			assert_string_equal(name, "page:4K");
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (chase_parse(bad[i], &sp) != -EINVAL)
			fail_msg("chase_parse('%s') took it, as %s", bad[i],
				 chase_spec_name(&sp, name, sizeof(name)));
	/* A parameter that does not divide the buffer is refused at build. */
	assert_int_equal(chase_parse("tlb:3K", &sp), 0);
	{
		void *start;

		assert_int_equal(chase_build(buf, BUF, &sp, &start, NULL), -EINVAL);
	}
}

/*
 * The sentence error messages name the patterns with: every syntax of
 * chase_patterns[], in order, as written out here by hand, and each one
 * parses (with a parameter where its syntax asks for one).
 */
static void test_pattern_list(void **state)
{
	const char *list = chase_pattern_list();
	const char *at = list;
	struct chase_spec sp;

	(void)state;
	assert_string_equal(list, "random, tlb:SIZE, page[:SIZE], seq or stride:N");
	for (size_t i = 0; i < chase_npatterns; i++) {
		const char *found = strstr(at, chase_patterns[i].syntax);

		assert_non_null(found);
		at = found + strlen(chase_patterns[i].syntax);
		assert_int_equal(chase_parse(chase_patterns[i].name, &sp), 0);
		/* One line for list and chase --help, within 80 columns. */
		assert_true(strlen(chase_patterns[i].desc) <= 64);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cycles),
		cmocka_unit_test(test_locality),
		cmocka_unit_test(test_seed),
		cmocka_unit_test(test_walk_and_offsets),
		cmocka_unit_test(test_cancel),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_pattern_list),
	};

	return cmocka_run_group_tests_name("chase", tests, setup, teardown);
}
