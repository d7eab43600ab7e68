// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_counters.c - the counting path (libpfm4 resolution, perf_event_open
 * on the calling thread, reset/enable/disable, per-load division) on an
 * event every Linux has: the kernel's software page-fault counter, with a
 * known number of first touches, since a hardware PMU may be absent here.
 * Where the kernel refuses perf events altogether, the test says so and
 * skips.
 */
#include "unit.h"
#include "counters.h"

#include <math.h>
#include <perfmon/pfmlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define PAGES 64

static void test_page_faults(void **state)
{
	struct ph_counters c;
	double per[PMU_NROLES];
	long pg = sysconf(_SC_PAGESIZE);
	char *m;

	(void)state;
	memset(&c, 0, sizeof(c));
	for (int r = 0; r < PMU_NROLES; r++)
		c.fd[r] = -1;
	assert_int_equal(pfm_initialize(), PFM_SUCCESS);
	c.usable = true;
	c.choice.ev[PMU_LLC] = "perf::PERF_COUNT_SW_PAGE_FAULTS";
	counters_open_here(&c);
	if (!c.usable) {
		printf("SKIP: %s\n", c.why);
		skip();
	}
	assert_true(c.fd[PMU_LLC] >= 0);
	assert_int_equal(c.fd[PMU_L1_DTLB], -1);
	m = mmap(NULL, (size_t)(PAGES * pg), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(m != MAP_FAILED);
	/* Faults before the enable are not counted: touch one page, then reset. */
	m[0] = 1;
	counters_reset(&c);
	counters_enable(&c);
	for (int i = 1; i < PAGES; i++)
		((volatile char *)m)[(size_t)i * (size_t)pg] = 1;
	counters_disable(&c, PAGES - 1);
	/* After the disable, nothing more is counted. */
	munmap(m, (size_t)(PAGES * pg));
	assert_true(counters_per_load(&c, per));
	/*
	 * One fault per new page, plus under ASan one per page of the shadow
	 * of what was touched (an eighth of it, so 8 more); a stray fault of
	 * the loop's own code or stack at most besides.
	 */
	if (!(per[PMU_LLC] >= 1.0 && per[PMU_LLC] < 1.25))
		fail_msg("%.3f page faults per first touch, expected 1 to 1.25", per[PMU_LLC]);
	assert_true(isnan(per[PMU_L1_DTLB]));
	counters_close(&c);
	assert_int_equal(c.fd[PMU_LLC], -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_page_faults),
	};

	return cmocka_run_group_tests_name("counters", tests, NULL, NULL);
}
