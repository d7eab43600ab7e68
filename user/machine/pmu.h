/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pmu.h - which hardware events count the page-size study's effects on this
 * CPU: a table from vendor, family and model to libpfm4 event names (the
 * names libpfm4 resolves for that CPU's PMU), and whether the kernel exposes
 * a CPU PMU at all.  Counting itself is in user/service/counters.c.
 */
#ifndef PAGEHOP_PMU_H
#define PAGEHOP_PMU_H

#include <stdbool.h>
#include <stddef.h>

enum pmu_role {
	PMU_L1_DTLB,		/* loads that miss the L1 data TLB */
	PMU_L2_TLB,		/* loads that miss the L2 TLB: page walks */
	PMU_WALK_CYCLES,	/* cycles with a page walk in progress */
	PMU_LLC,		/* last-level cache misses */
	PMU_NROLES,
};

struct pmu_choice {
	const char *pmu;		/* libpfm4's PMU name ("skl", "amd64_fam19h_zen3") */
	const char *ev[PMU_NROLES];	/* libpfm4 event strings; NULL: the CPU has none */
	bool l1_adds_l2;		/* ev[PMU_L1_DTLB] counts only L1 misses that hit
					 * the L2 TLB: L1 misses are it plus ev[PMU_L2_TLB] */
};

/*
 * The events for a CPU (vendor as CPUID gives it, display family and
 * model).  0, or -ENOENT for a CPU not in the table.
 */
int pmu_choose(const char *vendor, int family, int model, struct pmu_choice *out);

/* Column name of a role, per load: "l1_dtlb_miss_per_load", ... */
const char *pmu_role_col(enum pmu_role r);

/*
 * Whether the kernel exposes a CPU PMU: "cpu" (or "cpu_core" on hybrid
 * parts) under devices (normally /sys/bus/event_source/devices).  When
 * not, why says so in words.
 */
bool pmu_present(const char *devices, char *why, size_t size);

#endif
