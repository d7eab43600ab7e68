// SPDX-License-Identifier: GPL-2.0-only
/*
 * phases.c - the seconds of each phase of a run, and the total.
 */
#include "phases.h"
#include "util.h"

static double t_start = -1, t_stop = -1;
static double spent[PH_PHASE_COUNT];

void phases_start(void)
{
	t_start = now_mono_raw();
	t_stop = -1;
	for (int i = 0; i < PH_PHASE_COUNT; i++)
		spent[i] = 0;
}

bool phases_started(void)
{
	return t_start >= 0;
}

void phases_stop(void)
{
	if (phases_started() && t_stop < 0)
		t_stop = now_mono_raw();
}

bool phases_stopped(void)
{
	return t_stop >= 0;
}

void phase_add(enum ph_phase p, double seconds)
{
	if (t_stop < 0 && p >= 0 && p < PH_PHASE_COUNT && seconds > 0)
		spent[p] += seconds;
}

double phase_seconds(enum ph_phase p)
{
	return p >= 0 && p < PH_PHASE_COUNT ? spent[p] : 0;
}

double phases_setup(void)
{
	double sum = 0;

	for (int i = 0; i < PH_PHASE_SETUP_END; i++)
		sum += spent[i];
	return sum;
}

double phases_total(void)
{
	if (!phases_started())
		return 0;
	return (t_stop >= 0 ? t_stop : now_mono_raw()) - t_start;
}

const char *phase_key(enum ph_phase p)
{
	static const char *const keys[PH_PHASE_COUNT] = {
		"alloc_s", "touch_s", "verify_s", "chain_s", "arrays_s", "warmup_s", "measure_s",
		"check_s",
	};

	return p >= 0 && p < PH_PHASE_COUNT ? keys[p] : "?";
}
