// SPDX-License-Identifier: GPL-2.0-only
/*
 * chase.c - CHASE walks the cycle userspace built, over each page size
 * (1 GiB with its placement and lifetimes, in gig), PREFETCH without the
 * MSRs, and the reference chain order of pagehop pages.
 */
#include "kmodtest.h"

TEST(chase, "chase", "SIZE NODE")
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
	ASSERT_FALSE(err, "ALLOC+mmap: %s", errname(-err));
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
TEST(gig, "gig", "NODE")
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
	ASSERT_FALSE(err, "ALLOC+mmap of 1 GiB on node %d: %s", node, errname(-err));
	ASSERT_FALSE((uintptr_t)b.addr % GiB, "mapped at %p, not 1 GiB aligned", b.addr);
	rc |= check_zero(&b);
	if (pinned_now() != base + len)
		rc |= fail("INFO pinned %" PRIu64 ", expected %" PRIu64, pinned_now(), base + len);
	rc |= expect_vmpin("after ALLOC of 1 GiB", pin0 + (int64_t)len);
	rc |= chase_checks(&k, &b);
	fill_pages(b.addr, b.length, 0x1961);
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
	ASSERT_FALSE(pinned_now() != base, "munmap did not release the buffer");
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
TEST(prefetch, "prefetch", "")
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
	EXPECT_FALSE(pf.disable != orig,
		     "close did not restore: 0x%" PRIx64 " vs 0x%" PRIx64, (uint64_t)pf.disable, orig);
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
TOOL(chain_order, "chain-order", "SIZE SEED")
{
	struct chase_spec spec = { .pattern = CHASE_RANDOM };
	uint64_t bytes, hops = 0, h = 0xcbf29ce484222325ull;
	char *buf, *p;
	void *start;
	int64_t n;

	if (argc < 3)
		return 2;
	bytes = parse_bytes(argv[1]);
	spec.seed = strtoull(argv[2], NULL, 0);
	buf = aligned_alloc(4096, bytes);
	ASSERT_FALSE(!buf, "aligned_alloc %" PRIu64 ": %s", bytes, strerror(errno));
	n = chase_build(buf, bytes, &spec, &start, NULL);
	ASSERT_FALSE(n != (int64_t)(bytes / 64),
		     "chase_build over %" PRIu64 " bytes: %" PRId64, bytes, n);
	printf("%" PRId64 " hops from +0x0:", n);
	p = buf;
	do {
		uint64_t off = (uint64_t)(p - buf);

		ASSERT_FALSE(off >= bytes || hops >= (uint64_t)n,
			     "the chain leaves the buffer or is not one cycle at hop %" PRIu64, hops);
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
