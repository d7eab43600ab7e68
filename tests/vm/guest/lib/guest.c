// SPDX-License-Identifier: GPL-2.0-only
/*
 * guest.c - the helpers guest.h declares, shared by kmodtest and kwalk.
 */
#include "guest.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

const char *const dev_path = "/dev/" PAGEHOP_DEVICE_NAME;

const char *errname(int e)
{
	static const struct { int e; const char *n; } t[] = {
		{ 0, "OK" }, { EINVAL, "EINVAL" }, { ENOMEM, "ENOMEM" }, { E2BIG, "E2BIG" },
		{ EOPNOTSUPP, "EOPNOTSUPP" }, { ENOTTY, "ENOTTY" }, { EFAULT, "EFAULT" },
		{ ENOENT, "ENOENT" }, { EPERM, "EPERM" }, { EACCES, "EACCES" },
		{ EBUSY, "EBUSY" }, { EWOULDBLOCK, "EWOULDBLOCK" }, { ENOSPC, "ENOSPC" }, { EINTR, "EINTR" }, { EIO, "EIO" },
		{ ENXIO, "ENXIO" }, { ENODEV, "ENODEV" },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (t[i].e == e)
			return t[i].n;
	return strerror(e);
}

int errnum(const char *name)
{
	static const char *const names[] = { "EINVAL", "ENOMEM", "E2BIG", "EOPNOTSUPP", "ENOTTY",
					     "EFAULT", "ENOENT", "EPERM", "EACCES", "EBUSY" };
	static const int nums[] = { EINVAL, ENOMEM, E2BIG, EOPNOTSUPP, ENOTTY,
				    EFAULT, ENOENT, EPERM, EACCES, EBUSY };

	for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++)
		if (!strcmp(name, names[i]))
			return nums[i];
	return -1;
}

int expect(const char *what, int got, int want)
{
	if (got != want)
		return fail("%s: got %s, expected %s", what, errname(got), errname(want));
	printf("%s: %s\n", what, errname(want));
	return 0;
}

int xioctl(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) ? errno : 0;
}

int open_dev(void)
{
	int fd = open(dev_path, O_RDWR | O_CLOEXEC);

	if (fd < 0) {
		fail("open %s: %s", dev_path, strerror(errno));
		exit(1);
	}
	return fd;
}

void open_kmod(struct ph_kmod *k)
{
	if (kmod_open(k)) {
		fail("kmod_open: %s", k->why);
		exit(1);
	}
}

int get_info(int fd, struct pagehop_info *info, uint64_t *node_free, uint32_t n)
{
	memset(info, 0, sizeof(*info));
	info->size = sizeof(*info);
	info->node_free_ptr = (uint64_t)(uintptr_t)node_free;
	info->node_free_count = node_free ? n : 0;
	return xioctl(fd, PAGEHOP_IOC_INFO, info);
}

uint64_t pinned_now(void)
{
	struct pagehop_info info;
	int fd = open_dev();

	if (get_info(fd, &info, NULL, 0)) {
		fail("INFO failed");
		exit(1);
	}
	close(fd);
	return info.pinned_bytes;
}

uint64_t parse_bytes(const char *s)
{
	char *end;
	uint64_t v = strtoull(s, &end, 0);

	switch (*end) {
	case 'k': case 'K': return v * KiB;
	case 'm': case 'M': return v * MiB;
	case 'g': case 'G': return v * GiB;
	default: return v;
	}
}

uint32_t parse_ps(const char *s)
{
	if (!strcmp(s, "4k"))
		return PAGEHOP_PAGE_4K;
	if (!strcmp(s, "2m"))
		return PAGEHOP_PAGE_2M;
	if (!strcmp(s, "1g"))
		return PAGEHOP_PAGE_1G;
	fail("page size '%s': expected 4k, 2m or 1g", s);
	exit(2);
}

uint64_t ps_bytes(uint32_t ps)
{
	return ps == PAGEHOP_PAGE_1G ? GiB : ps == PAGEHOP_PAGE_2M ? 2 * MiB : 4 * KiB;
}

uint32_t ps_level(uint32_t ps)
{
	return ps == PAGEHOP_PAGE_1G ? PAGEHOP_LEVEL_PUD :
	       ps == PAGEHOP_PAGE_2M ? PAGEHOP_LEVEL_PMD : PAGEHOP_LEVEL_PTE;
}

uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
}

static uint64_t rng_state = 88172645463325252ULL;

uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

void rnd_seed(uint64_t seed)
{
	rng_state = seed;
}

uint64_t *random_cycle(void *base, uint64_t n, uint64_t stride)
{
	uint64_t *perm = calloc(n, sizeof(*perm));

	if (!perm)
		return NULL;
	for (uint64_t i = 0; i < n; i++)
		perm[i] = i;
	for (uint64_t i = n - 1; i > 0; i--) {
		uint64_t j = rnd() % (i + 1), t = perm[i];

		perm[i] = perm[j];
		perm[j] = t;
	}
	for (uint64_t i = 0; i < n; i++)
		*(uint64_t *)((char *)base + perm[i] * stride) = perm[(i + 1) % n] * stride;
	return perm;
}

uint64_t pagemap_pfn(int pm, const void *addr)
{
	uint64_t e;
	off_t off = (off_t)((uintptr_t)addr / 4096) * 8;

	if (pread(pm, &e, sizeof(e), off) != sizeof(e))
		return 0;
	if (!(e & (1ULL << 63)))
		return 0;
	return e & ((1ULL << 55) - 1);
}

uint64_t pagemap_pfn_once(const void *addr)
{
	int pm = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	uint64_t pfn;

	if (pm < 0)
		return 0;
	pfn = pagemap_pfn(pm, addr);
	close(pm);
	return pfn;
}

long status_kb(const char *key)
{
	FILE *f = fopen("/proc/self/status", "re");
	char line[256];
	size_t n = strlen(key);
	long v = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n) && line[n] == ':')
			v = strtol(line + n + 1, NULL, 10);
	fclose(f);
	return v;
}

void fill_pages(void *addr, uint64_t len, uint64_t seed)
{
	for (uint64_t off = 0; off < len; off += 4096)
		*(volatile uint64_t *)((char *)addr + off) = seed ^ off;
}

int verify(const void *addr, uint64_t len, uint64_t seed)
{
	for (uint64_t off = 0; off < len; off += 4096) {
		uint64_t v = *(const volatile uint64_t *)((const char *)addr + off);

		ASSERT_FALSE(v != (seed ^ off), "offset 0x%" PRIx64 " holds 0x%" PRIx64
			     ", expected 0x%" PRIx64, off, v, seed ^ off);
	}
	return 0;
}

int qlist_add(const struct pagehop_query_entry *e, void *arg)
{
	struct qlist *q = arg;

	if (q->n == q->cap) {
		q->cap = q->cap ? 2 * q->cap : 256;
		q->e = realloc(q->e, q->cap * sizeof(*q->e));
		if (!q->e)
			return -ENOMEM;
	}
	q->e[q->n++] = *e;
	return 0;
}

int query_all(struct ph_kmod *k, const void *addr, uint64_t len, struct qlist *q)
{
	memset(q, 0, sizeof(*q));
	return kmod_query(k, addr, len, qlist_add, q);
}

int cap_set(int cap, int on, int permitted)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2];
	uint32_t bit = 1U << (cap % 32);

	if (syscall(SYS_capget, &h, d))
		return -1;
	if (on)
		d[cap / 32].effective |= bit;
	else
		d[cap / 32].effective &= ~bit;
	if (!on && permitted)
		d[cap / 32].permitted &= ~bit;
	return (int)syscall(SYS_capset, &h, d);
}
