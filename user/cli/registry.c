// SPDX-License-Identifier: GPL-2.0-only
/*
 * registry.c - the subcommands pagehop has, in the order "pagehop help"
 * lists them.
 */
#include "commands.h"
#include "registry.h"
#include "util.h"

#include <string.h>

const struct ph_command ph_commands[] = {
	{ "survey", NULL,
	  "a first look in about ten seconds (what 'pagehop' alone runs)", &cmd_survey_spec, &cmd_survey_study },
	{ "info", cmd_info,
	  "nodes, distances (SLIT), HMAT, CPU, caches, clock and module state", &cmd_info_spec, NULL },
	{ "stream", NULL,
	  "memory bandwidth with STREAM's kernels, per ISA and store kind", &cmd_stream_spec, &cmd_stream_study },
	{ "chase", NULL,
	  "load-to-use latency by pointer chasing, per pattern and page size", &cmd_chase_spec, &cmd_chase_study },
	{ "list", cmd_list,
	  "every bandwidth kernel variant and chase pattern", &cmd_list_spec, NULL },
	{ "pages", NULL,
	  "what page size does: a working-set sweep per page size, TLB knees, ratios", &cmd_pages_spec, &cmd_pages_study },
	{ "prefetch", NULL,
	  "what hardware and software prefetching do, per access pattern", &cmd_prefetch_spec, &cmd_prefetch_study },
	{ "scale", NULL,
	  "bandwidth against thread count, by placement: efficiency and the knee", &cmd_scale_spec, &cmd_scale_study },
	{ "hops", NULL,
	  "bandwidth and latency against working-set size, per hop level", &cmd_hops_spec, &cmd_hops_study },
	{ "scan", NULL,
	  "a node's memory by physical range: the slow range and the DIMM behind it", &cmd_scan_spec, &cmd_scan_study },
	{ "goaround", NULL,
	  "mem_go_around: every thread on another's block, turn by turn, all at once", &cmd_goaround_spec, &cmd_goaround_study },
	{ "interleave", NULL,
	  "bandwidth under interleave, weighted interleave and proposed weights", &cmd_interleave_spec, &cmd_interleave_study },
	{ "matrix", NULL,
	  "latency and bandwidth for every CPU node x memory node pair", &cmd_matrix_spec, &cmd_matrix_study },
	{ "c2c", NULL,
	  "core-to-core latency: a cache line handed between every CPU pair", &cmd_c2c_spec, &cmd_c2c_study },
	{ "locks", NULL,
	  "lock overhead against thread count: spinlocks, pthread mutex, OpenMP", &cmd_locks_spec, &cmd_locks_study },
	{ "loaded", NULL,
	  "loaded latency: a chase while loader CPUs stream at an injection delay ladder", &cmd_loaded_spec, &cmd_loaded_study },
	{ "slit", NULL,
	  "compare a measured node matrix with the SLIT and HMAT; propose a SLIT", &cmd_slit_spec, &cmd_slit_study },
	{ "cxl", NULL,
	  "CXL memory nodes: coordinates explained from CDAT, generic port and link", &cmd_cxl_spec, &cmd_cxl_study },
	{ "baseline", NULL,
	  "record this machine's fingerprint: model key, settings, figures per node", &cmd_baseline_spec, &cmd_baseline_study },
	{ "check", NULL,
	  "a verdict on this machine within a time budget (monitoring exit codes)", &cmd_check_spec, &cmd_check_study },
	{ "compare", cmd_compare,
	  "rank a fleet's hosts by how far their figures stray from their model's", &cmd_compare_spec, NULL },
	{ "report", cmd_report,
	  "saved documents as one self-contained HTML page: verdicts, heatmaps, curves", &cmd_report_spec, NULL },
};

const size_t ph_ncommands = ARRAY_SIZE(ph_commands);

const struct ph_command *command_find(const char *name)
{
	for (size_t i = 0; i < ph_ncommands; i++)
		if (!strcmp(ph_commands[i].name, name))
			return &ph_commands[i];
	return NULL;
}
