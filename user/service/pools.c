// SPDX-License-Identifier: GPL-2.0-only
/*
 * pools.c - the hugetlb pools of 2M and 1G pages: make sure a node's pool
 * holds what a buffer needs, grow it for --reserve under a lock that runs
 * take in turn, and put it back (at exit, or from a crash's signal handler).
 */
#include "pools.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <numa.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

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

void pools_restore_now(void)
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

void pools_restore(void)
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

/*
 * Catch sig with sa only where nobody else handles it already (a sanitizer
 * catches the crashes) and it is not ignored: a signal ignored on entry
 * (nohup, a parent's choice) stays ignored.
 */
static void catch_if_default(int sig, const struct sigaction *sa)
{
	struct sigaction old;

	if (!sigaction(sig, NULL, &old) && old.sa_handler == SIG_DFL)
		sigaction(sig, sa, NULL);
}

/*
 * A crash, or another signal whose default ends the process, while a pool
 * is grown: put it back, then die as the signal says.
 */
static void on_fatal(int sig)
{
	pools_restore_now();
	raise(sig);	/* SA_RESETHAND restored the default action */
}

void pools_catch_fatal(void)
{
	/*
	 * Every signal whose default action ends the process, but the four
	 * that stop a run (runner.c) and SIGKILL and SIGSTOP, which cannot be
	 * caught: the crashes, then those another program or a limit sends.
	 * SIGPIPE is ignored by main (a closed stdout is an error said at the
	 * end), so it is left alone here as every ignored signal is.
	 */
	static const int sigs[] = {
		SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS,
		SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ,
		SIGPIPE, SIGIO, SIGPWR, SIGSTKFLT,
	};
	static bool done;
	struct sigaction sa = { .sa_handler = on_fatal, .sa_flags = SA_RESETHAND };

	if (done)
		return;
	done = true;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		catch_if_default(sigs[i], &sa);
	for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		catch_if_default(sig, &sa);
}

/*
 * --reserve runs take turns: each holds RESERVE_LOCK (flock) from its first
 * look at a pool until pools_restore() (or its death) releases it.
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
		if (cancel && *cancel) {
			close(fd);
			snprintf(why, whylen, "interrupted while waiting for %s", RESERVE_LOCK);
			return -EINTR;
		}
		if (!said) {
			char pid[24] = "", shown[100];
			ssize_t n = pread(fd, pid, sizeof(pid) - 1, 0);

			pid[n > 0 ? n : 0] = '\0';
			pid[strcspn(pid, "\n")] = '\0';
			/* The lock file's contents, as any file's, escaped. */
			ph_shown(pid, 0, shown, sizeof(shown));
			fprintf(stderr, "%s: waiting for pagehop%s%s%s to put the hugetlb pools back (--reserve runs take turns: %s)\n",
				ph_progname(), pid[0] ? " (pid " : "", shown, pid[0] ? ")" : "",
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

int pool_ensure(int node, enum ph_psize ps, uint64_t need, bool reserve,
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
			 ph_perm_error(lock_err) ? "growing it (--reserve) needs root" :
			 "--reserve cannot take its lock", lock_why);
		return ph_perm_error(lock_err) ? -EPERM : lock_err;
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
		pools_catch_fatal();
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		ngrown = i + 1;	/* published whole: a handler may read it now */
	}
	err = write_u64(npath, nr + grow);
	if (err) {
		snprintf(why, whylen, "node %d: writing %llu to %s: %s%s", node,
			 (unsigned long long)(nr + grow), npath, strerror(-err),
			 ph_perm_error(err) ? " (growing a hugetlb pool needs root)" : "");
		return ph_perm_error(err) ? -EPERM : err;
	}
	/* The kernel stops growing the pool when a signal comes. */
	if (cancel && *cancel) {
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
