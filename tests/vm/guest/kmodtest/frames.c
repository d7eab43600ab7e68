// SPDX-License-Identifier: GPL-2.0-only
/*
 * frames.c - one allocation, three translations (PAGEHOP_MMAP_XLATE): the
 * views of a buffer by smaller leaves show its frames, and a PTE view
 * keeps a 1 GiB buffer alive (kmod_frames.sh).
 */
#include "kmodtest.h"

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

	ASSERT_FALSE(query_all(k, view, b->length, &q),
		     "QUERY of the %s view failed", xlate == PAGEHOP_PAGE_4K ? "PTE" : "PMD");
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

		ASSERT_FALSE(v != (seed ^ off),
			     "%s: offset 0x%" PRIx64 " reads 0x%" PRIx64 ", expected 0x%" PRIx64,
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
TEST(frames, "frames", "NODE SIZE")
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
	ASSERT_FALSE(!kmod_has(&k, PAGEHOP_FEAT_MAP_XLATE), "INFO: no PAGEHOP_FEAT_MAP_XLATE");
	err = kmod_alloc_map(&k, node, ps, ps == PAGEHOP_PAGE_1G ? GiB : 4 * MiB, &b);
	if (err == -ENOMEM && ps == PAGEHOP_PAGE_1G) {
		printf("ENOMEM: no free aligned GiB on node %d now\n", node);
		return 0;
	}
	ASSERT_FALSE(err, "ALLOC %s on node %d: %s", argv[2], node, errname(-err));
	view[ps] = b.addr;
	for (uint32_t x = PAGEHOP_PAGE_4K; x < ps; x++)
		ASSERT_FALSE(!(view[x] = kmod_map_view(&k, &b, x)),
			     "mmap of the %s view: %s", names[x], errname(errno));
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

	ASSERT_FALSE(query_all(&k, view[ps], b.length, &nat), "QUERY of the native mapping failed");
	rc |= check_leaves(&nat, view[ps], b.length, ps_level(ps), ps_bytes(ps), node);
	for (uint32_t x = PAGEHOP_PAGE_4K; !rc && x <= ps; x++)
		rc |= check_view(&k, &b, &nat, view[x], x);
	free(nat.e);
	for (uint32_t x = PAGEHOP_PAGE_4K; x < ps; x++)
		munmap(view[x], b.length);
	kmod_unmap_free(&k, &b);
	kmod_close(&k);
	EXPECT_FALSE(pinned_now() != base,
		     "%" PRIu64 " bytes still pinned after munmap and close",
		     pinned_now() - base);
	return rc;
}

/* frames-1g NODE: frames NODE 1g, for a caller that tries node after node. */
TEST(frames_1g, "frames-1g", "NODE")
{
	char *args[] = { argv[0], argc > 1 ? argv[1] : NULL, "1g", NULL };

	return argc < 2 ? 2 : test_frames(3, args);
}

/*
 * frames-life NODE: a 1 GiB buffer seen only through 4 KiB PTEs keeps its
 * frames while the view exists: after FREE and close the view still reads
 * what was written and the GiB stays pinned; mremap cannot grow it, may
 * move it only to a 1 GiB-aligned address, after which the old address
 * faults and the new one has the same frames (QUERY, level PTE); fork
 * gives the child nothing, MADV_DOFORK is refused; munmap frees the GiB.
 */
TEST(frames_life, "frames-life", "NODE")
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
	ASSERT_FALSE(err, "ALLOC 1g on node %d: %s", node, errname(-err));
	pte = kmod_map_view(&k, &b, PAGEHOP_PAGE_4K);
	ASSERT_FALSE(!pte, "mmap of the PTE view: %s", errname(errno));
	fill_at(pte, GiB, 0xfee1);
	ASSERT_FALSE(query_all(&k, pte, GiB, &q) || check_leaves(&q, pte, GiB, PAGEHOP_LEVEL_PTE, 4096, node),
		     "the PTE view is not PTEs on node %d", node);
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
	ASSERT_FALSE(n == MAP_FAILED, "mmap: %s", strerror(errno));
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
	ASSERT_FALSE(query_all(&k2, pte, GiB, &q) || check_leaves(&q, pte, GiB, PAGEHOP_LEVEL_PTE, 4096, node),
		     "the moved PTE view is not PTEs on node %d", node);
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
TEST(frames_refused, "frames-refused", "")
{
	struct ph_kmod k;
	struct ph_kbuf b;
	int rc = 0, err;
	void *n;

	(void)argc;
	(void)argv;
	open_kmod(&k);
	ASSERT_FALSE(!kmod_has(&k, PAGEHOP_FEAT_MAP_XLATE), "INFO: no PAGEHOP_FEAT_MAP_XLATE");
	err = kmod_alloc_map(&k, 0, PAGEHOP_PAGE_4K, 4 * MiB, &b);
	ASSERT_FALSE(err, "ALLOC 4k: %s", errname(-err));
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
