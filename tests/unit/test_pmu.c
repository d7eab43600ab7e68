// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_pmu.c - the counter events chosen per vendor, family and model, on
 * hand-given CPUs; every name in the table is resolved by libpfm4 itself
 * with that CPU's PMU forced (LIBPFM_FORCE_PMU), the second path; and
 * whether a CPU PMU is present, on a made-up sysfs directory.
 */
#include "unit.h"
#include "pmu.h"
#include "util.h"

#include <errno.h>
#include <perfmon/pfmlib_perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static void test_choice(void **state)
{
	struct pmu_choice c;

	(void)state;
	/* Skylake-SP: the STLB walks, WALK_ACTIVE for the cycles. */
	assert_int_equal(pmu_choose("GenuineIntel", 6, 0x55, &c), 0);
	assert_string_equal(c.pmu, "skx");
	assert_string_equal(c.ev[PMU_WALK_CYCLES], "DTLB_LOAD_MISSES:WALK_ACTIVE");
	assert_string_equal(c.ev[PMU_L2_TLB], "DTLB_LOAD_MISSES:WALK_COMPLETED");
	assert_string_equal(c.ev[PMU_LLC], "LONGEST_LAT_CACHE:MISS");
	assert_true(c.l1_adds_l2);
	/* Haswell-EP: WALK_DURATION. */
	assert_int_equal(pmu_choose("GenuineIntel", 6, 0x3f, &c), 0);
	assert_string_equal(c.pmu, "hsw");
	assert_string_equal(c.ev[PMU_WALK_CYCLES], "DTLB_LOAD_MISSES:WALK_DURATION");
	/* Sapphire Rapids. */
	assert_int_equal(pmu_choose("GenuineIntel", 6, 0x8f, &c), 0);
	assert_string_equal(c.pmu, "spr");
	/* Zen 2 (family 17h model 31h, Rome): no walk-cycle event. */
	assert_int_equal(pmu_choose("AuthenticAMD", 0x17, 0x31, &c), 0);
	assert_string_equal(c.pmu, "amd64_fam17h_zen2");
	assert_null(c.ev[PMU_WALK_CYCLES]);
	assert_false(c.l1_adds_l2);
	assert_non_null(strstr(c.ev[PMU_L2_TLB], "TLB_RELOAD_4K_L2_MISS"));
	assert_null(strstr(c.ev[PMU_L2_TLB], "L2_HIT"));
	/* Zen 1 (Naples, model 01h), Zen 3 (Milan, 01h), Zen 4 (Genoa, 11h; Phoenix, 74h). */
	assert_int_equal(pmu_choose("AuthenticAMD", 0x17, 0x01, &c), 0);
	assert_string_equal(c.pmu, "amd64_fam17h_zen1");
	assert_int_equal(pmu_choose("AuthenticAMD", 0x19, 0x01, &c), 0);
	assert_string_equal(c.pmu, "amd64_fam19h_zen3");
	assert_int_equal(pmu_choose("AuthenticAMD", 0x19, 0x11, &c), 0);
	assert_string_equal(c.pmu, "amd64_fam19h_zen4");
	assert_int_equal(pmu_choose("AuthenticAMD", 0x19, 0x74, &c), 0);
	assert_string_equal(c.pmu, "amd64_fam19h_zen4");
	assert_int_equal(pmu_choose("HygonGenuine", 0x18, 0x00, &c), 0);
	assert_string_equal(c.pmu, "amd64_fam17h_zen1");
	/* Not in the table: a hybrid Alder Lake, Zen 5, a family-15 Intel, no vendor. */
	assert_int_equal(pmu_choose("GenuineIntel", 6, 0x97, &c), -ENOENT);
	assert_int_equal(pmu_choose("AuthenticAMD", 0x1a, 0x02, &c), -ENOENT);
	assert_int_equal(pmu_choose("GenuineIntel", 15, 0x04, &c), -ENOENT);
	assert_int_equal(pmu_choose("", 0, 0, &c), -ENOENT);
	assert_int_equal(pmu_choose("HygonGenuine", 0x17, 0x00, &c), -ENOENT);
}

/*
 * Resolve c's events in libpfm4 with its PMU forced, in a child: libpfm4
 * reads LIBPFM_FORCE_PMU once, and a second pfm_initialize after
 * pfm_terminate does not start afresh.  The kernel's generic events
 * ("perf::") are libpfm4's perf PMU, which a forced PMU leaves out: those
 * are resolved unforced (forced false).  The child's exit: 0 all resolved.
 */
static int resolve_in_child(const struct pmu_choice *c, bool forced)
{
	int status = 0;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (!pid) {
		if (forced)
			setenv("LIBPFM_FORCE_PMU", c->pmu, 1);
		if (pfm_initialize() != PFM_SUCCESS)
			_exit(100);
		for (int r = 0; r < PMU_NROLES; r++) {
			struct perf_event_attr attr = { 0 };
			pfm_perf_encode_arg_t arg = { .attr = &attr, .size = sizeof(arg) };
			int rc;

			if (!c->ev[r] || forced == !strncmp(c->ev[r], "perf::", 6))
				continue;
			rc = pfm_get_os_event_encoding(c->ev[r], PFM_PLM3, PFM_OS_PERF_EVENT, &arg);
			if (rc != PFM_SUCCESS) {
				fprintf(stderr, "%s %s: %s\n", c->pmu, c->ev[r], pfm_strerror(rc));
				_exit(1 + r);
			}
		}
		_exit(0);
	}
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Every event of the table resolves in libpfm4 with its PMU forced. */
static void test_names_resolve(void **state)
{
	static const struct { const char *v; int f, m; } cpus[] = {
		{ "GenuineIntel", 6, 0x3c }, { "GenuineIntel", 6, 0x3d }, { "GenuineIntel", 6, 0x4e },
		{ "GenuineIntel", 6, 0x55 }, { "GenuineIntel", 6, 0x6a }, { "GenuineIntel", 6, 0x8f },
		{ "AuthenticAMD", 0x17, 0x01 }, { "AuthenticAMD", 0x17, 0x31 },
		{ "AuthenticAMD", 0x19, 0x01 }, { "AuthenticAMD", 0x19, 0x11 },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cpus); i++) {
		struct pmu_choice c;

		assert_int_equal(pmu_choose(cpus[i].v, cpus[i].f, cpus[i].m, &c), 0);
		assert_int_equal(resolve_in_child(&c, true), 0);
		assert_int_equal(resolve_in_child(&c, false), 0);
	}
}

static void test_present(void **state)
{
	char dir[] = "/tmp/pmuXXXXXX", sub[64], why[256] = "";

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_false(pmu_present(dir, why, sizeof(why)));
	assert_non_null(strstr(why, "no CPU PMU: no cpu under /tmp/pmu"));
	snprintf(sub, sizeof(sub), "%s/cpu_core", dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	assert_true(pmu_present(dir, why, sizeof(why)));
	rmdir(sub);
	rmdir(dir);
	assert_string_equal(pmu_role_col(PMU_LLC), "llc_miss_per_load");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_choice),
		cmocka_unit_test(test_names_resolve),
		cmocka_unit_test(test_present),
	};

	return cmocka_run_group_tests_name("pmu", tests, NULL, NULL);
}
