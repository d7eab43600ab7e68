// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench/firstblock.c - does the first block after the team slept in its
 * barrier run slower than the block right after it?  Built and run by
 * bench/firstblock.sh against build/libpagehop.a.
 *
 * Each sample runs WARM untimed blocks, then two timed blocks back to back
 * through team_run, as the engines run theirs (measure_figure between
 * samples, so the team sleeps there as it does in a run).  A first-block
 * effect shows as first - second above 0 in most samples, beyond the CI
 * of the paired differences' median.  The loops are the engines' own:
 *
 *   c2c      c2c_pingpong_timed, one run, on CPUs 0 and 1 (pagehop c2c's block)
 *   without  delay + count++ on CPU 0 (locks' loop without the lock)
 *   tas      the same under tas_acquire/release, one thread (locks x1)
 *   chase    a random cycle over 64 MiB on CPU 0 (the chaser of loaded)
 *   read     both CPUs read a 32 MiB array of their own, a line at a
 *            time, wrapping (the bandwidth engines' blocks: stream,
 *            scale, goaround); ns a line, thread 0's time
 *
 * usage: firstblock c2c|without|tas|chase|read SECONDS [WARM]
 */
#include "runner.h"
#include "clock.h"
#include "contend.h"
#include "stats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHASE_BYTES (64u << 20)
#define READ_BYTES (32u << 20)

struct fb {
	int mode;		/* 0 c2c, 1 without, 2 tas, 3 chase, 4 read */
	volatile uint64_t *line;
	uint64_t run_tsc;	/* c2c: the ping side's own TSC count, unused */
	volatile uint32_t *lock;
	void **head;
	uint64_t *arr[2];
	uint64_t pos[2];
	uint64_t units;
	struct ph_team *team;
	struct ph_clock clk;
	uint64_t ticks[2];
	int warm;
	double *first, *second;
	size_t n, cap;
};

static void work(void *ctx, int tid)
{
	struct fb *f = ctx;
	void **p = f->head;

	switch (f->mode) {
	case 0:
		c2c_pingpong_timed(f->line, f->units, (unsigned)tid, tid ? NULL : &f->run_tsc, 1);
		break;
	case 1:
		for (uint64_t i = 0; i < f->units; i++) {
			contend_delay(100);
			*f->line += 1;
		}
		break;
	case 2:
		for (uint64_t i = 0; i < f->units; i++) {
			tas_acquire(f->lock);
			contend_delay(100);
			*f->line += 1;
			tas_release(f->lock);
		}
		break;
	case 3:
		for (uint64_t i = 0; i < f->units; i++)
			p = *p;
		f->head = p;
		break;
	default: {
		uint64_t sum = 0, at = f->pos[tid], lines = READ_BYTES / 64;

		for (uint64_t i = 0; i < f->units; i++, at = at + 1 < lines ? at + 1 : 0)
			sum += f->arr[tid][at * 8];
		f->pos[tid] = at;
		__asm__ __volatile__("" : : "r"(sum));
	}
	}
}

static double block(void *ctx, uint64_t units)
{
	struct fb *f = ctx;

	f->units = units;
	*f->line = 0;
	team_run(f->team, work, f, &f->clk, f->ticks);
	return clock_ticks_to_ns(&f->clk, f->ticks[0]);
}

static int sample(void *ctx, double *s)
{
	struct fb *f = ctx;
	double a, b;

	for (int i = 0; i < f->warm; i++)
		block(f, f->units);
	a = block(f, f->units) / (double)f->units;
	b = block(f, f->units) / (double)f->units;
	if (f->n == f->cap) {
		f->cap = f->cap ? 2 * f->cap : 1024;
		f->first = realloc(f->first, f->cap * sizeof(double));
		f->second = realloc(f->second, f->cap * sizeof(double));
		if (!f->first || !f->second)
			return -1;
	}
	f->first[f->n] = a;
	f->second[f->n++] = b;
	*s = a - b;
	return 0;
}

/* A random cycle through the 64-byte slots of buf (Sattolo's shuffle). */
static void **random_cycle(char *buf, size_t bytes)
{
	size_t slots = bytes / 64, *perm = malloc(slots * sizeof(size_t));
	uint64_t x = 88172645463325252ull;

	for (size_t i = 0; i < slots; i++)
		perm[i] = i;
	for (size_t i = slots - 1; i > 0; i--) {
		size_t j, t;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		j = (size_t)(x % i);
		t = perm[i], perm[i] = perm[j], perm[j] = t;
	}
	for (size_t i = 0; i < slots; i++)
		*(void **)(buf + perm[i] * 64) = buf + perm[(i + 1) % slots] * 64;
	free(perm);
	return (void **)buf;
}

int main(int argc, char **argv)
{
	static const char *const modes[] = { "c2c", "without", "tas", "chase", "read" };
	static const double target[] = { 0.001, 0.002, 0.002, 0.005, 0.005 };
	struct fb f = { .mode = -1 };
	struct ph_mcfg cfg = { .ci_target = 0, .min_samples = 10, .max_samples = 100000 };
	struct ph_result r;
	struct ph_stats a, b, d;
	int cpus[2] = { 0, 1 };
	size_t slower = 0;
	char why[256];

	for (int i = 0; argc > 2 && i < 5; i++)
		f.mode = strcmp(argv[1], modes[i]) ? f.mode : i;
	if (f.mode < 0) {
		fprintf(stderr, "usage: %s c2c|without|tas|chase|read SECONDS [WARM]\n", argv[0]);
		return 2;
	}
	cfg.time_s = atof(argv[2]);
	f.warm = argc > 3 ? atoi(argv[3]) : 0;
	f.clk.use_tsc = false;	/* CLOCK_MONOTONIC_RAW: ns, blocks of ms */
	f.line = aligned_alloc(4096, 4096);
	f.lock = (volatile uint32_t *)((char *)f.line + 128);
	*f.lock = 0;
	if (f.mode == 3)
		f.head = random_cycle(aligned_alloc(4096, CHASE_BYTES), CHASE_BYTES);
	for (int t = 0; f.mode == 4 && t < 2; t++) {
		f.arr[t] = aligned_alloc(4096, READ_BYTES);
		memset(f.arr[t], t + 1, READ_BYTES);
	}
	f.team = team_start(cpus, f.mode == 0 || f.mode == 4 ? 2 : 1, why, sizeof(why));
	if (!f.team) {
		fprintf(stderr, "%s\n", why);
		return 1;
	}
	f.units = calibrate_block(block, &f, 64, 1, target[f.mode]);
	measure_figure(&cfg, sample, &f, &r);
	team_stop(f.team);
	stats_compute(f.first, f.n, &a);
	stats_compute(f.second, f.n, &b);
	stats_compute(r.samples, r.n, &d);
	for (size_t i = 0; i < r.n; i++)
		slower += r.samples[i] > 0;
	printf("%-8s warm %d: %zu samples of %llu units; first %.3f [%.3f, %.3f], second %.3f [%.3f, %.3f] ns a unit; first - second %.3f [%.3f, %.3f] (%+.2f%%), first slower in %zu of %zu\n",
	       modes[f.mode], f.warm, f.n, (unsigned long long)f.units, a.median, a.ci_lo, a.ci_hi,
	       b.median, b.ci_lo, b.ci_hi, d.median, d.ci_lo, d.ci_hi, 100 * d.median / b.median,
	       slower, r.n);
	return 0;
}
