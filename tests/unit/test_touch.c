// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_touch.c - touch_memory() on real memory: after it, every page of
 * the range is mapped and on the node its policy binds it to, whichever
 * of the node's CPUs touched it.  Read back through second paths, not
 * through verify.c: /proc/self/pagemap's present bit for every 4 KiB page,
 * move_pages() (nodes NULL: a query) for the node of every page.  The
 * range is cut so that the threads' shares are uneven (a page too many
 * for an even split), where a share left out or counted twice would show.
 * A hugetlb range with no page in the pool comes back -ENOMEM from every
 * thread's SIGBUS, without the process dying.
 */
#include "unit.h"
#include "touch.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <numa.h>
#include <numaif.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define PAGE 4096ull

/* The node of the CPU this runs on: it has memory and CPUs of its own. */
static int this_node(void)
{
	int cpu = sched_getcpu();

	return cpu < 0 ? 0 : numa_node_of_cpu(cpu);
}

/* The CPUs of node this process may use (how many threads may touch). */
static int node_cpu_count(int node)
{
	struct bitmask *nc = numa_allocate_cpumask(), *allowed = numa_allocate_cpumask();
	int n = 0;

	numa_node_to_cpus(node, nc);
	numa_sched_getaffinity(0, allowed);
	for (unsigned c = 0; c < nc->size; c++)
		n += numa_bitmask_isbitset(nc, c) && numa_bitmask_isbitset(allowed, c);
	numa_free_cpumask(nc);
	numa_free_cpumask(allowed);
	return n;
}

/* How many 4 KiB pages of [p, p + bytes) /proc/self/pagemap says are present. */
static uint64_t pages_present(const char *p, uint64_t bytes)
{
	uint64_t n = bytes / PAGE, present = 0, *ent = calloc(n, sizeof(uint64_t));
	int fd = open("/proc/self/pagemap", O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(pread(fd, ent, n * sizeof(uint64_t),
			       (off_t)((uintptr_t)p / PAGE * sizeof(uint64_t))),
			 (ssize_t)(n * sizeof(uint64_t)));
	close(fd);
	for (uint64_t i = 0; i < n; i++)
		present += ent[i] >> 63;
	free(ent);
	return present;
}

/* How many 4 KiB pages of [p, p + bytes) move_pages() finds on node. */
static uint64_t pages_on_node(char *p, uint64_t bytes, int node)
{
	uint64_t n = bytes / PAGE, on = 0;
	void **pages = calloc(n, sizeof(void *));
	int *status = calloc(n, sizeof(int));

	for (uint64_t i = 0; i < n; i++)
		pages[i] = p + i * PAGE;
	assert_int_equal(move_pages(0, n, pages, NULL, status, 0), 0);
	for (uint64_t i = 0; i < n; i++)
		on += status[i] == node;
	free(pages);
	free(status);
	return on;
}

/* bytes of 4 KiB anonymous memory bound to node, not yet touched. */
static char *bound_range(uint64_t bytes, int node)
{
	struct bitmask *bm = numa_allocate_nodemask();
	char *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		       -1, 0);

	assert_true(p != MAP_FAILED);
	assert_int_equal(madvise(p, bytes, MADV_NOHUGEPAGE), 0);
	numa_bitmask_setbit(bm, (unsigned)node);
	assert_int_equal(mbind(p, bytes, MPOL_BIND, bm->maskp, bm->size + 1, MPOL_MF_STRICT), 0);
	numa_bitmask_free(bm);
	assert_int_equal(pages_present(p, bytes), 0);
	return p;
}

static void test_every_page_on_node(void **state)
{
	/* Three threads' worth and one page: the shares cannot all be equal. */
	uint64_t bytes = 3 * TOUCH_PER_THREAD + PAGE, n = bytes / PAGE;
	int node = this_node(), cpus = node_cpu_count(node), threads = 0;
	char *p = bound_range(bytes, node);

	(void)state;
	assert_int_equal(touch_memory(p, bytes, PH_PS_4K, node, NULL, &threads), 0);
	/* Every CPU of the node, up to one per TOUCH_PER_THREAD bytes. */
	assert_int_equal(threads, cpus < 3 ? cpus : 3);
	assert_int_equal(pages_present(p, bytes), n);
	assert_int_equal(pages_on_node(p, bytes, node), n);
	munmap(p, bytes);
}

static void test_small_range(void **state)
{
	/* Under TOUCH_PER_THREAD: the caller alone, and still every page. */
	uint64_t bytes = 5 * PAGE;
	int node = this_node(), threads = 0;
	char *p = bound_range(bytes, node);

	(void)state;
	assert_int_equal(touch_memory(p, bytes, PH_PS_4K, node, NULL, &threads), 0);
	assert_int_equal(threads, 1);
	assert_int_equal(pages_present(p, bytes), 5);
	assert_int_equal(pages_on_node(p, bytes, node), 5);
	munmap(p, bytes);
}

static void test_cancelled(void **state)
{
	static volatile sig_atomic_t cancel = 1;
	uint64_t bytes = 2 * TOUCH_PER_THREAD;
	int node = this_node();
	char *p = bound_range(bytes, node);

	(void)state;
	assert_int_equal(touch_memory(p, bytes, PH_PS_4K, node, &cancel, NULL), -EINTR);
	/* Stopped before the first chunk: nothing was faulted in. */
	assert_int_equal(pages_present(p, bytes), 0);
	munmap(p, bytes);
}

/* The 2 MiB pool's free pages, -1 if there is no such pool. */
static long free_2m(void)
{
	FILE *f = fopen("/sys/kernel/mm/hugepages/hugepages-2048kB/free_hugepages", "r");
	long n = -1;

	if (f) {
		if (fscanf(f, "%ld", &n) != 1)
			n = -1;
		fclose(f);
	}
	return n;
}

static void test_no_huge_page(void **state)
{
	uint64_t bytes = 2 * TOUCH_PER_THREAD;
	int node = this_node(), threads = 0, rc;
	char *p;

	(void)state;
	if (free_2m() != 0) {
		print_message("skip: the 2 MiB pool is missing or has free pages\n");
		skip();
	}
	/* MAP_NORESERVE: no reservation at mmap, so the fault finds no page: SIGBUS. */
	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED) {
		print_message("skip: no 2 MiB hugetlb mapping here\n");
		skip();
	}
	rc = touch_memory(p, bytes, PH_PS_2M, node, NULL, &threads);
	munmap(p, bytes);
	if (rc == 0 && free_2m() != 0) {
		print_message("skip: another process grew the 2 MiB pool meanwhile\n");
		skip();
	}
	assert_int_equal(rc, -ENOMEM);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_page_on_node),
		cmocka_unit_test(test_small_range),
		cmocka_unit_test(test_cancelled),
		cmocka_unit_test(test_no_huge_page),
	};

	if (numa_available() < 0) {
		fprintf(stderr, "test_touch: no NUMA support here (numa_available), skipped\n");
		return 0;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
