// SPDX-License-Identifier: GPL-2.0-only
/*
 * pmu.c - the event table of pmu.h.  The names are libpfm4's (4.13); each
 * is checked by test_pmu against libpfm4 itself with that PMU forced.
 */
#include "pmu.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/*
 * Intel: DTLB_LOAD_MISSES:STLB_HIT counts L1 misses served by the STLB, and
 * WALK_COMPLETED those that walked, so the L1 misses are their sum.  Walk
 * cycles: WALK_DURATION up to Broadwell, WALK_ACTIVE (cycles with a walk
 * busy) from Skylake on.  LONGEST_LAT_CACHE:MISS is the LLC's miss event on
 * all of them.
 */
#define INTEL(p, walk)                                                        \
	{ .pmu = p, .l1_adds_l2 = true,                                       \
	  .ev = { "DTLB_LOAD_MISSES:STLB_HIT", "DTLB_LOAD_MISSES:WALK_COMPLETED", \
		  "DTLB_LOAD_MISSES:" walk, "LONGEST_LAT_CACHE:MISS" } }

/*
 * AMD Zen: L1_DTLB_MISS's unit masks split the reloads by page size and by
 * L2 hit or miss: all of them are the L1 misses, the L2_MISS ones the
 * walks.  No walk-cycle event.  The L3 is not in the core PMU: the kernel's
 * generic cache-misses event stands for the LLC.
 */
#define ZEN_L2_MISS "TLB_RELOAD_1G_L2_MISS:TLB_RELOAD_2M_L2_MISS:TLB_RELOAD_4K_L2_MISS"
#define ZEN_L2_HIT "TLB_RELOAD_1G_L2_HIT:TLB_RELOAD_2M_L2_HIT:TLB_RELOAD_4K_L2_HIT"
#define ZEN(p, coalesced)                                                      \
	{ .pmu = p,                                                            \
	  .ev = { "L1_DTLB_MISS:" ZEN_L2_MISS ":" ZEN_L2_HIT coalesced,         \
		  "L1_DTLB_MISS:" ZEN_L2_MISS, NULL, "perf::PERF_COUNT_HW_CACHE_MISSES" } }
#define ZEN_COALESCED ":TLB_RELOAD_COALESCED_PAGE_MISS:TLB_RELOAD_COALESCED_PAGE_HIT"

static const struct pmu_choice hsw = INTEL("hsw", "WALK_DURATION");
static const struct pmu_choice bdw = INTEL("bdw", "WALK_DURATION");
static const struct pmu_choice skl = INTEL("skl", "WALK_ACTIVE");
static const struct pmu_choice skx = INTEL("skx", "WALK_ACTIVE");
static const struct pmu_choice icl = INTEL("icl", "WALK_ACTIVE");
static const struct pmu_choice spr = INTEL("spr", "WALK_ACTIVE");
static const struct pmu_choice zen1 = ZEN("amd64_fam17h_zen1", "");
static const struct pmu_choice zen2 = ZEN("amd64_fam17h_zen2", ZEN_COALESCED);
static const struct pmu_choice zen3 = ZEN("amd64_fam19h_zen3", ZEN_COALESCED);
static const struct pmu_choice zen4 = ZEN("amd64_fam19h_zen4", ZEN_COALESCED);

/* Intel family 6 models (Intel SDM vol. 4, table 2-1). */
static const struct {
	int model;
	const struct pmu_choice *c;
} intel6[] = {
	{ 0x3c, &hsw }, { 0x3f, &hsw }, { 0x45, &hsw }, { 0x46, &hsw },
	{ 0x3d, &bdw }, { 0x47, &bdw }, { 0x4f, &bdw }, { 0x56, &bdw },
	{ 0x4e, &skl }, { 0x5e, &skl }, { 0x8e, &skl }, { 0x9e, &skl }, { 0xa5, &skl }, { 0xa6, &skl },
	{ 0x55, &skx },
	{ 0x6a, &icl }, { 0x6c, &icl }, { 0x7d, &icl }, { 0x7e, &icl }, { 0x8c, &icl }, { 0x8d, &icl },
	{ 0xa7, &icl },
	{ 0x8f, &spr }, { 0xcf, &spr },
};

int pmu_choose(const char *vendor, int family, int model, struct pmu_choice *out)
{
	const struct pmu_choice *c = NULL;

	if (!strcmp(vendor, "GenuineIntel") && family == 6) {
		for (size_t i = 0; i < ARRAY_SIZE(intel6); i++)
			if (intel6[i].model == model)
				c = intel6[i].c;
	} else if (!strcmp(vendor, "AuthenticAMD")) {
		if (family == 0x17)
			c = model < 0x30 ? &zen1 : &zen2;
		else if (family == 0x19)
			/* Zen 4: models 10h-1Fh and 60h-AFh; the rest of family 19h is Zen 3. */
			c = (model >= 0x10 && model <= 0x1f) || (model >= 0x60 && model <= 0xaf) ? &zen4 : &zen3;
	} else if (!strcmp(vendor, "HygonGenuine") && family == 0x18) {
		c = &zen1;	/* Hygon Dhyana is a Zen 1 */
	}
	if (!c)
		return -ENOENT;
	*out = *c;
	return 0;
}

const char *pmu_role_col(enum pmu_role r)
{
	static const char *const cols[PMU_NROLES] = {
		[PMU_L1_DTLB] = "l1_dtlb_miss_per_load",
		[PMU_L2_TLB] = "l2_tlb_miss_per_load",
		[PMU_WALK_CYCLES] = "walk_cycles_per_load",
		[PMU_LLC] = "llc_miss_per_load",
	};

	return r < PMU_NROLES ? cols[r] : "?";
}

bool pmu_present(const char *devices, char *why, size_t size)
{
	static const char *const names[] = { "cpu", "cpu_core" };
	char path[512];
	struct stat st;

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		snprintf(path, sizeof(path), "%s/%s", devices, names[i]);
		if (!stat(path, &st))
			return true;
	}
	snprintf(why, size, "no CPU PMU: no cpu under %s (a virtual machine without a virtual PMU, or a kernel without perf events for this CPU)",
		 devices);
	return false;
}
