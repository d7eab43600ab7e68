// SPDX-License-Identifier: GPL-2.0-only
/*
 * wi_study.c - pagehop interleave: read bandwidth over memory laid out
 * on a set of nodes by each policy, every layout's pages counted back per
 * node (wi_study.h).
 */
#include "wi_study.h"
#include "progress.h"
#include "util.h"
#include "verify.h"
#include "wi_layout.h"

#include <errno.h>
#include <math.h>
#include <numa.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct bitmask *one_node(int node)
{
	struct bitmask *bm = numa_allocate_nodemask();

	numa_bitmask_setbit(bm, (unsigned)node);
	return bm;
}

static bool has_memory(int node)
{
	long long freeb;

	return numa_bitmask_isbitset(numa_nodes_ptr, (unsigned)node) &&
	       numa_node_size64(node, &freeb) > 0;
}

/* Each node's kind, from the CXL bus and the nodes' CPUs as sysfs shows them (cxl.h). */
static void node_kinds(struct ph_wi *w)
{
	const char *root = cxl_sysfs_root();
	struct ph_cxl_tiering t;
	struct ph_cxl c;

	cxl_load(root, &c);
	cxl_tiering_load(root, &t);
	for (int k = 0; k < w->n; k++)
		cxl_node_kind(&c, &t, w->nodes[k], &w->kind[k]);
	cxl_tiering_free(&t);
	cxl_free(&c);
}

/* " (node 0: DRAM)", " (nodes 0: DRAM, 2: CXL)" over the study's nodes; "" for none. */
static void kinds_text(const struct ph_wi *w, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = 0;
	for (int k = 0; k < w->n && at < len; k++) {
		int m = snprintf(buf + at, len - at, "%s%d: %s%s", k ? ", " : w->n > 1 ? " (nodes " : " (node ",
				 w->nodes[k], cxl_node_kind_name(w->kind[k].kind), k == w->n - 1 ? ")" : "");

		if (m < 0)
			break;
		at += (size_t)m;
	}
}

static int wi_plan(void *state, struct ph_session *s)
{
	struct ph_wi *w = state;
	int cpu = sched_getcpu();

	w->cpu_node = w->cpu_node_given >= 0 ? w->cpu_node_given :
		      cpu >= 0 ? numa_node_of_cpu(cpu) : 0;
	if (w->cpu_node_given >= 0 && (w->cpu_node > numa_max_node() ||
				       !numa_bitmask_isbitset(numa_nodes_ptr, (unsigned)w->cpu_node))) {
		ph_err("--cpu-node: node %d does not exist", w->cpu_node);
		return PH_EXIT_USAGE;
	}
	for (int nd = 0; nd <= numa_max_node() && w->n < PH_WL_MAX_NODES; nd++) {
		if (w->nodes_given ? !numa_bitmask_isbitset(w->nodes_given, (unsigned)nd) : !has_memory(nd))
			continue;
		if (!has_memory(nd)) {
			ph_err("--nodes: node %d has no memory", nd);
			return PH_EXIT_USAGE;
		}
		w->nodes[w->n++] = nd;
	}
	node_kinds(w);
	if (w->n < 2) {
		char kinds[256];

		if (w->nodes_given) {
			ph_err("--nodes: interleave needs two nodes with memory or more");
			return PH_EXIT_USAGE;
		}
		kinds_text(w, kinds, sizeof(kinds));
		ph_err("this machine has %d node%s with memory%s; interleaving needs two or more",
		       w->n, w->n == 1 ? "" : "s", kinds);
		return PH_EXIT_UNSUPPORTED;
	}
	wi_sysfs_read(PH_WI_SYSFS, w->n, w->nodes, &w->sys);
	w->wi_err = buffer_weighted_probe(w->nodes[0], w->wi_why, sizeof(w->wi_why));
	w->dram = w->interleave = -1;
	(void)s;
	return 0;
}

static struct ph_wi_row *new_row(struct ph_wi *w, enum ph_wi_kind kind, const char *name)
{
	struct ph_wi_row *r;

	if (w->nrows == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 16;
		w->rows = xrealloc(w->rows, (size_t)w->cap * sizeof(*w->rows));
	}
	r = &w->rows[w->nrows++];
	memset(r, 0, sizeof(*r));
	r->kind = kind;
	snprintf(r->name, sizeof(r->name), "%s", name);
	r->node = -1;
	return r;
}

/* The sysfs weight the kernel uses for node k of the layout: 0 or none is 1 (weighted_interleave_nid()). */
static int kernel_weight(const struct ph_wi *w, int k)
{
	return w->sys.weight && w->sys.weight[k] > 0 ? w->sys.weight[k] : 1;
}

/* Count r's segments back per node (move_pages) against what its weights predict. */
static int count_pages(struct ph_wi *w, struct ph_session *s, struct ph_wi_row *r)
{
	int nr = numa_max_node() + 1;
	uint64_t *found = xcalloc((size_t)nr, sizeof(uint64_t));
	int rc = 0;

	r->counts_match = true;
	r->exact = r->kind != PH_WIK_INTERLEAVE && r->kind != PH_WIK_KERNEL;
	for (int i = 0; i < s->binding.n && !rc; i++) {
		const struct ph_segment *seg = &s->segs[i];
		uint64_t np = seg->bytes / PH_PAGE_4K, unplaced, got[PH_WL_MAX_NODES], want[PH_WL_MAX_NODES];
		uint64_t on = 0;

		rc = verify_count_nodes(seg->addr, seg->bytes, nr, found, &unplaced);
		if (rc) {
			ph_err("move_pages over layout %s: %s", r->name, strerror(-rc));
			rc = PH_EXIT_FAIL;
			break;
		}
		if (r->kind == PH_WIK_NODE) {
			/* Every page on the node: the other nodes' counts are pages elsewhere. */
			r->node_pages += found[r->node];
			r->counts_match = r->counts_match && found[r->node] == np;
			r->elsewhere += np - found[r->node];
			r->npages += np;
			continue;
		}
		for (int k = 0; k < w->n; k++) {
			got[k] = found[w->nodes[k]];
			on += got[k];
		}
		/*
		 * pagehop's round robin starts at the segment's first page:
		 * exact.  The kernel's cycle starts at the page's offset in the
		 * mapping (for anonymous memory its virtual page number): the
		 * model, checked within one cycle.
		 */
		wi_layout_counts(r->exact ? 0 : (uint64_t)(uintptr_t)seg->addr / PH_PAGE_4K, np, w->n,
				 r->weights, want);
		if (r->exact)
			r->counts_match = r->counts_match && !memcmp(got, want, (size_t)w->n * sizeof(got[0])) &&
					  on == np;
		else
			r->counts_match = r->counts_match && wi_layout_matches(np, w->n, r->weights, got, NULL);
		for (int k = 0; k < w->n; k++) {
			r->counted[k] += got[k];
			r->expected[k] += want[k];
		}
		r->elsewhere += np - on;
		r->npages += np;
	}
	free(found);
	if (!rc && !r->counts_match) {
		ph_err("layout %s: the pages counted back per node do not match its weights (table pages)",
		       r->name);
		w->mismatches++;
	}
	return rc;
}

/*
 * The pages per node once more after measuring: a page that moved between
 * the layout's nodes (NUMA balancing migrates pages that no VMA policy
 * holds, as pagehop's own round robin's) leaves every page on a node of
 * the layout, which the read-back of the session does not see.
 */
static int recount(struct ph_wi *w, struct ph_session *s, struct ph_wi_row *r)
{
	int nr = numa_max_node() + 1, rc = 0;
	uint64_t *found = xcalloc((size_t)nr, sizeof(uint64_t)), *sum = xcalloc((size_t)nr, sizeof(uint64_t));
	uint64_t unplaced;
	bool same = true;

	for (int i = 0; i < s->binding.n && !rc; i++) {
		rc = verify_count_nodes(s->segs[i].addr, s->segs[i].bytes, nr, found, &unplaced);
		for (int nd = 0; nd < nr && !rc; nd++)
			sum[nd] += found[nd];
	}
	if (r->kind == PH_WIK_NODE)
		same = sum[r->node] == r->node_pages;
	else
		for (int k = 0; k < w->n; k++)
			same = same && sum[w->nodes[k]] == r->counted[k];
	free(found);
	free(sum);
	if (rc) {
		ph_err("move_pages over layout %s: %s", r->name, strerror(-rc));
		return PH_EXIT_FAIL;
	}
	if (!same && r->counts_match) {
		ph_err("layout %s: its pages moved between nodes while measured (counted again by move_pages)",
		       r->name);
		r->counts_match = false;
		r->moved = true;
		w->mismatches++;
	}
	return 0;
}

/* Lay r out from the CPU node's CPUs, count its pages back, measure, read back, free. */
static int run_layout(struct ph_wi *w, struct ph_session *s, struct ph_wi_row *r)
{
	struct ph_bindopts b = {
		.cpunodebind = one_node(w->cpu_node),
		.threads = s->opt->bind.threads,
	};
	struct ph_layout lay = session_layout(s);
	struct ph_wlayout wl = { .n = w->n };
	int rc;

	/* Weighted layouts are 4K anonymous pages (buffer.h); every layout alike, for the ratios. */
	lay.bufreq.backend = PH_BACKEND_ANON;
	lay.bufreq.psize = PH_PS_4K;
	lay.bufreq.weighted = NULL;
	memcpy(wl.nodes, w->nodes, (size_t)w->n * sizeof(int));
	memcpy(wl.weights, r->weights, (size_t)w->n * sizeof(int));
	if (r->kind == PH_WIK_NODE) {
		b.membind = one_node(r->node);
	} else {
		b.interleave = numa_allocate_nodemask();
		for (int k = 0; k < w->n; k++)
			numa_bitmask_setbit(b.interleave, (unsigned)w->nodes[k]);
		lay.bufreq.interleave = b.interleave;
		if (r->kind == PH_WIK_KERNEL) {
			wl.mode = PH_WL_KERNEL;
			lay.bufreq.weighted = &wl;
		} else if (r->kind != PH_WIK_INTERLEAVE) {
			wl.mode = PH_WL_PAGEHOP;
			lay.bufreq.weighted = &wl;
		}
	}
	rc = session_start_bind(s, &b, &lay, 0);
	if (!rc)
		rc = count_pages(w, s, r);
	if (!rc) {
		rc = bandwidth_figure(s, w->k, &r->bw);
		if (!r->bw.res.n && !rc)
			rc = PH_EXIT_FAIL;
	}
	if (!rc && !session_still_verified(s))
		rc = PH_EXIT_FAIL;
	if (!rc && !ph_interrupted)
		rc = recount(w, s, r);
	if (rc) {
		r->skipped = true;
		snprintf(r->why, sizeof(r->why), "%s", r->bw.res.n ? "its memory moved while measured" :
			 "could not be laid out or measured (said on stderr)");
	}
	session_stop(s);
	bindopts_free(&b);
	return rc;
}

static void weights_of(const struct ph_wi *w, const int *wt, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = 0;
	for (int k = 0; k < w->n && at < len; k++) {
		int m = snprintf(buf + at, len - at, "%s%d:%d", k ? "," : "", w->nodes[k], wt[k]);

		if (m < 0)
			break;
		at += (size_t)m;
	}
}

static int node_row(struct ph_wi *w, int node, const char *name)
{
	struct ph_wi_row *r = new_row(w, PH_WIK_NODE, name);

	r->node = node;
	for (int k = 0; k < w->n; k++)
		r->weights[k] = w->nodes[k] == node;
	snprintf(r->how, sizeof(r->how), "mbind MPOL_BIND to node %d, faulted in before measuring", node);
	return w->nrows - 1;
}

/* The rows to measure, in order: each node alone, interleave, kernel, proposed (added later), search. */
static void plan_rows(struct ph_wi *w)
{
	char buf[256];
	struct ph_wi_row *r;

	w->dram = has_memory(w->cpu_node) ? node_row(w, w->cpu_node, "dram") : -1;
	for (int k = 0; k < w->n; k++) {
		if (w->nodes[k] == w->cpu_node)
			continue;
		snprintf(buf, sizeof(buf), "node%d", w->nodes[k]);
		node_row(w, w->nodes[k], buf);
	}
	r = new_row(w, PH_WIK_INTERLEAVE, "interleave");
	for (int k = 0; k < w->n; k++)
		r->weights[k] = 1;
	snprintf(r->how, sizeof(r->how), "mbind MPOL_INTERLEAVE over the nodes, faulted in before measuring");
	w->interleave = w->nrows - 1;
	r = new_row(w, PH_WIK_KERNEL, "kernel");
	for (int k = 0; k < w->n; k++)
		r->weights[k] = kernel_weight(w, k);
	snprintf(r->how, sizeof(r->how),
		 "mbind MPOL_WEIGHTED_INTERLEAVE over the nodes, the weights sysfs holds (read, never written)");
	if (w->wi_err) {
		r->skipped = true;
		snprintf(r->why, sizeof(r->why), "%s", w->wi_why);
	}
}

/* The node's bandwidth measured alone (GB/s), NAN when not measured. */
static double node_bw(const struct ph_wi *w, int node)
{
	for (int i = 0; i < w->nrows; i++)
		if (w->rows[i].kind == PH_WIK_NODE && w->rows[i].node == node && !w->rows[i].skipped)
			return w->rows[i].bw.res.st.median;
	return NAN;
}

static void plan_proposal(struct ph_wi *w)
{
	double bw[PH_WL_MAX_NODES] = { 0 };
	int cand[16 * PH_WL_MAX_NODES], m;
	bool all = true;
	struct ph_wi_row *r;
	char text[64];

	for (int k = 0; k < w->n; k++) {
		bw[k] = node_bw(w, w->nodes[k]);
		all = all && bw[k] > 0;
	}
	wi_layout_propose(w->n, bw, w->proposal);
	r = new_row(w, PH_WIK_PROPOSED, "proposed");
	memcpy(r->weights, w->proposal, (size_t)w->n * sizeof(int));
	snprintf(r->how, sizeof(r->how),
		 "pagehop's round robin (each run of weight pages faulted under MPOL_BIND to its node), weights from each node's read bandwidth alone");
	if (!all) {
		r->skipped = true;
		snprintf(r->why, sizeof(r->why), "a node's bandwidth alone was not measured: no proposal");
		return;
	}
	m = wi_layout_candidates(w->n, w->proposal, (int)w->search + 1 > 16 ? 16 : (int)w->search + 1, cand);
	for (int i = 0, j = 0; i < m && j < (int)w->search; i++) {
		char name[32];

		if (!memcmp(&cand[i * w->n], w->proposal, (size_t)w->n * sizeof(int)))
			continue;
		snprintf(name, sizeof(name), "search%d", ++j);
		r = new_row(w, PH_WIK_SEARCH, name);
		memcpy(r->weights, &cand[i * w->n], (size_t)w->n * sizeof(int));
		wi_layout_text(w->n, r->weights, text, sizeof(text));
		snprintf(r->how, sizeof(r->how),
			 "pagehop's round robin (each run of weight pages faulted under MPOL_BIND to its node), weights %s near the proposal",
			 text);
	}
}

static void ratios(struct ph_wi *w)
{
	const struct ph_wi_row *il = w->interleave >= 0 && !w->rows[w->interleave].skipped ?
		&w->rows[w->interleave] : NULL;
	const struct ph_wi_row *dr = w->dram >= 0 && !w->rows[w->dram].skipped ? &w->rows[w->dram] : NULL;

	for (int i = 0; i < w->nrows; i++) {
		struct ph_wi_row *r = &w->rows[i];
		static const struct ratio_ci none = { NAN, NAN, NAN };

		r->vs_interleave = r->vs_dram = none;
		if (r->skipped)
			continue;
		/* A reference against itself is no gain: left empty. */
		if (il && r != il)
			ratio_ci_medians(r->bw.res.samples, r->bw.res.n, il->bw.res.samples, il->bw.res.n,
					 RATIO_CI_SEED, RATIO_CI_RESAMPLES, &r->vs_interleave);
		if (dr && r != dr)
			ratio_ci_medians(r->bw.res.samples, r->bw.res.n, dr->bw.res.samples, dr->bw.res.n,
					 RATIO_CI_SEED, RATIO_CI_RESAMPLES, &r->vs_dram);
		r->shown_il = ratio_ci_shown(&r->vs_interleave);
		r->shown_dram = ratio_ci_shown(&r->vs_dram);
	}
}

static int wi_measure(void *state, struct ph_session *s)
{
	struct ph_wi *w = state;
	int rc = 0, measured = 0, first;

	plan_rows(w);
	progress_begin(w->nrows + 1 + (int)w->search, "interleave");
	for (int pass = 0; pass < 2; pass++) {
		first = pass ? w->nrows : 0;
		if (pass)
			plan_proposal(w);
		for (int i = first; i < w->nrows && !ph_interrupted; i++) {
			struct ph_wi_row *r = &w->rows[i];
			int err;

			if (r->skipped)
				continue;
			progress_step("%s", r->name);
			err = run_layout(w, s, r);
			if (!err)
				measured++;
			else if (!rc)
				rc = err;
			/* Bad usage (--threads beyond the node's CPUs) is the same for every layout: said once. */
			if (err == PH_EXIT_USAGE)
				return err;
		}
	}
	ratios(w);
	if (!measured)
		return rc ? rc : PH_EXIT_UNSUPPORTED;
	return rc == PH_EXIT_INTERRUPTED ? rc : rc == PH_EXIT_FAIL ? rc : 0;
}

static bool wi_measured(const void *state)
{
	const struct ph_wi *w = state;

	for (int i = 0; i < w->nrows; i++)
		if (!w->rows[i].skipped)
			return true;
	return false;
}

static void ratio_cells(struct ph_table *t, int row, const char *p, const struct ratio_ci *c,
			enum ratio_shown sh, bool skipped)
{
	char col[48];

	if (skipped || isnan(c->value))
		return;
	snprintf(col, sizeof(col), "%s", p);
	table_num(t, row, col, c->value, "%.3f");
	snprintf(col, sizeof(col), "%s_lo", p);
	table_num(t, row, col, c->lo, "%.3f");
	snprintf(col, sizeof(col), "%s_hi", p);
	table_num(t, row, col, c->hi, "%.3f");
	snprintf(col, sizeof(col), "%s_shown", p);
	table_str(t, row, col, sh == RATIO_NO_EFFECT ? "cannot tell" : ratio_shown_name(sh));
}

/* What r lays its memory over, with each node's kind: "node 2 (CXL) alone", "0 (DRAM), 2 (CXL)". */
static void over_text(const struct ph_wi *w, const struct ph_wi_row *r, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = 0;
	for (int k = 0; k < w->n && at < len; k++) {
		int m = 0;

		if (r->kind == PH_WIK_NODE && w->nodes[k] == r->node)
			m = snprintf(buf, len, "node %d (%s) alone", r->node, cxl_node_kind_name(w->kind[k].kind));
		else if (r->kind != PH_WIK_NODE)
			m = snprintf(buf + at, len - at, "%s%d (%s)", k ? ", " : "", w->nodes[k],
				     cxl_node_kind_name(w->kind[k].kind));
		if (m < 0)
			break;
		at += (size_t)m;
	}
}

static void nodes_table(const struct ph_wi *w, struct ph_doc *doc)
{
	struct ph_table *t = doc_add_table(doc, "nodes", "the nodes the layouts lay the memory over, and what each is");

	table_add_col(t, "node");
	table_add_col(t, "kind");
	table_add_col(t, "cxl_regions");
	table_add_col(t, "cpu_node");
	table_add_col(t, "kind_from");
	table_detail(t, "kind_from");
	for (int k = 0; k < w->n; k++) {
		int row = table_add_row(t);

		table_int(t, row, "node", w->nodes[k]);
		table_str(t, row, "kind", cxl_node_kind_name(w->kind[k].kind));
		if (w->kind[k].regions[0])
			table_str(t, row, "cxl_regions", w->kind[k].regions);
		table_bool(t, row, "cpu_node", w->nodes[k] == w->cpu_node);
		table_str(t, row, "kind_from", w->kind[k].how);
	}
}

static void layouts_table(const struct ph_wi *w, struct ph_session *s, struct ph_doc *doc)
{
	struct ph_table *t = doc_add_table(doc, "layouts", "read bandwidth per layout of the memory over the nodes");
	static const char *const cols[] = {
		"gain_vs_interleave", "gain_vs_interleave_lo", "gain_vs_interleave_hi", "gain_vs_interleave_shown",
		"gain_vs_dram", "gain_vs_dram_lo", "gain_vs_dram_hi", "gain_vs_dram_shown",
		"pages", "counts_match", "how", "skipped",
	};
	char buf[512];

	table_add_col(t, "layout");
	table_add_col(t, "over");
	table_add_col(t, "weights");
	bandwidth_add_cols(t, "");
	for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
		table_add_col(t, cols[i]);
	table_add_col(t, "cpu_node");
	table_detail(t, "how pages cpu_node");
	for (int i = 0; i < w->nrows; i++) {
		const struct ph_wi_row *r = &w->rows[i];
		int row = table_add_row(t);

		table_str(t, row, "layout", r->name);
		over_text(w, r, buf, sizeof(buf));
		table_str(t, row, "over", buf);
		weights_of(w, r->weights, buf, sizeof(buf));
		table_str(t, row, "weights", buf);
		table_str(t, row, "how", r->how);
		table_int(t, row, "cpu_node", w->cpu_node);
		if (r->skipped) {
			table_str(t, row, "skipped", r->why);
			continue;
		}
		bandwidth_fill(t, row, "", &r->bw);
		ratio_cells(t, row, "gain_vs_interleave", &r->vs_interleave, r->shown_il, r->skipped);
		ratio_cells(t, row, "gain_vs_dram", &r->vs_dram, r->shown_dram, r->skipped);
		table_int(t, row, "pages", (long long)r->npages);
		table_bool(t, row, "counts_match", r->counts_match);
	}
	(void)s;
}

static void pages_table(const struct ph_wi *w, struct ph_doc *doc)
{
	struct ph_table *t = doc_add_table(doc, "pages",
					   "each layout's 4 KiB pages per node, counted back by move_pages, against its weights");
	static const char *const cols[] = {
		"layout", "node", "weight", "expected_pages", "counted_pages", "expected_is", "elsewhere_pages", "match",
		"moved",
	};

	for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
		table_add_col(t, cols[i]);
	for (int i = 0; i < w->nrows; i++) {
		const struct ph_wi_row *r = &w->rows[i];

		if (r->skipped)
			continue;
		if (r->kind == PH_WIK_NODE) {
			int row = table_add_row(t);

			table_str(t, row, "layout", r->name);
			table_int(t, row, "node", r->node);
			table_int(t, row, "expected_pages", (long long)r->npages);
			table_int(t, row, "counted_pages", (long long)r->node_pages);
			table_str(t, row, "expected_is", "exact");
			table_int(t, row, "elsewhere_pages", (long long)r->elsewhere);
			table_bool(t, row, "match", r->counts_match);
			table_bool(t, row, "moved", r->moved);
			continue;
		}
		for (int k = 0; k < w->n; k++) {
			int row = table_add_row(t);

			table_str(t, row, "layout", r->name);
			table_int(t, row, "node", w->nodes[k]);
			table_int(t, row, "weight", r->weights[k]);
			table_int(t, row, "expected_pages", (long long)r->expected[k]);
			table_int(t, row, "counted_pages", (long long)r->counted[k]);
			table_str(t, row, "expected_is", r->exact ? "exact" : "within one cycle of weights");
			table_int(t, row, "elsewhere_pages", (long long)r->elsewhere);
			table_bool(t, row, "match", r->counts_match);
			table_bool(t, row, "moved", r->moved);
		}
	}
}

/*
 * The measured layout of the highest median, and whether its CI clears
 * the runner-up's: otherwise which of them is best cannot be told.
 */
static void best_layout(const struct ph_wi *w, struct ph_section *sec)
{
	const struct ph_wi_row *best = NULL, *next = NULL;

	for (int i = 0; i < w->nrows; i++) {
		const struct ph_wi_row *r = &w->rows[i];

		if (r->skipped)
			continue;
		if (!best || r->bw.res.st.median > best->bw.res.st.median) {
			next = best;
			best = r;
		} else if (!next || r->bw.res.st.median > next->bw.res.st.median) {
			next = r;
		}
	}
	if (!best)
		return;
	section_str(sec, "best_layout", best->name);
	if (next) {
		struct ratio_ci c;

		ratio_ci_medians(best->bw.res.samples, best->bw.res.n, next->bw.res.samples,
				 next->bw.res.n, RATIO_CI_SEED, RATIO_CI_RESAMPLES, &c);
		section_str(sec, "runner_up", next->name);
		section_str(sec, "best_vs_runner_up", ratio_ci_shown(&c) == RATIO_ABOVE ?
			    "above 1: the best" : "cannot tell: the CI of their ratio holds 1 or is missing");
	}
}

static struct ph_doc *wi_doc(void *state, struct ph_session *s, int *rc)
{
	struct ph_wi *w = state;
	struct ph_doc *doc = doc_new("interleave");
	struct ph_section *sec;
	char buf[512];
	int sysw[PH_WL_MAX_NODES];

	nodes_table(w, doc);
	layouts_table(w, s, doc);
	pages_table(w, doc);
	sec = doc_add_section(doc, "interleave", "interleave");
	section_int(sec, "cpu_node", w->cpu_node);
	weights_of(w, w->proposal, buf, sizeof(buf));
	section_str(sec, "proposed_weights", buf);
	section_str(sec, "weighted_interleave", w->wi_err ? w->wi_why :
		    "MPOL_WEIGHTED_INTERLEAVE taken by this kernel (mbind probe)");
	if (w->sys.present) {
		for (int k = 0; k < w->n; k++)
			sysw[k] = w->sys.weight[k];
		weights_of(w, sysw, buf, sizeof(buf));
		section_str(sec, "sysfs_weights", buf);
	} else {
		section_str(sec, "sysfs_weights", "none: " PH_WI_SYSFS " absent");
	}
	best_layout(w, sec);
	section_str(sec, "sysfs", "read only: pagehop never writes the weights");
	section_str(sec, "node_kind",
		    "CXL: a region of /sys/bus/cxl/devices has its memory on the node (its memory blocks' node link); DRAM: the node's cpulist names CPUs; CPU-less: memory, no CPUs, no CXL region found; unknown: sysfs could not tell");
	section_str(sec, "kernel_placement",
		    "page i of a VMA goes to the node whose share of each cycle of sum(weights) holds i mod sum, i the page's offset (mm/mempolicy.c)");
	section_str(sec, "proposal",
		    "reduce_interleave_weights()'s arithmetic on each node's read bandwidth alone (MB/s, the fastest scaled to 100000 at most)");
	section_str(sec, "search", "the proposal with one weight one up or one down, reduced by their gcd, at most --search of them");
	section_str(sec, "counts",
		    "every layout's pages per node by move_pages after laying out: a node alone and pagehop's round robin exactly, the kernel's within one cycle of weights of the share; counted again after measuring (moved: they differ)");
	section_str(sec, "gain",
		    "median / median of interleave or dram with a 95% bootstrap CI; cannot tell when the CI holds 1");
	section_str(sec, "sample", bandwidth_method);
	session_describe(s, doc);
	if (w->mismatches && (!*rc || *rc == PH_EXIT_OK))
		*rc = PH_EXIT_FAIL;
	return doc;
}

static void wi_free(void *state, struct ph_session *s)
{
	struct ph_wi *w = state;

	for (int i = 0; i < w->nrows; i++)
		bandwidth_free(&w->rows[i].bw);
	free(w->rows);
	wi_sysfs_free(&w->sys);
	if (w->nodes_given)
		numa_bitmask_free(w->nodes_given);
	bandwidth_study_free(&w->kernel, s);
	memset(w, 0, sizeof(*w));
}

const struct ph_steps wi_steps = {
	.size = sizeof(struct ph_wi),
	.plan = wi_plan,
	.measure = wi_measure,
	.measured = wi_measured,
	.document = wi_doc,
	.free = wi_free,
};
