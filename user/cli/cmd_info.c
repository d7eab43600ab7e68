// SPDX-License-Identifier: GPL-2.0-only
/*
 * info.c - "pagehop info": what to check before measuring.  Nodes with
 * their CPUs, memory and hugepage pools; the SLIT in numactl's layout; HMAT;
 * THP; the CPU, its caches and SMT siblings; the clock; the module.
 */
#include "acpi_slit.h"
#include "clock.h"
#include "cli.h"
#include "commands.h"
#include "common_opts.h"
#include "cpu.h"
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
	"came from and whether it is invariant; and whether /dev/pagehop is\n"
	"loaded and can control the prefetchers.  The firmware's SLIT is judged\n"
	"as Linux judges it: a table with a diagonal entry other than 10, or\n"
	"another entry of 10 or less, is ignored by the kernel, which then uses\n"
	"10 local, 20 remote.\n",
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

int cmd_info(int argc, char *argv[])
{
	struct info_args a = { .fmt = PH_FMT_TABLE, .slit_table = PH_ACPI_SLIT_PATH };
	struct ph_topology topo;
	struct ph_cpu cpu;
	struct ph_kmod km;
	struct ph_clock clk;
	struct ph_doc *doc;
	struct ph_acpi_slit fw;
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
	err = doc_render(doc, a.fmt, stdout);

	doc_free(doc);
	kmod_close(&km);
	cpu_free(&cpu);
	topology_free(&topo);
	acpi_slit_free(&fw);
	/* A write error is said once, by main. */
	return err ? PH_EXIT_FAIL : PH_EXIT_OK;
}
