// SPDX-License-Identifier: GPL-2.0-only
/*
 * cxl_input.c - a saved pagehop cxl document read back (cxl_input.h).
 */
#include "cxl_input.h"
#include "json_doc.h"
#include "readfile.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DOC_BYTES (16u << 20)

/* A number member of row: true with *v, false where absent or null; -EINVAL kind in *bad. */
static bool num(json_object *row, const char *key, double *v, bool *bad)
{
	json_object *o;

	if (!json_object_object_get_ex(row, key, &o) || json_object_is_type(o, json_type_null))
		return false;
	if (!json_number(o, v)) {
		*bad = true;
		return false;
	}
	return true;
}

static int fig_of(const char *name)
{
	for (int f = 0; f < PH_CXL_NFIG; f++)
		if (!strcmp(name, cxl_fig_name(f)))
			return f;
	return -1;
}

static struct ph_cxl_explained *node_of(struct ph_cxl_explained **e, int *ne, int node)
{
	struct ph_cxl_explained *x;

	for (int i = 0; i < *ne; i++)
		if ((*e)[i].node == node)
			return &(*e)[i];
	x = xappend(e, ne, sizeof(**e));
	memset(x, 0, sizeof(*x));
	x->node = node;
	x->cdat_handle = -1;
	x->gp_domain = -1;
	x->hb_uid = -1;
	for (int a = 0; a < 2; a++)
		for (int f = 0; f < PH_CXL_NFIG; f++)
			x->kernel_node[a][f] = x->kernel_region[a][f] = -1;
	return x;
}

static int bad_row(char *why, size_t n, const char *path, const char *table, size_t i, const char *what)
{
	snprintf(why, n, "%s: %s row %zu: %s", path, table, i + 1, what);
	return -EINVAL;
}

static int read_explain(json_object *rows, const char *path, struct ph_cxl_explained **e, int *ne,
			char *why, size_t n)
{
	for (size_t i = 0; i < json_object_array_length(rows); i++) {
		json_object *row = json_object_array_get_idx(rows, i), *o;
		double node, access, v;
		bool bad = false;
		struct ph_cxl_explained *x;
		int f;

		if (!json_object_is_type(row, json_type_object) || !num(row, "node", &node, &bad) ||
		    !num(row, "access", &access, &bad) || (access != 0 && access != 1) ||
		    !json_object_object_get_ex(row, "figure", &o) || !json_object_is_type(o, json_type_string) ||
		    (f = fig_of(json_object_get_string(o))) < 0)
			return bad_row(why, n, path, "cxl_explain", i,
				       "expected node, access 0 or 1, and a figure as pagehop cxl names it");
		x = node_of(e, ne, (int)node);
		if (json_object_object_get_ex(row, "region", &o) && json_object_is_type(o, json_type_string))
			snprintf(x->region, sizeof(x->region), "%s", json_object_get_string(o));
		if (json_object_object_get_ex(row, "memdev", &o) && json_object_is_type(o, json_type_string))
			snprintf(x->memdev, sizeof(x->memdev), "%s", json_object_get_string(o));
		/* A region over several devices: its devices' rows are no one path of the node. */
		if (strchr(x->memdev, ',')) {
			x->ndev = 2;
			x->why = "interleaved over several devices: one measurement cannot be split between their paths";
		}
		if (num(row, "device_cdat", &v, &bad))
			x->parts.cdat[f] = (uint32_t)v;
		if (num(row, "generic_port", &v, &bad))
			x->parts.gp[(int)access][f] = (uint32_t)v;
		if (num(row, "link", &v, &bad)) {
			if (cxl_fig_is_latency(f))
				x->parts.link_lat_ns = (uint32_t)v;
			else
				x->parts.link_bw = (uint32_t)v;
		}
		if (num(row, "kernel_node", &v, &bad))
			x->kernel_node[(int)access][f] = (int64_t)v;
		if (num(row, "kernel_region", &v, &bad))
			x->kernel_region[(int)access][f] = (int64_t)v;
		if (bad)
			return bad_row(why, n, path, "cxl_explain", i, "a figure that is not a number");
	}
	return 0;
}

static void read_parts(json_object *rows, struct ph_cxl_explained *e, int ne)
{
	for (size_t i = 0; rows && i < json_object_array_length(rows); i++) {
		json_object *row = json_object_array_get_idx(rows, i);
		double node, v;
		bool bad = false;

		if (!num(row, "node", &node, &bad))
			continue;
		for (int k = 0; k < ne; k++) {
			if (e[k].node != (int)node)
				continue;
			if (num(row, "cdat_dsmas_handle", &v, &bad))
				e[k].cdat_handle = (int)v;
			if (num(row, "generic_port_domain", &v, &bad))
				e[k].gp_domain = (long)v;
			if (num(row, "host_bridge_uid", &v, &bad))
				e[k].hb_uid = (int64_t)v;
			if (num(row, "link_latency_ps", &v, &bad))
				e[k].link_lat_ps = (uint32_t)v;
		}
	}
}

static bool flag(json_object *row, const char *key)
{
	json_object *o;

	/* No CI recorded: the noise stands for it, as for a figure measured without one. */
	return !json_object_object_get_ex(row, key, &o) || !json_object_is_type(o, json_type_boolean) ||
	       json_object_get_boolean(o);
}

static int read_measured(json_object *rows, const char *path, struct ph_cxl_measured **m, int *nm,
			 char *why, size_t n)
{
	for (size_t i = 0; rows && i < json_object_array_length(rows); i++) {
		json_object *row = json_object_array_get_idx(rows, i);
		struct ph_cxl_measured *x;
		double node, cpu;
		bool bad = false;

		if (!json_object_is_type(row, json_type_object) || !num(row, "node", &node, &bad) ||
		    !num(row, "cpu_node", &cpu, &bad))
			return bad_row(why, n, path, "cxl_measured", i, "expected node and cpu_node");
		x = xappend(m, nm, sizeof(**m));
		memset(x, 0, sizeof(*x));
		x->node = (int)node;
		x->cpu_node = (int)cpu;
		x->lat_lo = x->lat_hi = x->bw_lo = x->bw_hi = NAN;
		x->have_lat = num(row, "lat_ns", &x->lat_ns, &bad) && x->lat_ns > 0;
		num(row, "lat_ci_lo_ns", &x->lat_lo, &bad);
		num(row, "lat_ci_hi_ns", &x->lat_hi, &bad);
		x->have_bw = num(row, "read_GBps", &x->bw_GBps, &bad) && x->bw_GBps > 0;
		num(row, "read_ci_lo_GBps", &x->bw_lo, &bad);
		num(row, "read_ci_hi_GBps", &x->bw_hi, &bad);
		x->lat_ci_met = flag(row, "lat_ci_met");
		x->bw_ci_met = flag(row, "read_ci_met");
		if (bad)
			return bad_row(why, n, path, "cxl_measured", i, "a figure that is not a number");
	}
	return 0;
}

int cxl_input_read(const char *path, struct ph_cxl_explained **e, int *ne,
		   struct ph_cxl_measured **m, int *nm, char *boot, size_t bootsize, char *why,
		   size_t whylen)
{
	json_object *root = NULL, *rows, *prov, *id;
	char *text, jwhy[JSON_WHY_MAX];
	const char *kind = NULL;
	size_t len;
	int rc, line;

	*e = NULL;
	*m = NULL;
	*ne = *nm = 0;
	boot[0] = 0;
	rc = read_whole_file(path, MAX_DOC_BYTES, &text, &len, &kind);
	if (rc) {
		snprintf(why, whylen, "%s: %s", path, kind ? kind : strerror(-rc));
		return rc;
	}
	rc = json_doc_parse(text, &root, &line, jwhy, sizeof(jwhy));
	free(text);
	if (rc) {
		snprintf(why, whylen, "%s: not JSON: line %d: %s; expected pagehop cxl --format json", path,
			 line, jwhy);
		return -EINVAL;
	}
	if (!json_object_object_get_ex(root, "cxl_explain", &rows) ||
	    !json_object_is_type(rows, json_type_array) || !json_object_array_length(rows)) {
		snprintf(why, whylen, "%s: no cxl_explain rows; expected pagehop cxl --format json", path);
		rc = -EINVAL;
		goto out;
	}
	if (json_object_object_get_ex(root, "provenance", &prov) &&
	    json_object_object_get_ex(prov, "boot_id", &id) && json_object_is_type(id, json_type_string))
		snprintf(boot, bootsize, "%s", json_object_get_string(id));
	rc = read_explain(rows, path, e, ne, why, whylen);
	if (rc)
		goto out;
	read_parts(json_object_object_get_ex(root, "cxl_parts", &rows) &&
			   json_object_is_type(rows, json_type_array) ? rows : NULL, *e, *ne);
	rc = read_measured(json_object_object_get_ex(root, "cxl_measured", &rows) &&
				   json_object_is_type(rows, json_type_array) ? rows : NULL,
			   path, m, nm, why, whylen);
	/* Composed again from the parts, not taken as written. */
	for (int i = 0; !rc && i < *ne; i++) {
		struct ph_cxl_explained *x = &(*e)[i];

		/* Interleaved: what was read is its last device's, no part of the node's. */
		if (x->ndev > 1) {
			memset(&x->parts, 0, sizeof(x->parts));
			x->link_lat_ps = 0;
			x->cdat_handle = -1;
			x->gp_domain = -1;
			x->hb_uid = -1;
		}
		cxl_compose(&x->parts, &x->sum);
		if (!x->why && !x->parts.cdat[PH_CXL_READ_LAT] && !x->parts.gp[0][PH_CXL_READ_LAT] &&
		    !x->parts.link_lat_ns)
			x->why = "not composed in the input";
	}
out:
	json_object_put(root);
	if (rc) {
		free(*e);
		free(*m);
		*e = NULL;
		*m = NULL;
		*ne = *nm = 0;
	}
	return rc;
}
