// SPDX-License-Identifier: GPL-2.0-only
/*
 * cxl.c - CXL memdevs, their regions and nodes from sysfs (cxl.h).
 */
#include "cxl.h"
#include "readfile.h"
#include "util.h"

#include <dirent.h>
#include <stdarg.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NODE_DIR "/sys/devices/system/node"
#define MEMORY_DIR "/sys/devices/system/memory"

/* A path of at most PATH_MAX - 1 bytes in out (PATH_MAX of room); a longer one is cut. */
__attribute__((format(printf, 2, 3)))
static void pathf(char *out, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(out, PATH_MAX, fmt, ap);
	va_end(ap);
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* The N of every "<prefix>N" in dir, ascending; returns how many (at most max). */
static int numbered(const char *dir, const char *prefix, int *ids, int max)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t plen = strlen(prefix);
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)) && n < max) {
		char *end;
		long v;

		if (strncmp(e->d_name, prefix, plen) || !e->d_name[plen])
			continue;
		v = strtol(e->d_name + plen, &end, 10);
		if (*end || v < 0 || v > INT_MAX)
			continue;
		ids[n++] = (int)v;
	}
	closedir(d);
	qsort(ids, (size_t)n, sizeof(*ids), cmp_int);
	return n;
}

static int64_t read_num(const char *dir, const char *name)
{
	char path[PATH_MAX];
	uint64_t v;

	pathf(path, "%s/%s", dir, name);
	return read_u64(path, &v) || v > INT64_MAX ? -1 : (int64_t)v;
}

/* A signed integer file (qos_class, numa_node); false where absent or not a number. */
static bool read_int(const char *dir, const char *name, int *val)
{
	char path[PATH_MAX], buf[32], *end;
	long v;

	pathf(path, "%s/%s", dir, name);
	if (read_text(path, buf, sizeof(buf)) <= 0)
		return false;
	errno = 0;
	v = strtol(buf, &end, 0);
	if (errno || *end || end == buf || v < INT_MIN || v > INT_MAX)
		return false;
	*val = (int)v;
	return true;
}

/* The last component of where dir/name links to, in out; "" when it is no link. */
static void link_name(const char *dir, const char *name, char *out, size_t size)
{
	char path[PATH_MAX], target[PATH_MAX];
	ssize_t n;
	const char *slash;

	out[0] = '\0';
	pathf(path, "%s/%s", dir, name);
	n = readlink(path, target, sizeof(target) - 1);
	if (n <= 0)
		return;
	target[n] = '\0';
	slash = strrchr(target, '/');
	if (snprintf(out, size, "%s", slash ? slash + 1 : target) >= (int)size)
		out[0] = '\0';
}

static void read_coord(const char *dir, struct ph_cxl_coord *c)
{
	c->present = path_exists(dir);
	c->read_lat_ns = read_num(dir, "read_latency");
	c->write_lat_ns = read_num(dir, "write_latency");
	c->read_bw_MBps = read_num(dir, "read_bandwidth");
	c->write_bw_MBps = read_num(dir, "write_bandwidth");
}

/* Append ",word" (or "word" to an empty list) unless the list has it already. */
static void list_add(char *list, size_t size, const char *word)
{
	size_t wl = strlen(word), len = strlen(list);

	for (const char *p = list; (p = strstr(p, word)); p += wl)
		if ((p == list || p[-1] == ',') && (p[wl] == ',' || !p[wl]))
			return;
	snprintf(list + len, size - len, "%s%s", len ? "," : "", word);
}

/*
 * The host bridge above an endpoint: the endpoint's device path runs
 * .../rootR/portP/[switch ports/]endpointE, and portP is the host bridge's
 * port, whose uport is the bridge (pci0000:0c, or ACPI0016:00).
 */
static void host_bridge(const char *ep, struct ph_cxl_memdev *m)
{
	char real[PATH_MAX], port[PATH_MAX];
	char *p, *next, *out = m->host_bridge;
	size_t size = sizeof(m->host_bridge);

	out[0] = '\0';
	if (!realpath(ep, real))
		return;
	for (p = real; (p = strstr(p, "/root")); p++) {
		char *end;

		strtol(p + 5, &end, 10);
		if (end == p + 5 || *end != '/')
			continue;
		next = strchr(end + 1, '/');
		if (!next)
			return;		/* the endpoint sits right under the root */
		pathf(port, "%.*s", (int)(next - real), real);
		link_name(port, "uport", out, size);
		/* Another port between this one and the endpoint is a switch's. */
		m->switched = strstr(next, "/port") != NULL;
		m->hb_uid = read_num(port, "uport/firmware_node/uid");
		return;
	}
}

/*
 * The CDAT attribute is a sysfs binary file of size 0 whatever the table's
 * length, so the bytes are counted as read (cdat_read() less the reading).
 */
static void load_cdat(const char *ep, struct ph_cxl_memdev *m)
{
	char path[PATH_MAX], *buf;
	size_t len;

	pathf(path, "%s/CDAT", ep);
	m->cdat_bytes = -1;
	m->cdat_err = -ENOENT;
	if (!path_exists(path))
		return;
	m->cdat_err = read_table_file(path, PH_CDAT_MAX_BYTES, &buf, &len, m->cdat_why,
				      sizeof(m->cdat_why));
	if (!m->cdat_err) {
		m->cdat_bytes = (int64_t)len;
		m->cdat_err = cdat_parse((const uint8_t *)buf, len, &m->cdat, m->cdat_why,
					 sizeof(m->cdat_why));
		free(buf);
	}
	if (m->cdat_err && !m->cdat_why[0])
		snprintf(m->cdat_why, sizeof(m->cdat_why), "%s", strerror(-m->cdat_err));
}

int cxl_link_speed_mbps(const char *text)
{
	char *end;
	double gt = strtod(text, &end);

	if (end == text || strncmp(end, " GT/s", 5) || gt <= 0 || gt > 1000)
		return 0;
	return (int)(gt * 1000 + 0.5);
}

static int link_mbps(const char *dir)
{
	char path[PATH_MAX], buf[64];

	pathf(path, "%s/current_link_speed", dir);
	return read_text(path, buf, sizeof(buf)) > 0 ? cxl_link_speed_mbps(buf) : 0;
}

/* The memdev's PCI device is the parent of memN; the port above is its parent. */
static void load_links(const char *memdir, struct ph_cxl_memdev *m)
{
	char real[PATH_MAX], *slash;
	int64_t w;

	if (!realpath(memdir, real) || !(slash = strrchr(real, '/')))
		return;
	*slash = '\0';
	m->link_mbps = link_mbps(real);
	w = read_num(real, "current_link_width");
	m->link_width = w > 0 && w <= 64 ? (int)w : 0;
	if ((slash = strrchr(real, '/'))) {
		*slash = '\0';
		m->port_link_mbps = link_mbps(real);
	}
}

static void load_memdevs(const char *bus, struct ph_cxl *c)
{
	int ids[256], eps[256];
	int n = numbered(bus, "mem", ids, 256);
	int ne = numbered(bus, "endpoint", eps, 256);
	char dir[PATH_MAX], ep[PATH_MAX], who[32], want[32];

	c->mem = xcalloc((size_t)(n ? n : 1), sizeof(*c->mem));
	for (int i = 0; i < n; i++) {
		struct ph_cxl_memdev *m = &c->mem[c->nmem++];

		m->id = ids[i];
		m->endpoint = -1;
		m->hb_uid = -1;
		pathf(dir, "%s/mem%d", bus, m->id);
		load_links(dir, m);
		pathf(ep, "%s/serial", dir);
		if (read_text(ep, m->serial, sizeof(m->serial)) < 0)
			m->serial[0] = '\0';
		m->ram_bytes = read_num(dir, "ram/size");
		m->pmem_bytes = read_num(dir, "pmem/size");
		m->has_ram_qos = read_int(dir, "ram/qos_class", &m->ram_qos);
		m->has_pmem_qos = read_int(dir, "pmem/qos_class", &m->pmem_qos);
		if (!read_int(dir, "numa_node", &m->dev_node))
			m->dev_node = -1;
		snprintf(want, sizeof(want), "mem%d", m->id);
		for (int k = 0; k < ne; k++) {
			pathf(ep, "%s/endpoint%d", bus, eps[k]);
			link_name(ep, "uport", who, sizeof(who));
			if (strcmp(who, want))
				continue;
			m->endpoint = eps[k];
			host_bridge(ep, m);
			load_cdat(ep, m);
			break;
		}
		if (m->endpoint < 0) {
			m->cdat_bytes = -1;
			m->cdat_err = -ENOENT;
		}
	}
}

/*
 * The node of the first online memory block in [start, start + size), from
 * its nodeK link; -1 none.  Blocks at the region's start may hold no
 * system RAM (a devdax namespace keeps its info block there), and blocks
 * not added have no memoryB directory.
 */
static int region_node(const char *root, uint64_t start, uint64_t size)
{
	char dir[PATH_MAX], buf[32], *end;
	uint64_t bs;
	int nodes[4];

	/* The kernel prints the block size in hex without 0x ("8000000"). */
	pathf(dir, "%s" MEMORY_DIR "/block_size_bytes", root);
	if (read_text(dir, buf, sizeof(buf)) <= 0)
		return -1;
	bs = strtoull(buf, &end, 16);
	if (*end || !bs)
		return -1;
	for (uint64_t b = start / bs; b <= (start + size - 1) / bs; b++) {
		pathf(dir, "%s" MEMORY_DIR "/memory%llu", root, (unsigned long long)b);
		if (numbered(dir, "node", nodes, 4) == 1)
			return nodes[0];
	}
	return -1;
}

/* Whether regionN/targetK names a decoder of endpoint ep ("decoderE.D"). */
static bool decodes(const char *reg, int ways, int ep)
{
	char name[PATH_MAX], buf[64];
	int e, d;

	for (int k = 0; k < ways; k++) {
		pathf(name, "%s/target%d", reg, k);
		if (read_text(name, buf, sizeof(buf)) > 0 && sscanf(buf, "decoder%d.%d", &e, &d) == 2 &&
		    e == ep)
			return true;
	}
	return false;
}

static void add_node(struct ph_cxl *c, const char *root, int node)
{
	struct ph_cxl_node *n;
	char dir[PATH_MAX];

	for (int i = 0; i < c->nnode; i++)
		if (c->node[i].node == node)
			return;
	n = xappend(&c->node, &c->nnode, sizeof(*n));
	n->node = node;
	for (int a = 0; a < 2; a++) {
		pathf(dir, "%s" NODE_DIR "/node%d/access%d/initiators", root, node, a);
		read_coord(dir, &n->access[a]);
	}
}

static void load_regions(const char *root, const char *bus, struct ph_cxl *c)
{
	int ids[256];
	int n = numbered(bus, "region", ids, 256);
	char dir[PATH_MAX], sub[PATH_MAX], word[32];

	c->reg = xcalloc((size_t)(n ? n : 1), sizeof(*c->reg));
	for (int i = 0; i < n; i++) {
		struct ph_cxl_region *r = &c->reg[c->nreg++];
		int64_t v, ways;

		r->id = ids[i];
		pathf(dir, "%s/region%d", bus, r->id);
		pathf(sub, "%s/mode", dir);
		if (read_text(sub, r->mode, sizeof(r->mode)) < 0)
			r->mode[0] = '\0';
		v = read_num(dir, "resource");
		r->start = v < 0 ? UINT64_MAX : (uint64_t)v;
		v = read_num(dir, "size");
		r->size = v < 0 ? 0 : (uint64_t)v;
		r->node = r->size && r->start != UINT64_MAX ? region_node(root, r->start, r->size) : -1;
		for (int a = 0; a < 2; a++) {
			pathf(sub, "%s/access%d", dir, a);
			read_coord(sub, &r->access[a]);
		}
		ways = read_num(dir, "interleave_ways");
		for (int m = 0; m < c->nmem; m++) {
			struct ph_cxl_memdev *md = &c->mem[m];

			if (md->endpoint < 0 || !decodes(dir, ways > 0 ? (int)ways : 16, md->endpoint))
				continue;
			snprintf(word, sizeof(word), "mem%d", md->id);
			list_add(r->memdevs, sizeof(r->memdevs), word);
			snprintf(word, sizeof(word), "region%d", r->id);
			list_add(md->regions, sizeof(md->regions), word);
			if (r->node >= 0) {
				snprintf(word, sizeof(word), "%d", r->node);
				list_add(md->nodes, sizeof(md->nodes), word);
			}
		}
		if (r->node >= 0)
			add_node(c, root, r->node);
	}
}

void cxl_load(const char *root, struct ph_cxl *c)
{
	char bus[PATH_MAX];

	memset(c, 0, sizeof(*c));
	snprintf(bus, sizeof(bus), "%s" PH_CXL_SYSFS, root);
	c->present = path_exists(bus);
	if (!c->present)
		return;
	load_memdevs(bus, c);
	load_regions(root, bus, c);
}

const char *cxl_sysfs_root(void)
{
#ifdef PAGEHOP_TEST_HOOKS
	if (getenv("PAGEHOP_CXL_ROOT"))
		return getenv("PAGEHOP_CXL_ROOT");
#endif
	return "";
}

void cxl_free(struct ph_cxl *c)
{
	for (int i = 0; i < c->nmem; i++)
		if (!c->mem[i].cdat_err)
			cdat_free(&c->mem[i].cdat);
	free(c->mem);
	free(c->reg);
	free(c->node);
	memset(c, 0, sizeof(*c));
}

/* Whether node is in a list as sysfs prints one ("0-1,4"). */
static bool in_list(const char *list, int node)
{
	const char *p = list;

	while (*p) {
		char *end;
		long a = strtol(p, &end, 10), b = a;

		if (end == p)
			return false;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		if (node >= a && node <= b)
			return true;
		p = *end == ',' ? end + 1 : end;
		if (*end != ',')
			break;
	}
	return false;
}

static int node_tier(const char *root, int node)
{
	char dir[PATH_MAX], path[PATH_MAX], buf[256];
	int ids[64];
	int n;

	pathf(dir, "%s/sys/devices/virtual/memory_tiering", root);
	n = numbered(dir, "memory_tier", ids, 64);
	for (int i = 0; i < n; i++) {
		pathf(path, "%s/memory_tier%d/nodelist", dir, ids[i]);
		if (read_text(path, buf, sizeof(buf)) > 0 && in_list(buf, node))
			return ids[i];
	}
	return -1;
}

void cxl_tiering_load(const char *root, struct ph_cxl_tiering *t)
{
	char dir[PATH_MAX], path[PATH_MAX], buf[256];
	int ids[1024];
	int n;

	memset(t, 0, sizeof(*t));
	pathf(dir, "%s" NODE_DIR, root);
	n = numbered(dir, "node", ids, 1024);
	t->ids = xcalloc((size_t)(n ? n : 1), sizeof(*t->ids));
	t->cpus = xcalloc((size_t)(n ? n : 1), sizeof(*t->cpus));
	t->cpus_read = xcalloc((size_t)(n ? n : 1), sizeof(*t->cpus_read));
	t->tier = xcalloc((size_t)(n ? n : 1), sizeof(*t->tier));
	t->access1 = xcalloc((size_t)(n ? n : 1), sizeof(*t->access1));
	t->wi_weight = xcalloc((size_t)(n ? n : 1), sizeof(*t->wi_weight));
	pathf(path, "%s" NODE_DIR "/has_memory", root);
	if (read_text(path, buf, sizeof(buf)) <= 0)
		return;
	t->read = true;
	for (int i = 0; i < n; i++) {
		int k = t->n;
		char cpus[64], name[32];
		int64_t w;

		if (!in_list(buf, ids[i]))
			continue;
		t->n++;
		t->ids[k] = ids[i];
		pathf(path, "%s" NODE_DIR "/node%d/cpulist", root, ids[i]);
		t->cpus_read[k] = read_text(path, cpus, sizeof(cpus)) >= 0;
		t->cpus[k] = t->cpus_read[k] && cpus[0];
		pathf(path, "%s" NODE_DIR "/node%d/access1/initiators", root, ids[i]);
		read_coord(path, &t->access1[k]);
		t->tier[k] = node_tier(root, ids[i]);
		pathf(path, "%s/sys/kernel/mm/mempolicy/weighted_interleave", root);
		snprintf(name, sizeof(name), "node%d", ids[i]);
		w = read_num(path, name);
		t->wi_weight[k] = w >= 0 && w <= 255 ? (int)w : -1;
	}
}

void cxl_tiering_free(struct ph_cxl_tiering *t)
{
	free(t->ids);
	free(t->cpus);
	free(t->cpus_read);
	free(t->tier);
	free(t->access1);
	free(t->wi_weight);
	memset(t, 0, sizeof(*t));
}

/* Set k's kind and its how as printf would. */
__attribute__((format(printf, 3, 4)))
static void kind_is(struct ph_node_kind_of *k, enum ph_node_kind kind, const char *fmt, ...)
{
	va_list ap;

	k->kind = kind;
	va_start(ap, fmt);
	vsnprintf(k->how, sizeof(k->how), fmt, ap);
	va_end(ap);
}

void cxl_node_kind(const struct ph_cxl *c, const struct ph_cxl_tiering *t, int node,
		   struct ph_node_kind_of *k)
{
	char lost[128] = "", word[160];
	int at = -1, non = 0, nlost = 0;

	k->regions[0] = '\0';
	for (int i = 0; i < c->nreg; i++) {
		const struct ph_cxl_region *r = &c->reg[i];

		if (r->node == node) {
			snprintf(word, sizeof(word), "region%d (%s)", r->id, r->memdevs[0] ? r->memdevs : "no memdev found");
			list_add(k->regions, sizeof(k->regions), word);
			non++;
		} else if (r->node < 0 && r->size) {
			snprintf(word, sizeof(word), "region%d", r->id);
			list_add(lost, sizeof(lost), word);
			nlost++;
		}
	}
	for (int i = 0; i < t->n; i++)
		if (t->ids[i] == node)
			at = i;
	if (non)
		kind_is(k, PH_NODE_CXL, "%s of " PH_CXL_SYSFS " %s its memory on node %d%s", k->regions,
			non > 1 ? "have" : "has", node,
			at >= 0 && t->cpus[at] ? "; the node has CPUs too: part of its memory may be DRAM" : "");
	else if (!t->read)
		kind_is(k, PH_NODE_UNKNOWN, "cannot tell: " NODE_DIR "/has_memory could not be read");
	else if (at < 0)
		kind_is(k, PH_NODE_UNKNOWN, "cannot tell: " NODE_DIR "/has_memory does not list node %d", node);
	else if (!t->cpus_read[at])
		kind_is(k, PH_NODE_UNKNOWN, "cannot tell: " NODE_DIR "/node%d/cpulist could not be read", node);
	else if (t->cpus[at])
		kind_is(k, PH_NODE_DRAM, "node%d/cpulist names CPUs, and no CXL region's memory is on it%s", node,
			c->present ? "" : " (no " PH_CXL_SYSFS ")");
	else if (nlost)
		kind_is(k, PH_NODE_UNKNOWN,
			"cannot tell: no CPUs, and %s %s memory on no node found (no online memory block): it may be on this one",
			lost, nlost > 1 ? "have" : "has");
	else
		kind_is(k, PH_NODE_CPULESS, "memory and no CPUs (node%d/cpulist empty), and %s", node,
			c->present ? "no CXL region's memory is on it" :
			"no " PH_CXL_SYSFS " (no CXL device, or the cxl drivers are not loaded)");
}

const char *cxl_node_kind_name(enum ph_node_kind k)
{
	switch (k) {
	case PH_NODE_CXL:
		return "CXL";
	case PH_NODE_DRAM:
		return "DRAM";
	case PH_NODE_CPULESS:
		return "CPU-less";
	case PH_NODE_UNKNOWN:
		break;
	}
	return "unknown";
}
