/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kwalk.h - the guests' tests of pagehop.ko's QUERY walk, CHASE windows
 * and PREFETCH permissions (tests/vm/guest/kmod_walk.sh, kmod_chase.sh,
 * kmod_lockdown.sh), one file per subject, over the harness
 * (../lib/harness.h) and the helpers shared with kmodtest (../lib/guest.h):
 *
 *   kwalk TEST [ARGS]    one test, TAP on stdout, exit 0 / 1 / 2
 *   kwalk -l             every test, with its arguments
 *
 *   walk.c     QUERY over 64 GiB of empty page tables: bounded, killable
 *   leaves.c   PROT_NONE leaves are holes; shared hugetlb PMD tables
 *   chase.c    CHASE windows bounded by time; PREFETCH permissions
 *
 * Times are taken in the guest with CLOCK_MONOTONIC; what QUERY says is
 * checked against /proc/self/pagemap and move_pages(2), and what CHASE
 * says against a walk of the same chain in user space.
 */
#ifndef PAGEHOP_KWALK_H
#define PAGEHOP_KWALK_H

#include "guest.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/capability.h>
#include <numaif.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#endif
