// SPDX-License-Identifier: GPL-2.0-only
/*
 * interleave.c - mm/mempolicy.c's weighted-interleave weights on a table
 * (interleave.h).
 */
#include "interleave.h"
#include "hmat_table.h"

#include <stdio.h>

enum ph_wi_support wi_support_of(const char *release)
{
	int major = 0, minor = 0;

	if (sscanf(release, "%d.%d", &major, &minor) != 2 || major < 6 || (major == 6 && minor < 9))
		return PH_WI_ABSENT;
	return major > 6 || minor >= 16 ? PH_WI_AUTO : PH_WI_MANUAL;
}

const char *wi_support_name(enum ph_wi_support s)
{
	return s == PH_WI_AUTO
	       ? "Linux 6.16 and later: weights from HMAT bandwidth (auto mode, reduce_interleave_weights)"
	       : s == PH_WI_MANUAL
	       ? "Linux 6.9 to 6.15: weighted interleave with every weight 1 unless written; the derived weights are what 6.16 and later would set"
	       : "before Linux 6.9: no weighted interleave; the derived weights are what 6.16 and later would set";
}

uint32_t wi_node_bandwidth(const struct ph_acpi_hmat *t, uint32_t node)
{
	struct ph_hmat_tier f = { .node = node };

	if (!t)
		return 0;
	hmat_best_figures(t, node, &f);
	return f.read_bw < f.write_bw ? f.read_bw : f.write_bw;
}

static unsigned int gcd(unsigned int a, unsigned int b)
{
	while (b) {
		unsigned int r = a % b;

		a = b;
		b = r;
	}
	return a;
}

void wi_reduce(int n, const uint32_t *bw, const bool *memory, uint8_t *w)
{
	uint64_t sum = 0;
	unsigned int g = 0;

	for (int k = 0; k < n; k++)
		if (memory[k])
			sum += bw[k];
	for (int k = 0; k < n; k++) {
		/* The kernel's unsigned int product: wraps as it does above 2^32 / 32 MB/s. */
		unsigned int scaled = PH_WI_WEIGHTINESS * bw[k];

		w[k] = 1;
		if (!memory[k])
			continue;
		if (bw[k] && sum < scaled)
			w[k] = (uint8_t)(scaled / (unsigned int)sum);
		g = g ? gcd(g, w[k]) : w[k];
	}
	for (int k = 0; k < n; k++)
		if (memory[k])
			w[k] = (uint8_t)(w[k] / g);
}
