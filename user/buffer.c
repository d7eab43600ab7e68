// SPDX-License-Identifier: GPL-2.0-only
/*
 * buffer.c - allocate measured memory through one of three backends, and
 * read back where it landed.
 */
#include "buffer.h"
#include "topology.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/kernel-page-flags.h>
#include <linux/mman.h>
#include <numa.h>
#include <numaif.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#define PAGE_4K 4096ull

static const char *const backend_names[] = {
	[PH_BACKEND_AUTO] = "auto",
	[PH_BACKEND_KMOD] = "kmod",
	[PH_BACKEND_HUGETLB] = "hugetlb",
	[PH_BACKEND_ANON] = "anon",
};

static const char *const psize_names[] = {
	[PH_PS_4K] = "4K",
	[PH_PS_2M] = "2M",
	[PH_PS_1G] = "1G",
	[PH_PS_THP] = "THP",
};

const char *backend_name(enum ph_backend b)
{
	return b <= PH_BACKEND_ANON ? backend_names[b] : "?";
}

int backend_parse(const char *s, enum ph_backend *out)
{
	for (int b = PH_BACKEND_AUTO; b <= PH_BACKEND_ANON; b++)
		if (!strcmp(s, backend_names[b])) {
			*out = (enum ph_backend)b;
			return 0;
		}
	return -EINVAL;
}

const char *psize_name(enum ph_psize ps)
{
	return ps >= PH_PS_4K && ps < PH_PS_COUNT ? psize_names[ps] : "?";
}

int psize_parse(const char *s, enum ph_psize *out)
{
	for (int p = PH_PS_4K; p < PH_PS_COUNT; p++)
		if (!strcasecmp(s, psize_names[p])) {
			*out = (enum ph_psize)p;
			return 0;
		}
	return -EINVAL;
}

uint64_t psize_bytes(enum ph_psize ps)
{
	switch (ps) {
	case PH_PS_2M:
	case PH_PS_THP:
		return 2 * MiB;
	case PH_PS_1G:
		return GiB;
	default:
		return PAGE_4K;
	}
}

static uint32_t psize_uapi(enum ph_psize ps)
{
	return ps == PH_PS_2M ? PAGEHOP_PAGE_2M : ps == PH_PS_1G ? PAGEHOP_PAGE_1G :
	       PAGEHOP_PAGE_4K;
}

static uint64_t psize_feature(enum ph_psize ps)
{
	return ps == PH_PS_2M ? PAGEHOP_FEAT_PAGE_2M : ps == PH_PS_1G ? PAGEHOP_FEAT_PAGE_1G :
	       ps == PH_PS_4K ? PAGEHOP_FEAT_PAGE_4K : 0;
}

enum ph_backend buffer_auto_backend(const struct ph_kmod *km, enum ph_psize ps)
{
	if (ps != PH_PS_THP && kmod_has(km, psize_feature(ps)))
		return PH_BACKEND_KMOD;
	if (ps == PH_PS_2M || ps == PH_PS_1G)
		return PH_BACKEND_HUGETLB;
	return PH_BACKEND_ANON;
}

enum ph_backend buffer_auto_fallback(enum ph_psize ps, int err)
{
	/*
	 * The module says E2BIG when the buffer is over its pin cap or would
	 * leave the node under its 5% floor, ENOMEM when the node has no
	 * contiguous run of that size: the pages a hugetlb pool already holds
	 * were set aside before either, and anonymous 4K memory needs no run.
	 */
	if (err != -E2BIG && err != -ENOMEM)
		return PH_BACKEND_AUTO;
	switch (ps) {
	case PH_PS_2M:
	case PH_PS_1G:
		return PH_BACKEND_HUGETLB;
	case PH_PS_4K:
		return PH_BACKEND_ANON;
	default:
		return PH_BACKEND_AUTO;
	}
}

/* ---- hugetlb pools ---- */

/*
 * A pool that --reserve grew and the size to put it back to, the latter
 * also as text, so that a signal handler can write it with write(2) alone.
 */
struct grown_pool {
	char path[160];
	uint64_t original;
	char text[24];
	size_t textlen;
};

static struct grown_pool grown[64];
static volatile sig_atomic_t ngrown;

#define RESERVE_LOCK_PARENT "/run"
#define RESERVE_LOCK_DIR RESERVE_LOCK_PARENT "/pagehop"
#define RESERVE_LOCK RESERVE_LOCK_DIR "/reserve.lock"
static int reserve_fd = -1;

static void pool_path(int node, enum ph_psize ps, const char *file, char *out, size_t size)
{
	snprintf(out, size, "/sys/devices/system/node/node%d/hugepages/hugepages-%skB/%s",
		 node, ps == PH_PS_1G ? "1048576" : "2048", file);
}

static int write_u64(const char *path, uint64_t v)
{
	char buf[32];
	int fd = open(path, O_WRONLY | O_CLOEXEC), n, err = 0;

	if (fd < 0)
		return -errno;
	n = snprintf(buf, sizeof(buf), "%llu\n", (unsigned long long)v);
	if (write(fd, buf, (size_t)n) != n)
		err = -errno;
	close(fd);
	return err;
}

static bool cancelled(const volatile sig_atomic_t *cancel)
{
	return cancel && *cancel;
}

static bool perm_error(int err)
{
	return err == -EACCES || err == -EPERM || err == -EROFS;
}

void buffer_restore_pools_now(void)
{
	for (int i = 0; i < ngrown; i++) {
		int fd = open(grown[i].path, O_WRONLY | O_CLOEXEC);

		/* A handler can do nothing more about a failure. */
		if (fd >= 0) {
			ssize_t n = write(fd, grown[i].text, grown[i].textlen);

			(void)n;
			close(fd);
		}
	}
}

void buffer_restore_pools(void)
{
	for (int i = 0; i < ngrown; i++) {
		int err = write_u64(grown[i].path, grown[i].original);

		if (err)
			ph_warn("could not put %s back to %llu: %s", grown[i].path,
				(unsigned long long)grown[i].original, strerror(-err));
	}
	ngrown = 0;
	/* Closing the lock file releases the lock: the next --reserve run may go. */
	if (reserve_fd >= 0)
		close(reserve_fd);
	reserve_fd = -1;
}

/* A crash while a pool is grown: put it back, then die as the signal says. */
static void on_crash(int sig)
{
	buffer_restore_pools_now();
	raise(sig);	/* SA_RESETHAND restored the default action */
}

static void catch_crashes(void)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT };
	static bool done;
	struct sigaction sa = { .sa_handler = on_crash, .sa_flags = SA_RESETHAND }, old;

	if (done)
		return;
	done = true;
	sigemptyset(&sa.sa_mask);
	/* Only where nobody else (a sanitizer) handles the signal already. */
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		if (!sigaction(sigs[i], NULL, &old) && old.sa_handler == SIG_DFL)
			sigaction(sigs[i], &sa, NULL);
}

/*
 * --reserve runs take turns: each holds RESERVE_LOCK (flock) from its first
 * look at a pool until buffer_restore_pools() (or its death) releases it.
 * Otherwise a second run counts the first's growth in the size it restores
 * to, and the pool stays grown; or it takes the pages the first just added.
 * The second run waits rather than fails: runs at once would disturb each
 * other's figures anyway.  It says whom it waits for, and a signal ends the
 * wait.  0, -EINTR, or -errno with why filled.
 */
static int reserve_lock(const volatile sig_atomic_t *cancel, char *why, size_t whylen)
{
	bool said = false;
	int fd, err;

	if (reserve_fd >= 0)
		return 0;
	/* A minimal system (an initramfs) may have no /run yet. */
	if ((mkdir(RESERVE_LOCK_PARENT, 0755) && errno != EEXIST) ||
	    (mkdir(RESERVE_LOCK_DIR, 0755) && errno != EEXIST)) {
		err = -errno;
		goto fail;
	}
	fd = open(RESERVE_LOCK, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0) {
		err = -errno;
		goto fail;
	}
	while (flock(fd, LOCK_EX | LOCK_NB)) {
		if (errno != EWOULDBLOCK && errno != EINTR) {
			err = -errno;
			close(fd);
			goto fail;
		}
		if (cancelled(cancel)) {
			close(fd);
			snprintf(why, whylen, "interrupted while waiting for %s", RESERVE_LOCK);
			return -EINTR;
		}
		if (!said) {
			char pid[24] = "";
			ssize_t n = pread(fd, pid, sizeof(pid) - 1, 0);

			pid[n > 0 ? n : 0] = '\0';
			pid[strcspn(pid, "\n")] = '\0';
			fprintf(stderr, "%s: waiting for pagehop%s%s%s to put the hugetlb pools back (--reserve runs take turns: %s)\n",
				ph_progname(), pid[0] ? " (pid " : "", pid, pid[0] ? ")" : "",
				RESERVE_LOCK);
			said = true;
		}
		usleep(20000);
	}
	if (ftruncate(fd, 0) == 0)
		dprintf(fd, "%d\n", (int)getpid());
	reserve_fd = fd;
	return 0;
fail:
	snprintf(why, whylen, "cannot open the lock %s: %s", RESERVE_LOCK, strerror(-err));
	return err;
}

/* Make sure node has need free pages of ps, growing the pool if allowed. */
static int pool_ensure(int node, enum ph_psize ps, uint64_t need, bool reserve,
		       const volatile sig_atomic_t *cancel, char *why, size_t whylen)
{
	char fpath[160], npath[160], lock_why[256] = "";
	uint64_t free_pages = 0, nr = 0, grow, pb = psize_bytes(ps);
	int err, lock_err = 0, i;

	pool_path(node, ps, "free_hugepages", fpath, sizeof(fpath));
	pool_path(node, ps, "nr_hugepages", npath, sizeof(npath));
	if (!path_exists(npath)) {
		snprintf(why, whylen, "this kernel has no %s hugetlb pool on node %d",
			 psize_name(ps), node);
		return -EOPNOTSUPP;
	}
	/* The lock first: what the pool holds is read by the one run that may change it. */
	if (reserve) {
		lock_err = reserve_lock(cancel, lock_why, sizeof(lock_why));
		if (lock_err == -EINTR) {
			snprintf(why, whylen, "%s", lock_why);
			return lock_err;
		}
	}
	if (read_u64(fpath, &free_pages) || read_u64(npath, &nr)) {
		snprintf(why, whylen, "cannot read node %d's %s hugetlb pool (%s)",
			 node, psize_name(ps), npath);
		return -EOPNOTSUPP;
	}
	if (free_pages >= need)
		return 0;
	grow = need - free_pages;
	if (reserve && ngrown >= (int)ARRAY_SIZE(grown)) {
		snprintf(why, whylen, "node %d: its %s pool is %llu pages short, and --reserve grows at most %zu pools in one run",
			 node, psize_name(ps), (unsigned long long)grow, ARRAY_SIZE(grown));
		return -ENOMEM;
	}
	if (!reserve) {
		snprintf(why, whylen,
			 "node %d has %llu free %s hugepages, %llu needed; reserve them with 'echo %llu > %s' or pass --reserve",
			 node, (unsigned long long)free_pages, psize_name(ps),
			 (unsigned long long)need, (unsigned long long)(nr + grow), npath);
		return -ENOMEM;
	}
	if (lock_err) {
		snprintf(why, whylen, "node %d: its %s pool is %llu pages short, and %s: %s", node,
			 psize_name(ps), (unsigned long long)grow,
			 perm_error(lock_err) ? "growing it (--reserve) needs root" :
			 "--reserve cannot take its lock", lock_why);
		return perm_error(lock_err) ? -EPERM : lock_err;
	}
	/* The pages come out of the node's free memory: keep 5% of it free. */
	{
		long long freeb = 0, size = numa_node_size64(node, &freeb);

		if (size <= 0 || (long long)(grow * pb) > freeb - size / 20) {
			char a[32], b[32], c[32];

			snprintf(why, whylen,
				 "node %d: growing its %s pool by %llu pages (%s) would leave less than 5%% of its %s free (%s free now); free memory on the node, or reserve the pages at boot (hugepagesz=%s hugepages=%d:%llu)",
				 node, psize_name(ps), (unsigned long long)grow,
				 format_size(grow * pb, a, sizeof(a)),
				 format_size((uint64_t)(size > 0 ? size : 0), b, sizeof(b)),
				 format_size((uint64_t)(freeb > 0 ? freeb : 0), c, sizeof(c)),
				 ps == PH_PS_1G ? "1G" : "2M", node, (unsigned long long)need);
			return -ENOMEM;
		}
	}
	for (i = 0; i < ngrown && strcmp(grown[i].path, npath); i++)
		;
	if (i == ngrown) {
		struct grown_pool *g = &grown[i];

		snprintf(g->path, sizeof(g->path), "%s", npath);
		g->original = nr;
		g->textlen = (size_t)snprintf(g->text, sizeof(g->text), "%llu\n",
					      (unsigned long long)nr);
		catch_crashes();
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		ngrown = i + 1;	/* published whole: a handler may read it now */
	}
	err = write_u64(npath, nr + grow);
	if (err) {
		snprintf(why, whylen, "node %d: writing %llu to %s: %s%s", node,
			 (unsigned long long)(nr + grow), npath, strerror(-err),
			 perm_error(err) ? " (growing a hugetlb pool needs root)" : "");
		return perm_error(err) ? -EPERM : err;
	}
	/* The kernel stops growing the pool when a signal comes. */
	if (cancelled(cancel)) {
		snprintf(why, whylen, "interrupted while growing node %d's %s pool", node,
			 psize_name(ps));
		return -EINTR;
	}
	if (!read_u64(fpath, &free_pages) && free_pages >= need)
		return 0;
	snprintf(why, whylen,
		 "node %d: asked the kernel for %llu more %s pages and got %llu free of %llu needed (memory too fragmented; reserve at boot: hugepagesz=%s hugepages=%d:%llu)",
		 node, (unsigned long long)grow, psize_name(ps), (unsigned long long)free_pages,
		 (unsigned long long)need, ps == PH_PS_1G ? "1G" : "2M", node,
		 (unsigned long long)need);
	return -ENOMEM;
}

/* ---- touching memory without dying of SIGBUS ---- */

static sigjmp_buf touch_env;
static volatile sig_atomic_t touching;

static void on_sigbus(int sig)
{
	(void)sig;
	if (touching)
		siglongjmp(touch_env, 1);
	buffer_restore_pools_now();
	signal(SIGBUS, SIG_DFL);
	raise(SIGBUS);
}

/*
 * Write one byte in every page so that every page is allocated now, under the
 * memory policy already set.  A hugetlb fault that finds no page on the
 * bound node raises SIGBUS; that becomes -ENOMEM here instead of a crash.
 * Faulting in 1 GiB of 4K pages takes seconds on a virtual machine: the
 * cancel flag is checked at every page (a load, against a fault), and
 * stops the loop with -EINTR.
 */
static int touch_pages(char *p, uint64_t bytes, uint64_t step,
		       const volatile sig_atomic_t *cancel)
{
	struct sigaction sa = { .sa_handler = on_sigbus }, old;
	volatile uint64_t off = 0;
	int rc = 0;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, &old);
	touching = 1;
	if (sigsetjmp(touch_env, 1)) {
		rc = -ENOMEM;
	} else {
		for (off = 0; off < bytes && !rc; off += step) {
			if (cancelled(cancel))
				rc = -EINTR;
			else
				((volatile char *)p)[off] = 0;
		}
	}
	touching = 0;
	sigaction(SIGBUS, &old, NULL);
	return rc;
}

/* ---- allocation ---- */

static int bind_policy(void *addr, uint64_t len, int node, struct bitmask *interleave)
{
	struct bitmask *bm = interleave;
	int mode = interleave ? MPOL_INTERLEAVE : MPOL_BIND;
	long rc;

	if (!interleave) {
		bm = numa_allocate_nodemask();
		numa_bitmask_setbit(bm, (unsigned)node);
	}
	/* MPOL_MF_STRICT: fail, rather than silently keep pages elsewhere. */
	rc = mbind(addr, len, mode, bm->maskp, bm->size + 1, MPOL_MF_STRICT);
	if (!interleave)
		numa_bitmask_free(bm);
	return rc ? -errno : 0;
}

static int node_free_enough(int node, uint64_t bytes, char *why, size_t whylen)
{
	long long freeb = 0;
	long long size = numa_node_size64(node, &freeb);

	if (size <= 0) {
		snprintf(why, whylen, "node %d has no memory", node);
		return -ENOMEM;
	}
	/* Leave 5% of the node free: measuring must not push it into reclaim. */
	if ((long long)bytes > freeb - size / 20) {
		char a[32], b[32];

		snprintf(why, whylen, "node %d has %s free, %s asked (keeping 5%% of the node free)",
			 node, format_size((uint64_t)(freeb > 0 ? freeb : 0), a, sizeof(a)),
			 format_size(bytes, b, sizeof(b)));
		return -ENOMEM;
	}
	return 0;
}

/*
 * Fault injection for the tests that prove verification catches a wrong
 * placement: PAGEHOP_FAULT_INJECT=node puts the memory on the next node
 * instead of the one asked; =psize backs a 4K request with THP (and a THP
 * request with 4K pages).  Compiled only into the test build
 * (-DPAGEHOP_TEST_HOOKS, BUILD/test/pagehop): the shipping binary has no
 * such variable.
 */
#ifdef PAGEHOP_TEST_HOOKS
static bool fault_inject(const char *what)
{
	const char *v = getenv("PAGEHOP_FAULT_INJECT");

	return v && !strcmp(v, what);
}

static int injected_node(int node)
{
	for (int n = node + 1; n <= numa_max_node() + node; n++) {
		int m = n % (numa_max_node() + 1);
		long long freeb;

		if (numa_bitmask_isbitset(numa_nodes_ptr, (unsigned)m) &&
		    numa_node_size64(m, &freeb) > 0)
			return m;
	}
	return node;
}
#else
static inline bool fault_inject(const char *what)
{
	(void)what;
	return false;
}

static inline int injected_node(int node)
{
	return node;
}
#endif

/* Locked so that it is neither swapped nor migrated while measured. */
static void lock_pages(struct ph_segment *seg)
{
	struct rlimit rl;
	char a[32], b[32];
	int err;

	if (!mlock(seg->addr, seg->bytes))
		return;
	err = errno;
	/* Without CAP_IPC_LOCK, mlock fails past RLIMIT_MEMLOCK (ENOMEM, or EPERM at 0). */
	if ((err == ENOMEM || err == EPERM) && geteuid() != 0 &&
	    !getrlimit(RLIMIT_MEMLOCK, &rl) && rl.rlim_cur != RLIM_INFINITY)
		ph_warn("cannot lock the %s buffer in memory: more than RLIMIT_MEMLOCK allows (ulimit -l: %s); raise 'ulimit -l' or run as root; pages may move while measured",
			format_size(seg->bytes, a, sizeof(a)),
			format_size((uint64_t)rl.rlim_cur, b, sizeof(b)));
	else
		ph_warn("mlock of the %s buffer failed: %s; pages may move while measured",
			format_size(seg->bytes, a, sizeof(a)), strerror(err));
}

static int alloc_mmap(const struct ph_bufreq *rq, int node, struct ph_segment *seg,
		      char *why, size_t whylen)
{
	uint64_t pb = psize_bytes(rq->psize);
	int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
	uint64_t len = seg->bytes;
	char *p;
	int err;

	if (rq->psize == PH_PS_2M || rq->psize == PH_PS_1G) {
		flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB |
			(rq->psize == PH_PS_1G ? MAP_HUGE_1GB : MAP_HUGE_2MB);
		if (!rq->interleave) {
			err = pool_ensure(node, rq->psize, seg->bytes / pb, rq->reserve, rq->cancel,
					  why, whylen);
			if (err)
				return err;
		}
	} else if (rq->psize == PH_PS_THP) {
		char mode[32] = "";

		if (sysfs_choice("/sys/kernel/mm/transparent_hugepage/enabled", mode, sizeof(mode)) ||
		    !strcmp(mode, "never")) {
			snprintf(why, whylen, "THP is %s here (/sys/kernel/mm/transparent_hugepage/enabled)",
				 mode[0] ? mode : "unsupported");
			return -EOPNOTSUPP;
		}
		len += pb;	/* room to align the start to 2 MiB */
	}
	if (!rq->interleave && rq->psize != PH_PS_2M && rq->psize != PH_PS_1G) {
		err = node_free_enough(node, seg->bytes, why, whylen);
		if (err)
			return err;
	}
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, flags, -1, 0);
	if (p == MAP_FAILED) {
		err = -errno;
		snprintf(why, whylen, "mmap of %llu bytes of %s pages: %s",
			 (unsigned long long)len, psize_name(rq->psize), strerror(-err));
		return err == -EINVAL ? -EOPNOTSUPP : err;
	}
	seg->map = p;
	seg->map_len = len;
	seg->addr = rq->psize == PH_PS_THP ?
		(char *)(((uintptr_t)p + pb - 1) & ~(uintptr_t)(pb - 1)) : p;
	if (rq->psize == PH_PS_THP) {
		if (madvise(seg->addr, seg->bytes, MADV_HUGEPAGE)) {
			err = -errno;
			snprintf(why, whylen, "madvise(MADV_HUGEPAGE): %s", strerror(-err));
			return err;
		}
	} else if (rq->psize == PH_PS_4K) {
		/* 4K means 4K: keep khugepaged from collapsing it later. */
		madvise(seg->addr, seg->bytes, MADV_NOHUGEPAGE);
	}
	if (fault_inject("psize"))
		madvise(seg->addr, seg->bytes,
			rq->psize == PH_PS_THP ? MADV_NOHUGEPAGE : MADV_HUGEPAGE);
	if (fault_inject("node"))
		node = injected_node(node);
	err = bind_policy(seg->addr, seg->bytes, node, rq->interleave);
	if (err) {
		snprintf(why, whylen, "mbind to node %d: %s", node, strerror(-err));
		return err;
	}
	err = touch_pages(seg->addr, seg->bytes,
			  rq->psize == PH_PS_THP ? PAGE_4K : psize_bytes(rq->psize), rq->cancel);
	if (err == -EINTR) {
		snprintf(why, whylen, "interrupted while faulting the buffer in");
		return err;
	}
	if (err) {
		snprintf(why, whylen, "no %s page free on node %d when faulting the buffer in",
			 psize_name(rq->psize), node);
		return err;
	}
	lock_pages(seg);
	return 0;
}

static int alloc_kmod(struct ph_kmod *km, const struct ph_bufreq *rq, int node,
		      struct ph_segment *seg, char *why, size_t whylen)
{
	int err;

	if (rq->interleave) {
		snprintf(why, whylen, "--interleave needs --backend anon or hugetlb");
		return -EINVAL;
	}
	if (km->fd < 0) {
		snprintf(why, whylen, "--backend kmod: %s", km->why);
		return -EOPNOTSUPP;
	}
	if (fault_inject("node"))
		node = injected_node(node);
	if (rq->psize == PH_PS_THP || !kmod_has(km, psize_feature(rq->psize))) {
		snprintf(why, whylen, "pagehop.ko cannot map %s pages on this kernel",
			 psize_name(rq->psize));
		return -EOPNOTSUPP;
	}
	err = kmod_alloc_map(km, node, psize_uapi(rq->psize), seg->bytes, &seg->kbuf);
	if (!err) {
		/*
		 * 2M and 1G buffers are mapped at the first touch of each page
		 * (the module's huge_fault): touch them now, so that what is
		 * verified is what will be measured and no fault is timed.
		 */
		seg->addr = seg->kbuf.addr;
		err = touch_pages(seg->addr, seg->bytes, psize_bytes(rq->psize), rq->cancel);
		if (err == -EINTR) {
			snprintf(why, whylen, "interrupted while faulting the buffer in");
			return err;
		}
		if (err) {
			snprintf(why, whylen, "pagehop.ko: faulting in the %s buffer on node %d failed",
				 psize_name(rq->psize), node);
			return err;
		}
		return 0;
	}
	snprintf(why, whylen, "pagehop.ko: %s of %s pages on node %d: %s",
		 format_size(seg->bytes, (char[32]){ 0 }, 32), psize_name(rq->psize),
		 node, kmod_alloc_why(err));
	return err;
}

static void segment_init(struct ph_segment *seg, const struct ph_bufreq *rq, int node,
			 uint64_t bytes, enum ph_backend backend)
{
	uint64_t pb = psize_bytes(rq->psize);

	memset(seg, 0, sizeof(*seg));
	seg->psize = rq->psize;
	seg->node = rq->interleave ? -1 : node;
	seg->bytes = (bytes + pb - 1) / pb * pb;
	seg->backend = backend;
	seg->cancel = rq->cancel;
}

int segment_alloc(struct ph_kmod *km, const struct ph_bufreq *rq, int node,
		  uint64_t bytes, struct ph_segment *seg, char *why, size_t whylen)
{
	enum ph_backend next;
	int err;

	segment_init(seg, rq, node, bytes, rq->backend == PH_BACKEND_AUTO ?
		     buffer_auto_backend(km, rq->psize) : rq->backend);
	if (seg->backend == PH_BACKEND_HUGETLB && rq->psize != PH_PS_2M && rq->psize != PH_PS_1G) {
		snprintf(why, whylen, "--backend hugetlb takes --page-size 2m or 1g");
		return -EINVAL;
	}
	if (seg->backend == PH_BACKEND_ANON && (rq->psize == PH_PS_2M || rq->psize == PH_PS_1G)) {
		snprintf(why, whylen, "--backend anon takes --page-size 4k or thp");
		return -EINVAL;
	}
	if (!rq->interleave && (node < 0 || node > numa_max_node() ||
				!numa_bitmask_isbitset(numa_nodes_ptr, (unsigned)node))) {
		snprintf(why, whylen, "node %d does not exist", node);
		return -EINVAL;
	}
	if (seg->backend != PH_BACKEND_KMOD) {
		err = alloc_mmap(rq, node, seg, why, whylen);
		goto out;
	}
	err = alloc_kmod(km, rq, node, seg, why, whylen);
	next = rq->backend == PH_BACKEND_AUTO ? buffer_auto_fallback(rq->psize, err) :
		PH_BACKEND_AUTO;
	if (next != PH_BACKEND_AUTO) {
		/* --backend auto: what the module would not give, another backend may. */
		char kwhy[200], nwhy[512];

		snprintf(kwhy, sizeof(kwhy), "%s", why);
		segment_free(km, seg);
		segment_init(seg, rq, node, bytes, next);
		err = alloc_mmap(rq, node, seg, nwhy, sizeof(nwhy));
		if (!err)
			snprintf(seg->backend_note, sizeof(seg->backend_note),
				 "--backend auto: %s; took the %s pages from %s instead",
				 kwhy, psize_name(rq->psize),
				 next == PH_BACKEND_HUGETLB ? "the hugetlb pool" : "anonymous memory");
		else if (err == -EINTR)
			snprintf(why, whylen, "%s", nwhy);
		else
			snprintf(why, whylen, "%s; and %s: %s", kwhy, backend_name(next), nwhy);
	}
	/* Over the module's cap or floor is one more way to be short of memory. */
	if (err == -E2BIG)
		err = -ENOMEM;
out:
	if (err)
		segment_free(km, seg);
	return err;
}

void segment_free(struct ph_kmod *km, struct ph_segment *seg)
{
	if (seg->kbuf.addr)
		kmod_unmap_free(km, &seg->kbuf);
	if (seg->map)
		munmap(seg->map, seg->map_len);
	free(seg->found.node_bytes);
	memset(seg, 0, sizeof(*seg));
}

/* ---- verification ---- */

static void placement_init(struct ph_placement *pl)
{
	free(pl->node_bytes);
	memset(pl, 0, sizeof(*pl));
	pl->nr_nodes = numa_max_node() + 1;
	pl->node_bytes = xcalloc((size_t)pl->nr_nodes, sizeof(uint64_t));
}

static void account_node(struct ph_placement *pl, int node, uint64_t bytes)
{
	if (node >= 0 && node < pl->nr_nodes)
		pl->node_bytes[node] += bytes;
	else
		pl->other_bytes += bytes;
}

struct query_ctx {
	struct ph_placement *pl;
	uint64_t holes;
	const volatile sig_atomic_t *cancel;
};

static int query_cb(const struct pagehop_query_entry *e, void *arg)
{
	struct query_ctx *c = arg;

	if (cancelled(c->cancel))
		return -EINTR;
	switch (e->level) {
	case PAGEHOP_LEVEL_PTE:
		c->pl->psize_bytes[PH_PS_4K] += e->length;
		break;
	case PAGEHOP_LEVEL_PMD:
		c->pl->psize_bytes[PH_PS_2M] += e->length;
		break;
	case PAGEHOP_LEVEL_PUD:
		c->pl->psize_bytes[PH_PS_1G] += e->length;
		break;
	default:
		c->holes += e->length;
		return 0;
	}
	account_node(c->pl, e->node, e->length);
	return 0;
}

static int verify_query(struct ph_kmod *km, struct ph_segment *seg, struct ph_placement *pl)
{
	struct query_ctx c = { .pl = pl, .cancel = seg->cancel };
	int err = kmod_query(km, seg->addr, seg->bytes, query_cb, &c);

	snprintf(pl->method, sizeof(pl->method), "QUERY (pagehop.ko page-table walk)");
	pl->complete = !err && !c.holes;
	return err;
}

/*
 * KernelPageSize of the mapping that contains addr, from /proc/self/smaps,
 * in bytes; 0 if not found.  For hugetlb this is the size the mapping was
 * made with, which every page in it has.
 */
static uint64_t smaps_kernel_page_size(const void *addr)
{
	FILE *f = fopen("/proc/self/smaps", "re");
	char line[512];
	uintptr_t a = (uintptr_t)addr;
	bool in = false;
	uint64_t kb = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;
		unsigned long long v;

		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' ')) {
			in = a >= lo && a < hi;
			continue;
		}
		if (in && sscanf(line, "KernelPageSize: %llu kB", &v) == 1) {
			kb = v;
			break;
		}
	}
	fclose(f);
	return kb * 1024;
}

/*
 * Without the module: the node of every 4 KiB page through move_pages(), and
 * the size of the page behind it through /proc/self/pagemap (the frame) and
 * /proc/kpageflags (KPF_HUGE for hugetlb, KPF_THP for THP).  Needs root for
 * the frame numbers, as pagehop does anyway: a present page without one
 * (pagemap hides them from callers without CAP_SYS_ADMIN) is -EPERM.  Reading
 * back 1 GiB of 4K pages takes seconds: the cancel flag is checked per batch.
 */
static int verify_procfs(struct ph_segment *seg, struct ph_placement *pl)
{
	enum { BATCH = 4096 };
	uint64_t npages = seg->bytes / PAGE_4K;
	void *pages[BATCH];
	int status[BATCH];
	uint64_t pm[BATCH], flags[BATCH];
	uint64_t huge_size = 0;
	int pmfd, kfd, err = 0;

	snprintf(pl->method, sizeof(pl->method), "move_pages + pagemap/kpageflags/smaps");
	pmfd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	kfd = open("/proc/kpageflags", O_RDONLY | O_CLOEXEC);
	if (pmfd < 0 || kfd < 0) {
		err = -errno;
		goto out;
	}
	pl->complete = true;
	for (uint64_t first = 0; first < npages; first += BATCH) {
		uint64_t n = npages - first < BATCH ? npages - first : BATCH;
		off_t pmoff = (off_t)(((uintptr_t)seg->addr / PAGE_4K + first) * 8);

		if (cancelled(seg->cancel)) {
			err = -EINTR;
			goto out;
		}
		for (uint64_t i = 0; i < n; i++)
			pages[i] = (char *)seg->addr + (first + i) * PAGE_4K;
		if (move_pages(0, n, pages, NULL, status, 0)) {
			err = -errno;
			goto out;
		}
		if (pread(pmfd, pm, n * 8, pmoff) != (ssize_t)(n * 8)) {
			err = -EIO;
			goto out;
		}
		for (uint64_t i = 0; i < n;) {
			/* Read kpageflags for a run of consecutive frames at once. */
			uint64_t pfn = pm[i] & ((1ull << 55) - 1), run = 1;
			bool present = pm[i] >> 63;

			if (present && !pfn) {
				err = -EPERM;
				goto out;
			}
			if (!present) {
				pl->complete = false;
				pl->other_bytes += PAGE_4K;
				i++;
				continue;
			}
			while (i + run < n && (pm[i + run] >> 63) &&
			       (pm[i + run] & ((1ull << 55) - 1)) == pfn + run)
				run++;
			if (pread(kfd, flags, run * 8, (off_t)(pfn * 8)) != (ssize_t)(run * 8)) {
				err = -EIO;
				goto out;
			}
			for (uint64_t r = 0; r < run; r++) {
				uint64_t f = flags[r];
				enum ph_psize ps = PH_PS_4K;

				/*
				 * kpageflags tells hugetlb (KPF_HUGE) from THP from
				 * small pages, not 2M from 1G: that comes from the
				 * mapping's KernelPageSize in smaps.
				 */
				if (f & (1ull << KPF_HUGE)) {
					if (!huge_size)
						huge_size = smaps_kernel_page_size(seg->addr);
					ps = huge_size == GiB ? PH_PS_1G :
					     huge_size == 2 * MiB ? PH_PS_2M : PH_PS_COUNT;
				} else if (f & (1ull << KPF_THP)) {
					ps = PH_PS_THP;
				}
				if (ps == PH_PS_COUNT)
					pl->other_bytes += PAGE_4K;
				else
					pl->psize_bytes[ps] += PAGE_4K;
				if (status[i + r] < 0) {
					pl->complete = false;
					pl->other_bytes += PAGE_4K;
				} else {
					account_node(pl, status[i + r], PAGE_4K);
				}
			}
			i += run;
		}
	}
out:
	if (pmfd >= 0)
		close(pmfd);
	if (kfd >= 0)
		close(kfd);
	if (err)
		pl->complete = false;
	return err;
}

int buffer_verify_ready(const struct ph_kmod *km, char *why, size_t whylen)
{
	int fd, err;

	if (kmod_has(km, PAGEHOP_FEAT_QUERY))
		return 0;
	fd = open("/proc/kpageflags", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	err = -errno;
	snprintf(why, whylen, "reading back where the memory is needs root (CAP_SYS_ADMIN): /proc/kpageflags: %s%s",
		 strerror(-err), km->present ? "; /dev/pagehop needs root too" : "");
	return err;
}

int segment_verify(struct ph_kmod *km, struct ph_segment *seg,
		   const struct bitmask *interleave)
{
	struct ph_placement found = { 0 }, *pl = &found;
	uint64_t want_ps_bytes, node_ok = 0, len;
	enum ph_psize want = seg->psize;
	char found_nodes[128] = "", sizes[128] = "", asked[32];
	int err;

	placement_init(pl);
	if (kmod_has(km, PAGEHOP_FEAT_QUERY))
		err = verify_query(km, seg, pl);
	else
		err = verify_procfs(seg, pl);
	/* Interrupted: what was found before stands, half a read-back is not. */
	if (err == -EINTR) {
		free(pl->node_bytes);
		return err;
	}
	free(seg->found.node_bytes);
	seg->found = found;
	pl = &seg->found;
	/*
	 * QUERY sees a THP as a PMD leaf like any 2 MiB mapping; in anonymous
	 * memory a PMD leaf can only be a THP, so it is counted as one.
	 */
	if (seg->backend == PH_BACKEND_ANON && !strncmp(pl->method, "QUERY", 5)) {
		pl->psize_bytes[PH_PS_THP] += pl->psize_bytes[PH_PS_2M];
		pl->psize_bytes[PH_PS_2M] = 0;
	}
	want_ps_bytes = pl->psize_bytes[want];
	for (int n = 0; n < pl->nr_nodes; n++) {
		bool member = interleave ? numa_bitmask_isbitset(interleave, (unsigned)n) :
			n == seg->node;

		if (member)
			node_ok += pl->node_bytes[n];
		if (pl->node_bytes[n]) {
			len = strlen(found_nodes);
			snprintf(found_nodes + len, sizeof(found_nodes) - len, "%s%d:%lluM",
				 len ? "," : "", n, (unsigned long long)(pl->node_bytes[n] / MiB));
		}
	}
	seg->verified = !err && pl->complete && want_ps_bytes == seg->bytes &&
		node_ok == seg->bytes;
	for (int p = PH_PS_4K; p < PH_PS_COUNT; p++) {
		if (!pl->psize_bytes[p])
			continue;
		len = strlen(sizes);
		snprintf(sizes + len, sizeof(sizes) - len, "%s%s:%lluM", len ? "," : "",
			 psize_name((enum ph_psize)p),
			 (unsigned long long)(pl->psize_bytes[p] / MiB));
	}
	if (seg->node >= 0)
		snprintf(asked, sizeof(asked), "node %d", seg->node);
	else
		snprintf(asked, sizeof(asked), "the interleave nodes");
	if (err)
		snprintf(seg->verify_msg, sizeof(seg->verify_msg),
			 "could not read the buffer back (%s): %s%s", pl->method, strerror(-err),
			 perm_error(err) ? " (needs root: CAP_SYS_ADMIN)" : "");
	else if (seg->verified)
		snprintf(seg->verify_msg, sizeof(seg->verify_msg),
			 "%llu MiB of %s pages on node(s) %s (%s)",
			 (unsigned long long)(seg->bytes / MiB), psize_name(want),
			 found_nodes, pl->method);
	else
		snprintf(seg->verify_msg, sizeof(seg->verify_msg),
			 "asked %llu MiB of %s pages on %s; found pages %s on nodes %s%s (%s)",
			 (unsigned long long)(seg->bytes / MiB), psize_name(want), asked,
			 sizes[0] ? sizes : "none", found_nodes[0] ? found_nodes : "none",
			 pl->complete ? "" : ", some pages not mapped", pl->method);
	return err;
}
