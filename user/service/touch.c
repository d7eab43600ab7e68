// SPDX-License-Identifier: GPL-2.0-only
/*
 * touch.c - every page faulted in, in parallel on the buffer's node.
 *
 * Why in parallel, and why MADV_POPULATE_WRITE: faulting a page in is the
 * kernel's work (and, in a virtual machine, the hypervisor's), and touching
 * a gigabyte of 4 KiB pages one trap at a time was most of the wait for a
 * first latency figure (docs/performance.md).  One madvise call walks a
 * whole chunk inside the kernel; threads on the node's own CPUs share the
 * rest.  Which node a page lands on does not depend on who touches it: the
 * range's policy (mbind MPOL_BIND, or a VMA interleave, which places by
 * offset), the hugetlb pool's node or the module's allocation decides, and
 * verify.c reads the result back afterwards as before.
 */
#include "touch.h"
#include "binding.h"
#include "clock.h"
#include "phases.h"
#include "pools.h"
#include "runner.h"
#include "util.h"

#include <errno.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/mman.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23	/* Linux 5.14 */
#endif

/* Between chunks the cancel flag and the other threads' failures are seen. */
#define TOUCH_CHUNK (16ull << 20)

struct touch_job {
	char *base;
	uint64_t units;		/* whole pages (THP: 2 MiB) to share out */
	uint64_t unit;		/* their size */
	uint64_t step;		/* one write every step bytes, without populate */
	int nthreads;
	const volatile sig_atomic_t *cancel;
	int failed;		/* a thread found no page: the others stop */
	int *err;
};

/* ---- touching memory without dying of SIGBUS ---- */

/* Per thread: a SIGBUS is delivered to the thread whose fault raised it. */
static __thread sigjmp_buf touch_env;
static __thread volatile sig_atomic_t touching;

static void on_sigbus(int sig)
{
	(void)sig;
	if (touching)
		siglongjmp(touch_env, 1);
	pools_restore_now();
	signal(SIGBUS, SIG_DFL);
	raise(SIGBUS);
}

/* Write one byte every step bytes of [p, p + len). */
static void write_pages(char *p, uint64_t len, uint64_t step)
{
	for (uint64_t off = 0; off < len; off += step)
		((volatile char *)p)[off] = 0;
}

/*
 * Fault [p, p + len) in, chunk by chunk.  A hugetlb fault that finds no
 * page on the bound node raises SIGBUS in the write loop (populate says
 * EFAULT, and the loop then finds the page that is missing): -ENOMEM.
 */
static int touch_span(struct touch_job *j, char *p, uint64_t len)
{
	volatile uint64_t off = 0;
	int rc = 0;

	touching = 1;
	if (sigsetjmp(touch_env, 1)) {
		rc = -ENOMEM;
	} else {
		for (off = 0; off < len && !rc; off += TOUCH_CHUNK) {
			uint64_t n = len - off < TOUCH_CHUNK ? len - off : TOUCH_CHUNK;

			if (j->cancel && *j->cancel)
				rc = -EINTR;
			else if (__atomic_load_n(&j->failed, __ATOMIC_RELAXED))
				break;
			else if (madvise(p + off, n, MADV_POPULATE_WRITE))
				write_pages(p + off, n, j->step);
		}
	}
	touching = 0;
	if (rc == -ENOMEM)
		__atomic_store_n(&j->failed, 1, __ATOMIC_RELAXED);
	return rc;
}

/* Thread tid touches units [tid U / T, (tid + 1) U / T): the ranges cover the buffer. */
static void work_touch(void *ctx, int tid)
{
	struct touch_job *j = ctx;
	uint64_t a = j->units * (uint64_t)tid / (uint64_t)j->nthreads,
		 b = j->units * (uint64_t)(tid + 1) / (uint64_t)j->nthreads;

	j->err[tid] = touch_span(j, j->base + a * j->unit, (b - a) * j->unit);
}


int touch_memory(void *addr, uint64_t bytes, enum ph_psize ps, int node,
		 const volatile sig_atomic_t *cancel, int *threads)
{
	/* The team's clock only times each thread's block; nothing reads it here. */
	static const struct ph_clock mono = { .use_tsc = false, .name = "monotonic_raw" };
	struct sigaction sa = { .sa_handler = on_sigbus }, old;
	struct touch_job j = {
		.base = addr,
		.unit = psize_bytes(ps),
		.step = ps == PH_PS_THP ? PH_PAGE_4K : psize_bytes(ps),
		.cancel = cancel,
	};
	struct ph_team *team = NULL;
	double t0 = now_mono_raw();
	int *cpus = NULL, ncpus, err;
	uint64_t *ticks = NULL;
	char why[256];

	j.units = bytes / j.unit;
	ncpus = binding_node_cpus(node, &cpus);
	j.nthreads = (int)(bytes / TOUCH_PER_THREAD);
	if (j.nthreads > ncpus)
		j.nthreads = ncpus;
	if ((uint64_t)j.nthreads > j.units)
		j.nthreads = (int)j.units;
	if (j.nthreads > 1) {
		team = team_start(cpus, j.nthreads, why, sizeof(why));
		if (!team)
			ph_warn("touching the buffer on one thread: %s", why);
	}
	free(cpus);
	if (!team)
		j.nthreads = 1;
	j.err = xcalloc((size_t)j.nthreads, sizeof(int));

	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, &old);
	if (team) {
		ticks = xcalloc((size_t)j.nthreads, sizeof(uint64_t));
		team_run(team, work_touch, &j, &mono, ticks);
		team_stop(team);
		free(ticks);
	} else {
		work_touch(&j, 0);
	}
	sigaction(SIGBUS, &old, NULL);

	err = team_first_error(j.err, j.nthreads);
	if (threads)
		*threads = j.nthreads;
	free(j.err);
	phase_add(PH_PHASE_TOUCH, now_mono_raw() - t0);
	return err;
}
