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

enum { OPT_INPUT = 1, OPT_TOLERANCE, OPT_NOISE };

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
	{ 0 },
};
static const struct ph_opt out_opts[] = { PH_OPT_FORMAT, { 0 } };

static const struct ph_optgroup cxl_groups[] = {
	{ "cxl", cxl_opts },
	{ "output", out_opts },
	{ 0 },
};

static const struct ph_refusal cxl_refused[] = {
	PH_REFUSE_MEASURING("cxl explains the kernel's figures: it measures nothing yet"),
	{ 0 },
};

const struct ph_cmdspec cmd_cxl_spec = {
	.name = "cxl",
	.synopsis = "[OPTIONS]",
	.about =
	"Explain each CXL memory node's access coordinates as Linux 6.12\n"
	"composes them: the device's CDAT (the DSLBIS figures of the DSMAS range\n"
	"that holds the region), the host bridge's generic port (its SRAT\n"
	"Generic Port Affinity structure and HMAT entries) and the PCIe link\n"
	"(the flit latency of the port above the device; the link's bandwidth,\n"
	"speed / 8 x width).  Latencies add up, bandwidth is the least of the\n"
	"three.  Each figure of access class 0 and 1 is shown with its parts\n"
	"beside the kernel's (nodeN/accessK/initiators, regionN/accessK), and\n"
	"whether it adds up.  With measured rows (--input), each entry of the\n"
	"device's CDAT and the generic port is judged against what the\n"
	"measurement implies for it, the other parts as given, with the HMAT\n"
	"check's tolerance and noise: exit 0 every entry agrees, 1 one is off\n"
	"(named, with its source), 5 one cannot be told.  Exit 4 when no CXL\n"
	"region's memory is online as a node.\n",
	.groups = cxl_groups,
	.refused = cxl_refused,
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
	case OPT_NOISE:
		if (cli_parse_double("--noise", arg, 0, 50, &pct))
			return -EINVAL;
		x->noise = pct / 100;
		return 0;
	}
	return -EINVAL;
}

const struct ph_study cmd_cxl_study = {
	.spec = &cmd_cxl_spec,
	.steps = &cxl_steps,
	.flags = PH_STUDY_NO_MACHINE,
	.init = cxl_init,
	.option = cxl_option,
};
