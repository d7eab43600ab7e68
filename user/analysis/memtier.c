// SPDX-License-Identifier: GPL-2.0-only
/*
 * memtier.c - mm/memory-tiers.c's arithmetic on a table (memtier.h).
 */
#include "memtier.h"
#include "hmat_table.h"
#include "kernel_view.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum ph_memtier_rule memtier_rule_of(const char *release)
{
	int major = 0, minor = 0;

	if (sscanf(release, "%d.%d", &major, &minor) == 2 && (major > 6 || (major == 6 && minor >= 7)))
		return PH_MEMTIER_HMAT;
	return PH_MEMTIER_6_1;
}

const char *memtier_rule_name(enum ph_memtier_rule r)
{
	return r == PH_MEMTIER_HMAT
	       ? "Linux 6.7 and later: abstract distance from the HMAT (mt_perf_to_adistance)"
	       : "Linux 6.1 to 6.6: every memory node at MEMTIER_ADISTANCE_DRAM, HMAT unused";
}

/* mt_set_default_dram_perf()'s test: |x - ref| * 10 > ref. */
static bool off_10pct(uint32_t x, uint32_t ref)
{
	uint64_t d = x > ref ? x - ref : ref - x;

	return d * 10 > ref;
}

/* The ids of positions k with want[k], as a list "0-3,5". */
static void id_list(int n, const int *ids, const bool *want, char *out, size_t size)
{
	size_t len = 0;

	out[0] = '\0';
	for (int k = 0; k < n; k++) {
		int e = k;

		if (!want[k])
			continue;
		while (e + 1 < n && want[e + 1] && ids[e + 1] == ids[e] + 1)
			e++;
		len += (size_t)snprintf(out + len, len < size ? size - len : 0, "%s%d", len ? "," : "", ids[k]);
		if (e > k)
			len += (size_t)snprintf(out + len, len < size ? size - len : 0, "-%d", ids[e]);
		if (len >= size)
			return;
		k = e;
	}
}

/* establish_demotion_targets(): the next tier down, at the first distance reached. */
static void demotion(int n, const int *ids, const bool *cpus, const bool *memory,
		     const int *dist, struct ph_memtier *m)
{
	int *load = xcalloc((size_t)n, sizeof(int));
	bool *used = xcalloc((size_t)n, sizeof(bool)), *pref = xcalloc((size_t)n, sizeof(bool));

	for (int k = 0; k < n; k++) {
		int lower = -1, best = -1, t;

		if (!memory[k])
			continue;
		for (int j = 0; j < n; j++)
			if (memory[j] && m->node[j].tier > m->node[k].tier &&
			    (lower < 0 || m->node[j].tier < lower))
				lower = m->node[j].tier;
		if (lower < 0)
			continue;
		for (int j = 0; j < n; j++) {
			used[j] = !memory[j] || m->node[j].tier != lower;
			pref[j] = false;
		}
		while ((t = kernel_next_best(n, dist, cpus, memory, load, k, used)) >= 0) {
			if (best >= 0 && dist[k * n + t] != best)
				break;
			best = dist[k * n + t];
			pref[t] = true;
		}
		id_list(n, ids, pref, m->node[k].demote, sizeof(m->node[k].demote));
	}
	free(load);
	free(used);
	free(pref);
}

long memtier_adistance(long lat, long bw, long ref_lat, long ref_bw)
{
	/* mt_perf_to_adistance(), its divisions in this order, in whole numbers. */
	if (!lat || !bw || !ref_lat || !ref_bw)
		return -1;
	return PH_MEMTIER_ADISTANCE_DRAM * lat / ref_lat * ref_bw / bw;
}

void memtier_predict(enum ph_memtier_rule rule, int n, const int *ids, const bool *cpus,
		     const bool *memory, const int *dist, const struct ph_acpi_hmat *t,
		     struct ph_memtier *m)
{
	struct ph_memtier_node *ref = NULL;
	bool *in = xcalloc((size_t)(n ? n : 1), sizeof(bool));
	size_t len = 0;

	memset(m, 0, sizeof(*m));
	m->rule = rule;
	m->n = n;
	m->ref = m->mismatch = -1;
	m->node = xcalloc((size_t)(n ? n : 1), sizeof(*m->node));
	for (int k = 0; k < n; k++) {
		struct ph_memtier_node *x = &m->node[k];
		struct ph_hmat_tier f = { .node = (uint32_t)ids[k] };

		x->node = ids[k];
		x->cpu = cpus[k];
		x->memory = memory[k];
		x->adist = PH_MEMTIER_ADISTANCE_DRAM;
		if (t)
			hmat_best_figures(t, (uint32_t)ids[k], &f);
		x->read_lat = f.read_lat;
		x->write_lat = f.write_lat;
		x->read_bw = f.read_bw;
		x->write_bw = f.write_bw;
	}
	/* hmat_set_default_dram_perf(): nodes with CPUs and memory, ascending. */
	for (int k = 0; rule == PH_MEMTIER_HMAT && t && k < n && m->mismatch < 0; k++) {
		struct ph_memtier_node *x = &m->node[k];

		if (!x->cpu || !x->memory || !(x->read_lat + x->write_lat) ||
		    !(x->read_bw + x->write_bw))
			continue;
		if (!ref) {
			ref = x;
			m->ref = x->node;
		} else if (off_10pct(x->read_lat, ref->read_lat) || off_10pct(x->write_lat, ref->write_lat) ||
			   off_10pct(x->read_bw, ref->read_bw) || off_10pct(x->write_bw, ref->write_bw)) {
			m->mismatch = x->node;
		}
	}
	for (int k = 0; k < n; k++) {
		struct ph_memtier_node *x = &m->node[k];
		long lat = (long)x->read_lat + x->write_lat, bw = (long)x->read_bw + x->write_bw;

		if (ref && m->mismatch < 0 && lat && bw) {
			x->adist = memtier_adistance(lat, bw, (long)ref->read_lat + ref->write_lat,
						     (long)ref->read_bw + ref->write_bw);
			x->from_hmat = true;
		}
		x->tier = x->memory ? (int)(x->adist >> PH_MEMTIER_CHUNK_BITS) : -1;
	}
	if (rule == PH_MEMTIER_HMAT)
		demotion(n, ids, cpus, memory, dist, m);
	/* The tiers in ascending order, as sysfs lists memory_tierN. */
	for (int tier = -1;;) {
		int next = -1;

		for (int k = 0; k < n; k++)
			if (m->node[k].tier > tier && (next < 0 || m->node[k].tier < next))
				next = m->node[k].tier;
		if (next < 0)
			break;
		for (int k = 0; k < n; k++)
			in[k] = m->node[k].tier == next;
		len += (size_t)snprintf(m->tiers + len, len < sizeof(m->tiers) ? sizeof(m->tiers) - len : 0,
					"%s%d:", len ? " " : "", next);
		if (len < sizeof(m->tiers))
			id_list(n, ids, in, m->tiers + len, sizeof(m->tiers) - len);
		len = strlen(m->tiers);
		tier = next;
	}
	free(in);
}

void memtier_free(struct ph_memtier *m)
{
	free(m->node);
	memset(m, 0, sizeof(*m));
}
