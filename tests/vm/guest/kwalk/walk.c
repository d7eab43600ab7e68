// SPDX-License-Identifier: GPL-2.0-only
/*
 * walk.c - QUERY over a large, mostly empty range: each call and a SIGKILL
 * during one end within a bound, the walk makes progress, and what it
 * reports is where the pages are (pagemap, move_pages).
 */
#include "kwalk.h"

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
