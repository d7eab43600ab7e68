// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_loaded.c - the injection delay ladder (default and parsed), the
 * bandwidth arithmetic of a curve point, and the loaders' traffic loop:
 * bytes counted, position wrapped, and which lines each mix writes.
 */
#include "unit.h"
#include "loaded.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void test_default_ladder(void **state)
{
	static const unsigned want[] = { 5000, 2000, 1000, 500, 200, 100, 50, 20, 0 };
	unsigned *d;
	int n;

	(void)state;
	assert_int_equal(loaded_ladder(NULL, &d, &n), 0);
	assert_int_equal(n, 9);
	for (int i = 0; i < n; i++)
		assert_int_equal(d[i], want[i]);
	free(d);
}

static void test_parsed_ladder(void **state)
{
	unsigned *d;
	int n;

	(void)state;
	/* Sorted longest first, duplicates dropped. */
	assert_int_equal(loaded_ladder("0,100,100,20", &d, &n), 0);
	assert_int_equal(n, 3);
	assert_int_equal(d[0], 100);
	assert_int_equal(d[1], 20);
	assert_int_equal(d[2], 0);
	free(d);
	assert_int_equal(loaded_ladder("7", &d, &n), 0);
	assert_int_equal(n, 1);
	free(d);
	assert_int_equal(loaded_ladder("x", &d, &n), -EINVAL);
	assert_int_equal(loaded_ladder("10,-1", &d, &n), -EINVAL);
	assert_int_equal(loaded_ladder("20000000", &d, &n), -EINVAL);
}

static void test_gbps(void **state)
{
	static const uint64_t bytes[] = { 1000000000, 3000000000 };

	(void)state;
	/* 4e9 bytes in 2 s: 2 GB/s. */
	assert_float_equal(loaded_gbps(bytes, 2, 2e9), 2.0, 1e-12);
	/* One loader's 1e9 in 0.5 s: 2 GB/s. */
	assert_float_equal(loaded_gbps(bytes, 1, 5e8), 2.0, 1e-12);
	assert_float_equal(loaded_gbps(bytes, 0, 1e9), 0.0, 1e-12);
	assert_true(isnan(loaded_gbps(bytes, 2, 0)));
}

/* Lines of buf (n of them) whose first word was written (no longer 0xff..). */
static int written(const char *buf, int n)
{
	int w = 0;

	for (int i = 0; i < n; i++)
		w += *(const uint64_t *)(buf + 64 * i) != UINT64_MAX;
	return w;
}

static void test_traffic(void **state)
{
	enum { LINES = 24 };
	char *buf = aligned_alloc(64, LINES * 64);
	uint64_t pos = 0, sink = 0;

	(void)state;
	for (size_t m = 0; m < load_nmixes; m++) {
		const struct load_mix_info *mi = &load_mixes[m];
		unsigned group = mi->reads + mi->writes;

		memset(buf, 0xff, LINES * 64);
		pos = 0;
		/* One pass of 24 lines (a multiple of 1, 2, 3 and 4): 1536 bytes. */
		assert_int_equal(load_traffic(buf, LINES * 64, &pos, LINES, mi->mix, 3, &sink),
				 LINES * 64);
		assert_int_equal(pos, 0);
		assert_int_equal(written(buf, LINES), LINES / group * mi->writes);
	}
	/* 30 lines from line 20 of 24: wraps to line 2, 1920 bytes. */
	pos = 20;
	assert_int_equal(load_traffic(buf, LINES * 64, &pos, 30, LOAD_READ, 0, &sink), 1920);
	assert_int_equal(pos, 2);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_ladder),
		cmocka_unit_test(test_parsed_ladder),
		cmocka_unit_test(test_gbps),
		cmocka_unit_test(test_traffic),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
