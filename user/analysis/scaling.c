// SPDX-License-Identifier: GPL-2.0-only
/*
 * scaling.c - efficiency and the saturation knee of a scaling curve.
 */
#include "scaling.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

double scaling_efficiency(const int *threads, const double *bw, int i)
{
	if (!(bw[0] > 0) || threads[0] <= 0 || threads[i] <= 0)
		return NAN;
	return (bw[i] / threads[i]) / (bw[0] / threads[0]);
}

/*
 * Why this rule: bandwidth curves are noisy, so "the first count whose step
 * gains less than x%" stops at the first dip; the share of the maximum is
 * robust to a dip before it and to a decline after it (more threads than
 * the memory controllers serve well).  90% is where Schmidl's and the
 * Bassi curves visibly flatten.  A curve whose first count at 90% is its
 * last count has not been seen to flatten at all: no knee.
 */
int scaling_knee(const int *threads, const double *bw, int n)
{
	double max = -INFINITY;
	int first = -1, last = -1, valid = 0;

	(void)threads;
	for (int i = 0; i < n; i++)
		if (!isnan(bw[i])) {
			valid++;
			last = i;
			if (bw[i] > max)
				max = bw[i];
		}
	if (valid < 2 || !(max > 0))
		return -1;
	for (int i = 0; i < n && first < 0; i++)
		if (!isnan(bw[i]) && bw[i] >= SCALING_KNEE_SHARE * max)
			first = i;
	return first == last ? -1 : first;
}

void scaling_hop_levels(int n, const int *dist, int *hops)
{
	for (int a = 0; a < n; a++)
		for (int b = 0; b < n; b++) {
			int below = 0;

			if (a == b) {
				hops[a * n + b] = 0;
				continue;
			}
			/* Distinct values below: count each value at its first column. */
			for (int c = 0; c < n; c++) {
				bool first = true;

				if (c == a || dist[a * n + c] >= dist[a * n + b])
					continue;
				for (int e = 0; e < c && first; e++)
					first = e == a || dist[a * n + e] != dist[a * n + c];
				below += first;
			}
			hops[a * n + b] = 1 + below;
		}
}

void goaround_shape(const int *cpu_node, const int *mem_node, int nthreads, int turn, int n,
		    const int *dist, const int *hops, struct ph_turn_shape *out)
{
	double h = 0, d = 0;

	out->turn = turn;
	out->remote = 0;
	for (int t = 0; t < nthreads; t++) {
		int c = cpu_node[t], m = mem_node[goaround_owner(t, turn, nthreads)];

		out->remote += c != m;
		h += hops[c * n + m];
		d += dist[c * n + m];
	}
	out->remote_share = nthreads ? (double)out->remote / nthreads : NAN;
	out->mean_hops = nthreads ? h / nthreads : NAN;
	out->mean_distance = nthreads ? d / nthreads : NAN;
}

int goaround_turns(int nthreads, int *turns)
{
	int k = 0;

	if (nthreads <= GOAROUND_ALL_TURNS) {
		for (int i = 0; i < nthreads; i++)
			turns[k++] = i;
		return k;
	}
	turns[k++] = 0;
	for (int p = 1; p < nthreads; p *= 2)
		turns[k++] = p;
	if (turns[k - 1] != nthreads - 1)
		turns[k++] = nthreads - 1;
	return k;
}

int scaling_level_nodes(int n, const int *dist, const bool *has_mem, int from, int *nodes,
			int max)
{
	int *hops = calloc((size_t)(n * n), sizeof(int)), k = 0;

	if (!hops)
		return 0;
	scaling_hop_levels(n, dist, hops);
	for (int level = 0; level < n && k < max; level++)
		for (int b = 0; b < n; b++)
			if (has_mem[b] && hops[from * n + b] == level) {
				nodes[k++] = b;
				break;
			}
	free(hops);
	return k;
}
