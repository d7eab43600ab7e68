// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_survey.c - "pagehop survey", the default job: in about ten seconds,
 * the figures a first look at a machine's memory wants, each measured on
 * verified memory with its spread and the way it was obtained, and what to
 * run next.  The study is survey.c's.
 */
#include "commands.h"
#include "study.h"
#include "common_opts.h"
#include "session.h"
#include "survey.h"
#include "util.h"

#include <errno.h>

static const struct ph_optgroup survey_groups[] = {
	PH_GROUP_OUTPUT,
	{ 0 },
};

static const struct ph_refusal survey_refused[] = {
	PH_REFUSE_MEASURING("the survey's figures are fixed; 'pagehop chase' and 'pagehop stream' take it"),
	{ 0 },
};

const struct ph_cmdspec cmd_survey_spec = {
	.name = "survey",
	.synopsis = "[OPTIONS]",
	.about =
	"A first look, in about ten seconds (it is what 'pagehop' with no command\n"
	"runs): the machine (CPU, nodes, clock, THP, module), then on the first\n"
	"node with CPUs and memory, on its first CPU and local memory, the\n"
	"random-access latency on 4K pages and, where they can be had without\n"
	"reserving anything, on THP; and the read and triad bandwidth with one\n"
	"thread per core of that node.  Every figure is measured on verified\n"
	"memory and reported with its interval; what to run next is printed at\n"
	"the end.\n",
	.groups = survey_groups,
	.refused = survey_refused,
};

/* --format is the one option: the driver's. */
const struct ph_study cmd_survey_study = {
	.spec = &cmd_survey_spec,
	.steps = &survey_steps,
};
