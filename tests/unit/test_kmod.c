// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_kmod.c - what the command says when pagehop.ko refuses an ALLOC: each
 * of the module's errnos (docs/abi.md) gets its own reason, and the one for
 * RLIMIT_MEMLOCK names both ways out.
 */
#include "unit.h"
#include "kmod.h"

#include <errno.h>
#include <string.h>

static void test_alloc_why(void **state)
{
	const char *memlock = kmod_alloc_why(-EPERM);

	(void)state;
	assert_non_null(strstr(memlock, "raise ulimit -l (RLIMIT_MEMLOCK)"));
	assert_non_null(strstr(memlock, "or run with CAP_IPC_LOCK"));
	assert_non_null(strstr(kmod_alloc_why(-ENOMEM), "free memory on that node"));
	assert_non_null(strstr(kmod_alloc_why(-E2BIG), "pin cap"));
	assert_string_equal(kmod_alloc_why(-EINTR), strerror(EINTR));
	/* Three different reasons: none of the three is mistaken for another. */
	assert_string_not_equal(memlock, kmod_alloc_why(-ENOMEM));
	assert_string_not_equal(memlock, kmod_alloc_why(-E2BIG));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alloc_why),
	};

	return cmocka_run_group_tests_name("kmod", tests, NULL, NULL);
}
