/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cxl.h - the CXL memory devices Linux shows in /sys/bus/cxl/devices
 * (drivers/cxl, Documentation/ABI/testing/sysfs-bus-cxl): each memdev
 * (memN), the endpoint port whose uport it is, the host bridge above it,
 * the regions that decode its memory, the NUMA node that memory is on,
 * the access coordinates the kernel computed for the region and the
 * node, and the device's CDAT as the endpoint's CDAT attribute holds it.
 *
 * Links followed (all under a root, "" for the machine's own):
 *   endpointE/uport -> .../memN             the endpoint of memN
 *   endpointE (resolved) .../rootR/portP/...  portP/uport's name is the
 *                                           host bridge (pci0000:0c)
 *   regionN/targetK = "decoderE.D"          region N decodes endpoint E
 *   regionN/resource + memory block size    the block memoryB, and its
 *                                           nodeK link the region's node
 *   memN (resolved) is .../PCI device/memN  the device's PCIe link
 *                                           (current_link_speed, _width),
 *                                           and its parent's, the port the
 *                                           kernel takes the link latency of
 *   portP/uport/firmware_node/uid           the host bridge's ACPI _UID,
 *                                           which names its generic port
 */
#ifndef PAGEHOP_CXL_H
#define PAGEHOP_CXL_H

#include "cdat.h"

#include <stdbool.h>
#include <stdint.h>

#define PH_CXL_SYSFS "/sys/bus/cxl/devices"

/* One access class's figures (read_latency ...); -1 where there is no file. */
struct ph_cxl_coord {
	bool present;		/* the accessK directory exists */
	int64_t read_lat_ns, write_lat_ns;
	int64_t read_bw_MBps, write_bw_MBps;
};

struct ph_cxl_memdev {
	int id;			/* N of memN */
	int endpoint;		/* E of endpointE, -1 none */
	char host_bridge[64];	/* "" unknown */
	char serial[32];
	int64_t ram_bytes, pmem_bytes;	/* -1 no such file */
	bool has_ram_qos, has_pmem_qos;
	int ram_qos, pmem_qos;	/* ram/qos_class, pmem/qos_class */
	int dev_node;		/* numa_node of the device itself, -1 none */
	char regions[128];	/* "region0,region3", "" none */
	char nodes[64];		/* the nodes of those regions' memory */
	/*
	 * The PCIe links as pcie_link_speed_mbps() gives them (2500 for
	 * "2.5 GT/s"): the device's own with its width, and the link of the
	 * port above the device; 0 unknown.
	 */
	int link_mbps, link_width, port_link_mbps;
	bool switched;		/* a switch port between the host bridge's port and the endpoint */
	int64_t hb_uid;		/* the host bridge's ACPI _UID, -1 unknown */
	int64_t cdat_bytes;	/* -1 no CDAT attribute */
	int cdat_err;		/* cdat_read(): 0 parsed */
	char cdat_why[160];
	struct ph_cdat cdat;	/* when cdat_err == 0 */
};

struct ph_cxl_region {
	int id;
	char mode[16];
	uint64_t start, size;	/* resource, size; start UINT64_MAX unknown */
	char memdevs[128];	/* "mem0" */
	int node;		/* -1: no online memory block found */
	struct ph_cxl_coord access[2];
};

struct ph_cxl_node {		/* a node that holds a region's memory */
	int node;
	struct ph_cxl_coord access[2];	/* nodeN/accessK/initiators */
};

struct ph_cxl {
	bool present;		/* root/sys/bus/cxl/devices exists */
	struct ph_cxl_memdev *mem;
	int nmem;
	struct ph_cxl_region *reg;
	int nreg;
	struct ph_cxl_node *node;
	int nnode;
};

/* Read root ("" for this machine) into c; never fails: what is absent is -1 or "". */
void cxl_load(const char *root, struct ph_cxl *c);
/*
 * The root the commands read: "" (this machine); in the test build
 * (PAGEHOP_TEST_HOOKS) the environment's PAGEHOP_CXL_ROOT when set, a
 * sysfs and ACPI tables laid out under it by a test.
 */
const char *cxl_sysfs_root(void);
void cxl_free(struct ph_cxl *c);
/*
 * A sysfs current_link_speed ("2.5 GT/s PCIe", "16.0 GT/s PCIe") in Mb/s
 * per lane as pcie_link_speed_mbps() counts it (2500, 16000: the raw
 * rate, no encoding taken off); 0 for "Unknown" or anything else.
 */
int cxl_link_speed_mbps(const char *text);

/* What Linux made of the memory nodes: their tiers, and the DRAM reference. */
struct ph_cxl_tiering {
	bool read;		/* has_memory was read */
	int n;
	int *ids;		/* every node with memory, ascending */
	bool *cpus;		/* it has CPUs */
	bool *cpus_read;	/* its cpulist was read (cpus false: it is empty) */
	int *tier;		/* memory_tierT holding it (sysfs), -1 none */
	struct ph_cxl_coord *access1;	/* nodeN/access1/initiators */
	int *wi_weight;		/* weighted_interleave/nodeN, -1 none */
};
/*
 * Read root's nodes with memory (has_memory), their CPUs, access1
 * figures, memory tier (/sys/devices/virtual/memory_tiering/memory_tierT/
 * nodelist) and weighted-interleave weight
 * (/sys/kernel/mm/mempolicy/weighted_interleave/nodeN).
 */
void cxl_tiering_load(const char *root, struct ph_cxl_tiering *t);
void cxl_tiering_free(struct ph_cxl_tiering *t);

/* What a node's memory is, as sysfs shows it; never a guess. */
enum ph_node_kind {
	PH_NODE_UNKNOWN = 1,	/* sysfs could not tell */
	PH_NODE_CXL,		/* a CXL region's memory is on it */
	PH_NODE_DRAM,		/* it has CPUs, and no CXL region is on it */
	PH_NODE_CPULESS,	/* memory, no CPUs, and no CXL region found */
};
struct ph_node_kind_of {
	enum ph_node_kind kind;
	char regions[256];	/* CXL: "region0 (mem0)", the regions on it and their memdevs; else "" */
	char how[384];		/* what shows the kind, or what could not be read */
};
/*
 * node's kind from c (cxl_load) and t (cxl_tiering_load) of one root: the
 * regions on it, and in how what shows it (the regions, its cpulist, or
 * what could not be read).  A node with CPUs that a region is on too is
 * CXL (how says it has CPUs).  A CPU-less node is unknown while a region
 * has memory on no node found (its memory blocks are not online, or
 * their node links are missing): it could be that region's.
 */
void cxl_node_kind(const struct ph_cxl *c, const struct ph_cxl_tiering *t, int node,
		   struct ph_node_kind_of *k);
/* "CXL", "DRAM", "CPU-less", "unknown". */
const char *cxl_node_kind_name(enum ph_node_kind k);

#endif
