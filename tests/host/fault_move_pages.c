// SPDX-License-Identifier: GPL-2.0-only
/*
 * fault_move_pages.c - an LD_PRELOAD library for host tests: move_pages()
 * as libnuma's, except that from its call number PAGEHOP_FAULT_AFTER on
 * (0: from the first) every page is reported on node PAGEHOP_FAULT_NODE
 * (default 1).  On a machine without node 1, or with the memory on another
 * node, pagehop's read-back then finds the memory elsewhere than asked: a
 * verification failure on demand, before measuring (AFTER=0) or after it
 * (AFTER=1: the read-back at allocation passes, the one after measuring
 * does not).  Only for pagehop's /proc read-back, used without pagehop.ko.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>

long move_pages(int pid, unsigned long count, void **pages, const int *nodes,
		int *status, int flags);

long move_pages(int pid, unsigned long count, void **pages, const int *nodes,
		int *status, int flags)
{
	static long (*real)(int, unsigned long, void **, const int *, int *, int);
	static long calls;
	const char *after = getenv("PAGEHOP_FAULT_AFTER");
	const char *node = getenv("PAGEHOP_FAULT_NODE");
	long rc;

	if (!real)
		real = (long (*)(int, unsigned long, void **, const int *, int *, int))
			dlsym(RTLD_NEXT, "move_pages");
	rc = real(pid, count, pages, nodes, status, flags);
	if (!rc && !nodes && status && after && calls++ >= atol(after))
		for (unsigned long i = 0; i < count; i++)
			status[i] = node ? atoi(node) : 1;
	return rc;
}
