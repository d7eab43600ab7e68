// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_runner.c - calibrate_block against a fake block whose time is
 * known: 10 ns a unit, with chosen blocks slowed as a descheduled partner
 * or a CPU woken from idle slows them.
 */
#include "unit.h"
#include "runner.h"

struct fake {
	int calls;
	uint64_t stall_calls;	/* bit i: call i (from 0) is slowed to 2 ms */
};

static double fake_block(void *ctx, uint64_t units)
{
	struct fake *f = ctx;
	int call = f->calls++;

	if (call < 64 && (f->stall_calls >> call & 1))
		return 2e6;
	return (double)units * 10.0;
}

/* Undisturbed: 1 ms at 10 ns a unit is 100,000 units, a multiple of 3. */
static void test_calibrate_quiet(void **state)
{
	struct fake f = { 0 };
	uint64_t u;

	(void)state;
	u = calibrate_block(fake_block, &f, 64, 3, 0.001);
	assert_int_equal(u % 3, 0);
	assert_true(u * 10 >= 500000 && u * 10 <= 2000000);
}

/*
 * The first block after the team started is slowed: judged on it alone,
 * 64 units looked like 2 ms and the block stayed 640 ns long.
 */
static void test_calibrate_first_block_slowed(void **state)
{
	struct fake f = { .stall_calls = 1 };
	uint64_t u;

	(void)state;
	u = calibrate_block(fake_block, &f, 64, 1, 0.001);
	assert_true(u * 10 >= 500000 && u * 10 <= 2000000);
}

/* Every second block slowed: the fastest of each size still counts. */
static void test_calibrate_many_slowed(void **state)
{
	struct fake f = { .stall_calls = 0x5555555555555555ull };
	uint64_t u;

	(void)state;
	u = calibrate_block(fake_block, &f, 64, 2, 0.001);
	assert_int_equal(u % 2, 0);
	assert_true(u * 10 >= 500000 && u * 10 <= 2000000);
}

/* A block that reads 0 ns grows 16-fold a size, to at most 2^40 units, in at
 * most 20 sizes. */
static double zero_block(void *ctx, uint64_t units)
{
	(void)units;
	++*(int *)ctx;
	return 0;
}

static void test_calibrate_zero(void **state)
{
	int calls = 0;
	uint64_t u;

	(void)state;
	u = calibrate_block(zero_block, &calls, 1, 1, 0.001);
	assert_int_equal(calls, 20 * CALIBRATE_TRIES);
	assert_int_equal(u, 1ull << 40);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_calibrate_quiet),
		cmocka_unit_test(test_calibrate_first_block_slowed),
		cmocka_unit_test(test_calibrate_many_slowed),
		cmocka_unit_test(test_calibrate_zero),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
