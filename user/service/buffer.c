// SPDX-License-Identifier: GPL-2.0-only
/*
 * buffer.c - allocate measured memory through one of three backends:
 * pagehop.ko, the hugetlb pool (pools.c) or anonymous memory, pre-faulted,
 * locked, and bound to the node asked.  Where it landed is read back by
 * verify.c.
 */
#include "buffer.h"
#include "pools.h"
#include "topology.h"
#include "touch.h"
#include "util.h"

#include <errno.h>
#include <linux/mman.h>
#include <numa.h>
#include <numaif.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

static const char *const backend_names[] = {
	[PH_BACKEND_AUTO] = "auto",
	[PH_BACKEND_KMOD] = "kmod",
	[PH_BACKEND_HUGETLB] = "hugetlb",
	[PH_BACKEND_ANON] = "anon",
};

const char *backend_name(enum ph_backend b)
{
	return b <= PH_BACKEND_ANON ? backend_names[b] : "?";
}

int backend_parse(const char *s, enum ph_backend *out)
{
	for (int b = PH_BACKEND_AUTO; b <= PH_BACKEND_ANON; b++)
		if (!strcmp(s, backend_names[b])) {
			*out = (enum ph_backend)b;
			return 0;
		}
	return -EINVAL;
}

static uint32_t psize_uapi(enum ph_psize ps)
{
	return ps == PH_PS_2M ? PAGEHOP_PAGE_2M : ps == PH_PS_1G ? PAGEHOP_PAGE_1G :
	       PAGEHOP_PAGE_4K;
}

static uint64_t psize_feature(enum ph_psize ps)
{
	return ps == PH_PS_2M ? PAGEHOP_FEAT_PAGE_2M : ps == PH_PS_1G ? PAGEHOP_FEAT_PAGE_1G :
	       ps == PH_PS_4K ? PAGEHOP_FEAT_PAGE_4K : 0;
}

enum ph_backend buffer_auto_backend(const struct ph_kmod *km, enum ph_psize ps)
{
	if (ps != PH_PS_THP && kmod_has(km, psize_feature(ps)))
		return PH_BACKEND_KMOD;
	if (ps == PH_PS_2M || ps == PH_PS_1G)
		return PH_BACKEND_HUGETLB;
	return PH_BACKEND_ANON;
}

enum ph_backend buffer_auto_fallback(enum ph_psize ps, int err)
{
	/*
	 * The module says E2BIG when the buffer is over its pin cap or would
	 * leave the node under its 5% floor, ENOMEM when the node has no
	 * contiguous run of that size: the pages a hugetlb pool already holds
	 * were set aside before either, and anonymous 4K memory needs no run.
	 */
	if (err != -E2BIG && err != -ENOMEM)
		return PH_BACKEND_AUTO;
	switch (ps) {
	case PH_PS_2M:
	case PH_PS_1G:
		return PH_BACKEND_HUGETLB;
	case PH_PS_4K:
		return PH_BACKEND_ANON;
	default:
		return PH_BACKEND_AUTO;
	}
}

/* ---- allocation ---- */

#ifndef MPOL_WEIGHTED_INTERLEAVE
#define MPOL_WEIGHTED_INTERLEAVE 6	/* Linux 6.9, include/uapi/linux/mempolicy.h */
#endif
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23	/* Linux 5.14 */
#endif

int buffer_weighted_probe(int node, char *why, size_t whylen)
{
	struct bitmask *bm = numa_allocate_nodemask();
	long pg = sysconf(_SC_PAGESIZE);
	void *p = mmap(NULL, (size_t)pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int err = 0;

	if (p == MAP_FAILED) {
		err = -errno;
		snprintf(why, whylen, "mmap of one page: %s", strerror(-err));
		numa_bitmask_free(bm);
		return err;
	}
	numa_bitmask_setbit(bm, (unsigned)node);
	if (mbind(p, (unsigned long)pg, MPOL_WEIGHTED_INTERLEAVE, bm->maskp, bm->size + 1, 0)) {
		err = -errno;
		if (err == -EINVAL)
			snprintf(why, whylen, "this kernel has no MPOL_WEIGHTED_INTERLEAVE (Linux 6.9 and later): mbind says %s",
				 strerror(-err));
		else
			snprintf(why, whylen, "mbind MPOL_WEIGHTED_INTERLEAVE: %s", strerror(-err));
	}
	munmap(p, (size_t)pg);
	numa_bitmask_free(bm);
	return err;
}

/*
 * PH_WL_PAGEHOP: fault in each run of weights[k] pages under the task
 * policy MPOL_BIND to nodes[k], in turn, then put the task's policy back.
 * The range has no policy of its own (no mbind: one VMA per run would
 * overrun vm.max_map_count), so the faulting task's decides.
 */
static int fault_weighted(void *addr, uint64_t bytes, const struct ph_wlayout *wl, int shift,
			  const volatile sig_atomic_t *cancel)
{
	struct bitmask *old = numa_allocate_nodemask(), *bm = numa_allocate_nodemask();
	uint64_t npages = bytes / PH_PAGE_4K, i = 0;
	int mode = MPOL_DEFAULT, err = 0;

	if (get_mempolicy(&mode, old->maskp, old->size + 1, NULL, 0))
		mode = MPOL_DEFAULT;
	for (int k = 0; i < npages && !err; k = (k + 1) % wl->n) {
		uint64_t run = (uint64_t)wl->weights[k];
		char *at = (char *)addr + i * PH_PAGE_4K;

		if (run > npages - i)
			run = npages - i;
		if (cancel && *cancel) {
			err = -EINTR;
			break;
		}
		numa_bitmask_clearall(bm);
		numa_bitmask_setbit(bm, (unsigned)wl->nodes[(k + shift) % wl->n]);
		if (set_mempolicy(MPOL_BIND, bm->maskp, bm->size + 1)) {
			err = -errno;
			break;
		}
		if (madvise(at, run * PH_PAGE_4K, MADV_POPULATE_WRITE))
			for (uint64_t p = 0; p < run; p++)
				((volatile char *)at)[p * PH_PAGE_4K] = 0;
		i += run;
	}
	set_mempolicy(mode, mode == MPOL_DEFAULT ? NULL : old->maskp,
		      mode == MPOL_DEFAULT ? 0 : old->size + 1);
	numa_bitmask_free(old);
	numa_bitmask_free(bm);
	return err;
}

static int bind_policy(void *addr, uint64_t len, int node, struct bitmask *interleave,
		       const struct ph_wlayout *wl)
{
	struct bitmask *bm = interleave;
	int mode = interleave ? MPOL_INTERLEAVE : MPOL_BIND;
	long rc;

	if (wl && wl->mode == PH_WL_PAGEHOP)
		return 0;	/* fault_weighted places every run itself */
	if (wl)
		mode = MPOL_WEIGHTED_INTERLEAVE;

	if (!interleave) {
		bm = numa_allocate_nodemask();
		numa_bitmask_setbit(bm, (unsigned)node);
	}
	/* MPOL_MF_STRICT: fail, rather than silently keep pages elsewhere. */
	rc = mbind(addr, len, mode, bm->maskp, bm->size + 1, MPOL_MF_STRICT);
	if (!interleave)
		numa_bitmask_free(bm);
	return rc ? -errno : 0;
}

static int node_free_enough(int node, uint64_t bytes, char *why, size_t whylen)
{
	long long freeb = 0;
	long long size = numa_node_size64(node, &freeb);

	if (size <= 0) {
		snprintf(why, whylen, "node %d has no memory", node);
		return -ENOMEM;
	}
	/* Leave 5% of the node free: measuring must not push it into reclaim. */
	if ((long long)bytes > freeb - size / 20) {
		char a[32], b[32];

		snprintf(why, whylen, "node %d has %s free, %s asked (keeping 5%% of the node free)",
			 node, format_size((uint64_t)(freeb > 0 ? freeb : 0), a, sizeof(a)),
			 format_size(bytes, b, sizeof(b)));
		return -ENOMEM;
	}
	return 0;
}

/*
 * Fault injection for the tests that prove verification catches a wrong
 * placement: PAGEHOP_FAULT_INJECT=node puts the memory on the next node
 * instead of the one asked; =psize backs a 4K request with THP (and a THP
 * request with 4K pages); =weights gives each run of pagehop's own
 * weighted round robin to the next node of the layout instead of its own.
 * Compiled only into the test build
 * (-DPAGEHOP_TEST_HOOKS, BUILD/test/pagehop): the shipping binary has no
 * such variable.
 */
#ifdef PAGEHOP_TEST_HOOKS
static bool fault_inject(const char *what)
{
	const char *v = getenv("PAGEHOP_FAULT_INJECT");

	return v && !strcmp(v, what);
}

static int injected_node(int node)
{
	for (int n = node + 1; n <= numa_max_node() + node; n++) {
		int m = n % (numa_max_node() + 1);
		long long freeb;

		if (numa_bitmask_isbitset(numa_nodes_ptr, (unsigned)m) &&
		    numa_node_size64(m, &freeb) > 0)
			return m;
	}
	return node;
}
#else
static inline bool fault_inject(const char *what)
{
	(void)what;
	return false;
}

static inline int injected_node(int node)
{
	return node;
}
#endif

/* Locked so that it is neither swapped nor migrated while measured. */
static void lock_pages(struct ph_segment *seg)
{
	struct rlimit rl;
	char a[32], b[32];
	int err;

	if (!mlock(seg->addr, seg->bytes))
		return;
	err = errno;
	/* Without CAP_IPC_LOCK, mlock fails past RLIMIT_MEMLOCK (ENOMEM, or EPERM at 0). */
	if ((err == ENOMEM || err == EPERM) && geteuid() != 0 &&
	    !getrlimit(RLIMIT_MEMLOCK, &rl) && rl.rlim_cur != RLIM_INFINITY)
		ph_warn("cannot lock the %s buffer in memory: more than RLIMIT_MEMLOCK allows (ulimit -l: %s); raise 'ulimit -l' or run as root; pages may move while measured",
			format_size(seg->bytes, a, sizeof(a)),
			format_size((uint64_t)rl.rlim_cur, b, sizeof(b)));
	else
		ph_warn("mlock of the %s buffer failed: %s; pages may move while measured",
			format_size(seg->bytes, a, sizeof(a)), strerror(err));
}

static int alloc_mmap(const struct ph_bufreq *rq, int node, struct ph_segment *seg,
		      char *why, size_t whylen)
{
	uint64_t pb = psize_bytes(rq->psize);
	int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
	uint64_t len = seg->bytes;
	char *p;
	int err;

	if (rq->psize == PH_PS_2M || rq->psize == PH_PS_1G) {
		flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB |
			(rq->psize == PH_PS_1G ? MAP_HUGE_1GB : MAP_HUGE_2MB);
		if (!rq->interleave) {
			err = pool_ensure(node, rq->psize, seg->bytes / pb, rq->reserve, rq->cancel,
					  why, whylen);
			if (err)
				return err;
		}
	} else if (rq->psize == PH_PS_THP) {
		char mode[32] = "";

		if (sysfs_choice("/sys/kernel/mm/transparent_hugepage/enabled", mode, sizeof(mode)) ||
		    !strcmp(mode, "never")) {
			snprintf(why, whylen, "THP is %s here (/sys/kernel/mm/transparent_hugepage/enabled)",
				 mode[0] ? mode : "unsupported");
			return -EOPNOTSUPP;
		}
		len += pb;	/* room to align the start to 2 MiB */
	}
	if (!rq->interleave && rq->psize != PH_PS_2M && rq->psize != PH_PS_1G) {
		err = node_free_enough(node, seg->bytes, why, whylen);
		if (err)
			return err;
	}
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, flags, -1, 0);
	if (p == MAP_FAILED) {
		err = -errno;
		snprintf(why, whylen, "mmap of %llu bytes of %s pages: %s",
			 (unsigned long long)len, psize_name(rq->psize), strerror(-err));
		return err == -EINVAL ? -EOPNOTSUPP : err;
	}
	seg->map = p;
	seg->map_len = len;
	seg->addr = rq->psize == PH_PS_THP ?
		(char *)(((uintptr_t)p + pb - 1) & ~(uintptr_t)(pb - 1)) : p;
	if (rq->psize == PH_PS_THP) {
		if (madvise(seg->addr, seg->bytes, MADV_HUGEPAGE)) {
			err = -errno;
			snprintf(why, whylen, "madvise(MADV_HUGEPAGE): %s", strerror(-err));
			return err;
		}
	} else if (rq->psize == PH_PS_4K) {
		/* 4K means 4K: keep khugepaged from collapsing it later. */
		madvise(seg->addr, seg->bytes, MADV_NOHUGEPAGE);
	}
	if (fault_inject("psize"))
		madvise(seg->addr, seg->bytes,
			rq->psize == PH_PS_THP ? MADV_NOHUGEPAGE : MADV_HUGEPAGE);
	if (fault_inject("node"))
		node = injected_node(node);
	err = bind_policy(seg->addr, seg->bytes, node, rq->interleave, rq->weighted);
	if (err) {
		if (rq->weighted)
			snprintf(why, whylen, "mbind MPOL_WEIGHTED_INTERLEAVE: %s%s", strerror(-err),
				 err == -EINVAL ? " (Linux 6.9 and later have it)" : "");
		else
			snprintf(why, whylen, "mbind to node %d: %s", node, strerror(-err));
		return err;
	}
	/* Every page now, on the node's CPUs: the policy just set picks the node. */
	if (rq->weighted && rq->weighted->mode == PH_WL_PAGEHOP)
		err = fault_weighted(seg->addr, seg->bytes, rq->weighted,
				     fault_inject("weights") ? 1 : 0, rq->cancel);
	else
		err = touch_memory(seg->addr, seg->bytes, rq->psize, rq->interleave ? -1 : node,
				   rq->cancel, NULL);
	if (err == -EINTR) {
		snprintf(why, whylen, "interrupted while faulting the buffer in");
		return err;
	}
	if (err) {
		snprintf(why, whylen, "no %s page free on node %d when faulting the buffer in",
			 psize_name(rq->psize), node);
		return err;
	}
	lock_pages(seg);
	return 0;
}

static int alloc_kmod(struct ph_kmod *km, const struct ph_bufreq *rq, int node,
		      struct ph_segment *seg, char *why, size_t whylen)
{
	int err;

	if (rq->interleave) {
		snprintf(why, whylen, "--interleave needs --backend anon or hugetlb");
		return -EINVAL;
	}
	if (km->fd < 0) {
		snprintf(why, whylen, "--backend kmod: %s", km->why);
		return -EOPNOTSUPP;
	}
	if (fault_inject("node"))
		node = injected_node(node);
	if (rq->psize == PH_PS_THP || !kmod_has(km, psize_feature(rq->psize))) {
		snprintf(why, whylen, "pagehop.ko cannot map %s pages on this kernel",
			 psize_name(rq->psize));
		return -EOPNOTSUPP;
	}
	err = kmod_alloc_map(km, node, psize_uapi(rq->psize), seg->bytes, &seg->kbuf);
	if (!err) {
		/*
		 * 2M and 1G buffers are mapped at the first touch of each page
		 * (the module's huge_fault): touch them now, so that what is
		 * verified is what will be measured and no fault is timed.
		 */
		seg->addr = seg->kbuf.addr;
		err = touch_memory(seg->addr, seg->bytes, rq->psize, node, rq->cancel, NULL);
		if (err == -EINTR) {
			snprintf(why, whylen, "interrupted while faulting the buffer in");
			return err;
		}
		if (err) {
			snprintf(why, whylen, "pagehop.ko: faulting in the %s buffer on node %d failed",
				 psize_name(rq->psize), node);
			return err;
		}
		return 0;
	}
	snprintf(why, whylen, "pagehop.ko: %s of %s pages on node %d: %s",
		 format_size(seg->bytes, (char[32]){ 0 }, 32), psize_name(rq->psize),
		 node, kmod_alloc_why(err));
	return err;
}

static void segment_init(struct ph_segment *seg, const struct ph_bufreq *rq, int node,
			 uint64_t bytes, enum ph_backend backend)
{
	uint64_t pb = psize_bytes(rq->psize);

	memset(seg, 0, sizeof(*seg));
	seg->psize = rq->psize;
	seg->node = rq->interleave ? -1 : node;
	seg->bytes = (bytes + pb - 1) / pb * pb;
	seg->backend = backend;
	seg->cancel = rq->cancel;
}

int segment_alloc(struct ph_kmod *km, const struct ph_bufreq *rq, int node,
		  uint64_t bytes, struct ph_segment *seg, char *why, size_t whylen)
{
	enum ph_backend next;
	int err;

	segment_init(seg, rq, node, bytes, rq->backend == PH_BACKEND_AUTO ?
		     buffer_auto_backend(km, rq->psize) : rq->backend);
	if (seg->backend == PH_BACKEND_HUGETLB && rq->psize != PH_PS_2M && rq->psize != PH_PS_1G) {
		snprintf(why, whylen, "--backend hugetlb takes --page-size 2m or 1g");
		return -EINVAL;
	}
	if (seg->backend == PH_BACKEND_ANON && (rq->psize == PH_PS_2M || rq->psize == PH_PS_1G)) {
		snprintf(why, whylen, "--backend anon takes --page-size 4k or thp");
		return -EINVAL;
	}
	if (rq->weighted && (!rq->interleave || rq->psize != PH_PS_4K ||
			     seg->backend != PH_BACKEND_ANON)) {
		snprintf(why, whylen, "a weighted layout takes 4K anonymous pages over interleave nodes");
		return -EINVAL;
	}
	if (!rq->interleave && (node < 0 || node > numa_max_node() ||
				!numa_bitmask_isbitset(numa_nodes_ptr, (unsigned)node))) {
		snprintf(why, whylen, "node %d does not exist", node);
		return -EINVAL;
	}
	if (seg->backend != PH_BACKEND_KMOD) {
		err = alloc_mmap(rq, node, seg, why, whylen);
		goto out;
	}
	err = alloc_kmod(km, rq, node, seg, why, whylen);
	next = rq->backend == PH_BACKEND_AUTO ? buffer_auto_fallback(rq->psize, err) :
		PH_BACKEND_AUTO;
	if (next != PH_BACKEND_AUTO) {
		/* --backend auto: what the module would not give, another backend may. */
		char kwhy[200], nwhy[512];

		snprintf(kwhy, sizeof(kwhy), "%s", why);
		segment_free(km, seg);
		segment_init(seg, rq, node, bytes, next);
		err = alloc_mmap(rq, node, seg, nwhy, sizeof(nwhy));
		if (!err)
			snprintf(seg->backend_note, sizeof(seg->backend_note),
				 "--backend auto: %s; took the %s pages from %s instead",
				 kwhy, psize_name(rq->psize),
				 next == PH_BACKEND_HUGETLB ? "the hugetlb pool" : "anonymous memory");
		else if (err == -EINTR)
			snprintf(why, whylen, "%s", nwhy);
		else
			snprintf(why, whylen, "%s; and %s: %s", kwhy, backend_name(next), nwhy);
	}
	/* Over the module's cap or floor is one more way to be short of memory. */
	if (err == -E2BIG)
		err = -ENOMEM;
out:
	if (err)
		segment_free(km, seg);
	return err;
}

void segment_free(struct ph_kmod *km, struct ph_segment *seg)
{
	if (seg->kbuf.addr)
		kmod_unmap_free(km, &seg->kbuf);
	if (seg->map)
		munmap(seg->map, seg->map_len);
	free(seg->found.node_bytes);
	memset(seg, 0, sizeof(*seg));
}
