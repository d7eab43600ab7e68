// SPDX-License-Identifier: GPL-2.0-only
/*
 * topology.c - NUMA nodes, hugepage pools, SLIT, HMAT and THP mode.
 */
#include "topology.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <numa.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NODE_SYSFS "/sys/devices/system/node"

int sysfs_choice(const char *path, char *out, size_t size)
{
	char buf[256], *l, *r;
	int n = read_text(path, buf, sizeof(buf));

	if (n < 0)
		return n;
	l = strchr(buf, '[');
	r = l ? strchr(l, ']') : NULL;
	if (!l || !r)
		return -EINVAL;
	*r = '\0';
	snprintf(out, size, "%s", l + 1);
	return 0;
}

static void load_pool(int node, const char *dir, struct ph_hugepool *p)
{
	char path[192];
	uint64_t v;

	p->total = -1;
	p->free = -1;
	snprintf(path, sizeof(path), NODE_SYSFS "/node%d/hugepages/%s/nr_hugepages", node, dir);
	if (read_u64(path, &v))
		return;
	p->total = (int64_t)v;
	snprintf(path, sizeof(path), NODE_SYSFS "/node%d/hugepages/%s/free_hugepages", node, dir);
	if (!read_u64(path, &v))
		p->free = (int64_t)v;
}

static int64_t hmat_value(const char *dir, const char *name)
{
	char path[256];
	uint64_t v;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return read_u64(path, &v) ? -1 : (int64_t)v;
}

/* The initiator nodes are symlinks "nodeN" in the initiators directory. */
static void hmat_initiators(const char *dir, char *out, size_t size)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int ids[256], n = 0;

	out[0] = '\0';
	if (!d)
		return;
	while ((e = readdir(d)) && n < (int)ARRAY_SIZE(ids)) {
		int id;
		char tail;

		if (sscanf(e->d_name, "node%d%c", &id, &tail) == 1)
			ids[n++] = id;
	}
	closedir(d);
	/* Directory order is arbitrary; print ascending, as a plain list. */
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && ids[j - 1] > ids[j]; j--) {
			int tmp = ids[j];

			ids[j] = ids[j - 1];
			ids[j - 1] = tmp;
		}
	ints_text(ids, n, out, size);
}

static void load_hmat(struct ph_topology *t)
{
	for (int i = 0; i < t->nnodes; i++) {
		for (int access = 0; access < 8; access++) {
			char dir[160];
			struct ph_hmat h;

			snprintf(dir, sizeof(dir), NODE_SYSFS "/node%d/access%d/initiators",
				 t->nodes[i].id, access);
			if (!path_exists(dir))
				continue;
			memset(&h, 0, sizeof(h));
			h.target = t->nodes[i].id;
			h.access = access;
			hmat_initiators(dir, h.initiators, sizeof(h.initiators));
			h.read_latency_ns = hmat_value(dir, "read_latency");
			h.write_latency_ns = hmat_value(dir, "write_latency");
			h.read_bandwidth_MiBps = hmat_value(dir, "read_bandwidth");
			h.write_bandwidth_MiBps = hmat_value(dir, "write_bandwidth");
			t->hmat = xrealloc(t->hmat, (t->nhmat + 1) * sizeof(*t->hmat));
			t->hmat[t->nhmat++] = h;
		}
	}
}

int topology_load(struct ph_topology *t)
{
	int max;

	memset(t, 0, sizeof(*t));
	if (numa_available() < 0)
		return -ENOSYS;
	max = numa_max_node();
	t->nodes = xcalloc(max + 1, sizeof(*t->nodes));
	for (int n = 0; n <= max; n++) {
		struct ph_node *nd;
		struct bitmask *cpus;
		char path[128];
		long long freeb = 0, size;

		if (!numa_bitmask_isbitset(numa_nodes_ptr, n))
			continue;
		nd = &t->nodes[t->nnodes++];
		nd->id = n;
		snprintf(path, sizeof(path), NODE_SYSFS "/node%d/cpulist", n);
		if (read_text(path, nd->cpulist, sizeof(nd->cpulist)) < 0)
			nd->cpulist[0] = '\0';
		cpus = numa_allocate_cpumask();
		if (!numa_node_to_cpus(n, cpus))
			nd->ncpus = (int)numa_bitmask_weight(cpus);
		numa_free_cpumask(cpus);
		size = numa_node_size64(n, &freeb);
		nd->has_memory = size > 0;
		nd->mem_total = size > 0 ? (uint64_t)size : 0;
		nd->mem_free = size > 0 && freeb > 0 ? (uint64_t)freeb : 0;
		load_pool(n, "hugepages-2048kB", &nd->hp_2m);
		load_pool(n, "hugepages-1048576kB", &nd->hp_1g);
	}
	t->distance = xcalloc((size_t)t->nnodes * t->nnodes, sizeof(int));
	for (int i = 0; i < t->nnodes; i++)
		for (int j = 0; j < t->nnodes; j++)
			t->distance[i * t->nnodes + j] =
				numa_distance(t->nodes[i].id, t->nodes[j].id);
	load_hmat(t);
	if (sysfs_choice("/sys/kernel/mm/transparent_hugepage/enabled",
			 t->thp_enabled, sizeof(t->thp_enabled)))
		snprintf(t->thp_enabled, sizeof(t->thp_enabled), "unsupported");
	if (sysfs_choice("/sys/kernel/mm/transparent_hugepage/defrag",
			 t->thp_defrag, sizeof(t->thp_defrag)))
		snprintf(t->thp_defrag, sizeof(t->thp_defrag), "unsupported");
	t->hugetlb_2m = path_exists("/sys/kernel/mm/hugepages/hugepages-2048kB");
	t->hugetlb_1g = path_exists("/sys/kernel/mm/hugepages/hugepages-1048576kB");
	return 0;
}

void topology_free(struct ph_topology *t)
{
	free(t->nodes);
	free(t->distance);
	free(t->hmat);
	memset(t, 0, sizeof(*t));
}

int topology_index(const struct ph_topology *t, int node)
{
	for (int i = 0; i < t->nnodes; i++)
		if (t->nodes[i].id == node)
			return i;
	return -1;
}

int topology_distance(const struct ph_topology *t, int from, int to)
{
	int a = topology_index(t, from), b = topology_index(t, to);

	return a < 0 || b < 0 ? 0 : t->distance[a * t->nnodes + b];
}
