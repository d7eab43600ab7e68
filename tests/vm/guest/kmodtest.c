// SPDX-License-Identifier: GPL-2.0-only
/*
 * kmodtest.c - the guests' driver for pagehop.ko tests (tests/vm/guest/kmod_*.sh).
 *
 *   kmodtest SUBCOMMAND [ARGS]
 *
 * Each subcommand checks one thing and exits 0 if it holds, 1 if not (the
 * reason on stderr), 2 on bad usage.  Where the module says where memory is,
 * the answer is checked through a second path: move_pages(2) and
 * /proc/self/pagemap for 4 KiB pages, hugetlbfs mappings placed with mbind
 * for QUERY itself, INFO against what was allocated.
 */
#include "chase.h"
#include "kmod.h"
#include "uapi/pagehop.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/capability.h>
#include <numaif.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
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

#ifndef MAP_HUGE_2MB
#define MAP_HUGE_2MB (21 << MAP_HUGE_SHIFT)
#endif
#ifndef MAP_HUGE_1GB
#define MAP_HUGE_1GB (30 << MAP_HUGE_SHIFT)
#endif

#define KiB 1024ULL
#define MiB (1024 * KiB)
#define GiB (1024 * MiB)

static const char *dev_path = "/dev/" PAGEHOP_DEVICE_NAME;

static int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int fail(const char *fmt, ...)
{
	va_list ap;

	fputs("kmodtest: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 1;
}

static const char *errname(int e)
{
	static const struct { int e; const char *n; } t[] = {
		{ 0, "OK" }, { EINVAL, "EINVAL" }, { ENOMEM, "ENOMEM" }, { E2BIG, "E2BIG" },
		{ EOPNOTSUPP, "EOPNOTSUPP" }, { ENOTTY, "ENOTTY" }, { EFAULT, "EFAULT" },
		{ ENOENT, "ENOENT" }, { EPERM, "EPERM" }, { EACCES, "EACCES" },
		{ EBUSY, "EBUSY" }, { EWOULDBLOCK, "EWOULDBLOCK" }, { ENOSPC, "ENOSPC" }, { EINTR, "EINTR" }, { EIO, "EIO" },
		{ ENXIO, "ENXIO" }, { ENODEV, "ENODEV" },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (t[i].e == e)
			return t[i].n;
	return strerror(e);
}

static int errnum(const char *name)
{
	static const char *const names[] = { "EINVAL", "ENOMEM", "E2BIG", "EOPNOTSUPP", "ENOTTY",
					     "EFAULT", "ENOENT", "EPERM", "EACCES", "EBUSY" };
	static const int nums[] = { EINVAL, ENOMEM, E2BIG, EOPNOTSUPP, ENOTTY,
				    EFAULT, ENOENT, EPERM, EACCES, EBUSY };

	for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++)
		if (!strcmp(name, names[i]))
			return nums[i];
	return -1;
}

/* ioctl returning 0 or the errno. */
static int xioctl(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) ? errno : 0;
}

static int open_dev(void)
{
	int fd = open(dev_path, O_RDWR | O_CLOEXEC);

	if (fd < 0) {
		fail("open %s: %s", dev_path, strerror(errno));
		exit(1);
	}
	return fd;
}

static int open_kmod(struct ph_kmod *k)
{
	int err = kmod_open(k);

	if (err) {
		fail("kmod_open: %s", k->why);
		exit(1);
	}
	return 0;
}

static uint64_t parse_size(const char *s)
{
	char *end;
	uint64_t v = strtoull(s, &end, 0);

	switch (*end) {
	case 'k': case 'K': return v * KiB;
	case 'm': case 'M': return v * MiB;
	case 'g': case 'G': return v * GiB;
	default: return v;
	}
}

static uint32_t parse_ps(const char *s)
{
	if (!strcmp(s, "4k"))
		return PAGEHOP_PAGE_4K;
	if (!strcmp(s, "2m"))
		return PAGEHOP_PAGE_2M;
	if (!strcmp(s, "1g"))
		return PAGEHOP_PAGE_1G;
	fail("page size '%s': expected 4k, 2m or 1g", s);
	exit(2);
}

static uint64_t ps_bytes(uint32_t ps)
{
	return ps == PAGEHOP_PAGE_1G ? GiB : ps == PAGEHOP_PAGE_2M ? 2 * MiB : 4 * KiB;
}

static uint32_t ps_level(uint32_t ps)
{
	return ps == PAGEHOP_PAGE_1G ? PAGEHOP_LEVEL_PUD :
	       ps == PAGEHOP_PAGE_2M ? PAGEHOP_LEVEL_PMD : PAGEHOP_LEVEL_PTE;
}

static int get_info(int fd, struct pagehop_info *info, uint64_t *node_free, uint32_t n)
{
	memset(info, 0, sizeof(*info));
	info->size = sizeof(*info);
	info->node_free_ptr = (uint64_t)(uintptr_t)node_free;
	info->node_free_count = node_free ? n : 0;
	return xioctl(fd, PAGEHOP_IOC_INFO, info);
}

static uint64_t pinned_now(void)
{
	struct pagehop_info info;
	int fd = open_dev();

	if (get_info(fd, &info, NULL, 0)) {
		fail("INFO failed");
		exit(1);
	}
	close(fd);
	return info.pinned_bytes;
}

/* ---- second paths: pagemap and move_pages ------------------------------- */

/* PFN of the 4 KiB page at addr from /proc/self/pagemap, 0 if not present. */
static uint64_t pagemap_pfn(int pm, const void *addr)
{
	uint64_t e;
	off_t off = (off_t)((uintptr_t)addr / 4096) * 8;

	if (pread(pm, &e, sizeof(e), off) != sizeof(e))
		return 0;
	if (!(e & (1ULL << 63)))
		return 0;
	return e & ((1ULL << 55) - 1);
}

/* ---- QUERY collection ----------------------------------------------------- */

struct qlist {
	struct pagehop_query_entry *e;
	size_t n, cap;
};

static int qlist_add(const struct pagehop_query_entry *e, void *arg)
{
	struct qlist *q = arg;

	if (q->n == q->cap) {
		q->cap = q->cap ? 2 * q->cap : 256;
		q->e = realloc(q->e, q->cap * sizeof(*q->e));
		if (!q->e)
			return -ENOMEM;
	}
	q->e[q->n++] = *e;
	return 0;
}

static int query_all(struct ph_kmod *k, const void *addr, uint64_t len, struct qlist *q)
{
	memset(q, 0, sizeof(*q));
	return kmod_query(k, addr, len, qlist_add, q);
}

/*
 * [addr, addr + len) must be covered, in order and without gaps, by leaves
 * of the given level on the given node, each aligned to its size.
 */
static int check_leaves(const struct qlist *q, const void *addr, uint64_t len,
			uint32_t level, uint64_t leaf, int node)
{
	uint64_t a = (uint64_t)(uintptr_t)addr;

	for (size_t i = 0; i < q->n; i++) {
		const struct pagehop_query_entry *e = &q->e[i];

		if (e->addr != a)
			return fail("QUERY entry %zu at 0x%" PRIx64 ", expected 0x%" PRIx64,
				    i, (uint64_t)e->addr, a);
		if (e->level != level || e->length != leaf)
			return fail("QUERY entry %zu at 0x%" PRIx64 ": level %u length %" PRIu64
				    ", expected level %u length %" PRIu64,
				    i, a, e->level, (uint64_t)e->length, level, leaf);
		if (e->node != node)
			return fail("QUERY entry %zu at 0x%" PRIx64 ": node %d, expected %d",
				    i, a, e->node, node);
		if (e->pfn % (leaf / 4096))
			return fail("QUERY entry %zu: pfn 0x%" PRIx64 " not aligned to the leaf",
				    i, (uint64_t)e->pfn);
		a += leaf;
	}
	if (a != (uint64_t)(uintptr_t)addr + len)
		return fail("QUERY covered up to 0x%" PRIx64 ", expected 0x%" PRIx64, a,
			    (uint64_t)(uintptr_t)addr + len);
	return 0;
}

/* 4 KiB pages: move_pages and pagemap agree with QUERY, page by page. */
static int check_4k_second_path(const struct qlist *q, int node)
{
	void **pages = calloc(q->n, sizeof(*pages));
	int *status = calloc(q->n, sizeof(*status));
	int pm = open("/proc/self/pagemap", O_RDONLY), rc = 0;

	if (!pages || !status || pm < 0)
		return fail("setup for move_pages/pagemap: %s", strerror(errno));
	for (size_t i = 0; i < q->n; i++)
		pages[i] = (void *)(uintptr_t)q->e[i].addr;
	if (move_pages(0, q->n, pages, NULL, status, 0)) {
		rc = fail("move_pages: %s", strerror(errno));
		goto out;
	}
	for (size_t i = 0; i < q->n; i++) {
		uint64_t pfn = pagemap_pfn(pm, pages[i]);

		if (status[i] != node) {
			rc = fail("move_pages says page %zu is on node %d (%s), expected %d", i,
				  status[i], status[i] < 0 ? errname(-status[i]) : "", node);
			break;
		}
		if (pfn != q->e[i].pfn) {
			rc = fail("pagemap says page %zu is pfn 0x%" PRIx64 ", QUERY 0x%" PRIx64, i,
				  pfn, (uint64_t)q->e[i].pfn);
			break;
		}
	}
out:
	close(pm);
	free(pages);
	free(status);
	return rc;
}

/* Zeroed on arrival: all of small buffers, a sample of 1 GiB ones. */
static int check_zero(const struct ph_kbuf *b)
{
	const uint64_t *w = b->addr;
	uint64_t n = b->length / 8;

	if (b->length <= 64 * MiB) {
		for (uint64_t i = 0; i < n; i++)
			if (w[i])
				return fail("word %" PRIu64 " is 0x%" PRIx64 ", not zero", i, w[i]);
		return 0;
	}
	for (uint64_t i = 0; i < n; i += 512)
		if (w[i] || w[i + 511])
			return fail("page at word %" PRIu64 " not zeroed", i);
	return 0;
}

static void fill(const struct ph_kbuf *b, uint64_t seed)
{
	for (uint64_t off = 0; off < b->length; off += 4096)
		*(volatile uint64_t *)((char *)b->addr + off) = seed ^ off;
}

static int verify(const void *addr, uint64_t len, uint64_t seed)
{
	for (uint64_t off = 0; off < len; off += 4096) {
		uint64_t v = *(const volatile uint64_t *)((const char *)addr + off);

		if (v != (seed ^ off))
			return fail("offset 0x%" PRIx64 " holds 0x%" PRIx64 ", expected 0x%" PRIx64,
				    off, v, seed ^ off);
	}
	return 0;
}

/*
 * place NODE SIZE LENGTH [--expect ERRNO | --or-enomem]: ALLOC + mmap,
 * then check zeroed, node and page size through QUERY (and move_pages and
 * pagemap for 4 KiB), INFO's pinned count, and that FREE gives it back.
 */
static int cmd_place(int argc, char **argv)
{
	struct ph_kmod k;
	struct ph_kbuf b;
	struct qlist q;
	uint64_t len, before;
	uint32_t ps;
	int node, err, want = 0, or_enomem = 0, rc;

	if (argc < 4)
		return 2;
	node = atoi(argv[1]);
	ps = parse_ps(argv[2]);
	len = parse_size(argv[3]);
	if (argc > 5 && !strcmp(argv[4], "--expect"))
		want = errnum(argv[5]);
	if (argc > 4 && !strcmp(argv[4], "--or-enomem"))
		or_enomem = 1;
	open_kmod(&k);
	before = k.info.pinned_bytes;
	err = kmod_alloc_map(&k, node, ps, len, &b);
	if (want) {
		kmod_unmap_free(&k, &b);
		if (-err != want)
			return fail("ALLOC node %d %s %" PRIu64 ": got %s, expected %s", node,
				    argv[2], len, errname(-err), errname(want));
		printf("ALLOC node %d %s: %s as documented\n", node, argv[2], errname(want));
		return pinned_now() == before ? 0 : fail("pinned count changed by a failed ALLOC");
	}
	if (err == -ENOMEM && or_enomem) {
		printf("ENOMEM: no contiguous %s free on node %d now\n", argv[2], node);
		return pinned_now() == before ? 0 : fail("pinned count changed by a failed ALLOC");
	}
	if (err)
		return fail("ALLOC+mmap node %d %s %" PRIu64 ": %s", node, argv[2], len,
			    errname(-err));
	if ((uintptr_t)b.addr % ps_bytes(ps))
		return fail("mapped at %p, not aligned to the page size", b.addr);
	rc = check_zero(&b);
	fill(&b, 0x5a5a0000u + (uint64_t)node);
	if (!rc)
		rc = verify(b.addr, b.length, 0x5a5a0000u + (uint64_t)node);
	if (!rc && pinned_now() != before + len)
		rc = fail("INFO pinned %" PRIu64 ", expected %" PRIu64, pinned_now(), before + len);
	err = query_all(&k, b.addr, b.length, &q);
	if (err)
		return fail("QUERY: %s", errname(-err));
	if (!rc)
		rc = check_leaves(&q, b.addr, b.length, ps_level(ps), ps_bytes(ps), node);
	if (!rc && ps == PAGEHOP_PAGE_4K)
		rc = check_4k_second_path(&q, node);
	kmod_unmap_free(&k, &b);
	if (!rc && pinned_now() != before)
		rc = fail("FREE+munmap left %" PRIu64 " bytes pinned", pinned_now() - before);
	free(q.e);
	kmod_close(&k);
	if (!rc)
		printf("node %d %s x %" PRIu64 ": %zu leaves, all on node %d\n", node, argv[2],
		       len / ps_bytes(ps), q.n, node);
	return rc;
}

/*
 * hugetlb SIZE NODE: a hugetlbfs mapping of SIZE (2m or 1g) pages bound to
 * NODE with mbind: QUERY must report leaves of that level on that node,
 * with the PFNs pagemap gives and the node move_pages gives.
 */
static int cmd_hugetlb(int argc, char **argv)
{
	struct ph_kmod k;
	struct qlist q;
	uint32_t ps;
	uint64_t len, leaf, mask;
	int node, pm, rc, st = -1;
	void *p;

	if (argc < 3)
		return 2;
	ps = parse_ps(argv[1]);
	node = atoi(argv[2]);
	leaf = ps_bytes(ps);
	len = ps == PAGEHOP_PAGE_1G ? GiB : 4 * MiB;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB |
		 (ps == PAGEHOP_PAGE_1G ? MAP_HUGE_1GB : MAP_HUGE_2MB), -1, 0);
	if (p == MAP_FAILED)
		return fail("mmap MAP_HUGETLB %s: %s", argv[1], strerror(errno));
	mask = 1ULL << node;
	if (mbind(p, len, MPOL_BIND, &mask, 64, MPOL_MF_STRICT))
		return fail("mbind to node %d: %s", node, strerror(errno));
	memset(p, 0x11, len);
	open_kmod(&k);
	if (query_all(&k, p, len, &q))
		return fail("QUERY failed");
	rc = check_leaves(&q, p, len, ps_level(ps), leaf, node);
	pm = open("/proc/self/pagemap", O_RDONLY);
	for (size_t i = 0; !rc && i < q.n; i++) {
		void *a = (void *)(uintptr_t)q.e[i].addr;
		uint64_t pfn = pagemap_pfn(pm, a);

		if (pfn != q.e[i].pfn)
			rc = fail("pagemap pfn 0x%" PRIx64 " vs QUERY 0x%" PRIx64, pfn,
				  (uint64_t)q.e[i].pfn);
		if (!rc && (move_pages(0, 1, &a, NULL, &st, 0) || st != node))
			rc = fail("move_pages says node %d, expected %d", st, node);
	}
	close(pm);
	munmap(p, len);
	if (!rc)
		printf("hugetlb %s on node %d: QUERY agrees with mbind, pagemap and move_pages\n",
		       argv[1], node);
	return rc;
}

/*
 * anon NODE: plain anonymous memory bound to NODE, half of it touched.
 * Touched pages: PTE leaves on NODE with pagemap's PFN; untouched: one
 * merged hole.  Then a THP-eligible region: a PMD leaf where the kernel gave
 * one (pagemap agrees on its first PFN), else PTEs; either is the truth.
 */
static int cmd_anon(int argc, char **argv)
{
	const uint64_t len = 64 * 4096;
	struct ph_kmod k;
	struct qlist q;
	uint64_t mask;
	int node, rc, pm;
	char *p, *t;

	if (argc < 2)
		return 2;
	node = atoi(argv[1]);
	mask = 1ULL << node;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED || mbind(p, len, MPOL_BIND, &mask, 64, MPOL_MF_STRICT))
		return fail("anonymous mapping on node %d: %s", node, strerror(errno));
	madvise(p, len, MADV_NOHUGEPAGE);
	memset(p, 1, len / 2);
	open_kmod(&k);
	if (query_all(&k, p, len, &q))
		return fail("QUERY failed");
	if (q.n != 33)
		return fail("QUERY: %zu entries, expected 32 PTEs and one hole", q.n);
	q.n = 32;
	rc = check_leaves(&q, p, len / 2, PAGEHOP_LEVEL_PTE, 4096, node);
	if (!rc)
		rc = check_4k_second_path(&q, node);
	if (!rc && (q.e[32].level != PAGEHOP_LEVEL_NONE ||
		    q.e[32].addr != (uintptr_t)p + len / 2 || q.e[32].length != len / 2))
		rc = fail("the untouched half is not one hole entry");
	free(q.e);
	munmap(p, len);
	if (rc)
		return rc;

	/* THP: 4 MiB with a 2 MiB-aligned 2 MiB inside. */
	p = mmap(NULL, 4 * MiB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return fail("mmap: %s", strerror(errno));
	t = (char *)(((uintptr_t)p + 2 * MiB - 1) & ~(uintptr_t)(2 * MiB - 1));
	if (mbind(t, 2 * MiB, MPOL_BIND, &mask, 64, MPOL_MF_STRICT))
		return fail("mbind: %s", strerror(errno));
	madvise(t, 2 * MiB, MADV_HUGEPAGE);
	memset(t, 2, 2 * MiB);
	if (query_all(&k, t, 2 * MiB, &q))
		return fail("QUERY failed");
	pm = open("/proc/self/pagemap", O_RDONLY);
	if (q.n == 1)
		rc = check_leaves(&q, t, 2 * MiB, PAGEHOP_LEVEL_PMD, 2 * MiB, node);
	else
		rc = check_leaves(&q, t, 2 * MiB, PAGEHOP_LEVEL_PTE, 4096, node);
	if (!rc && pagemap_pfn(pm, t) != q.e[0].pfn)
		rc = fail("THP: pagemap pfn 0x%" PRIx64 " vs QUERY 0x%" PRIx64,
			  pagemap_pfn(pm, t), (uint64_t)q.e[0].pfn);
	close(pm);
	if (!rc)
		printf("anon node %d: PTEs and hole as touched; THP region: %s\n", node,
		       q.n == 1 ? "one PMD leaf" : "4 KiB PTEs (no THP given)");
	munmap(p, 4 * MiB);
	free(q.e);
	kmod_close(&k);
	return rc;
}

/* query-paging: max_entries 1 walks a mixed range one entry per call. */
static int cmd_query_paging(int argc, char **argv)
{
	struct pagehop_query_entry e[2];
	struct pagehop_query qr;
	uint64_t a, end;
	int fd = open_dev(), n = 0, err;
	char *p;

	(void)argc;
	(void)argv;
	p = mmap(NULL, 16 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return fail("mmap: %s", strerror(errno));
	madvise(p, 16 * 4096, MADV_NOHUGEPAGE);
	/* pages 0-3 touched, 4-9 not, 10 touched, 11-15 not */
	memset(p, 1, 4 * 4096);
	p[10 * 4096] = 1;
	a = (uintptr_t)p;
	end = a + 16 * 4096;
	while (a < end) {
		memset(&qr, 0, sizeof(qr));
		memset(e, 0xff, sizeof(e));
		qr.size = sizeof(qr);
		qr.addr = a;
		qr.length = end - a;
		qr.entries_ptr = (uintptr_t)e;
		qr.max_entries = 1;
		err = xioctl(fd, PAGEHOP_IOC_QUERY, &qr);
		if (err)
			return fail("QUERY: %s", errname(err));
		if (qr.nr_entries != 1 || e[1].addr != ~0ULL)
			return fail("QUERY wrote %u entries with max_entries 1", qr.nr_entries);
		if (e[0].addr != a || qr.next_addr != a + e[0].length)
			return fail("entry at 0x%" PRIx64 " len %" PRIu64 ", next 0x%" PRIx64
				    " (asked 0x%" PRIx64 ")", (uint64_t)e[0].addr,
				    (uint64_t)e[0].length, (uint64_t)qr.next_addr, a);
		n++;
		a = qr.next_addr;
	}
	/* 4 PTEs, hole of 6, 1 PTE, hole of 5 */
	if (n != 7)
		return fail("%d entries walking one at a time, expected 7", n);
	printf("QUERY with max_entries 1: 7 entries, next_addr chained\n");
	return 0;
}

/* ---- error paths ---------------------------------------------------------- */

static int expect(const char *what, int got, int want)
{
	if (got != want)
		return fail("%s: got %s, expected %s", what, errname(got), errname(want));
	printf("%s: %s\n", what, errname(want));
	return 0;
}

static int alloc_raw(int fd, uint32_t node, uint32_t ps, uint64_t len, struct pagehop_alloc *a)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->node = node;
	a->page_size = ps;
	a->length = len;
	return xioctl(fd, PAGEHOP_IOC_ALLOC, a);
}

static int free_raw(int fd, uint32_t id)
{
	struct pagehop_free f = { .size = sizeof(f), .id = id };

	return xioctl(fd, PAGEHOP_IOC_FREE, &f);
}

/*
 * Set cap in the effective set (on) or clear it (off); with permitted,
 * clear it from the permitted set too, for good.  Stays uid 0.
 */
static int cap_set(int cap, int on, int permitted)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2];
	uint32_t bit = 1U << (cap % 32);

	if (syscall(SYS_capget, &h, d))
		return -1;
	if (on)
		d[cap / 32].effective |= bit;
	else
		d[cap / 32].effective &= ~bit;
	if (!on && permitted)
		d[cap / 32].permitted &= ~bit;
	return (int)syscall(SYS_capset, &h, d);
}

/* Drop CAP_SYS_ADMIN from the effective and permitted sets, stay uid 0. */
static int drop_sys_admin(void)
{
	return cap_set(CAP_SYS_ADMIN, 0, 1);
}

/* VmPin of /proc/self/status in bytes (the kernel's mm->pinned_vm), or -1. */
static int64_t vmpin_bytes(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long long kb = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmPin: %lld kB", &kb) == 1)
			break;
	fclose(f);
	return kb < 0 ? -1 : kb * 1024;
}

static int expect_vmpin(const char *when, int64_t want)
{
	int64_t got = vmpin_bytes();

	if (got != want)
		return fail("%s: VmPin %" PRId64 " kB, expected %" PRId64 " kB", when, got / 1024,
			    want / 1024);
	printf("%s: VmPin %" PRId64 " kB\n", when, got / 1024);
	return 0;
}

/* ---- reading an address that may not be mapped ---------------------------- */

static sigjmp_buf probe_jmp;

static void probe_handler(int sig)
{
	siglongjmp(probe_jmp, sig);
}

/* Read the word at addr: 0 and *val, or the signal the read raised. */
static int probe_read(const void *addr, uint64_t *val)
{
	struct sigaction sa = { .sa_handler = probe_handler }, old_segv, old_bus;
	volatile int sig;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, &old_segv);
	sigaction(SIGBUS, &sa, &old_bus);
	sig = sigsetjmp(probe_jmp, 1);
	if (!sig)
		*val = *(const volatile uint64_t *)addr;
	sigaction(SIGSEGV, &old_segv, NULL);
	sigaction(SIGBUS, &old_bus, NULL);
	return sig;
}

/*
 * Every page of [addr, addr + len) must be unmapped: reading its first word
 * raises SIGSEGV.  A word that reads means a stale translation (or a
 * mapping left behind) still reaches memory that is no longer the caller's.
 */
static int expect_unmapped(const char *what, const void *addr, uint64_t len, uint64_t page)
{
	for (uint64_t off = 0; off < len; off += page) {
		uint64_t v = 0;
		int sig = probe_read((const char *)addr + off, &v);

		if (sig != SIGSEGV)
			return fail("%s: %p+0x%" PRIx64 " %s%s 0x%" PRIx64, what, addr, off,
				    sig ? strsignal(sig) : "still reads", sig ? "," : "", v);
	}
	printf("%s: SIGSEGV on every page\n", what);
	return 0;
}

/* Open the device in a child after dropping privileges; the child's errno. */
static int open_as(int how)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		if (how == 0 && (setgid(65534) || setuid(65534)))
			_exit(200);
		if (how == 1 && drop_sys_admin())
			_exit(201);
		int fd = open(dev_path, O_RDWR);

		_exit(fd >= 0 ? 0 : errno);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

static int err_memlock(int fd);

static int cmd_err(int argc, char **argv)
{
	struct pagehop_alloc a;
	struct pagehop_info info;
	struct pagehop_query_entry ent;
	int fd, rc = 0;
	const char *w;
	uint8_t big[256];
	void *p;

	if (argc < 2)
		return 2;
	w = argv[1];
	fd = open_dev();
	if (!strcmp(w, "bad-node")) {
		rc |= expect("ALLOC node 64", alloc_raw(fd, 64, PAGEHOP_PAGE_4K, 4096, &a), EINVAL);
		rc |= expect("ALLOC node 4 (possible, not online)",
			     alloc_raw(fd, 4, PAGEHOP_PAGE_4K, 4096, &a), EINVAL);
		rc |= expect("ALLOC node 0xffffffff",
			     alloc_raw(fd, 0xffffffffu, PAGEHOP_PAGE_4K, 4096, &a), EINVAL);
	} else if (!strcmp(w, "bad-page-size")) {
		rc |= expect("ALLOC page size 0", alloc_raw(fd, 0, 0, 4096, &a), EINVAL);
		rc |= expect("ALLOC page size 4", alloc_raw(fd, 0, 4, 4096, &a), EINVAL);
		rc |= expect("ALLOC page size 4096", alloc_raw(fd, 0, 4096, 4096, &a), EINVAL);
	} else if (!strcmp(w, "bad-length")) {
		rc |= expect("ALLOC length 0", alloc_raw(fd, 0, PAGEHOP_PAGE_4K, 0, &a), EINVAL);
		rc |= expect("ALLOC length 4097", alloc_raw(fd, 0, PAGEHOP_PAGE_4K, 4097, &a), EINVAL);
		rc |= expect("ALLOC 2m length 1 MiB",
			     alloc_raw(fd, 0, PAGEHOP_PAGE_2M, MiB, &a), EINVAL);
		rc |= expect("ALLOC 1g length 2 MiB",
			     alloc_raw(fd, 0, PAGEHOP_PAGE_1G, 2 * MiB, &a), EINVAL);
	} else if (!strcmp(w, "over-cap")) {
		/* The default cap is half of RAM: more than that is E2BIG at once. */
		get_info(fd, &info, NULL, 0);
		rc |= expect("ALLOC cap + 4 KiB",
			     alloc_raw(fd, 1, PAGEHOP_PAGE_4K, info.pin_cap_bytes + 4096, &a), E2BIG);
		rc |= expect("ALLOC 2^40 bytes", alloc_raw(fd, 1, PAGEHOP_PAGE_4K, 1ULL << 40, &a),
			     E2BIG);
		rc |= expect("ALLOC 2^63 bytes", alloc_raw(fd, 1, PAGEHOP_PAGE_4K, 1ULL << 63, &a),
			     E2BIG);
	} else if (!strcmp(w, "cap-sum")) {
		/* Run with max_pinned_mb=8: two 4 MiB fit, one more page does not. */
		uint32_t id1, id2;

		rc |= expect("ALLOC 4 MiB #1", alloc_raw(fd, 0, PAGEHOP_PAGE_4K, 4 * MiB, &a), 0);
		id1 = a.id;
		rc |= expect("ALLOC 4 MiB #2", alloc_raw(fd, 1, PAGEHOP_PAGE_4K, 4 * MiB, &a), 0);
		id2 = a.id;
		rc |= expect("ALLOC 4 KiB over the cap", alloc_raw(fd, 2, PAGEHOP_PAGE_4K, 4096, &a),
			     E2BIG);
		rc |= expect("FREE #1", free_raw(fd, id1), 0);
		rc |= expect("ALLOC 4 KiB after FREE", alloc_raw(fd, 2, PAGEHOP_PAGE_4K, 4096, &a), 0);
		free_raw(fd, id2);
		free_raw(fd, a.id);
	} else if (!strcmp(w, "node-floor")) {
		/* Everything free on node 3 but 2% of it: below the 5% floor. */
		uint64_t nf[8] = { 0 };

		get_info(fd, &info, nf, 8);
		uint64_t len = (nf[3] - nf[3] / 50) * 4096;

		len &= ~(4096ULL - 1);
		rc |= expect("ALLOC all but 2% of node 3", alloc_raw(fd, 3, PAGEHOP_PAGE_4K, len, &a),
			     E2BIG);
	} else if (!strcmp(w, "reserved")) {
		memset(&a, 0, sizeof(a));
		a = (struct pagehop_alloc){ .size = sizeof(a), .page_size = PAGEHOP_PAGE_4K,
					    .length = 4096, .reserved0 = 1 };
		rc |= expect("ALLOC reserved0 = 1", xioctl(fd, PAGEHOP_IOC_ALLOC, &a), EINVAL);
		a.reserved0 = 0;
		a.reserved[1] = 1;
		rc |= expect("ALLOC reserved[1] = 1", xioctl(fd, PAGEHOP_IOC_ALLOC, &a), EINVAL);
		a.reserved[1] = 0;
		a.flags = 1;
		rc |= expect("ALLOC flags = 1", xioctl(fd, PAGEHOP_IOC_ALLOC, &a), EINVAL);
		memset(&info, 0, sizeof(info));
		info.size = sizeof(info);
		info.reserved[3] = 1;
		rc |= expect("INFO reserved[3] = 1", xioctl(fd, PAGEHOP_IOC_INFO, &info), EINVAL);
		struct pagehop_free f = { .size = sizeof(f), .id = 1, .reserved = { 0, 1 } };

		rc |= expect("FREE reserved[1] = 1", xioctl(fd, PAGEHOP_IOC_FREE, &f), EINVAL);
		struct pagehop_query q = { .size = sizeof(q), .flags = 1, .addr = 0x10000,
					   .length = 4096, .entries_ptr = (uintptr_t)&ent,
					   .max_entries = 1 };

		rc |= expect("QUERY flags = 1", xioctl(fd, PAGEHOP_IOC_QUERY, &q), EINVAL);
		struct pagehop_chase c = { .size = sizeof(c), .id = 1, .loads_per_window = 1,
					   .windows = 1, .reserved = { 1, 0 } };

		rc |= expect("CHASE reserved[0] = 1", xioctl(fd, PAGEHOP_IOC_CHASE, &c), EINVAL);
		struct pagehop_prefetch pf = { .size = sizeof(pf), .op = PAGEHOP_PREFETCH_GET,
					       .reserved = { 0, 1 } };

		rc |= expect("PREFETCH reserved[1] = 1", xioctl(fd, PAGEHOP_IOC_PREFETCH, &pf),
			     EINVAL);
	} else if (!strcmp(w, "short-struct")) {
		memset(&info, 0, sizeof(info));
		info.size = 4;
		rc |= expect("INFO size 4", xioctl(fd, PAGEHOP_IOC_INFO, &info), EINVAL);
		info.size = sizeof(info) - 8;
		rc |= expect("INFO size - 8", xioctl(fd, PAGEHOP_IOC_INFO, &info), EINVAL);
		info.size = 0;
		rc |= expect("INFO size 0", xioctl(fd, PAGEHOP_IOC_INFO, &info), EINVAL);
		alloc_raw(fd, 0, PAGEHOP_PAGE_4K, 4096, &a);
		a.size = 8;
		rc |= expect("ALLOC size 8", xioctl(fd, PAGEHOP_IOC_ALLOC, &a), EINVAL);
		/* Longer than this version: zeros beyond are fine, anything else is not. */
		memset(big, 0, sizeof(big));
		memcpy(big, &info, sizeof(info));
		((struct pagehop_info *)big)->size = sizeof(big);
		rc |= expect("INFO from a newer binary, zero tail", xioctl(fd, PAGEHOP_IOC_INFO, big), 0);
		big[sizeof(big) - 1] = 1;
		rc |= expect("INFO from a newer binary, non-zero tail",
			     xioctl(fd, PAGEHOP_IOC_INFO, big), EINVAL);
		rc |= expect("INFO at a bad pointer", xioctl(fd, PAGEHOP_IOC_INFO, (void *)16), EFAULT);
	} else if (!strcmp(w, "unknown-ioctl")) {
		rc |= expect("ioctl nr 99", xioctl(fd, _IOWR(PAGEHOP_IOC_MAGIC, 99, struct pagehop_info),
						   &info), ENOTTY);
		rc |= expect("ioctl nr 0", xioctl(fd, _IO(PAGEHOP_IOC_MAGIC, 0), &info), ENOTTY);
		rc |= expect("ioctl other magic", xioctl(fd, _IOWR('x', 1, struct pagehop_info), &info),
			     ENOTTY);
		rc |= expect("FREE of an id never allocated", free_raw(fd, 12345), ENOENT);
	} else if (!strcmp(w, "map-private")) {
		rc |= expect("ALLOC", alloc_raw(fd, 0, PAGEHOP_PAGE_4K, 64 * KiB, &a), 0);
		p = mmap(NULL, 64 * KiB, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, (off_t)a.mmap_offset);
		rc |= expect("mmap MAP_PRIVATE", p == MAP_FAILED ? errno : 0, EINVAL);
		p = mmap(NULL, 64 * KiB, PROT_READ, MAP_PRIVATE, fd, (off_t)a.mmap_offset);
		rc |= expect("mmap MAP_PRIVATE read-only", p == MAP_FAILED ? errno : 0, EINVAL);
	} else if (!strcmp(w, "map-beyond")) {
		rc |= expect("ALLOC", alloc_raw(fd, 0, PAGEHOP_PAGE_4K, 64 * KiB, &a), 0);
		p = mmap(NULL, 68 * KiB, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)a.mmap_offset);
		rc |= expect("mmap 68 KiB of 64", p == MAP_FAILED ? errno : 0, EINVAL);
		p = mmap(NULL, 8 * KiB, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
			 (off_t)(a.mmap_offset + 60 * KiB));
		rc |= expect("mmap 8 KiB at 60 KiB", p == MAP_FAILED ? errno : 0, EINVAL);
		p = mmap(NULL, 4 * KiB, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
			 (off_t)(a.mmap_offset + (1ULL << 40)));
		rc |= expect("mmap at the next id's offset", p == MAP_FAILED ? errno : 0, EINVAL);
		p = mmap(NULL, 4 * KiB, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		rc |= expect("mmap at offset 0", p == MAP_FAILED ? errno : 0, EINVAL);
		p = mmap(NULL, 4 * KiB, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
			 (off_t)(a.mmap_offset + 60 * KiB));
		rc |= expect("mmap the last 4 KiB", p == MAP_FAILED ? errno : 0, 0);
		if (p != MAP_FAILED)
			munmap(p, 4 * KiB);
	} else if (!strcmp(w, "map-misaligned")) {
		/* 2 MiB buffers: offsets and lengths in 2 MiB units (6.12). */
		int e = alloc_raw(fd, 0, PAGEHOP_PAGE_2M, 4 * MiB, &a);

		if (e == EOPNOTSUPP) {
			printf("2 MiB buffers not supported here: nothing to misalign\n");
		} else {
			rc |= expect("ALLOC 2m", e, 0);
			p = mmap(NULL, 2 * MiB, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
				 (off_t)(a.mmap_offset + 4 * KiB));
			rc |= expect("mmap at +4 KiB", p == MAP_FAILED ? errno : 0, EINVAL);
			p = mmap(NULL, MiB, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)a.mmap_offset);
			rc |= expect("mmap 1 MiB of a 2 MiB page", p == MAP_FAILED ? errno : 0, EINVAL);
			p = mmap(NULL, 2 * MiB, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
				 (off_t)(a.mmap_offset + 2 * MiB));
			rc |= expect("mmap the second 2 MiB page", p == MAP_FAILED ? errno : 0, 0);
			if (p != MAP_FAILED && (uintptr_t)p % (2 * MiB))
				rc |= fail("mapped at %p, not 2 MiB aligned", p);
		}
	} else if (!strcmp(w, "non-root")) {
		rc |= expect("open as uid 65534", open_as(0), EACCES);
		rc |= expect("open as root without CAP_SYS_ADMIN", open_as(1), EPERM);
		rc |= expect("open as root", open_as(2), 0);
	} else if (!strcmp(w, "memlock")) {
		rc |= err_memlock(fd);
	} else if (!strcmp(w, "unsupported")) {
		/* What INFO does not offer, ALLOC refuses with EOPNOTSUPP. */
		get_info(fd, &info, NULL, 0);
		if (!(info.features & PAGEHOP_FEAT_PAGE_2M))
			rc |= expect("ALLOC 2m without the feature",
				     alloc_raw(fd, 0, PAGEHOP_PAGE_2M, 2 * MiB, &a), EOPNOTSUPP);
		if (!(info.features & PAGEHOP_FEAT_PAGE_1G))
			rc |= expect("ALLOC 1g without the feature",
				     alloc_raw(fd, 1, PAGEHOP_PAGE_1G, GiB, &a), EOPNOTSUPP);
		if ((info.features & (PAGEHOP_FEAT_PAGE_2M | PAGEHOP_FEAT_PAGE_1G)) ==
		    (PAGEHOP_FEAT_PAGE_2M | PAGEHOP_FEAT_PAGE_1G))
			printf("every page size is supported here\n");
	} else {
		fail("unknown error case '%s'", w);
		return 2;
	}
	close(fd);
	return rc;
}

/* ---- lifetimes ------------------------------------------------------------ */

/*
 * QUERY [addr, addr + len) and check it is leaves of page size ps on node
 * whose PFNs are pfns[] (a page each), or fill pfns[] if want is 0.
 */
static int same_leaves(struct ph_kmod *k, const void *addr, uint64_t len, uint32_t ps,
		       int node, uint64_t *pfns, int want, const char *when)
{
	struct qlist q;
	int rc;

	if (query_all(k, addr, len, &q))
		return fail("%s: QUERY failed", when);
	rc = check_leaves(&q, addr, len, ps_level(ps), ps_bytes(ps), node);
	for (size_t i = 0; !rc && i < q.n; i++) {
		if (!want)
			pfns[i] = q.e[i].pfn;
		else if (q.e[i].pfn != pfns[i])
			rc = fail("%s: page %zu is pfn 0x%" PRIx64 ", was 0x%" PRIx64, when, i,
				  (uint64_t)q.e[i].pfn, pfns[i]);
	}
	free(q.e);
	if (!rc && want)
		printf("%s: QUERY shows the same %s leaves, pfn 0x%" PRIx64 "...\n", when,
		       ps == PAGEHOP_PAGE_1G ? "PUD" : ps == PAGEHOP_PAGE_2M ? "PMD" : "PTE", pfns[0]);
	return rc;
}

/*
 * life mremap: growing is EFAULT (VM_DONTEXPAND); moving whole is allowed:
 * the old address faults at once (no stale translation left behind), the
 * new one reads the same data from the same pages (QUERY); a huge mapping
 * may move only to an address aligned to its page size; shrinking keeps the
 * rest.  Once unmapped and freed, neither address reads anything.
 */
static int life_mremap(struct ph_kmod *k, struct ph_kbuf *b, int node, uint64_t base)
{
	const uint64_t len = b->length, pb = ps_bytes(b->page_size);
	uint32_t ps = b->page_size;
	uint64_t pfns[2];
	char *old = b->addr, *dst, *mis;
	void *n;
	int rc = 0;

	n = mremap(b->addr, len, 2 * len, MREMAP_MAYMOVE);
	rc |= expect("mremap grow", n == MAP_FAILED ? errno : 0, EFAULT);
	if (same_leaves(k, b->addr, len, ps, node, pfns, 0, "before the move"))
		return 1;
	/*
	 * Room for an aligned destination and, beyond it, a misaligned one
	 * that does not overlap it (mremap refuses overlaps with EINVAL
	 * before it looks at anything else).
	 */
	n = mmap(NULL, 3 * len + 2 * pb, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (n == MAP_FAILED)
		return fail("mmap: %s", strerror(errno));
	dst = (char *)(((uintptr_t)n + pb - 1) & ~(uintptr_t)(pb - 1));
	mis = dst + len + pb + 16 * 4096;

	n = mremap(b->addr, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, dst);
	rc |= expect("mremap move to an aligned address", n == MAP_FAILED ? errno : 0, 0);
	if (n == MAP_FAILED)
		return 1;
	b->addr = n;
	/* First, before anything else touches memory and evicts TLB entries. */
	rc |= expect_unmapped("the old address after the move", old, len, pb);
	rc |= verify(b->addr, len, 0xabcdef);
	rc |= same_leaves(k, b->addr, len, ps, node, pfns, 1, "after the move");
	if (ps != PAGEHOP_PAGE_4K) {
		n = mremap(b->addr, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, mis);
		rc |= expect("mremap move to a misaligned address", n == MAP_FAILED ? errno : 0,
			     EINVAL);
		rc |= expect_unmapped("the misaligned destination after the refusal", mis, len, pb);
		rc |= verify(b->addr, len, 0xabcdef);
		rc |= same_leaves(k, b->addr, len, ps, node, pfns, 1, "after the refused move");
	}
	/* Shrinking by one page: allowed, the rest stays. */
	n = mremap(b->addr, len, len / 2, 0);
	rc |= expect("mremap shrink by a page", n == MAP_FAILED ? errno : 0, 0);
	rc |= verify(b->addr, len / 2, 0xabcdef);
	b->length = len / 2;
	dst = b->addr;
	kmod_unmap_free(k, b);
	kmod_close(k);
	if (pinned_now() != base)
		return fail("%" PRIu64 " bytes still pinned after munmap and close",
			    pinned_now() - base);
	rc |= expect_unmapped("the old address after munmap and close", old, len, pb);
	rc |= expect_unmapped("the new address after munmap and close", dst, len / 2, pb);
	return rc;
}

static int cmd_life(int argc, char **argv)
{
	struct ph_kmod k;
	struct ph_kbuf b;
	struct qlist q;
	uint64_t base = pinned_now(), len;
	uint32_t ps;
	const char *w;
	int err, rc = 0, st, node;

	if (argc < 3)
		return 2;
	w = argv[1];
	ps = parse_ps(argv[2]);
	/* Two pages, so that there is something to split; one GiB at most. */
	len = ps == PAGEHOP_PAGE_1G ? GiB : 2 * ps_bytes(ps);
	node = argc > 3 ? atoi(argv[3]) : 1;
	open_kmod(&k);
	err = kmod_alloc_map(&k, node, ps, len, &b);
	if (err)
		return fail("ALLOC+mmap on node %d: %s", node, errname(-err));
	fill(&b, 0xabcdef);

	if (!strcmp(w, "close-then-touch")) {
		/* The fd goes; the mapping keeps the buffer; munmap frees it. */
		kmod_close(&k);
		rc |= verify(b.addr, len, 0xabcdef);
		fill(&b, 0x123);
		rc |= verify(b.addr, len, 0x123);
		if (pinned_now() != base + len)
			rc |= fail("pinned %" PRIu64 " after close, expected %" PRIu64, pinned_now(),
				   base + len);
		open_kmod(&k);
		if (query_all(&k, b.addr, len, &q) ||
		    check_leaves(&q, b.addr, len, ps_level(ps), ps_bytes(ps), node))
			rc |= fail("after close the mapping is not the buffer's pages on node %d", node);
		kmod_close(&k);
		munmap(b.addr, len);
	} else if (!strcmp(w, "munmap-then-close")) {
		munmap(b.addr, len);
		if (pinned_now() != base + len)
			rc |= fail("munmap alone released the buffer the fd still holds");
		kmod_close(&k);
	} else if (!strcmp(w, "free-then-touch")) {
		struct pagehop_free f = { .size = sizeof(f), .id = b.id };

		if (xioctl(k.fd, PAGEHOP_IOC_FREE, &f))
			rc |= fail("FREE: %s", strerror(errno));
		rc |= verify(b.addr, len, 0xabcdef);
		if (pinned_now() != base + len)
			rc |= fail("FREE of a mapped buffer released it");
		if (xioctl(k.fd, PAGEHOP_IOC_FREE, &f) != ENOENT)
			rc |= fail("second FREE of the id did not say ENOENT");
		munmap(b.addr, len);
		kmod_close(&k);
	} else if (!strcmp(w, "fork")) {
		/* VM_DONTCOPY: the child has nothing at that address. */
		pid_t pid = fork();

		if (pid == 0) {
			struct ph_kmod kc;
			struct qlist qc;

			open_kmod(&kc);
			if (query_all(&kc, b.addr, len, &qc) || qc.n != 1 ||
			    qc.e[0].level != PAGEHOP_LEVEL_NONE)
				_exit(3);
			signal(SIGSEGV, SIG_DFL);
			(void)*(volatile char *)b.addr;
			_exit(4);
		}
		if (waitpid(pid, &st, 0) != pid)
			return fail("waitpid: %s", strerror(errno));
		if (!WIFSIGNALED(st) || WTERMSIG(st) != SIGSEGV)
			rc |= fail("child: %s %d, expected SIGSEGV on touching the buffer",
				   WIFSIGNALED(st) ? "signal" : "exit",
				   WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
		rc |= verify(b.addr, len, 0xabcdef);
		kmod_unmap_free(&k, &b);
		kmod_close(&k);
	} else if (!strcmp(w, "mremap")) {
		rc |= life_mremap(&k, &b, node, base);
	} else if (!strcmp(w, "dontneed")) {
		/*
		 * MADV_DONTNEED zaps 4 KiB PTEs; the next touch must bring back
		 * the same pages, data intact.  PFNMAP (huge) mappings refuse it.
		 */
		if (query_all(&k, b.addr, len, &q))
			return fail("QUERY failed");
		uint64_t pfn0 = q.e[0].pfn;
		int e = madvise(b.addr, len, MADV_DONTNEED) ? errno : 0;

		free(q.e);
		if (ps != PAGEHOP_PAGE_4K) {
			rc |= expect("MADV_DONTNEED on a huge buffer", e, EINVAL);
		} else {
			rc |= expect("MADV_DONTNEED", e, 0);
			if (query_all(&k, b.addr, len, &q) || q.n != 1 ||
			    q.e[0].level != PAGEHOP_LEVEL_NONE)
				rc |= fail("after MADV_DONTNEED the PTEs are still there");
			free(q.e);
		}
		rc |= verify(b.addr, len, 0xabcdef);
		if (query_all(&k, b.addr, len, &q) ||
		    check_leaves(&q, b.addr, len, ps_level(ps), ps_bytes(ps), node) ||
		    q.e[0].pfn != pfn0)
			rc |= fail("after refault QUERY does not show the same pages");
		free(q.e);
		kmod_unmap_free(&k, &b);
		kmod_close(&k);
	} else if (!strcmp(w, "partial-munmap")) {
		/* Unmapping the second page leaves the first mapped and intact. */
		munmap((char *)b.addr + len / 2, len / 2);
		rc |= verify(b.addr, len / 2, 0xabcdef);
		if (ps != PAGEHOP_PAGE_4K)
			rc |= expect("munmap half a page",
				     munmap((char *)b.addr + 4096, 4096) ? errno : 0, EINVAL);
		b.length = len / 2;
		kmod_unmap_free(&k, &b);
		kmod_close(&k);
	} else {
		return 2;
	}
	if (pinned_now() != base)
		rc |= fail("%" PRIu64 " bytes still pinned at the end", pinned_now() - base);
	return rc;
}

/*
 * hold MODE FIFO: keep a buffer alive (MODE fd: open fd; map: mapping only,
 * fd closed) and write "ready" to FIFO, then wait to be killed.
 */
static int cmd_hold(int argc, char **argv)
{
	struct ph_kmod k;
	struct ph_kbuf b;
	int err, f;

	if (argc < 3)
		return 2;
	open_kmod(&k);
	err = kmod_alloc_map(&k, 0, PAGEHOP_PAGE_4K, MiB, &b);
	if (err)
		return fail("ALLOC: %s", errname(-err));
	if (!strcmp(argv[1], "map"))
		kmod_close(&k);
	f = open(argv[2], O_WRONLY);
	if (f < 0 || write(f, "ready\n", 6) != 6)
		return fail("fifo: %s", strerror(errno));
	close(f);
	for (;;)
		pause();
}

/*
 * rmmod-busy: delete_module(2) of pagehop while something holds a buffer
 * must be refused, and the module stay.  Linux says EWOULDBLOCK (= EAGAIN)
 * for a module whose reference count is not zero.
 */
static int cmd_rmmod_busy(int argc, char **argv)
{
	int e;

	(void)argc;
	(void)argv;
	e = syscall(SYS_delete_module, "pagehop", O_NONBLOCK) ? errno : 0;
	if (access("/sys/module/pagehop", F_OK))
		return fail("the module went away");
	return expect("delete_module with a buffer alive", e, EWOULDBLOCK);
}

/* ---- CHASE and PREFETCH --------------------------------------------------- */

static uint64_t rng_state = 88172645463325252ULL;

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/*
 * chase SIZE NODE: a random cycle through slots 64 bytes apart across the
 * whole buffer; CHASE must walk it (end offset = where userspace computes)
 * and report a positive cycle count per window; a hop out of the buffer
 * and a misaligned start must be EINVAL.
 */
static int chase_checks(struct ph_kmod *kp, struct ph_kbuf *bp)
{
	struct ph_kmod k = *kp;
	struct ph_kbuf b = *bp;
	uint64_t len = b.length, nslots, *perm, cycles[8], end, want, stride;
	int err, rc = 0, ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);

	/*
	 * Each hop a new 4 KiB page and cache line, at most ~1000 slots over
	 * the whole buffer so that one window walks the cycle.
	 */
	stride = (len / 1024 > 4096 ? len / 1024 : 4096) + 64;
	nslots = len / stride;
	perm = calloc(nslots, sizeof(*perm));
	for (uint64_t i = 0; i < nslots; i++)
		perm[i] = i;
	for (uint64_t i = nslots - 1; i > 0; i--) {
		uint64_t j = rnd() % (i + 1), t = perm[i];

		perm[i] = perm[j];
		perm[j] = t;
	}
	for (uint64_t i = 0; i < nslots; i++)
		*(uint64_t *)((char *)b.addr + perm[i] * stride) = perm[(i + 1) % nslots] * stride;

	/* Whole cycles end where they start, on every CPU. */
	for (int cpu = 0; cpu < ncpu; cpu++) {
		err = kmod_chase(&k, b.id, cpu, perm[0] * stride, (uint32_t)nslots, 4, cycles, &end);
		if (err) {
			free(perm);
			return fail("CHASE on CPU %d: %s", cpu, errname(-err));
		}
		if (end != perm[0] * stride)
			rc |= fail("CHASE on CPU %d ended at 0x%" PRIx64 ", expected 0x%" PRIx64,
				   cpu, end, perm[0] * stride);
		for (int w = 0; w < 4; w++)
			if (!cycles[w])
				rc |= fail("CHASE window %d: 0 cycles", w);
		printf("CPU %d: %" PRIu64 " hops in %" PRIu64 " cycles (%.1f per hop)\n", cpu,
		       nslots, cycles[1], (double)cycles[1] / (double)nslots);
	}
	/* A part of a cycle ends where userspace says: 3 windows of 7 hops. */
	want = perm[21 % nslots] * stride;
	err = kmod_chase(&k, b.id, 0, perm[0] * stride, 7, 3, cycles, &end);
	if (err || end != want)
		rc |= fail("21 hops: %s, ended at 0x%" PRIx64 ", expected 0x%" PRIx64,
			   errname(-err), end, want);
	/* Hops that leave the buffer or are misaligned end the call. */
	*(uint64_t *)((char *)b.addr + perm[5] * stride) = len + 8;
	rc |= expect("CHASE through a slot pointing past the end",
		     -kmod_chase(&k, b.id, 0, perm[0] * stride, (uint32_t)nslots, 1, cycles, &end),
		     EINVAL);
	rc |= expect("CHASE from a misaligned start",
		     -kmod_chase(&k, b.id, 0, 4, 1, 1, cycles, &end), EINVAL);
	rc |= expect("CHASE on a CPU that does not exist",
		     -kmod_chase(&k, b.id, 4096, 0, 1, 1, cycles, &end), EINVAL);
	rc |= expect("CHASE with too many loads per window",
		     -kmod_chase(&k, b.id, 0, 0, PAGEHOP_CHASE_MAX_LOADS + 1, 1, cycles, &end),
		     EINVAL);
	rc |= expect("CHASE of an unknown id", -kmod_chase(&k, 999, 0, 0, 1, 1, cycles, &end),
		     ENOENT);
	free(perm);
	return rc;
}

static int cmd_chase(int argc, char **argv)
{
	struct ph_kmod k;
	struct ph_kbuf b;
	uint32_t ps;
	int err, rc;

	if (argc < 3)
		return 2;
	ps = parse_ps(argv[1]);
	open_kmod(&k);
	err = kmod_alloc_map(&k, atoi(argv[2]), ps, 4 * MiB, &b);
	if (err)
		return fail("ALLOC+mmap: %s", errname(-err));
	rc = chase_checks(&k, &b);
	kmod_unmap_free(&k, &b);
	kmod_close(&k);
	return rc;
}

/*
 * gig NODE: everything about 1 GiB buffers on one allocation, because a
 * GiB once freed sits at the head of the free lists and the next unmovable
 * allocations land in it, so a second one on the same node is luck.  ENOMEM
 * (no free aligned GiB on the node) is reported and passes: 1 GiB is best
 * effort.  Else: placement (zeroed, one PUD leaf on the node, pinned count
 * and VmPin), CHASE, then the lifetime rules: fork, fork after
 * MADV_DOFORK, mremap grow, misaligned and aligned move (the old address
 * faults at once and after the free), FREE while mapped, close while
 * mapped, munmap gives it back.
 */
static int cmd_gig(int argc, char **argv)
{
	const uint64_t len = GiB;
	uint64_t base = pinned_now(), pfn0;
	int64_t pin0 = vmpin_bytes();
	struct ph_kmod k;
	struct ph_kbuf b;
	struct qlist q;
	int node, err, rc = 0, st;
	char *dst, *old;
	void *n;
	pid_t pid;

	if (argc < 2)
		return 2;
	node = atoi(argv[1]);
	open_kmod(&k);
	err = kmod_alloc_map(&k, node, PAGEHOP_PAGE_1G, len, &b);
	if (err == -ENOMEM) {
		printf("ENOMEM: no free aligned GiB on node %d now\n", node);
		return pinned_now() == base ? 0 : fail("a failed ALLOC changed the pinned count");
	}
	if (err)
		return fail("ALLOC+mmap of 1 GiB on node %d: %s", node, errname(-err));
	if ((uintptr_t)b.addr % GiB)
		return fail("mapped at %p, not 1 GiB aligned", b.addr);
	rc |= check_zero(&b);
	if (pinned_now() != base + len)
		rc |= fail("INFO pinned %" PRIu64 ", expected %" PRIu64, pinned_now(), base + len);
	rc |= expect_vmpin("after ALLOC of 1 GiB", pin0 + (int64_t)len);
	rc |= chase_checks(&k, &b);
	fill(&b, 0x1961);
	if (query_all(&k, b.addr, len, &q) ||
	    check_leaves(&q, b.addr, len, PAGEHOP_LEVEL_PUD, GiB, node))
		return fail("not one PUD leaf on node %d", node);
	pfn0 = q.e[0].pfn;
	free(q.e);
	printf("node %d: one 1 GiB PUD leaf, pfn 0x%" PRIx64 ", zeroed\n", node, pfn0);

	pid = fork();
	if (pid == 0) {
		signal(SIGSEGV, SIG_DFL);
		(void)*(volatile char *)b.addr;
		_exit(4);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFSIGNALED(st) || WTERMSIG(st) != SIGSEGV)
		rc |= fail("fork: the child could touch the buffer");
	else
		printf("fork: the child has no mapping (SIGSEGV)\n");
	/* MADV_DOFORK is refused (VM_IO), so the next child has none either. */
	rc |= expect("MADV_DOFORK", madvise(b.addr, len, MADV_DOFORK) ? errno : 0, EINVAL);
	pid = fork();
	if (pid == 0) {
		signal(SIGSEGV, SIG_DFL);
		(void)*(volatile char *)b.addr;
		_exit(4);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFSIGNALED(st) || WTERMSIG(st) != SIGSEGV)
		rc |= fail("fork after MADV_DOFORK: the child could touch the buffer");
	else
		printf("fork after MADV_DOFORK: the child has no mapping (SIGSEGV)\n");

	n = mremap(b.addr, len, 2 * len, MREMAP_MAYMOVE);
	rc |= expect("mremap grow", n == MAP_FAILED ? errno : 0, EFAULT);
	n = mmap(NULL, 4 * len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	dst = (char *)(((uintptr_t)n + GiB - 1) & ~(uintptr_t)(GiB - 1));
	n = mremap(b.addr, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, dst + len + 2 * MiB);
	rc |= expect("mremap move to a 2 MiB-aligned address", n == MAP_FAILED ? errno : 0, EINVAL);
	rc |= verify(b.addr, len, 0x1961);
	old = b.addr;
	n = mremap(b.addr, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, dst);
	rc |= expect("mremap move to a 1 GiB-aligned address", n == MAP_FAILED ? errno : 0, 0);
	if (n != MAP_FAILED)
		b.addr = n;
	/* First, before anything else touches memory and evicts TLB entries. */
	rc |= expect_unmapped("the old address after the move", old, len, GiB);
	rc |= verify(b.addr, len, 0x1961);
	if (query_all(&k, b.addr, len, &q) ||
	    check_leaves(&q, b.addr, len, PAGEHOP_LEVEL_PUD, GiB, node) || q.e[0].pfn != pfn0)
		rc |= fail("after the move QUERY does not show the same PUD leaf");
	free(q.e);

	struct pagehop_free f = { .size = sizeof(f), .id = b.id };

	rc |= expect("FREE while mapped", xioctl(k.fd, PAGEHOP_IOC_FREE, &f), 0);
	kmod_close(&k);
	rc |= verify(b.addr, len, 0x1961);
	if (pinned_now() != base + len)
		rc |= fail("FREE and close released a mapped buffer");
	else
		printf("FREE and close: still mapped, data intact, still pinned\n");
	munmap(b.addr, len);
	if (pinned_now() != base)
		return fail("munmap did not release the buffer");
	rc |= expect_vmpin("after munmap", pin0);
	rc |= expect_unmapped("the old address after the free", old, len, GiB);
	rc |= expect_unmapped("the new address after the free", b.addr, len, GiB);
	return rc;
}

/*
 * prefetch: where INFO reports no prefetcher control (any VM), GET and SET
 * fail with EOPNOTSUPP.  Where it does, SET changes the bits, GET reads
 * them back, and closing the fd restores the original.
 */
static int cmd_prefetch(int argc, char **argv)
{
	struct pagehop_prefetch pf = { .op = PAGEHOP_PREFETCH_GET, .cpu = 0 };
	struct ph_kmod k;
	uint64_t orig;
	int rc = 0;

	(void)argc;
	(void)argv;
	open_kmod(&k);
	if (!kmod_has(&k, PAGEHOP_FEAT_PREFETCH)) {
		rc |= expect("PREFETCH GET without the feature", -kmod_prefetch(&k, &pf), EOPNOTSUPP);
		pf.op = PAGEHOP_PREFETCH_SET;
		rc |= expect("PREFETCH SET without the feature", -kmod_prefetch(&k, &pf), EOPNOTSUPP);
		pf.op = 7;
		rc |= expect("PREFETCH op 7", -kmod_prefetch(&k, &pf), EINVAL);
		kmod_close(&k);
		return rc;
	}
	rc |= expect("PREFETCH GET", -kmod_prefetch(&k, &pf), 0);
	orig = pf.disable;
	pf.op = PAGEHOP_PREFETCH_SET;
	pf.disable = pf.supported & ~orig;
	rc |= expect("PREFETCH SET", -kmod_prefetch(&k, &pf), 0);
	pf.op = PAGEHOP_PREFETCH_GET;
	kmod_prefetch(&k, &pf);
	if (pf.disable != (pf.supported & ~orig) || pf.original != orig)
		rc |= fail("after SET: disable 0x%" PRIx64 " original 0x%" PRIx64, (uint64_t)pf.disable,
			   (uint64_t)pf.original);
	pf.op = PAGEHOP_PREFETCH_SET;
	pf.disable = ~pf.supported;
	rc |= expect("PREFETCH SET of unsupported bits", -kmod_prefetch(&k, &pf), EINVAL);
	kmod_close(&k);
	open_kmod(&k);
	pf.op = PAGEHOP_PREFETCH_GET;
	kmod_prefetch(&k, &pf);
	if (pf.disable != orig)
		rc |= fail("close did not restore: 0x%" PRIx64 " vs 0x%" PRIx64, (uint64_t)pf.disable, orig);
	kmod_close(&k);
	return rc;
}

/* ---- fuzz ------------------------------------------------------------------- */

/* A field value: mostly plausible, sometimes extreme, sometimes garbage. */
static uint64_t fuzz_val(uint64_t plausible)
{
	switch (rnd() % 8) {
	case 0: return 0;
	case 1: return rnd();
	case 2: return ~0ULL;
	case 3: return rnd() % 8;
	default: return plausible;
	}
}

static uint64_t fuzz_len(void)
{
	static const uint64_t lens[] = { 4096, 8192, 64 * KiB, 256 * KiB, 2 * MiB, 4 * MiB, GiB };

	return rnd() % 4 ? lens[rnd() % 6] : fuzz_val(lens[rnd() % 7]);
}

/*
 * fuzz N SEED: N ioctls with random command numbers, struct sizes and field
 * values, mixed with mmaps of random offsets, on two fds.  Each must return
 * 0 or one of the ABI's errnos; afterwards nothing may stay pinned.
 */
static int cmd_fuzz(int argc, char **argv)
{
	static const int allowed[] = { 0, EINVAL, EFAULT, ENOTTY, ENOENT, E2BIG, ENOMEM,
				       EOPNOTSUPP, ENOSPC, ETIME, EINTR };
	uint8_t buf[512] __attribute__((aligned(8)));
	uint64_t out[4096];
	struct pagehop_query_entry ents[64];
	uint64_t n, i, counts[8] = { 0 }, base = pinned_now();
	uint32_t ids[64] = { 0 };
	int fds[2], rc = 0;

	if (argc < 3)
		return 2;
	n = strtoull(argv[1], NULL, 0);
	rng_state = strtoull(argv[2], NULL, 0) | 1;
	fds[0] = open_dev();
	fds[1] = open_dev();
	for (i = 0; i < n; i++) {
		int fd = fds[rnd() % 2], e, j;
		unsigned int nr = rnd() % 4 ? 1 + rnd() % 6 : (unsigned int)(rnd() % 256);
		unsigned int type = rnd() % 16 ? PAGEHOP_IOC_MAGIC : (unsigned int)(rnd() % 256);
		unsigned int dir = rnd() % 4;
		unsigned int usz = (unsigned int)(rnd() % 16 ? 96 : rnd() % 0x4000);
		unsigned long cmd = _IOC(dir, type, nr, usz & 0x3fff);
		uint32_t *w32 = (uint32_t *)buf;
		uint64_t *w64 = (uint64_t *)buf;

		if (rnd() % 50 == 0) {
			/* An mmap of some buffer's offset, any length, any flags. */
			size_t ml = fuzz_len() & 0xffffffff;
			void *p = mmap(NULL, ml, PROT_READ | PROT_WRITE,
				       rnd() % 2 ? MAP_SHARED : MAP_PRIVATE, fd,
				       (off_t)(((uint64_t)ids[rnd() % 64] << 40) +
					       (rnd() % 4 ? 0 : (rnd() % 1024) * 4096)));
			if (p != MAP_FAILED)
				munmap(p, ml);
			continue;
		}
		memset(buf, 0, sizeof(buf));
		for (j = 0; j < 64; j++)
			w64[j] = rnd() % 3 ? 0 : fuzz_val(rnd() % 4096);
		w32[0] = (uint32_t)(rnd() % 8 ? fuzz_val(96) % 200 : rnd());
		switch (nr) {
		case 1: /* INFO: a real array, or a bad pointer */
			if (w32[0] < 64)
				w32[0] = 64;
			w64[3] = rnd() % 2 ? (uintptr_t)out : fuzz_val(0);
			w32[8] = (uint32_t)fuzz_val(rnd() % 5000);
			break;
		case 2: /* ALLOC */
			w32[1] = (uint32_t)fuzz_val(rnd() % 5);
			w32[2] = (uint32_t)fuzz_val(1 + rnd() % 3);
			w64[2] = fuzz_len();
			break;
		case 3: /* FREE */
			w32[1] = rnd() % 4 ? ids[rnd() % 64] : (uint32_t)fuzz_val(1);
			break;
		case 4: /* QUERY: addresses near our own memory, or anywhere */
			w64[1] = rnd() % 2 ? ((uintptr_t)buf & ~4095ULL) : fuzz_val(rnd() << 12);
			w64[2] = fuzz_val((1 + rnd() % 4096) * 4096);
			w64[3] = rnd() % 4 ? (uintptr_t)ents : fuzz_val(0);
			w32[8] = (uint32_t)(rnd() % 4 ? 1 + rnd() % 64 : fuzz_val(0)) % 65;
			break;
		case 5: /* CHASE: bounded so a valid call stays short */
			w32[1] = rnd() % 4 ? ids[rnd() % 64] : (uint32_t)fuzz_val(1);
			w32[2] = (uint32_t)fuzz_val(rnd() % 4);
			w64[2] = fuzz_val((rnd() % 512) * 8);
			w32[6] = (uint32_t)fuzz_val(1 + rnd() % 1000);
			w32[7] = (uint32_t)fuzz_val(1 + rnd() % 64);
			if ((uint64_t)w32[6] * w32[7] > 100000 && w32[6] <= PAGEHOP_CHASE_MAX_LOADS &&
			    w32[7] <= PAGEHOP_CHASE_MAX_WINDOWS)
				w32[7] = 1;
			w64[4] = rnd() % 8 ? (uintptr_t)out : fuzz_val(0);
			break;
		case 6: /* PREFETCH */
			w32[1] = (uint32_t)fuzz_val(1 + rnd() % 2);
			w32[2] = (uint32_t)fuzz_val(rnd() % 4);
			break;
		}
		e = xioctl(fd, cmd, buf);
		if (type == PAGEHOP_IOC_MAGIC && nr == 2 && !e)
			ids[rnd() % 64] = ((struct pagehop_alloc *)buf)->id;
		for (j = 0; j < (int)(sizeof(allowed) / sizeof(allowed[0])); j++)
			if (e == allowed[j])
				break;
		if (j == (int)(sizeof(allowed) / sizeof(allowed[0]))) {
			rc = fail("ioctl #%" PRIu64 " cmd 0x%lx size %u: unexpected %s", i, cmd,
				  w32[0], errname(e));
			break;
		}
		counts[j < 8 ? j : 7]++;
		if (type != PAGEHOP_IOC_MAGIC && e != ENOTTY) {
			rc = fail("foreign ioctl 0x%lx did not give ENOTTY", cmd);
			break;
		}
	}
	close(fds[0]);
	close(fds[1]);
	printf("%" PRIu64 " ioctls: %" PRIu64 " ok, %" PRIu64 " EINVAL, %" PRIu64 " EFAULT, %" PRIu64
	       " ENOTTY, %" PRIu64 " ENOENT, %" PRIu64 " E2BIG, %" PRIu64 " ENOMEM, %" PRIu64
	       " EOPNOTSUPP or ENOSPC\n",
	       i, counts[0], counts[1], counts[2], counts[3], counts[4], counts[5], counts[6],
	       counts[7]);
	if (!rc && i == n && counts[0] == 0)
		rc = fail("no ioctl succeeded: the fuzzer is not reaching the module");
	if (!rc && pinned_now() != base)
		rc = fail("%" PRIu64 " bytes pinned after both fds closed", pinned_now() - base);
	return rc;
}

/* ---- stress ----------------------------------------------------------------- */

struct stress {
	struct ph_kmod *k;
	int nodes, seconds, id;
	uint32_t max_ps;
	uint64_t ops, errors;
	char why[200];
};

static void *stress_thread(void *arg)
{
	struct stress *s = arg;
	struct timespec t0, t;
	uint64_t seed = 0x9e3779b97f4a7c15ULL * (uint64_t)(s->id + 1), x = seed;
	struct ph_kbuf bufs[4] = { 0 };
	struct qlist q;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		int slot = (int)(x % 4), node = (int)((x >> 8) % (uint64_t)s->nodes), err;
		uint32_t ps = PAGEHOP_PAGE_4K + (uint32_t)((x >> 16) % s->max_ps);
		uint64_t len = ps_bytes(ps) * (1 + (x >> 24) % 4);
		struct ph_kbuf *b = &bufs[slot];

		if (!b->addr) {
			err = kmod_alloc_map(s->k, node, ps, len, b);
			if (err == -ENOMEM || err == -E2BIG)
				continue;
			if (err) {
				snprintf(s->why, sizeof(s->why), "ALLOC node %d ps %u: %s", node, ps,
					 errname(-err));
				s->errors++;
				break;
			}
			fill(b, x);
			b->id |= 0;
			*(uint64_t *)b->addr = x;	/* remember the seed in the buffer */
		} else {
			uint64_t sd = *(uint64_t *)b->addr;

			for (uint64_t off = 4096; off < b->length; off += 4096)
				if (*(uint64_t *)((char *)b->addr + off) != (sd ^ off)) {
					snprintf(s->why, sizeof(s->why), "buffer %u lost its data",
						 b->id);
					s->errors++;
					goto out;
				}
			if ((x >> 32) % 2 == 0) {
				/* QUERY it, and the whole neighbourhood others are changing. */
				if (query_all(s->k, b->addr, b->length, &q) ||
				    check_leaves(&q, b->addr, b->length, ps_level(b->page_size),
						 ps_bytes(b->page_size), b->node)) {
					snprintf(s->why, sizeof(s->why), "QUERY of buffer %u wrong",
						 b->id);
					s->errors++;
					free(q.e);
					goto out;
				}
				free(q.e);
				if (query_all(s->k, (char *)b->addr - 64 * MiB, 128 * MiB, &q) == 0)
					free(q.e);
			}
			kmod_unmap_free(s->k, b);
		}
		s->ops++;
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while (t.tv_sec - t0.tv_sec < s->seconds);
out:
	for (int i = 0; i < 4; i++)
		kmod_unmap_free(s->k, &bufs[i]);
	return NULL;
}

/* stress THREADS SECONDS: threads allocating, mapping, touching, querying, freeing. */
static int cmd_stress(int argc, char **argv)
{
	struct stress s[16];
	pthread_t th[16];
	struct ph_kmod k;
	int n, secs, rc = 0;
	uint64_t total = 0, base = pinned_now();

	if (argc < 3)
		return 2;
	n = atoi(argv[1]);
	secs = atoi(argv[2]);
	if (n < 1 || n > 16)
		return 2;
	open_kmod(&k);
	for (int i = 0; i < n; i++) {
		memset(&s[i], 0, sizeof(s[i]));
		s[i].k = &k;
		s[i].nodes = (int)k.nr_node_ids;
		s[i].seconds = secs;
		s[i].id = i;
		/* 1 GiB pages are left out: each costs seconds under TCG. */
		s[i].max_ps = kmod_has(&k, PAGEHOP_FEAT_PAGE_2M) ? 2 : 1;
		pthread_create(&th[i], NULL, stress_thread, &s[i]);
	}
	for (int i = 0; i < n; i++) {
		pthread_join(th[i], NULL);
		total += s[i].ops;
		if (s[i].errors)
			rc = fail("thread %d: %s", i, s[i].why);
	}
	kmod_close(&k);
	printf("%d threads, %d s: %" PRIu64 " alloc/map/touch/unmap/free steps\n", n, secs, total);
	if (!rc && total < 100)
		rc = fail("only %" PRIu64 " steps: the stress did not run", total);
	if (!rc && pinned_now() != base)
		rc = fail("%" PRIu64 " bytes still pinned after the stress", pinned_now() - base);
	return rc;
}

/* ---- fork after MADV_DOFORK ------------------------------------------------ */

/* Wait for every child (also those adopted as subreaper); 0 if all exited 0. */
static int reap_all(const char *who)
{
	int st, rc = 0;
	pid_t pid;

	while ((pid = wait(&st)) > 0)
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			rc = fail("%s: process %d ended with %s %d", who, (int)pid,
				  WIFSIGNALED(st) ? "signal" : "status",
				  WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
	return rc;
}

/*
 * The owner's side of dofork: ALLOC+mmap, MADV_DOFORK, fork a child, then
 * FREE, munmap, close and exit while the child may still hold the mapping.
 * 4 KiB: MADV_DOFORK works and the child shares the pinned pages (MAP_SHARED:
 * same PFNs, each side sees the other's writes), and keeps the buffer alive
 * after the owner is gone.  2 MiB, 1 GiB: MADV_DOFORK is EINVAL and the child
 * has no mapping.  Exits 0 if all held.
 */
static int dofork_owner(uint32_t ps, int node)
{
	const uint64_t len = 2 * ps_bytes(ps);
	int to_owner[2], to_child[2], rc = 0, e, st;
	uint64_t pfns[2];
	struct ph_kmod k;
	struct ph_kbuf b;
	char c;
	pid_t pid;

	open_kmod(&k);
	if (kmod_alloc_map(&k, node, ps, len, &b))
		return fail("ALLOC+mmap on node %d", node);
	fill(&b, 0xd0f0);
	if (same_leaves(&k, b.addr, len, ps, node, pfns, 0, "owner"))
		return 1;
	e = madvise(b.addr, len, MADV_DOFORK) ? errno : 0;
	if (ps != PAGEHOP_PAGE_4K) {
		rc |= expect("MADV_DOFORK on a huge mapping", e, EINVAL);
		pid = fork();
		if (pid == 0) {
			_exit(expect_unmapped("the child after fork", b.addr, len, ps_bytes(ps)));
		}
		if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
			rc |= fail("the child could read the buffer");
		kmod_unmap_free(&k, &b);
		kmod_close(&k);
		return rc;
	}
	rc |= expect("MADV_DOFORK on a 4 KiB mapping", e, 0);
	if (pipe(to_owner) || pipe(to_child))
		return fail("pipe: %s", strerror(errno));
	pid = fork();
	if (pid == 0) {
		/* The child: the same pages, shared; charged to the owner only. */
		struct ph_kmod kc;

		close(to_owner[0]);
		close(to_child[1]);
		rc |= verify(b.addr, len, 0xd0f0);
		open_kmod(&kc);
		rc |= same_leaves(&kc, b.addr, len, ps, node, pfns, 1, "the child");
		rc |= expect_vmpin("the child", 0);
		fill(&b, 0xc41d);
		if (write(to_owner[1], "w", 1) != 1)
			_exit(1);
		/* EOF: the owner has freed, unmapped, closed and exited. */
		while (read(to_child[0], &c, 1) > 0)
			;
		rc |= verify(b.addr, len, 0xc41d);
		if (pinned_now() < len)
			rc |= fail("the buffer was freed while the child maps it");
		else
			printf("the child: data intact and still pinned after the owner exited\n");
		rc |= same_leaves(&kc, b.addr, len, ps, node, pfns, 1, "the child, owner gone");
		kmod_close(&kc);
		_exit(rc);
	}
	close(to_owner[1]);
	close(to_child[0]);
	if (read(to_owner[0], &c, 1) != 1)
		return fail("the child died before writing");
	rc |= verify(b.addr, len, 0xc41d);
	if (!rc)
		printf("owner: sees the child's writes\n");
	rc |= expect_vmpin("owner, mapped", (int64_t)len);
	kmod_unmap_free(&k, &b);
	kmod_close(&k);
	return rc;
}

/*
 * dofork SIZE [NODE]: a fork after MADV_DOFORK, for one page size (1 GiB:
 * in gig).  The owner and its child run as grandchildren adopted by this
 * process (a subreaper), so that both exits are seen; afterwards nothing
 * stays pinned.
 */
static int cmd_dofork(int argc, char **argv)
{
	uint64_t base = pinned_now();
	uint32_t ps;
	int node, rc;
	pid_t pid;

	if (argc < 2)
		return 2;
	ps = parse_ps(argv[1]);
	node = argc > 2 ? atoi(argv[2]) : 1;
	if (prctl(PR_SET_CHILD_SUBREAPER, 1))
		return fail("PR_SET_CHILD_SUBREAPER: %s", strerror(errno));
	pid = fork();
	if (pid == 0)
		_exit(dofork_owner(ps, node));
	rc = reap_all("dofork");
	if (pinned_now() != base)
		rc |= fail("%" PRIu64 " bytes still pinned after both exited", pinned_now() - base);
	else
		printf("both exited: nothing pinned\n");
	return rc;
}

/* ---- accounting: VmPin and RLIMIT_MEMLOCK -------------------------------- */

/*
 * vmpin SIZE: /proc/self/status VmPin follows the buffers this process
 * allocated: their size while any reference lives (fd or mapping), 0 after
 * FREE and munmap, or after close of an fd whose buffer is not mapped.
 */
static int cmd_vmpin(int argc, char **argv)
{
	int64_t pin0 = vmpin_bytes();
	struct ph_kmod k;
	struct ph_kbuf b;
	struct pagehop_alloc a;
	uint64_t len;
	uint32_t ps;
	int rc = 0;

	if (argc < 2)
		return 2;
	ps = parse_ps(argv[1]);
	len = 4 * ps_bytes(ps);
	if (pin0 < 0)
		return fail("no VmPin in /proc/self/status");
	open_kmod(&k);
	if (kmod_alloc_map(&k, 1, ps, len, &b))
		return fail("ALLOC+mmap");
	rc |= expect_vmpin("after ALLOC", pin0 + (int64_t)len);
	rc |= expect("FREE while mapped", free_raw(k.fd, b.id), 0);
	rc |= expect_vmpin("after FREE, still mapped", pin0 + (int64_t)len);
	munmap(b.addr, len);
	rc |= expect_vmpin("after FREE and munmap", pin0);
	rc |= expect("ALLOC, not mapped", alloc_raw(k.fd, 2, ps, len, &a), 0);
	rc |= expect_vmpin("after a second ALLOC", pin0 + (int64_t)len);
	kmod_close(&k);
	rc |= expect_vmpin("after close", pin0);
	return rc;
}

/*
 * memlock: without CAP_IPC_LOCK (cleared from the effective set) and with
 * RLIMIT_MEMLOCK at 64 KiB, ALLOC may pin up to 64 KiB in all and fails
 * beyond with EPERM, leaving VmPin and INFO's count as they were; with
 * CAP_IPC_LOCK again, the limit does not apply.
 */
static int err_memlock(int fd)
{
	struct rlimit rl = { 64 * KiB, 64 * KiB };
	uint64_t base = pinned_now();
	struct pagehop_alloc a;
	uint32_t id;
	int rc = 0;

	if (setrlimit(RLIMIT_MEMLOCK, &rl) || cap_set(CAP_IPC_LOCK, 0, 0))
		return fail("setrlimit or capset: %s", strerror(errno));
	rc |= expect("ALLOC 1 MiB over a 64 KiB RLIMIT_MEMLOCK",
		     alloc_raw(fd, 0, PAGEHOP_PAGE_4K, MiB, &a), EPERM);
	rc |= expect_vmpin("after the refused ALLOC", 0);
	if (pinned_now() != base)
		rc |= fail("a refused ALLOC changed INFO's pinned count");
	rc |= expect("ALLOC 32 KiB", alloc_raw(fd, 0, PAGEHOP_PAGE_4K, 32 * KiB, &a), 0);
	id = a.id;
	rc |= expect("ALLOC 64 KiB more (96 KiB in all)",
		     alloc_raw(fd, 0, PAGEHOP_PAGE_4K, 64 * KiB, &a), EPERM);
	rc |= expect("ALLOC 32 KiB more (64 KiB in all)",
		     alloc_raw(fd, 0, PAGEHOP_PAGE_4K, 32 * KiB, &a), 0);
	rc |= expect_vmpin("at the limit", 64 * KiB);
	free_raw(fd, id);
	free_raw(fd, a.id);
	rc |= expect_vmpin("after FREE", 0);
	if (cap_set(CAP_IPC_LOCK, 1, 0))
		return fail("capset: %s", strerror(errno));
	rc |= expect("ALLOC 1 MiB with CAP_IPC_LOCK", alloc_raw(fd, 0, PAGEHOP_PAGE_4K, MiB, &a),
		     0);
	free_raw(fd, a.id);
	return rc;
}

/*
 * limited KB CMD...: run CMD with RLIMIT_MEMLOCK at KB KiB and without
 * CAP_IPC_LOCK (out of the bounding set too, so exec cannot give it back to
 * root), still root with CAP_SYS_ADMIN.
 */
static int cmd_limited(int argc, char **argv)
{
	struct rlimit rl;

	if (argc < 3)
		return 2;
	rl.rlim_cur = rl.rlim_max = strtoull(argv[1], NULL, 0) * KiB;
	if (setrlimit(RLIMIT_MEMLOCK, &rl) || prctl(PR_CAPBSET_DROP, CAP_IPC_LOCK, 0, 0, 0) ||
	    cap_set(CAP_IPC_LOCK, 0, 1))
		return fail("setrlimit, PR_CAPBSET_DROP or capset: %s", strerror(errno));
	execvp(argv[2], argv + 2);
	return fail("exec %s: %s", argv[2], strerror(errno));
}

/* ---- ALLOC racing FREE ------------------------------------------------------ */

struct race {
	int fd;
	int stop;
	uint64_t frees, freed;
};

static void *race_free(void *arg)
{
	struct race *r = arg;
	struct pagehop_free f = { .size = sizeof(f) };

	while (!__atomic_load_n(&r->stop, __ATOMIC_RELAXED)) {
		for (f.id = 1; f.id <= 4; f.id++) {
			if (!ioctl(r->fd, PAGEHOP_IOC_FREE, &f))
				__atomic_add_fetch(&r->freed, 1, __ATOMIC_RELAXED);
			__atomic_add_fetch(&r->frees, 1, __ATOMIC_RELAXED);
		}
	}
	return NULL;
}

/*
 * alloc-race SECONDS: ALLOC with its struct in a page made read-only after
 * it was filled in, so that the copy-out of the id faults (EFAULT), while
 * two threads FREE ids 1-4 without pause.  No id may ever become visible
 * to them: every FREE is ENOENT (a FREE that succeeds freed a buffer whose
 * ALLOC then fails and drops it again), and nothing stays pinned.
 */
static int cmd_alloc_race(int argc, char **argv)
{
	struct race r = { .fd = open_dev() };
	uint64_t base = pinned_now(), allocs = 0, efault = 0, other = 0;
	struct timespec t0, t;
	struct pagehop_alloc *a;
	pthread_t th[2];
	int secs, rc = 0, e = 0;

	if (argc < 2)
		return 2;
	secs = atoi(argv[1]);
	a = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (a == MAP_FAILED)
		return fail("mmap: %s", strerror(errno));
	*a = (struct pagehop_alloc){ .size = sizeof(*a), .node = 0,
				     .page_size = PAGEHOP_PAGE_4K, .length = 4096 };
	if (mprotect(a, 4096, PROT_READ))
		return fail("mprotect: %s", strerror(errno));
	for (int i = 0; i < 2; i++)
		pthread_create(&th[i], NULL, race_free, &r);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		for (int i = 0; i < 64; i++, allocs++) {
			e = xioctl(r.fd, PAGEHOP_IOC_ALLOC, a);
			if (e == EFAULT)
				efault++;
			else
				other++;
		}
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while (t.tv_sec - t0.tv_sec < secs);
	__atomic_store_n(&r.stop, 1, __ATOMIC_RELAXED);
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	printf("%" PRIu64 " ALLOCs (%" PRIu64 " EFAULT), %" PRIu64 " FREEs of ids 1-4, %" PRIu64
	       " of them succeeded\n", allocs, efault, r.frees, r.freed);
	if (other)
		rc |= fail("%" PRIu64 " ALLOCs did not fail with EFAULT (last: %s)", other,
			   errname(e));
	if (r.freed)
		rc |= fail("FREE found %" PRIu64 " ids whose ALLOC had not told its caller",
			   r.freed);
	if (r.frees < 1000)
		rc |= fail("only %" PRIu64 " FREEs: the race did not run", r.frees);
	if (pinned_now() != base)
		rc |= fail("%" PRIu64 " bytes pinned with the fd still open", pinned_now() - base);
	close(r.fd);
	if (pinned_now() != base)
		rc |= fail("%" PRIu64 " bytes pinned after close", pinned_now() - base);
	return rc;
}

/* ---- ZONE_MOVABLE ------------------------------------------------------------ */

struct zspan {
	int node;
	uint64_t start, end;	/* pfns */
};

/* The Movable zones of /proc/zoneinfo with pages in them; how many. */
static int movable_spans(struct zspan *z, int max)
{
	FILE *f = fopen("/proc/zoneinfo", "r");
	char line[256], name[32];
	int n = 0, node = -1, movable = 0;
	unsigned long long v, spanned = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Node %d, zone %31s", &node, name) == 2) {
			movable = !strcmp(name, "Movable");
			spanned = 0;
		} else if (movable && sscanf(line, " spanned %llu", &v) == 1) {
			spanned = v;
		} else if (movable && spanned && n < max && sscanf(line, " start_pfn: %llu", &v) == 1) {
			z[n++] = (struct zspan){ node, v, v + spanned };
		}
	}
	fclose(f);
	return n;
}

/*
 * movable NODE SIZE LENGTH: a buffer's pages (QUERY) must lie outside every
 * Movable zone of /proc/zoneinfo: pinned memory there could never be
 * offlined.  Prints "ENOMEM ..." and passes when a 1 GiB ALLOC finds no
 * free aligned GiB outside them (kmod_movable.sh decides if that may be).
 */
static int cmd_movable(int argc, char **argv)
{
	struct zspan z[16];
	struct ph_kmod k;
	struct ph_kbuf b;
	struct qlist q;
	uint64_t len;
	uint32_t ps;
	int node, nz, err, rc = 0;

	if (argc < 4)
		return 2;
	node = atoi(argv[1]);
	ps = parse_ps(argv[2]);
	len = parse_size(argv[3]);
	nz = movable_spans(z, 16);
	if (nz <= 0)
		return fail("no populated Movable zone in /proc/zoneinfo");
	open_kmod(&k);
	err = kmod_alloc_map(&k, node, ps, len, &b);
	if (err == -ENOMEM && ps == PAGEHOP_PAGE_1G) {
		printf("ENOMEM: no free aligned GiB outside ZONE_MOVABLE on node %d\n", node);
		return 0;
	}
	if (err)
		return fail("ALLOC+mmap node %d %s: %s", node, argv[2], errname(-err));
	fill(&b, 1);
	if (query_all(&k, b.addr, b.length, &q) ||
	    check_leaves(&q, b.addr, b.length, ps_level(ps), ps_bytes(ps), node))
		return fail("QUERY does not show the buffer");
	for (size_t i = 0; i < q.n && !rc; i++) {
		uint64_t first = q.e[i].pfn, last = first + q.e[i].length / 4096;

		for (int j = 0; j < nz; j++)
			if (first < z[j].end && z[j].start < last)
				rc = fail("pfns 0x%" PRIx64 "-0x%" PRIx64 " lie in node %d's Movable zone 0x%" PRIx64 "-0x%" PRIx64,
					  first, last, z[j].node, z[j].start, z[j].end);
	}
	if (!rc)
		printf("node %d %s x %zu: pfn 0x%" PRIx64 "... none in a Movable zone\n", node,
		       argv[2], q.n, (uint64_t)q.e[0].pfn);
	free(q.e);
	kmod_unmap_free(&k, &b);
	kmod_close(&k);
	return rc;
}

/* info: print INFO as shell assignments. */
/* ---- one allocation, three translations ---------------------------------- */

/*
 * A view of a buffer by leaves of page size xlate: QUERY must show leaves
 * of that level covering it, each on the frames the native mapping's
 * leaves (nat, of the buffer's page size) put at that offset.
 */
static int check_view(struct ph_kmod *k, const struct ph_kbuf *b, const struct qlist *nat,
		      const void *view, uint32_t xlate)
{
	const uint64_t pb = ps_bytes(b->page_size), leaf = ps_bytes(xlate);
	struct qlist q;
	int rc;

	if (query_all(k, view, b->length, &q))
		return fail("QUERY of the %s view failed", xlate == PAGEHOP_PAGE_4K ? "PTE" : "PMD");
	rc = check_leaves(&q, view, b->length, ps_level(xlate), leaf, b->node);
	for (size_t i = 0; !rc && i < q.n; i++) {
		uint64_t off = i * leaf;
		uint64_t want = nat->e[off / pb].pfn + (off % pb) / 4096;

		if (q.e[i].pfn != want)
			rc = fail("view by %" PRIu64 "-byte leaves: offset 0x%" PRIx64
				  " is pfn 0x%" PRIx64 ", the native mapping's is 0x%" PRIx64,
				  leaf, off, (uint64_t)q.e[i].pfn, want);
	}
	if (!rc)
		printf("level %s x %zu from pfn 0x%" PRIx64 ": the native frames, leaf by leaf\n",
		       xlate == PAGEHOP_PAGE_4K ? "PTE" : xlate == PAGEHOP_PAGE_2M ? "PMD" : "PUD",
		       q.n, (uint64_t)q.e[0].pfn);
	free(q.e);
	return rc;
}

/* A different word of each 4 KiB page, so a page read at a shifted frame shows. */
static void fill_at(void *addr, uint64_t len, uint64_t seed)
{
	for (uint64_t off = 0; off < len; off += 4096)
		*(volatile uint64_t *)((char *)addr + off + (off / 4096 % 512) * 8) = seed ^ off;
}

static int verify_at(const char *what, const void *addr, uint64_t len, uint64_t seed)
{
	for (uint64_t off = 0; off < len; off += 4096) {
		uint64_t v = *(const volatile uint64_t *)((const char *)addr + off +
							  (off / 4096 % 512) * 8);

		if (v != (seed ^ off))
			return fail("%s: offset 0x%" PRIx64 " reads 0x%" PRIx64 ", expected 0x%" PRIx64,
				    what, off, v, seed ^ off);
	}
	return 0;
}

/*
 * frames NODE SIZE: one buffer of SIZE pages (1g: one GiB, 2m: two pages)
 * mapped once natively and once per smaller translation.  QUERY shows each
 * view at its level on the native mapping's frames; as a second path, a
 * pattern written through the smallest view reads back through every
 * other, and one written through the native mapping reads back through the
 * smallest.  Bad translations are refused.  ENOMEM (no free aligned GiB)
 * is reported on stdout with exit 0, for the caller to try another node.
 */
static int cmd_frames(int argc, char **argv)
{
	static const char *const names[] = { "", "PTE", "PMD", "PUD" };
	uint64_t base = pinned_now();
	void *view[4] = { 0 };
	struct ph_kmod k;
	struct ph_kbuf b;
	struct qlist nat;
	uint32_t ps;
	int node, err, rc = 0;
	void *n;

	if (argc < 3)
		return 2;
	node = atoi(argv[1]);
	ps = parse_ps(argv[2]);
	open_kmod(&k);
	if (!kmod_has(&k, PAGEHOP_FEAT_MAP_XLATE))
		return fail("INFO: no PAGEHOP_FEAT_MAP_XLATE");
	err = kmod_alloc_map(&k, node, ps, ps == PAGEHOP_PAGE_1G ? GiB : 4 * MiB, &b);
	if (err == -ENOMEM && ps == PAGEHOP_PAGE_1G) {
		printf("ENOMEM: no free aligned GiB on node %d now\n", node);
		return 0;
	}
	if (err)
		return fail("ALLOC %s on node %d: %s", argv[2], node, errname(-err));
	view[ps] = b.addr;
	for (uint32_t x = PAGEHOP_PAGE_4K; x < ps; x++)
		if (!(view[x] = kmod_map_view(&k, &b, x)))
			return fail("mmap of the %s view: %s", names[x], errname(errno));
	/* A translation larger than the pages, or no page size: EINVAL. */
	n = mmap(NULL, b.length, PROT_READ, MAP_SHARED, k.fd,
		 (off_t)(b.mmap_offset | PAGEHOP_MMAP_XLATE(ps + 1)));
	rc |= expect("mmap by leaves larger than the pages", n == MAP_FAILED ? errno : 0, EINVAL);
	n = mmap(NULL, b.length, PROT_READ, MAP_SHARED, k.fd,
		 (off_t)(b.mmap_offset | PAGEHOP_MMAP_XLATE(5)));
	rc |= expect("mmap by translation 5", n == MAP_FAILED ? errno : 0, EINVAL);

	fill_at(view[PAGEHOP_PAGE_4K], b.length, 0x5eed0001);
	for (uint32_t x = PAGEHOP_PAGE_2M; x <= ps; x++)
		rc |= verify_at(names[x], view[x], b.length, 0x5eed0001);
	fill_at(view[ps], b.length, 0x5eed0002);
	for (uint32_t x = PAGEHOP_PAGE_4K; x < ps; x++)
		rc |= verify_at(names[x], view[x], b.length, 0x5eed0002);
	if (!rc)
		printf("a pattern written through each of PTE..%s reads back through the others\n",
		       names[ps]);

	if (query_all(&k, view[ps], b.length, &nat))
		return fail("QUERY of the native mapping failed");
	rc |= check_leaves(&nat, view[ps], b.length, ps_level(ps), ps_bytes(ps), node);
	for (uint32_t x = PAGEHOP_PAGE_4K; !rc && x <= ps; x++)
		rc |= check_view(&k, &b, &nat, view[x], x);
	free(nat.e);
	for (uint32_t x = PAGEHOP_PAGE_4K; x < ps; x++)
		munmap(view[x], b.length);
	kmod_unmap_free(&k, &b);
	kmod_close(&k);
	if (pinned_now() != base)
		rc |= fail("%" PRIu64 " bytes still pinned after munmap and close",
			   pinned_now() - base);
	return rc;
}

/* frames-1g NODE: frames NODE 1g, for a caller that tries node after node. */
static int cmd_frames_1g(int argc, char **argv)
{
	char *args[] = { argv[0], argc > 1 ? argv[1] : NULL, "1g", NULL };

	return argc < 2 ? 2 : cmd_frames(3, args);
}

/*
 * frames-life NODE: a 1 GiB buffer seen only through 4 KiB PTEs keeps its
 * frames while the view exists: after FREE and close the view still reads
 * what was written and the GiB stays pinned; mremap cannot grow it, may
 * move it only to a 1 GiB-aligned address, after which the old address
 * faults and the new one has the same frames (QUERY, level PTE); fork
 * gives the child nothing, MADV_DOFORK is refused; munmap frees the GiB.
 */
static int cmd_frames_life(int argc, char **argv)
{
	uint64_t base = pinned_now(), v;
	struct ph_kmod k, k2;
	struct ph_kbuf b;
	struct qlist q;
	char *pte, *dst;
	uint64_t pfn0;
	void *n;
	int node, err, rc = 0, st;
	pid_t pid;

	if (argc < 2)
		return 2;
	node = atoi(argv[1]);
	open_kmod(&k);
	err = kmod_alloc_map(&k, node, PAGEHOP_PAGE_1G, GiB, &b);
	if (err == -ENOMEM) {
		printf("ENOMEM: no free aligned GiB on node %d now\n", node);
		return 0;
	}
	if (err)
		return fail("ALLOC 1g on node %d: %s", node, errname(-err));
	pte = kmod_map_view(&k, &b, PAGEHOP_PAGE_4K);
	if (!pte)
		return fail("mmap of the PTE view: %s", errname(errno));
	fill_at(pte, GiB, 0xfee1);
	if (query_all(&k, pte, GiB, &q) || check_leaves(&q, pte, GiB, PAGEHOP_LEVEL_PTE, 4096, node))
		return fail("the PTE view is not PTEs on node %d", node);
	pfn0 = q.e[0].pfn;
	free(q.e);
	/* Only the PTE view is left: unmap the native one, FREE, close. */
	munmap(b.addr, GiB);
	rc |= expect("FREE with the PTE view mapped", free_raw(k.fd, b.id), 0);
	kmod_close(&k);
	if (pinned_now() - base != GiB)
		rc |= fail("%" PRIu64 " bytes pinned with only the PTE view left, expected 1 GiB",
			   pinned_now() - base);
	rc |= verify_at("the PTE view after FREE and close", pte, GiB, 0xfee1);

	n = mremap(pte, GiB, 2 * GiB, MREMAP_MAYMOVE);
	rc |= expect("mremap grow", n == MAP_FAILED ? errno : 0, EFAULT);
	n = mmap(NULL, 4 * GiB, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (n == MAP_FAILED)
		return fail("mmap: %s", strerror(errno));
	dst = (char *)(((uintptr_t)n + GiB - 1) & ~(uintptr_t)(GiB - 1));
	n = mremap(pte, GiB, GiB, MREMAP_MAYMOVE | MREMAP_FIXED, dst + GiB + 2 * MiB);
	rc |= expect("mremap move to a 2 MiB- but not 1 GiB-aligned address",
		     n == MAP_FAILED ? errno : 0, EINVAL);
	rc |= verify_at("the PTE view after the refused move", pte, GiB, 0xfee1);
	n = mremap(pte, GiB, GiB, MREMAP_MAYMOVE | MREMAP_FIXED, dst);
	rc |= expect("mremap move to a 1 GiB-aligned address", n == MAP_FAILED ? errno : 0, 0);
	if (n == MAP_FAILED)
		return 1;
	rc |= expect_unmapped("the old address after the move", pte, GiB, 2 * MiB);
	pte = n;
	rc |= verify_at("the PTE view after the move", pte, GiB, 0xfee1);
	open_kmod(&k2);
	if (query_all(&k2, pte, GiB, &q) || check_leaves(&q, pte, GiB, PAGEHOP_LEVEL_PTE, 4096, node))
		return fail("the moved PTE view is not PTEs on node %d", node);
	for (size_t i = 0; !rc && i < q.n; i++)
		if (q.e[i].pfn != pfn0 + i)
			rc |= fail("after the move, page %zu is pfn 0x%" PRIx64 ", was 0x%" PRIx64,
				   i, (uint64_t)q.e[i].pfn, pfn0 + i);
	free(q.e);
	if (!rc)
		printf("after the move: level PTE x 262144 on the same frames, pfn 0x%" PRIx64 "...\n",
		       pfn0);

	rc |= expect("MADV_DOFORK on the PTE view", madvise(pte, GiB, MADV_DOFORK) ? errno : 0,
		     EINVAL);
	pid = fork();
	if (pid == 0)
		_exit(probe_read(pte, &v) == SIGSEGV ? 0 : 1);
	waitpid(pid, &st, 0);
	rc |= expect("fork: the child's read of the PTE view",
		     WIFEXITED(st) && WEXITSTATUS(st) == 0 ? EFAULT : 0, EFAULT);
	munmap(pte, GiB);
	kmod_close(&k2);
	if (pinned_now() != base)
		rc |= fail("%" PRIu64 " bytes still pinned after the PTE view's munmap",
			   pinned_now() - base);
	else
		printf("munmap of the PTE view: the GiB is freed\n");
	rc |= expect_unmapped("the PTE view after munmap", pte, GiB, 2 * MiB);
	return rc;
}

/*
 * frames-refused: where the module has no huge buffers (6.1), a 4 KiB
 * buffer may be mapped by PTEs (its own size) and nothing larger.
 */
static int cmd_frames_refused(int argc, char **argv)
{
	struct ph_kmod k;
	struct ph_kbuf b;
	int rc = 0, err;
	void *n;

	(void)argc;
	(void)argv;
	open_kmod(&k);
	if (!kmod_has(&k, PAGEHOP_FEAT_MAP_XLATE))
		return fail("INFO: no PAGEHOP_FEAT_MAP_XLATE");
	err = kmod_alloc_map(&k, 0, PAGEHOP_PAGE_4K, 4 * MiB, &b);
	if (err)
		return fail("ALLOC 4k: %s", errname(-err));
	fill_at(b.addr, b.length, 7);
	n = kmod_map_view(&k, &b, PAGEHOP_PAGE_4K);
	rc |= expect("a 4 KiB buffer by PTEs", n ? 0 : errno, 0);
	if (n)
		rc |= verify_at("the PTE view", n, b.length, 7);
	n = kmod_map_view(&k, &b, PAGEHOP_PAGE_2M);
	rc |= expect("a 4 KiB buffer by PMDs", n ? 0 : errno, EINVAL);
	kmod_unmap_free(&k, &b);
	kmod_close(&k);
	return rc;
}

/*
 * chain-order SIZE SEED: the reference order of the random chain pagehop
 * pages builds over SIZE bytes with SEED (chase_build, as a figure's
 * thread 0 does), written in plain memory and read back by following its
 * links from the slot at offset 0, printed as pagehop pages --same-frames
 * prints each view's chain ("chain_4K"): the hop count, the offsets of the
 * first hops, an FNV-1a hash of every hop's 8-byte offset.  Equal lines
 * say that every view chased these very slots in this very order.
 */
static int cmd_chain_order(int argc, char **argv)
{
	struct chase_spec spec = { .pattern = CHASE_RANDOM };
	uint64_t bytes, hops = 0, h = 0xcbf29ce484222325ull;
	char *buf, *p;
	void *start;
	int64_t n;

	if (argc < 3)
		return 2;
	bytes = parse_size(argv[1]);
	spec.seed = strtoull(argv[2], NULL, 0);
	buf = aligned_alloc(4096, bytes);
	if (!buf)
		return fail("aligned_alloc %" PRIu64 ": %s", bytes, strerror(errno));
	n = chase_build(buf, bytes, &spec, &start, NULL);
	if (n != (int64_t)(bytes / 64))
		return fail("chase_build over %" PRIu64 " bytes: %" PRId64, bytes, n);
	printf("%" PRId64 " hops from +0x0:", n);
	p = buf;
	do {
		uint64_t off = (uint64_t)(p - buf);

		if (off >= bytes || hops >= (uint64_t)n)
			return fail("the chain leaves the buffer or is not one cycle at hop %" PRIu64, hops);
		if (hops >= 1 && hops < 6)
			printf(" +0x%" PRIx64, off);
		for (int k = 0; k < 8; k++)
			h = (h ^ ((off >> (8 * k)) & 0xff)) * 0x100000001b3ull;
		hops++;
		p = *(char **)p;
	} while (p != buf);
	printf("; fnv1a 0x%016" PRIx64 "\n", h);
	free(buf);
	return hops == (uint64_t)n ? 0 : fail("%" PRIu64 " hops, not %" PRId64, hops, n);
}

static int cmd_info(int argc, char **argv)
{
	struct pagehop_info info;
	uint64_t nf[64];
	int fd = open_dev(), err;

	(void)argc;
	(void)argv;
	err = get_info(fd, &info, nf, 64);
	if (err)
		return fail("INFO: %s", errname(err));
	printf("api=%u\nfeatures=%" PRIu64 "\ntsc_khz=%u\ntsc_flags=%u\ncap=%" PRIu64
	       "\npinned=%" PRIu64 "\nnodes=%u\n", info.api_version, (uint64_t)info.features,
	       info.tsc_khz, info.tsc_flags, (uint64_t)info.pin_cap_bytes,
	       (uint64_t)info.pinned_bytes, info.node_free_count);
	for (uint32_t i = 0; i < info.node_free_count && i < 64; i++)
		printf("free%u=%" PRIu64 "\n", i, nf[i]);
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct { const char *name; int (*fn)(int, char **); } cmds[] = {
		{ "info", cmd_info }, { "place", cmd_place }, { "hugetlb", cmd_hugetlb },
		{ "anon", cmd_anon }, { "query-paging", cmd_query_paging }, { "err", cmd_err },
		{ "life", cmd_life }, { "hold", cmd_hold }, { "rmmod-busy", cmd_rmmod_busy },
		{ "gig", cmd_gig }, { "chase", cmd_chase }, { "dofork", cmd_dofork },
		{ "vmpin", cmd_vmpin }, { "limited", cmd_limited }, { "alloc-race", cmd_alloc_race },
		{ "movable", cmd_movable }, { "frames", cmd_frames },
		{ "frames-1g", cmd_frames_1g }, { "frames-life", cmd_frames_life }, { "frames-refused", cmd_frames_refused },
		{ "chain-order", cmd_chain_order },
		{ "prefetch", cmd_prefetch }, { "fuzz", cmd_fuzz }, { "stress", cmd_stress },
	};

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 2)
		return 2;
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].fn(argc - 1, argv + 1);
	fail("unknown subcommand '%s'", argv[1]);
	return 2;
}
