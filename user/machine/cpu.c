// SPDX-License-Identifier: GPL-2.0-only
/*
 * cpu.c - CPU identity through libcpuid, caches and SMT through hwloc.
 */
#include "cpu.h"
#include "util.h"

#include <errno.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#include <hwloc.h>
#include <libcpuid.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The hypervisor's vendor string, which libcpuid does not decode. */
static void load_hv_vendor(struct ph_cpu *c)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned int a, r[3];

	__cpuid(0x40000000, a, r[0], r[1], r[2]);
	(void)a;
	memcpy(c->hv_vendor, r, 12);
	c->hv_vendor[12] = 0;
	for (int i = 0; i < 12; i++)
		if (c->hv_vendor[i] && (c->hv_vendor[i] < 32 || c->hv_vendor[i] > 126))
			c->hv_vendor[0] = 0;
	/* "bhyve bhyve ", "KVMKVMKVM\0\0\0": the padding is not part of the name. */
	for (int i = (int)strlen(c->hv_vendor) - 1; i >= 0 && c->hv_vendor[i] == ' '; i--)
		c->hv_vendor[i] = 0;
#else
	(void)c;
#endif
}

static void load_cpuid(struct ph_cpu *c)
{
	struct cpu_raw_data_t raw;
	struct cpu_id_t id;
	uint32_t max_basic, max_ext;

	if (!cpuid_present() || cpuid_get_raw_data(&raw) || cpu_identify(&raw, &id))
		return;
	c->identified = true;
	snprintf(c->vendor, sizeof(c->vendor), "%s", id.vendor_str);
	snprintf(c->brand, sizeof(c->brand), "%s", id.brand_str);
	snprintf(c->codename, sizeof(c->codename), "%s", id.cpu_codename);
	c->family = id.ext_family;
	c->model = id.ext_model;
	c->stepping = id.stepping;
	c->constant_tsc = id.flags[CPU_FEATURE_CONSTANT_TSC];
	c->hypervisor = id.flags[CPU_FEATURE_HYPERVISOR];
	if (c->hypervisor)
		load_hv_vendor(c);

	max_basic = raw.basic_cpuid[0][0];
	max_ext = raw.ext_cpuid[0][0];
	if (max_basic >= 0x15 && 0x15 < MAX_CPUID_LEVEL)
		memcpy(c->leaf15, raw.basic_cpuid[0x15], sizeof(c->leaf15));
	if (max_basic >= 0x16 && 0x16 < MAX_CPUID_LEVEL)
		memcpy(c->leaf16, raw.basic_cpuid[0x16], sizeof(c->leaf16));
	/* Invariant TSC: CPUID 0x80000007 EDX bit 8, on Intel and AMD alike. */
	if (max_ext >= 0x80000007)
		c->invariant_tsc = raw.ext_cpuid[7][3] & (1u << 8);
}

static const char *cache_type(hwloc_obj_cache_type_t t)
{
	switch (t) {
	case HWLOC_OBJ_CACHE_DATA: return "data";
	case HWLOC_OBJ_CACHE_INSTRUCTION: return "instruction";
	default: return "unified";
	}
}

static void load_hwloc(struct ph_cpu *c)
{
	hwloc_topology_t topo;
	int ncores;

	if (hwloc_topology_init(&topo))
		return;
	if (hwloc_topology_load(topo)) {
		hwloc_topology_destroy(topo);
		return;
	}
	c->packages = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PACKAGE);
	c->cores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
	c->pus = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);

	for (hwloc_obj_type_t t = HWLOC_OBJ_L1CACHE; t <= HWLOC_OBJ_L5CACHE; t++) {
		/* One row per (level, type): instances of a level are alike. */
		for (int k = 0; k < 3; k++) {
			hwloc_obj_cache_type_t want = k == 0 ? HWLOC_OBJ_CACHE_DATA :
				k == 1 ? HWLOC_OBJ_CACHE_INSTRUCTION : HWLOC_OBJ_CACHE_UNIFIED;
			hwloc_obj_t o = NULL, first = NULL;
			struct ph_cache *pc;
			int n = 0;

			while ((o = hwloc_get_next_obj_by_type(topo, t, o))) {
				if (o->attr->cache.type != want)
					continue;
				first = first ? first : o;
				n++;
			}
			if (!first || c->ncaches >= (int)ARRAY_SIZE(c->caches))
				continue;
			pc = &c->caches[c->ncaches++];
			pc->level = (int)first->attr->cache.depth;
			snprintf(pc->type, sizeof(pc->type), "%s", cache_type(want));
			pc->size = first->attr->cache.size;
			pc->line = (int)first->attr->cache.linesize;
			pc->ways = first->attr->cache.associativity;
			pc->instances = n;
			pc->cpus_per_instance = hwloc_bitmap_weight(first->cpuset);
		}
	}
	ncores = c->cores;
	if (ncores > 0) {
		hwloc_obj_t core = NULL;

		c->core_list = xcalloc(ncores, sizeof(*c->core_list));
		while ((core = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_CORE, core)) &&
		       c->ncore_list < ncores) {
			struct ph_core *pc = &c->core_list[c->ncore_list++];
			hwloc_obj_t pkg = hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_PACKAGE, core);

			pc->package = pkg ? (int)pkg->logical_index : 0;
			pc->core = (int)core->logical_index;
			hwloc_bitmap_list_snprintf(pc->pus, sizeof(pc->pus), core->cpuset);
			pc->npus = hwloc_bitmap_weight(core->cpuset);
			{
				unsigned id;
				int k = 0;

				hwloc_bitmap_foreach_begin(id, core->cpuset)
					if (k < (int)ARRAY_SIZE(pc->pu_ids))
						pc->pu_ids[k++] = (int)id;
				hwloc_bitmap_foreach_end();
			}
			if (pc->npus > c->threads_per_core)
				c->threads_per_core = pc->npus;
		}
	}
	hwloc_topology_destroy(topo);
}

int cpu_load(struct ph_cpu *c)
{
	memset(c, 0, sizeof(*c));
	load_cpuid(c);
	load_hwloc(c);
	return c->identified || c->pus ? 0 : -ENODEV;
}

void cpu_free(struct ph_cpu *c)
{
	free(c->core_list);
	c->core_list = NULL;
	c->ncore_list = 0;
}
