/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * guest.h - what the guest helpers (kmodtest, kwalk) share: the device,
 * errno names, page sizes, the second paths (/proc/self/pagemap,
 * /proc/self/status), QUERY collection and capabilities.
 */
#ifndef PAGEHOP_GUEST_H
#define PAGEHOP_GUEST_H

#include "harness.h"
#include "kmod.h"
#include "uapi/pagehop.h"

#include <stdint.h>
#include <sys/mman.h>

#ifndef MAP_HUGE_2MB
#define MAP_HUGE_2MB (21 << MAP_HUGE_SHIFT)
#endif
#ifndef MAP_HUGE_1GB
#define MAP_HUGE_1GB (30 << MAP_HUGE_SHIFT)
#endif

#define KiB ((uint64_t)1024)
#define MiB (1024 * KiB)
#define GiB (1024 * MiB)

extern const char *const dev_path;

/* The name of errno e ("OK" for 0), and the errno of a name, -1 if unknown. */
const char *errname(int e);
int errnum(const char *name);
/* An errno check: got (0 or an errno) must be want; says which on stdout. */
int expect(const char *what, int got, int want);

/* ioctl returning 0 or the errno. */
int xioctl(int fd, unsigned long cmd, void *arg);
/* The device, or exit 1 with the reason. */
int open_dev(void);
void open_kmod(struct ph_kmod *k);
int get_info(int fd, struct pagehop_info *info, uint64_t *node_free, uint32_t n);
/* INFO's pinned_bytes now, or exit 1. */
uint64_t pinned_now(void);

/* 4096, 4k, 2M... with a k, m or g suffix. */
uint64_t parse_bytes(const char *s);
/* 4k, 2m or 1g as PAGEHOP_PAGE_*, or exit 2. */
uint32_t parse_ps(const char *s);
uint64_t ps_bytes(uint32_t ps);
uint32_t ps_level(uint32_t ps);

uint64_t now_ns(void);
/* xorshift64: one fixed sequence per process, unless seeded (seed != 0). */
uint64_t rnd(void);
void rnd_seed(uint64_t seed);

/*
 * A random cycle (rnd) through n slots stride bytes apart from base: the
 * first word of each holds the offset of the next.  The order, to free:
 * perm[i] is the slot visited i-th, from perm[0]; NULL if out of memory.
 */
uint64_t *random_cycle(void *base, uint64_t n, uint64_t stride);

/* PFN of the 4 KiB page at addr from /proc/self/pagemap (open as pm), 0 if not present. */
uint64_t pagemap_pfn(int pm, const void *addr);
/* The same, opening /proc/self/pagemap for the one look-up. */
uint64_t pagemap_pfn_once(const void *addr);
/* The kB figure of one line of /proc/self/status, -1 if absent. */
long status_kb(const char *key);

/* seed ^ offset in the first word of each 4 KiB page, and the check of it. */
void fill_pages(void *addr, uint64_t len, uint64_t seed);
int verify(const void *addr, uint64_t len, uint64_t seed);

/* QUERY collection. */
struct qlist {
	struct pagehop_query_entry *e;
	size_t n, cap;
};

int qlist_add(const struct pagehop_query_entry *e, void *arg);
int query_all(struct ph_kmod *k, const void *addr, uint64_t len, struct qlist *q);

/*
 * Set cap in the effective set (on) or clear it (off); with permitted,
 * clear it from the permitted set too, for good.  Stays uid 0.
 */
int cap_set(int cap, int on, int permitted);

#endif
