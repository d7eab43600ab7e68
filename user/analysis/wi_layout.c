// SPDX-License-Identifier: GPL-2.0-only
/*
 * wi_layout.c - weighted round robin arithmetic (wi_layout.h).
 */
#include "wi_layout.h"
#include "interleave.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Indexes i in [0, x) whose i % total falls in [a, a + w). */
static uint64_t below(uint64_t x, uint64_t total, uint64_t a, uint64_t w)
{
	uint64_t r = x % total;

	return x / total * w + (r > a ? (r - a < w ? r - a : w) : 0);
}

void wi_layout_counts(uint64_t first, uint64_t npages, int n, const int *w, uint64_t *counts)
{
	uint64_t total = 0, a = 0;

	for (int k = 0; k < n; k++)
		total += (uint64_t)w[k];
	for (int k = 0; k < n; k++) {
		counts[k] = total ? below(first + npages, total, a, (uint64_t)w[k]) -
			below(first, total, a, (uint64_t)w[k]) : 0;
		a += (uint64_t)w[k];
	}
}

bool wi_layout_matches(uint64_t npages, int n, const int *w, const uint64_t *counted, int *bad)
{
	uint64_t total = 0, sum = 0;

	if (bad)
		*bad = -1;
	for (int k = 0; k < n; k++) {
		total += (uint64_t)w[k];
		sum += counted[k];
	}
	for (int k = 0; k < n; k++) {
		/* Whole cycles give exactly npages / total * w; the partial one 0 to w more. */
		uint64_t lo = npages / total * (uint64_t)w[k];
		uint64_t hi = lo + (uint64_t)w[k];

		if (counted[k] < lo || counted[k] > hi || sum != npages) {
			if (bad)
				*bad = k;
			return false;
		}
	}
	return true;
}

void wi_layout_propose(int n, const double *bw, int *w)
{
	uint32_t mbps[WI_LAYOUT_MAX_NODES] = { 0 };
	bool mem[WI_LAYOUT_MAX_NODES] = { false };
	uint8_t out[WI_LAYOUT_MAX_NODES];

	double top = 0, scale = 1000.0;

	for (int k = 0; k < n && k < WI_LAYOUT_MAX_NODES; k++)
		if (bw[k] > top)
			top = bw[k];
	/*
	 * MB/s as the kernel takes them, but below the 2^32 / 32 MB/s where
	 * its 32-bit product wraps (only the ratios matter): the fastest node
	 * at most 100000 MB/s.
	 */
	if (top * scale > 100000.0)
		scale = 100000.0 / top;
	for (int k = 0; k < n && k < WI_LAYOUT_MAX_NODES; k++) {
		mbps[k] = bw[k] > 0 && !isnan(bw[k]) ? (uint32_t)lround(bw[k] * scale) : 0;
		mem[k] = true;
	}
	wi_reduce(n, mbps, mem, out);
	for (int k = 0; k < n; k++)
		w[k] = out[k] ? out[k] : 1;
}

static int gcd(int a, int b)
{
	while (b) {
		int t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* Reduce c by its gcd; add it unless all 1 or already in out[0..m). */
static int add_candidate(int n, int *c, int *out, int m)
{
	int g = 0;
	bool ones = true;

	for (int k = 0; k < n; k++)
		g = gcd(g, c[k]);
	for (int k = 0; k < n; k++) {
		c[k] /= g ? g : 1;
		ones = ones && c[k] == 1;
	}
	if (ones)
		return m;
	for (int i = 0; i < m; i++)
		if (!memcmp(&out[i * n], c, (size_t)n * sizeof(int)))
			return m;
	memcpy(&out[m * n], c, (size_t)n * sizeof(int));
	return m + 1;
}

int wi_layout_candidates(int n, const int *p, int max, int *out)
{
	int c[WI_LAYOUT_MAX_NODES], m = 0;

	if (n <= 0 || n > WI_LAYOUT_MAX_NODES)
		return 0;
	for (int step = 0; step <= 2 * n && m < max; step++) {
		int k = (step - 1) / 2;

		memcpy(c, p, (size_t)n * sizeof(int));
		if (step) {
			c[k] += step % 2 ? 1 : -1;
			if (c[k] < 1)
				continue;
		}
		m = add_candidate(n, c, out, m);
	}
	return m;
}

void wi_layout_text(int n, const int *w, char *buf, unsigned len)
{
	unsigned at = 0;

	buf[0] = 0;
	for (int k = 0; k < n && at < len; k++) {
		int r = snprintf(buf + at, len - at, "%s%d", k ? ":" : "", w[k]);

		if (r < 0)
			break;
		at += (unsigned)r;
	}
}
