// SPDX-License-Identifier: GPL-2.0-only
/*
 * pages_doc.c - the page-size study's document: the points, the two effects
 * separated (translation: the same chase on small pages against the largest
 * page size; cache locality: random against TLB-local on the largest page
 * size), their knees set against the TLB reach and the caches, what does not
 * make sense (pagefx.c), the ratios, and the plot.
 */
#include "pages.h"
#include "latency.h"
#include "pagefx.h"
#include "ratio_ci.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

/* Below this a rise of a curve is not called a knee: about two DRAM clocks. */
#define KNEE_FLOOR_NS 2.0
#define MAX_FLAGS 64
#define MAX_CAPS 24

/* A sweep's points as the analysis takes them. */
static void points_of(const struct pages_sweep *sw, struct sweep_point *out)
{
	for (int i = 0; i < sw->n; i++) {
		const struct pages_point *p = &sw->pt[i];

		out[i] = (struct sweep_point){
			.ws = p->ws,
			.rnd_ns = p->rnd.st.median,
			.rnd_hw = sweep_half_width(p->rnd.st.ci_lo, p->rnd.st.ci_hi),
			.tlb_ns = p->tlb.st.median,
			.tlb_hw = sweep_half_width(p->tlb.st.ci_lo, p->tlb.st.ci_hi),
			.read_GBps = p->bw.res.st.median,
		};
	}
}

/* One chase of a sweep as a pagefx curve (tlb: the TLB-local one). */
static void curve_of(const struct pages_sweep *sw, bool tlb, struct pagefx_fig *f,
		     struct pagefx_curve *c)
{
	for (int i = 0; i < sw->n; i++) {
		const struct ph_result *r = tlb ? &sw->pt[i].tlb : &sw->pt[i].rnd;

		/* An interval not known (too few samples) is NAN: nothing is beyond it. */
		f[i] = (struct pagefx_fig){ .ws = sw->pt[i].ws, .ns = r->st.median,
					    .hw = isfinite(r->st.ci_lo) && isfinite(r->st.ci_hi) ?
						  sweep_half_width(r->st.ci_lo, r->st.ci_hi) : NAN,
					    .ci_met = r->ci_met };
	}
	*c = (struct pagefx_curve){ .name = psize_name(sw->ps), .page = psize_bytes(sw->ps),
				    .f = f, .n = sw->n };
}

/* The measured sweep of the largest page (hugetlb before THP at 2 MiB), or NULL. */
static const struct pages_sweep *largest(const struct ph_pages *pg)
{
	const struct pages_sweep *best = NULL;

	for (int k = 0; k < pg->reached; k++) {
		const struct pages_sweep *sw = &pg->sw[k];

		if (!sw->n)
			continue;
		if (!best || psize_bytes(sw->ps) > psize_bytes(best->ps) ||
		    (psize_bytes(sw->ps) == psize_bytes(best->ps) && best->ps == PH_PS_THP))
			best = sw;
	}
	return best;
}

/*
 * What a knee could come from: the data TLBs' reach for page (CPUID) and the
 * data caches (hwloc).  Returns how many.
 */
static int capacities(const struct ph_pages *pg, const struct ph_cpu *cpu, uint64_t page,
		      struct pagefx_capacity *caps)
{
	char a[32];
	int n = 0;

	for (int lvl = 1; lvl <= 2; lvl++) {
		int e = 0;
		uint64_t r = tlb_reach(&pg->tlbs, lvl, page, &e);

		if (!r)
			continue;
		caps[n] = (struct pagefx_capacity){ .kind = PAGEFX_TLB, .bytes = r };
		snprintf(caps[n].what, sizeof(caps[n].what), "%s %d x %s", lvl == 1 ? "L1 DTLB" : "L2 TLB",
			 e, format_size(page, a, sizeof(a)));
		n++;
	}
	for (int i = 0; i < cpu->ncaches && n < MAX_CAPS; i++) {
		const struct ph_cache *c = &cpu->caches[i];

		if (!strcmp(c->type, "instruction") || !c->size)
			continue;
		caps[n] = (struct pagefx_capacity){ .kind = PAGEFX_CACHE, .bytes = c->size };
		snprintf(caps[n].what, sizeof(caps[n].what), "L%d cache", c->level);
		n++;
	}
	return n;
}

/* An effect's curve, on the working sets it has: y = a - b, noise the half-widths added. */
struct effect {
	const char *name;		/* "translation", "cache_locality" */
	char pages[32];			/* "4K vs 1G", "1G" */
	enum pagefx_kind expected;
	uint64_t page;			/* whose TLB reach the knee is set against */
	struct pagefx_curve c[2];	/* the curves it is computed from */
	struct pagefx_fig fa[PAGES_MAX_POINTS], fb[PAGES_MAX_POINTS];
	uint64_t ws[PAGES_MAX_POINTS];
	double y[PAGES_MAX_POINTS], noise[PAGES_MAX_POINTS];
	int n;
	int ia[PAGES_MAX_POINTS], ib[PAGES_MAX_POINTS];	/* the points of c[0], c[1] */
	/* c[0] and c[1] at the working sets both have, point i of each at ws[i] */
	struct pagefx_fig al[2][PAGES_MAX_POINTS];
	struct pagefx_curve ac[2];
	bool with_translation;		/* locality on a page whose TLB misses too (4K) */
	const struct pages_sweep *sa, *sb;	/* the sweeps of c[0], c[1] */
};

/* y = a - b at each working set both curves have. */
static void effect_fill(struct effect *e)
{
	e->n = 0;
	for (int i = 0; i < e->c[0].n; i++)
		for (int j = 0; j < e->c[1].n; j++) {
			if (e->c[0].f[i].ws != e->c[1].f[j].ws)
				continue;
			e->ws[e->n] = e->c[0].f[i].ws;
			e->y[e->n] = e->c[0].f[i].ns - e->c[1].f[j].ns;
			e->noise[e->n] = (isfinite(e->c[0].f[i].hw) ? e->c[0].f[i].hw : 0) +
					 (isfinite(e->c[1].f[j].hw) ? e->c[1].f[j].hw : 0);
			e->ia[e->n] = i;
			e->ib[e->n] = j;
			e->al[0][e->n] = e->c[0].f[i];
			e->al[1][e->n] = e->c[1].f[j];
			e->n++;
		}
	for (int k = 0; k < 2; k++) {
		e->ac[k] = e->c[k];
		e->ac[k].f = e->al[k];
		e->ac[k].n = e->n;
	}
}

static void translation_of(const struct pages_sweep *sm, const struct pages_sweep *lg, struct effect *e)
{
	memset(e, 0, sizeof(*e));
	e->name = "translation";
	snprintf(e->pages, sizeof(e->pages), "%s vs %s", psize_name(sm->ps), psize_name(lg->ps));
	e->expected = PAGEFX_TLB;
	e->page = psize_bytes(sm->ps);
	e->sa = sm;
	e->sb = lg;
	curve_of(sm, false, e->fa, &e->c[0]);
	curve_of(lg, false, e->fb, &e->c[1]);
	effect_fill(e);
}

static void locality_of(const struct pages_sweep *lg, struct effect *e)
{
	static const char *const tlb_name[PH_PS_COUNT] = {
		[PH_PS_4K] = "4K TLB-local", [PH_PS_2M] = "2M TLB-local",
		[PH_PS_1G] = "1G TLB-local", [PH_PS_THP] = "THP TLB-local",
	};

	memset(e, 0, sizeof(*e));
	e->name = "cache_locality";
	snprintf(e->pages, sizeof(e->pages), "%s", psize_name(lg->ps));
	e->expected = PAGEFX_CACHE;
	e->page = psize_bytes(lg->ps);
	e->sa = e->sb = lg;
	curve_of(lg, false, e->fa, &e->c[0]);
	curve_of(lg, true, e->fb, &e->c[1]);
	e->c[1].name = tlb_name[lg->ps];
	e->with_translation = lg->ps == PH_PS_4K;
	effect_fill(e);
}

/* The effects: translation of each smaller page size against the largest, then locality. */
static int effects_of(const struct ph_pages *pg, struct effect *e)
{
	const struct pages_sweep *lg = largest(pg);
	int n = 0;

	if (!lg)
		return 0;
	for (int k = 0; k < pg->reached; k++)
		if (pg->sw[k].n && psize_bytes(pg->sw[k].ps) < psize_bytes(lg->ps))
			translation_of(&pg->sw[k], lg, &e[n++]);
	locality_of(lg, &e[n++]);
	return n;
}

/* Rows of an effect's curve: ws, the two figures, their difference. */
static void effect_rows(struct ph_table *t, const struct effect *e, const char *frames)
{
	for (int i = 0; i < e->n; i++) {
		const struct pagefx_fig *a = &e->c[0].f[e->ia[i]], *b = &e->c[1].f[e->ib[i]];
		int r = table_add_row(t);

		table_int(t, r, "ws_KiB", (long long)(e->ws[i] / KiB));
		table_str(t, r, "pages", e->pages);
		table_num(t, r, "a_ns", a->ns, "%.2f");
		table_num(t, r, "b_ns", b->ns, "%.2f");
		table_num(t, r, "cost_ns", e->y[i], "%.2f");
		table_num(t, r, "cost_hw_ns", e->noise[i], "%.2f");
		table_bool(t, r, "ci_met", a->ci_met && b->ci_met);
		/* The table says "same" or "differ"; CSV and JSON say why. */
		if (frames)
			table_str_brief(t, r, "frames", frames, strncmp(frames, "same", 4) ? "differ" : "same");
	}
}

/* Whether two sweeps ran over the very same frames: both views of the one allocation, checked. */
static bool same_frames(const struct ph_pages *pg, const struct pages_sweep *a, const struct pages_sweep *b)
{
	return pg->frames.checked && a->shared && b->shared;
}

/* The sweep of a page size that was measured, or NULL. */
static const struct pages_sweep *sweep_of(const struct ph_pages *pg, enum ph_psize ps)
{
	for (int k = 0; k < pg->reached; k++)
		if (pg->sw[k].ps == ps && pg->sw[k].n)
			return &pg->sw[k];
	return NULL;
}

static void effect_tables(struct ph_doc *doc, const struct effect *e, int n, const struct ph_pages *pg)
{
	const struct pages_sweep *lg = largest(pg);
	char differ[sizeof(pg->frames.why) + 64], title[192];
	struct ph_table *tr = doc_add_table(doc, "translation",
		"translation cost: the same random chase on the smaller page (a) minus the largest page (b)");
	struct ph_table *lo;

	if (lg && lg->ps == PH_PS_4K)
		snprintf(title, sizeof(title), "random (a) minus TLB-local (b) on 4K, the largest page measured: cache locality and translation together");
	else
		snprintf(title, sizeof(title), "cache-locality cost on %s, the largest page: random (a) minus TLB-local (b); translation too beyond its TLB reach",
			 psize_name(lg ? lg->ps : PH_PS_4K));
	lo = doc_add_table(doc, "locality", title);
	for (int k = 0; k < 2; k++) {
		struct ph_table *t = k ? lo : tr;

		table_add_col(t, "ws_KiB");
		table_add_col(t, "pages");
		table_add_col(t, "a_ns");
		table_add_col(t, "b_ns");
		table_add_col(t, "cost_ns");
		table_add_col(t, "cost_hw_ns");
		table_add_col(t, "ci_met");
		table_col_detail(t, "ci_met");
	}
	table_add_col(tr, "frames");
	if (pg->frames.checked)
		snprintf(differ, sizeof(differ), "differ: THP is anonymous memory, its own allocation");
	else
		snprintf(differ, sizeof(differ), "differ: each page size is its own allocation (%s)",
			 pg->frames.why);
	for (int i = 0; i < n; i++) {
		const char *frames = NULL;

		if (e[i].expected == PAGEFX_TLB)
			frames = same_frames(pg, e[i].sa, e[i].sb) ? "same: one allocation, checked by QUERY" :
				 differ;
		effect_rows(e[i].expected == PAGEFX_TLB ? tr : lo, &e[i], frames);
	}
}

/* Add a batch of flags to the anomalies table. */
static void flag_rows(struct ph_table *t, const struct pagefx_flag *f, int n)
{
	for (int i = 0; i < n; i++) {
		int r = table_add_row(t);

		table_str(t, r, "figure", f[i].figure);
		table_str(t, r, "what", f[i].what);
		table_str(t, r, "likely_reason", f[i].reason);
	}
}

/*
 * Knees of each effect, attributed where the figures they rest on met
 * their CI, else "not resolved at this noise" (pagefx_summary); the flags
 * they raise go to an.
 */
static void knees_table(const struct ph_pages *pg, struct ph_session *s, struct effect *e, int ne,
			struct ph_doc *doc, struct ph_table *an)
{
	struct ph_table *t = doc_add_table(doc, "knees", "where each effect rises, and what it fits");

	table_add_col(t, "effect");
	table_add_col(t, "pages");
	table_add_col(t, "knee_above_KiB");
	table_add_col(t, "cost_at_max_ns");
	table_add_col(t, "resolved");
	table_add_col(t, "attributed");
	table_add_col(t, "fits");
	table_add_col(t, "below_reach");
	table_add_col(t, "summary");
	for (int i = 0; i < ne; i++) {
		struct pagefx_capacity caps[MAX_CAPS];
		struct pagefx_flag fl[MAX_FLAGS];
		int nc = capacities(pg, &s->m.cpu, e[i].page, caps);
		struct pagefx_attr at;
		struct sweep_knee k;
		uint64_t above = 0, atws = 0;
		char a[32], fits[160] = "", sum[640], label[96];
		char knee[96], concl[sizeof(knee) + 8];
		int r, nf, unmet, total;
		bool resolved;

		if (!e[i].n)
			continue;
		sweep_knee(e[i].y, e[i].noise, e[i].n, KNEE_FLOOR_NS, &k);
		if (k.index >= 0) {
			atws = e[i].ws[k.index];
			above = k.index ? e[i].ws[k.index - 1] : atws / 2;
		}
		pagefx_attribute(above, atws, e[i].expected, caps, nc, &at);
		unmet = pagefx_unmet(e[i].ac, 2, k.index, &total);
		snprintf(label, sizeof(label), "%s%s", e[i].name,
			 e[i].with_translation ? " (translation included: 4K is the largest page)" : "");
		resolved = pagefx_summary(label, e[i].pages, k.index, above, e[i].ws[e[i].n - 1], k.at_max,
					  &at, caps, unmet, total, s->meas.time_s, sum, sizeof(sum));
		if (resolved && at.cap >= 0)
			snprintf(fits, sizeof(fits), "%s (%s)%s%s", caps[at.cap].what,
				 format_size(caps[at.cap].bytes, a, sizeof(a)), at.also >= 0 ? "; also fits " : "",
				 at.also >= 0 ? caps[at.also].what : "");
		r = table_add_row(t);
		table_str(t, r, "effect", e[i].name);
		table_str(t, r, "pages", e[i].pages);
		if (resolved && k.index >= 0)
			table_int(t, r, "knee_above_KiB", (long long)(above / KiB));
		table_num(t, r, "cost_at_max_ns", k.at_max, "%.1f");
		table_bool(t, r, "resolved", resolved);
		table_str(t, r, "attributed", resolved ? pagefx_kind_name(at.kind) : "not_resolved");
		table_str(t, r, "fits", fits);
		if (resolved)
			table_bool(t, r, "below_reach", at.below_reach);
		table_str(t, r, "summary", sum);
		if (k.index < 0)
			continue;
		snprintf(knee, sizeof(knee), "%s knee of %s", e[i].name, e[i].pages);
		snprintf(concl, sizeof(concl), "the %s", knee);
		/* The knee rests on the points on both sides of it, in each curve. */
		{
			struct pagefx_curve cs[2] = { e[i].ac[0], e[i].ac[1] };
			int from = k.index ? k.index - 1 : 0;

			for (int c = 0; c < 2; c++) {
				cs[c].f = &e[i].al[c][from];
				cs[c].n = k.index - from + 1;
			}
			nf = pagefx_ci_unmet(concl, cs, 2, cs[0].n - 1, fl, MAX_FLAGS);
			flag_rows(an, fl, nf);
		}
		if (!resolved)
			continue;
		nf = pagefx_below_reach(knee, above, &at, caps, nc, fl, MAX_FLAGS);
		flag_rows(an, fl, nf);
	}
}

/* Larger pages slower than smaller ones beyond the CIs, every pair of sweeps. */
static void slower_flags(const struct ph_pages *pg, struct ph_session *s, struct ph_table *an)
{
	for (int a = 0; a < pg->reached; a++)
		for (int b = 0; b < pg->reached; b++) {
			struct pagefx_fig fa[PAGES_MAX_POINTS], fb[PAGES_MAX_POINTS];
			struct pagefx_curve ca, cb;
			struct pagefx_flag fl[MAX_FLAGS];

			if (!pg->sw[a].n || !pg->sw[b].n ||
			    psize_bytes(pg->sw[a].ps) >= psize_bytes(pg->sw[b].ps))
				continue;
			curve_of(&pg->sw[a], false, fa, &ca);
			curve_of(&pg->sw[b], false, fb, &cb);
			flag_rows(an, fl, pagefx_slower_large(&ca, &cb, same_frames(pg, &pg->sw[a], &pg->sw[b]),
							      s->m.cpu.hypervisor, fl, MAX_FLAGS));
		}
}

static void anomalies_head(struct ph_table *t, struct ph_session *s)
{
	table_add_col(t, "figure");
	table_add_col(t, "what");
	table_add_col(t, "likely_reason");
	if (s->m.cpu.hypervisor) {
		char note[400];
		int r = table_add_row(t);

		pagefx_hypervisor_note(s->m.cpu.hv_vendor, note, sizeof(note));
		table_str(t, r, "figure", "every figure");
		table_str(t, r, "what", "running under a hypervisor (CPUID hypervisor bit)");
		table_str(t, r, "likely_reason", note);
	}
}

/* Whether any point was counted: the counter columns are there only then. */
static bool any_counted(const struct ph_pages *pg)
{
	for (int k = 0; k < pg->reached; k++)
		for (int i = 0; i < pg->sw[k].n; i++)
			if (pg->sw[k].pt[i].counted)
				return true;
	return false;
}

static void points_table(const struct ph_pages *pg, struct ph_session *s, struct ph_doc *doc)
{
	struct ph_table *t = doc_add_table(doc, "pages", "working-set sweep per page size");
	bool counted = any_counted(pg);

	table_add_col(t, "page_size");
	table_add_col(t, "ws_KiB");
	latency_add_cols(t, "rnd_");
	latency_add_cols(t, "tlb_");
	table_add_col(t, "rnd_minus_tlb_ns");
	if (counted)
		for (int c = 0; c < PMU_NROLES; c++) {
			char col[64];

			snprintf(col, sizeof(col), "rnd_%s", pmu_role_col(c));
			table_add_col(t, col);
			table_col_detail(t, col);
			snprintf(col, sizeof(col), "tlb_%s", pmu_role_col(c));
			table_add_col(t, col);
			table_col_detail(t, col);
		}
	bandwidth_add_cols(t, "read_");
	table_add_col(t, "backend");
	table_add_col(t, "node");
	table_add_col(t, "cpu");
	table_add_col(t, "clock");
	table_add_col(t, "verified");
	table_add_col(t, "frames");
	table_add_col(t, "step_s");
	/*
	 * The default table: each figure with its CI.  The difference of two
	 * of them (the locality table has it with its CI), what is the same
	 * in every row (said in the sweep's section), the counters and the
	 * time each row took are detail.
	 */
	table_detail(t, "rnd_minus_tlb_ns read_valid backend node cpu clock frames step_s");
	for (int k = 0; k < pg->reached; k++) {
		const struct pages_sweep *sw = &pg->sw[k];
		struct sweep_point pts[PAGES_MAX_POINTS];

		points_of(sw, pts);
		for (int i = 0; i < sw->n; i++) {
			const struct pages_point *p = &sw->pt[i];
			int r = table_add_row(t);

			table_str(t, r, "page_size", psize_name(sw->ps));
			table_int(t, r, "ws_KiB", (long long)(p->ws / KiB));
			latency_fill(t, r, "rnd_", &p->rnd, s->m.clk.tsc_hz);
			latency_fill(t, r, "tlb_", &p->tlb, s->m.clk.tsc_hz);
			table_num(t, r, "rnd_minus_tlb_ns", sweep_penalty(&pts[i]), "%.2f");
			for (int c = 0; counted && p->counted && c < PMU_NROLES; c++) {
				char col[64];

				snprintf(col, sizeof(col), "rnd_%s", pmu_role_col(c));
				if (isfinite(p->rnd_ctr[c]))
					table_num(t, r, col, p->rnd_ctr[c], "%.4f");
				snprintf(col, sizeof(col), "tlb_%s", pmu_role_col(c));
				if (isfinite(p->tlb_ctr[c]))
					table_num(t, r, col, p->tlb_ctr[c], "%.4f");
			}
			bandwidth_fill(t, r, "read_", &p->bw);
			table_str(t, r, "backend", backend_name(buffer_auto_backend(&s->m.km, sw->ps)));
			table_int(t, r, "node", pg->node);
			table_int(t, r, "cpu", pg->cpu);
			table_str(t, r, "clock", s->m.clk.name);
			table_bool(t, r, "verified", s->all_verified);
			/* Whether every page size ran over these very frames. */
			table_str(t, r, "frames", pg->frames.checked && sw->shared ? "same" : "differ");
			table_num(t, r, "step_s", p->step_s, "%.3f");
		}
	}
}

/* One speed-up with its bootstrap interval (ratio_ci.h): columns col, col_ci_lo, col_ci_hi. */
static void ratio_cells(struct ph_table *t, int r, const char *col, const struct ph_result *num,
			const struct ph_result *den)
{
	struct ratio_ci c;
	char name[48];

	ratio_ci_medians(num->samples, num->n, den->samples, den->n, RATIO_CI_SEED, RATIO_CI_RESAMPLES, &c);
	if (!isfinite(c.value))
		return;
	table_num(t, r, col, c.value, "%.3f");
	if (!isfinite(c.lo) || !isfinite(c.hi))
		return;
	snprintf(name, sizeof(name), "%s_ci_lo", col);
	table_num(t, r, name, c.lo, "%.3f");
	snprintf(name, sizeof(name), "%s_ci_hi", col);
	table_num(t, r, name, c.hi, "%.3f");
}

/*
 * Large/small page ratios as speed-ups, per figure, at each working set
 * both have, each with the 95% bootstrap interval of the ratio of the two
 * figures' block medians; "shown" says which of the latency speed-up's
 * intervals hold 1 (no effect shown).
 */
static void ratios_table(const struct ph_pages *pg, struct ph_doc *doc)
{
	struct ph_table *t = doc_add_table(doc, "ratios",
		"large/small page speed-up (>1: large pages faster), 95% bootstrap CI of block medians");
	static const char *const cols[] = {
		"ws_KiB", "pages", "lat_random", "lat_random_ci_lo", "lat_random_ci_hi", "lat_random_shown",
		"lat_tlb_local", "lat_tlb_local_ci_lo", "lat_tlb_local_ci_hi",
		"read_bw", "read_bw_ci_lo", "read_bw_ci_hi",
	};
	const struct pages_sweep *sm = sweep_of(pg, PH_PS_4K);

	for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
		table_add_col(t, cols[i]);
	if (!sm) {
		doc_note(doc, "ratios: no 4K sweep to compare against");
		return;
	}
	for (int k = 0; k < pg->reached; k++) {
		const struct pages_sweep *sw = &pg->sw[k];
		char name[16];

		if (sw == sm || !sw->n)
			continue;
		snprintf(name, sizeof(name), "%s/4K", psize_name(sw->ps));
		for (int i = 0; i < sw->n; i++)
			for (int j = 0; j < sm->n; j++) {
				const struct pages_point *l = &sw->pt[i], *p = &sm->pt[j];
				struct ratio_ci c;
				int r;

				if (l->ws != p->ws)
					continue;
				r = table_add_row(t);
				table_int(t, r, "ws_KiB", (long long)(l->ws / KiB));
				table_str(t, r, "pages", name);
				/* Latency: small over large; bandwidth: large over small. */
				ratio_cells(t, r, "lat_random", &p->rnd, &l->rnd);
				ratio_cells(t, r, "lat_tlb_local", &p->tlb, &l->tlb);
				ratio_cells(t, r, "read_bw", &l->bw.res, &p->bw.res);
				ratio_ci_medians(p->rnd.samples, p->rnd.n, l->rnd.samples, l->rnd.n, RATIO_CI_SEED,
						 RATIO_CI_RESAMPLES, &c);
				/* The table's short form: "faster", "slower", "no effect", "no CI". */
				table_str_brief(t, r, "lat_random_shown",
					  ratio_ci_shown(&c) == RATIO_ABOVE ? "large pages faster" :
					  ratio_ci_shown(&c) == RATIO_BELOW ? "large pages slower" :
					  ratio_shown_name(ratio_ci_shown(&c)),
					  ratio_ci_shown(&c) == RATIO_ABOVE ? "faster" :
					  ratio_ci_shown(&c) == RATIO_BELOW ? "slower" :
					  ratio_ci_shown(&c) == RATIO_NO_EFFECT ? "no effect" : "no CI");
			}
	}
}

/* Append ", text" (or text first) to buf of size len at *at. */
static void append(char *buf, size_t len, size_t *at, const char *sep, const char *text)
{
	if (*at < len)
		*at += (size_t)snprintf(buf + *at, len - *at, "%s%s", *at ? sep : "", text);
}

/*
 * The document's first lines: which page sizes were measured and what is
 * compared; where nothing is, why each other page size was not measured and
 * what to do to compare them.
 */
static void compared_section(struct ph_doc *doc, const struct ph_pages *pg)
{
	static const enum ph_psize order[] = { PH_PS_4K, PH_PS_THP, PH_PS_2M, PH_PS_1G };
	struct ph_section *sec = doc_add_section(doc, "pages_compared", "what this run compares");
	const struct pages_sweep *lg = largest(pg);
	char sizes[64] = "", small[64] = "", text[512], why[1024] = "";
	size_t ls = 0, lm = 0, lw = 0;

	for (size_t i = 0; i < ARRAY_SIZE(order); i++) {
		const struct pages_sweep *sw = sweep_of(pg, order[i]);

		if (sw) {
			append(sizes, sizeof(sizes), &ls, ", ", psize_name(order[i]));
			if (sw != lg)
				append(small, sizeof(small), &lm, ", ", psize_name(order[i]));
		}
	}
	section_str(sec, "measured", sizes);
	if (lm) {
		snprintf(text, sizeof(text), "translation: %s against %s; cache locality: random against TLB-local on %s",
			 small, psize_name(lg->ps), psize_name(lg->ps));
		section_str(sec, "compared", text);
		return;
	}
	if (lg && lg->ps == PH_PS_4K)
		section_str(sec, "compared", "nothing: no page size larger than 4K was measured, so there is no translation cost and no speed-up to give, and the locality figures on 4K include translation");
	else
		section_str(sec, "compared", "nothing: one page size was measured, with no smaller one to set against it");
	for (size_t i = 0; i < ARRAY_SIZE(order); i++) {
		const struct pages_sweep *sw = NULL;

		if (sweep_of(pg, order[i]))
			continue;
		for (int k = 0; k < pg->nsw; k++)
			if (pg->sw[k].ps == order[i])
				sw = &pg->sw[k];
		snprintf(text, sizeof(text), "%s: %s", psize_name(order[i]),
			 !pg->plan.want[order[i]] ? "not asked (--page-sizes)" :
			 sw && sw->why[0] ? sw->why : "not reached (the run stopped first)");
		append(why, sizeof(why), &lw, "; ", text);
	}
	section_str(sec, "not_measured", why);
	if (lg && lg->ps != PH_PS_4K) {
		section_str(sec, "to_compare", "add 4k (or another smaller page size) to --page-sizes");
		return;
	}
	/* What would give a larger page: ask for one that can be had, or make one available. */
	why[0] = '\0';
	lw = 0;
	if (!pg->plan.want[PH_PS_THP] && pg->avail[PH_PS_THP].ok)
		append(why, sizeof(why), &lw, "; or ", "add thp to --page-sizes (THP can be had here)");
	else if (!pg->avail[PH_PS_THP].ok)
		append(why, sizeof(why), &lw, "; or ", pg->plan.want[PH_PS_THP] ?
		       "enable THP (as root: echo madvise > /sys/kernel/mm/transparent_hugepage/enabled)" :
		       "enable THP (as root: echo madvise > /sys/kernel/mm/transparent_hugepage/enabled) and add thp to --page-sizes");
	snprintf(text, sizeof(text),
		 "give node %d hugetlb pages (--reserve, or as root: echo N > /sys/devices/system/node/node%d/hugepages/hugepages-2048kB/nr_hugepages)%s",
		 pg->node, pg->node, pg->plan.want[PH_PS_2M] || pg->plan.want[PH_PS_1G] ? "" : " and add 2m or 1g to --page-sizes");
	append(why, sizeof(why), &lw, "; or ", text);
	section_str(sec, "to_compare", why);
}

/* What the locality figures are, on the largest page measured. */
static void locality_definition(const struct ph_pages *pg, char *out, size_t len)
{
	const struct pages_sweep *lg = largest(pg);
	uint64_t page = lg ? psize_bytes(lg->ps) : 4096, r;
	int e = 0;
	char reach[32];

	r = tlb_reach(&pg->tlbs, 2, page, &e);
	if (!r)
		r = tlb_reach(&pg->tlbs, 1, page, &e);
	if (r)
		format_size(r, reach, sizeof(reach));
	else
		snprintf(reach, sizeof(reach), "not reported here");
	if (!lg || lg->ps == PH_PS_4K)
		snprintf(out, len, "median random minus median TLB-local latency on 4K, the largest page measured: beyond the 4K TLB reach (%s) the random chase also misses the TLB, so these figures hold cache locality and translation together, as rnd_minus_tlb does", reach);
	else
		snprintf(out, len, "median random minus median TLB-local latency on %s, the largest page measured: while the working set is within the %s TLB reach (%s) neither chase misses the TLB and only the cache footprint differs; beyond it the random chase also misses the TLB", psize_name(lg->ps), psize_name(lg->ps), reach);
}

struct ph_doc *pages_doc(void *state, struct ph_session *s, int *rc)
{
	const struct ph_pages *pg = state;
	struct ph_doc *doc = doc_new("pages");
	struct effect *e = xcalloc(PH_PS_COUNT, sizeof(*e));
	int ne = effects_of(pg, e);
	const struct pages_sweep *thp = sweep_of(pg, PH_PS_THP);
	struct ph_section *sec;
	struct ph_table *an;
	char w[32], def[512];

	compared_section(doc, pg);
	points_table(pg, s, doc);
	effect_tables(doc, e, ne, pg);
	an = doc_add_table(doc, "anomalies", "what does not make sense, with a likely reason");
	anomalies_head(an, s);
	knees_table(pg, s, e, ne, doc, an);
	slower_flags(pg, s, an);
	free(e);
	ratios_table(pg, doc);
	if (any_counted(pg))
		doc_note(doc, "counters: %s (%s), per load beside each latency", pg->ctr.choice.pmu,
			 "libpfm4 names in docs/methodology.md");
	else
		doc_note(doc, "counters: none, %s", pg->ctr.why[0] ? pg->ctr.why : "nothing was counted");
	if (!pg->frames.checked)
		doc_note(doc, "frames: the physical pages differ between page sizes (each is its own "
			 "allocation, so cache-set placement differs too): same frames not used: %s",
			 pg->frames.why);
	else if (thp)
		doc_note(doc, "frames: THP is anonymous memory, its own allocation: its rows' physical pages "
			 "(and cache-set placement) differ from the others', which are views of one allocation");
	for (int k = 0; k < pg->reached; k++)
		if (!pg->sw[k].ran)
			doc_note(doc, "%s pages not measured: %s", psize_name(pg->sw[k].ps), pg->sw[k].why);
	sec = doc_add_section(doc, "pages_method", "the sweep");
	section_int(sec, "node", pg->node);
	section_int(sec, "seed", (long long)pg->plan.seed);
	section_str(sec, "tlb_window", format_size(pg->window, w, sizeof(w)));
	section_str(sec, "tlb_source", pg->tlbs.n ? pg->tlbs.source : "not reported");
	section_str(sec, "translation", "median random latency on the smaller page minus on the largest page, at the same working set: only the translation differs (and, unless the frames are shared, the physical pages)");
	locality_definition(pg, def, sizeof(def));
	section_str(sec, "cache_locality", def);
	section_str(sec, "rnd_minus_tlb", "random minus TLB-local on one page size: cache locality and translation together");
	section_str(sec, "knee", "the first working set from which a cost stays more than max(2 ns, twice the two CIs' half-widths) above its level at the three smallest working sets, set against the TLB reach (CPUID) and the data caches (hwloc); unexplained when neither fits within one doubling");
	section_str(sec, "ratio", "speed-up of the large page over 4K: latency 4K/large, bandwidth large/4K");
	section_str(sec, "same_frames", pages_same_frames_name(pg->plan.same_frames));
	if (pg->frames.checked) {
		char line[256];

		section_str(sec, "held_fixed", thp ?
			    "node, CPU, chain seed, pattern and, but for THP (anonymous memory, its own allocation), the physical frames: one pagehop.ko allocation of 1 GiB pages, mapped once per page size" :
			    "node, CPU, chain seed, pattern and the physical frames: one pagehop.ko allocation of 1 GiB pages, mapped once per page size");
		section_str(sec, "frames", "same");
		section_int(sec, "chains_rebased", pg->rebased);
		section_str(sec, "chains", "each working set's random and tlb chains written and checked once, in the first view, and rebased in place into the others (one sequential pass, every link checked to be a slot of the working set); each view's random chain over the largest working set walked through that view: chain_4K, chain_2M, chain_1G");
		for (int p = PH_PS_4K; p < PH_PS_COUNT; p++) {
			if (!pg->frames.leaves[p])
				continue;
			snprintf(line, sizeof(line), "%llu %s leaves (QUERY) over the same %s from pfn 0x%llx",
				 (unsigned long long)pg->frames.leaves[p],
				 p == PH_PS_1G ? "PUD" : p == PH_PS_2M ? "PMD" : "PTE",
				 format_size(pg->frames.bytes, w, sizeof(w)),
				 (unsigned long long)pg->frames.pfn0);
			section_str(sec, p == PH_PS_1G ? "view_1G" : p == PH_PS_2M ? "view_2M" : "view_4K", line);
			if (!pg->frames.order[p].ws)
				continue;
			pages_frames_order_text(&pg->frames.order[p], line, sizeof(line));
			section_str(sec, p == PH_PS_1G ? "chain_1G" : p == PH_PS_2M ? "chain_2M" : "chain_4K", line);
		}
	} else {
		char held[sizeof(pg->frames.why) + 160];

		snprintf(held, sizeof(held), "node, CPU, chain seed and pattern; the physical pages differ (each page size is its own allocation on the node; same frames not used: %s)",
			 pg->frames.why);
		section_str(sec, "held_fixed", held);
		section_str(sec, "frames", "differ");
		section_str(sec, "frames_why", pg->frames.why);
	}
	session_describe(s, doc);
	(void)rc;
	return doc;
}

/* Nothing measured: no document, the reasons are on stderr. */
static bool pages_measured(const void *state)
{
	return ((const struct ph_pages *)state)->points > 0;
}

const struct ph_steps pages_steps = {
	.size = sizeof(struct ph_pages),
	.plan = pages_plan,
	.measure = pages_measure,
	.measured = pages_measured,
	.document = pages_doc,
	.free = pages_free,
};
