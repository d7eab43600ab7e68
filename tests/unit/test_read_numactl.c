// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_read_numactl.c - the SLIT as numactl --hardware prints it.
 */
#include "unit.h"

#include "readers.h"
#include "readfile.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void test_numactl(void **state)
{
	struct ph_slit *s;
	char err[512];
	const char *kind;
	char *text;
	size_t len;

	(void)state;
	assert_int_equal(read_whole_file("tests/data/shared/amd-6220-4node.numactl.txt", 1 << 20,
					 &text, &len, &kind), 0);
	assert_int_equal(strlen(text), len);
	assert_int_equal(slit_parse_numactl("amd", text, &s, err, sizeof(err)), 0);
	assert_int_equal(s->n, 4);
	assert_int_equal(s->ids[3], 3);
	for (int i = 0; i < 16; i++)
		assert_int_equal(s->dist[i], i % 5 ? 16 : 10);
	slit_free(s);
	free(text);

	assert_int_equal(slit_load_numactl("tests/data/shared/intel-e5-2643-2node.numactl.txt",
					   &s, err, sizeof(err)), 0);
	assert_int_equal(slit_at(s, 0, 1), 21);
	assert_int_equal(slit_at(s, 1, 1), 10);
	assert_int_equal(slit_at(s, 1, 2), -1);
	slit_free(s);

	/* Just the table, trailing blanks as numactl leaves them, rows out of order. */
	assert_int_equal(slit_parse_numactl("t", "node   0   2 \n  2:  21  10 \n  0:  10  21 \n",
					    &s, err, sizeof(err)), 0);
	assert_int_equal(slit_at(s, 2, 0), 21);
	assert_int_equal(slit_at(s, 0, 0), 10);
	assert_int_equal(slit_at(s, 2, 2), 10);
	slit_free(s);
}

static void test_numactl_errors(void **state)
{
	(void)state;
	expect_numactl_error("available: 1 nodes (0)\nnode 0 cpus: 0 1\n",
			     "n.txt: no 'node distances:' table; expected the output of numactl --hardware");
	expect_numactl_error("available: 1 nodes (0)\nNo distance information available.\n",
			     "n.txt:2: numactl found no distance information");
	expect_numactl_error("node distances:\n", "n.txt:1: the file ends after 'node distances:'");
	expect_numactl_error("node distances:\nnode 0 x\n", "n.txt:2: expected the header 'node 0 1 ...', got 'node 0 x'");
	expect_numactl_error("node distances:\nnode 0 1\n 0: 10 21\n",
			     "n.txt:3: the file ends after 1 of 2 rows");
	expect_numactl_error("node distances:\nnode 0 1\n 0: 10 abc\n 1: 21 10\n",
			     "n.txt:3: node 0: distance 2 of 2 missing or not 0..255");
	expect_numactl_error("node distances:\nnode 0 1\n 0: 10 300\n 1: 21 10\n",
			     "n.txt:3: node 0: distance 2 of 2 missing or not 0..255");
	expect_numactl_error("node distances:\nnode 0 1\n 0: 10 21 7\n 1: 21 10\n",
			     "n.txt:3: node 0: more than 2 distances");
	expect_numactl_error("node distances:\nnode 0 1\n 0: 10 21\n 0: 21 10\n",
			     "n.txt:4: row for node 0; expected one row for each node of the header, once");
	expect_numactl_error("node distances:\nnode 0 1\n zero: 10 21\n",
			     "n.txt:3: expected a row 'N: 2 distances' (a node id, a colon, then the distances), got 'zero: 10 21'");
}

/*
 * A distance row whose node id is not followed at once by
 * a colon.  sscanf("%d:%n") matched the id and left the offset unset, so
 * the row was read from wherever that pointed: past the end of the line
 * under ASan, the next line's numbers in a plain build.
 */
static void test_numactl_row_without_colon(void **state)
{
	(void)state;
	/* No colon at all: the ids 0 10 21 must not be read as node 0's row. */
	expect_numactl_error("node distances:\nnode 0 1\n0 10 21\n1: 21 10\n",
			     "n.txt:3: expected a row 'N: 2 distances' (a node id, a colon, then the distances), got '0 10 21'");
	/* A space before the colon is not numactl's layout either. */
	expect_numactl_error("node distances:\nnode 0 1\n0 : 10 21\n1: 21 10\n",
			     "n.txt:3: expected a row 'N: 2 distances' (a node id, a colon, then the distances), got '0 : 10 21'");
	/* A line cut short after the id, with and without its line end. */
	expect_numactl_error("node distances:\nnode 0 1\n  0\n1: 21 10\n",
			     "n.txt:3: expected a row 'N: 2 distances' (a node id, a colon, then the distances), got '0'");
	expect_numactl_error("node distances:\nnode 0 1\n  0:\n1: 21 10\n",
			     "n.txt:3: node 0: distance 1 of 2 missing or not 0..255");
	/* An id too large for an int is not a node (sscanf's %d overflowed). */
	expect_numactl_error("node distances:\nnode 0 1\n99999999999: 10 21\n1: 21 10\n",
			     "n.txt:3: expected a row 'N: 2 distances' (a node id, a colon, then the distances), got '99999999999: 10 21'");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numactl),
		cmocka_unit_test(test_numactl_errors),
		cmocka_unit_test(test_numactl_row_without_colon),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
