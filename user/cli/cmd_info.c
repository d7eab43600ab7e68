// SPDX-License-Identifier: GPL-2.0-only
/*
 * info.c - "pagehop info": what to check before measuring.  Nodes with
 * their CPUs, memory and hugepage pools; the SLIT in numactl's layout; HMAT;
 * THP; the CPU, its caches and SMT siblings; the clock; the module; CXL
 * memory devices, their regions, nodes and CDAT.
 */
#include "acpi_hmat.h"
#include "acpi_slit.h"
#include "clock.h"
#include "cli.h"
#include "commands.h"
#include "common_opts.h"
#include "cpu.h"
#include "cxl.h"
#include "isa.h"
#include "kmod.h"
#include "output.h"
#include "session.h"
#include "provenance.h"
#include "slit_report.h"
#include "tlb.h"
#include "topology.h"
#include "topo_report.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>

enum { OPT_SLIT_TABLE = 1 };

static const struct ph_opt info_opts[] = {
	{ "slit-table", 0, "FILE", OPT_SLIT_TABLE,
	  "the binary SLIT to judge (the machine's own is\nreadable by root only)", NULL, PH_ACPI_SLIT_PATH },
	{ 0 },
};

static const struct ph_opt out_opts[] = { PH_OPT_FORMAT, { 0 } };

static const struct ph_optgroup info_groups[] = {
	{ "info", info_opts },
	{ "output", out_opts },
	{ 0 },
};

static const struct ph_refusal info_refused[] = {
	PH_REFUSE_MEASURING("info measures nothing: it shows the machine"),
	{ 0 },
};

const struct ph_cmdspec cmd_info_spec = {
	.name = "info",
	.synopsis = "[OPTIONS]",
	.about =
	"Show what to check before measuring: NUMA nodes with their CPUs,\n"
	"memory and 2 MiB / 1 GiB hugepage pools; the SLIT distances as\n"
	"numactl prints them; HMAT latency and bandwidth where the kernel\n"
	"exposes them; THP mode; CPU, caches and SMT siblings, and the\n"
	"instruction sets pagehop's loops run here; the TSC frequency, where it\n"
	"came from and whether it is invariant; whether /dev/pagehop is loaded\n"
	"and can control the prefetchers; and the CXL memory devices\n"
	"(/sys/bus/cxl): each memdev with its endpoint, host bridge, regions,\n"
	"the NUMA node their memory is on, QoS class and CDAT (parsed), and\n"
	"the access coordinates the kernel computed for each region and node.\n"
	"The firmware's SLIT is judged as Linux judges it: a table with a\n"
	"diagonal entry other than 10, or another entry of 10 or less, is\n"
	"ignored by the kernel, which then uses 10 local, 20 remote.\n",
	.groups = info_groups,
	.refused = info_refused,
};

struct info_args {
	enum ph_format fmt;
	const char *slit_table;
	bool table_given;
};

static int info_option(void *ctx, const struct ph_opt *o, const char *arg)
{
	struct info_args *a = ctx;

	if (o->id == OPT_SLIT_TABLE) {
		a->slit_table = arg;
		a->table_given = true;
		return 0;
	}
	return common_format_option(o, arg, &a->fmt) ? -EINVAL : 0;
}

static void add_nodes(struct ph_doc *doc, const struct ph_topology *t)
{
	struct ph_table *tb = doc_add_table(doc, "nodes", "nodes");
	static const char *const cols[] = {
		"node", "cpus", "ncpus", "mem_total_MiB", "mem_free_MiB",
		"hp2M_total", "hp2M_free", "hp1G_total", "hp1G_free",
	};

	for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
		table_add_col(tb, cols[i]);
	for (int i = 0; i < t->nnodes; i++) {
		const struct ph_node *n = &t->nodes[i];
		int r = table_add_row(tb);

		table_int(tb, r, "node", n->id);
		table_str(tb, r, "cpus", n->cpulist[0] ? n->cpulist : NULL);
		table_int(tb, r, "ncpus", n->ncpus);
		table_int(tb, r, "mem_total_MiB", (long long)(n->mem_total / MiB));
		table_int(tb, r, "mem_free_MiB", (long long)(n->mem_free / MiB));
		if (n->hp_2m.total >= 0) {
			table_int(tb, r, "hp2M_total", n->hp_2m.total);
			table_int(tb, r, "hp2M_free", n->hp_2m.free);
		}
		if (n->hp_1g.total >= 0) {
			table_int(tb, r, "hp1G_total", n->hp_1g.total);
			table_int(tb, r, "hp1G_free", n->hp_1g.free);
		}
	}
}

static void add_memory(struct ph_doc *doc, const struct ph_topology *t)
{
	struct ph_section *s = doc_add_section(doc, "memory", "memory");
	char sizes[32];

	section_str(s, "thp_enabled", t->thp_enabled);
	section_str(s, "thp_defrag", t->thp_defrag);
	snprintf(sizes, sizeof(sizes), "%s%s%s", t->hugetlb_2m ? "2M" : "",
		 t->hugetlb_2m && t->hugetlb_1g ? "," : "", t->hugetlb_1g ? "1G" : "");
	section_str(s, "hugetlb_sizes", sizes[0] ? sizes : NULL);
}

static void add_cpu(struct ph_doc *doc, const struct ph_cpu *c)
{
	struct ph_section *s = doc_add_section(doc, "cpu", "cpu");
	char microcode[32] = "", isa[48];

	if (c->identified) {
		section_str(s, "vendor", c->vendor);
		section_str(s, "model_name", c->brand);
		section_str(s, "codename", c->codename);
		section_int(s, "family", c->family);
		section_int(s, "model", c->model);
		section_int(s, "stepping", c->stepping);
	} else {
		doc_note(doc, "CPU identity: libcpuid could not identify this CPU");
	}
	/* The microcode revision is the kernel's, as the provenance says it. */
	provenance_microcode(microcode, sizeof(microcode));
	section_str(s, "microcode", microcode[0] ? microcode : NULL);
	section_int(s, "packages", c->packages);
	section_int(s, "cores", c->cores);
	section_int(s, "cpus", c->pus);
	section_int(s, "threads_per_core", c->threads_per_core);
	/* What the loops run here, as 'list' and 'stream --isa' name it. */
	section_str(s, "isa", isa_supported_list(isa, sizeof(isa)));
	section_bool(s, "hypervisor", c->hypervisor);
}

static void add_caches(struct ph_doc *doc, const struct ph_cpu *c)
{
	struct ph_table *tb = doc_add_table(doc, "caches", "caches");
	static const char *const cols[] = {
		"level", "type", "size_KiB", "line_B", "ways", "instances",
		"cpus_per_instance",
	};

	for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
		table_add_col(tb, cols[i]);
	for (int i = 0; i < c->ncaches; i++) {
		const struct ph_cache *pc = &c->caches[i];
		int r = table_add_row(tb);

		table_int(tb, r, "level", pc->level);
		table_str(tb, r, "type", pc->type);
		table_int(tb, r, "size_KiB", (long long)(pc->size / KiB));
		table_int(tb, r, "line_B", pc->line);
		if (pc->ways == -1)
			table_str(tb, r, "ways", "full");
		else if (pc->ways > 0)
			table_int(tb, r, "ways", pc->ways);
		table_int(tb, r, "instances", pc->instances);
		table_int(tb, r, "cpus_per_instance", pc->cpus_per_instance);
	}
}

static void add_tlbs(struct ph_doc *doc, const struct ph_cpu *c)
{
	struct ph_table *tb = doc_add_table(doc, "tlbs", "data TLBs");
	struct ph_tlbs t;
	char page[16];

	tlb_load(c->vendor, &t);
	table_add_col(tb, "level");
	table_add_col(tb, "page");
	table_add_col(tb, "entries");
	table_add_col(tb, "ways");
	table_add_col(tb, "reach_KiB");
	for (int i = 0; i < t.n; i++) {
		int r = table_add_row(tb);

		table_int(tb, r, "level", t.t[i].level);
		table_str(tb, r, "page", format_size(t.t[i].page, page, sizeof(page)));
		table_int(tb, r, "entries", t.t[i].entries);
		if (t.t[i].ways)
			table_int(tb, r, "ways", t.t[i].ways);
		else
			table_str(tb, r, "ways", "full");
		table_int(tb, r, "reach_KiB", (long long)((uint64_t)t.t[i].entries * t.t[i].page / KiB));
	}
	doc_note(doc, "TLBs: %s", t.n ? t.source : t.source[0] ? t.source : "not reported");
}

static void add_smt(struct ph_doc *doc, const struct ph_cpu *c)
{
	struct ph_table *tb = doc_add_table(doc, "smt", "cores and their SMT siblings");

	table_add_col(tb, "package");
	table_add_col(tb, "core");
	table_add_col(tb, "cpus");
	for (int i = 0; i < c->ncore_list; i++) {
		int r = table_add_row(tb);

		table_int(tb, r, "package", c->core_list[i].package);
		table_int(tb, r, "core", c->core_list[i].core);
		table_str(tb, r, "cpus", c->core_list[i].pus);
	}
}

static void add_clock(struct ph_doc *doc, const struct ph_clock *c)
{
	struct ph_section *s = doc_add_section(doc, "clock", "clock");

	section_str(s, "clock", c->name);
	section_num(s, "tsc_hz", c->tsc_hz, "%.0f");
	section_str(s, "tsc_hz_source", c->tsc_source);
	section_num(s, "tsc_calibrated_hz", c->calibrated_hz, "%.0f");
	section_num(s, "tsc_calibration_spread_ppm", c->calibration_ppm, "%.1f");
	section_bool(s, "tsc_invariant", c->invariant);
	section_bool(s, "kernel_trusts_tsc", c->kernel_trusts_tsc);
	section_str(s, "kernel_clocksource", c->clocksource);
	section_num(s, "resolution_ns", c->resolution_ns, "%.1f");
	section_str(s, "fallback_reason", c->why[0] ? c->why : NULL);
}

static void add_module(struct ph_doc *doc, const struct ph_kmod *k)
{
	struct ph_section *s = doc_add_section(doc, "module", "pagehop.ko");
	char feat[96];

	section_str(s, "device", PAGEHOP_DEVICE_PATH);
	section_bool(s, "present", k->present);
	section_bool(s, "usable", k->fd >= 0);
	if (k->fd < 0) {
		section_str(s, "why", k->why);
		if (k->err == EPROTO)
			section_int(s, "api_version", k->info.api_version);
		section_str(s, "prefetch_control", "no");
		section_str(s, "prefetch_why", k->why);
		return;
	}
	section_int(s, "api_version", k->info.api_version);
	section_str(s, "features", kmod_feature_list(k->info.features, feat, sizeof(feat)));
	section_int(s, "pin_cap_MiB", (long long)(k->info.pin_cap_bytes / MiB));
	section_int(s, "pinned_MiB", (long long)(k->info.pinned_bytes / MiB));
	section_int(s, "tsc_khz", k->info.tsc_khz);
	if (!kmod_has(k, PAGEHOP_FEAT_PREFETCH)) {
		section_str(s, "prefetch_control", "no");
		section_str(s, "prefetch_why",
			    "pagehop.ko reports no prefetcher MSR it can control on this CPU");
		return;
	}
	struct pagehop_prefetch pf = { .size = sizeof(pf), .op = PAGEHOP_PREFETCH_GET, .cpu = 0 };

	if (ioctl(k->fd, PAGEHOP_IOC_PREFETCH, &pf)) {
		section_str(s, "prefetch_control", "no");
		section_str(s, "prefetch_why", strerror(errno));
		return;
	}
	section_str(s, "prefetch_control", "yes");
	section_str(s, "prefetch_msr", pf.msr_kind == PAGEHOP_PF_INTEL_MISC_FEATURE ?
		    "0x1a4 (Intel MISC_FEATURE_CONTROL)" : "0xc0000108 (AMD PrefetchControl)");
	section_int(s, "prefetch_disabled_bits_cpu0", (long long)pf.disable);
}

static void add_cxl_memdevs(struct ph_doc *doc, const struct ph_cxl *c)
{
	struct ph_table *tb = doc_add_table(doc, "cxl_memdevs", "CXL memory devices");
	static const char *const cols[] = {
		"memdev", "endpoint", "host_bridge", "serial", "ram_MiB", "pmem_MiB",
		"ram_qos_class", "pmem_qos_class", "dev_node", "regions", "nodes",
		"cdat_bytes", "cdat_parsed", "cdat_why",
	};
	char name[32];

	for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
		table_add_col(tb, cols[i]);
	for (int i = 0; i < c->nmem; i++) {
		const struct ph_cxl_memdev *m = &c->mem[i];
		int r = table_add_row(tb);

		snprintf(name, sizeof(name), "mem%d", m->id);
		table_str(tb, r, "memdev", name);
		if (m->endpoint >= 0) {
			snprintf(name, sizeof(name), "endpoint%d", m->endpoint);
			table_str(tb, r, "endpoint", name);
		}
		table_str(tb, r, "host_bridge", m->host_bridge[0] ? m->host_bridge : NULL);
		table_str(tb, r, "serial", m->serial[0] ? m->serial : NULL);
		if (m->ram_bytes >= 0)
			table_int(tb, r, "ram_MiB", (long long)(m->ram_bytes / (int64_t)MiB));
		if (m->pmem_bytes >= 0)
			table_int(tb, r, "pmem_MiB", (long long)(m->pmem_bytes / (int64_t)MiB));
		if (m->has_ram_qos)
			table_int(tb, r, "ram_qos_class", m->ram_qos);
		if (m->has_pmem_qos)
			table_int(tb, r, "pmem_qos_class", m->pmem_qos);
		table_int(tb, r, "dev_node", m->dev_node);
		table_str(tb, r, "regions", m->regions[0] ? m->regions : NULL);
		table_str(tb, r, "nodes", m->nodes[0] ? m->nodes : NULL);
		if (m->cdat_bytes >= 0) {
			table_int(tb, r, "cdat_bytes", (long long)m->cdat_bytes);
			table_bool(tb, r, "cdat_parsed", m->cdat_err == 0);
			table_str(tb, r, "cdat_why", m->cdat_err ? m->cdat_why : NULL);
		}
	}
}

static int cdat_row(struct ph_table *tb, const char *memdev, int type, int handle)
{
	int r = table_add_row(tb);

	table_str(tb, r, "memdev", memdev);
	table_str(tb, r, "structure", cdat_type_name(type));
	table_int(tb, r, "handle", handle);
	return r;
}

/* Each memdev's memory ranges and their figures, as its CDAT gives them. */
static void add_cxl_cdat(struct ph_doc *doc, const struct ph_cxl *c)
{
	struct ph_table *tb = doc_add_table(doc, "cxl_cdat", "CXL CDAT ranges and figures");
	static const char *const cols[] = {
		"memdev", "structure", "handle", "nonvolatile", "dpa_base", "dpa_length",
		"data_type", "entry", "base_unit", "value",
	};
	char name[32];

	for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
		table_add_col(tb, cols[i]);
	for (int i = 0; i < c->nmem; i++) {
		const struct ph_cxl_memdev *m = &c->mem[i];

		if (m->cdat_err)
			continue;
		snprintf(name, sizeof(name), "mem%d", m->id);
		for (int k = 0; k < m->cdat.ndsmas; k++) {
			const struct ph_cdat_dsmas *d = &m->cdat.dsmas[k];
			int r = cdat_row(tb, name, PH_CDAT_DSMAS, d->handle);

			table_bool(tb, r, "nonvolatile", d->nonvolatile);
			table_int(tb, r, "dpa_base", (long long)d->dpa_base);
			table_int(tb, r, "dpa_length", (long long)d->dpa_length);
		}
		for (int k = 0; k < m->cdat.ndslbis; k++) {
			const struct ph_cdat_dslbis *d = &m->cdat.dslbis[k];
			int r = cdat_row(tb, name, PH_CDAT_DSLBIS, d->handle);

			table_str(tb, r, "data_type", acpi_hmat_data_name(d->data_type));
			table_int(tb, r, "entry", d->entry[0]);
			table_int(tb, r, "base_unit", (long long)d->base_unit);
			/* As the kernel reads it: ns (from ps, rounded up) or MB/s. */
			table_int(tb, r, "value", acpi_hmat_value(d->entry[0], d->base_unit, d->data_type, 2));
		}
	}
}

static void coord_row(struct ph_table *tb, const char *of, int access, const struct ph_cxl_coord *a)
{
	int r = table_add_row(tb);

	table_str(tb, r, "of", of);
	table_int(tb, r, "access", access);
	if (a->read_lat_ns >= 0)
		table_int(tb, r, "read_lat_ns", a->read_lat_ns);
	if (a->write_lat_ns >= 0)
		table_int(tb, r, "write_lat_ns", a->write_lat_ns);
	if (a->read_bw_MBps >= 0)
		table_int(tb, r, "read_bw_MBps", a->read_bw_MBps);
	if (a->write_bw_MBps >= 0)
		table_int(tb, r, "write_bw_MBps", a->write_bw_MBps);
}

static void add_cxl(struct ph_doc *doc, const struct ph_cxl *c)
{
	struct ph_table *tb;
	static const char *const cols[] = {
		"of", "access", "read_lat_ns", "write_lat_ns", "read_bw_MBps", "write_bw_MBps",
	};
	char name[32];

	if (!c->present || !c->nmem) {
		doc_note(doc, "CXL: no CXL memory device found (%s)",
			 c->present ? "no memN in " PH_CXL_SYSFS : "no " PH_CXL_SYSFS);
		return;
	}
	add_cxl_memdevs(doc, c);
	add_cxl_cdat(doc, c);
	tb = doc_add_table(doc, "cxl_regions", "CXL regions");
	table_add_col(tb, "region");
	table_add_col(tb, "mode");
	table_add_col(tb, "size_MiB");
	table_add_col(tb, "memdevs");
	table_add_col(tb, "node");
	for (int i = 0; i < c->nreg; i++) {
		const struct ph_cxl_region *g = &c->reg[i];
		int r = table_add_row(tb);

		snprintf(name, sizeof(name), "region%d", g->id);
		table_str(tb, r, "region", name);
		table_str(tb, r, "mode", g->mode[0] ? g->mode : NULL);
		table_int(tb, r, "size_MiB", (long long)(g->size / MiB));
		table_str(tb, r, "memdevs", g->memdevs[0] ? g->memdevs : NULL);
		if (g->node >= 0)
			table_int(tb, r, "node", g->node);
	}
	/* The kernel's figures: CDAT + link + generic port, per region and per node. */
	tb = doc_add_table(doc, "cxl_access", "CXL access coordinates (kernel)");
	for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
		table_add_col(tb, cols[i]);
	for (int i = 0; i < c->nreg; i++)
		for (int a = 0; a < 2; a++)
			if (c->reg[i].access[a].present) {
				snprintf(name, sizeof(name), "region%d", c->reg[i].id);
				coord_row(tb, name, a, &c->reg[i].access[a]);
			}
	for (int i = 0; i < c->nnode; i++)
		for (int a = 0; a < 2; a++)
			if (c->node[i].access[a].present) {
				snprintf(name, sizeof(name), "node%d", c->node[i].node);
				coord_row(tb, name, a, &c->node[i].access[a]);
			}
}

int cmd_info(int argc, char *argv[])
{
	struct info_args a = { .fmt = PH_FMT_TABLE, .slit_table = PH_ACPI_SLIT_PATH };
	struct ph_topology topo;
	struct ph_cpu cpu;
	struct ph_kmod km;
	struct ph_clock clk;
	struct ph_doc *doc;
	struct ph_acpi_slit fw;
	struct ph_cxl cxl;
	char why[256];
	int err, fw_err;

	err = opts_parse(&cmd_info_spec, argc, argv, info_option, &a);
	if (err)
		return err == PH_OPTS_HELP ? PH_EXIT_OK : PH_EXIT_USAGE;
	/* A table named on the command line must be one; the machine's may be absent. */
	fw_err = acpi_slit_read(a.slit_table, &fw, why, sizeof(why));
	if (fw_err && a.table_given) {
		ph_err("--slit-table %s: %s", a.slit_table, fw_err == -EINVAL ? why : strerror(-fw_err));
		return PH_EXIT_USAGE;
	}

	err = topology_load(&topo);
	if (err) {
		acpi_slit_free(&fw);
		ph_errno(-err, "cannot read the NUMA topology");
		return err == -ENOSYS ? PH_EXIT_UNSUPPORTED : PH_EXIT_FAIL;
	}
	cpu_load(&cpu);
	kmod_open(&km);
	clock_setup(&clk, &cpu, &km);

	doc = doc_new("info");
	add_nodes(doc, &topo);
	topology_report_distances(doc, &topo);
	slit_report_firmware(doc, a.slit_table, !a.table_given, fw_err, why, &fw);
	topology_report_hmat(doc, &topo);
	add_memory(doc, &topo);
	add_cpu(doc, &cpu);
	add_caches(doc, &cpu);
	add_tlbs(doc, &cpu);
	add_smt(doc, &cpu);
	add_clock(doc, &clk);
	add_module(doc, &km);
	cxl_load("", &cxl);
	add_cxl(doc, &cxl);
	err = doc_render(doc, a.fmt, stdout);

	doc_free(doc);
	cxl_free(&cxl);
	kmod_close(&km);
	cpu_free(&cpu);
	topology_free(&topo);
	acpi_slit_free(&fw);
	/* A write error is said once, by main. */
	return err ? PH_EXIT_FAIL : PH_EXIT_OK;
}
