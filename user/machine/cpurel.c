// SPDX-License-Identifier: GPL-2.0-only
/*
 * cpurel.c - the relation of two CPUs, from hwloc's tree.
 */
#include "cpurel.h"

#include <errno.h>
#include <hwloc.h>

static const char *const rel_names[PH_REL_COUNT] = {
	"self", "smt", "l3", "node", "socket", "remote",
};

const char *cpurel_name(enum ph_cpurel r)
{
	return r < PH_REL_COUNT ? rel_names[r] : "unknown";
}

static int same(int a, int b)
{
	return a >= 0 && a == b;
}

enum ph_cpurel cpurel_classify(const struct ph_cpuplace *a, const struct ph_cpuplace *b)
{
	if (a->cpu == b->cpu)
		return PH_REL_SELF;
	if (same(a->core, b->core))
		return PH_REL_SMT;
	if (same(a->l3, b->l3))
		return PH_REL_L3;
	if (same(a->node, b->node))
		return PH_REL_NODE;
	if (same(a->package, b->package))
		return PH_REL_SOCKET;
	return PH_REL_REMOTE;
}

/* The logical index of pu's ancestor of type, or -1. */
static int ancestor(hwloc_topology_t t, hwloc_obj_t pu, hwloc_obj_type_t type)
{
	hwloc_obj_t o = hwloc_get_ancestor_obj_by_type(t, type, pu);

	return o ? (int)o->logical_index : -1;
}

/*
 * The L3 above pu; on a machine without one, the highest cache above it
 * (numbered apart from L3s: depth x 1000 + index).  -1 if none.
 */
static int last_cache(hwloc_topology_t t, hwloc_obj_t pu)
{
	int l3 = ancestor(t, pu, HWLOC_OBJ_L3CACHE), top = -1;

	if (l3 >= 0)
		return l3;
	for (hwloc_obj_t o = pu->parent; o; o = o->parent)
		if (hwloc_obj_type_is_dcache(o->type))
			top = 1000 * (int)o->attr->cache.depth + (int)o->logical_index;
	return top;
}

/* The OS id of the NUMA node whose CPU set holds cpu, or -1. */
static int node_of(hwloc_topology_t t, unsigned cpu)
{
	hwloc_obj_t n = NULL;

	while ((n = hwloc_get_next_obj_by_type(t, HWLOC_OBJ_NUMANODE, n)))
		if (n->cpuset && hwloc_bitmap_isset(n->cpuset, cpu))
			return (int)n->os_index;
	return -1;
}

int cpurel_places(const char *synthetic, const int *cpus, int n, struct ph_cpuplace *places)
{
	hwloc_topology_t t;
	int err = 0;

	if (hwloc_topology_init(&t))
		return -ENOMEM;
	if (synthetic && hwloc_topology_set_synthetic(t, synthetic)) {
		hwloc_topology_destroy(t);
		return -EINVAL;
	}
	if (hwloc_topology_load(t)) {
		hwloc_topology_destroy(t);
		return -EIO;
	}
	for (int i = 0; i < n && !err; i++) {
		hwloc_obj_t pu = hwloc_get_pu_obj_by_os_index(t, (unsigned)cpus[i]);
		struct ph_cpuplace *p = &places[i];

		if (!pu) {
			err = -ENOENT;
			break;
		}
		p->cpu = cpus[i];
		p->core = ancestor(t, pu, HWLOC_OBJ_CORE);
		p->l3 = last_cache(t, pu);
		p->node = node_of(t, (unsigned)cpus[i]);
		p->package = ancestor(t, pu, HWLOC_OBJ_PACKAGE);
	}
	hwloc_topology_destroy(t);
	return err;
}
