/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kmod.h - the command's side of /dev/pagehop.  Opening it issues INFO
 * first and refuses a module whose API version differs, saying so.
 */
#ifndef PAGEHOP_KMOD_H
#define PAGEHOP_KMOD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "uapi/pagehop.h"

#define PAGEHOP_DEVICE_PATH "/dev/" PAGEHOP_DEVICE_NAME

struct ph_kmod {
	int fd;			/* -1 when not usable */
	bool present;		/* the device node exists */
	int err;		/* why not usable: positive errno, 0 if usable */
	char why[160];		/* the same, as a sentence */
	struct pagehop_info info;
	uint64_t *node_free;	/* free 4 KiB pages per node id */
	uint32_t nr_node_ids;
};

/* 0 if usable, else -errno with k->why filled; k->fd is -1 then. */
int kmod_open(struct ph_kmod *k);
void kmod_close(struct ph_kmod *k);
bool kmod_has(const struct ph_kmod *k, uint64_t feature);
/* "4k,2m,query,chase" */
const char *kmod_feature_list(uint64_t features, char *buf, size_t size);

#endif
