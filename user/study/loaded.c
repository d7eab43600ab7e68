// SPDX-License-Identifier: GPL-2.0-only
/*
 * loaded.c - latency under load: a chase on one CPU, traffic on the others.
 */
#include "loaded.h"
#include "homed.h"
#include "progress.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <numa.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char loaded_method[] =
	"the chaser walks a random chain (pagehop chase's figure) while every loader streams over its own buffer a line at a time in the mix asked, with the injection delay (dependent adds) after each line; a point's bandwidth is the bytes the loaders counted over the time they ran (first start to last end)";

/*
 * The default ladder, from no traffic to as much as a loader can make: a
 * delay of D adds costs about D cycles a line, so 5000 leaves a loader
 * near 1 line per 2 us (tens of MB/s) and 0 is a plain stream (saturation
 * with a few loaders).  Roughly doubling steps, as MLC's ladder does.
 */
const unsigned loaded_default_delays[] = { 5000, 2000, 1000, 500, 200, 100, 50, 20, 0 };
const size_t loaded_ndefault_delays = ARRAY_SIZE(loaded_default_delays);

static int cmp_desc(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return (x < y) - (x > y);
}

int loaded_ladder(const char *arg, unsigned **out, int *n)
{
	unsigned *v = NULL;
	int k = 0, m = 0;

	*out = NULL;
	*n = 0;
	if (!arg) {
		for (size_t i = 0; i < loaded_ndefault_delays; i++)
			*(unsigned *)xappend(&v, &k, sizeof(unsigned)) = loaded_default_delays[i];
	} else {
		char *copy = xstrdup(arg), *save = NULL;

		for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			uint64_t d;

			if (parse_u64(tok, false, &d) || d > 10000000) {
				free(copy);
				free(v);
				return -EINVAL;
			}
			*(unsigned *)xappend(&v, &k, sizeof(unsigned)) = (unsigned)d;
		}
		free(copy);
		if (!k)
			return -EINVAL;
	}
	qsort(v, (size_t)k, sizeof(unsigned), cmp_desc);
	for (int i = 0; i < k; i++)
		if (!m || v[m - 1] != v[i])
			v[m++] = v[i];
	*out = v;
	*n = m;
	return 0;
}

double loaded_gbps(const uint64_t *bytes, int n, double span_ns)
{
	uint64_t sum = 0;

	if (span_ns <= 0)
		return NAN;
	for (int i = 0; i < n; i++)
		sum += bytes[i];
	return (double)sum / span_ns;	/* bytes per ns = GB/s */
}

static int plan_mixes(struct ph_loaded *ld, const char *arg)
{
	char *copy = xstrdup(arg ? arg : "read"), *save = NULL;

	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		const struct load_mix_info *m = NULL;

		for (size_t i = 0; i < load_nmixes; i++)
			if (!strcmp(tok, load_mixes[i].name))
				m = &load_mixes[i];
		if (!m) {
			ph_err("--mix: unknown mix '%s'; expected read, 3:1, 2:1, 1:1 or nt", tok);
			free(copy);
			return PH_EXIT_USAGE;
		}
		*(const struct load_mix_info **)xappend(&ld->mixes, &ld->nmixes, sizeof(void *)) = m;
	}
	free(copy);
	return 0;
}

static int plan_cpus(struct ph_loaded *ld, const struct ph_session *s)
{
	const struct bitmask *chaser = ld->chaser_given, *loaders = ld->loaders_given;
	const struct bitmask *loader_nodes = ld->loader_nodes_given;
	const char *mixes = ld->mixes_given, *delays = ld->delays_given;
	int rc;

	(void)s;
	if (!chaser || numa_bitmask_weight(chaser) != 1) {
		ph_err("--chaser: name exactly one CPU");
		return PH_EXIT_USAGE;
	}
	for (unsigned i = 0; i < chaser->size; i++)
		if (numa_bitmask_isbitset(chaser, i))
			ld->chaser = (int)i;
	if (contend_cpus(loaders, "--loaders", &ld->loaders, &ld->nloaders))
		return PH_EXIT_USAGE;
	/* By default every other CPU loads. */
	for (int i = 0; !loaders && i < ld->nloaders; i++)
		if (ld->loaders[i] == ld->chaser)
			memmove(&ld->loaders[i], &ld->loaders[i + 1],
				(size_t)(--ld->nloaders - i) * sizeof(int));
	for (int i = 0; i < ld->nloaders; i++)
		if (ld->loaders[i] == ld->chaser) {
			ph_err("--loaders: CPU %d is the chaser's; a loader needs a CPU of its own",
			       ld->chaser);
			return PH_EXIT_USAGE;
		}
	if (!ld->nloaders) {
		ph_err("--loaders: no loader CPU; name at least one besides the chaser");
		return PH_EXIT_USAGE;
	}
	rc = homed_node(loader_nodes, "--loader-membind", ld->loaders[0], &ld->loader_node);
	if (!rc)
		rc = plan_mixes(ld, mixes);
	if (!rc && loaded_ladder(delays, &ld->delays, &ld->ndelays)) {
		ph_err("--delays: invalid list '%s'; expected delays from 0 to 10000000 separated by commas, e.g. 1000,100,0",
		       delays);
		rc = PH_EXIT_USAGE;
	}
	return rc;
}

static int loaded_plan(void *state, struct ph_session *s)
{
	struct ph_loaded *ld = state;
	struct ph_bindopts bind = {
		.physcpubind = numa_allocate_cpumask(),
		.membind = s->opt->bind.membind,
		.threads = 1,
	};
	int rc = plan_cpus(ld, s);

	if (!rc) {
		numa_bitmask_setbit(bind.physcpubind, (unsigned)ld->chaser);
		rc = session_start_bind(s, &bind, NULL, 1);
	}
	numa_free_cpumask(bind.physcpubind);
	if (rc)
		return rc;
	if (s->per_thread < 2 * CHASE_SLOT) {
		ph_err("--size: %llu bytes is too small for a chain", (unsigned long long)s->laid.size);
		return PH_EXIT_USAGE;
	}
	ld->segs = xcalloc((size_t)ld->nloaders, sizeof(*ld->segs));
	ld->have = xcalloc((size_t)ld->nloaders, sizeof(bool));
	for (int i = 0; i < ld->nloaders && !rc; i++) {
		char what[64];

		snprintf(what, sizeof(what), "loader %d (CPU %d)'s buffer", i, ld->loaders[i]);
		rc = homed_alloc(s, ld->loader_node, ld->loader_bytes, &ld->segs[i], &ld->have[i],
				 what);
	}
	return rc;
}

struct load_run {
	struct ph_loaded *ld;
	struct ph_session *s;
	struct ph_team *team;
	const struct load_mix_info *mix;
	unsigned delay;
	uint64_t *bytes, *pos, *ticks;
	volatile int stop;
	int started;
};

static void work_load(void *ctx, int tid)
{
	struct load_run *r = ctx;
	struct ph_segment *seg = &r->ld->segs[tid];
	uint64_t sink = 0, bytes = 0;

	__atomic_add_fetch(&r->started, 1, __ATOMIC_ACQ_REL);
	/* 1024 lines between looks at the flag: at most ~5 ms at the longest delay. */
	while (!__atomic_load_n(&r->stop, __ATOMIC_ACQUIRE))
		bytes += load_traffic(seg->addr, seg->bytes, &r->pos[tid], 1024, r->mix->mix,
				      r->delay, &sink);
	r->bytes[tid] = bytes;
	__asm__ __volatile__("" : : "r"(sink));
}

static void *conductor(void *arg)
{
	struct load_run *r = arg;

	team_run(r->team, work_load, r, &r->s->m.clk, r->ticks);
	return NULL;
}

static const struct chase_spec chase_random = { CHASE_RANDOM, 0, 1 };

static int measure_point(struct load_run *r, struct ph_loadpoint *pt)
{
	struct ph_session *s = r->s;
	pthread_t th;
	int rc;

	if (!pt->mix)
		return latency_figure_dist(s, &chase_random, 1, false, &r->ld->dist, &pt->lat);
	r->mix = pt->mix;
	r->delay = pt->delay;
	r->stop = 0;
	r->started = 0;
	memset(r->bytes, 0, (size_t)r->ld->nloaders * sizeof(uint64_t));
	if (pthread_create(&th, NULL, conductor, r)) {
		ph_err("cannot start the loaders' thread");
		return PH_EXIT_FAIL;
	}
	while (__atomic_load_n(&r->started, __ATOMIC_ACQUIRE) < r->ld->nloaders)
		sched_yield();
	rc = latency_figure_dist(s, &chase_random, 1, false, &r->ld->dist, &pt->lat);
	__atomic_store_n(&r->stop, 1, __ATOMIC_RELEASE);
	pthread_join(th, NULL);
	pt->span_s = clock_ticks_to_ns(&s->m.clk, team_span(r->team)) * 1e-9;
	pt->gbps = loaded_gbps(r->bytes, r->ld->nloaders, pt->span_s * 1e9);
	return rc;
}

static int loaded_measure(void *state, struct ph_session *s)
{
	struct ph_loaded *ld = state;
	struct load_run r = { .ld = ld, .s = s };
	char why[256];
	int rc = 0, total = 1 + ld->nmixes * ld->ndelays;

	r.team = team_start(ld->loaders, ld->nloaders, why, sizeof(why));
	if (!r.team) {
		ph_err("loaders: %s", why);
		return PH_EXIT_FAIL;
	}
	r.bytes = xcalloc((size_t)ld->nloaders, sizeof(uint64_t));
	r.pos = xcalloc((size_t)ld->nloaders, sizeof(uint64_t));
	r.ticks = xcalloc((size_t)ld->nloaders, sizeof(uint64_t));
	ld->pts = xcalloc((size_t)total, sizeof(*ld->pts));
	progress_begin(total, "loaded");
	for (int p = 0; p < total && !rc && !ph_interrupted; p++) {
		struct ph_loadpoint *pt = &ld->pts[ld->npts];

		if (p) {
			pt->mix = ld->mixes[(p - 1) / ld->ndelays];
			pt->delay = ld->delays[(p - 1) % ld->ndelays];
			progress_step("%s loaders, delay %u", pt->mix->name, pt->delay);
		} else {
			progress_step("idle loaders");
		}
		rc = measure_point(&r, pt);
		if (pt->lat.user.n)
			ld->npts++;
		else
			latency_free(&pt->lat);
	}
	team_stop(r.team);
	free(r.bytes);
	free(r.pos);
	free(r.ticks);
	if (!session_still_verified(s))
		rc = rc ? rc : PH_EXIT_FAIL;
	for (int i = 0; i < ld->nloaders; i++)
		if (ld->have[i] && !homed_still_verified(s, &ld->segs[i], "a loader's buffer"))
			rc = rc ? rc : PH_EXIT_FAIL;
	return rc;
}

static bool loaded_measured(const void *state)
{
	return ((const struct ph_loaded *)state)->npts > 0;
}

/* The point's mix and delay, as the loaded table names them. */
static void point_keys(struct ph_table *t, int row, const struct ph_loadpoint *pt)
{
	table_str(t, row, "mix", pt->mix ? pt->mix->name : "idle");
	if (pt->mix)
		table_int(t, row, "delay", pt->delay);
}

/* Tables "loaded_dist" (a row per point) and, with --histogram, "loaded_histogram". */
static void loaded_dist_tables(const struct ph_loaded *ld, struct ph_doc *doc)
{
	struct ph_table *t = latency_dist_table(doc, "loaded_dist", "mix delay", &ld->dist);
	struct ph_table *h = ld->dist.histogram ? latency_hist_table(doc, "loaded_histogram", "mix delay") : NULL;

	for (int p = 0; p < ld->npts; p++) {
		const struct ph_loadpoint *pt = &ld->pts[p];
		char label[64];
		int first, n;

		snprintf(label, sizeof(label), "%s, delay %u", pt->mix ? pt->mix->name : "idle",
			 pt->mix ? pt->delay : 0);
		point_keys(t, latency_dist_row(doc, t, &ld->dist, &pt->lat.user.st, &pt->lat.dist,
						    pt->mix ? label : "idle"), pt);
		if (!h)
			continue;
		n = latency_hist_rows(h, &pt->lat.dist, &first);
		for (int r = first; r < first + n; r++)
			point_keys(h, r, pt);
	}
}

static struct ph_doc *loaded_doc(void *state, struct ph_session *s, int *rc)
{
	const struct ph_loaded *ld = state;
	struct ph_doc *doc = doc_new("loaded");
	struct ph_table *t = doc_add_table(doc, "loaded", "chase latency against the loaders' bandwidth");
	static const char *const cols[] = {
		"mix", "delay", "loaders", "bw_GBps", "bw_per_loader_GBps", "loaders_s",
	};
	char loaders[256];
	struct ph_section *sec;

	ints_text(ld->loaders, ld->nloaders, loaders, sizeof(loaders));
	for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
		table_add_col(t, cols[i]);
	latency_add_cols(t, "");
	table_add_col(t, "chaser_cpu");
	table_add_col(t, "chaser_node");
	table_add_col(t, "loader_cpus");
	table_add_col(t, "loader_node");
	table_add_col(t, "verified");
	/* Derived from bw_GBps and the loaders, or how long the loaders ran. */
	table_detail(t, "bw_per_loader_GBps loaders_s");
	for (int p = 0; p < ld->npts; p++) {
		const struct ph_loadpoint *pt = &ld->pts[p];
		int r = table_add_row(t);

		point_keys(t, r, pt);
		table_int(t, r, "loaders", pt->mix ? ld->nloaders : 0);
		table_num(t, r, "bw_GBps", pt->mix ? pt->gbps : 0, "%.3f");
		table_num(t, r, "bw_per_loader_GBps", pt->mix ? pt->gbps / ld->nloaders : 0, "%.3f");
		if (pt->mix)
			table_num(t, r, "loaders_s", pt->span_s, "%.3f");
		latency_fill(t, r, "", &pt->lat.user, s->m.clk.tsc_hz);
		table_int(t, r, "chaser_cpu", ld->chaser);
		table_int(t, r, "chaser_node", s->binding.nodes[0]);
		table_str(t, r, "loader_cpus", loaders);
		table_int(t, r, "loader_node", ld->loader_node);
		table_bool(t, r, "verified", s->all_verified);
	}
	if (ld->dist.want)
		loaded_dist_tables(ld, doc);
	session_describe(s, doc);
	sec = doc_add_section(doc, "loaded_method", "loaded");
	section_str(sec, "sample", latency_method);
	if (ld->dist.want)
		latency_dist_method(sec, &ld->dist);
	section_str(sec, "load", loaded_method);
	section_int(sec, "loader_buffer_KiB", (long long)(ld->loader_bytes / KiB));
	for (int m = 0; m < ld->nmixes; m++)
		section_str(sec, ld->mixes[m]->name, ld->mixes[m]->desc);
	session_buffers_table(s, doc);
	for (int i = 0; i < ld->nloaders; i++) {
		char name[32], title[64];

		snprintf(name, sizeof(name), "loader%d_memory", i);
		snprintf(title, sizeof(title), "loader %d (CPU %d)'s buffer, as read back", i,
			 ld->loaders[i]);
		homed_section(doc, name, title, &ld->segs[i], ld->have[i], ld->loader_node);
	}
	(void)rc;
	return doc;
}

static void loaded_free(void *state, struct ph_session *s)
{
	struct ph_loaded *ld = state;

	for (int p = 0; p < ld->npts; p++)
		latency_free(&ld->pts[p].lat);
	for (int i = 0; ld->have && i < ld->nloaders; i++)
		if (ld->have[i])
			segment_free(&s->m.km, &ld->segs[i]);
	free(ld->pts);
	free(ld->segs);
	free(ld->have);
	free(ld->loaders);
	free(ld->mixes);
	free(ld->delays);
	if (ld->chaser_given)
		numa_bitmask_free(ld->chaser_given);
	if (ld->loaders_given)
		numa_bitmask_free(ld->loaders_given);
	if (ld->loader_nodes_given)
		numa_bitmask_free(ld->loader_nodes_given);
	memset(ld, 0, sizeof(*ld));
}

const struct ph_steps loaded_steps = {
	.size = sizeof(struct ph_loaded),
	.plan = loaded_plan,
	.measure = loaded_measure,
	.measured = loaded_measured,
	.document = loaded_doc,
	.free = loaded_free,
};
