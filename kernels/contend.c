// SPDX-License-Identifier: GPL-2.0-only
/*
 * contend.c - the contention loops: ping-pong, delay, locks, traffic.
 * The timed ping-pong reads the TSC itself, between runs, as the timed
 * chase does (chase_timed.c): a distribution needs a reading per short
 * run; it converts and judges nothing.
 */
#include "contend.h"
#include "tsc.h"

#include <emmintrin.h>

void c2c_pingpong(volatile uint64_t *line, uint64_t rounds, unsigned role)
{
	uint64_t want = role ? 1 : 0;

	/*
	 * No pause in the wait: pause costs tens to a hundred cycles on recent
	 * cores and would be added to every hand-off.  Acquire loads and
	 * release stores are plain moves on x86; they keep the compiler from
	 * reordering or merging the accesses.
	 */
	for (uint64_t i = 0; i < rounds; i++, want += 2) {
		while (__atomic_load_n(line, __ATOMIC_ACQUIRE) != want)
			;
		__atomic_store_n(line, want + 1, __ATOMIC_RELEASE);
	}
}

void c2c_pingpong_timed(volatile uint64_t *line, uint64_t rounds, unsigned role,
			uint64_t *ticks, size_t nruns)
{
	/*
	 * Role 1 may first see the word after role 0's first store: the
	 * start is that value with its low bit cleared (role 0 cannot go
	 * further before role 1 answers).
	 */
	uint64_t v = __atomic_load_n(line, __ATOMIC_ACQUIRE) & ~(uint64_t)1;
	/*
	 * One round trip first, untimed: the two threads start apart (the
	 * team wakes them one after the other), and without it the first
	 * run would hold the other side's start, not only hand-offs.
	 */
	uint64_t first = rounds && nruns ? 1 : 0;

	if (role) {
		for (uint64_t i = 0; i < rounds * nruns + first; i++, v += 2) {
			while (__atomic_load_n(line, __ATOMIC_ACQUIRE) != v + 1)
				;
			__atomic_store_n(line, v + 2, __ATOMIC_RELEASE);
		}
		return;
	}
	if (first) {
		__atomic_store_n(line, v + 1, __ATOMIC_RELEASE);
		while (__atomic_load_n(line, __ATOMIC_ACQUIRE) != v + 2)
			;
		v += 2;
	}
	for (size_t k = 0; k < nruns; k++) {
		uint64_t t0 = tsc_begin();

		for (uint64_t i = 0; i < rounds; i++, v += 2) {
			__atomic_store_n(line, v + 1, __ATOMIC_RELEASE);
			while (__atomic_load_n(line, __ATOMIC_ACQUIRE) != v + 2)
				;
		}
		ticks[k] = tsc_end() - t0;
	}
}

void contend_delay(unsigned n)
{
	unsigned x = 0;

	for (unsigned i = 0; i < n; i++)
		__asm__ __volatile__("add %1, %0" : "+r"(x) : "r"(i));
}

void tas_acquire(volatile uint32_t *lock)
{
	for (;;) {
		if (!__atomic_exchange_n(lock, 1, __ATOMIC_ACQUIRE))
			return;
		/* Test before test-and-set: spin on a shared copy, not on the bus. */
		while (__atomic_load_n(lock, __ATOMIC_RELAXED))
			__builtin_ia32_pause();
	}
}

void tas_release(volatile uint32_t *lock)
{
	__atomic_store_n(lock, 0, __ATOMIC_RELEASE);
}

void ticket_acquire(volatile uint32_t *t)
{
	uint32_t mine = __atomic_fetch_add(&t[0], 1, __ATOMIC_RELAXED);

	while (__atomic_load_n(&t[1], __ATOMIC_ACQUIRE) != mine)
		__builtin_ia32_pause();
}

void ticket_release(volatile uint32_t *t)
{
	__atomic_store_n(&t[1], t[1] + 1, __ATOMIC_RELEASE);
}

const struct load_mix_info load_mixes[] = {
	{ "read", LOAD_READ, 1, 0, "reads only" },
	{ "3:1", LOAD_R3W1, 3, 1, "3 lines read, 1 written (read then write back)" },
	{ "2:1", LOAD_R2W1, 2, 1, "2 lines read, 1 written" },
	{ "1:1", LOAD_R1W1, 1, 1, "1 line read, 1 written" },
	{ "nt", LOAD_NT, 0, 1, "non-temporal writes only (no read for ownership)" },
};

const size_t load_nmixes = sizeof(load_mixes) / sizeof(load_mixes[0]);

uint64_t load_traffic(char *buf, uint64_t bytes, uint64_t *pos, uint64_t nlines,
		      enum load_mix mix, unsigned delay, uint64_t *sink)
{
	uint64_t lines = bytes / 64, p = *pos % lines, sum = 0;
	unsigned reads = 1, group = 1;

	switch (mix) {
	case LOAD_R3W1: reads = 3; group = 4; break;
	case LOAD_R2W1: reads = 2; group = 3; break;
	case LOAD_R1W1: reads = 1; group = 2; break;
	case LOAD_NT: reads = 0; group = 1; break;
	case LOAD_READ: break;
	}
	for (uint64_t i = 0; i < nlines; i++) {
		uint64_t *l = (uint64_t *)(buf + p * 64);
		unsigned slot = (unsigned)(i % group);

		if (mix == LOAD_READ || slot < reads)
			sum += *(volatile uint64_t *)l;
		else if (mix == LOAD_NT)
			_mm_stream_si64((long long *)l, (long long)i);
		else
			*(volatile uint64_t *)l = i;	/* read for ownership + write back */
		if (delay)
			contend_delay(delay);
		if (++p == lines)
			p = 0;
	}
	if (mix == LOAD_NT)
		_mm_sfence();
	*pos = p;
	*sink += sum;
	return nlines * 64;
}
