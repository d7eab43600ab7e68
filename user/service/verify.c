// SPDX-License-Identifier: GPL-2.0-only
/*
 * verify.c - where a segment's pages really are and what size they are,
 * read back through a second path (pagehop.ko's QUERY page-table walk, or
 * move_pages with /proc/self/pagemap, /proc/kpageflags and smaps), and
 * compared with what was asked.
 */
#include "verify.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/kernel-page-flags.h>
#include <numa.h>
#include <numaif.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void placement_init(struct ph_placement *pl)
{
	free(pl->node_bytes);
	memset(pl, 0, sizeof(*pl));
	pl->nr_nodes = numa_max_node() + 1;
	pl->node_bytes = xcalloc((size_t)pl->nr_nodes, sizeof(uint64_t));
}

static void account_node(struct ph_placement *pl, int node, uint64_t bytes)
{
	if (node >= 0 && node < pl->nr_nodes)
		pl->node_bytes[node] += bytes;
	else
		pl->other_bytes += bytes;
}

struct query_ctx {
	struct ph_placement *pl;
	uint64_t holes;
	const volatile sig_atomic_t *cancel;
};

static int query_cb(const struct pagehop_query_entry *e, void *arg)
{
	struct query_ctx *c = arg;

	if (c->cancel && *c->cancel)
		return -EINTR;
	switch (e->level) {
	case PAGEHOP_LEVEL_PTE:
		c->pl->psize_bytes[PH_PS_4K] += e->length;
		break;
	case PAGEHOP_LEVEL_PMD:
		c->pl->psize_bytes[PH_PS_2M] += e->length;
		break;
	case PAGEHOP_LEVEL_PUD:
		c->pl->psize_bytes[PH_PS_1G] += e->length;
		break;
	default:
		c->holes += e->length;
		return 0;
	}
	account_node(c->pl, e->node, e->length);
	return 0;
}

static int verify_query(struct ph_kmod *km, struct ph_segment *seg, struct ph_placement *pl)
{
	struct query_ctx c = { .pl = pl, .cancel = seg->cancel };
	int err = kmod_query(km, seg->addr, seg->bytes, query_cb, &c);

	snprintf(pl->method, sizeof(pl->method), "QUERY (pagehop.ko page-table walk)");
	pl->complete = !err && !c.holes;
	/*
	 * QUERY sees a THP as a PMD leaf like any 2 MiB mapping; in anonymous
	 * memory a PMD leaf can only be a THP, so it is counted as one.
	 */
	if (seg->backend == PH_BACKEND_ANON) {
		pl->psize_bytes[PH_PS_THP] += pl->psize_bytes[PH_PS_2M];
		pl->psize_bytes[PH_PS_2M] = 0;
	}
	return err;
}

/*
 * KernelPageSize of the mapping that contains addr, from /proc/self/smaps,
 * in bytes; 0 if not found.  For hugetlb this is the size the mapping was
 * made with, which every page in it has.
 */
static uint64_t smaps_kernel_page_size(const void *addr)
{
	FILE *f = fopen("/proc/self/smaps", "re");
	char line[512];
	uintptr_t a = (uintptr_t)addr;
	bool in = false;
	uint64_t kb = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;
		unsigned long long v;

		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' ')) {
			in = a >= lo && a < hi;
			continue;
		}
		if (in && sscanf(line, "KernelPageSize: %llu kB", &v) == 1) {
			kb = v;
			break;
		}
	}
	fclose(f);
	return kb * 1024;
}

/*
 * Without the module: the node of every 4 KiB page through move_pages(), and
 * the size of the page behind it through /proc/self/pagemap (the frame) and
 * /proc/kpageflags (KPF_HUGE for hugetlb, KPF_THP for THP).  Needs root for
 * the frame numbers, as pagehop does anyway: a present page without one
 * (pagemap hides them from callers without CAP_SYS_ADMIN) is -EPERM.  Reading
 * back 1 GiB of 4K pages takes seconds: the cancel flag is checked per batch.
 */
static int verify_procfs(struct ph_segment *seg, struct ph_placement *pl)
{
	enum { BATCH = 4096 };
	uint64_t npages = seg->bytes / PH_PAGE_4K;
	void *pages[BATCH];
	int status[BATCH];
	uint64_t pm[BATCH], flags[BATCH];
	uint64_t huge_size = 0;
	int pmfd, kfd, err = 0;

	snprintf(pl->method, sizeof(pl->method), "move_pages + pagemap/kpageflags/smaps");
	pmfd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	kfd = open("/proc/kpageflags", O_RDONLY | O_CLOEXEC);
	if (pmfd < 0 || kfd < 0) {
		err = -errno;
		goto out;
	}
	pl->complete = true;
	for (uint64_t first = 0; first < npages; first += BATCH) {
		uint64_t n = npages - first < BATCH ? npages - first : BATCH;
		off_t pmoff = (off_t)(((uintptr_t)seg->addr / PH_PAGE_4K + first) * 8);

		if (seg->cancel && *seg->cancel) {
			err = -EINTR;
			goto out;
		}
		for (uint64_t i = 0; i < n; i++)
			pages[i] = (char *)seg->addr + (first + i) * PH_PAGE_4K;
		if (move_pages(0, n, pages, NULL, status, 0)) {
			err = -errno;
			goto out;
		}
		if (pread(pmfd, pm, n * 8, pmoff) != (ssize_t)(n * 8)) {
			err = -EIO;
			goto out;
		}
		for (uint64_t i = 0; i < n;) {
			/* Read kpageflags for a run of consecutive frames at once. */
			uint64_t pfn = pm[i] & ((1ull << 55) - 1), run = 1;
			bool present = pm[i] >> 63;

			if (present && !pfn) {
				err = -EPERM;
				goto out;
			}
			if (!present) {
				pl->complete = false;
				pl->other_bytes += PH_PAGE_4K;
				i++;
				continue;
			}
			while (i + run < n && (pm[i + run] >> 63) &&
			       (pm[i + run] & ((1ull << 55) - 1)) == pfn + run)
				run++;
			if (pread(kfd, flags, run * 8, (off_t)(pfn * 8)) != (ssize_t)(run * 8)) {
				err = -EIO;
				goto out;
			}
			for (uint64_t r = 0; r < run; r++) {
				uint64_t f = flags[r];
				enum ph_psize ps = PH_PS_4K;

				/*
				 * kpageflags tells hugetlb (KPF_HUGE) from THP from
				 * small pages, not 2M from 1G: that comes from the
				 * mapping's KernelPageSize in smaps.
				 */
				if (f & (1ull << KPF_HUGE)) {
					if (!huge_size)
						huge_size = smaps_kernel_page_size(seg->addr);
					ps = huge_size == GiB ? PH_PS_1G :
					     huge_size == 2 * MiB ? PH_PS_2M : PH_PS_COUNT;
				} else if (f & (1ull << KPF_THP)) {
					ps = PH_PS_THP;
				}
				if (ps == PH_PS_COUNT)
					pl->other_bytes += PH_PAGE_4K;
				else
					pl->psize_bytes[ps] += PH_PAGE_4K;
				if (status[i + r] < 0) {
					pl->complete = false;
					pl->other_bytes += PH_PAGE_4K;
				} else {
					account_node(pl, status[i + r], PH_PAGE_4K);
				}
			}
			i += run;
		}
	}
out:
	if (pmfd >= 0)
		close(pmfd);
	if (kfd >= 0)
		close(kfd);
	if (err)
		pl->complete = false;
	return err;
}

int verify_ready(const struct ph_kmod *km, char *why, size_t whylen)
{
	int fd, err;

	if (kmod_has(km, PAGEHOP_FEAT_QUERY))
		return 0;
	fd = open("/proc/kpageflags", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	err = -errno;
	snprintf(why, whylen, "reading back where the memory is needs root (CAP_SYS_ADMIN): /proc/kpageflags: %s%s",
		 strerror(-err), km->present ? "; /dev/pagehop needs root too" : "");
	return err;
}

int verify_count_nodes(const void *addr, uint64_t bytes, int nr_nodes, uint64_t *pages,
		       uint64_t *unplaced)
{
	enum { BATCH = 4096 };
	uint64_t npages = bytes / PH_PAGE_4K;
	void *pp[BATCH];
	int status[BATCH];

	memset(pages, 0, (size_t)nr_nodes * sizeof(*pages));
	*unplaced = 0;
	for (uint64_t first = 0; first < npages; first += BATCH) {
		uint64_t n = npages - first < BATCH ? npages - first : BATCH;

		for (uint64_t i = 0; i < n; i++)
			pp[i] = (char *)addr + (first + i) * PH_PAGE_4K;
		if (move_pages(0, n, pp, NULL, status, 0))
			return -errno;
		for (uint64_t i = 0; i < n; i++) {
			if (status[i] >= 0 && status[i] < nr_nodes)
				pages[status[i]]++;
			else
				(*unplaced)++;
		}
	}
	return 0;
}

int segment_verify(struct ph_kmod *km, struct ph_segment *seg,
		   const struct bitmask *interleave)
{
	struct ph_placement found = { 0 };
	int err;

	placement_init(&found);
	if (kmod_has(km, PAGEHOP_FEAT_QUERY))
		err = verify_query(km, seg, &found);
	else
		err = verify_procfs(seg, &found);
	/* Interrupted: what was found before stands, half a read-back is not. */
	if (err == -EINTR) {
		free(found.node_bytes);
		return err;
	}
	free(seg->found.node_bytes);
	seg->found = found;
	verify_compare(seg, err, interleave);
	return err;
}

void verify_compare(struct ph_segment *seg, int err, const struct bitmask *interleave)
{
	const struct ph_placement *pl = &seg->found;
	uint64_t want_ps_bytes, node_ok = 0, len;
	enum ph_psize want = seg->psize;
	char found_nodes[128] = "", sizes[128] = "", asked[32];

	want_ps_bytes = pl->psize_bytes[want];
	for (int n = 0; n < pl->nr_nodes; n++) {
		bool member = interleave ? numa_bitmask_isbitset(interleave, (unsigned)n) :
			n == seg->node;

		if (member)
			node_ok += pl->node_bytes[n];
		if (pl->node_bytes[n]) {
			len = strlen(found_nodes);
			snprintf(found_nodes + len, sizeof(found_nodes) - len, "%s%d:%lluM",
				 len ? "," : "", n, (unsigned long long)(pl->node_bytes[n] / MiB));
		}
	}
	seg->verified = !err && pl->complete && want_ps_bytes == seg->bytes &&
		node_ok == seg->bytes;
	for (int p = PH_PS_4K; p < PH_PS_COUNT; p++) {
		if (!pl->psize_bytes[p])
			continue;
		len = strlen(sizes);
		snprintf(sizes + len, sizeof(sizes) - len, "%s%s:%lluM", len ? "," : "",
			 psize_name((enum ph_psize)p),
			 (unsigned long long)(pl->psize_bytes[p] / MiB));
	}
	if (seg->node >= 0)
		snprintf(asked, sizeof(asked), "node %d", seg->node);
	else
		snprintf(asked, sizeof(asked), "the interleave nodes");
	if (err)
		snprintf(seg->verify_msg, sizeof(seg->verify_msg),
			 "could not read the buffer back (%s): %s%s", pl->method, strerror(-err),
			 ph_perm_error(err) ? " (needs root: CAP_SYS_ADMIN)" : "");
	else if (seg->verified)
		snprintf(seg->verify_msg, sizeof(seg->verify_msg),
			 "%llu MiB of %s pages on node(s) %s (%s)",
			 (unsigned long long)(seg->bytes / MiB), psize_name(want),
			 found_nodes, pl->method);
	else
		snprintf(seg->verify_msg, sizeof(seg->verify_msg),
			 "asked %llu MiB of %s pages on %s; found pages %s on nodes %s%s (%s)",
			 (unsigned long long)(seg->bytes / MiB), psize_name(want), asked,
			 sizes[0] ? sizes : "none", found_nodes[0] ? found_nodes : "none",
			 pl->complete ? "" : ", some pages not mapped", pl->method);
}
