/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hwloc_export.h - a measured node matrix as hwloc XML ("pagehop slit
 * --hwloc FILE"): the topology (this machine's, or for a matrix read from
 * a file a synthetic one, one PU per node, in as many packages as the
 * input's provenance says or, if it does not, in none) with the
 * measurement added beside the firmware's distances, through hwloc's
 * distances API (kind FROM_USER):
 *   "pagehopLatency"    MEANS_LATENCY, picoseconds (ns x 1000, exact for
 *                       figures given to 0.001 ns);
 *   "pagehopBandwidth"  MEANS_BANDWIDTH, MB/s (GB/s x 1000);
 * over every node measured, from row (CPU node) to column (memory node),
 * 0 where not measured; and as memory attributes (hwloc >= 2.3): Latency
 * in ns and Bandwidth in MiB/s (hwloc's units, rounded) of each memory
 * node for the CPU set of each measured CPU node.
 */
#ifndef PAGEHOP_HWLOC_EXPORT_H
#define PAGEHOP_HWLOC_EXPORT_H

#include "nmatrix.h"
#include "util.h"

#include <stdbool.h>
#include <stddef.h>

#define PH_HWLOC_LATENCY_NAME "pagehopLatency"
#define PH_HWLOC_BANDWIDTH_NAME "pagehopBandwidth"

/*
 * Stage path in set (util.h: the caller commits it with the run's other
 * outputs).  lat (ns) or bw (GB/s) may be NULL, not both.
 * this_machine: this machine's topology, whose NUMA nodes must include
 * every id; else a synthetic one of packages CPU packages (0: unknown).
 * shown: what the topology is, in words (also the root object's info
 * PagehopTopology).  0, or -errno with one phrase in why.
 */
int hwloc_export(const char *path, const struct ph_nmatrix *lat, const struct ph_nmatrix *bw,
		 bool this_machine, int packages, struct ph_outset *set, char *shown, size_t shownlen,
		 char *why, size_t whylen);

#endif
