// SPDX-License-Identifier: GPL-2.0-only
/*
 * read_baseline.c - baseline and check documents as the health model
 * (read_baseline.h).
 */
#include "read_baseline.h"
#include "read_json.h"
#include "read_text.h"
#include "readfile.h"
#include "util.h"
#include "version.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <float.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/*
 * A document is not read past the cap every input reader keeps (a baseline
 * of 64 nodes with their hops is about 100 KiB): a larger one is not a
 * baseline, and reading and judging it would eat check's --budget.
 */
#define BASELINE_MAX PH_INPUT_MAX_BYTES

static struct json_object *member(struct json_object *o, const char *key, json_type type)
{
	struct json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v) || !v || !json_object_is_type(v, type))
		return NULL;
	return v;
}

/* A number member: true with *out, false when absent, null or not a finite number. */
static bool number(struct json_object *o, const char *key, double *out)
{
	struct json_object *v;

	return json_object_object_get_ex(o, key, &v) && v && json_number(v, out);
}

/* A member present and not null. */
static bool present(struct json_object *o, const char *key)
{
	struct json_object *v;

	return json_object_object_get_ex(o, key, &v) && v;
}

/* A tolerance side: the member present (a number, or null for "unbounded"). */
static bool tol_side(struct json_object *o, const char *key, double *out, bool *bad)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v))
		return false;
	if (!v) {
		*out = NAN;
		return true;
	}
	if (!number(o, key, out))
		*bad = true;
	return true;
}

__attribute__((format(printf, 4, 5)))
static int fail(char *err, size_t errlen, const char *path, const char *fmt, ...)
{
	char what[384];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(err, errlen, "%s: %s", path, what);
	return -EINVAL;
}

/*
 * The figures pagehop writes (diag.c plans them, fingerprint.c adds the
 * exact ones): a name, or a prefix followed by a hop level 1..99, its
 * unit and its kind, as the document's "kind" column spells it.
 */
static const struct known_fig {
	const char *name;
	bool hop;		/* name + "N", N a hop level */
	const char *unit, *kind;
	bool ratio;		/* judged as a ratio to the reference: it must be > 0 */
} known_figs[] = {
	{ "latency_4k", false, "ns", "latency", true },
	{ "latency_2m", false, "ns", "latency", true },
	{ "latency_hop", true, "ns", "latency", true },
	{ "bandwidth_triad", false, "GB/s", "bandwidth", true },
	{ "bandwidth_read", false, "GB/s", "bandwidth", true },
	{ "bandwidth_read_hop", true, "GB/s", "bandwidth", true },
	{ "mem_total", false, "GiB", "memory", true },
	{ "hugepages_2m", false, "bool", "pages", false },
	{ "hugepages_1g", false, "bool", "pages", false },
};

/* A latency figure's tail (--percentiles): "tail_p99_latency_4k", "tail_p99.9_latency_hop2". */
static const struct known_fig tail_fig = { "tail_p", false, "ns", "tail", true };

static const struct known_fig *known_fig(const char *name);

/* tail_pP_<latency figure>, P a percentile in (50, 100) written as %g writes it. */
static bool tail_name(const char *name)
{
	const struct known_fig *k;
	char *end, again[32];
	double p;

	if (strncmp(name, "tail_p", 6) || !isdigit((unsigned char)name[6]))
		return false;
	errno = 0;
	p = strtod(name + 6, &end);
	if (errno || *end != '_' || !(p > 50 && p < 100))
		return false;
	snprintf(again, sizeof(again), "%g", p);
	if (strlen(again) != (size_t)(end - (name + 6)) || strncmp(again, name + 6, strlen(again)))
		return false;
	k = known_fig(end + 1);
	return k && !strcmp(k->kind, "latency");
}

static const struct known_fig *known_fig(const char *name)
{
	if (tail_name(name))
		return &tail_fig;
	for (size_t i = 0; i < ARRAY_SIZE(known_figs); i++) {
		const struct known_fig *k = &known_figs[i];
		size_t l = strlen(k->name);

		if (!k->hop && !strcmp(name, k->name))
			return k;
		/* "latency_hop1" to "latency_hop99", no leading zero */
		if (k->hop && !strncmp(name, k->name, l) && name[l] >= '1' && name[l] <= '9' &&
		    (!name[l + 1] || (isdigit((unsigned char)name[l + 1]) && !name[l + 2])))
			return k;
	}
	return NULL;
}

/* A node id member: an integer 0..PH_MAX_NODES - 1. */
static bool node_member(struct json_object *o, const char *key, int *out)
{
	struct json_object *v;
	int64_t id;

	if (!json_object_object_get_ex(o, key, &v) || !json_int(v, 0, PH_MAX_NODES - 1, &id))
		return false;
	*out = (int)id;
	return true;
}

/* Half a unit of the last digit of o's member key, 0 when absent. */
static double rounding_of(struct json_object *o, const char *key)
{
	struct json_object *v;

	return json_object_object_get_ex(o, key, &v) && v ? json_rounding(v) : 0;
}

static int parse_figure(const char *path, struct json_object *row, int i, struct ph_hset *out,
			char *err, size_t errlen)
{
	struct json_object *name = member(row, "figure", json_type_string);
	struct json_object *unit = member(row, "unit", json_type_string);
	struct json_object *kind, *v;
	double val, lo, hi, lower = NAN, upper = NAN, slack_lo, slack_hi;
	bool has_lo, has_up, bad = false;
	const struct known_fig *k;
	const char *fname;
	char show[80], show2[40];
	struct ph_hfig *f;
	int node, mem_node;

	if (!json_object_is_type(row, json_type_object))
		return fail(err, errlen, path, "figures[%d]: expected an object", i);
	if (!name || !json_object_object_get_ex(row, "node", &v) || !json_object_object_get_ex(row, "value", &v))
		return fail(err, errlen, path, "figures row %d lacks a figure name, node or value", i + 1);
	fname = json_object_get_string(name);
	k = known_fig(fname);
	if (!k)
		return fail(err, errlen, path, "figures[%d].figure: '%s'; expected a figure pagehop measures (latency_4k, latency_2m, latency_hopN, bandwidth_triad, bandwidth_read, bandwidth_read_hopN, mem_total, hugepages_2m, hugepages_1g, tail_pP_ of a latency figure)",
			    i, ph_shown(fname, 60, show, sizeof(show)));
	if (!unit || strcmp(json_object_get_string(unit), k->unit))
		return fail(err, errlen, path, "figures[%d].unit: %s%s%s; expected \"%s\" for %s", i,
			    unit ? "'" : "", unit ? ph_shown(json_object_get_string(unit), 20, show2, sizeof(show2)) : "none",
			    unit ? "'" : "", k->unit, fname);
	kind = member(row, "kind", json_type_string);
	if (present(row, "kind") && (!kind || strcmp(json_object_get_string(kind), k->kind)))
		return fail(err, errlen, path, "figures[%d].kind: %s%s%s; expected \"%s\" for %s", i,
			    kind ? "'" : "", kind ? ph_shown(json_object_get_string(kind), 20, show2, sizeof(show2)) : "not a string",
			    kind ? "'" : "", k->kind, fname);
	if (!node_member(row, "node", &node))
		return fail(err, errlen, path, "figures[%d].node: expected a node id, 0 to %d", i, PH_MAX_NODES - 1);
	mem_node = node;
	if (json_object_object_get_ex(row, "mem_node", &v) && !node_member(row, "mem_node", &mem_node))
		return fail(err, errlen, path, "figures[%d].mem_node: expected a node id, 0 to %d", i, PH_MAX_NODES - 1);
	if (!number(row, "value", &val))
		return fail(err, errlen, path, "figures[%d].value: expected a number", i);
	/* A ratio to 0 or to a subnormal is infinite: no reference. */
	if (k->ratio && !(val >= DBL_MIN))
		return fail(err, errlen, path, "figures[%d].value: %g %s; expected a positive number for %s, a reference figures are divided by",
			    i, val, k->unit, fname);
	if (!k->ratio && val != 0 && val != 1)
		return fail(err, errlen, path, "figures[%d].value: %g; expected 0 or 1 for %s (cannot or can be had)",
			    i, val, fname);
	if (!number(row, "ci_lo", &lo) || !number(row, "ci_hi", &hi) || lo > hi)
		return fail(err, errlen, path, "figure %s (row %d) has no CI: a reference must carry one",
			    fname, i + 1);
	/* Written rounded as the value is: each may be off by half its last digit. */
	slack_lo = rounding_of(row, "ci_lo") + rounding_of(row, "value");
	slack_hi = rounding_of(row, "ci_hi") + rounding_of(row, "value");
	if (lo < 0 || val < lo - slack_lo || val > hi + slack_hi)
		return fail(err, errlen, path, "figures[%d]: %s %g outside its CI [%g, %g]; expected 0 <= ci_lo <= value <= ci_hi",
			    i, fname, val, lo, hi);
	has_lo = tol_side(row, "lower", &lower, &bad);
	has_up = tol_side(row, "upper", &upper, &bad);
	if (bad || (!isnan(lower) && (lower > 0 || lower < -1)) || (!isnan(upper) && upper < 0))
		return fail(err, errlen, path, "figure %s (row %d): lower must be in [-1, 0] and upper >= 0, or null",
			    fname, i + 1);
	f = hset_add_fig(out, fname, node, mem_node, k->unit, val, lo, hi);
	/* The spread between repeats: baselines made before it was recorded
	 * have none, and are judged on their CI alone. */
	if (present(row, "rep_lo") || present(row, "rep_hi")) {
		int64_t reps = 0;

		if (!number(row, "rep_lo", &lo) || !number(row, "rep_hi", &hi) || lo < 0 || lo > hi)
			return fail(err, errlen, path, "figures[%d]: expected rep_lo and rep_hi, 0 <= rep_lo <= rep_hi, or both null", i);
		if (json_object_object_get_ex(row, "repeats", &v) && v && !json_int(v, 1, 1000, &reps))
			return fail(err, errlen, path, "figures[%d].repeats: expected a count, 1 to 1000, or null", i);
		f->rep_lo = lo;
		f->rep_hi = hi;
		f->repeats = (int)reps;
	}
	if (has_lo || has_up) {
		f->tol.lower = lower;
		f->tol.upper = upper;
		f->tol_set = true;
	}
	return 0;
}

/*
 * "0.1.0" against this pagehop's: made by this release or an earlier one
 * (major and minor no newer).  A baseline outlives upgrades: the fields
 * later releases added are optional to the reader; a newer release's
 * document may mean something this one cannot tell.
 */
static bool readable_version(const char *a, const char *b)
{
	unsigned am, an, bm, bn;
	int end = 0;

	return sscanf(a, "%u.%u%n", &am, &an, &end) == 2 && (!a[end] || a[end] == '.') &&
	       sscanf(b, "%u.%u", &bm, &bn) == 2 && (am < bm || (am == bm && an <= bn));
}

/* The provenance: pagehop's, a version this one reads, a baseline or a check. */
static int check_provenance(const char *path, struct json_object *prov, char *err, size_t errlen)
{
	struct json_object *tool = member(prov, "tool", json_type_string);
	struct json_object *cmd = member(prov, "subcommand", json_type_string);
	struct json_object *ver = member(prov, "version", json_type_string);
	char show[80];

	if (!cmd || (strcmp(json_object_get_string(cmd), "baseline") && strcmp(json_object_get_string(cmd), "check")))
		return fail(err, errlen, path, "not a pagehop baseline or check document");
	if (!tool || strcmp(json_object_get_string(tool), "pagehop"))
		return fail(err, errlen, path, "provenance.tool: %s%s%s; expected \"pagehop\"", tool ? "'" : "",
			    tool ? ph_shown(json_object_get_string(tool), 40, show, sizeof(show)) : "none",
			    tool ? "'" : "");
	/* Documents made by hand may leave it out; one of a newer release is not read. */
	if (present(prov, "version") && (!ver || !readable_version(json_object_get_string(ver), PAGEHOP_VERSION)))
		return fail(err, errlen, path, "provenance.version: %s%s%s; expected this pagehop's release, %s, or an earlier one",
			    ver ? "'" : "", ver ? ph_shown(json_object_get_string(ver), 40, show, sizeof(show)) : "not a string",
			    ver ? "'" : "", PAGEHOP_VERSION);
	return 0;
}

int baseline_parse(const char *path, const char *text, struct ph_hset *out, char *err, size_t errlen)
{
	struct json_object *root, *id, *key, *figs, *set, *nodes, *prov;
	char why[JSON_WHY_MAX];
	int rc = 0, line;

	memset(out, 0, sizeof(*out));
	snprintf(out->source, sizeof(out->source), "%s", path);
	if (json_doc_parse(text, &root, &line, why, sizeof(why))) {
		/* The literal null: say what it is. */
		if (!strncmp(why, "the JSON literal null", 21))
			snprintf(err, errlen, "%s: a JSON null, not a pagehop baseline or check document", path);
		else
			snprintf(err, errlen, "%s: not JSON: line %d: %s; expected one JSON object as pagehop baseline or check --format json writes it",
				 path, line, why);
		return -EINVAL;
	}
	prov = member(root, "provenance", json_type_object);
	id = member(root, "identity", json_type_object);
	key = member(id, "model_key", json_type_string);
	figs = member(root, "figures", json_type_array);
	rc = check_provenance(path, prov, err, errlen);
	if (rc)
		goto out;
	if (!key || !*json_object_get_string(key)) {
		rc = fail(err, errlen, path, "no identity.model_key");
	} else if (!figs || !json_object_array_length(figs)) {
		rc = fail(err, errlen, path, "no figures");
	}
	if (rc)
		goto out;
	snprintf(out->model, sizeof(out->model), "%s", json_object_get_string(key));
	if (member(prov, "time_utc", json_type_string)) {
		/* As written, for the tables; parsed, to order documents by it. */
		struct tm tm = { 0 };
		const char *t = json_object_get_string(member(prov, "time_utc", json_type_string));
		const char *end = strptime(t, "%Y-%m-%dT%H:%M:%SZ", &tm);

		snprintf(out->time_utc, sizeof(out->time_utc), "%s", t);
		if (end && !*end) {
			out->stamp = (double)timegm(&tm);
			out->stamp_from_doc = true;
		}
	}
	if (member(prov, "host", json_type_string))
		snprintf(out->host, sizeof(out->host), "%s", json_object_get_string(member(prov, "host", json_type_string)));
	for (size_t i = 0; i < json_object_array_length(figs) && !rc; i++) {
		rc = parse_figure(path, json_object_array_get_idx(figs, i), (int)i, out, err, errlen);
		/* One figure twice: which would be the reference? */
		for (int j = 0; !rc && j < out->nfigs - 1; j++) {
			const struct ph_hfig *a = &out->figs[j], *b = &out->figs[out->nfigs - 1];

			if (a->node == b->node && a->mem_node == b->mem_node && !strcmp(a->name, b->name))
				rc = fail(err, errlen, path, "figures[%zu]: %s of node %d to %d twice; expected each figure once",
					  i, b->name, b->node, b->mem_node);
		}
	}
	set = member(root, "settings", json_type_object);
	if (!rc && set) {
		json_object_object_foreach(set, k, v) {
			if (v && json_object_is_type(v, json_type_string))
				hset_add_setting(out, k, json_object_get_string(v));
		}
	}
	nodes = member(root, "nodes", json_type_array);
	if (!rc && present(root, "nodes") && !nodes)
		rc = fail(err, errlen, path, "nodes: expected an array of objects");
	for (size_t i = 0; !rc && nodes && i < json_object_array_length(nodes); i++) {
		struct json_object *row = json_object_array_get_idx(nodes, i), *v;
		int64_t ncpus;
		int nid;

		if (!json_object_is_type(row, json_type_object) || !node_member(row, "node", &nid) ||
		    !json_object_object_get_ex(row, "ncpus", &v) || !json_int(v, 0, INT_MAX, &ncpus))
			rc = fail(err, errlen, path, "nodes[%zu]: expected node, a node id 0 to %d, and ncpus, a count",
				  i, PH_MAX_NODES - 1);
		else
			hset_add_node(out, nid, (int)ncpus);
	}
out:
	json_object_put(root);
	if (rc)
		hset_free(out);
	return rc;
}

static int load_file(const char *path, struct ph_hset *out, char *err, size_t errlen)
{
	struct stat st;
	const char *kind = NULL;
	char *buf = NULL;
	size_t len = 0;
	int rc = read_whole_file(path, BASELINE_MAX, &buf, &len, &kind);

	if (rc) {
		if (rc == -EFBIG && len)
			snprintf(err, errlen, "%s: %zu bytes; a baseline is at most %llu MiB", path, len,
				 PH_INPUT_MAX_BYTES / MiB);
		else
			snprintf(err, errlen, "%s: %s", path,
				 kind ? kind : rc == -EFBIG ? "more than the 16 MiB a baseline may be" : strerror(-rc));
		free(buf);
		return rc == -EFBIG || kind ? -EINVAL : rc;
	}
	if (strlen(buf) != len) {
		snprintf(err, errlen, "%s: not JSON: a NUL byte at offset %zu", path, strlen(buf));
		rc = -EINVAL;
	} else {
		rc = baseline_parse(path, buf, out, err, errlen);
	}
	free(buf);
	if (!rc && !out->stamp_from_doc && !stat(path, &st))
		out->stamp = (double)st.st_mtim.tv_sec + (double)st.st_mtim.tv_nsec * 1e-9;
	return rc;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int baseline_load(const char *path, struct ph_hset **sets, int *n, char *err, size_t errlen)
{
	return baseline_load_noted(path, sets, n, NULL, NULL, err, errlen);
}

int baseline_load_noted(const char *path, struct ph_hset **sets, int *n, char ***notes, int *nnotes,
			char *err, size_t errlen)
{
	struct stat st;
	struct dirent *e;
	char **names = NULL, first_err[512] = "";
	int nnames = 0, rc;
	DIR *dir;

	*sets = NULL;
	*n = 0;
	if (stat(path, &st)) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
		return rc;
	}
	if (!S_ISDIR(st.st_mode)) {
		*sets = xcalloc(1, sizeof(**sets));
		rc = load_file(path, *sets, err, errlen);
		if (rc) {
			free(*sets);
			*sets = NULL;
			return rc;
		}
		*n = 1;
		return 0;
	}
	dir = opendir(path);
	if (!dir) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
		return rc;
	}
	while ((e = readdir(dir))) {
		size_t l = strlen(e->d_name);

		if (e->d_name[0] != '.' && l > 5 && !strcmp(e->d_name + l - 5, ".json")) {
			names = xrealloc(names, (size_t)(nnames + 1) * sizeof(*names));
			names[nnames++] = xasprintf("%s/%s", path, e->d_name);
		}
	}
	closedir(dir);
	if (nnames)
		qsort(names, (size_t)nnames, sizeof(*names), name_cmp);
	*sets = xcalloc((size_t)nnames + 1, sizeof(**sets));
	for (int i = 0; i < nnames; i++) {
		char one[512];

		if (!load_file(names[i], &(*sets)[*n], one, sizeof(one)))
			(*n)++;
		else if (notes)
			*(char **)xappend(notes, nnotes, sizeof(char *)) = xasprintf("not a baseline: %s", one);
		if (!first_err[0])
			snprintf(first_err, sizeof(first_err), "%s", one);
		free(names[i]);
	}
	free(names);
	if (*n)
		return 0;
	free(*sets);
	*sets = NULL;
	if (!nnames)
		snprintf(err, errlen, "%s: no baseline in the directory (no *.json file)", path);
	else
		snprintf(err, errlen, "no baseline in %s reads: %s", path, first_err);
	return -EINVAL;
}

void baseline_free(struct ph_hset *sets, int n)
{
	for (int i = 0; i < n; i++)
		hset_free(&sets[i]);
	free(sets);
}
