// SPDX-License-Identifier: GPL-2.0-only
/*
 * place.c - ALLOC places pages where asked and QUERY says where pages are:
 * each checked through a second path (move_pages, /proc/self/pagemap,
 * hugetlbfs pages placed with mbind, /proc/zoneinfo); INFO as the
 * scripts read it.
 */
#include "kmodtest.h"

/*
 * place NODE SIZE LENGTH [--expect ERRNO | --or-enomem]: ALLOC + mmap,
 * then check zeroed, node and page size through QUERY (and move_pages and
 * pagemap for 4 KiB), INFO's pinned count, and that FREE gives it back.
 */
TEST(place, "place", "NODE SIZE LENGTH [--expect ERRNO | --or-enomem]")
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
	len = parse_bytes(argv[3]);
	if (argc > 5 && !strcmp(argv[4], "--expect"))
		want = errnum(argv[5]);
	if (argc > 4 && !strcmp(argv[4], "--or-enomem"))
		or_enomem = 1;
	open_kmod(&k);
	before = k.info.pinned_bytes;
	err = kmod_alloc_map(&k, node, ps, len, &b);
	if (want) {
		kmod_unmap_free(&k, &b);
		ASSERT_FALSE(-err != want,
			     "ALLOC node %d %s %" PRIu64 ": got %s, expected %s", node,
			     argv[2], len, errname(-err), errname(want));
		printf("ALLOC node %d %s: %s as documented\n", node, argv[2], errname(want));
		return pinned_now() == before ? 0 : fail("pinned count changed by a failed ALLOC");
	}
	if (err == -ENOMEM && or_enomem) {
		printf("ENOMEM: no contiguous %s free on node %d now\n", argv[2], node);
		return pinned_now() == before ? 0 : fail("pinned count changed by a failed ALLOC");
	}
	ASSERT_FALSE(err, "ALLOC+mmap node %d %s %" PRIu64 ": %s", node, argv[2], len,
		     errname(-err));
	ASSERT_FALSE((uintptr_t)b.addr % ps_bytes(ps),
		     "mapped at %p, not aligned to the page size", b.addr);
	rc = check_zero(&b);
	fill_pages(b.addr, b.length, 0x5a5a0000u + (uint64_t)node);
	if (!rc)
		rc = verify(b.addr, b.length, 0x5a5a0000u + (uint64_t)node);
	if (!rc && pinned_now() != before + len)
		rc = fail("INFO pinned %" PRIu64 ", expected %" PRIu64, pinned_now(), before + len);
	err = query_all(&k, b.addr, b.length, &q);
	ASSERT_FALSE(err, "QUERY: %s", errname(-err));
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
TEST(hugetlb, "hugetlb", "SIZE NODE")
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
	ASSERT_FALSE(p == MAP_FAILED, "mmap MAP_HUGETLB %s: %s", argv[1], strerror(errno));
	mask = 1ULL << node;
	ASSERT_FALSE(mbind(p, len, MPOL_BIND, &mask, 64, MPOL_MF_STRICT),
		     "mbind to node %d: %s", node, strerror(errno));
	memset(p, 0x11, len);
	open_kmod(&k);
	ASSERT_FALSE(query_all(&k, p, len, &q), "QUERY failed");
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
TEST(anon, "anon", "NODE")
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
	ASSERT_FALSE(p == MAP_FAILED || mbind(p, len, MPOL_BIND, &mask, 64, MPOL_MF_STRICT),
		     "anonymous mapping on node %d: %s", node, strerror(errno));
	madvise(p, len, MADV_NOHUGEPAGE);
	memset(p, 1, len / 2);
	open_kmod(&k);
	ASSERT_FALSE(query_all(&k, p, len, &q), "QUERY failed");
	ASSERT_FALSE(q.n != 33, "QUERY: %zu entries, expected 32 PTEs and one hole", q.n);
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
	ASSERT_FALSE(p == MAP_FAILED, "mmap: %s", strerror(errno));
	t = (char *)(((uintptr_t)p + 2 * MiB - 1) & ~(uintptr_t)(2 * MiB - 1));
	ASSERT_FALSE(mbind(t, 2 * MiB, MPOL_BIND, &mask, 64, MPOL_MF_STRICT),
		     "mbind: %s", strerror(errno));
	madvise(t, 2 * MiB, MADV_HUGEPAGE);
	memset(t, 2, 2 * MiB);
	ASSERT_FALSE(query_all(&k, t, 2 * MiB, &q), "QUERY failed");
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
TEST(query_paging, "query-paging", "")
{
	struct pagehop_query_entry e[2];
	struct pagehop_query qr;
	uint64_t a, end;
	int fd = open_dev(), n = 0, err;
	char *p;

	(void)argc;
	(void)argv;
	p = mmap(NULL, 16 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_FALSE(p == MAP_FAILED, "mmap: %s", strerror(errno));
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
		ASSERT_FALSE(err, "QUERY: %s", errname(err));
		ASSERT_FALSE(qr.nr_entries != 1 || e[1].addr != ~0ULL,
			     "QUERY wrote %u entries with max_entries 1", qr.nr_entries);
		ASSERT_FALSE(e[0].addr != a || qr.next_addr != a + e[0].length,
			     "entry at 0x%" PRIx64 " len %" PRIu64 ", next 0x%" PRIx64
			     " (asked 0x%" PRIx64 ")", (uint64_t)e[0].addr,
			     (uint64_t)e[0].length, (uint64_t)qr.next_addr, a);
		n++;
		a = qr.next_addr;
	}
	/* 4 PTEs, hole of 6, 1 PTE, hole of 5 */
	ASSERT_FALSE(n != 7, "%d entries walking one at a time, expected 7", n);
	printf("QUERY with max_entries 1: 7 entries, next_addr chained\n");
	return 0;
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
TEST(movable, "movable", "NODE SIZE LENGTH")
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
	len = parse_bytes(argv[3]);
	nz = movable_spans(z, 16);
	ASSERT_FALSE(nz <= 0, "no populated Movable zone in /proc/zoneinfo");
	open_kmod(&k);
	err = kmod_alloc_map(&k, node, ps, len, &b);
	if (err == -ENOMEM && ps == PAGEHOP_PAGE_1G) {
		printf("ENOMEM: no free aligned GiB outside ZONE_MOVABLE on node %d\n", node);
		return 0;
	}
	ASSERT_FALSE(err, "ALLOC+mmap node %d %s: %s", node, argv[2], errname(-err));
	fill_pages(b.addr, b.length, 1);
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
TOOL(info, "info", "")
{
	struct pagehop_info info;
	uint64_t nf[64];
	int fd = open_dev(), err;

	(void)argc;
	(void)argv;
	err = get_info(fd, &info, nf, 64);
	ASSERT_FALSE(err, "INFO: %s", errname(err));
	printf("api=%u\nfeatures=%" PRIu64 "\ntsc_khz=%u\ntsc_flags=%u\ncap=%" PRIu64
	       "\npinned=%" PRIu64 "\nnodes=%u\n", info.api_version, (uint64_t)info.features,
	       info.tsc_khz, info.tsc_flags, (uint64_t)info.pin_cap_bytes,
	       (uint64_t)info.pinned_bytes, info.node_free_count);
	for (uint32_t i = 0; i < info.node_free_count && i < 64; i++)
		printf("free%u=%" PRIu64 "\n", i, nf[i]);
	close(fd);
	return 0;
}
