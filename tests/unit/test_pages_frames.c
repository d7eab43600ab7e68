// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_pages_frames.c - how pages --same-frames reads back the chain each
 * view chased (pages_frames_order): the line it writes for the random
 * chain of seed 1 over 1 MiB is the one tests/vm/guest/kmodtest/chase.c's
 * chain-order, a separate walk and hash, printed (the golden line below);
 * a chain that leaves the working set, or a cycle short of every slot, is
 * refused, and so is a view whose chain over the same working set is not
 * the order another view walked (another seed's, a cycle of every slot).
 */
#include "unit.h"
#include "chase.h"
#include "pages_frames.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* 'kmodtest chain-order 1M 1' (build/vm/kmodtest, run on the host). */
static const char kmodtest_1m_seed1[] =
	"16384 hops from +0x0: +0x3b5c0 +0x72340 +0x8b40 +0xeee80 +0x54cc0; fnv1a 0x938006528700fc01";

static char *chain(uint64_t bytes, uint64_t seed)
{
	struct chase_spec spec = { .pattern = CHASE_RANDOM, .seed = seed };
	char *buf = aligned_alloc(4096, bytes);
	void *start;

	assert_non_null(buf);
	assert_int_equal(chase_build(buf, bytes, &spec, &start, NULL), (int64_t)(bytes / CHASE_SLOT));
	return buf;
}

/* Refusals are said on stderr: keep them out of the test's output. */
static int quiet_order(struct pages_frames *f, const char *buf, uint64_t ws)
{
	int saved = dup(2), rc;
	FILE *n = fopen("/dev/null", "w");

	assert_non_null(n);
	fflush(stderr);
	dup2(fileno(n), 2);
	rc = pages_frames_order(f, PH_PS_2M, buf, ws);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	fclose(n);
	return rc;
}

static void test_order_line(void **state)
{
	struct pages_frames f = { 0 };
	char *buf = chain(MiB, 1), line[256];

	(void)state;
	assert_int_equal(pages_frames_order(&f, PH_PS_4K, buf, MiB), 0);
	assert_int_equal(f.order[PH_PS_4K].ws, MiB);
	assert_int_equal(f.order[PH_PS_4K].hops, MiB / CHASE_SLOT);
	assert_int_equal(f.order[PH_PS_4K].first[0], 0);
	pages_frames_order_text(&f.order[PH_PS_4K], line, sizeof(line));
	assert_string_equal(line, kmodtest_1m_seed1);
	free(buf);
}

static void test_order_refused(void **state)
{
	struct pages_frames f = { 0 };
	char *buf = chain(64 * KiB, 1);

	(void)state;
	/* Read over half its working set, the chain leaves it. */
	assert_int_equal(quiet_order(&f, buf, 32 * KiB), PH_EXIT_FAIL);
	assert_int_equal(f.order[PH_PS_2M].ws, 0);
	/* A link off the slot grid. */
	*(char **)buf += 8;
	assert_int_equal(quiet_order(&f, buf, 64 * KiB), PH_EXIT_FAIL);
	/* A two-slot cycle among 1024 slots. */
	*(char **)buf = buf + CHASE_SLOT;
	*(char **)(buf + CHASE_SLOT) = buf;
	assert_int_equal(quiet_order(&f, buf, 64 * KiB), PH_EXIT_FAIL);
	free(buf);
}

/* Every view must walk the order the others walked over the same working set. */
static void test_order_views(void **state)
{
	struct pages_frames f = { 0 };
	char *one = chain(64 * KiB, 1), *two = chain(64 * KiB, 2), *big = chain(128 * KiB, 2);

	(void)state;
	assert_int_equal(pages_frames_order(&f, PH_PS_4K, one, 64 * KiB), 0);
	/* Seed 2's chain is one cycle through every slot too, in another order. */
	assert_int_equal(quiet_order(&f, two, 64 * KiB), PH_EXIT_FAIL);
	assert_int_equal(quiet_order(&f, one, 64 * KiB), 0);
	assert_int_equal(f.order[PH_PS_2M].hash, f.order[PH_PS_4K].hash);
	/* Over another working set there is nothing to compare with. */
	assert_int_equal(pages_frames_order(&f, PH_PS_1G, big, 128 * KiB), 0);
	free(one);
	free(two);
	free(big);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order_line),
		cmocka_unit_test(test_order_refused),
		cmocka_unit_test(test_order_views),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
