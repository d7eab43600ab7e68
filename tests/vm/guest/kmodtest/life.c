// SPDX-License-Identifier: GPL-2.0-only
/*
 * life.c - buffer lifetimes: fds and mappings keep a buffer alive; fork,
 * MADV_DOFORK, mremap, munmap, FREE while mapped; VmPin follows the
 * buffers; rmmod is refused while one exists (kmod_life.sh).
 */
#include "kmodtest.h"

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
	ASSERT_FALSE(n == MAP_FAILED, "mmap: %s", strerror(errno));
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
	ASSERT_FALSE(pinned_now() != base, "%" PRIu64 " bytes still pinned after munmap and close",
		     pinned_now() - base);
	rc |= expect_unmapped("the old address after munmap and close", old, len, pb);
	rc |= expect_unmapped("the new address after munmap and close", dst, len / 2, pb);
	return rc;
}

TEST(life, "life", "CASE SIZE [NODE]")
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
	ASSERT_FALSE(err, "ALLOC+mmap on node %d: %s", node, errname(-err));
	fill_pages(b.addr, b.length, 0xabcdef);

	if (!strcmp(w, "close-then-touch")) {
		/* The fd goes; the mapping keeps the buffer; munmap frees it. */
		kmod_close(&k);
		rc |= verify(b.addr, len, 0xabcdef);
		fill_pages(b.addr, b.length, 0x123);
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
		ASSERT_FALSE(waitpid(pid, &st, 0) != pid, "waitpid: %s", strerror(errno));
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
		ASSERT_FALSE(query_all(&k, b.addr, len, &q), "QUERY failed");
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
	EXPECT_FALSE(pinned_now() != base,
		     "%" PRIu64 " bytes still pinned at the end", pinned_now() - base);
	return rc;
}

/*
 * hold MODE FIFO: keep a buffer alive (MODE fd: open fd; map: mapping only,
 * fd closed) and write "ready" to FIFO, then wait to be killed.
 */
TOOL(hold, "hold", "fd|map FIFO")
{
	struct ph_kmod k;
	struct ph_kbuf b;
	int err, f;

	if (argc < 3)
		return 2;
	open_kmod(&k);
	err = kmod_alloc_map(&k, 0, PAGEHOP_PAGE_4K, MiB, &b);
	ASSERT_FALSE(err, "ALLOC: %s", errname(-err));
	if (!strcmp(argv[1], "map"))
		kmod_close(&k);
	f = open(argv[2], O_WRONLY);
	ASSERT_FALSE(f < 0 || write(f, "ready\n", 6) != 6, "fifo: %s", strerror(errno));
	close(f);
	for (;;)
		pause();
}

/*
 * rmmod-busy: delete_module(2) of pagehop while something holds a buffer
 * must be refused, and the module stay.  Linux says EWOULDBLOCK (= EAGAIN)
 * for a module whose reference count is not zero.
 */
TEST(rmmod_busy, "rmmod-busy", "")
{
	int e;

	(void)argc;
	(void)argv;
	e = syscall(SYS_delete_module, "pagehop", O_NONBLOCK) ? errno : 0;
	ASSERT_FALSE(access("/sys/module/pagehop", F_OK), "the module went away");
	return expect("delete_module with a buffer alive", e, EWOULDBLOCK);
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
	ASSERT_FALSE(kmod_alloc_map(&k, node, ps, len, &b), "ALLOC+mmap on node %d", node);
	fill_pages(b.addr, b.length, 0xd0f0);
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
	ASSERT_FALSE(pipe(to_owner) || pipe(to_child), "pipe: %s", strerror(errno));
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
		fill_pages(b.addr, b.length, 0xc41d);
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
	ASSERT_FALSE(read(to_owner[0], &c, 1) != 1, "the child died before writing");
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
TEST(dofork, "dofork", "SIZE [NODE]")
{
	uint64_t base = pinned_now();
	uint32_t ps;
	int node, rc;
	pid_t pid;

	if (argc < 2)
		return 2;
	ps = parse_ps(argv[1]);
	node = argc > 2 ? atoi(argv[2]) : 1;
	ASSERT_FALSE(prctl(PR_SET_CHILD_SUBREAPER, 1),
		     "PR_SET_CHILD_SUBREAPER: %s", strerror(errno));
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
TEST(vmpin, "vmpin", "SIZE")
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
	ASSERT_FALSE(pin0 < 0, "no VmPin in /proc/self/status");
	open_kmod(&k);
	ASSERT_FALSE(kmod_alloc_map(&k, 1, ps, len, &b), "ALLOC+mmap");
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
