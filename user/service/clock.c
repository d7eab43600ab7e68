// SPDX-License-Identifier: GPL-2.0-only
/*
 * clock.c - choose the clock, find the TSC frequency and say how.
 */
#include "clock.h"
#include "cpu.h"
#include "kmod.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CLOCKSOURCE_SYSFS "/sys/devices/system/clocksource/clocksource0"

/* Calibration rounds and their length: 7 x 20 ms keeps info fast while the
 * clock_gettime() read error (~50 ns) stays below 10 ppm of a round; the
 * median round is kept, so up to 3 disturbed rounds do not matter. */
#define CAL_ROUNDS 7
#define CAL_SECONDS 0.020

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * One point of the calibration: a CLOCK_MONOTONIC_RAW reading and the TSC at
 * that instant, taken as the midpoint of two TSC reads around it.  If the
 * thread is preempted between the reads the midpoint is wrong by up to the
 * time it was away, so the tightest bracket of several tries is kept.
 */
static void cal_point(double *t, double *tsc)
{
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < 16; i++) {
		uint64_t a = tsc_begin();
		double tt = now_mono_raw();
		uint64_t b = tsc_begin();

		if (b - a < best) {
			best = b - a;
			*t = tt;
			*tsc = ((double)a + (double)b) / 2;
		}
	}
}

static void calibrate(struct ph_clock *c)
{
	double hz[CAL_ROUNDS];

	for (int r = 0; r < CAL_ROUNDS; r++) {
		double t0, t1, c0, c1;

		cal_point(&t0, &c0);
		do
			cal_point(&t1, &c1);
		while (t1 - t0 < CAL_SECONDS);
		hz[r] = (c1 - c0) / (t1 - t0);
	}
	qsort(hz, CAL_ROUNDS, sizeof(double), cmp_double);
	c->calibrated_hz = hz[CAL_ROUNDS / 2];
	c->calibration_ppm = (hz[CAL_ROUNDS - 1] - hz[0]) / c->calibrated_hz * 1e6;
}

static bool word_in(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; (p = strstr(p, word)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return true;
	return false;
}

/*
 * A CPUID-reported frequency is used only when the calibration agrees with
 * it to 1%: a hypervisor or firmware may report a nominal value the TSC does
 * not run at, and a wrong frequency would scale every figure.
 */
static bool agrees(double hz, double calibrated)
{
	return calibrated > 0 && fabs(hz - calibrated) / calibrated < 0.01;
}

void clock_setup(struct ph_clock *c, const struct ph_cpu *cpu,
		 const struct ph_kmod *km)
{
	char avail[256] = "";
	double hz;

	memset(c, 0, sizeof(*c));
	c->invariant = cpu->invariant_tsc;
	if (read_text(CLOCKSOURCE_SYSFS "/available_clocksource", avail, sizeof(avail)) < 0)
		avail[0] = '\0';
	if (read_text(CLOCKSOURCE_SYSFS "/current_clocksource", c->clocksource,
		      sizeof(c->clocksource)) < 0)
		snprintf(c->clocksource, sizeof(c->clocksource), "unknown");
	c->kernel_trusts_tsc = word_in(avail, "tsc");

	calibrate(c);
	if (cpu->leaf15[0] && cpu->leaf15[1] && cpu->leaf15[2] &&
	    agrees(hz = (double)cpu->leaf15[2] * cpu->leaf15[1] / cpu->leaf15[0],
		   c->calibrated_hz)) {
		c->tsc_hz = hz;
		snprintf(c->tsc_source, sizeof(c->tsc_source),
			 "CPUID 0x15: crystal %u Hz x %u/%u", cpu->leaf15[2],
			 cpu->leaf15[1], cpu->leaf15[0]);
	} else if (km && km->fd >= 0 && km->info.tsc_khz &&
		   agrees(hz = km->info.tsc_khz * 1e3, c->calibrated_hz)) {
		c->tsc_hz = hz;
		snprintf(c->tsc_source, sizeof(c->tsc_source),
			 "pagehop.ko: the kernel's tsc_khz %u", km->info.tsc_khz);
	} else if (cpu->leaf16[0] &&
		   agrees(hz = cpu->leaf16[0] * 1e6, c->calibrated_hz)) {
		c->tsc_hz = hz;
		snprintf(c->tsc_source, sizeof(c->tsc_source),
			 "CPUID 0x16: base frequency %u MHz", cpu->leaf16[0]);
	} else {
		c->tsc_hz = c->calibrated_hz;
		snprintf(c->tsc_source, sizeof(c->tsc_source),
			 "calibrated against CLOCK_MONOTONIC_RAW (%d x %.0f ms, spread %.0f ppm)",
			 CAL_ROUNDS, CAL_SECONDS * 1e3, c->calibration_ppm);
	}

	if (!c->invariant)
		snprintf(c->why, sizeof(c->why),
			 "the TSC is not invariant (CPUID 0x80000007 EDX bit 8 clear)");
	else if (!c->kernel_trusts_tsc)
		snprintf(c->why, sizeof(c->why),
			 "the kernel does not list tsc as a usable clocksource (marked unstable)");
	c->use_tsc = !c->why[0];
	c->name = c->use_tsc ? "tsc" : "monotonic_raw";

	/* Resolution: the smallest non-zero step between two reads. */
	c->resolution_ns = INFINITY;
	for (int i = 0; i < 1000; i++) {
		uint64_t a = clock_begin(c), b = clock_end(c);
		double ns = clock_ticks_to_ns(c, b - a);

		if (b > a && ns < c->resolution_ns)
			c->resolution_ns = ns;
	}
}

static uint64_t mono_raw_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t clock_begin(const struct ph_clock *c)
{
	return c->use_tsc ? tsc_begin() : mono_raw_ns();
}

uint64_t clock_end(const struct ph_clock *c)
{
	return c->use_tsc ? tsc_end() : mono_raw_ns();
}

double clock_ticks_to_ns(const struct ph_clock *c, uint64_t ticks)
{
	return c->use_tsc ? (double)ticks * 1e9 / c->tsc_hz : (double)ticks;
}
