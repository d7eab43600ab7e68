// SPDX-License-Identifier: GPL-2.0-only
/*
 * errors.c - every error path of the ABI, with the errno docs/abi.md
 * gives (kmod_errors.sh), and a command run under RLIMIT_MEMLOCK.
 */
#include "kmodtest.h"

static int err_memlock(int fd);

TEST(err, "err", "CASE")
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

	ASSERT_FALSE(setrlimit(RLIMIT_MEMLOCK, &rl) || cap_set(CAP_IPC_LOCK, 0, 0),
		     "setrlimit or capset: %s", strerror(errno));
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
	ASSERT_FALSE(cap_set(CAP_IPC_LOCK, 1, 0), "capset: %s", strerror(errno));
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
TOOL(limited, "limited", "KB CMD...")
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
