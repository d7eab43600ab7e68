// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_locks.c - EPCC's subtraction on hand-computed cases, the default
 * thread ladder, and every lock kind excluding on two real threads (a
 * count incremented under the lock comes out exact).
 */
#include "unit.h"
#include "contend.h"
#include "locks.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>

static void test_overhead(void **state)
{
	(void)state;
	/* 1000 acquisitions in 150 us; 1000 delays in 100 us: 50 ns each. */
	assert_float_equal(locks_overhead_ns(150000, 1000, 100000, 1000), 50, 1e-9);
	/* Different counts: 2000 in 90 us (45 ns), 500 in 20 us (40 ns): 5 ns. */
	assert_float_equal(locks_overhead_ns(90000, 2000, 20000, 500), 5, 1e-9);
	/* A lock cheaper than the noise: negative, reported as it is. */
	assert_float_equal(locks_overhead_ns(99000, 1000, 100000, 1000), -1, 1e-9);
	assert_true(isnan(locks_overhead_ns(1, 0, 1, 1)));
	assert_true(isnan(locks_overhead_ns(1, 1, 1, 0)));
}

/*
 * A row's overhead is resolved unless its CI lies wholly below zero (with
 * no CI, unless its median does): the guest's -764 ns with a CI of
 * [-800, -700] is not a figure; a CI that reaches zero is.
 */
static void test_resolved(void **state)
{
	struct ph_stats st = { .n = 20, .median = -764, .ci_lo = -800, .ci_hi = -700 };

	(void)state;
	assert_false(locks_resolved(&st));
	st = (struct ph_stats){ .n = 20, .median = -1185, .ci_lo = -1300, .ci_hi = -0.01 };
	assert_false(locks_resolved(&st));
	/* The upper end at zero, or above: within the noise of zero, a figure. */
	st = (struct ph_stats){ .n = 20, .median = -1, .ci_lo = -2, .ci_hi = 0 };
	assert_true(locks_resolved(&st));
	st = (struct ph_stats){ .n = 20, .median = -0.5, .ci_lo = -2, .ci_hi = 1 };
	assert_true(locks_resolved(&st));
	st = (struct ph_stats){ .n = 20, .median = 6.6, .ci_lo = 6.1, .ci_hi = 7.0 };
	assert_true(locks_resolved(&st));
	/* Too few samples for a CI: the median's sign decides. */
	st = (struct ph_stats){ .n = 3, .median = -5, .ci_lo = NAN, .ci_hi = NAN };
	assert_false(locks_resolved(&st));
	st = (struct ph_stats){ .n = 3, .median = 5, .ci_lo = NAN, .ci_hi = NAN };
	assert_true(locks_resolved(&st));
	assert_string_equal(LOCKS_BELOW_REF, "below the reference: not resolved");
}

static void test_default_threads(void **state)
{
	unsigned t[16];

	(void)state;
	assert_int_equal(locks_default_threads(1, t, 16), 1);
	assert_int_equal(t[0], 1);
	assert_int_equal(locks_default_threads(2, t, 16), 2);
	assert_int_equal(t[1], 2);
	/* 6 CPUs: 1, 2, 4, 6. */
	assert_int_equal(locks_default_threads(6, t, 16), 4);
	assert_int_equal(t[2], 4);
	assert_int_equal(t[3], 6);
	/* 8: 1, 2, 4, 8 (no 8 twice). */
	assert_int_equal(locks_default_threads(8, t, 16), 4);
	assert_int_equal(t[3], 8);
	assert_int_equal(locks_default_threads(8, t, 2), 2);
}

struct excl {
	const struct lock_kind *k;
	void *lock;
	volatile uint64_t count;
};

static void *hammer(void *arg)
{
	struct excl *e = arg;

	for (int i = 0; i < 20000; i++) {
		e->k->acquire(e->lock);
		e->count = e->count + 1;
		e->k->release(e->lock);
	}
	return NULL;
}

static void test_exclusion(void **state)
{
	(void)state;
	for (size_t i = 0; i < lock_nkinds; i++) {
		const struct lock_kind *k = &lock_kinds[i];
		struct excl e = { .k = k };
		pthread_t a, b;

		if (k->available && !k->available())
			continue;
		e.lock = aligned_alloc(64, 256);
		k->init(e.lock);
		assert_int_equal(pthread_create(&a, NULL, hammer, &e), 0);
		assert_int_equal(pthread_create(&b, NULL, hammer, &e), 0);
		pthread_join(a, NULL);
		pthread_join(b, NULL);
		if (k->destroy)
			k->destroy(e.lock);
		free(e.lock);
		assert_int_equal(e.count, 40000);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_overhead),
		cmocka_unit_test(test_resolved),
		cmocka_unit_test(test_default_threads),
		cmocka_unit_test(test_exclusion),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
