// SPDX-License-Identifier: GPL-2.0-only
/*
 * info.c - "pagehop info": what to check before measuring.  Nodes with
 * their CPUs, memory and hugepage pools; the SLIT in numactl's layout; HMAT;
 * THP; the CPU, its caches and SMT siblings; the clock; the module; CXL
 * memory devices, their regions, nodes and CDAT.
 */
#include "acpi_slit.h"
#include "cli.h"
#include "commands.h"
#include "common_opts.h"
#include "cpu.h"
#include "cxl.h"
#include "cxl_report.h"
#include "machine_report.h"
#include "output.h"
#include "slit_report.h"
#include "topology.h"
#include "topo_report.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

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
	"the access coordinates the kernel computed for each region and node,\n"
	"with what each CDAT, the SRAT and the CEDT say that Linux cannot use.\n"
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
	machine_report_nodes(doc, &topo);
	topology_report_distances(doc, &topo);
	slit_report_firmware(doc, a.slit_table, !a.table_given, fw_err, why, &fw);
	topology_report_hmat(doc, &topo);
	machine_report(doc, &topo, &cpu, &clk, &km);
	cxl_load("", &cxl);
	cxl_report(doc, &cxl);
	acpi_cxl_report(doc, PH_ACPI_SRAT_PATH, PH_ACPI_CEDT_PATH);
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
