// SPDX-License-Identifier: GPL-2.0-only
/*
 * kmod.c - open /dev/pagehop, check what the loaded module can do, and
 * use it: pinned buffers, page-table queries, the in-kernel chase, the
 * prefetcher bits.
 */
#include "kmod.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

int kmod_open(struct ph_kmod *k)
{
	int err;

	memset(k, 0, sizeof(*k));
	k->fd = -1;
	k->present = path_exists(PAGEHOP_DEVICE_PATH);
	if (!k->present) {
		k->err = ENOENT;
		snprintf(k->why, sizeof(k->why), "%s not present (pagehop.ko not loaded)",
			 PAGEHOP_DEVICE_PATH);
		return -ENOENT;
	}
	k->fd = open(PAGEHOP_DEVICE_PATH, O_RDWR | O_CLOEXEC);
	if (k->fd < 0) {
		k->err = errno;
		snprintf(k->why, sizeof(k->why), "cannot open %s: %s%s", PAGEHOP_DEVICE_PATH,
			 strerror(k->err),
			 k->err == EACCES || k->err == EPERM ? " (needs root: CAP_SYS_ADMIN)" : "");
		return -k->err;
	}
	k->nr_node_ids = 1024;
	k->node_free = xcalloc(k->nr_node_ids, sizeof(uint64_t));
	k->info.size = sizeof(k->info);
	k->info.node_free_ptr = (uint64_t)(uintptr_t)k->node_free;
	k->info.node_free_count = k->nr_node_ids;
	if (ioctl(k->fd, PAGEHOP_IOC_INFO, &k->info)) {
		err = errno;
		snprintf(k->why, sizeof(k->why), "%s: INFO failed: %s", PAGEHOP_DEVICE_PATH,
			 strerror(err));
		goto fail;
	}
	if (k->info.node_free_count < k->nr_node_ids)
		k->nr_node_ids = k->info.node_free_count;
	if (k->info.api_version != PAGEHOP_API_VERSION) {
		err = EPROTO;
		snprintf(k->why, sizeof(k->why),
			 "pagehop.ko speaks API version %u, this command needs %u; load the module built with this command",
			 k->info.api_version, PAGEHOP_API_VERSION);
		goto fail;
	}
	return 0;
fail:
	k->err = err;
	close(k->fd);
	k->fd = -1;
	return -err;
}

void kmod_close(struct ph_kmod *k)
{
	if (k->fd >= 0)
		close(k->fd);
	k->fd = -1;
	free(k->node_free);
	k->node_free = NULL;
}

bool kmod_has(const struct ph_kmod *k, uint64_t feature)
{
	return k->fd >= 0 && (k->info.features & feature) == feature;
}

const char *kmod_feature_list(uint64_t features, char *buf, size_t size)
{
	static const struct { uint64_t bit; const char *name; } names[] = {
		{ PAGEHOP_FEAT_PAGE_4K, "4k" },
		{ PAGEHOP_FEAT_PAGE_2M, "2m" },
		{ PAGEHOP_FEAT_PAGE_1G, "1g" },
		{ PAGEHOP_FEAT_QUERY, "query" },
		{ PAGEHOP_FEAT_CHASE, "chase" },
		{ PAGEHOP_FEAT_PREFETCH, "prefetch" },
		{ PAGEHOP_FEAT_CHASE_HOPS, "chase_hops" },
		{ PAGEHOP_FEAT_MAP_XLATE, "map_xlate" },
	};
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(names) && len < size; i++)
		if (features & names[i].bit)
			len += snprintf(buf + len, size - len, "%s%s", len ? "," : "",
					names[i].name);
	return buf;
}

int kmod_alloc_map(struct ph_kmod *k, int node, uint32_t page_size, uint64_t length,
		   struct ph_kbuf *out)
{
	struct pagehop_alloc a = {
		.size = sizeof(a),
		.node = (uint32_t)node,
		.page_size = page_size,
		.length = length,
	};
	struct pagehop_free f = { .size = sizeof(f) };
	void *p;
	int err;

	memset(out, 0, sizeof(*out));
	if (k->fd < 0)
		return -ENODEV;
	if (node < 0 || length > SIZE_MAX)
		return -EINVAL;
	if (ioctl(k->fd, PAGEHOP_IOC_ALLOC, &a))
		return -errno;
	/* The module aligns the address to the page size (get_unmapped_area). */
	p = mmap(NULL, (size_t)length, PROT_READ | PROT_WRITE, MAP_SHARED, k->fd,
		 (off_t)a.mmap_offset);
	if (p == MAP_FAILED) {
		err = -errno;
		f.id = a.id;
		ioctl(k->fd, PAGEHOP_IOC_FREE, &f);
		return err;
	}
	out->id = a.id;
	out->mmap_offset = a.mmap_offset;
	out->addr = p;
	out->length = length;
	out->page_size = page_size;
	out->node = node;
	return 0;
}

void *kmod_map_view(struct ph_kmod *k, const struct ph_kbuf *b, uint32_t xlate)
{
	void *p;

	if (!kmod_has(k, PAGEHOP_FEAT_MAP_XLATE)) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	p = mmap(NULL, (size_t)b->length, PROT_READ | PROT_WRITE, MAP_SHARED, k->fd,
		 (off_t)(b->mmap_offset | PAGEHOP_MMAP_XLATE(xlate)));
	return p == MAP_FAILED ? NULL : p;
}

const char *kmod_alloc_why(int err)
{
	switch (err) {
	case -ENOMEM:
		return "not enough contiguous free memory on that node";
	case -E2BIG:
		return "over the module's pin cap or the node's 5% floor";
	case -EPERM:
		return "over this process's locked-memory limit: raise ulimit -l (RLIMIT_MEMLOCK) or run with CAP_IPC_LOCK";
	default:
		return strerror(-err);
	}
}

void kmod_unmap_free(struct ph_kmod *k, struct ph_kbuf *b)
{
	struct pagehop_free f = { .size = sizeof(f), .id = b->id };

	if (b->addr)
		munmap(b->addr, (size_t)b->length);
	if (b->id && k->fd >= 0)
		ioctl(k->fd, PAGEHOP_IOC_FREE, &f);
	memset(b, 0, sizeof(*b));
}

int kmod_query(struct ph_kmod *k, const void *addr, uint64_t length,
	       int (*cb)(const struct pagehop_query_entry *e, void *arg), void *arg)
{
	enum { BATCH = 256 };
	struct pagehop_query_entry ents[BATCH];
	uint64_t a = (uint64_t)(uintptr_t)addr, end = a + length;
	int ret;

	if (k->fd < 0)
		return -ENODEV;
	while (a < end) {
		struct pagehop_query q = {
			.size = sizeof(q),
			.addr = a,
			.length = end - a,
			.entries_ptr = (uint64_t)(uintptr_t)ents,
			.max_entries = BATCH,
		};

		if (ioctl(k->fd, PAGEHOP_IOC_QUERY, &q))
			return -errno;
		/*
		 * A call stops at max_entries or when its share of walking is
		 * done (docs/abi.md); a hole may then go on in the next call's
		 * first entry.  Every call moves on: guard against one that
		 * does not anyway, or that says more than it could.
		 */
		if (q.nr_entries > BATCH || q.next_addr <= a || q.next_addr > end)
			return -EIO;
		for (uint32_t i = 0; i < q.nr_entries; i++) {
			ret = cb(&ents[i], arg);
			if (ret)
				return ret;
		}
		a = q.next_addr;
	}
	return 0;
}

int kmod_chase_windows(struct ph_kmod *k, uint32_t id, int cpu, uint64_t start,
		       uint32_t loads_per_window, uint32_t windows, uint64_t *cycles,
		       uint32_t *hops, uint64_t *end)
{
	bool told = kmod_has(k, PAGEHOP_FEAT_CHASE_HOPS);
	struct pagehop_chase c = {
		.size = sizeof(c),
		.id = id,
		.cpu = (uint32_t)cpu,
		.start = start,
		.loads_per_window = loads_per_window,
		.windows = windows,
		.cycles_ptr = (uint64_t)(uintptr_t)cycles,
		/* A module from before hops_ptr accepts it only as 0. */
		.hops_ptr = told ? (uint64_t)(uintptr_t)hops : 0,
	};

	if (k->fd < 0)
		return -ENODEV;
	if (cpu < 0)
		return -EINVAL;
	if (ioctl(k->fd, PAGEHOP_IOC_CHASE, &c))
		return -errno;
	if (!told)
		for (uint32_t w = 0; w < windows; w++)
			hops[w] = loads_per_window;
	if (end)
		*end = c.end;
	return 0;
}

int kmod_chase(struct ph_kmod *k, uint32_t id, int cpu, uint64_t start,
	       uint32_t loads_per_window, uint32_t windows, uint64_t *cycles, uint64_t *end)
{
	uint32_t *hops = xcalloc(windows ? windows : 1, sizeof(*hops)), one;
	uint64_t owed = 0, pos, c;
	int err;

	err = kmod_chase_windows(k, id, cpu, start, loads_per_window, windows, cycles, hops, &pos);
	for (uint32_t w = 0; !err && w < windows; w++) {
		owed += loads_per_window - hops[w];
		cycles[w] = hops[w] ? (cycles[w] * loads_per_window + hops[w] / 2) / hops[w] : 0;
	}
	/* The hops of windows that ended early, so that *end is where it would be. */
	while (!err && owed) {
		err = kmod_chase_windows(k, id, cpu, pos, (uint32_t)(owed < loads_per_window ?
					 owed : loads_per_window), 1, &c, &one, &pos);
		owed -= err ? 0 : one;
	}
	free(hops);
	if (!err && end)
		*end = pos;
	return err;
}

int kmod_prefetch(struct ph_kmod *k, struct pagehop_prefetch *pf)
{
	if (k->fd < 0)
		return -ENODEV;
	pf->size = sizeof(*pf);
	if (ioctl(k->fd, PAGEHOP_IOC_PREFETCH, pf))
		return -errno;
	return 0;
}
