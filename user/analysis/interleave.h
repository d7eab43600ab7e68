/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * interleave.h - the weighted-interleave weights Linux derives from the
 * HMAT's bandwidth (docs/slit.md section 13 cites the source):
 *   - Linux 6.9 added MPOL_WEIGHTED_INTERLEAVE and
 *     /sys/kernel/mm/mempolicy/weighted_interleave/nodeN, every weight 1
 *     until set by hand (mm/mempolicy.c, get_il_weight());
 *   - Linux 6.16 added the "auto" mode, on by default: each time
 *     node_set_perf_attrs() (drivers/base/node.c) records a node's access
 *     class 1 figures (the best CPU initiator's, from
 *     drivers/acpi/numa/hmat.c), mempolicy_set_node_perf() caches
 *     min(read, write) bandwidth and reduce_interleave_weights() turns
 *     the bandwidths of the memory nodes into weights in [1, 32].
 * Pure arithmetic.
 */
#ifndef PAGEHOP_INTERLEAVE_H
#define PAGEHOP_INTERLEAVE_H

#include "acpi_hmat.h"

#include <stdbool.h>
#include <stdint.h>

/* mm/mempolicy.c: the largest weight reduce_interleave_weights() gives. */
#define PH_WI_WEIGHTINESS 32

enum ph_wi_support {
	PH_WI_ABSENT = 1,	/* before 6.9: no weighted interleave */
	PH_WI_MANUAL,		/* 6.9 to 6.15: weights 1 unless written */
	PH_WI_AUTO,		/* 6.16 and later: weights from the HMAT */
};

/* The support of a kernel release ("6.12.117+deb12-amd64"). */
enum ph_wi_support wi_support_of(const char *release);
const char *wi_support_name(enum ph_wi_support s);

/*
 * The bandwidth mempolicy_set_node_perf() caches for target node of t
 * (MB/s): min(read, write) of access class 1, so 0 when either is
 * missing (a table with read bandwidth alone gives 0).  t NULL: 0.
 */
uint32_t wi_node_bandwidth(const struct ph_acpi_hmat *t, uint32_t node);

/*
 * reduce_interleave_weights() over n nodes: bw[k] in MB/s, memory[k]
 * whether node k is in N_MEMORY.  A memory node gets 32 * bw / sum (the
 * sum over memory nodes), in the kernel's 32-bit arithmetic, or 1 when
 * it has no bandwidth or at most 1/32 of the sum; then every memory
 * node's weight is divided by their greatest common divisor.  A node
 * without memory keeps 1 (mempolicy_set_node_perf() fills the table so).
 */
void wi_reduce(int n, const uint32_t *bw, const bool *memory, uint8_t *w);

#endif
