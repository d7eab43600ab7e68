/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kmodtest.h - the guests' tests of pagehop.ko (tests/vm/guest/kmod_*.sh),
 * one file per subject, over the harness (../lib/harness.h):
 *
 *   kmodtest TEST [ARGS]    one test, TAP on stdout, exit 0 / 1 / 2
 *   kmodtest -l             every test and tool, with its arguments
 *
 * Where the module says where memory is, the answer is checked through a
 * second path: move_pages(2) and /proc/self/pagemap for 4 KiB pages,
 * hugetlbfs mappings placed with mbind for QUERY itself, INFO against what
 * was allocated.
 *
 *   place.c    ALLOC placement, QUERY, ZONE_MOVABLE, INFO
 *   errors.c   the ABI's error paths, RLIMIT_MEMLOCK
 *   life.c     lifetimes: fds, mappings, fork, mremap, VmPin, rmmod
 *   chase.c    CHASE, 1 GiB buffers, PREFETCH, the reference chain order
 *   frames.c   translations: one buffer by several leaf sizes
 *   stress.c   fuzz, threads, ALLOC racing FREE
 *   common.c   the checks they share (below)
 */
#ifndef PAGEHOP_KMODTEST_H
#define PAGEHOP_KMODTEST_H

#include "chase.h"
#include "guest.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/capability.h>
#include <numaif.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/*
 * [addr, addr + len) must be covered, in order and without gaps, by leaves
 * of the given level on the given node, each aligned to its size.
 */
int check_leaves(const struct qlist *q, const void *addr, uint64_t len, uint32_t level,
		 uint64_t leaf, int node);
/* 4 KiB pages: move_pages and pagemap agree with QUERY, page by page. */
int check_4k_second_path(const struct qlist *q, int node);
/* Zeroed on arrival: all of small buffers, a sample of 1 GiB ones. */
int check_zero(const struct ph_kbuf *b);

/* ALLOC and FREE by hand: 0 or the errno. */
int alloc_raw(int fd, uint32_t node, uint32_t ps, uint64_t len, struct pagehop_alloc *a);
int free_raw(int fd, uint32_t id);
/* Drop CAP_SYS_ADMIN from the effective and permitted sets, stay uid 0. */
int drop_sys_admin(void);
/* Open the device in a child after dropping privileges; the child's errno. */
int open_as(int how);

/* VmPin of /proc/self/status in bytes (the kernel's mm->pinned_vm), or -1. */
int64_t vmpin_bytes(void);
int expect_vmpin(const char *when, int64_t want);

/* Read the word at addr: 0 and *val, or the signal the read raised. */
int probe_read(const void *addr, uint64_t *val);
/* Every page of [addr, addr + len) must be unmapped: a read raises SIGSEGV. */
int expect_unmapped(const char *what, const void *addr, uint64_t len, uint64_t page);

/*
 * QUERY [addr, addr + len) and check it is leaves of page size ps on node
 * whose PFNs are pfns[] (a page each), or fill pfns[] if want is 0.
 */
int same_leaves(struct ph_kmod *k, const void *addr, uint64_t len, uint32_t ps, int node,
		uint64_t *pfns, int want, const char *when);
/* CHASE over a mapped buffer: the whole cycle walked, bad starts and hops refused. */
int chase_checks(struct ph_kmod *kp, struct ph_kbuf *bp);
/* Wait for every child (also those adopted as subreaper); 0 if all exited 0. */
int reap_all(const char *who);

#endif
