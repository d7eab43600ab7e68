// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_fleet.c - pagehop compare's judgement: on hand-made hosts, the
 * median, MAD and the two conditions (k robust sigmas and the tolerance)
 * computed by hand; on the synthetic fleet of tests/data/compare (make.py:
 * 20 hosts drawn with realistic noise, one with node 1's triad 20% low),
 * the one made to stray is found, and none of the 20 is.
 */
#include "unit.h"
#include "fleet.h"
#include "read_baseline.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void host(struct ph_hset *s, const char *model, double triad)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->model, sizeof(s->model), "%s", model);
	hset_add_fig(s, "bandwidth_triad", 0, 0, "GB/s", triad, triad - 1, triad + 1);
}

static void test_by_hand(void **state)
{
	/* 100, 101, 99, 100.5, 85: median 100, |dev| 0, 1, 1, 0.5, 15 -> MAD 1,
	 * sigma 1.4826; 85 is 15 from it: > 4 x 1.4826 = 5.93 and -15% beyond -10%. */
	static const double v[] = { 100, 101, 99, 100.5, 85 };
	struct ph_hset s[6];
	struct ph_fleet f;
	struct ph_htol over[PH_HK_NKINDS];
	bool set[PH_HK_NKINDS] = { 0 };

	(void)state;
	for (int i = 0; i < 5; i++)
		host(&s[i], "m=a", v[i]);
	host(&s[5], "m=b", 50);	/* alone in its model: not judged */
	fleet_compare(s, 6, 4, over, set, &f);
	assert_int_equal(f.n, 1);
	assert_int_equal(f.v[0].set, 4);
	assert_true(f.v[0].median == 100 && f.v[0].mad == 1);
	assert_true(fabs(f.v[0].dev + 0.15) < 1e-12 && fabs(f.v[0].score - 1.5) < 1e-12);
	assert_int_equal(f.nranked, 1);
	assert_int_equal(f.rank[0], 4);
	assert_int_equal(f.nmodels, 2);
	assert_int_equal(f.nsmall, 1);
	fleet_free(&f);
	/* beyond k MADs but within the tolerance (-20%): not a stray */
	over[PH_HK_BANDWIDTH].lower = -0.2;
	over[PH_HK_BANDWIDTH].upper = 0.2;
	set[PH_HK_BANDWIDTH] = true;
	fleet_compare(s, 6, 4, over, set, &f);
	assert_int_equal(f.n, 0);
	fleet_free(&f);
	/* beyond the tolerance but within k MADs (k = 20: 29.7): not a stray */
	set[PH_HK_BANDWIDTH] = false;
	fleet_compare(s, 6, 20, over, set, &f);
	assert_int_equal(f.n, 0);
	fleet_free(&f);
	for (int i = 0; i < 6; i++)
		hset_free(&s[i]);
}

static void test_synthetic_fleet(void **state)
{
	struct ph_hset *sets;
	struct ph_fleet f;
	char err[512];
	int n;

	(void)state;
	assert_int_equal(baseline_load("tests/data/compare", &sets, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 23);
	fleet_compare(sets, n, 4, NULL, NULL, &f);
	assert_int_equal(f.nranked, 1);
	assert_string_equal(sets[f.rank[0]].host, "stray");
	assert_int_equal(f.n, 1);
	assert_string_equal(f.v[0].fig.name, "bandwidth_triad");
	assert_int_equal(f.v[0].fig.node, 1);
	assert_int_equal(f.nsmall, 2);
	fleet_free(&f);
	baseline_free(sets, n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_by_hand),
		cmocka_unit_test(test_synthetic_fleet),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
