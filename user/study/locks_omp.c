// SPDX-License-Identifier: GPL-2.0-only
/*
 * locks_omp.c - omp_lock_t from libgomp, the real runtime as the EPCC
 * syncbench study used it.  The Makefile defines PAGEHOP_HAVE_OMP and links
 * -lgomp when the compiler has <omp.h> and libgomp links; else this file
 * says the kind is not here.
 */
#include "locks_omp.h"

#ifdef PAGEHOP_HAVE_OMP
#include <omp.h>

bool locks_omp_available(void)
{
	return true;
}

size_t locks_omp_size(void)
{
	return sizeof(omp_lock_t);
}

void locks_omp_init(void *lock)
{
	omp_init_lock(lock);
}

void locks_omp_acquire(void *lock)
{
	omp_set_lock(lock);
}

void locks_omp_release(void *lock)
{
	omp_unset_lock(lock);
}

void locks_omp_destroy(void *lock)
{
	omp_destroy_lock(lock);
}
#else
bool locks_omp_available(void)
{
	return false;
}

size_t locks_omp_size(void)
{
	return 0;
}

void locks_omp_init(void *lock)
{
	(void)lock;
}

void locks_omp_acquire(void *lock)
{
	(void)lock;
}

void locks_omp_release(void *lock)
{
	(void)lock;
}

void locks_omp_destroy(void *lock)
{
	(void)lock;
}
#endif
