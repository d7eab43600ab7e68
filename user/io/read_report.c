// SPDX-License-Identifier: GPL-2.0-only
/*
 * read_report.c - any saved pagehop document as the report's model
 * (report.h): provenance, verdict, every matrix it holds, and the curves
 * its kind has.  What a kind draws as curves is one row of curve_specs[]:
 * a study with a curve (scaling, loaded latency) adds a row, not code.
 */
#include "report.h"
#include "report_json.h"
#include "read_json.h"
#include "read_text.h"
#include "util.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const rep_prov_keys[REP_NPROV] = {
	"host", "kernel", "cpu", "microcode", "bios", "time_utc", "command_line", "version",
};

static const char *const *known_kinds;
static size_t nknown_kinds;

void report_set_kinds(const char *const *kinds, size_t n)
{
	known_kinds = kinds;
	nknown_kinds = n;
}

/*
 * Curves from a table of the document: one series per value of group (or
 * of its columns together, names separated by spaces), y (with its CI
 * columns lo and hi, when present) against x times xscale.
 */
struct curve_spec {
	const char *kind, *table, *group, *x, *y, *lo, *hi;
	const char *title, *xlabel, *ylabel;
	double xscale;
	bool x_bytes;
	bool x_cat;		/* x is a name (a pattern, a kernel): one place each, in the order met */
	const char *only, *only_val;	/* when set: only the rows whose column only is only_val (as text: "true") */
	/* The rows below that need them set these by name. */
	bool x_log2, y_log2;	/* x, y numbers on a log2 scale */
	bool cdf;		/* y a count per row: drawn as the running share of its series' total */
	const char *x0;		/* cdf: the column of a series' first row where its share is 0 (its lower edge) */
	bool wide;		/* a row per series, a point per column p<N>_ns (x "p<N>"), in order; x unused */
	const char *ci_at;	/* wide: the column whose CI lo and hi are */
	const char *dist;	/* the distribution table this chart draws: its caption says what a sample is */
	const char *name_as;	/* a series named this word and its group's values: "cell 0,1" */
};

/*
 * A figure's distribution (--percentiles, --histogram), for kind k whose
 * tables k_dist and k_histogram have a row per figure keyed by key (what
 * names one figure: a pattern, a mix).  The histogram as its cumulative
 * share rather than each bucket's: a CDF needs no bucket width to read, a
 * percentile is read straight off its y axis, and curves of different
 * sample counts compare directly; each point at its bucket's upper edge,
 * where the share below is exact (and the first bucket's lower edge at 0).  Its linear y axis squeezes the tail
 * near 1: the percentiles beside it, on a log2 axis, show the tail.
 */
#define DIST_CURVES(k, key, per, name)						\
	{ .kind = k, .table = k "_histogram", .group = key, .x = "hi_ns", .y = "count",	\
	  .title = "latency distribution (cumulative), one curve per " per,	\
	  .xlabel = "latency, ns (log2 scale), at bucket edges: the first lo_ns, then each hi_ns", \
	  .ylabel = "share of the samples below x", .xscale = 1, .x_log2 = true,	\
	  .cdf = true, .x0 = "lo_ns", .dist = k "_dist", .name_as = name },	\
	{ .kind = k, .table = k "_dist", .group = key, .lo = "dist_ci_lo_ns", .hi = "dist_ci_hi_ns", \
	  .title = "latency percentiles, one curve per " per,			\
	  .xlabel = "percentile of the samples", .ylabel = "latency, ns (log2 scale)",	\
	  .xscale = 1, .x_cat = true, .y_log2 = true, .wide = true, .ci_at = "p50_ns", \
	  .dist = k "_dist", .name_as = name }

/* A row of the plain kind: y against x, one series per value of group. */
#define CURVE(k, t, g, xc, yc, l, h, ti, xl, yl, xs, bytes, cat, o, ov)			\
	{ .kind = k, .table = t, .group = g, .x = xc, .y = yc, .lo = l, .hi = h, .title = ti,	\
	  .xlabel = xl, .ylabel = yl, .xscale = xs, .x_bytes = bytes, .x_cat = cat, .only = o,	\
	  .only_val = ov }

static const struct curve_spec curve_specs[] = {
	CURVE("pages", "pages", "page_size", "ws_KiB", "rnd_lat_ns", "rnd_ci_lo_ns", "rnd_ci_hi_ns",
	  "random chase latency against working set, one curve per page size",
	  "working set (bytes, log2 scale)", "latency per load, ns (median)", 1024, true, false, NULL, NULL),
	CURVE("pages", "pages", "page_size", "ws_KiB", "tlb_lat_ns", "tlb_ci_lo_ns", "tlb_ci_hi_ns",
	  "TLB-local chase latency against working set, one curve per page size",
	  "working set (bytes, log2 scale)", "latency per load, ns (median)", 1024, true, false, NULL, NULL),
	CURVE("pages", "pages", "page_size", "ws_KiB", "read_bw_GBps", "read_ci_lo_GBps", "read_ci_hi_GBps",
	  "read bandwidth against working set, one curve per page size",
	  "working set (bytes, log2 scale)", "read bandwidth, GB/s (median)", 1024, true, false, NULL, NULL),
	CURVE("scale", "scale", "placement", "threads", "bw_GBps", "ci_lo_GBps", "ci_hi_GBps",
	  "aggregate bandwidth against threads, one curve per placement",
	  "threads", "bandwidth, GB/s (median)", 1, false, false, NULL, NULL),
	CURVE("loaded", "loaded", "mix", "bw_GBps", "lat_ns", "ci_lo_ns", "ci_hi_ns",
	  "loaded latency against the loaders' achieved bandwidth, one curve per traffic mix",
	  "achieved bandwidth of the loaders, GB/s", "chase latency, ns (median)", 1, false, false, NULL, NULL),
	CURVE("locks", "locks", "kind", "threads", "overhead_ns", "ci_lo_ns", "ci_hi_ns",
	  "lock overhead against threads, one curve per lock kind",
	  "threads", "overhead per acquisition, ns (median)", 1, false, false, NULL, NULL),
	CURVE("prefetch", "latency", "prefetchers_off", "pattern", "lat_ns", "ci_lo_ns", "ci_hi_ns",
	  "load latency per access pattern, one curve per prefetcher setting",
	  "access pattern", "latency per load, ns (median)", 1, false, true, NULL, NULL),
	CURVE("prefetch", "bandwidth", "prefetchers_off", "kernel", "bw_GBps", "ci_lo_GBps", "ci_hi_GBps",
	  "bandwidth per kernel, one curve per prefetcher setting",
	  "kernel", "bandwidth, GB/s (median)", 1, false, true, NULL, NULL),
	CURVE("goaround", "goaround", "kernel", "turn", "bw_GBps", "ci_lo_GBps", "ci_hi_GBps",
	  "aggregate bandwidth per turn, thread t streaming the block of thread t + turn",
	  "turn", "bandwidth, GB/s (median)", 1,
	  false, false, NULL, NULL),
	CURVE("hops", "hops", "level", "size_KiB", "lat_ns", "ci_lo", "ci_hi",
	  "chase latency against working set, one curve per hop level",
	  "working set (bytes, log2 scale)", "latency per load, ns (median)", 1024, true, false,
	  "figure", "latency"),
	CURVE("hops", "hops", "level", "size_KiB", "bw_GBps", "ci_lo", "ci_hi",
	  "read bandwidth against working set, one curve per hop level",
	  "working set (bytes, log2 scale)", "bandwidth, GB/s (median)", 1024, true, false,
	  "figure", "read"),
	CURVE("hops", "hops", "level", "size_KiB", "bw_GBps", "ci_lo", "ci_hi",
	  "write bandwidth against working set, one curve per hop level",
	  "working set (bytes, log2 scale)", "bandwidth, GB/s (median)", 1024, true, false,
	  "figure", "write"),
	CURVE("hops", "hops", "level", "size_KiB", "bw_GBps", "ci_lo", "ci_hi",
	  "triad bandwidth against working set, one curve per hop level",
	  "working set (bytes, log2 scale)", "bandwidth, GB/s (median)", 1024, true, false,
	  "figure", "triad"),
	/* A point per measured range; the ranges that stray (stray: bw, lat or bw,lat) in series of their own. */
	CURVE("scan", "scan", "stray", "range_lo", "bw_GBps", "bw_ci_lo", "bw_ci_hi",
	  "read bandwidth per physical range, one series per stray mark (no, bw, lat, bw,lat)",
	  "physical range (its start)", "read bandwidth, GB/s (median)", 1, false, true, "measured", "true"),
	CURVE("scan", "scan", "stray", "range_lo", "lat_ns", "lat_ci_lo", "lat_ci_hi",
	  "chase latency per physical range, one series per stray mark (no, bw, lat, bw,lat)",
	  "physical range (its start)", "latency per load, ns (median)", 1, false, true, "measured", "true"),
	DIST_CURVES("chase", "pattern", "pattern", NULL),
	DIST_CURVES("loaded", "mix delay", "traffic mix and delay", NULL),
	DIST_CURVES("matrix", "cpu_node mem_node", "cell (CPU node, memory node)", "cell"),
};

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* A scalar as text ("true", "12.5", the string itself); NULL for null, an object or an array. */
static char *scalar_text(json_object *v)
{
	if (!v || json_object_is_type(v, json_type_object) || json_object_is_type(v, json_type_array))
		return NULL;
	return xstrdup(json_object_get_string(v));
}

static const char *matrix_title(const char *key, const char *metric)
{
	static const char *const names[][2] = {
		{ "latency_ns", "latency, ns" },
		{ "bandwidth_read_GBps", "read bandwidth, GB/s" },
		{ "bandwidth_triad_GBps", "triad bandwidth, GB/s" },
		{ "distances", "firmware SLIT (recorded with the measurement)" },
		{ "measured_distances", "measured distances" },
		{ "proposed_slit", "proposed SLIT" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(key, names[i][0]))
			return names[i][1];
	return key == metric ? key : NULL;
}

/* {"metric", "rows", "columns", "values"}: a matrix; false for anything else. */
static bool read_matrix(const char *key, json_object *o, struct rep_matrix *m)
{
	json_object *rows = get(o, "rows"), *cols = get(o, "columns"), *vals = get(o, "values");
	const char *metric = get_str(o, "metric"), *t;
	size_t nr, nc;

	if (!metric || !rows || !cols || !vals || !json_object_is_type(rows, json_type_array) ||
	    !json_object_is_type(cols, json_type_array) || !json_object_is_type(vals, json_type_array))
		return false;
	nr = json_object_array_length(rows);
	nc = json_object_array_length(cols);
	if (!nr || !nc || nr > 1024 || nc > 1024 || json_object_array_length(vals) != nr)
		return false;
	memset(m, 0, sizeof(*m));
	t = matrix_title(key, metric);
	m->title = t ? xstrdup(t) : xasprintf("%s (%s)", key, metric);
	m->unit = xstrdup(!strcmp(metric, "latency_ns") ? "ns" : !strncmp(metric, "bandwidth", 9) ? "GB/s" : "");
	m->high_good = !strncmp(metric, "bandwidth", 9);
	m->row_label = "CPU node";
	m->col_label = "memory node";
	m->nr = (int)nr;
	m->nc = (int)nc;
	m->rows = xcalloc(nr, sizeof(int));
	m->cols = xcalloc(nc, sizeof(int));
	m->val = xcalloc(nr * nc, sizeof(double));
	m->mark = xcalloc(nr * nc, sizeof(bool));
	for (size_t i = 0; i < nr; i++)
		m->rows[i] = json_object_get_int(json_object_array_get_idx(rows, i));
	for (size_t i = 0; i < nc; i++)
		m->cols[i] = json_object_get_int(json_object_array_get_idx(cols, i));
	for (size_t r = 0; r < nr; r++) {
		json_object *row = json_object_array_get_idx(vals, r);

		for (size_t c = 0; c < nc; c++) {
			json_object *x = row && json_object_is_type(row, json_type_array)
					 ? json_object_array_get_idx(row, c) : NULL;

			m->val[r * nc + c] = x && (json_object_is_type(x, json_type_int) ||
						   json_object_is_type(x, json_type_double))
					     ? json_object_get_double(x) : NAN;
		}
	}
	return true;
}

static int index_of(const int *ids, int n, int id)
{
	for (int i = 0; i < n; i++)
		if (ids[i] == id)
			return i;
	return -1;
}


/*
 * pagehop slit: the SLIT it compared with, beside the measured distances,
 * built from its magnitude table (each remote cell's SLIT value and whether
 * the measurement is within tolerance) and its local table (the diagonal);
 * the cells outside tolerance marked on both.  The margin in words.
 */
static void slit_extras(json_object *root, struct rep_doc *d)
{
	json_object *mag = get(root, "magnitude"), *loc = get(root, "local");
	struct rep_matrix *meas = NULL, *fw;
	int at = 0, out = 0, n = 0, worst = -1;
	double worst_err = 0;

	for (int i = 0; i < d->nm; i++)
		if (!strcmp(d->m[i].title, "measured distances")) {
			meas = &d->m[i];
			at = i + 1;
		}
	if (!meas || !mag || !json_object_is_type(mag, json_type_array))
		return;
	/* The analysed input after the distances and SLITs, which are the point. */
	for (int i = 0; i + 1 < d->nm; i++)
		if (!strncmp(d->m[i].title, "input", 5)) {
			struct rep_matrix in = d->m[i];

			memmove(d->m + i, d->m + i + 1, (size_t)(d->nm - 1 - i) * sizeof(*d->m));
			d->m[d->nm - 1] = in;
			at -= i < at;
			break;
		}
	fw = add_matrix(d, at);
	meas = &d->m[at - 1];
	fw->title = xstrdup("SLIT compared with (firmware, or as given)");
	fw->row_label = meas->row_label;
	fw->col_label = meas->col_label;
	fw->unit = xstrdup("");
	fw->nr = meas->nr;
	fw->nc = meas->nc;
	fw->rows = xcalloc((size_t)fw->nr, sizeof(int));
	fw->cols = xcalloc((size_t)fw->nc, sizeof(int));
	memcpy(fw->rows, meas->rows, (size_t)fw->nr * sizeof(int));
	memcpy(fw->cols, meas->cols, (size_t)fw->nc * sizeof(int));
	fw->val = xcalloc((size_t)(fw->nr * fw->nc), sizeof(double));
	fw->mark = xcalloc((size_t)(fw->nr * fw->nc), sizeof(bool));
	for (int i = 0; i < fw->nr * fw->nc; i++)
		fw->val[i] = NAN;
	for (size_t i = 0; loc && json_object_is_type(loc, json_type_array) && i < json_object_array_length(loc); i++) {
		json_object *o = json_object_array_get_idx(loc, i);
		int r = index_of(fw->rows, fw->nr, (int)get_num(o, "cpu_node"));
		int c = index_of(fw->cols, fw->nc, (int)get_num(o, "local_mem_node"));

		if (r >= 0 && c >= 0)
			fw->val[r * fw->nc + c] = get_num(o, "local_dist");
	}
	for (size_t i = 0; i < json_object_array_length(mag); i++) {
		json_object *o = json_object_array_get_idx(mag, i), *w = get(o, "within");
		int r = index_of(fw->rows, fw->nr, (int)get_num(o, "cpu_node"));
		int c = index_of(fw->cols, fw->nc, (int)get_num(o, "mem_node"));
		double e = get_num(o, "rel_err_pct");

		if (r < 0 || c < 0)
			continue;
		fw->val[r * fw->nc + c] = get_num(o, "slit");
		n++;
		if (w && json_object_is_type(w, json_type_boolean) && !json_object_get_boolean(w)) {
			fw->mark[r * fw->nc + c] = meas->mark[r * meas->nc + c] = true;
			out++;
		}
		if (isfinite(e) && fabs(e) > worst_err) {
			worst_err = fabs(e);
			worst = (int)i;
		}
	}
	if (worst >= 0) {
		json_object *o = json_object_array_get_idx(mag, (size_t)worst);

		d->margin = xasprintf("%d of %d remote cells outside +-%g%% of the SLIT; the largest deviation %+.1f%% "
				      "(CPU node %d, memory node %d: measured %.4g, SLIT %.4g)",
				      out, n, get_num(get(root, "verdict"), "tolerance_pct"),
				      get_num(o, "rel_err_pct"), (int)get_num(o, "cpu_node"),
				      (int)get_num(o, "mem_node"), get_num(o, "measured_dist"), get_num(o, "slit"));
	}
}

/* pagehop check: the finding furthest from its reference. */
static void check_margin(json_object *root, struct rep_doc *d)
{
	json_object *f = get(root, "findings"), *worst = NULL;
	double w = -1;

	for (size_t i = 0; f && json_object_is_type(f, json_type_array) && i < json_object_array_length(f); i++) {
		json_object *o = json_object_array_get_idx(f, i);
		double e = fabs(get_num(o, "dev_pct"));

		if (isfinite(e) && e > w) {
			w = e;
			worst = o;
		}
	}
	if (worst)
		d->margin = xasprintf("the furthest figure: %s on node %d, %+.1f%% from its reference %.4g "
				      "(limits %.4g to %.4g; %s)", get_str(worst, "figure") ?: "?",
				      (int)get_num(worst, "node"), get_num(worst, "dev_pct"),
				      get_num(worst, "ref"), get_num(worst, "limit_lo"),
				      get_num(worst, "limit_hi"), get_str(worst, "status") ?: "?");
}

static void read_verdict(json_object *root, struct rep_doc *d)
{
	json_object *v = get(root, "verdict"), *e = get(v, "exit_code"), *checks = get(root, "checks");

	if (!v)
		return;
	d->status = dup_or_null(get_str(v, "status"));
	d->summary = dup_or_null(get_str(v, "summary") ?: get_str(v, "line"));
	if (e && json_object_is_type(e, json_type_int)) {
		d->exit_code = json_object_get_int64(e);
		d->has_exit = true;
	}
	for (size_t i = 0; checks && json_object_is_type(checks, json_type_array) &&
			   i < json_object_array_length(checks); i++) {
		json_object *o = json_object_array_get_idx(checks, i);
		char **slot = xappend(&d->checks, &d->nchecks, sizeof(char *));

		*slot = xasprintf("%s: %s: %s", get_str(o, "check") ?: "?", get_str(o, "result") ?: "?",
				  get_str(o, "detail") ?: "");
	}
}

/* Whether row's column cs->only reads cs->only_val: a string as it is, a boolean or number as JSON writes it. */
static bool only_row(json_object *row, const struct curve_spec *cs)
{
	char *v = scalar_text(get(row, cs->only));
	bool yes = v && !strcmp(v, cs->only_val);

	free(v);
	return yes;
}

/*
 * The name of row's series: each column of group it has, a string as it
 * is, a number named with its column ("level 1", "read delay 100"); with
 * cs->name_as, that word and the values, "cell 0,1".
 */
static void series_name(json_object *row, const struct curve_spec *cs, char *out, size_t size)
{
	char *copy = xstrdup(cs->group), *save = NULL;
	size_t at = cs->name_as ? (size_t)snprintf(out, size, "%s ", cs->name_as) : 0;
	bool first = true;

	if (!cs->name_as)
		out[0] = 0;
	for (char *k = strtok_r(copy, " ", &save); k && at < size; k = strtok_r(NULL, " ", &save)) {
		json_object *v = get(row, k);
		const char *str = get_str(row, k);

		if (!v)
			continue;
		if (cs->name_as)
			at += (size_t)snprintf(out + at, size - at, "%s%s", first ? "" : ",", json_object_get_string(v));
		else if (str)
			at += (size_t)snprintf(out + at, size - at, "%s%s", first ? "" : " ", str);
		else
			at += (size_t)snprintf(out + at, size - at, "%s%s %s", first ? "" : " ", k, json_object_get_string(v));
		first = false;
	}
	free(copy);
}

/* The series of ch that row belongs to, added when new. */
static struct rep_series *series_of(struct rep_chart *ch, json_object *row, const struct curve_spec *cs)
{
	char g[96];

	series_name(row, cs, g, sizeof(g));
	return rep_series_of(ch, g);
}

/* A percentile's column, "p99.9_ns": the name it is drawn under ("p99.9") into out. */
static bool pct_column(const char *col, char *out, size_t size)
{
	size_t n = strlen(col);

	if (n < 5 || col[0] != 'p' || strcmp(col + n - 3, "_ns") || n - 3 >= size ||
	    strspn(col + 1, "0123456789.") != n - 4)
		return false;
	snprintf(out, size, "%.*s", (int)(n - 3), col);
	return true;
}

/* A wide row: a point per percentile column it has a number in; lo and hi at column ci_at. */
static void wide_points(struct rep_chart *ch, json_object *row, const struct curve_spec *cs)
{
	struct rep_series *s = series_of(ch, row, cs);

	json_object_object_foreach(row, col, v) {
		char name[32];
		double y;

		if (!pct_column(col, name, sizeof(name)) || !json_number(v, &y))
			continue;
		rep_point(s, rep_category(ch, name), y,
			  cs->lo && !strcmp(col, cs->ci_at) ? get_num(row, cs->lo) : NAN,
			  cs->hi && !strcmp(col, cs->ci_at) ? get_num(row, cs->hi) : NAN);
	}
}

/* Each series' counts as the running share of its total: its empirical CDF at each x. */
static void to_cdf(struct rep_chart *ch)
{
	for (int k = 0; k < ch->ns; k++) {
		struct rep_series *s = &ch->s[k];
		double total = 0, below = 0;

		for (int i = 0; i < s->n; i++)
			total += isfinite(s->y[i]) ? s->y[i] : 0;
		for (int i = 0; i < s->n; i++) {
			below += isfinite(s->y[i]) ? s->y[i] : 0;
			s->y[i] = total > 0 ? below / total : NAN;
		}
	}
}

/*
 * What a distribution chart draws, in words taken from the document: what
 * a sample is (its method's dist_sample, in whichever section has it),
 * each figure's hops per sample, why one has no distribution, how many
 * samples at or below 0 the CDF cannot place, and, for the percentiles,
 * which of them has a CI.
 */
static char *dist_caption(json_object *root, const struct curve_spec *cs)
{
	json_object *t = get(root, cs->dist), *h = get(root, cs->table);
	const char *sample = NULL;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	const char *common = NULL;
	bool first = true, differ = false;
	size_t n, measured = 0;

	if (!f)
		return NULL;
	json_object_object_foreach(root, key, sec) {
		(void)key;
		if (!sample && sec && json_object_is_type(sec, json_type_object))
			sample = get_str(sec, "dist_sample");
	}
	if (sample)
		fprintf(f, "A sample, as the document's method says: %s.", sample);
	else
		fputs("The document does not say what a sample is.", f);
	n = t && json_object_is_type(t, json_type_array) ? json_object_array_length(t) : 0;
	/* One number when every figure has it (a matrix's cells), else each figure's. */
	for (size_t i = 0; i < n; i++) {
		json_object *row = json_object_array_get_idx(t, i), *hops = get(row, "hops_per_sample");

		if (get_str(row, "why_not") || !hops)
			continue;
		if (!common)
			common = json_object_get_string(hops);
		else if (strcmp(common, json_object_get_string(hops)))
			differ = true;
		measured++;
	}
	if (measured > 1 && !differ)
		fprintf(f, " Hops per sample: %s, every figure.", common);
	for (size_t i = 0; i < n && (measured < 2 || differ); i++) {
		json_object *row = json_object_array_get_idx(t, i), *hops = get(row, "hops_per_sample");
		char name[96];

		if (get_str(row, "why_not") || !hops)
			continue;
		series_name(row, cs, name, sizeof(name));
		fprintf(f, "%s %s %s", first ? " Hops per sample:" : ",", name, json_object_get_string(hops));
		first = false;
	}
	if (!first)
		fputs(".", f);
	for (size_t i = 0; i < n; i++) {
		json_object *row = json_object_array_get_idx(t, i);
		const char *why = get_str(row, "why_not");
		char name[96];

		series_name(row, cs, name, sizeof(name));
		if (why)
			fprintf(f, " %s: no distribution: %s.", name, why);
	}
	/* The bucket of samples <= 0 (a run shorter than the timer's cost): on no log axis, in every share. */
	for (size_t i = 0; cs->cdf && h && json_object_is_type(h, json_type_array) && i < json_object_array_length(h); i++) {
		json_object *row = json_object_array_get_idx(h, i);
		char name[96];

		if (!(get_num(row, cs->x) <= 0))
			continue;
		series_name(row, cs, name, sizeof(name));
		fprintf(f, " %s: %s samples at or below 0 ns (the timer's cost exceeded their run) are not on the log axis but counted in every share.",
			name, json_object_get_string(get(row, cs->y)));
	}
	if (cs->wide && cs->ci_at)
		fprintf(f, " Bars: the 95%% CI of %.*s alone (%s to %s); the document gives the other percentiles none.",
			(int)(strlen(cs->ci_at) - 3), cs->ci_at, cs->lo, cs->hi);
	fclose(f);
	return text;
}

/* The series of one curve spec, one per value of its group column(s), in the order met. */
static void read_curves(json_object *root, const struct curve_spec *cs, struct rep_doc *d)
{
	json_object *t = get(root, cs->table);
	struct rep_chart *ch;

	if (!t || !json_object_is_type(t, json_type_array) || !json_object_array_length(t))
		return;
	if (cs->only) {
		size_t i, n = json_object_array_length(t);

		for (i = 0; i < n; i++)
			if (only_row(json_object_array_get_idx(t, i), cs))
				break;
		if (i == n)
			return;		/* no row of this figure: no empty chart */
	}
	ch = xappend(&d->c, &d->nc, sizeof(*d->c));
	*ch = (struct rep_chart){ .title = cs->title, .xlabel = cs->xlabel, .ylabel = cs->ylabel,
				  .x_bytes = cs->x_bytes, .x_log2 = cs->x_log2, .y_log2 = cs->y_log2 };
	for (size_t i = 0; i < json_object_array_length(t); i++) {
		json_object *row = json_object_array_get_idx(t, i);
		struct rep_series *s;

		if (cs->only && !only_row(row, cs))
			continue;
		if (cs->wide) {
			wide_points(ch, row, cs);
			continue;
		}
		s = series_of(ch, row, cs);
		/* No sample lies below the first bucket: the curve starts from 0 at its lower edge. */
		if (cs->x0 && !s->n)
			rep_point(s, get_num(row, cs->x0) * cs->xscale, 0, NAN, NAN);
		rep_point(s, cs->x_cat ? rep_category(ch, get_str(row, cs->x) ?: "?") : get_num(row, cs->x) * cs->xscale,
			  get_num(row, cs->y), cs->lo ? get_num(row, cs->lo) : NAN,
			  cs->hi ? get_num(row, cs->hi) : NAN);
	}
	if (cs->cdf)
		to_cdf(ch);
	if (cs->dist)
		ch->caption = dist_caption(root, cs);
}

/* "0.1.0" and "0.1" are one version: major and minor. */
static bool same_version(const char *a, const char *b)
{
	unsigned am, an, bm, bn;

	return sscanf(a, "%u.%u", &am, &an) == 2 && sscanf(b, "%u.%u", &bm, &bn) == 2 && am == bm && an == bn;
}

static void read_known(json_object *root, struct rep_doc *d)
{
	json_object_object_foreach(root, key, val) {
		struct rep_matrix m;

		if (val && json_object_is_type(val, json_type_object) && read_matrix(key, val, &m)) {
			*add_matrix(d, d->nm) = m;
		}
	}
	read_verdict(root, d);
	if (!strcmp(d->kind, "slit"))
		slit_extras(root, d);
	if (!strcmp(d->kind, "check"))
		check_margin(root, d);
	if (!strcmp(d->kind, "c2c"))
		c2c_heatmap(root, d);
	if (!strcmp(d->kind, "cxl"))
		cxl_charts(root, d);
	for (size_t i = 0; i < ARRAY_SIZE(curve_specs); i++)
		if (!strcmp(curve_specs[i].kind, d->kind))
			read_curves(root, &curve_specs[i], d);
	read_where(root, d);
	d->phases = read_phases(get(root, "time"));
}

/*
 * What the reader takes from a document, checked before it takes it: a
 * value of the wrong type would otherwise be drawn as missing, or as 0,
 * without a word.  The first fault, as "FILE: where: expected what, got
 * what"; -EINVAL.
 */
static const char *type_word(json_object *v)
{
	switch (json_object_get_type(v)) {
	case json_type_null: return "null";
	case json_type_boolean: return "a boolean";
	case json_type_int:
	case json_type_double: return "a number";
	case json_type_string: return "a string";
	case json_type_array: return "an array";
	case json_type_object: return "an object";
	}
	return "something else";
}

static int shape_err(char *err, size_t errlen, const char *path, json_object *got, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static int shape_err(char *err, size_t errlen, const char *path, json_object *got, const char *fmt, ...)
{
	char where[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(where, sizeof(where), fmt, ap);
	va_end(ap);
	return read_err(err, errlen, "%s: %s, got %s", path, where, type_word(got));
}

/*
 * Every member of the document that is a matrix (an object with a
 * "metric"): node ids for rows and columns, as many rows of as many numbers
 * or nulls as they say; and the provenance's fields scalars.
 */
static int check_shapes(const char *path, json_object *root, char *err, size_t errlen)
{
	static const char *const named[] = { "tool", "subcommand", "version" };
	json_object *prov = get(root, "provenance");

	if (prov && !json_object_is_type(prov, json_type_object))
		return shape_err(err, errlen, path, prov, "provenance: expected an object");
	/* What the page shows of it: scalars; what names the document: strings. */
	for (int i = 0; i < REP_NPROV; i++) {
		json_object *pv = get(prov, rep_prov_keys[i]);

		if (pv && (json_object_is_type(pv, json_type_object) || json_object_is_type(pv, json_type_array)))
			return shape_err(err, errlen, path, pv, "provenance.%s: expected a string, a number or null",
					 rep_prov_keys[i]);
	}
	for (size_t i = 0; i < ARRAY_SIZE(named); i++) {
		json_object *pv = get(prov, named[i]);

		if (pv && !json_object_is_type(pv, json_type_string))
			return shape_err(err, errlen, path, pv, "provenance.%s: expected a string", named[i]);
	}
	json_object_object_foreach(root, key, val) {
		json_object *metric = get(val, "metric"), *ax[2], *vals;
		static const char *const axis[2] = { "rows", "columns" };
		size_t n[2];
		double x;

		if (!metric)
			continue;
		if (!json_object_is_type(metric, json_type_string))
			return shape_err(err, errlen, path, metric, "%s.metric: expected a string", key);
		for (int a = 0; a < 2; a++) {
			ax[a] = get(val, axis[a]);
			if (!ax[a] || !json_object_is_type(ax[a], json_type_array) ||
			    !(n[a] = json_object_array_length(ax[a])) || n[a] > PH_MAX_NODES)
				return shape_err(err, errlen, path, ax[a], "%s.%s: expected an array of 1 to %d node ids",
						 key, axis[a], PH_MAX_NODES);
			for (size_t i = 0; i < n[a]; i++) {
				int64_t id;

				if (!json_int(json_object_array_get_idx(ax[a], i), 0, PH_MAX_NODES - 1, &id))
					return shape_err(err, errlen, path, json_object_array_get_idx(ax[a], i),
							 "%s.%s[%zu]: expected a node id, 0 to %d", key, axis[a], i,
							 PH_MAX_NODES - 1);
			}
		}
		vals = get(val, "values");
		if (!vals || !json_object_is_type(vals, json_type_array) || json_object_array_length(vals) != n[0])
			return shape_err(err, errlen, path, vals, "%s.values: expected an array of %zu rows", key, n[0]);
		for (size_t r = 0; r < n[0]; r++) {
			json_object *row = json_object_array_get_idx(vals, r);

			if (!row || !json_object_is_type(row, json_type_array) || json_object_array_length(row) != n[1])
				return shape_err(err, errlen, path, row, "%s.values[%zu]: expected an array of %zu numbers or nulls",
						 key, r, n[1]);
			for (size_t c = 0; c < n[1]; c++) {
				json_object *v = json_object_array_get_idx(row, c);

				if (v && !json_number(v, &x))
					return shape_err(err, errlen, path, v, "%s.values[%zu][%zu]: expected a number or null",
							 key, r, c);
			}
		}
	}
	return 0;
}

/* A field the reader takes from each row of a table (or from one object). */
enum field_type { F_NUM, F_STR, F_NAME, F_BOOL, F_INT, F_FLAG };

struct field_rule {
	const char *kind;	/* NULL: every kind */
	const char *table, *field;
	enum field_type type;
	bool one;		/* table is one object, not an array of them */
};

static const struct field_rule field_rules[] = {
	{ NULL, "verdict", "status", F_STR, true },
	{ NULL, "verdict", "summary", F_STR, true },
	{ NULL, "verdict", "line", F_STR, true },
	{ NULL, "verdict", "exit_code", F_INT, true },
	{ NULL, "checks", "check", F_STR, false },
	{ NULL, "checks", "result", F_STR, false },
	{ NULL, "checks", "detail", F_STR, false },
	{ "slit", "verdict", "tolerance_pct", F_NUM, true },
	{ "slit", "magnitude", "cpu_node", F_NUM, false },
	{ "slit", "magnitude", "mem_node", F_NUM, false },
	{ "slit", "magnitude", "slit", F_NUM, false },
	{ "slit", "magnitude", "rel_err_pct", F_NUM, false },
	{ "slit", "magnitude", "measured_dist", F_NUM, false },
	{ "slit", "magnitude", "within", F_BOOL, false },
	{ "slit", "local", "cpu_node", F_NUM, false },
	{ "slit", "local", "local_mem_node", F_NUM, false },
	{ "slit", "local", "local_dist", F_NUM, false },
	{ "check", "findings", "figure", F_STR, false },
	{ "check", "findings", "status", F_STR, false },
	{ "check", "findings", "node", F_NUM, false },
	{ "check", "findings", "dev_pct", F_NUM, false },
	{ "check", "findings", "ref", F_NUM, false },
	{ "check", "findings", "limit_lo", F_NUM, false },
	{ "check", "findings", "limit_hi", F_NUM, false },
	{ "c2c", "c2c", "cpu_a", F_NUM, false },
	{ "c2c", "c2c", "cpu_b", F_NUM, false },
	{ "c2c", "c2c", "lat_ns", F_NUM, false },
	{ "cxl", "cxl_explain", "node", F_NUM, false },
	{ "cxl", "cxl_explain", "access", F_NUM, false },
	{ "cxl", "cxl_explain", "figure", F_STR, false },
	{ "cxl", "cxl_explain", "device_cdat", F_NUM, false },
	{ "cxl", "cxl_explain", "link", F_NUM, false },
	{ "cxl", "cxl_explain", "generic_port", F_NUM, false },
	{ "cxl", "cxl_explain", "composed", F_NUM, false },
	{ "cxl", "cxl_explain", "kernel_node", F_NUM, false },
	{ "cxl", "cxl_explain", "verdict", F_STR, false },
	{ "cxl", "cxl_measured", "node", F_NUM, false },
	{ "cxl", "cxl_measured", "cpu_node", F_NUM, false },
	{ "cxl", "cxl_measured", "lat_ns", F_NUM, false },
	{ "cxl", "cxl_measured", "lat_ci_lo_ns", F_NUM, false },
	{ "cxl", "cxl_measured", "lat_ci_hi_ns", F_NUM, false },
	{ "cxl", "cxl_measured", "read_GBps", F_NUM, false },
	{ "cxl", "cxl_measured", "read_ci_lo_GBps", F_NUM, false },
	{ "cxl", "cxl_measured", "read_ci_hi_GBps", F_NUM, false },
	{ "cxl", "cxl_judge", "node", F_NUM, false },
	{ "cxl", "cxl_judge", "source", F_STR, false },
	{ "cxl", "cxl_judge", "entry", F_STR, false },
	{ "cxl", "cxl_judge", "figure", F_STR, false },
	{ "cxl", "cxl_judge", "table", F_NUM, false },
	{ "cxl", "cxl_judge", "verdict", F_STR, false },
	{ "cxl", "cxl_judge", "why", F_STR, false },
};

static const char *const field_want[] = {
	[F_NUM] = "a number or null", [F_STR] = "a string or null",
	[F_NAME] = "a string, a number or null", [F_BOOL] = "a boolean or null",
	[F_INT] = "an integer or null", [F_FLAG] = "a string, a boolean or null",
};

static bool field_ok(json_object *v, enum field_type t)
{
	double x;

	if (!v)
		return true;
	switch (t) {
	case F_NUM: return json_number(v, &x);
	case F_STR: return json_object_is_type(v, json_type_string);
	case F_NAME: return json_object_is_type(v, json_type_string) || json_number(v, &x);
	case F_BOOL: return json_object_is_type(v, json_type_boolean);
	case F_INT: return json_object_is_type(v, json_type_int) && json_number(v, &x);
	case F_FLAG: return json_object_is_type(v, json_type_string) || json_object_is_type(v, json_type_boolean);
	}
	return false;
}

/* table (an array of objects, or with one an object) has field of type t in each. */
static int check_field(const char *path, json_object *root, const char *table, const char *field,
		       enum field_type t, bool one, char *err, size_t errlen)
{
	json_object *tab = get(root, table);
	size_t n;

	if (!tab)
		return 0;
	if (one) {
		if (!json_object_is_type(tab, json_type_object))
			return shape_err(err, errlen, path, tab, "%s: expected an object", table);
		return field_ok(get(tab, field), t) ? 0
		       : shape_err(err, errlen, path, get(tab, field), "%s.%s: expected %s", table, field, field_want[t]);
	}
	if (!json_object_is_type(tab, json_type_array))
		return shape_err(err, errlen, path, tab, "%s: expected an array of objects", table);
	n = json_object_array_length(tab);
	for (size_t i = 0; i < n; i++) {
		json_object *row = json_object_array_get_idx(tab, i);

		if (!row || !json_object_is_type(row, json_type_object))
			return shape_err(err, errlen, path, row, "%s[%zu]: expected an object", table, i);
		if (!field_ok(get(row, field), t))
			return shape_err(err, errlen, path, get(row, field), "%s[%zu].%s: expected %s",
					 table, i, field, field_want[t]);
	}
	return 0;
}

/* Each column of a curve spec's group: a name. */
static int check_group(const char *path, json_object *root, const struct curve_spec *cs, char *err, size_t errlen)
{
	char *copy = xstrdup(cs->group), *save = NULL;
	int rc = 0;

	for (char *k = strtok_r(copy, " ", &save); k && !rc; k = strtok_r(NULL, " ", &save))
		rc = check_field(path, root, cs->table, k, F_NAME, false, err, errlen);
	free(copy);
	return rc;
}

/* A wide table's percentile columns (p<N>_ns, wherever a row has them): numbers. */
static int check_pcts(const char *path, json_object *root, const char *table, char *err, size_t errlen)
{
	json_object *t = get(root, table);

	for (size_t i = 0; t && json_object_is_type(t, json_type_array) && i < json_object_array_length(t); i++) {
		json_object *row = json_object_array_get_idx(t, i);
		char name[32];

		if (!row || !json_object_is_type(row, json_type_object))
			continue;	/* check_group has said so */
		json_object_object_foreach(row, col, v)
			if (pct_column(col, name, sizeof(name)) && !field_ok(v, F_NUM))
				return check_field(path, root, table, col, F_NUM, false, err, errlen);
	}
	return 0;
}

/* The fields the reader takes for a document of kind: field_rules[] and its curves'. */
static int check_fields(const char *path, json_object *root, const char *kind, char *err, size_t errlen)
{
	json_object *time = get(root, "time");

	if (time && !json_object_is_type(time, json_type_object))
		return shape_err(err, errlen, path, time, "time: expected an object");
	for (size_t i = 0; i < ARRAY_SIZE(field_rules); i++) {
		const struct field_rule *r = &field_rules[i];

		if ((!r->kind || !strcmp(r->kind, kind)) &&
		    check_field(path, root, r->table, r->field, r->type, r->one, err, errlen))
			return -EINVAL;
	}
	for (size_t i = 0; i < ARRAY_SIZE(curve_specs); i++) {
		const struct curve_spec *cs = &curve_specs[i];
		const char *num[] = { cs->y, cs->lo, cs->hi };

		if (strcmp(cs->kind, kind))
			continue;
		if (check_group(path, root, cs, err, errlen) ||
		    (cs->x && check_field(path, root, cs->table, cs->x, cs->x_cat ? F_NAME : F_NUM, false, err, errlen)) ||
		    (cs->x0 && check_field(path, root, cs->table, cs->x0, F_NUM, false, err, errlen)) ||
		    (cs->only && check_field(path, root, cs->table, cs->only, F_FLAG, false, err, errlen)) ||
		    (cs->wide && check_pcts(path, root, cs->table, err, errlen)))
			return -EINVAL;
		for (int k = 0; k < 3; k++)
			if (num[k] && check_field(path, root, cs->table, num[k], F_NUM, false, err, errlen))
				return -EINVAL;
	}
	return 0;
}

int report_read(const char *path, const char *text, const char *version,
		struct rep_doc *d, char *err, size_t errlen)
{
	json_object *root, *prov;
	char why[JSON_WHY_MAX];
	const char *ver;
	int line;

	memset(d, 0, sizeof(*d));
	if (json_doc_parse(text, &root, &line, why, sizeof(why)))
		return read_err(err, errlen, "%s:%d: %s; expected one JSON object as a pagehop command writes it with --format json",
				path, line, why);
	if (check_shapes(path, root, err, errlen)) {
		json_object_put(root);
		return -EINVAL;
	}
	d->path = xstrdup(path);
	prov = get(root, "provenance");
	for (int i = 0; i < REP_NPROV; i++)
		d->prov[i] = scalar_text(get(prov, rep_prov_keys[i]));
	d->kind = xstrdup(get_str(prov, "subcommand") ?: "");
	ver = get_str(prov, "version");
	if (!prov || strcmp(get_str(prov, "tool") ?: "", "pagehop"))
		d->not_shown = xstrdup("no provenance block naming pagehop: not a pagehop document");
	else if (!d->kind[0])
		d->not_shown = xstrdup("its provenance names no subcommand: the kind of document is unknown");
	else if (!ver)
		d->not_shown = xasprintf("a %s document without provenance.version: its version is unknown", d->kind);
	else if (!same_version(ver, version))
		d->not_shown = xasprintf("a %s document of pagehop %s; this report reads version %s", d->kind,
					 ver, version);
	else {
		size_t i;

		for (i = 0; i < nknown_kinds && strcmp(known_kinds[i], d->kind); i++)
			;
		if (i == nknown_kinds) {
			d->not_shown = xasprintf("kind '%s' is not a pagehop command's document", d->kind);
		} else if (check_fields(path, root, d->kind, err, errlen)) {
			json_object_put(root);
			report_doc_free(d);
			return -EINVAL;
		} else {
			read_known(root, d);
		}
	}
	json_object_put(root);
	return 0;
}

void report_doc_free(struct rep_doc *d)
{
	free(d->path);
	free(d->kind);
	free(d->not_shown);
	for (int i = 0; i < REP_NPROV; i++)
		free(d->prov[i]);
	free(d->where);
	free(d->measured_on);
	free(d->analysed_on);
	free(d->measured_host);
	free(d->phases);
	free(d->status);
	free(d->summary);
	free(d->margin);
	for (int i = 0; i < d->nchecks; i++)
		free(d->checks[i]);
	free(d->checks);
	for (int i = 0; i < d->nm; i++) {
		free(d->m[i].title);
		free(d->m[i].unit);
		free(d->m[i].rows);
		free(d->m[i].cols);
		free(d->m[i].val);
		free(d->m[i].mark);
	}
	free(d->m);
	for (int i = 0; i < d->nc; i++) {
		for (int k = 0; k < d->c[i].ns; k++) {
			struct rep_series *s = &d->c[i].s[k];

			free(s->name);
			free(s->x);
			free(s->y);
			free(s->lo);
			free(s->hi);
		}
		free(d->c[i].s);
		for (int k = 0; k < d->c[i].ncat; k++)
			free(d->c[i].xcat[k]);
		free(d->c[i].xcat);
		free(d->c[i].title_own);
		free(d->c[i].caption);
	}
	free(d->c);
	memset(d, 0, sizeof(*d));
}
