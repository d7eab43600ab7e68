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

/*
 * Walk n hops from start over a buffer of bytes with a bitmap, as
 * walk_once() does, at any size: every hop a new slot of the buffer, back
 * at start after exactly n.
 */
static void walk_full(char *b, uint64_t bytes, void *start, uint64_t n, uint64_t unit)
{
	unsigned char *seen = calloc(bytes / unit + 1, 1);
	char *p = start;

	for (uint64_t i = 0; i < n; i++) {
		uint64_t off = (uint64_t)(p - b);

		assert_true(p >= b && p < b + bytes);
		assert_int_equal(off % CHASE_SLOT, 0);
		assert_int_equal(seen[off / unit], 0);
		seen[off / unit] = 1;
		p = *(char **)p;
	}
	assert_ptr_equal(p, start);
	free(seen);
}

/*
 * A chain built in parts, by any number of them, is the chain built whole,
 * byte for byte, and one full cycle (walked here); at sizes whose slot
 * count is a power of 4 (the permutation's domain is the slots), an odd
 * power of 2 (twice the slots), one more than a power of 2 (almost four
 * times: most values walk the cycle several times) and tiny ones.
 */
static void test_parts(void **state)
{
	static const uint64_t sizes[] = {
		BUF, BUF / 2, BUF / 2 + 64, 3 * 4096, 2 * 64, 3 * 64, 1000 * 64,
	};
	static const char *const specs[] = { "random", "seq", "stride:256", "tlb:4K", "page" };
	static const unsigned parts[] = { 2, 3, 7, 64 };
	char *whole = aligned_alloc(4096, BUF);

	(void)state;
	for (size_t z = 0; z < sizeof(sizes) / sizeof(sizes[0]); z++)
		for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
			struct chase_spec sp = spec_of(specs[i], 11);
			uint64_t bytes = sizes[z];
			void *start;
			int64_t n;

			if (chase_slots(bytes, &sp) < 2)
				continue;	/* the pattern does not fit this size */
			memset(buf, 0, BUF);
			n = chase_build(buf, bytes, &sp, &start, NULL);
			assert_int_equal(n, chase_slots(bytes, &sp));
			walk_full(buf, bytes, start, (uint64_t)n,
				  sp.pattern == CHASE_PAGE ? sp.param : CHASE_SLOT);
			memcpy(whole, buf, bytes);
			for (size_t k = 0; k < sizeof(parts) / sizeof(parts[0]); k++) {
				memset(buf, 0, BUF);
				/* In reverse order: no part may depend on another being written. */
				for (unsigned pt = parts[k]; pt-- > 0;)
					assert_int_equal(chase_build_part(buf, bytes, &sp, pt, parts[k], NULL), n);
				assert_memory_equal(whole, buf, bytes);
			}
			assert_int_equal(chase_build_part(buf, bytes, &sp, 3, 3, NULL), -EINVAL);
			assert_int_equal(chase_offset_at(bytes, &sp, 0), (char *)start - buf);
		}
	free(whole);
}

/* Check [0, n) in `spans` spans, as that many threads would. */
static int check_in_spans(uint64_t bytes, const struct chase_spec *sp, uint64_t n, unsigned spans)
{
	for (unsigned t = 0; t < spans; t++) {
		uint64_t a = n * t / spans, b = n * (t + 1) / spans;
		int err = a < b ? chase_check_span(buf, bytes, sp, a, b, NULL) : 0;

		if (err)
			return err;
	}
	return 0;
}

/*
 * chase_check_span over spans covering the chain passes a whole chain, and
 * finds what is wrong with a broken one: two links exchanged (two cycles),
 * a link out of the buffer, one off a slot, a link to itself.
 */
static void test_check_span(void **state)
{
	static const char *const specs[] = { "random", "seq", "stride:4096", "tlb:64K", "page" };

	(void)state;
	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		struct chase_spec sp = spec_of(specs[i], 9);
		void *start, **a, **b, *t;
		int64_t n = chase_build(buf, BUF, &sp, &start, NULL);

		for (unsigned spans = 1; spans <= 5; spans++)
			assert_int_equal(check_in_spans(BUF, &sp, (uint64_t)n, spans), 0);
		assert_int_equal(chase_check_span(buf, BUF, &sp, 5, 5, NULL), -EINVAL);
		assert_int_equal(chase_check_span(buf, BUF, &sp, 0, (uint64_t)n + 1, NULL), -EINVAL);
		/* Hops n/3 and 2n/3 exchange their links: two cycles. */
		a = (void **)(buf + chase_offset_at(BUF, &sp, (uint64_t)n / 3));
		b = (void **)(buf + chase_offset_at(BUF, &sp, 2 * (uint64_t)n / 3));
		t = *a;
		*a = *b;
		*b = t;
		for (unsigned spans = 1; spans <= 5; spans++)
			assert_int_equal(check_in_spans(BUF, &sp, (uint64_t)n, spans), -EINVAL);
		*b = *a;
		*a = t;
		assert_int_equal(check_in_spans(BUF, &sp, (uint64_t)n, 3), 0);
		*a = buf + BUF;
		assert_int_equal(check_in_spans(BUF, &sp, (uint64_t)n, 2), -EINVAL);
		*a = (char *)t + 8;
		assert_int_equal(check_in_spans(BUF, &sp, (uint64_t)n, 2), -EINVAL);
		*a = a;
		assert_int_equal(check_in_spans(BUF, &sp, (uint64_t)n, 2), -EINVAL);
		*a = t;
		assert_int_equal(check_in_spans(BUF, &sp, (uint64_t)n, 4), 0);
	}
}

/*
 * The random chain of seed 1 over 1 MiB, pinned: its first hops, as
 * docs/methodology.md describes the construction.  A change of the chain
 * for a seed fails here and must be said there.  And it has no locality:
 * about n x 64 / 16384 hops (64) stay inside their 4 KiB page, as in a
 * uniform random cycle.
 */
static void test_random_pinned(void **state)
{
	static const uint64_t first[] = {
		668288, 961664, 674496, 63232, 340288, 141120, 778752, 255488,
	};
	struct chase_spec sp = spec_of("random", 1);
	uint64_t same_page = 0;
	void *start;
	char *p;
	int64_t n = chase_build(buf, BUF, &sp, &start, NULL);

	(void)state;
	p = start;
	for (size_t i = 0; i < sizeof(first) / sizeof(first[0]); i++) {
		if ((uint64_t)(p - buf) != first[i])
			fail_msg("hop %zu at offset %llu, pinned %llu", i,
				 (unsigned long long)(p - buf), (unsigned long long)first[i]);
		p = *(char **)p;
	}
	p = start;
	for (int64_t i = 0; i < n; i++) {
		char *q = *(char **)p;

		same_page += (uint64_t)(p - buf) / 4096 == (uint64_t)(q - buf) / 4096;
		p = q;
	}
	assert_true(same_page < 4 * 64);
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
		cmocka_unit_test(test_parts),
		cmocka_unit_test(test_check_span),
		cmocka_unit_test(test_random_pinned),
		cmocka_unit_test(test_locality),
		cmocka_unit_test(test_seed),
		cmocka_unit_test(test_walk_and_offsets),
		cmocka_unit_test(test_cancel),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_pattern_list),
	};

	return cmocka_run_group_tests_name("chase", tests, setup, teardown);
}
