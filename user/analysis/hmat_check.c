// SPDX-License-Identifier: GPL-2.0-only
/*
 * hmat_check.c - the firmware's HMAT against the measured latency and bandwidth.
 */
#include "distance_impl.h"
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- HMAT ---- */

/* MiB/s as the kernel reports HMAT bandwidth, to GB/s (10^9 B/s) as measured. */
static double mibps_to_gbps(int64_t v)
{
	return (double)v * 1048576.0 / 1e9;
}

static void hmat_best(const struct ph_nmatrix *m, const int *ids, int nids,
		      int target, bool lower_better, double *best, int *row)
{
	int c = m ? nmatrix_col(m, target) : -1;

	*best = NAN;
	*row = -1;
	if (c < 0)
		return;
	for (int i = 0; i < nids; i++) {
		int r = nmatrix_row(m, ids[i]);
		double v;

		if (r < 0 || !usable(m, r * m->ncols + c))
			continue;
		v = m->val[r * m->ncols + c];
		if (*row < 0 || (lower_better ? v < *best : v > *best)) {
			*best = v;
			*row = ids[i];
		}
	}
}

int hmat_compare(const struct ph_hmat *h, int nh, const struct ph_nmatrix *lat,
		 const struct ph_nmatrix *bw, struct ph_hmat_cmp **out)
{
	int n = 0, ids[256];

	*out = NULL;
	for (int i = 0; i < nh; i++) {
		int nids = parse_id_list(h[i].initiators, ids, (int)ARRAY_SIZE(ids));
		struct ph_hmat_cmp x;

		if (nids < 0)
			nids = 0;
		x.target = h[i].target;
		x.access = h[i].access;
		x.initiators = h[i].initiators;
		if (h[i].read_latency_ns >= 0) {
			x.figure = "read_latency_ns";
			x.hmat = (double)h[i].read_latency_ns;
			hmat_best(lat, ids, nids, h[i].target, true, &x.measured, &x.cpu_node);
			x.ratio = x.cpu_node >= 0 && x.hmat > 0 ? x.measured / x.hmat : NAN;
			*out = xrealloc(*out, (n + 1) * sizeof(**out));
			(*out)[n++] = x;
		}
		if (h[i].read_bandwidth_MiBps >= 0) {
			x.figure = "read_bandwidth_GBps";
			x.hmat = mibps_to_gbps(h[i].read_bandwidth_MiBps);
			hmat_best(bw, ids, nids, h[i].target, false, &x.measured, &x.cpu_node);
			x.ratio = x.cpu_node >= 0 && x.hmat > 0 ? x.measured / x.hmat : NAN;
			*out = xrealloc(*out, (n + 1) * sizeof(**out));
			(*out)[n++] = x;
		}
	}
	return n;
}
