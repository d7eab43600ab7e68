// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_survey.c - "pagehop survey", the default job: in about ten seconds,
 * the figures a first look at a machine's memory wants, each measured on
 * verified memory with its spread and the way it was obtained, and what to
 * run next.
 */
#include "bandwidth.h"
#include "chase.h"
#include "commands.h"
#include "latency.h"
#include "session.h"
#include "util.h"

#include <numa.h>
#include <stdio.h>
#include <string.h>

/* 256 MiB: eight times a large LLC, built and walked in well under a second. */
#define SURVEY_LAT_SIZE (256 * MiB)
#define SURVEY_BW_SIZE (512 * MiB)
#define SURVEY_TIME 0.5

static void survey_usage(void)
{
	printf("usage: pagehop survey [--format table|csv|json]\n"
	       "\n"
	       "A first look, in about ten seconds (it is what 'pagehop' with no command\n"
	       "runs): the machine (nodes, SLIT, clock, module), then on node 0's first\n"
	       "CPU and local memory the random-access latency on 4K pages and, where they\n"
	       "can be had without reserving anything, on THP; and the read and triad\n"
	       "bandwidth with one thread per core of that node.  Every figure is measured\n"
	       "on verified memory and reported with its interval; what to run next is\n"
	       "printed at the end.\n");
}

struct survey {
	struct ph_session *s;
	struct ph_table *t;
	int rc;
};

static void row_common(struct survey *v, int r, const char *figure, const char *how)
{
	table_str(v->t, r, "figure", figure);
	table_str(v->t, r, "how", how);
	session_fill_common(v->s, v->t, r);
}

static void latency_row(struct survey *v, enum ph_psize ps)
{
	struct ph_session *s = v->s;
	struct chase_spec spec = { .pattern = CHASE_RANDOM, .seed = 1 };
	struct ph_latency lat;
	char how[160];
	int rc, r;

	s->bufreq.psize = ps;
	s->size = SURVEY_LAT_SIZE;
	s->bind.threads = 1;
	rc = session_start(s, 1);
	if (rc) {
		session_stop(s);
		return;		/* the reason is on stderr; the survey goes on */
	}
	rc = latency_figure(s, &spec, 1, false, &lat);
	if (lat.user.n) {
		r = table_add_row(v->t);
		snprintf(how, sizeof(how), "random pointer chase over 256 MiB, one thread");
		row_common(v, r, ps == PH_PS_THP ? "latency_thp" : "latency_4k", how);
		table_num(v->t, r, "value", lat.user.st.median, "%.1f");
		table_str(v->t, r, "unit", "ns");
		table_num(v->t, r, "ci_lo", lat.user.st.ci_lo, "%.1f");
		table_num(v->t, r, "ci_hi", lat.user.st.ci_hi, "%.1f");
		table_int(v->t, r, "samples", (long long)lat.user.n);
	}
	if (rc)
		v->rc = rc;
	latency_free(&lat);
	session_stop(s);
}

static void bandwidth_rows(struct survey *v)
{
	struct ph_session *s = v->s;
	static const char *const kernels[] = { "read", "triad" };
	int rc;

	s->bufreq.psize = PH_PS_4K;
	s->size = SURVEY_BW_SIZE;
	s->bind.threads = 0;
	rc = session_start(s, 0);
	for (size_t i = 0; !rc && i < ARRAY_SIZE(kernels) && !ph_interrupted; i++) {
		struct ph_bandwidth bw;
		char how[160], fig[32];
		int r;

		rc = bandwidth_figure(s, stream_find(kernels[i], isa_best(), false), &bw);
		if (bw.res.n) {
			r = table_add_row(v->t);
			snprintf(how, sizeof(how), "STREAM %s, %s, 512 MiB, one thread per core", kernels[i],
				 isa_name(isa_best()));
			snprintf(fig, sizeof(fig), "bandwidth_%s", kernels[i]);
			row_common(v, r, fig, how);
			table_num(v->t, r, "value", bw.res.st.median, "%.2f");
			table_str(v->t, r, "unit", "GB/s");
			table_num(v->t, r, "ci_lo", bw.res.st.ci_lo, "%.2f");
			table_num(v->t, r, "ci_hi", bw.res.st.ci_hi, "%.2f");
			table_int(v->t, r, "samples", (long long)bw.res.n);
		}
		bandwidth_free(&bw);
	}
	if (rc)
		v->rc = rc;
	session_stop(s);
}

int cmd_survey(int argc, char *argv[])
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct ph_session s;
	struct survey v = { .s = &s };
	struct ph_doc *doc;
	struct ph_section *m;
	int c, rc, node = -1;
	char buf[256];

	session_init(&s, SURVEY_LAT_SIZE);
	s.mcfg.time_s = SURVEY_TIME;
	s.mcfg.ci_target = 0.02;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":f:h", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (cli_parse_format("--format", optarg, &s.fmt)) {
				session_free(&s);
				return PH_EXIT_USAGE;
			}
			break;
		case 'h':
			survey_usage();
			session_free(&s);
			return PH_EXIT_OK;
		default:
			cli_option_error(c, argv, opts);
			session_free(&s);
			return PH_EXIT_USAGE;
		}
	}
	if (cli_no_arguments(argc, argv)) {
		session_free(&s);
		return PH_EXIT_USAGE;
	}
	rc = session_machine(&s);
	if (rc) {
		session_free(&s);
		return rc;
	}
	/* The first node that has CPUs and memory: its CPUs, its memory. */
	for (int i = 0; i < s.topo.nnodes && node < 0; i++)
		if (s.topo.nodes[i].ncpus && s.topo.nodes[i].has_memory)
			node = s.topo.nodes[i].id;
	if (node < 0)
		node = s.topo.nodes[0].id;
	s.bind.cpunodebind = numa_allocate_nodemask();
	s.bind.membind = numa_allocate_nodemask();
	numa_bitmask_setbit(s.bind.cpunodebind, (unsigned)node);
	numa_bitmask_setbit(s.bind.membind, (unsigned)node);
	runner_catch_sigint();

	doc = doc_new("survey");
	m = doc_add_section(doc, "machine", "machine");
	snprintf(buf, sizeof(buf), "%s%s%s", s.cpu.brand, s.cpu.codename[0] ? ", " : "", s.cpu.codename);
	section_str(m, "cpu", buf);
	section_int(m, "nodes", s.topo.nnodes);
	section_int(m, "cpus", s.cpu.pus);
	section_str(m, "clock", s.clk.use_tsc ? "tsc" : "monotonic_raw");
	section_num(m, "tsc_hz", s.clk.tsc_hz, "%.0f");
	section_str(m, "tsc_hz_source", s.clk.tsc_source);
	section_str(m, "thp", s.topo.thp_enabled);
	section_str(m, "module", s.km.fd >= 0 ? "loaded" : s.km.why);
	section_int(m, "measured_node", node);

	v.t = doc_add_table(doc, "survey", "first figures");
	table_add_col(v.t, "figure");
	table_add_col(v.t, "value");
	table_add_col(v.t, "unit");
	table_add_col(v.t, "ci_lo");
	table_add_col(v.t, "ci_hi");
	table_add_col(v.t, "samples");
	table_add_col(v.t, "how");
	session_add_common_cols(v.t);
	latency_row(&v, PH_PS_4K);
	if (!ph_interrupted && strcmp(s.topo.thp_enabled, "never") && strcmp(s.topo.thp_enabled, "unsupported"))
		latency_row(&v, PH_PS_THP);
	if (!ph_interrupted)
		bandwidth_rows(&v);

	if (s.topo.nnodes > 1)
		doc_note(doc, "%d nodes: 'pagehop matrix' measures every node pair, 'pagehop slit' checks the SLIT against it",
			 s.topo.nnodes);
	doc_note(doc, "'pagehop pages' separates what page size does, 'pagehop prefetch' what prefetching does; 'pagehop info' shows the whole machine");
	doc_note(doc, "each figure: median of blocks over %.1f s after a warm-up, 95%% CI of the median; survey figures are quick, the commands above take their time", SURVEY_TIME);
	rc = session_render(&s, doc, v.rc);
	doc_free(doc);
	session_free(&s);
	return rc;
}
