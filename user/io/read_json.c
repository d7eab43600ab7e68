// SPDX-License-Identifier: GPL-2.0-only
/*
 * read_json.c - pagehop's own JSON, checked as strictly as a CSV: every
 * number where a number must be, every cell's CI holding its median.
 */
#include "read_json.h"
#include "json_doc.h"
#include "acpi_slit.h"
#include "provenance.h"
#include "read_text.h"
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_INITIATORS 256	/* of one HMAT entry: what hmat_compare() takes */

static int json_ids(const char *path, const char *key, const char *what,
		    json_object *arr, int **ids, int *n, char *err, size_t errlen)
{
	size_t len;

	if (!arr || !json_object_is_type(arr, json_type_array))
		return read_err(err, errlen, "%s: %s.%s: expected an array of node ids", path, key, what);
	len = json_object_array_length(arr);
	if (len == 0 || len > PH_MAX_NODES)
		return read_err(err, errlen, "%s: %s.%s: %zu entries; expected 1 to %d node ids",
				path, key, what, len, PH_MAX_NODES);
	*ids = xcalloc(len, sizeof(int));
	*n = (int)len;
	for (size_t i = 0; i < len; i++) {
		int64_t v;

		if (!json_int(json_object_array_get_idx(arr, i), 0, PH_MAX_NODES - 1, &v))
			return read_err(err, errlen, "%s: %s.%s[%zu]: expected a node id, 0 to %d",
					path, key, what, i, PH_MAX_NODES - 1);
		for (size_t j = 0; j < i; j++)
			if ((*ids)[j] == v)
				return read_err(err, errlen, "%s: %s.%s: node %d twice; expected each node once",
						path, key, what, (int)v);
		(*ids)[i] = (int)v;
	}
	return 0;
}

/*
 * {"metric": ..., "rows": [...], "columns": [...], "values": [[...]]}.
 * *out stays NULL when the key is absent or null.
 */
static int json_matrix(const char *path, json_object *root, const char *key,
		       enum ph_metric want, struct ph_nmatrix **out, char *err,
		       size_t errlen)
{
	json_object *o, *v;
	char show[80];
	int *rows = NULL, *cols = NULL, nr = 0, nc = 0, ret;
	struct ph_nmatrix *m = NULL;
	const char *metric;

	*out = NULL;
	if (!json_object_object_get_ex(root, key, &o) || !o)
		return 0;
	if (!json_object_is_type(o, json_type_object))
		return read_err(err, errlen, "%s: %s: expected an object with metric, rows, columns and values", path, key);
	if (!json_object_object_get_ex(o, "metric", &v) || !json_object_is_type(v, json_type_string))
		return read_err(err, errlen, "%s: %s.metric: expected the string \"%s\"", path, key, metric_name(want));
	metric = json_object_get_string(v);
	if (metric_parse(metric) != want)
		return read_err(err, errlen, "%s: %s.metric: \"%s\"; expected \"%s\"", path, key,
				ph_shown(metric, 60, show, sizeof(show)),
				metric_name(want));
	json_object_object_get_ex(o, "rows", &v);
	ret = json_ids(path, key, "rows", v, &rows, &nr, err, errlen);
	if (ret)
		goto out;
	json_object_object_get_ex(o, "columns", &v);
	ret = json_ids(path, key, "columns", v, &cols, &nc, err, errlen);
	if (ret)
		goto out;
	if (!json_object_object_get_ex(o, "values", &v) || !json_object_is_type(v, json_type_array) ||
	    (int)json_object_array_length(v) != nr) {
		ret = read_err(err, errlen, "%s: %s.values: expected an array of %d rows", path, key, nr);
		goto out;
	}
	m = nmatrix_new(want, nr, rows, nc, cols);
	for (int r = 0; r < nr; r++) {
		json_object *row = json_object_array_get_idx(v, r);

		if (!json_object_is_type(row, json_type_array) ||
		    (int)json_object_array_length(row) != nc) {
			ret = read_err(err, errlen, "%s: %s.values[%d]: expected an array of %d numbers or nulls",
				       path, key, r, nc);
			goto out;
		}
		for (int c = 0; c < nc; c++) {
			json_object *x = json_object_array_get_idx(row, c);
			double d;

			if (!x)
				continue;	/* null: missing */
			if (!json_number(x, &d) || d <= 0) {
				ret = read_err(err, errlen, "%s: %s.values[%d][%d]: expected a positive number or null",
					       path, key, r, c);
				goto out;
			}
			m->val[r * nc + c] = d;
		}
	}
	*out = m;
	m = NULL;
out:
	nmatrix_free(m);
	free(rows);
	free(cols);
	return ret;
}


/* One bound of a CI, as text for a message: "-" when absent. */
static const char *bound_text(double v, char *buf, size_t len)
{
	if (!isfinite(v))
		return "-";
	snprintf(buf, len, "%g", v);
	return buf;
}

/*
 * The CIs, sample counts and missed targets of one figure, from "cells";
 * mo is the figure's matrix object, whose values the cells must agree with.
 * not_met, when not NULL, counts the cells whose CI target was missed.
 */
static int json_cells(const char *path, json_object *root, const char *figure,
		      json_object *mo, struct ph_nmatrix *m, int *not_met, char *err,
		      size_t errlen)
{
	json_object *cells, *values;
	size_t n;

	if (not_met)
		*not_met = 0;
	if (!json_object_object_get_ex(root, "cells", &cells) || !cells)
		return 0;
	if (!json_object_is_type(cells, json_type_array))
		return read_err(err, errlen, "%s: cells: expected an array of objects", path);
	json_object_object_get_ex(mo, "values", &values);
	n = json_object_array_length(cells);
	for (size_t i = 0; i < n; i++) {
		json_object *c = json_object_array_get_idx(cells, i), *v, *x;
		double lo_r = 0, hi_r = 0, val_r = 0, med, med_r;
		char b1[32], b2[32];
		int64_t cpu, mem;
		int r, col, k;
		double d;

		if (!json_object_is_type(c, json_type_object))
			return read_err(err, errlen, "%s: cells[%zu]: expected an object", path, i);
		if (!json_object_object_get_ex(c, "figure", &v) ||
		    !json_object_is_type(v, json_type_string))
			return read_err(err, errlen, "%s: cells[%zu].figure: expected a string such as \"latency_ns\"",
					path, i);
		if (strcmp(json_object_get_string(v), figure))
			continue;
		if (!json_object_object_get_ex(c, "cpu_node", &v) || !json_int(v, 0, INT_MAX, &cpu) ||
		    !json_object_object_get_ex(c, "mem_node", &v) || !json_int(v, 0, INT_MAX, &mem))
			return read_err(err, errlen, "%s: cells[%zu]: expected cpu_node and mem_node, node ids",
					path, i);
		r = nmatrix_row(m, (int)cpu);
		col = nmatrix_col(m, (int)mem);
		if (r < 0 || col < 0)
			return read_err(err, errlen, "%s: cells[%zu]: node %d to %d is not a cell of %s; expected a row and a column of it",
					path, i, (int)cpu, (int)mem, figure);
		k = r * m->ncols + col;
		if (json_object_object_get_ex(c, "ci_low", &v) && v) {
			if (!json_number(v, &d))
				return read_err(err, errlen, "%s: cells[%zu].ci_low: expected a number or null", path, i);
			m->ci_lo[k] = d;
			lo_r = json_rounding(v);
		}
		if (json_object_object_get_ex(c, "ci_high", &v) && v) {
			if (!json_number(v, &d))
				return read_err(err, errlen, "%s: cells[%zu].ci_high: expected a number or null", path, i);
			m->ci_hi[k] = d;
			hi_r = json_rounding(v);
		}
		if (isfinite(m->ci_lo[k]) && isfinite(m->ci_hi[k]) && m->ci_lo[k] > m->ci_hi[k])
			return read_err(err, errlen, "%s: cells[%zu]: ci_low %g above ci_high %g; expected ci_low <= ci_high",
					path, i, m->ci_lo[k], m->ci_hi[k]);
		/* json_matrix checked the shape: values[r][col] exists, a number or null. */
		x = json_object_array_get_idx(json_object_array_get_idx(values, r), col);
		if (x)
			val_r = json_rounding(x);
		/* The median: the cell's, which must be the matrix's value; else that value. */
		med = m->val[k];
		med_r = val_r;
		if (json_object_object_get_ex(c, "median", &v) && v) {
			if (!json_number(v, &med) || med <= 0)
				return read_err(err, errlen, "%s: cells[%zu].median: expected a positive number or null",
						path, i);
			med_r = json_rounding(v);
			if (!isfinite(m->val[k]) || fabs(med - m->val[k]) > med_r + val_r)
				return read_err(err, errlen, "%s: cells[%zu]: median %g; expected the value of %s.values[%d][%d], %s",
						path, i, med, figure, r, col,
						x ? json_object_get_string(x) : "null");
		}
		if (isfinite(med) &&
		    ((isfinite(m->ci_lo[k]) && med < m->ci_lo[k] - lo_r - med_r) ||
		     (isfinite(m->ci_hi[k]) && med > m->ci_hi[k] + hi_r + med_r)))
			return read_err(err, errlen, "%s: cells[%zu]: median %g outside its CI [%s, %s]; expected ci_low <= median <= ci_high",
					path, i, med, bound_text(m->ci_lo[k], b1, sizeof(b1)),
					bound_text(m->ci_hi[k], b2, sizeof(b2)));
		if (json_object_object_get_ex(c, "samples", &v) && v) {
			int64_t s;

			if (!json_int(v, 0, INT_MAX, &s))
				return read_err(err, errlen, "%s: cells[%zu].samples: expected a count", path, i);
			m->samples[k] = (int)s;
		}
		if (json_object_object_get_ex(c, "ci_met", &v) && v &&
		    json_object_is_type(v, json_type_boolean) && !json_object_get_boolean(v)) {
			m->ci_missed[k] = true;
			if (not_met)
				(*not_met)++;
		}
	}
	return 0;
}

/* An HMAT figure: a whole number 0..2^32-1 as the kernel reports it (u32), or -1 when absent or null. */
static int64_t json_opt_u32(json_object *o, const char *key, bool *bad)
{
	json_object *v;
	double d;

	if (!json_object_object_get_ex(o, key, &v) || !v)
		return -1;
	if (!json_number(v, &d) || d < 0 || d > UINT32_MAX || d != floor(d)) {
		*bad = true;
		return -1;
	}
	return (int64_t)d;
}

/*
 * An HMAT initiator list as the kernel's node lists read: "0", "0-1,3";
 * node ids below PH_MAX_NODES, each range low-high; "" is none.  Returns the
 * count of nodes named, or -1.
 */
static int node_list_count(const char *s)
{
	int count = 0;

	if (!*s)
		return 0;
	for (;;) {
		int a, b;

		if (!node_id_prefix(&s, &a))
			return -1;
		b = a;
		if (*s == '-') {
			s++;
			if (!node_id_prefix(&s, &b) || b < a)
				return -1;
		}
		count += b - a + 1;
		if (!*s)
			return count;
		if (*s++ != ',')
			return -1;
	}
}

static int json_hmat(const char *path, json_object *root, struct ph_input *in,
		     char *err, size_t errlen)
{
	json_object *arr;
	size_t n;

	if (!json_object_object_get_ex(root, "hmat", &arr) || !arr)
		return 0;
	if (!json_object_is_type(arr, json_type_array))
		return read_err(err, errlen, "%s: hmat: expected an array of objects", path);
	n = json_object_array_length(arr);
	in->hmat = xcalloc(n ? n : 1, sizeof(*in->hmat));
	for (size_t i = 0; i < n; i++) {
		json_object *o = json_object_array_get_idx(arr, i), *v;
		struct ph_hmat *h = &in->hmat[i];
		char show[80];
		bool bad = false;
		int64_t node, access = 0;

		if (!json_object_is_type(o, json_type_object) ||
		    !json_object_object_get_ex(o, "node", &v) || !json_int(v, 0, PH_MAX_NODES - 1, &node))
			return read_err(err, errlen, "%s: hmat[%zu]: expected an object with \"node\", a node id 0 to %d",
					path, i, PH_MAX_NODES - 1);
		if (json_object_object_get_ex(o, "access", &v) && v && !json_int(v, 0, 255, &access))
			return read_err(err, errlen, "%s: hmat[%zu].access: expected an access class, 0 or 1", path, i);
		h->target = (int)node;
		h->access = (int)access;
		if (json_object_object_get_ex(o, "initiators", &v) && v) {
			const char *list = json_object_get_string(v);
			size_t len = strlen(list);
			int count;

			if (!json_object_is_type(v, json_type_string))
				return read_err(err, errlen, "%s: hmat[%zu].initiators: expected a string, a node list such as \"0\" or \"0-1,3\"",
						path, i);
			/* Cut to fit, a list would name other nodes: "0,12" as "0,1". */
			if (len >= sizeof(h->initiators))
				return read_err(err, errlen, "%s: hmat[%zu].initiators: %zu characters; expected at most %zu",
						path, i, len, sizeof(h->initiators) - 1);
			count = node_list_count(list);
			if (count < 0)
				return read_err(err, errlen, "%s: hmat[%zu].initiators: '%s'; expected a node list such as \"0\" or \"0-1,3\", node ids 0 to %d",
						path, i, ph_shown(list, 60, show, sizeof(show)), PH_MAX_NODES - 1);
			/* As many as the comparison with the measurement takes (hmat_compare). */
			if (count > MAX_INITIATORS)
				return read_err(err, errlen, "%s: hmat[%zu].initiators: '%s' names %d nodes; expected at most %d",
						path, i, list, count, MAX_INITIATORS);
			memcpy(h->initiators, list, len + 1);
		}
		h->read_latency_ns = json_opt_u32(o, "read_lat_ns", &bad);
		h->write_latency_ns = json_opt_u32(o, "write_lat_ns", &bad);
		h->read_bandwidth_MiBps = json_opt_u32(o, "read_bw_MiBps", &bad);
		h->write_bandwidth_MiBps = json_opt_u32(o, "write_bw_MiBps", &bad);
		if (bad)
			return read_err(err, errlen, "%s: hmat[%zu]: expected read_lat_ns, write_lat_ns, read_bw_MiBps and write_bw_MiBps to be whole numbers 0 to %u, or null",
					path, i, UINT32_MAX);
		in->nhmat++;
	}
	return 0;
}

static char *json_provenance(json_object *root)
{
	json_object *p, *v;
	const char *f[4] = { NULL, NULL, NULL, NULL };
	static const char *const keys[] = { "command_line", "host", "time_utc", "version" };

	if (!json_object_object_get_ex(root, "provenance", &p) ||
	    !json_object_is_type(p, json_type_object))
		return NULL;
	for (int i = 0; i < 4; i++)
		if (json_object_object_get_ex(p, keys[i], &v) && json_object_is_type(v, json_type_string))
			f[i] = json_object_get_string(v);
	if (!f[0] && !f[1])
		return NULL;
	return input_source_line(f[0], f[1], f[2], f[3]);
}

/* The host its provenance names, NULL if none: whose machine the figures are. */
static char *json_provenance_host(json_object *root)
{
	json_object *p, *v;

	if (!json_object_object_get_ex(root, "provenance", &p) ||
	    !json_object_is_type(p, json_type_object) ||
	    !json_object_object_get_ex(p, "host", &v) || !json_object_is_type(v, json_type_string) ||
	    !*json_object_get_string(v))
		return NULL;
	return xstrdup(json_object_get_string(v));
}

/* provenance.packages, the measured machine's CPU packages: 0 when absent or null. */
static int json_provenance_packages(const char *path, json_object *root, int *packages,
				    char *err, size_t errlen)
{
	json_object *p, *v;
	int64_t n;

	*packages = 0;
	if (!json_object_object_get_ex(root, "provenance", &p) || !json_object_is_type(p, json_type_object) ||
	    !json_object_object_get_ex(p, "packages", &v) || !v)
		return 0;
	if (!json_int(v, 1, PH_MAX_NODES - 1, &n))
		return read_err(err, errlen, "%s: provenance.packages: expected the measured machine's CPU packages, 1 to %d",
				path, PH_MAX_NODES - 1);
	*packages = (int)n;
	return 0;
}

/*
 * provenance.acpi: {"SLIT": {"oem_id": "BOCHS ", "oem_table_id": "BXPCSLIT",
 * "oem_revision": 1}, "HMAT": {...}}, the measured machine's tables' OEM
 * fields; each table may be absent or null.
 */
static int json_provenance_acpi(const char *path, json_object *root, struct ph_input *in,
				char *err, size_t errlen)
{
	const char *const *sigs = ph_prov_acpi_sig;
	json_object *p, *a;

	if (!json_object_object_get_ex(root, "provenance", &p) || !json_object_is_type(p, json_type_object) ||
	    !json_object_object_get_ex(p, "acpi", &a) || !a)
		return 0;
	if (!json_object_is_type(a, json_type_object))
		return read_err(err, errlen, "%s: provenance.acpi: expected an object of tables, \"SLIT\" and \"HMAT\"", path);
	for (int i = 0; i < PH_PROV_NACPI; i++) {
		struct ph_acpi_oem *t = &in->acpi[i];
		json_object *o, *id, *tid, *rev;
		int64_t r;

		if (!json_object_object_get_ex(a, sigs[i], &o) || !o)
			continue;
		if (!json_object_is_type(o, json_type_object) ||
		    !json_object_object_get_ex(o, "oem_id", &id) || !json_object_is_type(id, json_type_string) ||
		    !acpi_id_valid(json_object_get_string(id), 6) ||
		    !json_object_object_get_ex(o, "oem_table_id", &tid) || !json_object_is_type(tid, json_type_string) ||
		    !acpi_id_valid(json_object_get_string(tid), 8) ||
		    !json_object_object_get_ex(o, "oem_revision", &rev) || !json_int(rev, 0, UINT32_MAX, &r))
			return read_err(err, errlen, "%s: provenance.acpi.%s: expected oem_id (1 to 6 characters), oem_table_id (1 to 8) and oem_revision (0 to %u), as the table's header holds them",
					path, sigs[i], UINT32_MAX);
		t->have = true;
		snprintf(t->oem_id, sizeof(t->oem_id), "%s", json_object_get_string(id));
		snprintf(t->oem_table_id, sizeof(t->oem_table_id), "%s", json_object_get_string(tid));
		t->oem_revision = (uint32_t)r;
	}
	return 0;
}

int input_parse_json(const char *path, const char *text, enum ph_figure fig,
		     struct ph_input *in, char *err, size_t errlen)
{
	const char *const *keys = ph_recorded_key;
	struct ph_nmatrix *figs[PH_NREC] = { NULL };
	bool present[PH_NREC];
	json_object *root = NULL;
	struct ph_nmatrix *dm = NULL;
	char why[JSON_WHY_MAX];
	int ret = 0, pick = -1, line;

	memset(in, 0, sizeof(*in));
	if (json_doc_parse(text, &root, &line, why, sizeof(why))) {
		ret = read_err(err, errlen, "%s:%d: %s; expected one JSON object as pagehop matrix --format json writes it",
			       path, line, why);
		goto out;
	}
	for (int i = 0; i < PH_NREC; i++) {
		ret = json_matrix(path, root, keys[i],
				  i == PH_REC_LATENCY ? PH_METRIC_LATENCY : PH_METRIC_BANDWIDTH,
				  &figs[i], err, errlen);
		if (ret)
			goto out;
	}
	if (fig == PH_FIGURE_DISTANCE) {
		ret = read_err(err, errlen, "%s: --metric distance is for CSV input; a pagehop JSON holds latency_ns, bandwidth_read_GBps and bandwidth_triad_GBps",
			       path);
		goto out;
	}
	for (int i = 0; i < PH_NREC; i++)
		present[i] = figs[i];
	pick = figure_pick(fig, present);
	if (pick < 0) {
		char have[128] = "";
		size_t l = 0;

		for (int i = 0; i < PH_NREC; i++)
			if (figs[i])
				l += snprintf(have + l, sizeof(have) - l, "%s%s", l ? ", " : "", keys[i]);
		ret = read_err(err, errlen, "%s: no %s matrix; the file has %s",
			       path, fig == PH_FIGURE_DEFAULT ? "latency_ns, bandwidth_read_GBps or bandwidth_triad_GBps"
			       : figure_word(fig), l ? have : "none of latency_ns, bandwidth_read_GBps, bandwidth_triad_GBps");
		goto out;
	}
	/* Every figure's cells are checked; only the analysed one's missed targets count. */
	for (int i = 0; i < PH_NREC; i++) {
		json_object *mo;

		if (!figs[i])
			continue;
		json_object_object_get_ex(root, keys[i], &mo);
		ret = json_cells(path, root, keys[i], mo, figs[i], i == pick ? &in->ci_not_met : NULL,
				 err, errlen);
		if (ret)
			goto out;
	}
	ret = json_matrix(path, root, "distances", PH_METRIC_DISTANCE, &dm, err, errlen);
	if (ret)
		goto out;
	if (dm) {
		in->slit = slit_from_nmatrix(dm);
		if (!in->slit) {
			ret = read_err(err, errlen, "%s: distances: " PH_SLIT_SHAPE, path);
			goto out;
		}
	}
	ret = json_hmat(path, root, in, err, errlen);
	if (ret)
		goto out;
	in->path = xstrdup(path);
	in->json = true;
	in->source = json_provenance(root);
	ret = json_provenance_packages(path, root, &in->packages, err, errlen);
	if (!ret)
		ret = json_provenance_acpi(path, root, in, err, errlen);
	if (ret)
		goto out;
	in->host = json_provenance_host(root);
	input_take_recorded(in, figs, pick);
out:
	for (int i = 0; i < PH_NREC; i++)
		nmatrix_free(figs[i]);
	nmatrix_free(dm);
	json_object_put(root);
	if (ret)
		input_free(in);
	return ret;
}
