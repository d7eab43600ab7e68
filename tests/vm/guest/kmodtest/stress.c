// SPDX-License-Identifier: GPL-2.0-only
/*
 * stress.c - random ioctls and mmaps (fuzz), threads doing everything at
 * once (stress), and ALLOC whose copy-out faults racing FREE (alloc-race):
 * only ABI errnos, nothing left pinned (kmod_stress.sh).
 */
#include "kmodtest.h"

/* ---- fuzz ------------------------------------------------------------------- */

/* A field value: mostly plausible, sometimes extreme, sometimes garbage. */
static uint64_t fuzz_val(uint64_t plausible)
{
	switch (rnd() % 8) {
	case 0: return 0;
	case 1: return rnd();
	case 2: return ~0ULL;
	case 3: return rnd() % 8;
	default: return plausible;
	}
}

static uint64_t fuzz_len(void)
{
	static const uint64_t lens[] = { 4096, 8192, 64 * KiB, 256 * KiB, 2 * MiB, 4 * MiB, GiB };

	return rnd() % 4 ? lens[rnd() % 6] : fuzz_val(lens[rnd() % 7]);
}

/*
 * fuzz N SEED: N ioctls with random command numbers, struct sizes and field
 * values, mixed with mmaps of random offsets, on two fds.  Each must return
 * 0 or one of the ABI's errnos; afterwards nothing may stay pinned.
 */
TEST(fuzz, "fuzz", "N SEED")
{
	static const int allowed[] = { 0, EINVAL, EFAULT, ENOTTY, ENOENT, E2BIG, ENOMEM,
				       EOPNOTSUPP, ENOSPC, ETIME, EINTR };
	uint8_t buf[512] __attribute__((aligned(8)));
	uint64_t out[4096];
	struct pagehop_query_entry ents[64];
	uint64_t n, i, counts[8] = { 0 }, base = pinned_now();
	uint32_t ids[64] = { 0 };
	int fds[2], rc = 0;

	if (argc < 3)
		return 2;
	n = strtoull(argv[1], NULL, 0);
	rnd_seed(strtoull(argv[2], NULL, 0) | 1);
	fds[0] = open_dev();
	fds[1] = open_dev();
	for (i = 0; i < n; i++) {
		int fd = fds[rnd() % 2], e, j;
		unsigned int nr = rnd() % 4 ? 1 + rnd() % 6 : (unsigned int)(rnd() % 256);
		unsigned int type = rnd() % 16 ? PAGEHOP_IOC_MAGIC : (unsigned int)(rnd() % 256);
		unsigned int dir = rnd() % 4;
		unsigned int usz = (unsigned int)(rnd() % 16 ? 96 : rnd() % 0x4000);
		unsigned long cmd = _IOC(dir, type, nr, usz & 0x3fff);
		uint32_t *w32 = (uint32_t *)buf;
		uint64_t *w64 = (uint64_t *)buf;

		if (rnd() % 50 == 0) {
			/* An mmap of some buffer's offset, any length, any flags. */
			size_t ml = fuzz_len() & 0xffffffff;
			void *p = mmap(NULL, ml, PROT_READ | PROT_WRITE,
				       rnd() % 2 ? MAP_SHARED : MAP_PRIVATE, fd,
				       (off_t)(((uint64_t)ids[rnd() % 64] << 40) +
					       (rnd() % 4 ? 0 : (rnd() % 1024) * 4096)));
			if (p != MAP_FAILED)
				munmap(p, ml);
			continue;
		}
		memset(buf, 0, sizeof(buf));
		for (j = 0; j < 64; j++)
			w64[j] = rnd() % 3 ? 0 : fuzz_val(rnd() % 4096);
		w32[0] = (uint32_t)(rnd() % 8 ? fuzz_val(96) % 200 : rnd());
		switch (nr) {
		case 1: /* INFO: a real array, or a bad pointer */
			if (w32[0] < 64)
				w32[0] = 64;
			w64[3] = rnd() % 2 ? (uintptr_t)out : fuzz_val(0);
			w32[8] = (uint32_t)fuzz_val(rnd() % 5000);
			break;
		case 2: /* ALLOC */
			w32[1] = (uint32_t)fuzz_val(rnd() % 5);
			w32[2] = (uint32_t)fuzz_val(1 + rnd() % 3);
			w64[2] = fuzz_len();
			break;
		case 3: /* FREE */
			w32[1] = rnd() % 4 ? ids[rnd() % 64] : (uint32_t)fuzz_val(1);
			break;
		case 4: /* QUERY: addresses near our own memory, or anywhere */
			w64[1] = rnd() % 2 ? ((uintptr_t)buf & ~4095ULL) : fuzz_val(rnd() << 12);
			w64[2] = fuzz_val((1 + rnd() % 4096) * 4096);
			w64[3] = rnd() % 4 ? (uintptr_t)ents : fuzz_val(0);
			w32[8] = (uint32_t)(rnd() % 4 ? 1 + rnd() % 64 : fuzz_val(0)) % 65;
			break;
		case 5: /* CHASE: bounded so a valid call stays short */
			w32[1] = rnd() % 4 ? ids[rnd() % 64] : (uint32_t)fuzz_val(1);
			w32[2] = (uint32_t)fuzz_val(rnd() % 4);
			w64[2] = fuzz_val((rnd() % 512) * 8);
			w32[6] = (uint32_t)fuzz_val(1 + rnd() % 1000);
			w32[7] = (uint32_t)fuzz_val(1 + rnd() % 64);
			if ((uint64_t)w32[6] * w32[7] > 100000 && w32[6] <= PAGEHOP_CHASE_MAX_LOADS &&
			    w32[7] <= PAGEHOP_CHASE_MAX_WINDOWS)
				w32[7] = 1;
			w64[4] = rnd() % 8 ? (uintptr_t)out : fuzz_val(0);
			break;
		case 6: /* PREFETCH */
			w32[1] = (uint32_t)fuzz_val(1 + rnd() % 2);
			w32[2] = (uint32_t)fuzz_val(rnd() % 4);
			break;
		}
		e = xioctl(fd, cmd, buf);
		if (type == PAGEHOP_IOC_MAGIC && nr == 2 && !e)
			ids[rnd() % 64] = ((struct pagehop_alloc *)buf)->id;
		for (j = 0; j < (int)(sizeof(allowed) / sizeof(allowed[0])); j++)
			if (e == allowed[j])
				break;
		if (j == (int)(sizeof(allowed) / sizeof(allowed[0]))) {
			rc = fail("ioctl #%" PRIu64 " cmd 0x%lx size %u: unexpected %s", i, cmd,
				  w32[0], errname(e));
			break;
		}
		counts[j < 8 ? j : 7]++;
		if (type != PAGEHOP_IOC_MAGIC && e != ENOTTY) {
			rc = fail("foreign ioctl 0x%lx did not give ENOTTY", cmd);
			break;
		}
	}
	close(fds[0]);
	close(fds[1]);
	printf("%" PRIu64 " ioctls: %" PRIu64 " ok, %" PRIu64 " EINVAL, %" PRIu64 " EFAULT, %" PRIu64
	       " ENOTTY, %" PRIu64 " ENOENT, %" PRIu64 " E2BIG, %" PRIu64 " ENOMEM, %" PRIu64
	       " EOPNOTSUPP or ENOSPC\n",
	       i, counts[0], counts[1], counts[2], counts[3], counts[4], counts[5], counts[6],
	       counts[7]);
	if (!rc && i == n && counts[0] == 0)
		rc = fail("no ioctl succeeded: the fuzzer is not reaching the module");
	if (!rc && pinned_now() != base)
		rc = fail("%" PRIu64 " bytes pinned after both fds closed", pinned_now() - base);
	return rc;
}

/* ---- stress ----------------------------------------------------------------- */

struct stress {
	struct ph_kmod *k;
	int nodes, seconds, id;
	uint32_t max_ps;
	uint64_t ops, errors;
	char why[200];
};

static void *stress_thread(void *arg)
{
	struct stress *s = arg;
	struct timespec t0, t;
	uint64_t seed = 0x9e3779b97f4a7c15ULL * (uint64_t)(s->id + 1), x = seed;
	struct ph_kbuf bufs[4] = { 0 };
	struct qlist q;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		int slot = (int)(x % 4), node = (int)((x >> 8) % (uint64_t)s->nodes), err;
		uint32_t ps = PAGEHOP_PAGE_4K + (uint32_t)((x >> 16) % s->max_ps);
		uint64_t len = ps_bytes(ps) * (1 + (x >> 24) % 4);
		struct ph_kbuf *b = &bufs[slot];

		if (!b->addr) {
			err = kmod_alloc_map(s->k, node, ps, len, b);
			if (err == -ENOMEM || err == -E2BIG)
				continue;
			if (err) {
				snprintf(s->why, sizeof(s->why), "ALLOC node %d ps %u: %s", node, ps,
					 errname(-err));
				s->errors++;
				break;
			}
			fill_pages(b->addr, b->length, x);
			b->id |= 0;
			*(uint64_t *)b->addr = x;	/* remember the seed in the buffer */
		} else {
			uint64_t sd = *(uint64_t *)b->addr;

			for (uint64_t off = 4096; off < b->length; off += 4096)
				if (*(uint64_t *)((char *)b->addr + off) != (sd ^ off)) {
					snprintf(s->why, sizeof(s->why), "buffer %u lost its data",
						 b->id);
					s->errors++;
					goto out;
				}
			if ((x >> 32) % 2 == 0) {
				/* QUERY it, and the whole neighbourhood others are changing. */
				if (query_all(s->k, b->addr, b->length, &q) ||
				    check_leaves(&q, b->addr, b->length, ps_level(b->page_size),
						 ps_bytes(b->page_size), b->node)) {
					snprintf(s->why, sizeof(s->why), "QUERY of buffer %u wrong",
						 b->id);
					s->errors++;
					free(q.e);
					goto out;
				}
				free(q.e);
				if (query_all(s->k, (char *)b->addr - 64 * MiB, 128 * MiB, &q) == 0)
					free(q.e);
			}
			kmod_unmap_free(s->k, b);
		}
		s->ops++;
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while (t.tv_sec - t0.tv_sec < s->seconds);
out:
	for (int i = 0; i < 4; i++)
		kmod_unmap_free(s->k, &bufs[i]);
	return NULL;
}

/* stress THREADS SECONDS: threads allocating, mapping, touching, querying, freeing. */
TEST(stress, "stress", "THREADS SECONDS")
{
	struct stress s[16];
	pthread_t th[16];
	struct ph_kmod k;
	int n, secs, rc = 0;
	uint64_t total = 0, base = pinned_now();

	if (argc < 3)
		return 2;
	n = atoi(argv[1]);
	secs = atoi(argv[2]);
	if (n < 1 || n > 16)
		return 2;
	open_kmod(&k);
	for (int i = 0; i < n; i++) {
		memset(&s[i], 0, sizeof(s[i]));
		s[i].k = &k;
		s[i].nodes = (int)k.nr_node_ids;
		s[i].seconds = secs;
		s[i].id = i;
		/* 1 GiB pages are left out: each costs seconds under TCG. */
		s[i].max_ps = kmod_has(&k, PAGEHOP_FEAT_PAGE_2M) ? 2 : 1;
		pthread_create(&th[i], NULL, stress_thread, &s[i]);
	}
	for (int i = 0; i < n; i++) {
		pthread_join(th[i], NULL);
		total += s[i].ops;
		if (s[i].errors)
			rc = fail("thread %d: %s", i, s[i].why);
	}
	kmod_close(&k);
	printf("%d threads, %d s: %" PRIu64 " alloc/map/touch/unmap/free steps\n", n, secs, total);
	if (!rc && total < 100)
		rc = fail("only %" PRIu64 " steps: the stress did not run", total);
	if (!rc && pinned_now() != base)
		rc = fail("%" PRIu64 " bytes still pinned after the stress", pinned_now() - base);
	return rc;
}

/* ---- ALLOC racing FREE ------------------------------------------------------ */

struct race {
	int fd;
	int stop;
	uint64_t frees, freed;
};

static void *race_free(void *arg)
{
	struct race *r = arg;
	struct pagehop_free f = { .size = sizeof(f) };

	while (!__atomic_load_n(&r->stop, __ATOMIC_RELAXED)) {
		for (f.id = 1; f.id <= 4; f.id++) {
			if (!ioctl(r->fd, PAGEHOP_IOC_FREE, &f))
				__atomic_add_fetch(&r->freed, 1, __ATOMIC_RELAXED);
			__atomic_add_fetch(&r->frees, 1, __ATOMIC_RELAXED);
		}
	}
	return NULL;
}

/*
 * alloc-race SECONDS: ALLOC with its struct in a page made read-only after
 * it was filled in, so that the copy-out of the id faults (EFAULT), while
 * two threads FREE ids 1-4 without pause.  No id may ever become visible
 * to them: every FREE is ENOENT (a FREE that succeeds freed a buffer whose
 * ALLOC then fails and drops it again), and nothing stays pinned.
 */
TEST(alloc_race, "alloc-race", "SECONDS")
{
	struct race r = { .fd = open_dev() };
	uint64_t base = pinned_now(), allocs = 0, efault = 0, other = 0;
	struct timespec t0, t;
	struct pagehop_alloc *a;
	pthread_t th[2];
	int secs, rc = 0, e = 0;

	if (argc < 2)
		return 2;
	secs = atoi(argv[1]);
	a = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_FALSE(a == MAP_FAILED, "mmap: %s", strerror(errno));
	*a = (struct pagehop_alloc){ .size = sizeof(*a), .node = 0,
				     .page_size = PAGEHOP_PAGE_4K, .length = 4096 };
	ASSERT_FALSE(mprotect(a, 4096, PROT_READ), "mprotect: %s", strerror(errno));
	for (int i = 0; i < 2; i++)
		pthread_create(&th[i], NULL, race_free, &r);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		for (int i = 0; i < 64; i++, allocs++) {
			e = xioctl(r.fd, PAGEHOP_IOC_ALLOC, a);
			if (e == EFAULT)
				efault++;
			else
				other++;
		}
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while (t.tv_sec - t0.tv_sec < secs);
	__atomic_store_n(&r.stop, 1, __ATOMIC_RELAXED);
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	printf("%" PRIu64 " ALLOCs (%" PRIu64 " EFAULT), %" PRIu64 " FREEs of ids 1-4, %" PRIu64
	       " of them succeeded\n", allocs, efault, r.frees, r.freed);
	if (other)
		rc |= fail("%" PRIu64 " ALLOCs did not fail with EFAULT (last: %s)", other,
			   errname(e));
	if (r.freed)
		rc |= fail("FREE found %" PRIu64 " ids whose ALLOC had not told its caller",
			   r.freed);
	if (r.frees < 1000)
		rc |= fail("only %" PRIu64 " FREEs: the race did not run", r.frees);
	if (pinned_now() != base)
		rc |= fail("%" PRIu64 " bytes pinned with the fd still open", pinned_now() - base);
	close(r.fd);
	EXPECT_FALSE(pinned_now() != base,
		     "%" PRIu64 " bytes pinned after close", pinned_now() - base);
	return rc;
}
