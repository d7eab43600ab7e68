// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_cxl.c - "pagehop cxl": each CXL memory node's access coordinates,
 * explained source by source as Linux composes them.  The study's steps
 * in cxl_study.c, the arithmetic in cxl_explain.c.
 */
#include "commands.h"
#include "cli.h"
#include "common_opts.h"
#include "cxl_study.h"
#include "study.h"
#include "util.h"

#include <errno.h>

enum { OPT_INPUT = 1, OPT_TOLERANCE, OPT_NOISE, OPT_NO_MEASURE, OPT_EMIT_CDAT, OPT_EMIT_HMAT,
       OPT_HMAT_TABLE, OPT_CDAT };

static const struct ph_opt cxl_opts[] = {
	{ "input", 'i', "FILE", OPT_INPUT,
	  "a saved document (pagehop cxl --format json) with its\n"
	  "measured rows (cxl_measured, a CI or none): explain\n"
	  "and judge it offline", NULL, "this machine" },
	{ "tolerance", 't', "PCT", OPT_TOLERANCE,
	  "how far an entry may be from what the measurement\n"
	  "implies for it", "15", NULL },
	{ "noise", 'n', "PCT", OPT_NOISE,
	  "uncertainty assumed for each measured value where its\n"
	  "CI is narrower or absent", "2.5", NULL },
	{ "emit-cdat", 0, "FILE", OPT_EMIT_CDAT,
	  "write the device's CDAT with its read figures from\n"
	  "the measurement (QEMU's cdat= takes it): this machine's\n"
	  "one CXL node, measured, or --input's with --cdat", NULL, NULL },
	{ "cdat", 0, "FILE", OPT_CDAT,
	  "the device's CDAT (binary) --emit-cdat rewrites for a\n"
	  "saved document (--input); its figures must be the\n"
	  "document's device CDAT's", NULL, "the device's, read here" },
	{ "emit-hmat", 0, "FILE", OPT_EMIT_HMAT,
	  "write the firmware's HMAT (iasl source) with the\n"
	  "generic port's entries from the measurement less the\n"
	  "device CDAT and link; this machine's or --input's", NULL, NULL },
	{ "hmat-table", 0, "FILE", OPT_HMAT_TABLE,
	  "the firmware HMAT (binary) --emit-hmat carries over\n"
	  "and takes its IDs from", NULL, "this machine's; none with --input" },
	{ "no-measure", 0, NULL, OPT_NO_MEASURE,
	  "explain the coordinates only: nothing is measured or\n"
	  "judged", NULL, NULL },
	{ 0 },
};
static const struct ph_opt measure_opts[] = {
	PH_OPT_TIME("2"),
	PH_OPT_CI("1"),
	PH_OPT_SIZE("64M"),
	PH_OPT_PAGE_SIZE(NULL, "the largest every CXL node can give"),
	PH_OPT_BACKEND,
	{ 0 },
};
static const struct ph_opt out_opts[] = { PH_OPT_FORMAT, { 0 } };

static const struct ph_optgroup cxl_groups[] = {
	{ "cxl", cxl_opts },
	{ "measurement", measure_opts },
	{ "output", out_opts },
	{ 0 },
};

const struct ph_cmdspec cmd_cxl_spec = {
	.name = "cxl",
	.synopsis = "[OPTIONS]",
	.about =
	"Explain each CXL memory node's access coordinates as Linux 6.12 composes\n"
	"them: the device's CDAT (the DSLBIS figures of the DSMAS range that\n"
	"holds the region), the host bridge's generic port (its SRAT Generic Port\n"
	"Affinity structure and HMAT entries) and the PCIe link (the flit latency\n"
	"of the port above the device; the link's bandwidth, speed / 8 x width).\n"
	"Latencies add up, bandwidth is the least of the three.  Each figure of\n"
	"access class 0 and 1 is shown with its parts beside the kernel's\n"
	"(nodeN/accessK/initiators, regionN/accessK), and whether it adds up.\n"
	"Then read latency and read bandwidth to each CXL node are measured from\n"
	"every CPU node (as pagehop matrix measures a cell, on verified memory),\n"
	"or taken from a saved document (--input), and each entry of the device's\n"
	"CDAT and of the generic port is judged against what the measurement\n"
	"implies for it, the other parts as given, with the HMAT check's\n"
	"tolerance and noise: exit 0 every entry agrees, 1 one is off (named,\n"
	"with its source), 5 one cannot be told.  Exit 4 when no CXL region's\n"
	"memory is online as a node.\n",
	.groups = cxl_groups,
};

static void cxl_init(void *args, struct ph_options *opt)
{
	struct ph_cxl_study *x = args;

	(void)opt;
	x->tolerance = 0.15;
	x->noise = 0.025;
}

static int cxl_option(void *args, struct ph_options *opt, const struct ph_opt *o, const char *arg)
{
	struct ph_cxl_study *x = args;
	double pct;

	(void)opt;
	switch (o->id) {
	case OPT_INPUT:
		x->input = arg;
		return 0;
	case OPT_TOLERANCE:
		if (cli_parse_double("--tolerance", arg, 0, 1000, &pct))
			return -EINVAL;
		x->tolerance = pct / 100;
		return 0;
	case OPT_EMIT_CDAT:
		x->emit_cdat = arg;
		return 0;
	case OPT_EMIT_HMAT:
		x->emit_hmat = arg;
		return 0;
	case OPT_HMAT_TABLE:
		x->hmat_table = arg;
		return 0;
	case OPT_CDAT:
		x->cdat_file = arg;
		return 0;
	case OPT_NO_MEASURE:
		x->no_measure = true;
		return 0;
	case OPT_NOISE:
		if (cli_parse_double("--noise", arg, 0, 50, &pct))
			return -EINVAL;
		x->noise = pct / 100;
		return 0;
	}
	return -EINVAL;
}

/*
 * --emit-cdat needs the device's CDAT and a measurement: this machine's,
 * measured, or a saved document's with --cdat; --emit-hmat a measurement,
 * --hmat-table --emit-hmat.  Output files are checked before measuring.
 */
static int cxl_check(void *args, struct ph_session *s)
{
	const struct ph_cxl_study *x = args;

	(void)s;
	if (x->emit_cdat && x->no_measure) {
		ph_err("--emit-cdat: needs a measurement, so not with --no-measure");
		return PH_EXIT_USAGE;
	}
	if (x->emit_cdat && x->input && !x->cdat_file) {
		ph_err("--emit-cdat with --input: a saved document does not carry the device's CDAT; give it with --cdat FILE");
		return PH_EXIT_USAGE;
	}
	if (x->cdat_file && !(x->emit_cdat && x->input)) {
		ph_err("--cdat: only --emit-cdat with --input reads it (here the device's own CDAT is read)");
		return PH_EXIT_USAGE;
	}
	if (x->emit_cdat && cli_check_output("--emit-cdat", x->emit_cdat))
		return PH_EXIT_USAGE;
	if (x->emit_hmat && x->no_measure) {
		ph_err("--emit-hmat: needs a measurement, so not with --no-measure");
		return PH_EXIT_USAGE;
	}
	if (x->emit_hmat && cli_check_output("--emit-hmat", x->emit_hmat))
		return PH_EXIT_USAGE;
	if (x->hmat_table && !x->emit_hmat) {
		ph_err("--hmat-table: only --emit-hmat reads it; give --emit-hmat FILE too");
		return PH_EXIT_USAGE;
	}
	return 0;
}

/* The machine is read only to measure it. */
static bool cxl_needs_machine(const void *args)
{
	const struct ph_cxl_study *x = args;

	return !x->input && !x->no_measure;
}

const struct ph_study cmd_cxl_study = {
	.spec = &cmd_cxl_spec,
	.steps = &cxl_steps,
	.default_size = 64 * MiB,
	.init = cxl_init,
	.option = cxl_option,
	.check = cxl_check,
	.needs_machine = cxl_needs_machine,
};
