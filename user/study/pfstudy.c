// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfstudy.c - the prefetch study: plan, measure, document.
 *
 * One thread on one CPU over one allocation, the same memory in every
 * prefetcher state, so that the state is all that changes.  Every row
 * records the state it was measured in, as the register held it, read
 * back.  The module puts the original state back when its fd is closed,
 * so an interrupted or crashed run cannot leave a prefetcher off.
 */
#include "pfstudy.h"
#include "progress.h"
#include "chain.h"
#include "pfbenefit.h"
#include "swpf.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The largest cache, to say whether the working set is "well beyond" it. */
static uint64_t llc_bytes(const struct ph_cpu *c)
{
	uint64_t best = 0;

	for (int i = 0; i < c->ncaches; i++)
		if (strcmp(c->caches[i].type, "instruction") && c->caches[i].size > best)
			best = c->caches[i].size;
	return best;
}

int pfstudy_states(const struct ph_pf *pf, struct pfstudy_state *out, int max)
{
	int n = 0;

	memset(out, 0, sizeof(*out) * (size_t)max);
	snprintf(out[n].name, sizeof(out[n].name), "as found");
	out[n++].disable = pf->original;
	if (!pf->control)
		return n;
	for (int i = 0; i < pf->nbits && n < max - 1; i++) {
		uint64_t bit = 1ull << pf->bits[i].bit;

		if (!(pf->supported & bit) || (pf->original & bit))
			continue;	/* cannot be set, or already off */
		snprintf(out[n].name, sizeof(out[n].name), "%s off", pf->bits[i].name);
		out[n++].disable = pf->original | bit;
	}
	snprintf(out[n].name, sizeof(out[n].name), "all off");
	out[n++].disable = pf->original | pf->supported;
	return n;
}

int pfstudy_plan(void *state, struct ph_session *s)
{
	struct ph_pfstudy *st = state;
	struct ph_pf *pf = &st->pf;
	int rc = session_start(s, 1);

	if (rc)
		return rc;

	for (int i = 0; i < st->plan.nspecs; i++) {
		char name[64];

		if (chase_slots(s->per_thread, &st->plan.specs[i]) < 1) {
			ph_err("--patterns %s does not fit a %llu-byte working set",
			       chase_spec_name(&st->plan.specs[i], name, sizeof(name)),
			       (unsigned long long)s->per_thread);
			return PH_EXIT_USAGE;
		}
	}
	/* The plain read as every command runs it; the prefetching one beside it. */
	st->plain = stream_auto("read", false, NULL);
	st->swpf = swpf_find(st->plain->isa);
	if (st->plan.no_control) {
		memset(pf, 0, sizeof(*pf));
		snprintf(pf->why, sizeof(pf->why), "prefetcher control not attempted (--no-control)");
	} else {
		pf_probe(&s->m.km, s->binding.cpus[0], pf);
	}
	st->nstates = pfstudy_states(pf, st->states, PFSTUDY_MAX_STATES);
	if (!pf->control)
		ph_warn("%s; measuring the access patterns alone", pf->why);
	return 0;
}

/* Set the prefetchers to state ps and check the register took it.  0 or an exit code. */
static int set_state(struct ph_pfstudy *st, struct ph_session *s, struct pfstudy_state *ps)
{
	const struct ph_pf *pf = &st->pf;

	if (pf->control) {
		uint64_t now = 0;
		int err = pf_set(&s->m.km, pf, ps->disable, &now);

		if (err) {
			ph_errno(-err, "setting the prefetchers of CPU %d to %s", pf->cpu, ps->name);
			return PH_EXIT_FAIL;
		}
		/* What the register holds, read back, not what was asked. */
		if (now != (ps->disable & pf->supported)) {
			ph_err("setting the prefetchers of CPU %d to %s: the register holds 0x%llx (off: %s), not 0x%llx",
			       pf->cpu, ps->name, (unsigned long long)now,
			       pf_names(pf, now, ps->off, sizeof(ps->off)),
			       (unsigned long long)(ps->disable & pf->supported));
			return PH_EXIT_FAIL;
		}
		ps->disable = now;
	}
	pf_names(pf, pf->control ? ps->disable : 0, ps->off, sizeof(ps->off));
	if (!pf->control)
		snprintf(ps->off, sizeof(ps->off), "as found (not controllable)");
	return 0;
}

/* Every figure in state k.  0, or an exit code when the study must stop. */
static int measure_state(struct ph_pfstudy *st, struct ph_session *s, int k)
{
	struct pfstudy_state *ps = &st->states[k];

	for (int i = 0; i < st->plan.nspecs && !ph_interrupted; i++) {
		const struct chase_spec *spec = &st->plan.specs[i];
		struct pfstudy_lat *l;
		struct ph_latency lat;
		char name[64];
		int err;

		progress_step("off %s: %s chase", ps->off, chase_spec_name(spec, name, sizeof(name)));
		err = latency_figure(s, spec, 1, false, &lat);

		if (!lat.user.n) {
			latency_free(&lat);
			return err ? err : PH_EXIT_FAIL;
		}
		st->lat = xrealloc(st->lat, (size_t)(st->nlat + 1) * sizeof(*st->lat));
		l = &st->lat[st->nlat++];
		*l = (struct pfstudy_lat){ .state = k, .spec = i, .lat = lat };
		if (err)
			return err;
	}
	for (int j = 0; j < 2 && !ph_interrupted; j++) {
		const struct stream_kernel *kk = j ? st->swpf : st->plain;
		struct pfstudy_bw *b;
		struct ph_bandwidth bw;
		int err;

		progress_step("off %s: %s", ps->off, kk->name);
		err = bandwidth_figure(s, kk, &bw);

		if (!bw.res.n) {
			bandwidth_free(&bw);
			return err ? err : PH_EXIT_FAIL;
		}
		st->bw = xrealloc(st->bw, (size_t)(st->nbw + 1) * sizeof(*st->bw));
		b = &st->bw[st->nbw++];
		*b = (struct pfstudy_bw){ .state = k, .k = kk, .bw = bw };
		if (err)
			return err;
	}
	ps->done = true;
	return 0;
}

/* Put the prefetchers back as they were found.  rc, or 1 if they could not be. */
static int restore(struct ph_pfstudy *st, struct ph_session *s, int rc)
{
	const struct ph_pf *pf = &st->pf;
	char why[128], off[128];
	uint64_t now = 0;
	int err;

	if (!pf->control)
		return rc;
	err = pf_set(&s->m.km, pf, pf->original, &now);
	if (err)
		snprintf(why, sizeof(why), "%s", strerror(-err));
	else
		snprintf(why, sizeof(why), "the register holds 0x%llx", (unsigned long long)now);
	if (err || now != (pf->original & pf->supported)) {
		ph_err("could not put the prefetchers of CPU %d back to 0x%llx (off: %s): %s; closing pagehop.ko's fd restores what pagehop changed",
		       pf->cpu, (unsigned long long)pf->original,
		       pf_names(pf, pf->original, off, sizeof(off)), why);
		rc = PH_EXIT_FAIL;
	}
	return rc;
}

int pfstudy_measure(void *state, struct ph_session *s)
{
	struct ph_pfstudy *st = state;
	struct chain_orders orders;
	int rc = 0;

	/*
	 * The random chain, rebuilt in every state (the bandwidth figures
	 * overwrite it), is written each time from one order computed in the
	 * first state (chain.h).
	 */
	chain_orders_plan(&orders, &s->per_thread, 1, st->plan.seed);
	s->orders = &orders;
	/* A step per figure: each pattern's latency and both bandwidths, per state. */
	progress_begin(st->nstates * (st->plan.nspecs + 2), "prefetch");
	for (int k = 0; k < st->nstates && !ph_interrupted && !rc; k++) {
		rc = set_state(st, s, &st->states[k]);
		if (!rc)
			rc = measure_state(st, s, k);
	}
	s->orders = NULL;
	chain_orders_free(&orders);
	return restore(st, s, rc);
}

/* A prefetcher state; the table says "as found" without why (the notes say it). */
static void put_state(struct ph_table *t, int row, const char *off)
{
	table_str_brief(t, row, "prefetchers_off", off, strncmp(off, "as found", 8) ? off : "as found");
}

static void latency_table(const struct ph_pfstudy *st, struct ph_session *s, struct ph_doc *doc)
{
	struct ph_table *t = doc_add_table(doc, "latency", "latency per access pattern");

	table_add_col(t, "prefetchers_off");
	table_add_col(t, "pattern");
	latency_add_cols(t, "");
	session_add_common_cols(t);
	for (int i = 0; i < st->nlat; i++) {
		const struct pfstudy_lat *l = &st->lat[i];
		int row = table_add_row(t);
		char name[64];

		put_state(t, row, st->states[l->state].off);
		table_str(t, row, "pattern", chase_spec_name(&st->plan.specs[l->spec], name, sizeof(name)));
		latency_fill(t, row, "", &l->lat.user, s->m.clk.tsc_hz);
		session_fill_common(s, t, row);
	}
}

static void bandwidth_table(const struct ph_pfstudy *st, struct ph_session *s, struct ph_doc *doc)
{
	struct ph_table *t = doc_add_table(doc, "bandwidth", "read bandwidth, with and without software prefetch");

	table_add_col(t, "prefetchers_off");
	table_add_col(t, "kernel");
	table_add_col(t, "isa");
	bandwidth_add_cols(t, "");
	session_add_common_cols(t);
	for (int i = 0; i < st->nbw; i++) {
		const struct pfstudy_bw *b = &st->bw[i];
		int row = table_add_row(t);

		put_state(t, row, st->states[b->state].off);
		table_str(t, row, "kernel", b->k->name);
		table_str(t, row, "isa", isa_name(b->k->isa));
		bandwidth_fill(t, row, "", &b->bw);
		session_fill_common(s, t, row);
	}
}

/* The samples of state k's last figure of pattern p (latency), or of kernel k (bandwidth). */
static struct pf_samples lat_samples(const struct ph_pfstudy *st, int state, enum chase_pattern p)
{
	struct pf_samples out = { 0 };

	for (int i = 0; i < st->nlat; i++)
		if (st->lat[i].state == state && st->plan.specs[st->lat[i].spec].pattern == p)
			out = (struct pf_samples){ st->lat[i].lat.user.samples, st->lat[i].lat.user.n };
	return out;
}

static struct pf_samples bw_samples(const struct ph_pfstudy *st, int state,
				    const struct stream_kernel *k)
{
	struct pf_samples out = { 0 };

	for (int i = 0; i < st->nbw; i++)
		if (st->bw[i].state == state && st->bw[i].k == k)
			out = (struct pf_samples){ st->bw[i].bw.res.samples, st->bw[i].bw.res.n };
	return out;
}

/*
 * One ratio, one row: what it divides, its interval, and what the interval
 * allows one to say: above (the whole CI above 1), below, or no effect shown.
 */
static void ratio_row(struct ph_table *t, const char *state, const char *name, const char *a,
		      const char *b, const struct ratio_ci *r, const char *above, const char *below)
{
	enum ratio_shown sh = ratio_ci_shown(r);
	int row;

	if (!isfinite(r->value))
		return;
	row = table_add_row(t);
	put_state(t, row, state);
	table_str(t, row, "ratio", name);
	table_str(t, row, "a", a);
	table_str(t, row, "b", b);
	table_num(t, row, "value", r->value, "%.3f");
	if (isfinite(r->lo) && isfinite(r->hi)) {
		table_num(t, row, "ci_lo", r->lo, "%.3f");
		table_num(t, row, "ci_hi", r->hi, "%.3f");
	}
	table_str_brief(t, row, "shown", sh == RATIO_ABOVE ? above : sh == RATIO_BELOW ? below :
			ratio_shown_name(sh), sh == RATIO_NO_CI ? "no CI" : NULL);
}

/*
 * Every ratio of every state that was measured through, each a/b of two
 * figures' medians with its bootstrap interval; with control, each state
 * with prefetchers off against the state as found.
 */
static void ratios_table(const struct ph_pfstudy *st, struct ph_doc *doc)
{
	struct ph_table *t = doc_add_table(doc, "ratios",
		"ratios of medians a/b per prefetcher state, 95% bootstrap CI of block medians; a CI that holds 1: no effect shown");
	static const char *const cols[] = {
		"prefetchers_off", "ratio", "a", "b", "value", "ci_lo", "ci_hi", "shown",
	};
	char plain[64], swpf[64];

	for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
		table_add_col(t, cols[i]);
	/* What each ratio divides: the study's section says it in words. */
	table_detail(t, "a b");
	snprintf(plain, sizeof(plain), "%s/%s", st->plain->name, isa_name(st->plain->isa));
	snprintf(swpf, sizeof(swpf), "%s/%s", st->swpf->name, isa_name(st->swpf->isa));
	for (int k = 0; k < st->nstates; k++) {
		const struct pfstudy_state *ps = &st->states[k];
		struct pf_samples rnd = lat_samples(st, k, CHASE_RANDOM), seq = lat_samples(st, k, CHASE_SEQ);
		struct pf_samples rd = bw_samples(st, k, st->plain), rs = bw_samples(st, k, st->swpf);
		struct pf_benefit b;

		if (!ps->done)
			continue;
		pf_benefit_of(&rnd, &seq, &rd, &rs, &b);
		ratio_row(t, ps->off, "random_over_seq", "random lat_ns", "seq lat_ns", &b.random_over_seq,
			  "random slower (prefetchers, TLB and DRAM rows together)", "random faster");
		ratio_row(t, ps->off, "swpf_gain", swpf, plain, &b.swpf_gain,
			  "software prefetch speeds the read up", "software prefetch slows the read down");
		if (k > 0 && st->states[0].done) {
			struct pf_samples seq0 = lat_samples(st, 0, CHASE_SEQ), rd0 = bw_samples(st, 0, st->plain);
			struct pf_state_ratios sr;

			pf_state_ratios_of(&seq0, &seq, &rd0, &rd, &sr);
			ratio_row(t, ps->off, "seq_off_over_found", "seq lat_ns, these off", "seq lat_ns, as found",
				  &sr.seq_off_over_found, "these off slow the sequential chase",
				  "these off speed the sequential chase up");
			ratio_row(t, ps->off, "read_found_over_off", "read GB/s, as found", "read GB/s, these off",
				  &sr.read_found_over_off, "these off cost read bandwidth",
				  "these off add read bandwidth");
		}
	}
}

struct ph_doc *pfstudy_doc(void *state, struct ph_session *s, int *rc)
{
	const struct ph_pfstudy *st = state;
	struct ph_doc *doc = doc_new("prefetch");
	const struct ph_pf *pf = &st->pf;
	struct ph_section *sec;
	uint64_t llc = llc_bytes(&s->m.cpu);
	char buf[128];

	latency_table(st, s, doc);
	bandwidth_table(st, s, doc);
	ratios_table(st, doc);
	sec = doc_add_section(doc, "prefetch_method", "the study");
	section_int(sec, "cpu", s->binding.cpus[0]);
	section_bool(sec, "control", pf->control);
	if (pf->control) {
		section_str(sec, "msr", pf_msr_name(pf->msr_kind));
		section_str(sec, "controllable", pf_names(pf, pf->supported, buf, sizeof(buf)));
		section_str(sec, "off_as_found", pf_names(pf, pf->original, buf, sizeof(buf)));
		section_str(sec, "restored", "to the state as found, after the study (and by the module when the fd closes)");
	} else {
		section_str(sec, "why_no_control", pf->why);
	}
	section_int(sec, "swpf_distance_B", SWPF_DISTANCE);
	section_str(sec, "random_over_seq", "median random latency / median sequential latency, in one prefetcher state: more than the prefetchers' effect, as the random chase also takes TLB misses and DRAM row misses the sequential one does not");
	section_str(sec, "swpf_gain", "median read bandwidth with prefetcht0 2 KiB ahead / without, the same loop at the same ISA (the one stream_auto gives every command's read)");
	section_str(sec, "ratio_ci", "95% percentile bootstrap of the ratio of block medians, 2000 resamples with a fixed seed; a CI that holds 1: no effect shown");
	section_str(sec, "prefetchers_share", pf->control ?
		    "seq_off_over_found and read_found_over_off: each state with prefetchers off against the state as found" :
		    "not measured: it needs prefetcher control");
	if (llc && s->opt->size < 8 * llc)
		doc_note(doc, "--size %llu MiB is less than 8x the largest cache (%llu MiB): caches will hide part of what prefetching does",
			 (unsigned long long)(s->opt->size / MiB), (unsigned long long)(llc / MiB));
	if (!pf->control) {
		doc_note(doc, "%s", pf->why);
		doc_note(doc, "the prefetchers' share of these figures is not measured: it needs prefetcher control (pagehop.ko on a CPU whose prefetcher MSR it can set); random_over_seq is the random chase over the sequential one with the prefetchers as found, %s: it holds more than the prefetchers' effect",
			 s->opt->bufreq.psize == PH_PS_4K ?
			 "and on 4K pages the random chase also misses the TLB on nearly every load" :
			 "and the random chase also takes the TLB misses and DRAM row misses the sequential one does not");
	}
	session_describe(s, doc);
	if (!session_still_verified(s) && !*rc)
		*rc = PH_EXIT_FAIL;
	session_buffers_table(s, doc);
	return doc;
}

static void pfstudy_free(void *state, struct ph_session *s)
{
	struct ph_pfstudy *st = state;

	(void)s;
	for (int i = 0; i < st->nlat; i++)
		latency_free(&st->lat[i].lat);
	for (int i = 0; i < st->nbw; i++)
		bandwidth_free(&st->bw[i].bw);
	free(st->lat);
	free(st->bw);
	free(st->plan.specs);
	memset(st, 0, sizeof(*st));
}

const struct ph_steps pfstudy_steps = {
	.size = sizeof(struct ph_pfstudy),
	.plan = pfstudy_plan,
	.measure = pfstudy_measure,
	.document = pfstudy_doc,
	.free = pfstudy_free,
};
