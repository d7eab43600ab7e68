// SPDX-License-Identifier: GPL-2.0-only
/*
 * chase.c - CHASE windows end at about 1 ms of TSC and say how many hops
 * they took; PREFETCH SET needs CAP_SYS_RAWIO and is refused under
 * lockdown.
 */
#include "kwalk.h"

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
