/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * locks_omp.h - the OpenMP runtime's lock (omp_set_lock in libgomp), the
 * only part of pagehop built against the OpenMP runtime.  Without it in
 * the build, locks_omp_available() is false and locks refuses the kind.
 */
#ifndef PAGEHOP_LOCKS_OMP_H
#define PAGEHOP_LOCKS_OMP_H

#include <stdbool.h>
#include <stddef.h>

bool locks_omp_available(void);
/* sizeof(omp_lock_t); 0 without the runtime. */
size_t locks_omp_size(void);
void locks_omp_init(void *lock);
void locks_omp_acquire(void *lock);
void locks_omp_release(void *lock);
void locks_omp_destroy(void *lock);

#endif
