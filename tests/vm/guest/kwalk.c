// SPDX-License-Identifier: GPL-2.0-only
/*
 * kwalk.c - the guests' driver for pagehop.ko's QUERY walk, CHASE windows
 * and PREFETCH permissions (tests/vm/guest/kmod_walk.sh, kmod_chase.sh,
 * kmod_lockdown.sh).
 *
 *   kwalk TEST [ARGS]    one test, TAP on stdout, exit 0 / 1 / 2
 *   kwalk -l             every test, with its arguments
 *
 * The harness is lib/harness.h, the helpers it shares with kmodtest
 * lib/guest.h.  Times are taken in the guest with
 * CLOCK_MONOTONIC; what QUERY says is checked against /proc/self/pagemap
 * and move_pages(2), and what CHASE says against a walk of the same chain
 * in user space.
 */
#include "guest.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/capability.h>
#include <numaif.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The node move_pages(2) says the page at addr is on, -1 if it cannot tell. */
static int page_node(void *addr)
{
	int st = -1;

	if (move_pages(0, 1, &addr, NULL, &st, 0))
		return -1;
	return st;
}

/* One raw QUERY call: 0 or the errno; *ns gets how long it took. */
static int query_once(int fd, uint64_t addr, uint64_t len, struct pagehop_query_entry *ents,
		      uint32_t max, struct pagehop_query *q, uint64_t *ns)
{
	uint64_t t0 = now_ns();
	int e;

	memset(q, 0, sizeof(*q));
	q->size = sizeof(*q);
	q->addr = addr;
	q->length = len;
	q->entries_ptr = (uintptr_t)ents;
	q->max_entries = max;
	e = ioctl(fd, PAGEHOP_IOC_QUERY, q) ? errno : 0;
	*ns = now_ns() - t0;
	return e;
}

/*
 * [addr, addr + len) must be covered in order, without gaps or overlaps,
 * by the entries; each leaf must be where want_leaf() says a page is.
 * Holes may come in several adjacent entries (one per call at most).
 */
static int check_cover(const struct qlist *q, uint64_t addr, uint64_t len, uint32_t level,
		       uint64_t leaf, const uint64_t *leaves, size_t nleaves)
{
	uint64_t a = addr;
	size_t seen = 0;

	for (size_t i = 0; i < q->n; i++) {
		const struct pagehop_query_entry *e = &q->e[i];

		ASSERT_FALSE(e->addr != a, "entry %zu at 0x%" PRIx64 ", expected 0x%" PRIx64, i,
			     (uint64_t)e->addr, a);
		if (e->level == PAGEHOP_LEVEL_NONE) {
			for (size_t j = 0; j < nleaves; j++)
				ASSERT_FALSE(leaves[j] >= e->addr && leaves[j] < e->addr + e->length,
					     "page at 0x%" PRIx64 " is inside hole entry %zu [0x%" PRIx64
					     ", +0x%" PRIx64 ")", leaves[j], i, (uint64_t)e->addr,
					     (uint64_t)e->length);
		} else {
			size_t j;

			ASSERT_FALSE(e->level != level || e->length != leaf,
				     "entry %zu at 0x%" PRIx64 ": level %u length %" PRIu64
				     ", expected level %u length %" PRIu64, i, a, e->level,
				     (uint64_t)e->length, level, leaf);
			for (j = 0; j < nleaves && leaves[j] != e->addr; j++)
				;
			ASSERT_FALSE(j == nleaves,
				     "leaf entry %zu at 0x%" PRIx64 " where no page was touched",
				     i, a);
			seen++;
		}
		a += e->length;
	}
	ASSERT_FALSE(a != addr + len,
		     "entries cover up to 0x%" PRIx64 ", expected 0x%" PRIx64, a, addr + len);
	ASSERT_FALSE(seen != nleaves, "%zu leaves reported, %zu pages touched", seen, nleaves);
	return 0;
}

/* ---- QUERY over a large, mostly empty range ------------------------------ */

/*
 * The bound asked of one QUERY call and of a SIGKILL during one: 1 s of
 * CLOCK_MONOTONIC.  The walk of a call is bounded by a fixed budget of
 * page-table entries (docs/abi.md), which takes a few tens of ms under TCG;
 * an unbounded walk of the 64 GiB below takes minutes there (51 s natively
 * was seen), so 1 s fails it by two orders of magnitude and still leaves
 * TCG an order of magnitude of slack.
 */
#define SPARSE_BOUND_NS		1000000000ULL
/* How long the parent waits for a phase before calling it hung. */
#define SPARSE_WAIT_MS		15000

#define SPARSE_LEN		(64 * GiB)
#define SPARSE_NR_TOUCHED	5

static uint64_t sparse_offsets[SPARSE_NR_TOUCHED] = {
	0, GiB + 3 * 4096, 17 * GiB + 2 * MiB, 40 * GiB + 12345 * 4096, SPARSE_LEN - 4096,
};

static void say(int fd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(int fd, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > 0 && write(fd, buf, (size_t)n) != n)
		_exit(9);
}

/*
 * The child's side: build the range, then (loop false) time the phases,
 * one line each on fd, or (loop true) say "L" and QUERY in a loop until
 * killed.
 */
static void sparse_child(int out, bool loop)
{
	struct pagehop_query_entry ents[64];
	uint64_t leaves[SPARSE_NR_TOUCHED], t0, ns, a, end, worst = 0;
	struct pagehop_query q;
	struct ph_kmod k;
	struct qlist ql = { 0 };
	unsigned calls = 0;
	long pte_kb;
	char *p;
	int e, rc;

	open_kmod(&k);
	t0 = now_ns();
	p = mmap(NULL, SPARSE_LEN, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED) {
		say(out, "E mmap 64 GiB: %s\n", strerror(errno));
		_exit(1);
	}
	madvise(p, SPARSE_LEN, MADV_NOHUGEPAGE);
	/*
	 * A PTE table under every 2 MiB: a read fault maps the zero page,
	 * MADV_DONTNEED zaps the entry and leaves the (now empty) table.
	 */
	for (uint64_t off = 0; off < SPARSE_LEN; off += 2 * MiB)
		(void)*(volatile char *)(p + off);
	madvise(p, SPARSE_LEN, MADV_DONTNEED);
	for (int i = 0; i < SPARSE_NR_TOUCHED; i++) {
		p[sparse_offsets[i]] = 1;
		leaves[i] = (uintptr_t)p + sparse_offsets[i];
	}
	pte_kb = status_kb("VmPTE");
	say(out, "R %" PRIu64 " %ld\n", (now_ns() - t0) / 1000000, pte_kb);
	if (loop) {
		say(out, "L\n");
		for (;;)
			query_once(k.fd, (uintptr_t)p, SPARSE_LEN, ents, 64, &q, &ns);
	}

	/* 1: one call over everything. */
	e = query_once(k.fd, (uintptr_t)p, SPARSE_LEN, ents, 64, &q, &ns);
	say(out, "1 %d %" PRIu64 " %u %" PRIu64 "\n", e, ns, q.nr_entries,
	    (uint64_t)(q.next_addr - (uintptr_t)p));

	/* 2: the whole range call by call: each bounded, each making progress. */
	a = (uintptr_t)p;
	end = a + SPARSE_LEN;
	while (a < end) {
		e = query_once(k.fd, a, end - a, ents, 64, &q, &ns);
		calls++;
		worst = ns > worst ? ns : worst;
		if (e || !q.nr_entries || q.next_addr <= a || q.next_addr > end) {
			say(out, "2 fail call %u at +0x%" PRIx64 ": %s, %u entries, next +0x%" PRIx64 "\n",
			    calls, a - (uintptr_t)p, strerror(e), q.nr_entries,
			    (uint64_t)(q.next_addr - (uintptr_t)p));
			_exit(1);
		}
		a = q.next_addr;
	}
	/* ... and through the command's own loop, checked against pagemap. */
	rc = kmod_query(&k, p, SPARSE_LEN, qlist_add, &ql);
	if (!rc)
		rc = check_cover(&ql, (uintptr_t)p, SPARSE_LEN, PAGEHOP_LEVEL_PTE, 4096, leaves,
				 SPARSE_NR_TOUCHED);
	for (size_t i = 0; !rc && i < ql.n; i++) {
		void *la = (void *)(uintptr_t)ql.e[i].addr;

		if (ql.e[i].level == PAGEHOP_LEVEL_NONE)
			continue;
		if (ql.e[i].pfn != pagemap_pfn_once(la) || ql.e[i].node != page_node(la))
			rc = fail("leaf at %p: pfn 0x%" PRIx64 " node %d, pagemap 0x%" PRIx64
				  " move_pages %d", la, (uint64_t)ql.e[i].pfn, ql.e[i].node,
				  pagemap_pfn_once(la), page_node(la));
	}
	say(out, "2 %s %u %" PRIu64 " %zu\n", rc ? "fail" : "ok", calls, worst, ql.n);
	free(ql.e);

	/* 3: the same range PROT_NONE: one hole. */
	mprotect(p, SPARSE_LEN, PROT_NONE);
	e = query_once(k.fd, (uintptr_t)p, SPARSE_LEN, ents, 64, &q, &ns);
	say(out, "3 %d %" PRIu64 " %u %u %" PRIu64 "\n", e, ns, q.nr_entries,
	    q.nr_entries ? ents[0].level : 0, q.nr_entries ? (uint64_t)ents[0].length : 0);

	/* 4: idle, to be killed: what exit alone costs with these tables. */
	say(out, "I\n");
	for (;;)
		pause();
}

/* Fork a sparse_child; its pid, *fd the read end of its lines. */
static pid_t sparse_start(bool loop, int *fd)
{
	int fds[2];
	pid_t pid;

	if (pipe(fds))
		return -1;
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		sparse_child(fds[1], loop);
	}
	close(fds[1]);
	*fd = fds[0];
	return pid;
}

/*
 * Read one line from fd within ms: 0, or -1 on timeout or EOF, with buf
 * then saying so.
 */
static int read_line(int fd, char *buf, size_t size, int ms)
{
	size_t n = 0;
	uint64_t deadline = now_ns() + (uint64_t)ms * 1000000ULL;

	while (n + 1 < size) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		uint64_t t = now_ns();

		if (t >= deadline || poll(&pfd, 1, (int)((deadline - t) / 1000000 + 1)) <= 0 ||
		    read(fd, buf + n, 1) != 1) {
			snprintf(buf, size, "no answer within %d ms", ms);
			return -1;
		}
		if (buf[n] == '\n') {
			buf[n] = '\0';
			return 0;
		}
		n++;
	}
	buf[n] = '\0';
	return 0;
}

/* SIGKILL pid and wait for it, at most ms; the ns it took, or 0 if it did not die. */
static uint64_t kill_and_time(pid_t pid, int ms)
{
	uint64_t t0 = now_ns();
	int st;

	kill(pid, SIGKILL);
	while (now_ns() - t0 < (uint64_t)ms * 1000000ULL) {
		if (waitpid(pid, &st, WNOHANG) == pid)
			return now_ns() - t0;
		usleep(1000);
	}
	return 0;
}

/*
 * query-sparse: a 64 GiB anonymous mapping, MAP_NORESERVE, with an empty
 * PTE table under every 2 MiB (32768 tables) and 5 pages touched.  One
 * QUERY call over it must return within 1 s; walked call by call, every
 * call must make progress and the entries must be the 5 pages (pagemap's
 * PFNs, move_pages' nodes) and holes; PROT_NONE, it must be one hole, at
 * once; and a SIGKILL during a QUERY must act within 1 s.  The walk runs in
 * a child so that a call that never returns is reported, not waited for.
 * Death includes tearing down the 32768 page tables, which any exit of
 * such a process pays (about 0.4 s under TCG): it is timed on the same
 * process idle and taken out.
 */
TEST(query_sparse, "query-sparse", "")
{
	char line[512], what[16];
	uint64_t ns, v1, v2, idle = 0;
	unsigned u1, u2;
	int fd, rc = 0, e;
	pid_t pid;

	(void)argc;
	(void)argv;
	pid = sparse_start(false, &fd);
	ASSERT_FALSE(pid < 0, "fork: %s", strerror(errno));
	if (read_line(fd, line, sizeof(line), 120000) || line[0] != 'R') {
		kill_and_time(pid, 1000);
		return fail("setting up the 64 GiB range: %s", line);
	}
	if (sscanf(line, "R %" SCNu64 " %" SCNu64, &v1, &v2) != 2 || v2 < 32768 * 4)
		rc |= fail("VmPTE %" PRIu64 " kB: the empty PTE tables are not there", v2);
	printf("64 GiB range, an empty PTE table per 2 MiB (VmPTE %" PRIu64 " kB), 5 pages touched: set up in %" PRIu64 " ms\n",
	       v2, v1);

	if (read_line(fd, line, sizeof(line), SPARSE_WAIT_MS)) {
		rc |= fail("one QUERY call over 64 GiB: %s", line);
		goto kill;
	}
	if (sscanf(line, "1 %d %" SCNu64 " %u %" SCNu64, &e, &ns, &u1, &v1) != 4 || e)
		return rc | fail("one QUERY call: %s", line);
	printf("one QUERY call over 64 GiB: %.3f s, %u entries, next_addr at +%" PRIu64 " MiB\n",
	       ns * 1e-9, u1, v1 / MiB);
	if (ns > SPARSE_BOUND_NS)
		rc |= fail("one QUERY call took %.3f s, more than 1 s", ns * 1e-9);
	if (!u1 || !v1)
		rc |= fail("one QUERY call made no progress");

	if (read_line(fd, line, sizeof(line), 120000) ||
	    sscanf(line, "2 %15s %u %" SCNu64 " %u", what, &u1, &v1, &u2) != 4 || strcmp(what, "ok")) {
		rc |= fail("walking 64 GiB call by call: %s", line);
		goto kill;
	}
	printf("walked call by call: %u calls, slowest %.3f s; %u entries, the 5 pages and holes, as pagemap and move_pages say\n",
	       u1, v1 * 1e-9, u2);
	if (v1 > SPARSE_BOUND_NS)
		rc |= fail("a QUERY call took %.3f s, more than 1 s", v1 * 1e-9);

	if (read_line(fd, line, sizeof(line), SPARSE_WAIT_MS) ||
	    sscanf(line, "3 %d %" SCNu64 " %u %u %" SCNu64, &e, &ns, &u1, &u2, &v1) != 5) {
		rc |= fail("QUERY of the range made PROT_NONE: %s", line);
		goto kill;
	}
	printf("PROT_NONE: %.3f s, %u entries, the first of level %u and %" PRIu64 " MiB\n", ns * 1e-9,
	       u1, u2, v1 / MiB);
	if (e || u1 != 1 || u2 != PAGEHOP_LEVEL_NONE || v1 != SPARSE_LEN || ns > SPARSE_BOUND_NS)
		rc |= fail("the PROT_NONE range is not one hole within 1 s");
	if (read_line(fd, line, sizeof(line), SPARSE_WAIT_MS) || line[0] != 'I') {
		rc |= fail("the idle child did not say so: %s", line);
		goto kill;
	}
	idle = kill_and_time(pid, SPARSE_WAIT_MS);
	printf("SIGKILL of the same process idle: dead after %.3f s (tearing down its page tables)\n",
	       idle * 1e-9);
	pid = 0;
kill:
	if (pid)
		kill_and_time(pid, SPARSE_WAIT_MS);
	close(fd);

	/* A SIGKILL while a QUERY runs, in a fresh process. */
	pid = sparse_start(true, &fd);
	ASSERT_FALSE(pid < 0, "fork: %s", strerror(errno));
	if (read_line(fd, line, sizeof(line), 120000) || read_line(fd, line, sizeof(line), 1000) ||
	    line[0] != 'L') {
		kill_and_time(pid, SPARSE_WAIT_MS);
		return rc | fail("the QUERY loop did not start: %s", line);
	}
	usleep(300000);
	ns = kill_and_time(pid, SPARSE_WAIT_MS);
	close(fd);
	if (!ns)
		return rc | fail("SIGKILL during QUERY did not act within %d ms", SPARSE_WAIT_MS);
	printf("SIGKILL during QUERY: dead after %.3f s, %.3f s more than idle\n", ns * 1e-9,
	       ns > idle ? (ns - idle) * 1e-9 : 0.0);
	EXPECT_FALSE(ns > idle + SPARSE_BOUND_NS,
		     "SIGKILL during QUERY took %.3f s more than when idle, more than 1 s",
		     (ns - idle) * 1e-9);
	return rc;
}

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

/* ---- CHASE windows ------------------------------------------------------------ */

static uint64_t walk(const struct ph_kbuf *b, uint64_t off, uint64_t hops)
{
	while (hops--)
		off = *(const uint64_t *)((const char *)b->addr + off);
	return off;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * chase-window: windows of PAGEHOP_CHASE_MAX_LOADS hops over a random
 * cycle through a 64 MiB buffer of 4 KiB pages, on CPU 0.  Under TCG such a
 * hop costs about 3 us (a softmmu TLB miss each), so a whole window would
 * keep interrupts off for 11-70 ms (seen before windows were bounded by
 * time): each must end at about 1 ms of TSC and say how many hops it took,
 * and where the walk stops must be where a user space walk of that many
 * hops stops.  Then the whole-window interface (kmod_chase) must still end
 * exactly after windows x loads hops, and a caller without a hops array
 * must get ETIME rather than cycles it would take for 16384 hops.
 *
 * Under TCG the TSC runs in host time, so a window also stretches when the
 * host deschedules QEMU's thread, which nothing in the guest can help (on
 * a loaded host one window took 9.7 ms for 1024 hops, 9.5 us a hop, and
 * one 4.9 ms for 128).  So the test runs on CPU 0 itself (the window then
 * runs in place, with no other vCPU spinning on the IPI in the same host
 * thread) and asks the median window to be within 1.1 ms of TSC (before:
 * 11-70 ms), and every window that ended early to have ended at a look at
 * the TSC, a multiple of 64 hops.
 */
TEST(chase_window, "chase-window", "")
{
	enum { WINDOWS = 16 };
	uint64_t cycles[WINDOWS], sorted[WINDOWS], end, start, total = 0, *perm;
	uint32_t hops[WINDOWS];
	struct pagehop_chase c;
	struct ph_kmod k;
	struct ph_kbuf b;
	cpu_set_t cpu0;
	double ms, med;
	int err, rc = 0;
	bool cut;

	(void)argc;
	(void)argv;
	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	ASSERT_FALSE(sched_setaffinity(0, sizeof(cpu0), &cpu0),
		     "sched_setaffinity CPU 0: %s", strerror(errno));
	open_kmod(&k);
	ASSERT_FALSE(!kmod_has(&k, PAGEHOP_FEAT_CHASE_HOPS),
		     "the module does not offer PAGEHOP_FEAT_CHASE_HOPS");
	err = kmod_alloc_map(&k, 0, PAGEHOP_PAGE_4K, 64 * MiB, &b);
	ASSERT_FALSE(err, "ALLOC+mmap: %s", strerror(-err));
	/* A random cycle through every 64-byte slot, from perm[0]. */
	perm = random_cycle(b.addr, b.length / 64, 64);
	ASSERT_FALSE(!perm, "random_cycle: %s", strerror(errno));
	start = perm[0] * 64;
	free(perm);
	err = kmod_chase_windows(&k, b.id, 0, start, PAGEHOP_CHASE_MAX_LOADS, WINDOWS, cycles, hops,
				 &end);
	ASSERT_FALSE(err, "CHASE: %s", strerror(-err));
	for (int w = 0; w < WINDOWS; w++) {
		total += hops[w];
		ms = (double)cycles[w] / k.info.tsc_khz;
		printf("window %d: %u hops in %" PRIu64 " cycles = %.3f ms of TSC, %.0f ns a hop\n", w,
		       hops[w], cycles[w], ms, cycles[w] * 1e6 / k.info.tsc_khz / hops[w]);
		if (!hops[w] || hops[w] > PAGEHOP_CHASE_MAX_LOADS ||
		    (hops[w] < PAGEHOP_CHASE_MAX_LOADS && hops[w] % 64))
			rc |= fail("window %d says %u hops", w, hops[w]);
	}
	memcpy(sorted, cycles, sizeof(sorted));
	qsort(sorted, WINDOWS, sizeof(sorted[0]), cmp_u64);
	med = (double)sorted[WINDOWS / 2] / k.info.tsc_khz;
	if (med > 1.1)
		rc |= fail("the median window kept interrupts off for %.3f ms of TSC, more than 1 ms", med);
	cut = total < (uint64_t)WINDOWS * PAGEHOP_CHASE_MAX_LOADS;
	if (!cut)
		printf("(every window took all its hops: hops are faster here than 61 ns)\n");
	if (walk(&b, start, total) != end)
		rc |= fail("CHASE ended at 0x%" PRIx64 ", a user space walk of %" PRIu64
			   " hops at 0x%" PRIx64, end, total, walk(&b, start, total));
	else
		printf("%" PRIu64 " hops in all end where user space says; median window %.3f ms, longest %.3f ms\n",
		       total, med, (double)sorted[WINDOWS - 1] / k.info.tsc_khz);

	/* Whole windows: made up to exactly WINDOWS x loads hops. */
	err = kmod_chase(&k, b.id, 0, start, PAGEHOP_CHASE_MAX_LOADS, WINDOWS, cycles, &end);
	total = (uint64_t)WINDOWS * PAGEHOP_CHASE_MAX_LOADS;
	if (err || walk(&b, start, total) != end)
		rc |= fail("kmod_chase: %s, ended at 0x%" PRIx64 ", %" PRIu64 " hops end at 0x%" PRIx64,
			   strerror(-err), end, total, walk(&b, start, total));
	else
		printf("kmod_chase: %" PRIu64 " hops, ends where user space says\n", total);

	/* No hops array: a window ended early cannot be taken for a whole one. */
	memset(&c, 0, sizeof(c));
	c.size = sizeof(c);
	c.id = b.id;
	c.start = start;
	c.loads_per_window = PAGEHOP_CHASE_MAX_LOADS;
	c.windows = 1;
	c.cycles_ptr = (uintptr_t)cycles;
	err = ioctl(k.fd, PAGEHOP_IOC_CHASE, &c) ? errno : 0;
	rc |= expect("CHASE without hops_ptr, a window that must end early", err, cut ? ETIME : 0);
	/* ... nor from a binary built before hops_ptr: the same, 64-byte struct. */
	c.size = offsetof(struct pagehop_chase, hops_ptr);
	err = ioctl(k.fd, PAGEHOP_IOC_CHASE, &c) ? errno : 0;
	rc |= expect("CHASE with the 64-byte struct of the first version", err, cut ? ETIME : 0);
	kmod_unmap_free(&k, &b);
	kmod_close(&k);
	return rc;
}

/* ---- PREFETCH permissions ------------------------------------------------------- */

static int prefetch_errno(int fd, uint32_t op)
{
	struct pagehop_prefetch pf = { .size = sizeof(pf), .op = op, .cpu = 0 };

	return ioctl(fd, PAGEHOP_IOC_PREFETCH, &pf) ? errno : 0;
}

/*
 * prefetch-perm: PREFETCH SET writes an MSR, so like /dev/cpu/N/msr it
 * needs CAP_SYS_RAWIO: without it SET is EPERM before anything else is
 * looked at (so this holds in a guest with no prefetch MSR), while GET
 * still says what it says with it.
 */
TEST(prefetch_perm, "prefetch-perm", "")
{
	int fd = open("/dev/" PAGEHOP_DEVICE_NAME, O_RDWR), get, rc = 0;

	(void)argc;
	(void)argv;
	ASSERT_FALSE(fd < 0, "open: %s", strerror(errno));
	get = prefetch_errno(fd, PAGEHOP_PREFETCH_GET);
	ASSERT_FALSE(cap_set(CAP_SYS_RAWIO, 0, 1), "capset: %s", strerror(errno));
	rc |= expect("PREFETCH SET without CAP_SYS_RAWIO", prefetch_errno(fd, PAGEHOP_PREFETCH_SET),
		     EPERM);
	rc |= expect("PREFETCH GET without CAP_SYS_RAWIO", prefetch_errno(fd, PAGEHOP_PREFETCH_GET),
		     get);
	close(fd);
	return rc;
}

/* prefetch-lockdown: with the kernel locked down, PREFETCH SET is EPERM. */
TEST(prefetch_lockdown, "prefetch-lockdown", "")
{
	int fd = open("/dev/" PAGEHOP_DEVICE_NAME, O_RDWR), rc;

	(void)argc;
	(void)argv;
	ASSERT_FALSE(fd < 0, "open: %s", strerror(errno));
	rc = expect("PREFETCH SET under lockdown, as root", prefetch_errno(fd, PAGEHOP_PREFETCH_SET),
		    EPERM);
	close(fd);
	return rc;
}
