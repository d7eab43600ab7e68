// SPDX-License-Identifier: GPL-2.0-only
/*
 * placement.c - threads to CPUs by rule: compact, scatter, exclusive,
 * shared.  Every rule works on the same sorted list (node, package, core,
 * CPU), with each PU's rank among its core's siblings (0 for the core's
 * first PU), so that the four differ only in the order they take it.
 */
#include "placement.h"
#include "cpu.h"
#include "util.h"

#include <errno.h>
#include <numa.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const place_names[] = {
	[PH_PLACE_COMPACT] = "compact",
	[PH_PLACE_SCATTER] = "scatter",
	[PH_PLACE_EXCLUSIVE] = "exclusive",
	[PH_PLACE_SHARED] = "shared",
};

int place_parse(const char *name, enum ph_place *out)
{
	for (int p = PH_PLACE_COMPACT; p <= PH_PLACE_SHARED; p++)
		if (!strcmp(name, place_names[p])) {
			*out = (enum ph_place)p;
			return 0;
		}
	return -EINVAL;
}

const char *place_name(enum ph_place p)
{
	return p >= PH_PLACE_COMPACT && p <= PH_PLACE_SHARED ? place_names[p] : "?";
}

const char *place_list(void)
{
	return "compact, scatter, exclusive or shared";
}

static int pu_cmp(const void *a, const void *b)
{
	const struct ph_pu *x = a, *y = b;

	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	if (x->package != y->package)
		return x->package < y->package ? -1 : 1;
	if (x->core != y->core)
		return x->core < y->core ? -1 : 1;
	return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
}

int placement_pus(const struct ph_cpu *cpu, const struct bitmask *cpunodes,
		  struct ph_pu **out)
{
	struct bitmask *allowed = numa_allocate_cpumask();
	int ncpus = numa_num_possible_cpus(), n = 0;
	struct ph_pu *v = NULL;

	numa_sched_getaffinity(0, allowed);
	for (int c = 0; c < ncpus; c++) {
		struct ph_pu pu = { .cpu = c, .core = -1, .package = 0 };

		if (!numa_bitmask_isbitset(allowed, (unsigned)c))
			continue;
		pu.node = numa_node_of_cpu(c);
		if (pu.node < 0 || (cpunodes && !numa_bitmask_isbitset(cpunodes, (unsigned)pu.node)))
			continue;
		/* hwloc's cores; a CPU it did not list is a core of its own. */
		for (int k = 0; k < cpu->ncore_list && pu.core < 0; k++)
			for (int r = 0; r < cpu->core_list[k].npus && r < 16; r++)
				if (cpu->core_list[k].pu_ids[r] == c) {
					pu.core = k;
					pu.package = cpu->core_list[k].package;
				}
		if (pu.core < 0)
			pu.core = cpu->ncore_list + c;
		*(struct ph_pu *)xappend(&v, &n, sizeof(pu)) = pu;
	}
	numa_free_cpumask(allowed);
	if (n)
		qsort(v, (size_t)n, sizeof(*v), pu_cmp);
	*out = v;
	return n;
}

/* The sorted PUs and each one's rank among its core's siblings. */
struct sorted {
	struct ph_pu *pu;
	int *rank;
	int n, maxrank, cores;
};

static void sort_pus(const struct ph_pu *pus, int npus, struct sorted *s)
{
	s->n = npus;
	s->pu = xcalloc((size_t)npus + 1, sizeof(*s->pu));
	s->rank = xcalloc((size_t)npus + 1, sizeof(int));
	memcpy(s->pu, pus, (size_t)npus * sizeof(*pus));
	qsort(s->pu, (size_t)npus, sizeof(*s->pu), pu_cmp);
	s->maxrank = s->cores = 0;
	for (int i = 0; i < npus; i++) {
		s->rank[i] = i && s->pu[i - 1].core == s->pu[i].core ? s->rank[i - 1] + 1 : 0;
		s->cores += s->rank[i] == 0;
		if (s->rank[i] > s->maxrank)
			s->maxrank = s->rank[i];
	}
}

/* i with its lowest bits bits reversed: 0,4,2,6,1,5,3,7 for bits 3. */
static unsigned bit_reverse(unsigned i, int bits)
{
	unsigned r = 0;

	for (int b = 0; b < bits; b++, i >>= 1)
		r = (r << 1) | (i & 1);
	return r;
}

/*
 * Append to cpus the PUs of node block [lo, hi) of s in "distinct cores
 * first" order: every core's rank-0 PU, then rank 1, ...; at most maxrank.
 * spread (scatter) takes each rank's PUs not in order but by the reversed
 * bits of their index (van der Corput's sequence), so that the first 2^k
 * of them are evenly spaced over the node's cores and packages: of 8
 * cores, 4 threads run on every other one, as the seed's socket table
 * chose them by hand.
 */
static int node_order(const struct sorted *s, int lo, int hi, int maxrank, bool spread, int *cpus)
{
	int k = 0;

	for (int r = 0; r <= maxrank; r++) {
		int m = 0, bits = 0, *idx = xcalloc((size_t)(hi - lo) + 1, sizeof(int));
		unsigned steps;

		for (int i = lo; i < hi; i++)
			if (s->rank[i] == r)
				idx[m++] = i;
		while (spread && (1 << bits) < m)
			bits++;
		/* In order: m steps; spread: every index of bits bits, those past m skipped. */
		steps = spread ? 1u << bits : (unsigned)m;
		for (unsigned v = 0; v < steps; v++) {
			unsigned j = spread ? bit_reverse(v, bits) : v;

			if (j < (unsigned)m)
				cpus[k++] = s->pu[idx[j]].cpu;
		}
		free(idx);
	}
	return k;
}

int placement_order(enum ph_place p, const struct ph_pu *pus, int npus, int n,
		    int *cpus, char *why, size_t whylen)
{
	struct sorted s;
	int *all, nall = 0, err = 0;

	sort_pus(pus, npus, &s);
	all = xcalloc((size_t)npus + 1, sizeof(int));
	switch (p) {
	case PH_PLACE_COMPACT:
	case PH_PLACE_EXCLUSIVE: {
		int maxrank = p == PH_PLACE_EXCLUSIVE ? 0 : s.maxrank;

		for (int lo = 0, hi; lo < npus; lo = hi) {
			for (hi = lo; hi < npus && s.pu[hi].node == s.pu[lo].node; hi++)
				;
			nall += node_order(&s, lo, hi, maxrank, false, all + nall);
		}
		break;
	}
	case PH_PLACE_SCATTER: {
		/* Each node's own order, then dealt one from each node in turn. */
		int *start = xcalloc((size_t)npus + 1, sizeof(int));
		int *len = xcalloc((size_t)npus + 1, sizeof(int));
		int *tmp = xcalloc((size_t)npus + 1, sizeof(int));
		int nn = 0, t = 0;

		for (int lo = 0, hi; lo < npus; lo = hi, nn++) {
			for (hi = lo; hi < npus && s.pu[hi].node == s.pu[lo].node; hi++)
				;
			start[nn] = t;
			len[nn] = node_order(&s, lo, hi, s.maxrank, true, tmp + t);
			t += len[nn];
		}
		for (int i = 0; nall < npus; i++)
			for (int j = 0; j < nn; j++)
				if (i < len[j])
					all[nall++] = tmp[start[j] + i];
		free(start);
		free(len);
		free(tmp);
		break;
	}
	case PH_PLACE_SHARED:
		if (!s.maxrank) {
			snprintf(why, whylen,
				 "--placement shared: no core here has two CPUs (no SMT, or it is off), so no two threads can share one");
			err = -EOPNOTSUPP;
			goto out;
		}
		for (int i = 0; i < npus; i++)
			all[nall++] = s.pu[i].cpu;
		break;
	default:
		snprintf(why, whylen, "--placement: unknown placement");
		err = -EINVAL;
		goto out;
	}
	if (n > nall || n < 1) {
		if (p == PH_PLACE_EXCLUSIVE)
			snprintf(why, whylen,
				 "--placement exclusive: %d threads asked, but the chosen nodes have %d cores (%d CPUs)",
				 n, s.cores, npus);
		else
			snprintf(why, whylen,
				 "--placement %s: %d threads asked, but the chosen nodes have %d CPUs this process may use",
				 place_name(p), n, npus);
		err = -EINVAL;
		goto out;
	}
	memcpy(cpus, all, (size_t)n * sizeof(int));
out:
	free(all);
	free(s.pu);
	free(s.rank);
	return err;
}

static const struct ph_pu *find_pu(const struct ph_pu *pus, int npus, int cpu)
{
	for (int i = 0; i < npus; i++)
		if (pus[i].cpu == cpu)
			return &pus[i];
	return NULL;
}

void placement_describe(const struct ph_pu *pus, int npus, const int *cpus, int n,
			struct ph_place_found *f)
{
	size_t len = 0;

	memset(f, 0, sizeof(*f));
	f->threads = n;
	for (int i = 0; i < n; i++) {
		const struct ph_pu *pu = find_pu(pus, npus, cpus[i]);
		bool core_seen = false, core_again = false, pkg_seen = false, node_seen = false;

		if (!pu) {
			f->unknown++;
			continue;
		}
		for (int j = 0; j < i; j++) {
			const struct ph_pu *q = find_pu(pus, npus, cpus[j]);

			if (!q)
				continue;
			if (q->core == pu->core) {
				/* The second thread on a core makes it shared, once. */
				core_again = core_seen;
				core_seen = true;
			}
			pkg_seen |= q->package == pu->package;
			node_seen |= q->node == pu->node;
		}
		f->cores += !core_seen;
		f->shared_cores += core_seen && !core_again;
		f->packages += !pkg_seen;
		if (!node_seen) {
			f->nnodes++;
			if (len < sizeof(f->nodes))
				len += (size_t)snprintf(f->nodes + len, sizeof(f->nodes) - len, "%s%d",
							len ? "," : "", pu->node);
		}
	}
}

int placement_capacity(enum ph_place p, const struct ph_pu *pus, int npus)
{
	struct ph_place_found f;
	int *all;

	if (p != PH_PLACE_EXCLUSIVE)
		return npus;
	all = xcalloc((size_t)npus, sizeof(int));
	for (int i = 0; i < npus; i++)
		all[i] = pus[i].cpu;
	placement_describe(pus, npus, all, npus, &f);
	free(all);
	return f.cores;
}
