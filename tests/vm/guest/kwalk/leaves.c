// SPDX-License-Identifier: GPL-2.0-only
/*
 * leaves.c - what QUERY says of leaves that cannot be reached: PROT_NONE
 * ones are holes, and shared hugetlb PMD tables are walked while another
 * process unshares and migrates them.
 */
#include "kwalk.h"

/* ---- PROT_NONE leaves ------------------------------------------------------ */

/*
 * query-protnone KIND SIZE [NODE]: a mapping of SIZE pages (4k, 2m, 1g)
 * from KIND (kmod: pagehop.ko's buffer; hugetlb: MAP_HUGETLB; anon: plain
 * anonymous memory, 4k only), touched: QUERY gives its leaves; made
 * PROT_NONE, QUERY must give one hole (nothing there can be reached); made
 * readable again, the data and the same leaves are back.
 */
TEST(query_protnone, "query-protnone", "KIND SIZE [NODE]")
{
	uint64_t len, leaf, pfn0, mask;
	uint32_t ps, level;
	struct ph_kmod k;
	struct ph_kbuf b = { 0 };
	struct qlist q = { 0 };
	const char *kind;
	int node, rc = 0, err;
	char *p;

	if (argc < 3)
		return 2;
	kind = argv[1];
	if (!strcmp(argv[2], "4k"))
		ps = PAGEHOP_PAGE_4K, leaf = 4096, level = PAGEHOP_LEVEL_PTE;
	else if (!strcmp(argv[2], "2m"))
		ps = PAGEHOP_PAGE_2M, leaf = 2 * MiB, level = PAGEHOP_LEVEL_PMD;
	else if (!strcmp(argv[2], "1g"))
		ps = PAGEHOP_PAGE_1G, leaf = GiB, level = PAGEHOP_LEVEL_PUD;
	else
		return 2;
	node = argc > 3 ? atoi(argv[3]) : 0;
	len = ps == PAGEHOP_PAGE_1G ? GiB : 2 * leaf;
	open_kmod(&k);
	if (!strcmp(kind, "kmod")) {
		err = kmod_alloc_map(&k, node, ps, len, &b);
		if (err == -ENOMEM && ps == PAGEHOP_PAGE_1G) {
			printf("ENOMEM: no free aligned GiB on node %d now (1 GiB is best effort)\n", node);
			return 0;
		}
		ASSERT_FALSE(err, "ALLOC+mmap %s on node %d: %s", argv[2], node, strerror(-err));
		p = b.addr;
	} else if (!strcmp(kind, "hugetlb")) {
		p = mmap(NULL, len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB |
			 (ps == PAGEHOP_PAGE_1G ? MAP_HUGE_1GB : MAP_HUGE_2MB), -1, 0);
		ASSERT_FALSE(p == MAP_FAILED, "mmap MAP_HUGETLB %s: %s", argv[2], strerror(errno));
		mask = 1ULL << node;
		ASSERT_FALSE(mbind(p, len, MPOL_BIND, &mask, 64, MPOL_MF_STRICT),
			     "mbind: %s", strerror(errno));
	} else if (!strcmp(kind, "anon") && ps == PAGEHOP_PAGE_4K) {
		p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		ASSERT_FALSE(p == MAP_FAILED, "mmap: %s", strerror(errno));
	} else {
		return 2;
	}
	fill_pages(p, len, 0x7e57);
	ASSERT_FALSE(kmod_query(&k, p, len, qlist_add, &q), "QUERY failed");
	ASSERT_FALSE(q.n != len / leaf || q.e[0].level != level || q.e[0].length != leaf,
		     "before mprotect: %zu entries, the first level %u length %" PRIu64
		     ", expected %" PRIu64 " leaves of level %u", q.n, q.e[0].level,
		     (uint64_t)q.e[0].length, len / leaf, level);
	pfn0 = q.e[0].pfn;
	q.n = 0;

	ASSERT_FALSE(mprotect(p, len, PROT_NONE), "mprotect PROT_NONE: %s", strerror(errno));
	ASSERT_FALSE(kmod_query(&k, p, len, qlist_add, &q), "QUERY failed");
	if (q.n != 1 || q.e[0].level != PAGEHOP_LEVEL_NONE || q.e[0].addr != (uintptr_t)p ||
	    q.e[0].length != len)
		rc |= fail("PROT_NONE %s %s: %zu entries, the first at %p level %u length %" PRIu64
			   " pfn 0x%" PRIx64 "; expected one hole of %" PRIu64 " bytes", kind, argv[2],
			   q.n, (void *)(uintptr_t)q.e[0].addr, q.e[0].level, (uint64_t)q.e[0].length,
			   (uint64_t)q.e[0].pfn, len);
	else
		printf("%s %s made PROT_NONE: one hole of %" PRIu64 " KiB\n", kind, argv[2], len / KiB);
	q.n = 0;

	ASSERT_FALSE(mprotect(p, len, PROT_READ | PROT_WRITE),
		     "mprotect back: %s", strerror(errno));
	rc |= verify(p, len, 0x7e57);
	if (kmod_query(&k, p, len, qlist_add, &q) || q.n != len / leaf || q.e[0].level != level ||
	    q.e[0].pfn != pfn0)
		rc |= fail("readable again: the same leaves are not back");
	else
		printf("readable again: data intact, %zu leaves of %" PRIu64 " KiB, first pfn 0x%" PRIx64 "\n",
		       q.n, leaf / KiB, pfn0);
	free(q.e);
	if (b.addr)
		kmod_unmap_free(&k, &b);
	else
		munmap(p, len);
	kmod_close(&k);
	return rc;
}

/* ---- shared hugetlb PMD tables ------------------------------------------------ */

#define SHARE_PAGES	8

/* The 1 GiB-aligned address of a fresh 1 GiB hole in the address space. */
static char *gib_aligned_hole(void)
{
	char *r = mmap(NULL, 2 * GiB, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (r == MAP_FAILED)
		return NULL;
	return (char *)(((uintptr_t)r + GiB - 1) & ~(uintptr_t)(GiB - 1));
}

static char *map_share(int fd, char *at)
{
	return mmap(at, GiB, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED | MAP_NORESERVE, fd, 0);
}

/*
 * query-hugetlb-share SECONDS: a 1 GiB-aligned MAP_SHARED hugetlbfs mapping
 * of 2 MiB pages in this process and a forked child, so that both share
 * one PMD table (hugetlb PMD sharing).  For SECONDS the child touches the
 * pages, migrates them between nodes 0 and 1 (which unshares the table in
 * both processes through the rmap, under no mmap lock of ours) and unmaps
 * and maps its copy again, while this process QUERYs its own: every entry
 * must be a hole or a 2 MiB leaf at a touched offset, aligned, on node 0
 * or 1.  The walk of such a table must hold what keeps it from being
 * unshared and freed under it; without KASAN a use after free reads stale
 * memory silently, so this checks the answers and, through the harness,
 * a clean kernel log; it cannot show the race itself.
 */
TEST(query_hugetlb_share, "query-hugetlb-share", "SECONDS")
{
	const char *path = "/dev/hugepages/kwalk-share";
	uint64_t deadline, queries = 0, leaves = 0;
	struct ph_kmod k;
	struct qlist q = { 0 };
	int fd, secs, rc = 0, st;
	char *p;
	pid_t pid;

	if (argc < 2)
		return 2;
	secs = atoi(argv[1]);
	fd = open(path, O_CREAT | O_RDWR, 0600);
	ASSERT_FALSE(fd < 0 || ftruncate(fd, (off_t)GiB), "%s: %s", path, strerror(errno));
	unlink(path);
	p = gib_aligned_hole();
	ASSERT_FALSE(!p || map_share(fd, p) == MAP_FAILED,
		     "mmap of the hugetlbfs file: %s", strerror(errno));
	for (int i = 0; i < SHARE_PAGES; i++)
		p[(uint64_t)i * 64 * MiB] = 1;
	open_kmod(&k);

	pid = fork();
	if (pid == 0) {
		uint64_t iters = 0, moved = 0;

		deadline = now_ns() + (uint64_t)secs * 1000000000ULL;
		while (now_ns() < deadline) {
			uint64_t mask = 1ULL << (iters % 2);

			for (int i = 0; i < SHARE_PAGES; i++)
				p[(uint64_t)i * 64 * MiB]++;
			if (!mbind(p, GiB, MPOL_BIND, &mask, 64, MPOL_MF_MOVE_ALL))
				moved++;
			munmap(p, GiB);
			if (map_share(fd, p) == MAP_FAILED)
				_exit(3);
			iters++;
		}
		printf("child: %" PRIu64 " rounds of touch, migrate (%" PRIu64 " done), unmap, map\n",
		       iters, moved);
		_exit(iters ? 0 : 4);
	}

	deadline = now_ns() + (uint64_t)secs * 1000000000ULL;
	while (!rc && now_ns() < deadline) {
		q.n = 0;
		if (kmod_query(&k, p, GiB, qlist_add, &q)) {
			rc = fail("QUERY failed: %s", strerror(errno));
			break;
		}
		queries++;
		for (size_t i = 0; i < q.n; i++) {
			const struct pagehop_query_entry *e = &q.e[i];
			uint64_t off = e->addr - (uintptr_t)p;

			if (e->level == PAGEHOP_LEVEL_NONE)
				continue;
			leaves++;
			if (e->level != PAGEHOP_LEVEL_PMD || e->length != 2 * MiB || off % (64 * MiB) ||
			    off >= SHARE_PAGES * 64 * MiB || e->pfn % 512 || (e->node != 0 && e->node != 1))
				rc = fail("entry at +0x%" PRIx64 ": level %u length %" PRIu64 " pfn 0x%" PRIx64
					  " node %d", off, e->level, (uint64_t)e->length,
					  (uint64_t)e->pfn, e->node);
		}
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
		rc |= fail("the child failed: status 0x%x", st);
	printf("%" PRIu64 " QUERYs of the shared table, %" PRIu64 " leaves seen, all 2 MiB on nodes 0-1\n",
	       queries, leaves);
	free(q.e);
	kmod_close(&k);
	munmap(p, GiB);
	close(fd);
	return rc;
}
