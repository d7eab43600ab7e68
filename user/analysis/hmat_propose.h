/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hmat_propose.h - an HMAT proposed from the measurement: access latency
 * and access bandwidth of every measured initiator (CPU node) x target
 * (memory node), in the units the kernel reads (drivers/acpi/numa/hmat.c,
 * hmat_normalize(): revision 2 latency in picoseconds, bandwidth in MB/s,
 * each entry times the structure's base unit), with the firmware's
 * memory proximity domains and memory-side caches kept.  docs/slit.md
 * section 12 gives the rules.  Proximity domain p is node p, as for the
 * proposed SLIT.
 */
#ifndef PAGEHOP_HMAT_PROPOSE_H
#define PAGEHOP_HMAT_PROPOSE_H

#include "acpi_hmat.h"
#include "nmatrix.h"

#include <stdint.h>

/*
 * The base unit for figures v[0..n) (ps or MB/s; NAN or <= 0: unknown):
 * the smallest power of ten under which the largest figure is an entry of
 * at most 0xfffe (0xffff means unreachable).  1 when nothing is known.
 */
uint64_t hmat_base_unit(const double *v, int n);
/* The entry for figure v under base: rounded, at least 1; 0 (no information) for unknown. */
uint16_t hmat_entry(double v, uint64_t base);

/*
 * The proposal: latency (ns, NULL: none) and read bandwidth (GB/s, NULL:
 * none) become one access latency and one access bandwidth structure of
 * the memory hierarchy, rows as initiators, columns as targets; fw (NULL:
 * none) gives the memory proximity domain attributes and the caches,
 * else each measured memory node is a domain whose attached initiator is
 * itself when it is an initiator too.  out->h is zeroed but for revision
 * 2.  Returns the entries left without information (cells not measured).
 */
int hmat_propose(const struct ph_nmatrix *lat, const struct ph_nmatrix *bw,
		 const struct ph_acpi_hmat *fw, struct ph_acpi_hmat *out);

#endif
