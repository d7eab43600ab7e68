// SPDX-License-Identifier: GPL-2.0-only
/*
 * survey.c - the first look (survey.h): plan, measure, document.
 */
#include "survey.h"
#include "bandwidth.h"
#include "chase.h"
#include "latency.h"
#include "progress.h"
#include "util.h"

#include <numa.h>
#include <stdio.h>
#include <string.h>

/* 256 MiB: eight times a large LLC, built and walked in well under a second. */
#define SURVEY_LAT_SIZE (256 * MiB)
#define SURVEY_BW_SIZE (512 * MiB)
/* Quick figures: half a second each, a 2% interval where that is enough. */
#define SURVEY_TIME 0.5
#define SURVEY_CI 0.02

int survey_plan(void *state, struct ph_session *s)
{
	struct ph_survey *v = state;
	struct ph_section *m;
	char buf[256];

	memset(v, 0, sizeof(*v));
	s->meas.time_s = SURVEY_TIME;
	s->meas.ci_target = SURVEY_CI;
	/* The first node that has CPUs and memory: its CPUs, its memory. */
	v->node = -1;
	for (int i = 0; i < s->m.topo.nnodes && v->node < 0; i++)
		if (s->m.topo.nodes[i].ncpus && s->m.topo.nodes[i].has_memory)
			v->node = s->m.topo.nodes[i].id;
	if (v->node < 0)
		v->node = s->m.topo.nodes[0].id;

	v->doc = doc_new("survey");
	m = doc_add_section(v->doc, "machine", "machine");
	snprintf(buf, sizeof(buf), "%s%s%s", s->m.cpu.brand, s->m.cpu.codename[0] ? ", " : "", s->m.cpu.codename);
	section_str(m, "cpu", buf);
	section_int(m, "nodes", s->m.topo.nnodes);
	section_int(m, "cpus", s->m.cpu.pus);
	section_str(m, "clock", s->m.clk.use_tsc ? "tsc" : "monotonic_raw");
	section_num(m, "tsc_hz", s->m.clk.tsc_hz, "%.0f");
	section_str(m, "tsc_hz_source", s->m.clk.tsc_source);
	section_str(m, "thp", s->m.topo.thp_enabled);
	section_str(m, "module", s->m.km.fd >= 0 ? "loaded" : s->m.km.why);
	section_int(m, "measured_node", v->node);

	v->t = doc_add_table(v->doc, "survey", "first figures");
	table_add_col(v->t, "figure");
	table_add_col(v->t, "value");
	table_add_col(v->t, "unit");
	table_add_col(v->t, "ci_lo");
	table_add_col(v->t, "ci_hi");
	table_add_col(v->t, "samples");
	session_add_common_cols(v->t);
	/*
	 * The default table: each figure with its CI, its node, whether the
	 * memory was verified and how it was measured, last, where a long
	 * line wraps; the rest the figure's name and "how" say.
	 */
	table_add_col(v->t, "how");
	table_detail(v->t, "samples page_size cpus threads size_KiB");
	return 0;
}

/* A row: the figure, its median and interval, how it was had, and the memory. */
static void add_row(struct ph_survey *v, struct ph_session *s, const char *figure, const char *how,
		    const struct ph_result *res, const char *unit, const char *fmt)
{
	int r = table_add_row(v->t);

	table_str(v->t, r, "figure", figure);
	table_str(v->t, r, "how", how);
	session_fill_common(s, v->t, r);
	table_num(v->t, r, "value", res->st.median, fmt);
	table_str(v->t, r, "unit", unit);
	table_num(v->t, r, "ci_lo", res->st.ci_lo, fmt);
	table_num(v->t, r, "ci_hi", res->st.ci_hi, fmt);
	table_int(v->t, r, "samples", (long long)res->n);
}

/* Threads on v->node's CPUs, memory on v->node, size bytes of ps pages laid out. */
static int start(struct ph_survey *v, struct ph_session *s, unsigned threads, uint64_t size,
		 enum ph_psize ps)
{
	struct ph_bindopts bind = {
		.cpunodebind = numa_allocate_nodemask(),
		.membind = numa_allocate_nodemask(),
		.threads = threads,
	};
	struct ph_layout lay = session_layout(s);
	int rc;

	numa_bitmask_setbit(bind.cpunodebind, (unsigned)v->node);
	numa_bitmask_setbit(bind.membind, (unsigned)v->node);
	lay.size = size;
	lay.bufreq.psize = ps;
	rc = session_start_bind(s, &bind, &lay, threads);
	bindopts_free(&bind);
	return rc;
}

static void latency_row(struct ph_survey *v, struct ph_session *s, enum ph_psize ps)
{
	struct chase_spec spec = { .pattern = CHASE_RANDOM, .seed = 1 };
	struct ph_latency lat;
	char how[160], size[32];
	int rc;

	rc = start(v, s, 1, SURVEY_LAT_SIZE, ps);
	if (rc) {
		session_stop(s);
		return;		/* the reason is on stderr; the survey goes on */
	}
	rc = latency_figure(s, &spec, 1, false, &lat);
	if (lat.user.n) {
		snprintf(how, sizeof(how), "random pointer chase over %s, one thread",
			 format_size(SURVEY_LAT_SIZE, size, sizeof(size)));
		add_row(v, s, ps == PH_PS_THP ? "latency_thp" : "latency_4k", how, &lat.user, "ns", "%.1f");
	}
	if (rc)
		v->rc = rc;
	latency_free(&lat);
	session_stop(s);
}

static void bandwidth_rows(struct ph_survey *v, struct ph_session *s)
{
	static const char *const kernels[] = { "read", "triad" };
	char size[32];
	int rc;

	rc = start(v, s, 0, SURVEY_BW_SIZE, PH_PS_4K);
	for (size_t i = 0; !rc && i < ARRAY_SIZE(kernels) && !ph_interrupted; i++) {
		struct ph_bandwidth bw;
		char how[160], fig[32];

		const struct stream_kernel *k = stream_auto(kernels[i], false, NULL);

		progress_step("%s bandwidth", kernels[i]);
		rc = bandwidth_figure(s, k, &bw);
		if (bw.res.n) {
			snprintf(how, sizeof(how), "STREAM %s, %s, %s, one thread per core", kernels[i],
				 isa_name(k->isa), format_size(SURVEY_BW_SIZE, size, sizeof(size)));
			snprintf(fig, sizeof(fig), "bandwidth_%s", kernels[i]);
			add_row(v, s, fig, how, &bw.res, "GB/s", "%.2f");
		}
		bandwidth_free(&bw);
	}
	if (rc)
		v->rc = rc;
	session_stop(s);
}

int survey_measure(void *state, struct ph_session *s)
{
	struct ph_survey *v = state;
	bool thp = strcmp(s->m.topo.thp_enabled, "never") && strcmp(s->m.topo.thp_enabled, "unsupported");

	/* A step per figure: the latencies, then read and triad. */
	progress_begin(thp ? 4 : 3, "survey");
	progress_step("latency on 4K pages");
	latency_row(v, s, PH_PS_4K);
	if (!ph_interrupted && thp) {
		progress_step("latency on THP");
		latency_row(v, s, PH_PS_THP);
	}
	if (!ph_interrupted)
		bandwidth_rows(v, s);
	return v->rc;
}

struct ph_doc *survey_doc(void *state, struct ph_session *s, int *rc)
{
	struct ph_survey *v = state;
	struct ph_doc *doc = v->doc;

	(void)rc;
	if (s->m.topo.nnodes > 1)
		doc_note(doc, "%d nodes: 'pagehop matrix' measures every node pair, 'pagehop slit' checks the SLIT against it",
			 s->m.topo.nnodes);
	doc_note(doc, "'pagehop pages' separates what page size does, 'pagehop prefetch' what prefetching does; 'pagehop info' shows the whole machine");
	doc_note(doc, "each figure: median of blocks over %.1f s after a warm-up, 95%% CI of the median; survey figures are quick, the commands above take their time",
		 SURVEY_TIME);
	v->doc = NULL;
	return doc;
}

const struct ph_steps survey_steps = {
	.size = sizeof(struct ph_survey),
	.plan = survey_plan,
	.measure = survey_measure,
	.document = survey_doc,
};
