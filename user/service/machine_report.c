// SPDX-License-Identifier: GPL-2.0-only
/*
 * machine_report.c - the machine as pagehop info shows it, as tables and
 * sections of a document: nodes and their hugepage pools, memory, the
 * CPU, its caches, TLBs and SMT siblings, the clock, and pagehop.ko.
 */
#include "machine_report.h"
#include "isa.h"
#include "number.h"
#include "output.h"
#include "tlb.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>

void machine_report_nodes(struct ph_doc *doc, const struct ph_topology *t)
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

void machine_report(struct ph_doc *doc, const struct ph_topology *t, const struct ph_cpu *c,
		    const struct ph_clock *clk, const struct ph_kmod *k)
{
	add_memory(doc, t);
	add_cpu(doc, c);
	add_caches(doc, c);
	add_tlbs(doc, c);
	add_smt(doc, c);
	add_clock(doc, clk);
	add_module(doc, k);
}
