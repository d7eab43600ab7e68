// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_cxl.c - the CXL sysfs reader on a tree made here in a temporary
 * directory, laid out as Linux 6.12 lays out /sys/bus/cxl with one QEMU
 * type-3 device: links where the kernel has links, values where it has
 * files, in the kernel's own formats (resource and size in 0x hex, the
 * memory block size in bare hex).  Every expected value is written by
 * hand below, never taken from the reader.
 *
 *   mem0: endpoint2 under root0/port1 (host bridge pci0000:0c), pmem 512
 *         MiB, qos_class 0, a valid 64-byte CDAT; decoded by region0
 *         (0x390000000, 256 MiB): blocks 0x390000000 / 0x8000000 = 114
 *         and 115, of which only 115 is system RAM (a devdax namespace
 *         keeps its info block in 114), on node 2.
 *         Its link 2.5 GT/s x1 below a root port at 2.5 GT/s; the host
 *         bridge's _UID 12 (firmware_node/uid).
 *   mem1: endpoint3 behind a switch port (root0/port1/port4), ram 256 MiB
 *         without qos_class, a CDAT whose sum is broken, in no region, no
 *         link speed.
 *   nodes: has_memory 0,2-3,5; node0's cpulist "0-1", node2's and node3's
 *         empty, node5 without a cpulist: node 0 DRAM, node 2 CXL (region0
 *         of mem0), node 3 CPU-less, node 5 and node 7 (not in has_memory)
 *         unknown.
 */
#include "unit.h"
#include "table_bytes.h"

#include "cdat.h"
#include "cxl.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[] = "/tmp/test_cxl.XXXXXX";

static void mkdirs(const char *rel)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	mkdir(path, 0755);
}

/* root/rel holding len bytes of data (a parent directory made as needed). */
static void put_file(const char *rel, const void *data, size_t len)
{
	char path[PATH_MAX], dir[PATH_MAX];
	FILE *f;

	snprintf(dir, sizeof(dir), "%s", rel);
	*strrchr(dir, '/') = '\0';
	mkdirs(dir);
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
}

static void put_text(const char *rel, const char *text)
{
	put_file(rel, text, strlen(text));
}

static void put_link(const char *rel, const char *target)
{
	char path[PATH_MAX], dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s", rel);
	*strrchr(dir, '/') = '\0';
	mkdirs(dir);
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	assert_int_equal(symlink(target, path), 0);
}

/* Header, a non-volatile DSMAS of 512 MiB, a read latency of 150 x 1000 ps. */
static void cdat(struct bytes *w)
{
	uint8_t sum = 0;

	memset(w, 0, sizeof(*w));
	put(w, 64, 4), put(w, 1, 1), put(w, 0, 1), put(w, 0, 6), put(w, 0, 4);
	put(w, 0, 1), put(w, 0, 1), put(w, 24, 2);
	put(w, 0, 1), put(w, 0x4, 1), put(w, 0, 2), put(w, 0, 8), put(w, 512u << 20, 8);
	put(w, 1, 1), put(w, 0, 1), put(w, 24, 2);
	put(w, 0, 1), put(w, 0, 1), put(w, 1, 1), put(w, 0, 1), put(w, 1000, 8);
	put(w, 150, 2), put(w, 0, 6);
	for (size_t i = 0; i < w->n; i++)
		sum = (uint8_t)(sum + w->b[i]);
	w->b[5] = (uint8_t)-sum;
}

#define PLAT "sys/devices/platform/ACPI0017:00/root0"
#define PCI "sys/devices/pci0000:0c/0000:0c:00.0/0000:0d:00.0"
#define BUS "sys/bus/cxl/devices"

static int make_tree(void **state)
{
	static const char *const coords[] = { "read_latency", "write_latency", "read_bandwidth",
					      "write_bandwidth" };
	/* access0 / access1 of region0, then of node2, in the order of coords. */
	static const char *const reg[2][4] = { { "368", "468", "250", "312" },
					       { "369", "469", "251", "313" } };
	static const char *const node[2][4] = { { "370", "470", "252", "314" },
						{ "371", "471", "253", "315" } };
	struct bytes w;
	char rel[PATH_MAX];

	(void)state;
	if (!mkdtemp(root))
		return -1;
	put_text(PCI "/mem0/serial", "0x0\n");
	put_text(PCI "/mem0/numa_node", "-1\n");
	put_text(PCI "/mem0/pmem/size", "0x20000000\n");
	put_text(PCI "/mem0/pmem/qos_class", "0\n");
	put_text(PCI "/mem0/ram/size", "0x0\n");
	put_text(PCI "/current_link_speed", "2.5 GT/s PCIe\n");
	put_text(PCI "/current_link_width", "1\n");
	put_text("sys/devices/pci0000:0c/0000:0c:00.0/current_link_speed", "2.5 GT/s PCIe\n");
	put_text("sys/devices/pci0000:0c/firmware_node/uid", "12\n");
	put_text("sys/devices/pci0000:0e/0000:0e:00.0/mem1/serial", "0x1\n");
	put_text("sys/devices/pci0000:0e/0000:0e:00.0/mem1/ram/size", "0x10000000\n");
	put_link(PLAT "/port1/uport", "../../../../pci0000:0c");
	put_link(PLAT "/port1/endpoint2/uport", "../../../../../pci0000:0c/0000:0c:00.0/0000:0d:00.0/mem0");
	put_link(PLAT "/port1/port4/endpoint3/uport", "../../../../../../pci0000:0e/0000:0e:00.0/mem1");
	cdat(&w);
	put_file(PLAT "/port1/endpoint2/CDAT", w.b, w.n);
	w.b[20] ^= 1;
	put_file(PLAT "/port1/port4/endpoint3/CDAT", w.b, w.n);
	put_text(PLAT "/decoder0.0/region0/mode", "pmem\n");
	put_text(PLAT "/decoder0.0/region0/resource", "0x390000000\n");
	put_text(PLAT "/decoder0.0/region0/size", "0x10000000\n");
	put_text(PLAT "/decoder0.0/region0/interleave_ways", "1\n");
	put_text(PLAT "/decoder0.0/region0/target0", "decoder2.0\n");
	for (int a = 0; a < 2; a++)
		for (int k = 0; k < 4; k++) {
			snprintf(rel, sizeof(rel), PLAT "/decoder0.0/region0/access%d/%s", a, coords[k]);
			put_text(rel, reg[a][k]);
			snprintf(rel, sizeof(rel), "sys/devices/system/node/node2/access%d/initiators/%s", a,
				 coords[k]);
			put_text(rel, node[a][k]);
		}
	put_text("sys/devices/system/node/has_memory", "0,2-3,5\n");
	put_text("sys/devices/system/node/node0/cpulist", "0-1\n");
	put_text("sys/devices/system/node/node2/cpulist", "\n");
	put_text("sys/devices/system/node/node3/cpulist", "\n");
	put_text("sys/devices/system/node/node5/meminfo", "\n");
	put_text("sys/devices/system/memory/block_size_bytes", "8000000\n");
	put_link("sys/devices/system/memory/memory115/node2", "../../node/node2");
	put_link(BUS "/mem0", "../../../devices/pci0000:0c/0000:0c:00.0/0000:0d:00.0/mem0");
	put_link(BUS "/mem1", "../../../devices/pci0000:0e/0000:0e:00.0/mem1");
	put_link(BUS "/endpoint2", "../../../devices/platform/ACPI0017:00/root0/port1/endpoint2");
	put_link(BUS "/endpoint3", "../../../devices/platform/ACPI0017:00/root0/port1/port4/endpoint3");
	put_link(BUS "/port1", "../../../devices/platform/ACPI0017:00/root0/port1");
	put_link(BUS "/root0", "../../../devices/platform/ACPI0017:00/root0");
	put_link(BUS "/region0", "../../../devices/platform/ACPI0017:00/root0/decoder0.0/region0");
	return 0;
}

static int remove_tree(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) ? -1 : 0;
}

static void test_memdevs(void **state)
{
	struct ph_cxl c;
	const struct ph_cxl_memdev *m;

	(void)state;
	cxl_load(root, &c);
	assert_true(c.present);
	assert_int_equal(c.nmem, 2);
	m = &c.mem[0];
	assert_int_equal(m->id, 0);
	assert_int_equal(m->endpoint, 2);
	assert_string_equal(m->host_bridge, "pci0000:0c");
	assert_string_equal(m->serial, "0x0");
	assert_int_equal(m->pmem_bytes, 512 << 20);
	assert_int_equal(m->ram_bytes, 0);
	assert_true(m->has_pmem_qos);
	assert_int_equal(m->pmem_qos, 0);
	assert_false(m->has_ram_qos);
	assert_int_equal(m->dev_node, -1);
	assert_string_equal(m->regions, "region0");
	assert_string_equal(m->nodes, "2");
	assert_int_equal(m->cdat_bytes, 64);
	assert_int_equal(m->cdat_err, 0);
	assert_int_equal(m->cdat.ndsmas, 1);
	assert_true(m->cdat.dsmas[0].nonvolatile);
	assert_int_equal(m->cdat.dsmas[0].dpa_length, 512u << 20);
	assert_int_equal(m->cdat.ndslbis, 1);
	assert_int_equal(m->cdat.dslbis[0].entry[0], 150);
	assert_int_equal(m->link_mbps, 2500);
	assert_int_equal(m->link_width, 1);
	assert_int_equal(m->port_link_mbps, 2500);
	assert_int_equal(m->hb_uid, 12);
	assert_false(m->switched);

	m = &c.mem[1];
	assert_int_equal(m->id, 1);
	assert_int_equal(m->endpoint, 3);
	/* Behind the switch port4, still under the host bridge's port1. */
	assert_string_equal(m->host_bridge, "pci0000:0c");
	assert_int_equal(m->ram_bytes, 256 << 20);
	assert_int_equal(m->pmem_bytes, -1);
	assert_false(m->has_ram_qos);
	assert_false(m->has_pmem_qos);
	assert_int_equal(m->dev_node, -1);
	assert_string_equal(m->regions, "");
	assert_string_equal(m->nodes, "");
	assert_int_equal(m->cdat_bytes, 64);
	assert_int_equal(m->cdat_err, -EINVAL);
	assert_true(m->cdat_why[0] != '\0');
	assert_true(m->switched);
	assert_int_equal(m->hb_uid, 12);
	assert_int_equal(m->link_mbps, 0);
	assert_int_equal(m->link_width, 0);
	cxl_free(&c);
}

static void test_regions_nodes(void **state)
{
	struct ph_cxl c;
	const struct ph_cxl_region *r;

	(void)state;
	cxl_load(root, &c);
	assert_int_equal(c.nreg, 1);
	r = &c.reg[0];
	assert_int_equal(r->id, 0);
	assert_string_equal(r->mode, "pmem");
	assert_int_equal(r->start, 0x390000000ull);
	assert_int_equal(r->size, 256 << 20);
	assert_string_equal(r->memdevs, "mem0");
	assert_int_equal(r->node, 2);
	assert_true(r->access[0].present);
	assert_int_equal(r->access[0].read_lat_ns, 368);
	assert_int_equal(r->access[0].write_lat_ns, 468);
	assert_int_equal(r->access[0].read_bw_MBps, 250);
	assert_int_equal(r->access[0].write_bw_MBps, 312);
	assert_int_equal(r->access[1].read_lat_ns, 369);
	assert_int_equal(r->access[1].write_bw_MBps, 313);
	assert_int_equal(c.nnode, 1);
	assert_int_equal(c.node[0].node, 2);
	assert_true(c.node[0].access[0].present);
	assert_int_equal(c.node[0].access[0].read_lat_ns, 370);
	assert_int_equal(c.node[0].access[0].write_lat_ns, 470);
	assert_int_equal(c.node[0].access[0].read_bw_MBps, 252);
	assert_int_equal(c.node[0].access[0].write_bw_MBps, 314);
	assert_int_equal(c.node[0].access[1].read_lat_ns, 371);
	assert_int_equal(c.node[0].access[1].write_bw_MBps, 315);
	cxl_free(&c);
}

/* No /sys/bus/cxl: nothing found, and nothing is an error. */
static void test_absent(void **state)
{
	char empty[] = "/tmp/test_cxl_none.XXXXXX";
	struct ph_cxl c;

	(void)state;
	assert_non_null(mkdtemp(empty));
	cxl_load(empty, &c);
	assert_false(c.present);
	assert_int_equal(c.nmem, 0);
	assert_int_equal(c.nreg, 0);
	assert_int_equal(c.nnode, 0);
	cxl_free(&c);
	rmdir(empty);
}

/* cxl_node_kind's three answers for node against kind, regions and how. */
static void kind_of(const struct ph_cxl *c, const struct ph_cxl_tiering *t, int node,
		    enum ph_node_kind kind, const char *regions, const char *how)
{
	struct ph_node_kind_of k;

	cxl_node_kind(c, t, node, &k);
	assert_int_equal(k.kind, kind);
	assert_string_equal(k.regions, regions);
	assert_string_equal(k.how, how);
}

static void test_node_kinds(void **state)
{
	struct ph_cxl_tiering t;
	struct ph_cxl c;

	(void)state;
	cxl_load(root, &c);
	cxl_tiering_load(root, &t);
	kind_of(&c, &t, 0, PH_NODE_DRAM, "", "node0/cpulist names CPUs, and no CXL region's memory is on it");
	kind_of(&c, &t, 2, PH_NODE_CXL, "region0 (mem0)",
		"region0 (mem0) of /sys/bus/cxl/devices has its memory on node 2");
	kind_of(&c, &t, 3, PH_NODE_CPULESS, "",
		"memory and no CPUs (node3/cpulist empty), and no CXL region's memory is on it");
	kind_of(&c, &t, 5, PH_NODE_UNKNOWN, "",
		"cannot tell: /sys/devices/system/node/node5/cpulist could not be read");
	kind_of(&c, &t, 7, PH_NODE_UNKNOWN, "",
		"cannot tell: /sys/devices/system/node/has_memory does not list node 7");
	assert_string_equal(cxl_node_kind_name(PH_NODE_CPULESS), "CPU-less");
	cxl_tiering_free(&t);
	cxl_free(&c);
}

/* By hand: a region on a node with CPUs, a region on no node, no has_memory. */
static void test_node_kinds_edges(void **state)
{
	struct ph_cxl_region reg[2] = {
		{ .id = 1, .size = 1 << 28, .memdevs = "mem0,mem1", .node = 0 },
		{ .id = 4, .size = 1 << 28, .memdevs = "mem2", .node = -1 },
	};
	int ids[] = { 0, 3 };
	bool cpus[] = { true, false }, read[] = { true, true };
	struct ph_cxl c = { .present = true, .reg = reg, .nreg = 2 };
	struct ph_cxl_tiering t = { .read = true, .n = 2, .ids = ids, .cpus = cpus, .cpus_read = read };
	struct ph_cxl_tiering none = { .read = false };

	(void)state;
	kind_of(&c, &t, 0, PH_NODE_CXL, "region1 (mem0,mem1)",
		"region1 (mem0,mem1) of /sys/bus/cxl/devices has its memory on node 0; "
		"the node has CPUs too: part of its memory may be DRAM");
	/* CPU-less, and region4's memory is on no node found: it could be node 3's. */
	kind_of(&c, &t, 3, PH_NODE_UNKNOWN, "",
		"cannot tell: no CPUs, and region4 has memory on no node found "
		"(no online memory block): it may be on this one");
	kind_of(&c, &none, 3, PH_NODE_UNKNOWN, "",
		"cannot tell: /sys/devices/system/node/has_memory could not be read");
	/* No CXL bus at all: a CPU-less node is CPU-less, and says there is no bus. */
	c.present = false;
	c.nreg = 0;
	kind_of(&c, &t, 3, PH_NODE_CPULESS, "",
		"memory and no CPUs (node3/cpulist empty), and no /sys/bus/cxl/devices "
		"(no CXL device, or the cxl drivers are not loaded)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_memdevs),
		cmocka_unit_test(test_regions_nodes),
		cmocka_unit_test(test_absent),
		cmocka_unit_test(test_node_kinds),
		cmocka_unit_test(test_node_kinds_edges),
	};

	return cmocka_run_group_tests(tests, make_tree, remove_tree);
}
