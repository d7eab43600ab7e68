/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * wi_sysfs.h - what the running kernel holds for weighted interleave:
 * /sys/kernel/mm/mempolicy/weighted_interleave/nodeN (Linux 6.9 and
 * later) and its "auto" file (6.16 and later; some kernels name it
 * "__auto_type", the stringified macro their compiler headers define
 * auto to, so both names are tried).
 */
#ifndef PAGEHOP_WI_SYSFS_H
#define PAGEHOP_WI_SYSFS_H

#include <stdbool.h>

#define PH_WI_SYSFS "/sys/kernel/mm/mempolicy/weighted_interleave"

struct ph_wi_sysfs {
	bool read;		/* false: not read */
	const char *unread;	/* why not, when !read */
	bool present;		/* the directory exists */
	int auto_mode;		/* 1 auto, 0 manual, -1 no such file */
	int n;
	int *weight;		/* per node of ids, -1 no nodeN file */
};

/* Read dir (PH_WI_SYSFS, or a stand-in) for the n nodes ids. */
void wi_sysfs_read(const char *dir, int n, const int *ids, struct ph_wi_sysfs *s);
void wi_sysfs_free(struct ph_wi_sysfs *s);

#endif
