// SPDX-License-Identifier: GPL-2.0-only
/*
 * frames.c - physical frames of this process's memory, and views of them
 * in physical order.
 */
#include "frames.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

struct frames_ctx {
	struct ph_frame_run **runs;
	int *n;
	uint64_t split;
};

/* Add one leaf (or page) at addr on phys, merging it into the last run where it continues it. */
static void add_leaf(struct frames_ctx *c, uint64_t addr, uint64_t phys, uint64_t len, uint64_t leaf)
{
	struct ph_frame_run *last = *c->n ? &(*c->runs)[*c->n - 1] : NULL;
	struct ph_frame_run *r;

	if (last && last->leaf == leaf && last->addr + last->len == addr &&
	    last->phys + last->len == phys && (!c->split || phys % c->split)) {
		last->len += len;
		return;
	}
	r = xappend(c->runs, c->n, sizeof(*r));
	*r = (struct ph_frame_run){ .addr = addr, .phys = phys, .len = len, .leaf = leaf };
}

static int query_cb(const struct pagehop_query_entry *e, void *arg)
{
	uint64_t leaf = e->level == PAGEHOP_LEVEL_PTE ? 4 * KiB :
			e->level == PAGEHOP_LEVEL_PMD ? 2 * MiB :
			e->level == PAGEHOP_LEVEL_PUD ? GiB : 0;

	/* A hole, or a leaf larger than a split (a 1 GiB leaf with --range 512M), whole. */
	if (leaf)
		add_leaf(arg, e->addr, e->pfn * 4096, e->length, leaf);
	return 0;
}

/*
 * pagemap: one word per 4 KiB page.  A 2 MiB-aligned run of 512 pages
 * contiguous in both spaces is taken as a 2 MiB leaf: it is one (a THP or a
 * hugetlb page) or may be moved as one.
 */
static int read_pagemap(struct frames_ctx *c, uint64_t addr, uint64_t len)
{
	enum { BATCH = 4096 };
	uint64_t pm[BATCH];
	int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC), err = 0;

	if (fd < 0)
		return -errno;
	for (uint64_t off = 0; off < len && !err; off += BATCH * 4096ull) {
		uint64_t n = (len - off) / 4096 < BATCH ? (len - off) / 4096 : BATCH;

		if (pread(fd, pm, n * 8, (off_t)((addr + off) / 4096 * 8)) != (ssize_t)(n * 8)) {
			err = -EIO;
			break;
		}
		for (uint64_t i = 0; i < n;) {
			uint64_t pfn = pm[i] & ((1ull << 55) - 1), va = addr + off + i * 4096, k = 1;

			if (!(pm[i] >> 63)) {
				i++;
				continue;
			}
			if (!pfn) {
				err = -EPERM;
				break;
			}
			if (va % (2 * MiB) == 0 && pfn % 512 == 0 && i + 512 <= n) {
				while (k < 512 && (pm[i + k] >> 63) && (pm[i + k] & ((1ull << 55) - 1)) == pfn + k)
					k++;
				if (k == 512) {
					add_leaf(c, va, pfn * 4096, 2 * MiB, 2 * MiB);
					i += 512;
					continue;
				}
			}
			add_leaf(c, va, pfn * 4096, 4096, 4 * KiB);
			i++;
		}
	}
	close(fd);
	return err;
}

int frames_read(struct ph_kmod *km, const void *addr, uint64_t len, uint64_t split,
		struct ph_frame_run **runs, int *n, char *method, size_t mlen)
{
	struct frames_ctx c = { .runs = runs, .n = n, .split = split };

	if (kmod_has(km, PAGEHOP_FEAT_QUERY)) {
		snprintf(method, mlen, "QUERY (pagehop.ko page-table walk)");
		return kmod_query(km, addr, len, query_cb, &c);
	}
	snprintf(method, mlen, "/proc/self/pagemap");
	return read_pagemap(&c, (uint64_t)(uintptr_t)addr, len);
}

static int by_leaf_phys(const void *a, const void *b)
{
	const struct ph_frame_run *x = a, *y = b;

	if (x->leaf != y->leaf)
		return x->leaf > y->leaf ? -1 : 1;
	return (x->phys > y->phys) - (x->phys < y->phys);
}

void frames_sort(struct ph_frame_run *runs, int n)
{
	qsort(runs, (size_t)n, sizeof(*runs), by_leaf_phys);
}

/*
 * Read one byte of every leaf of the moved runs.  pagehop.ko empties the
 * source of a 2 MiB or 1 GiB mapping when it is moved and fills the new
 * one again at its first touch (kmod/pagehop_mmap.c, pagehop_vm_open), so
 * until each leaf is touched the view has holes where its pages are:
 * QUERY would find none of them and the measured loops would time the
 * faults.  Anonymous and hugetlb runs move with their page tables and are
 * mapped already; reading them costs nothing.  A read, not a write: the
 * pages keep what they hold.
 */
static void fault_in(const struct ph_frame_run *runs, int n)
{
	for (int i = 0; i < n; i++)
		for (uint64_t off = 0; off < runs[i].len; off += runs[i].leaf)
			(void)*(volatile const char *)(uintptr_t)(runs[i].addr + off);
}

void *frames_view(struct ph_frame_run *runs, int n, uint64_t *total)
{
	uint64_t len = 0, align = 4 * KiB, off;
	char *area, *base;

	for (int i = 0; i < n; i++) {
		len += runs[i].len;
		if (runs[i].leaf > align)
			align = runs[i].leaf;
	}
	*total = len;
	if (!len) {
		errno = EINVAL;
		return NULL;
	}
	/* Reserve the range, aligned, then give back what the alignment left over. */
	area = mmap(NULL, len + align, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (area == MAP_FAILED)
		return NULL;
	base = (char *)(((uintptr_t)area + align - 1) / align * align);
	if (base > area)
		munmap(area, (size_t)(base - area));
	if (base + len < area + len + align)
		munmap(base + len, (size_t)(area + len + align - (base + len)));
	off = 0;
	for (int i = 0; i < n; i++) {
		void *to = mremap((void *)(uintptr_t)runs[i].addr, runs[i].len, runs[i].len,
				  MREMAP_MAYMOVE | MREMAP_FIXED, base + off);

		if (to == MAP_FAILED) {
			int err = errno;

			munmap(base, len);
			errno = err;
			return NULL;
		}
		runs[i].addr = (uint64_t)(uintptr_t)to;
		off += runs[i].len;
	}
	fault_in(runs, n);
	return base;
}
