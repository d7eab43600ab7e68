/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * scaling.h - what a bandwidth-against-threads curve says: efficiency
 * against the fewest threads measured, and where it saturates (the knee).
 */
#ifndef PAGEHOP_SCALING_H
#define PAGEHOP_SCALING_H

#include <stdbool.h>

/* The knee's threshold: a count reaching this share of the curve's maximum. */
#define SCALING_KNEE_SHARE 0.90

/*
 * Per-thread bandwidth at threads[i] against that at threads[0], as a
 * fraction (1: perfect scaling): (bw[i] / threads[i]) / (bw[0] / threads[0]).
 */
double scaling_efficiency(const int *threads, const double *bw, int i);

/*
 * The saturation knee of bw[] measured at threads[] (ascending): the index
 * of the fewest threads whose bandwidth reaches SCALING_KNEE_SHARE of the
 * highest bandwidth measured, provided that some larger count was measured
 * too and gained less than that last step (so the curve did flatten there).
 * -1 when there is no knee within the counts measured: fewer than two
 * counts, or the first count to reach the share is the last one (the curve
 * still rose by more than 1 - SCALING_KNEE_SHARE of its maximum at the end).
 * NAN values (counts not measured) are skipped.
 */
int scaling_knee(const int *threads, const double *bw, int n);

/*
 * Hop levels from a distance matrix (n x n, row = the CPU's node, column
 * = the memory's node, as SLIT): hops[a*n+b] is 0 for a == b, else 1 +
 * the number of distinct off-diagonal values in row a below dist[a*n+b].
 * A 4-node SLIT 10/16/22 gives 1 for 16 and 2 for 22.
 */
void scaling_hop_levels(int n, const int *dist, int *hops);

/*
 * The node of each hop level seen from node index from, for a working-set
 * sweep per level: nodes[k] is the lowest index with hop level k
 * (scaling_hop_levels) among those with has_mem set; a level without such
 * a node is left out.  Returns the number of levels filled (at most max).
 */
int scaling_level_nodes(int n, const int *dist, const bool *has_mem, int from, int *nodes,
			int max);

/*
 * mem_go_around (Schmidl): T threads, each owning a block on its own node;
 * in turn k thread t works on the block of thread (t + k) mod T.
 */
static inline int goaround_owner(int t, int turn, int nthreads)
{
	return (t + turn) % nthreads;
}

/* What a turn asks of the interconnect, from the threads' nodes alone. */
struct ph_turn_shape {
	int turn;
	int remote;		/* threads whose block is on another node */
	double remote_share;	/* remote / T */
	double mean_hops;	/* over the T threads, local counting 0 */
	double mean_distance;	/* over the T threads, in dist's units */
};

/*
 * Turn turn for T threads whose CPUs are on node index cpu_node[t] and
 * whose blocks are on mem_node[t] (indices into the n x n dist and hops).
 */
void goaround_shape(const int *cpu_node, const int *mem_node, int nthreads, int turn, int n,
		    const int *dist, const int *hops, struct ph_turn_shape *out);

/*
 * The turns measured by default, ascending into turns[] (room for T):
 * every turn 0..T-1 when T <= GOAROUND_ALL_TURNS, else a log-spaced
 * subset as in the talk's plot: 0, the powers of two below T, and T-1.
 * Returns their count.
 */
#define GOAROUND_ALL_TURNS 16
int goaround_turns(int nthreads, int *turns);

#endif
