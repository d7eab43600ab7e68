// SPDX-License-Identifier: GPL-2.0-only
/*
 * sweep.c - the page-size study's arithmetic.
 */
#include "sweep.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sweep_availability(const struct sweep_machine *m, struct sweep_avail out[PH_PS_COUNT])
{
	uint64_t floor = m->node_total / 20;
	uint64_t usable = m->node_free > floor ? m->node_free - floor : 0;

	memset(out, 0, sizeof(struct sweep_avail) * PH_PS_COUNT);
	/* 4K: always, through the module if it can, else anonymous memory. */
	out[PH_PS_4K].ok = usable > 0;
	out[PH_PS_4K].cap = usable / 4096 * 4096;
	out[PH_PS_4K].backend = m->kmod_features & PAGEHOP_FEAT_PAGE_4K ? PH_BACKEND_KMOD : PH_BACKEND_ANON;
	snprintf(out[PH_PS_4K].why, sizeof(out[PH_PS_4K].why),
		 usable ? "node memory, keeping 5%% free" : "the node has less than 5%% free");

	for (int k = 0; k < 2; k++) {
		enum ph_psize ps = k ? PH_PS_1G : PH_PS_2M;
		uint64_t page = psize_bytes(ps);
		uint64_t feat = k ? PAGEHOP_FEAT_PAGE_1G : PAGEHOP_FEAT_PAGE_2M;
		int64_t free_pages = k ? m->free_1g : m->free_2m;
		struct sweep_avail *a = &out[ps];

		if (m->kmod_features & feat) {
			/* The module allocates contiguous pages itself (1G best-effort). */
			a->ok = usable >= page;
			a->cap = usable / page * page;
			a->backend = PH_BACKEND_KMOD;
			snprintf(a->why, sizeof(a->why), "pagehop.ko, up to the node's free memory");
		} else if (free_pages < 0) {
			snprintf(a->why, sizeof(a->why), "no %s hugetlb pool on this kernel", psize_name(ps));
		} else if (m->reserve) {
			uint64_t have = (uint64_t)free_pages * page;

			a->cap = have + usable / page * page;
			a->ok = a->cap >= page;
			a->backend = PH_BACKEND_HUGETLB;
			snprintf(a->why, sizeof(a->why), "hugetlb, %lld free pages, pool may grow (--reserve)",
				 (long long)free_pages);
		} else {
			a->cap = (uint64_t)free_pages * page;
			a->ok = free_pages > 0;
			a->backend = PH_BACKEND_HUGETLB;
			if (free_pages)
				snprintf(a->why, sizeof(a->why), "hugetlb, %lld free pages on the node",
					 (long long)free_pages);
			else
				snprintf(a->why, sizeof(a->why),
					 "no free %s hugetlb page on the node (reserve some, or --reserve)",
					 psize_name(ps));
		}
	}
	out[PH_PS_THP].ok = m->thp && usable >= 2 * MiB;
	out[PH_PS_THP].cap = usable / (2 * MiB) * (2 * MiB);
	out[PH_PS_THP].backend = PH_BACKEND_ANON;
	snprintf(out[PH_PS_THP].why, sizeof(out[PH_PS_THP].why),
		 m->thp ? "anonymous memory with MADV_HUGEPAGE" : "THP is disabled (never)");
}

int sweep_sizes(uint64_t lo, uint64_t hi, uint64_t *out, int max_points)
{
	int n = 0;

	for (uint64_t s = lo; s && s <= hi && n < max_points; s *= 2)
		out[n++] = s;
	return n;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

void sweep_knee(const double *penalty, const double *noise, int n,
		double floor_ns, struct sweep_knee *out)
{
	double first[3];
	int k = n < 3 ? n : 3;

	out->index = -1;
	out->baseline = NAN;
	out->at_max = n ? penalty[n - 1] : NAN;
	if (n < 2)
		return;
	memcpy(first, penalty, (size_t)k * sizeof(double));
	qsort(first, (size_t)k, sizeof(double), cmp_double);
	out->baseline = first[k / 2];
	/* Walk back from the end while the penalty is clearly above baseline. */
	for (int i = n - 1; i >= 0; i--) {
		double thr = fmax(floor_ns, 2 * (noise ? noise[i] : 0));

		if (!(penalty[i] - out->baseline > thr))
			break;
		out->index = i;
	}
	out->at_max -= out->baseline;
}

double sweep_half_width(double lo, double hi)
{
	return isfinite(hi) && isfinite(lo) ? (hi - lo) / 2 : 0;
}

double sweep_penalty(const struct sweep_point *p)
{
	return p->rnd_ns - p->tlb_ns;
}

void sweep_point_knee(const struct sweep_point *p, int n, double floor_ns,
		      struct sweep_knee *out)
{
	double *pen = xcalloc((size_t)(n > 0 ? n : 1), sizeof(double));
	double *noise = xcalloc((size_t)(n > 0 ? n : 1), sizeof(double));

	for (int i = 0; i < n; i++) {
		pen[i] = sweep_penalty(&p[i]);
		noise[i] = p[i].rnd_hw + p[i].tlb_hw;
	}
	sweep_knee(pen, noise, n, floor_ns, out);
	free(pen);
	free(noise);
}

