// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_cxl.c - "pagehop cxl": each CXL memory node's access coordinates,
 * explained source by source as Linux composes them.  The study's steps
 * in cxl_study.c, the arithmetic in cxl_explain.c.
 */
#include "commands.h"
#include "common_opts.h"
#include "cxl_study.h"
#include "study.h"

static const struct ph_opt out_opts[] = { PH_OPT_FORMAT, { 0 } };

static const struct ph_optgroup cxl_groups[] = {
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
	"whether it adds up.  Exit 4 when no CXL region's memory is online as a\n"
	"node.\n",
	.groups = cxl_groups,
	.refused = cxl_refused,
};

const struct ph_study cmd_cxl_study = {
	.spec = &cmd_cxl_spec,
	.steps = &cxl_steps,
	.flags = PH_STUDY_NO_MACHINE,
};
