/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * counters.h - hardware counters around the timed blocks of a latency
 * figure: the events pmu.c chooses for this CPU, resolved by libpfm4 and
 * opened with perf_event_open(2) on the measuring thread itself (user
 * space only, so perf_event_paranoid 2, the default, allows it).
 * latency.c enables them around each timed block when the session has
 * them; the study reads them per load.
 */
#ifndef PAGEHOP_COUNTERS_H
#define PAGEHOP_COUNTERS_H

#include <stdbool.h>
#include <stdint.h>

#include "cpu.h"
#include "pmu.h"

struct ph_counters {
	bool usable;			/* chosen, resolved and opened */
	char why[320];			/* why not, in one line */
	struct pmu_choice choice;
	int fd[PMU_NROLES];		/* -1: not counted */
	uint64_t loads;			/* loads in the enabled intervals */
	int open_err;			/* first -errno of perf_event_open */
};

/*
 * Whether this CPU can be counted here: a CPU PMU under devices, the CPU in
 * pmu.c's table, libpfm4 initialised.  Sets usable (not yet opened) or why.
 */
void counters_init(struct ph_counters *c, const struct ph_cpu *cpu, const char *devices);

/*
 * Open the events on the calling thread, disabled (run it on the thread
 * that measures).  On failure why says so and usable goes false.
 */
void counters_open_here(struct ph_counters *c);

void counters_reset(struct ph_counters *c);	/* counts and loads to 0 */
void counters_enable(struct ph_counters *c);
void counters_disable(struct ph_counters *c, uint64_t loads);

/*
 * Counts per load since the reset, per role (NAN: not counted); false when
 * nothing was counted.
 */
bool counters_per_load(const struct ph_counters *c, double out[PMU_NROLES]);

void counters_close(struct ph_counters *c);

#endif
