/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * contend.h - the loops of the contention studies: a cache line handed
 * between two CPUs (c2c), locks taken and released (locks), a delay of
 * known length, and memory traffic at a set injection delay (loaded).
 *
 * The loops run on memory the caller hands them; they never allocate,
 * time or print, but for the timed ping-pong's TSC readings between its
 * runs (the samples of c2c's distribution).
 */
#ifndef PAGEHOP_CONTEND_H
#define PAGEHOP_CONTEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Ping-pong on one 64-bit word, *line, shared by two threads: role 0 waits
 * until it reads 2i, then stores 2i+1; role 1 waits for 2i+1 and stores
 * 2i+2; for i from 0 to rounds - 1.  Each store must reach the other CPU
 * before the other can go on, so one round is two transfers of the line
 * (there and back).  The caller sets *line to 0 before both start; after
 * both returned it holds 2 * rounds (the check that every round happened).
 */
void c2c_pingpong(volatile uint64_t *line, uint64_t rounds, unsigned role);

/*
 * nruns runs of rounds round trips on *line, one after the other, the
 * word even and idle when both start (as c2c_pingpong or this leaves it):
 * role 0 opens every round trip (stores the next odd value, waits for the
 * even one after it) and brackets each run with TSC reads, run i's cycles
 * into ticks[i] (tsc.h); role 1 answers rounds x nruns times (ticks
 * unused, may be NULL).  Each run holds its round trips whole: it starts
 * before its first store and ends after its last answer, with the line
 * idle between runs.  One round trip before the first run, untimed, so
 * that both sides are running when it starts.  With rounds 0, the
 * brackets alone, measured by the same loop, and no round trip at all.
 * The word ends 2 x (rounds x nruns + 1) above where it began, or where
 * it was with rounds or nruns 0.
 */
void c2c_pingpong_timed(volatile uint64_t *line, uint64_t rounds, unsigned role,
			uint64_t *ticks, size_t nruns);

/* n iterations of a dependent add chain the compiler cannot remove. */
void contend_delay(unsigned n);

/* Test-and-set spinlock on one word (0 free, 1 held); spins on a load. */
void tas_acquire(volatile uint32_t *lock);
void tas_release(volatile uint32_t *lock);

/*
 * Ticket lock: t[0] the next ticket handed out, t[1] the ticket now
 * served, both in one cache line; first come, first served.
 */
void ticket_acquire(volatile uint32_t *t);
void ticket_release(volatile uint32_t *t);

/* The traffic mixes of a loader (loaded): reads per write, or non-temporal writes. */
enum load_mix {
	LOAD_READ = 1,		/* reads only */
	LOAD_R3W1,		/* 3 reads : 1 write */
	LOAD_R2W1,		/* 2 : 1 */
	LOAD_R1W1,		/* 1 : 1 */
	LOAD_NT,		/* non-temporal writes only */
};

struct load_mix_info {
	const char *name;	/* "read", "3:1", "2:1", "1:1", "nt" */
	enum load_mix mix;
	unsigned reads, writes;	/* lines read and written per group of 4 (or 1) */
	const char *desc;
};

extern const struct load_mix_info load_mixes[];
extern const size_t load_nmixes;

/*
 * Walk buf (bytes long, 64-byte aligned, a multiple of 64) a line at a
 * time from line *pos on, for nlines lines, reading or writing each line
 * as the mix says, with contend_delay(delay) after each line; wraps at the
 * end.  Returns the bytes moved (64 per line touched) and advances *pos.
 * Reads are summed into *sink so that they cannot be removed.
 */
uint64_t load_traffic(char *buf, uint64_t bytes, uint64_t *pos, uint64_t nlines,
		      enum load_mix mix, unsigned delay, uint64_t *sink);

#endif
