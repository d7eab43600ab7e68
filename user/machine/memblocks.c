// SPDX-License-Identifier: GPL-2.0-only
/*
 * memblocks.c - a node's memory blocks from sysfs.
 */
#include "memblocks.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int by_start(const void *a, const void *b)
{
	const struct ph_memblock *x = a, *y = b;

	return (x->start > y->start) - (x->start < y->start);
}

int memblocks_read(const char *root, int node, struct ph_memblocks *b)
{
	char path[512], text[64];
	DIR *d;
	struct dirent *e;
	uint64_t bs;
	int err;

	memset(b, 0, sizeof(*b));
	snprintf(path, sizeof(path), "%s/memory/block_size_bytes", root);
	err = read_text(path, text, sizeof(text));
	if (err < 0)
		return err;
	bs = strtoull(text, NULL, 16);	/* the kernel prints it in hex, without 0x */
	if (!bs)
		return -EINVAL;
	snprintf(path, sizeof(path), "%s/node/node%d", root, node);
	d = opendir(path);
	if (!d)
		return -errno;
	b->block_size = bs;
	while ((e = readdir(d))) {
		struct ph_memblock *m;
		char p[600];
		unsigned long idx;

		if (sscanf(e->d_name, "memory%lu", &idx) != 1)
			continue;
		m = xappend(&b->v, &b->n, sizeof(*m));
		m->start = (uint64_t)idx * bs;
		snprintf(p, sizeof(p), "%s/memory/memory%lu/state", root, idx);
		m->online = read_text(p, text, sizeof(text)) >= 0 && !strcmp(text, "online");
		snprintf(p, sizeof(p), "%s/memory/memory%lu/valid_zones", root, idx);
		m->movable = read_text(p, text, sizeof(text)) >= 0 && !strncmp(text, "Movable", 7);
	}
	closedir(d);
	qsort(b->v, (size_t)b->n, sizeof(*b->v), by_start);
	return 0;
}

uint64_t memblocks_bytes(const struct ph_memblocks *b, uint64_t lo, uint64_t hi, uint64_t *movable)
{
	uint64_t sum = 0;

	if (movable)
		*movable = 0;
	for (int i = 0; i < b->n; i++) {
		uint64_t s = b->v[i].start, e = s + b->block_size;

		if (!b->v[i].online || e <= lo || s >= hi)
			continue;
		s = s < lo ? lo : s;
		e = e > hi ? hi : e;
		sum += e - s;
		if (movable && b->v[i].movable)
			*movable += e - s;
	}
	return sum;
}

void memblocks_free(struct ph_memblocks *b)
{
	free(b->v);
	memset(b, 0, sizeof(*b));
}
