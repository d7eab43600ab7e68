/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * wi_layout.h - the arithmetic of a weighted round robin of pages over
 * memory nodes, as pagehop interleave lays its buffers out and checks
 * them: how many pages each node should hold, whether the pages counted
 * back match, the weights proposed from measured bandwidth and the
 * candidates tried around them.
 *
 * Linux places page i of a VMA under MPOL_INTERLEAVE or
 * MPOL_WEIGHTED_INTERLEAVE by its interleave index ilx, the page's offset
 * in the mapping (vm_pgoff plus its distance from vm_start, in pages:
 * get_vma_policy() in mm/mempolicy.c): target = ilx % (sum of weights),
 * and the nodes, in ascending order, each take their weight of
 * consecutive targets (weighted_interleave_nid(); interleave_nid() is the
 * same with every weight 1).  Pure arithmetic.
 */
#ifndef PAGEHOP_WI_LAYOUT_H
#define PAGEHOP_WI_LAYOUT_H

#include <stdbool.h>
#include <stdint.h>

/* The most nodes a layout spans. */
#define WI_LAYOUT_MAX_NODES 64

/*
 * Pages [first, first + npages) of a round robin over n nodes, node k
 * taking w[k] >= 1 consecutive indexes of every cycle of sum(w): how many
 * each node gets, into counts[k].
 */
void wi_layout_counts(uint64_t first, uint64_t npages, int n, const int *w, uint64_t *counts);

/*
 * Whether counted[k] (pages found on node k) fits a round robin of
 * npages with weights w whatever index it starts at: within w[k] of
 * npages * w[k] / sum(w), the share of the whole cycles plus at most one
 * partial cycle, and every page counted.  The first node that does not
 * fit into *bad (may be NULL; -1 when all fit).
 */
bool wi_layout_matches(uint64_t npages, int n, const int *w, const uint64_t *counted, int *bad);

/*
 * The weights pagehop proposes from each node's measured read
 * bandwidth bw[k] (GB/s, > 0): reduce_interleave_weights()'s arithmetic
 * (wi_reduce, interleave.h) on the figures in MB/s, every node a memory
 * node.  A node without a figure (bw <= 0 or NAN) gets weight 1.
 */
void wi_layout_propose(int n, const double *bw, int *w);

/*
 * A small search around the proposal p: p itself, then for each node k
 * p with w[k] + 1, and p with w[k] - 1 where that stays >= 1, each
 * reduced by the greatest common divisor of its weights, dropping one
 * equal to an earlier candidate or to every weight 1 (plain interleave,
 * measured on its own).  At most max candidates of n weights each into
 * out (row-major); returns how many.
 */
int wi_layout_candidates(int n, const int *p, int max, int *out);

/* "2:1:1" for n weights, into buf. */
void wi_layout_text(int n, const int *w, char *buf, unsigned len);

#endif
