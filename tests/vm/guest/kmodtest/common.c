// SPDX-License-Identifier: GPL-2.0-only
/*
 * common.c - the checks several kmodtest files share: QUERY leaves against
 * what was allocated, move_pages and pagemap, zeroed pages, raw ALLOC and
 * FREE, capabilities, VmPin, reads of addresses that may be unmapped,
 * CHASE over a buffer, reaping children.
 */
#include "kmodtest.h"

/*
 * [addr, addr + len) must be covered, in order and without gaps, by leaves
 * of the given level on the given node, each aligned to its size.
 */
int check_leaves(const struct qlist *q, const void *addr, uint64_t len,
		 uint32_t level, uint64_t leaf, int node)
{
	uint64_t a = (uint64_t)(uintptr_t)addr;

	for (size_t i = 0; i < q->n; i++) {
		const struct pagehop_query_entry *e = &q->e[i];

		ASSERT_FALSE(e->addr != a, "QUERY entry %zu at 0x%" PRIx64 ", expected 0x%" PRIx64,
			     i, (uint64_t)e->addr, a);
		ASSERT_FALSE(e->level != level || e->length != leaf,
			     "QUERY entry %zu at 0x%" PRIx64 ": level %u length %" PRIu64
			     ", expected level %u length %" PRIu64,
			     i, a, e->level, (uint64_t)e->length, level, leaf);
		ASSERT_FALSE(e->node != node,
			     "QUERY entry %zu at 0x%" PRIx64 ": node %d, expected %d",
			     i, a, e->node, node);
		ASSERT_FALSE(e->pfn % (leaf / 4096),
			     "QUERY entry %zu: pfn 0x%" PRIx64 " not aligned to the leaf",
			     i, (uint64_t)e->pfn);
		a += leaf;
	}
	ASSERT_FALSE(a != (uint64_t)(uintptr_t)addr + len,
		     "QUERY covered up to 0x%" PRIx64 ", expected 0x%" PRIx64, a,
		     (uint64_t)(uintptr_t)addr + len);
	return 0;
}

/* 4 KiB pages: move_pages and pagemap agree with QUERY, page by page. */
int check_4k_second_path(const struct qlist *q, int node)
{
	void **pages = calloc(q->n, sizeof(*pages));
	int *status = calloc(q->n, sizeof(*status));
	int pm = open("/proc/self/pagemap", O_RDONLY), rc = 0;

	ASSERT_FALSE(!pages || !status || pm < 0,
		     "setup for move_pages/pagemap: %s", strerror(errno));
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
int check_zero(const struct ph_kbuf *b)
{
	const uint64_t *w = b->addr;
	uint64_t n = b->length / 8;

	if (b->length <= 64 * MiB) {
		for (uint64_t i = 0; i < n; i++)
			ASSERT_FALSE(w[i], "word %" PRIu64 " is 0x%" PRIx64 ", not zero", i, w[i]);
		return 0;
	}
	for (uint64_t i = 0; i < n; i += 512)
		ASSERT_FALSE(w[i] || w[i + 511], "page at word %" PRIu64 " not zeroed", i);
	return 0;
}

int alloc_raw(int fd, uint32_t node, uint32_t ps, uint64_t len, struct pagehop_alloc *a)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->node = node;
	a->page_size = ps;
	a->length = len;
	return xioctl(fd, PAGEHOP_IOC_ALLOC, a);
}

int free_raw(int fd, uint32_t id)
{
	struct pagehop_free f = { .size = sizeof(f), .id = id };

	return xioctl(fd, PAGEHOP_IOC_FREE, &f);
}

/* Drop CAP_SYS_ADMIN from the effective and permitted sets, stay uid 0. */
int drop_sys_admin(void)
{
	return cap_set(CAP_SYS_ADMIN, 0, 1);
}

/* VmPin of /proc/self/status in bytes (the kernel's mm->pinned_vm), or -1. */
int64_t vmpin_bytes(void)
{
	long kb = status_kb("VmPin");

	return kb < 0 ? -1 : (int64_t)kb * 1024;
}

int expect_vmpin(const char *when, int64_t want)
{
	int64_t got = vmpin_bytes();

	ASSERT_FALSE(got != want,
		     "%s: VmPin %" PRId64 " kB, expected %" PRId64 " kB", when, got / 1024,
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
int probe_read(const void *addr, uint64_t *val)
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
int expect_unmapped(const char *what, const void *addr, uint64_t len, uint64_t page)
{
	for (uint64_t off = 0; off < len; off += page) {
		uint64_t v = 0;
		int sig = probe_read((const char *)addr + off, &v);

		ASSERT_FALSE(sig != SIGSEGV,
			     "%s: %p+0x%" PRIx64 " %s%s 0x%" PRIx64, what, addr, off,
			     sig ? strsignal(sig) : "still reads", sig ? "," : "", v);
	}
	printf("%s: SIGSEGV on every page\n", what);
	return 0;
}

/* Open the device in a child after dropping privileges; the child's errno. */
int open_as(int how)
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

/*
 * QUERY [addr, addr + len) and check it is leaves of page size ps on node
 * whose PFNs are pfns[] (a page each), or fill pfns[] if want is 0.
 */
int same_leaves(struct ph_kmod *k, const void *addr, uint64_t len, uint32_t ps,
		int node, uint64_t *pfns, int want, const char *when)
{
	struct qlist q;
	int rc;

	ASSERT_FALSE(query_all(k, addr, len, &q), "%s: QUERY failed", when);
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
 * The checks of chase SIZE NODE (chase.c), and of gig, on a mapped buffer:
 * a random cycle through slots 64 bytes apart across the whole buffer;
 * CHASE must walk it (end offset = where userspace computes)
 * and report a positive cycle count per window; a hop out of the buffer
 * and a misaligned start must be EINVAL.
 */
int chase_checks(struct ph_kmod *kp, struct ph_kbuf *bp)
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
	perm = random_cycle(b.addr, nslots, stride);
	ASSERT_FALSE(!perm, "random_cycle: %s", strerror(errno));

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

/* ---- fork after MADV_DOFORK ------------------------------------------------ */

/* Wait for every child (also those adopted as subreaper); 0 if all exited 0. */
int reap_all(const char *who)
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
