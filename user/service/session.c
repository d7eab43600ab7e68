// SPDX-License-Identifier: GPL-2.0-only
/*
 * session.c - the run context: machine, threads and verified memory.
 */
#include "session.h"
#include "progress.h"
#include "phases.h"
#include "report.h"
#include "pools.h"
#include "util.h"
#include "verify.h"

#include <errno.h>
#include <numa.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void options_init(struct ph_options *o, uint64_t default_size)
{
	memset(o, 0, sizeof(*o));
	o->fmt = PH_FMT_TABLE;
	o->bufreq.backend = PH_BACKEND_AUTO;
	o->bufreq.psize = PH_PS_4K;
	o->size = default_size;
	o->mcfg.time_s = 2.0;
	o->mcfg.ci_target = 0.01;
	o->mcfg.min_samples = 10;
	o->mcfg.max_samples = 100000;
	o->bufreq.cancel = &ph_interrupted;
}

void options_free(struct ph_options *o)
{
	bindopts_free(&o->bind);
	free(o->plot_skipped);
	o->plot_skipped = NULL;
}

void session_init(struct ph_session *s, const struct ph_options *opt)
{
	memset(s, 0, sizeof(*s));
	s->opt = opt;
	s->m.km.fd = -1;
}

static bool restore_registered;

int session_machine(struct ph_session *s)
{
	int err = topology_load(&s->m.topo);

	if (err) {
		ph_errno(-err, "cannot read the NUMA topology");
		return err == -ENOSYS ? PH_EXIT_UNSUPPORTED : PH_EXIT_FAIL;
	}
	if (s->opt->bind.membind && s->opt->bind.interleave) {
		ph_err("--membind and --interleave: give one or the other");
		return PH_EXIT_USAGE;
	}
	if (s->opt->bind.physcpubind && s->opt->bind.cpunodebind) {
		ph_err("--physcpubind and --cpunodebind: give one or the other");
		return PH_EXIT_USAGE;
	}
	s->meas = s->opt->mcfg;
	cpu_load(&s->m.cpu);
	kmod_open(&s->m.km);
	clock_setup(&s->m.clk, &s->m.cpu, &s->m.km);
	/* From here on a signal stops the run, which then puts the pools back. */
	runner_catch_sigint();
	if (!restore_registered) {
		atexit(pools_restore);
		restore_registered = true;
	}
	return 0;
}

/* The exit code for segment_alloc's -errno. */
static int alloc_exit_code(int err)
{
	switch (err) {
	case -EINTR:
		return PH_EXIT_INTERRUPTED;
	case -EINVAL:
		return PH_EXIT_USAGE;
	case -EOPNOTSUPP:
	case -ENOMEM:
	case -EPERM:
	case -EACCES:
		return PH_EXIT_UNSUPPORTED;
	default:
		return PH_EXIT_FAIL;
	}
}

/* m's segments serve s's binding as they are. */
static bool memory_fits(const struct ph_memory *m, const struct ph_session *s)
{
	if (!m->segs || m->n != s->binding.n || m->per_thread != s->per_thread)
		return false;
	for (int i = 0; i < m->n; i++)
		if (m->nodes[i] != s->binding.nodes[i])
			return false;
	return true;
}

/* Hand s's freshly laid out and verified segments to m. */
static void memory_take(struct ph_memory *m, struct ph_session *s)
{
	m->segs = s->segs;
	m->n = s->binding.n;
	m->per_thread = s->per_thread;
	m->nodes = xcalloc((size_t)m->n, sizeof(int));
	memcpy(m->nodes, s->binding.nodes, (size_t)m->n * sizeof(int));
	m->all_verified = s->all_verified;
	m->have_chain = false;
	m->have_arrays = false;
	m->nslots = xcalloc((size_t)m->n, sizeof(int64_t));
	m->laid_out++;
	s->segs_lent = true;
}

/* Read segs[0..n) back; false if one that was where asked has moved. */
static bool segs_still_verified(struct ph_session *s, struct ph_segment *segs, int n)
{
	bool ok = true;

	for (int i = 0; i < n; i++) {
		bool before = segs[i].verified;
		double t0 = now_mono_raw();
		int err = ph_interrupted ? -EINTR :
			segment_verify(&s->m.km, &segs[i], s->laid.bufreq.interleave);

		phase_add(PH_PHASE_VERIFY, now_mono_raw() - t0);
		if (err == -EINTR) {
			s->reverify_skipped = true;
			break;
		}
		if (before && !segs[i].verified) {
			ph_warn("thread %d: the memory moved while it was measured: %s",
				i, segs[i].verify_msg);
			ok = false;
		}
	}
	return ok;
}

bool memory_release(struct ph_session *s, struct ph_memory *m)
{
	bool ok = true;

	if (!m->segs)
		return true;
	ok = segs_still_verified(s, m->segs, m->n);
	for (int i = 0; i < m->n; i++)
		segment_free(&s->m.km, &m->segs[i]);
	free(m->segs);
	free(m->nodes);
	free(m->nslots);
	m->segs = NULL;
	m->nodes = NULL;
	m->nslots = NULL;
	m->n = 0;
	m->have_chain = false;
	m->have_arrays = false;
	return ok;
}

struct ph_layout session_layout(const struct ph_session *s)
{
	return (struct ph_layout){ .size = s->opt->size, .bufreq = s->opt->bufreq };
}

int session_start(struct ph_session *s, unsigned default_threads)
{
	return session_start_bind(s, NULL, NULL, default_threads);
}

int session_start_on(struct ph_session *s, struct bitmask *cpus, unsigned threads,
		     const struct ph_layout *lay)
{
	struct ph_bindopts o = {
		.membind = s->opt->bind.membind,
		.interleave = s->opt->bind.interleave,
		.physcpubind = cpus,
		.threads = threads,
	};

	return session_start_bind(s, &o, lay, threads);
}

int session_start_bind(struct ph_session *s, const struct ph_bindopts *bind,
		       const struct ph_layout *lay, unsigned default_threads)
{
	/* A study that places its threads chose CPUs of its own (session_start_on). */
	struct ph_bindopts asked = {
		.membind = s->opt->bind.membind,
		.interleave = s->opt->bind.interleave,
		.cpunodebind = s->opt->binds_itself ? NULL : s->opt->bind.cpunodebind,
		.physcpubind = s->opt->binds_itself ? NULL : s->opt->bind.physcpubind,
		.threads = s->opt->binds_itself ? 0 : s->opt->bind.threads,
	};
	char why[512];
	int err;

	s->laid = lay ? *lay : session_layout(s);
	if (binding_resolve(bind ? bind : &asked, &s->m.cpu, default_threads, &s->binding, why, sizeof(why))) {
		ph_err("%s", why);
		return PH_EXIT_USAGE;
	}
	/* Whole cache lines per thread; the pages around them are whole pages. */
	s->per_thread = s->laid.size / (uint64_t)s->binding.n / 64 * 64;
	if (!s->per_thread) {
		ph_err("--size: %llu bytes is less than a cache line per thread",
		       (unsigned long long)s->laid.size);
		return PH_EXIT_USAGE;
	}
	/* Say what is missing before laying out gigabytes that cannot be checked. */
	if (!s->opt->allow_unverified && verify_ready(&s->m.km, why, sizeof(why))) {
		ph_err("%s; run as root, or measure unverified with --allow-unverified", why);
		return PH_EXIT_UNSUPPORTED;
	}
	if (s->mem && memory_fits(s->mem, s)) {
		s->segs = s->mem->segs;
		s->segs_lent = true;
		s->all_verified = s->mem->all_verified;
		goto team;
	}
	if (s->mem)
		memory_release(s, s->mem);
	s->segs = xcalloc((size_t)s->binding.n, sizeof(*s->segs));
	s->all_verified = true;
	for (int i = 0; i < s->binding.n; i++) {
		struct ph_segment *seg = &s->segs[i];

		double t0 = now_mono_raw(), touched = phase_seconds(PH_PHASE_TOUCH);

		progress_phase("laying out and reading back %s for thread %d of %d",
			       format_size(s->per_thread, why, sizeof(why)), i + 1, s->binding.n);
		err = segment_alloc(&s->m.km, &s->laid.bufreq, s->binding.nodes[i], s->per_thread,
				    seg, why, sizeof(why));
		/* The allocation less the touch inside it, timed on its own. */
		phase_add(PH_PHASE_ALLOC, now_mono_raw() - t0 -
			  (phase_seconds(PH_PHASE_TOUCH) - touched));
		if (!err) {
			t0 = now_mono_raw();
			err = segment_verify(&s->m.km, seg, s->laid.bufreq.interleave) == -EINTR ? -EINTR : 0;
			phase_add(PH_PHASE_VERIFY, now_mono_raw() - t0);
		}
		if (err == -EINTR) {
			ph_err("interrupted by %s while the memory was laid out and read back",
			       runner_signal_name(ph_interrupted));
			return PH_EXIT_INTERRUPTED;
		}
		if (err) {
			ph_err("thread %d (CPU %d): %s", i, s->binding.cpus[i], why);
			return alloc_exit_code(err);
		}
		if (seg->backend_note[0] && !s->backend_note[0])
			snprintf(s->backend_note, sizeof(s->backend_note), "%s", seg->backend_note);
		if (!seg->verified) {
			s->all_verified = false;
			if (!s->opt->allow_unverified) {
				ph_err("thread %d (CPU %d): memory not verified: %s; measure anyway with --allow-unverified",
				       i, s->binding.cpus[i], seg->verify_msg);
				return PH_EXIT_FAIL;
			}
			ph_warn("thread %d (CPU %d): memory not verified: %s; measuring anyway (--allow-unverified)",
				i, s->binding.cpus[i], seg->verify_msg);
		}
	}
	if (s->mem)
		memory_take(s->mem, s);
team:
	s->team = team_start(s->binding.cpus, s->binding.n, why, sizeof(why));
	if (!s->team) {
		ph_err("%s", why);
		return PH_EXIT_FAIL;
	}
	return 0;
}

bool session_still_verified(struct ph_session *s)
{
	bool ok = segs_still_verified(s, s->segs, s->binding.n);

	if (!ok)
		s->all_verified = false;
	return ok;
}

void session_describe(struct ph_session *s, struct ph_doc *doc)
{
	struct ph_section *sec = doc_add_section(doc, "run", "how it was measured");

	section_str(sec, "clock", s->m.clk.name);
	section_num(sec, "tsc_hz", s->m.clk.tsc_hz, "%.0f");
	section_str(sec, "tsc_hz_source", s->m.clk.tsc_source);
	section_str(sec, "clock_fallback_reason", s->m.clk.why[0] ? s->m.clk.why : NULL);
	section_num(sec, "clock_resolution_ns", s->m.clk.resolution_ns, "%.1f");
	section_num(sec, "time_budget_s", s->meas.time_s, "%g");
	section_num(sec, "ci_target_pct", s->meas.ci_target * 100, "%g");
	section_str(sec, "statistics",
		    "median of timed blocks after one untimed warm-up pass; 95% CI of the median from binomial order statistics");
	section_str(sec, "module", s->m.km.fd >= 0 ? "loaded" : s->m.km.why);
	if (s->backend_note[0])
		doc_note(doc, "%s", s->backend_note);
}

void session_buffers_table(struct ph_session *s, struct ph_doc *doc)
{
	struct ph_table *t = doc_add_table(doc, "buffers", "memory, as read back");
	static const char *const cols[] = {
		"thread", "cpu", "node_asked", "backend", "page_size", "size_KiB", "verified",
		"found",
	};

	for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
		table_add_col(t, cols[i]);
	for (int i = 0; i < s->binding.n; i++) {
		const struct ph_segment *seg = &s->segs[i];
		int r = table_add_row(t);

		table_int(t, r, "thread", i);
		table_int(t, r, "cpu", s->binding.cpus[i]);
		if (seg->node >= 0)
			table_int(t, r, "node_asked", seg->node);
		else
			table_str(t, r, "node_asked", s->binding.nodes_text);
		table_str(t, r, "backend", backend_name(seg->backend));
		table_str(t, r, "page_size", psize_name(seg->psize));
		table_int(t, r, "size_KiB", (long long)(seg->bytes / KiB));
		table_bool(t, r, "verified", seg->verified);
		table_str(t, r, "found", seg->verify_msg);
	}
}

void session_add_common_cols(struct ph_table *t)
{
	static const char *const cols[] = {
		"backend", "node", "page_size", "cpus", "threads", "size_KiB", "clock", "verified",
	};

	for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
		table_add_col(t, cols[i]);
	/* The same in every row and said in the run's section: the verbose table has them. */
	table_detail(t, "backend clock");
}

/* "a,b,c" of the ids i < n with set[i]. */
static void ids_text(const bool *set, int n, char *out, size_t size)
{
	size_t len = 0;

	out[0] = '\0';
	for (int i = 0; i < n && len < size; i++)
		if (set[i])
			len += (size_t)snprintf(out + len, size - len, "%s%d", len ? "," : "", i);
}

void session_found(struct ph_session *s, char *nodes, size_t nodes_len,
		   char *psizes, size_t psizes_len)
{
	enum { MAXN = 1024 };
	bool seen[MAXN] = { false }, sizes[PH_PS_COUNT] = { false };
	size_t len = 0;

	/* The nodes and page sizes the pages were found with, not those asked. */
	for (int i = 0; i < s->binding.n; i++) {
		const struct ph_placement *pl = &s->segs[i].found;

		for (int n = 0; n < pl->nr_nodes && n < MAXN; n++)
			seen[n] |= pl->node_bytes[n] != 0;
		for (int p = PH_PS_4K; p < PH_PS_COUNT; p++)
			sizes[p] |= pl->psize_bytes[p] != 0;
	}
	ids_text(seen, MAXN, nodes, nodes_len);
	psizes[0] = '\0';
	for (int p = PH_PS_4K; p < PH_PS_COUNT && len < psizes_len; p++)
		if (sizes[p])
			len += (size_t)snprintf(psizes + len, psizes_len - len, "%s%s",
						len ? "+" : "", psize_name((enum ph_psize)p));
}

void session_fill_common(struct ph_session *s, struct ph_table *t, int row)
{
	char nodes[256], psizes[64];

	session_found(s, nodes, sizeof(nodes), psizes, sizeof(psizes));
	table_str(t, row, "backend", s->binding.n ? backend_name(s->segs[0].backend) : NULL);
	table_str(t, row, "node", nodes[0] ? nodes : NULL);
	table_str(t, row, "page_size", psizes[0] ? psizes : NULL);
	table_str(t, row, "cpus", s->binding.cpus_text);
	table_int(t, row, "threads", s->binding.n);
	table_int(t, row, "size_KiB", (long long)(s->laid.size / KiB));
	table_str(t, row, "clock", s->m.clk.name);
	table_bool(t, row, "verified", s->all_verified);
}

void session_stop(struct ph_session *s)
{
	team_stop(s->team);
	s->team = NULL;
	for (int i = 0; s->segs && !s->segs_lent && i < s->binding.n; i++)
		segment_free(&s->m.km, &s->segs[i]);
	if (!s->segs_lent)
		free(s->segs);
	s->segs = NULL;
	s->segs_lent = false;
	binding_free(&s->binding);
}

void session_free(struct ph_session *s)
{
	session_stop(s);
	kmod_close(&s->m.km);
	cpu_free(&s->m.cpu);
	topology_free(&s->m.topo);
	pools_restore();
}
