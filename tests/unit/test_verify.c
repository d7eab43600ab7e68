// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_verify.c - the verdict of placement verification: what was read
 * back (a placement written out here by hand, as QUERY or move_pages would
 * report it) against what was asked.  Verified only when every byte is
 * mapped, of the page size asked, on the node asked (or a member of the
 * interleave set); the message says what was found, in the words the
 * guests and test_chase look for.  The read-back itself is checked on real
 * memory by the guests (measure, kmod_place) and test_chase.
 */
#include "unit.h"
#include "verify.h"
#include "util.h"

#include <errno.h>
#include <numa.h>
#include <stdlib.h>
#include <string.h>

#define NODES 4

/* A segment that asked for mib MiB of ps on node (-1: interleave). */
static struct ph_segment asked(uint64_t mib, enum ph_psize ps, int node)
{
	struct ph_segment s;

	memset(&s, 0, sizeof(s));
	s.bytes = mib * MiB;
	s.psize = ps;
	s.node = node;
	s.backend = PH_BACKEND_ANON;
	s.found.nr_nodes = NODES;
	s.found.node_bytes = calloc(NODES, sizeof(uint64_t));
	s.found.complete = true;
	strcpy(s.found.method, "test read-back");
	return s;
}

static void found(struct ph_segment *s, int node, enum ph_psize ps, uint64_t mib)
{
	s->found.node_bytes[node] += mib * MiB;
	s->found.psize_bytes[ps] += mib * MiB;
}

static void test_as_asked(void **state)
{
	struct ph_segment s = asked(16, PH_PS_4K, 0);

	(void)state;
	found(&s, 0, PH_PS_4K, 16);
	verify_compare(&s, 0, NULL);
	assert_true(s.verified);
	assert_string_equal(s.verify_msg, "16 MiB of 4K pages on node(s) 0:16M (test read-back)");
	free(s.found.node_bytes);
}

static void test_wrong_size(void **state)
{
	struct ph_segment s = asked(16, PH_PS_4K, 0);

	(void)state;
	found(&s, 0, PH_PS_THP, 16);
	verify_compare(&s, 0, NULL);
	assert_false(s.verified);
	assert_string_equal(s.verify_msg,
			    "asked 16 MiB of 4K pages on node 0; found pages THP:16M on nodes 0:16M (test read-back)");
	free(s.found.node_bytes);
}

static void test_wrong_node(void **state)
{
	struct ph_segment s = asked(4, PH_PS_4K, 1);

	(void)state;
	found(&s, 2, PH_PS_4K, 4);
	verify_compare(&s, 0, NULL);
	assert_false(s.verified);
	assert_string_equal(s.verify_msg,
			    "asked 4 MiB of 4K pages on node 1; found pages 4K:4M on nodes 2:4M (test read-back)");
	free(s.found.node_bytes);
}

/* Half on the node asked, half elsewhere; then mixed page sizes. */
static void test_partly_right(void **state)
{
	struct ph_segment s = asked(8, PH_PS_2M, 0);

	(void)state;
	found(&s, 0, PH_PS_2M, 4);
	found(&s, 3, PH_PS_2M, 4);
	verify_compare(&s, 0, NULL);
	assert_false(s.verified);
	assert_string_equal(s.verify_msg,
			    "asked 8 MiB of 2M pages on node 0; found pages 2M:8M on nodes 0:4M,3:4M (test read-back)");
	free(s.found.node_bytes);

	s = asked(8, PH_PS_2M, 0);
	found(&s, 0, PH_PS_2M, 6);
	found(&s, 0, PH_PS_4K, 2);
	verify_compare(&s, 0, NULL);
	assert_false(s.verified);
	assert_string_equal(s.verify_msg,
			    "asked 8 MiB of 2M pages on node 0; found pages 4K:2M,2M:6M on nodes 0:8M (test read-back)");
	free(s.found.node_bytes);
}

/* All on the right node and size, but a page was not mapped. */
static void test_incomplete(void **state)
{
	struct ph_segment s = asked(16, PH_PS_4K, 0);

	(void)state;
	found(&s, 0, PH_PS_4K, 16);
	s.found.complete = false;
	verify_compare(&s, 0, NULL);
	assert_false(s.verified);
	assert_string_equal(s.verify_msg,
			    "asked 16 MiB of 4K pages on node 0; found pages 4K:16M on nodes 0:16M, some pages not mapped (test read-back)");
	free(s.found.node_bytes);

	s = asked(16, PH_PS_1G, 2);
	s.found.complete = false;
	verify_compare(&s, 0, NULL);
	assert_false(s.verified);
	assert_string_equal(s.verify_msg,
			    "asked 16 MiB of 1G pages on node 2; found pages none on nodes none, some pages not mapped (test read-back)");
	free(s.found.node_bytes);
}

/* The read-back failed: never verified, even if what it saw looked right. */
static void test_read_back_failed(void **state)
{
	struct ph_segment s = asked(16, PH_PS_4K, 0);

	(void)state;
	found(&s, 0, PH_PS_4K, 16);
	verify_compare(&s, -EPERM, NULL);
	assert_false(s.verified);
	assert_string_equal(s.verify_msg,
			    "could not read the buffer back (test read-back): Operation not permitted (needs root: CAP_SYS_ADMIN)");
	verify_compare(&s, -EIO, NULL);
	assert_false(s.verified);
	assert_string_equal(s.verify_msg,
			    "could not read the buffer back (test read-back): Input/output error");
	free(s.found.node_bytes);
}

static void test_interleave(void **state)
{
	struct bitmask *set = numa_bitmask_alloc(NODES);
	struct ph_segment s = asked(16, PH_PS_4K, -1);

	(void)state;
	numa_bitmask_setbit(set, 1);
	numa_bitmask_setbit(set, 3);
	found(&s, 1, PH_PS_4K, 8);
	found(&s, 3, PH_PS_4K, 8);
	verify_compare(&s, 0, set);
	assert_true(s.verified);
	assert_string_equal(s.verify_msg, "16 MiB of 4K pages on node(s) 1:8M,3:8M (test read-back)");
	free(s.found.node_bytes);

	/* A page on node 0, outside the set. */
	s = asked(16, PH_PS_4K, -1);
	found(&s, 1, PH_PS_4K, 8);
	found(&s, 0, PH_PS_4K, 8);
	verify_compare(&s, 0, set);
	assert_false(s.verified);
	assert_string_equal(s.verify_msg,
			    "asked 16 MiB of 4K pages on the interleave nodes; found pages 4K:16M on nodes 0:8M,1:8M (test read-back)");
	free(s.found.node_bytes);
	numa_bitmask_free(set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_as_asked),
		cmocka_unit_test(test_wrong_size),
		cmocka_unit_test(test_wrong_node),
		cmocka_unit_test(test_partly_right),
		cmocka_unit_test(test_incomplete),
		cmocka_unit_test(test_read_back_failed),
		cmocka_unit_test(test_interleave),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
