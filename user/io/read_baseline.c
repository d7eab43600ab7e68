// SPDX-License-Identifier: GPL-2.0-only
/*
 * read_baseline.c - baseline and check documents as the health model
 * (read_baseline.h).
 */
#include "read_baseline.h"
#include "read_text.h"
#include "readfile.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <json-c/json.h>
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

/* A number member: true with *out, false when absent, null or not a number. */
static bool number(struct json_object *o, const char *key, double *out)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !v)
		return false;
	if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int))
		return false;
	*out = json_object_get_double(v);
	return isfinite(*out);
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
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(err, errlen, "%s: %s", path, what);
	return -EINVAL;
}

static int parse_figure(const char *path, struct json_object *row, int i, struct ph_hset *out,
			char *err, size_t errlen)
{
	struct json_object *name = member(row, "figure", json_type_string);
	struct json_object *unit = member(row, "unit", json_type_string);
	double node, mem_node, v, lo, hi, lower = NAN, upper = NAN;
	bool has_lo, has_up, bad = false;
	struct ph_hfig *f;

	if (!name || !number(row, "node", &node) || !number(row, "value", &v))
		return fail(err, errlen, path, "figures row %d lacks a figure name, node or value", i + 1);
	if (!number(row, "mem_node", &mem_node))
		mem_node = node;
	if (!number(row, "ci_lo", &lo) || !number(row, "ci_hi", &hi) || lo > hi)
		return fail(err, errlen, path, "figure %s (row %d) has no CI: a reference must carry one",
			    json_object_get_string(name), i + 1);
	has_lo = tol_side(row, "lower", &lower, &bad);
	has_up = tol_side(row, "upper", &upper, &bad);
	if (bad || (!isnan(lower) && (lower > 0 || lower < -1)) || (!isnan(upper) && upper < 0))
		return fail(err, errlen, path, "figure %s (row %d): lower must be in [-1, 0] and upper >= 0, or null",
			    json_object_get_string(name), i + 1);
	f = hset_add_fig(out, json_object_get_string(name), (int)node, (int)mem_node,
			 unit ? json_object_get_string(unit) : "", v, lo, hi);
	/* The spread between repeats: baselines made before it was recorded
	 * have none, and are judged on their CI alone. */
	if (number(row, "rep_lo", &lo) && number(row, "rep_hi", &hi) && lo <= hi) {
		f->rep_lo = lo;
		f->rep_hi = hi;
		f->repeats = number(row, "repeats", &v) && v >= 1 && v <= 1000 ? (int)v : 0;
	}
	if (has_lo || has_up) {
		f->tol.lower = lower;
		f->tol.upper = upper;
		f->tol_set = true;
	}
	return 0;
}

int baseline_parse(const char *path, const char *text, struct ph_hset *out, char *err, size_t errlen)
{
	enum json_tokener_error jerr;
	struct json_object *root, *id, *key, *figs, *set, *nodes, *prov, *cmd;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	snprintf(out->source, sizeof(out->source), "%s", path);
	root = json_tokener_parse_verbose(text, &jerr);
	if (!root) {
		/* The literal null parses, as NULL with no error: say what it is. */
		if (jerr == json_tokener_success)
			snprintf(err, errlen, "%s: a JSON null, not a pagehop baseline or check document", path);
		else
			snprintf(err, errlen, "%s: not JSON: %s", path, json_tokener_error_desc(jerr));
		return -EINVAL;
	}
	prov = member(root, "provenance", json_type_object);
	cmd = member(prov, "subcommand", json_type_string);
	id = member(root, "identity", json_type_object);
	key = member(id, "model_key", json_type_string);
	figs = member(root, "figures", json_type_array);
	if (!cmd || (strcmp(json_object_get_string(cmd), "baseline") && strcmp(json_object_get_string(cmd), "check"))) {
		rc = fail(err, errlen, path, "not a pagehop baseline or check document");
	} else if (!key || !*json_object_get_string(key)) {
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
	for (size_t i = 0; i < json_object_array_length(figs) && !rc; i++)
		rc = parse_figure(path, json_object_array_get_idx(figs, i), (int)i, out, err, errlen);
	set = member(root, "settings", json_type_object);
	if (!rc && set) {
		json_object_object_foreach(set, k, v) {
			if (v && json_object_is_type(v, json_type_string))
				hset_add_setting(out, k, json_object_get_string(v));
		}
	}
	nodes = member(root, "nodes", json_type_array);
	for (size_t i = 0; !rc && nodes && i < json_object_array_length(nodes); i++) {
		struct json_object *row = json_object_array_get_idx(nodes, i);
		double id_, ncpus;

		if (number(row, "node", &id_) && number(row, "ncpus", &ncpus))
			hset_add_node(out, (int)id_, (int)ncpus);
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
