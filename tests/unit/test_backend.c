// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_backend.c - which backend --backend auto takes, as pure logic: the
 * first choice for each page size and module state, and the fallback when
 * pagehop.ko refuses an allocation.  The expected backends are written out
 * by hand from docs/pagehop.1 (--backend), not derived from the code.
 */
#include "unit.h"
#include "buffer.h"

#include <errno.h>
#include <string.h>

/* A module as INFO describes it; fd only needs to look open. */
static struct ph_kmod module_with(uint64_t features)
{
	struct ph_kmod k;

	memset(&k, 0, sizeof(k));
	k.fd = features ? 1000 : -1;
	k.info.features = features;
	return k;
}

static void test_first_choice(void **state)
{
	struct ph_kmod none = module_with(0);
	struct ph_kmod all = module_with(PAGEHOP_FEAT_PAGE_4K | PAGEHOP_FEAT_PAGE_2M |
					 PAGEHOP_FEAT_PAGE_1G | PAGEHOP_FEAT_QUERY);
	/* A 6.1 kernel: the module maps 4 KiB pages only. */
	struct ph_kmod small = module_with(PAGEHOP_FEAT_PAGE_4K | PAGEHOP_FEAT_QUERY);

	(void)state;
	assert_int_equal(buffer_auto_backend(&none, PH_PS_4K), PH_BACKEND_ANON);
	assert_int_equal(buffer_auto_backend(&none, PH_PS_THP), PH_BACKEND_ANON);
	assert_int_equal(buffer_auto_backend(&none, PH_PS_2M), PH_BACKEND_HUGETLB);
	assert_int_equal(buffer_auto_backend(&none, PH_PS_1G), PH_BACKEND_HUGETLB);
	assert_int_equal(buffer_auto_backend(&all, PH_PS_4K), PH_BACKEND_KMOD);
	assert_int_equal(buffer_auto_backend(&all, PH_PS_2M), PH_BACKEND_KMOD);
	assert_int_equal(buffer_auto_backend(&all, PH_PS_1G), PH_BACKEND_KMOD);
	assert_int_equal(buffer_auto_backend(&all, PH_PS_THP), PH_BACKEND_ANON);
	assert_int_equal(buffer_auto_backend(&small, PH_PS_4K), PH_BACKEND_KMOD);
	assert_int_equal(buffer_auto_backend(&small, PH_PS_2M), PH_BACKEND_HUGETLB);
	assert_int_equal(buffer_auto_backend(&small, PH_PS_1G), PH_BACKEND_HUGETLB);
}

/*
 * The module refuses with E2BIG (over its pin cap, or the node would fall
 * under its 5% floor) or ENOMEM (no contiguous run on the node): the pages
 * can still come from the hugetlb pool (2M, 1G) or anonymous memory (4K).
 * Any other error is a fault to report, not to paper over.
 */
static void test_fallback(void **state)
{
	static const struct {
		enum ph_psize ps;
		int err;
		enum ph_backend want;
	} cases[] = {
		{ PH_PS_1G, -E2BIG, PH_BACKEND_HUGETLB },
		{ PH_PS_1G, -ENOMEM, PH_BACKEND_HUGETLB },
		{ PH_PS_2M, -E2BIG, PH_BACKEND_HUGETLB },
		{ PH_PS_2M, -ENOMEM, PH_BACKEND_HUGETLB },
		{ PH_PS_4K, -E2BIG, PH_BACKEND_ANON },
		{ PH_PS_4K, -ENOMEM, PH_BACKEND_ANON },
		{ PH_PS_1G, 0, PH_BACKEND_AUTO },
		{ PH_PS_1G, -EINVAL, PH_BACKEND_AUTO },
		{ PH_PS_1G, -EFAULT, PH_BACKEND_AUTO },
		{ PH_PS_1G, -EINTR, PH_BACKEND_AUTO },
		{ PH_PS_1G, -EOPNOTSUPP, PH_BACKEND_AUTO },
		{ PH_PS_1G, -ENODEV, PH_BACKEND_AUTO },
		{ PH_PS_2M, -EPERM, PH_BACKEND_AUTO },
		{ PH_PS_THP, -E2BIG, PH_BACKEND_AUTO },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		enum ph_backend got = buffer_auto_fallback(cases[i].ps, cases[i].err);

		if (got != cases[i].want)
			fail_msg("%s pages, error %d: fallback %s, want %s", psize_name(cases[i].ps),
				 cases[i].err, backend_name(got), backend_name(cases[i].want));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_choice),
		cmocka_unit_test(test_fallback),
	};

	return cmocka_run_group_tests_name("backend", tests, NULL, NULL);
}
