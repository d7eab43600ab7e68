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

#include <stdbool.h>
#include <stdint.h>

/*
 * The rounding accepted: an entry x base unit within 1% of the figure (ps
 * or MB/s), or within half a unit (0.5 ps, 0.5 MB/s: the finest step the
 * table has, taken at base unit 1), and at most 2^32 - 1, beyond which
 * the kernel keeps no figure (hmat_normalize()).
 */
#define PH_HMAT_ROUND_REL 0.01
#define PH_HMAT_ROUND_ABS 0.5

/* Is entry e under base within that bound of figure v?  Never for 0 or 0xffff. */
bool hmat_entry_ok(double v, uint16_t e, uint64_t base);
/*
 * The base unit for figures v[0..n) (ps or MB/s; NAN or <= 0: unknown):
 * the smallest power of ten under which the largest figure is an entry of
 * at most 0xfffe (0xffff means unreachable), if every figure's entry is
 * within the bound there; else the smallest base of all that holds the
 * largest (it rounds the small figures least), if every entry is within
 * the bound there; else 0: no base unit holds these figures in 16 bits.
 * 1 when nothing is known.
 */
uint64_t hmat_base_unit(const double *v, int n);
/* The entry for figure v under base: rounded, 1 to 0xfffe; 0 (no information) for unknown. */
uint16_t hmat_entry(double v, uint64_t base);

/*
 * The proposal: latency (ns, NULL: none) and read bandwidth (GB/s, NULL:
 * none) become one access latency and one access bandwidth structure of
 * the memory hierarchy, rows as initiators, columns as targets, leaving
 * out a row or column with no figure measured; fw (NULL:
 * none) gives the memory proximity domain attributes and the caches,
 * else each measured memory node is a domain whose attached initiator is
 * itself when it is an initiator too.  out->h is zeroed but for revision
 * 2.  Returns the entries left without information (cells not measured
 * in a row and a column that are).  Figures no base unit holds
 * (hmat_base_unit() 0) are written under the smallest power of ten that
 * holds the largest, clamped: a model for the views, never to be emitted
 * (hmat_emit_acpi() refuses it).
 */
int hmat_propose(const struct ph_nmatrix *lat, const struct ph_nmatrix *bw,
		 const struct ph_acpi_hmat *fw, struct ph_acpi_hmat *out);

/* The figure of m (ns or GB/s) from node init to node targ in ps or MB/s; NAN: not in m. */
double hmat_measured(const struct ph_nmatrix *m, uint32_t init, uint32_t targ);
/*
 * The entries of prop (hmat_propose() of lat and bw) whose measured figure
 * they do not hold within the bound: 0 when the proposal says what was
 * measured, else the count of entries clamped or rounded beyond it.
 */
int hmat_propose_off(const struct ph_acpi_hmat *prop, const struct ph_nmatrix *lat,
		     const struct ph_nmatrix *bw);

#endif
