// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench/rebase.c - what pages --same-frames saves a view: a random chain
 * over SIZE written and checked from its order (chase_link_part's four
 * passes: what each view cost before) against the same chain moved from
 * one mapping of the frames to another (chase_rebase_part's one pass).
 * Two mappings of one memfd are the views; one thread does both, as
 * chain.c's passes under 64 MiB do (over it a team of the node's CPUs
 * runs either).  Each pair writes the chain in one view and rebases it
 * into the other, the views taking turns; prints "link_s rebase_s" a pair.
 * Built and run by bench/rebase.sh against build/libpagehop.a.
 *
 * usage: rebase SIZE_MIB PAIRS
 */
#include "chase.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC_RAW, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int link_all(char *b, uint64_t m, const uint32_t *ord, uint32_t *next)
{
	static const enum chase_link_step steps[] = {
		CHASE_LINK_CLEAR, CHASE_LINK_SCATTER, CHASE_LINK_WRITE, CHASE_LINK_VERIFY,
	};

	for (size_t k = 0; k < sizeof(steps) / sizeof(steps[0]); k++)
		if (chase_link_part(b, m, ord, next, steps[k], 0, m, NULL))
			return -1;
	return 0;
}

int main(int argc, char **argv)
{
	struct chase_spec rnd = { .pattern = CHASE_RANDOM, .seed = 1 };
	uint64_t bytes, m, bad;
	uint32_t *ord, *next;
	char *v[2];
	int fd, pairs;

	if (argc != 3 || atoi(argv[1]) < 1 || (pairs = atoi(argv[2])) < 1) {
		fprintf(stderr, "usage: rebase SIZE_MIB PAIRS\n");
		return 2;
	}
	bytes = (uint64_t)atoi(argv[1]) << 20;
	m = bytes / CHASE_SLOT;
	fd = memfd_create("bench-rebase", 0);
	ord = malloc(m * sizeof(*ord));
	next = malloc(m * sizeof(*next));
	if (fd < 0 || ftruncate(fd, (off_t)bytes) || !ord || !next)
		return 1;
	for (int k = 0; k < 2; k++) {
		v[k] = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, 0);
		if (v[k] == MAP_FAILED)
			return 1;
	}
	if (chase_order_part(bytes, &rnd, ord, 0, m, NULL))
		return 1;
	for (int p = 0; p < pairs; p++) {
		char *a = v[p % 2], *b = v[1 - p % 2];
		double t0 = now(), t1, t2;

		if (link_all(a, m, ord, next))
			return 1;
		t1 = now();
		if (chase_rebase_part(b, m, a, 0, m, &bad, NULL)) {
			fprintf(stderr, "rebase refused slot %llu\n", (unsigned long long)bad);
			return 1;
		}
		t2 = now();
		printf("%.4f %.4f\n", t1 - t0, t2 - t1);
	}
	return 0;
}
