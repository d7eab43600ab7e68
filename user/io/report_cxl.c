// SPDX-License-Identifier: GPL-2.0-only
/*
 * report_cxl.c - a pagehop cxl document as the report's charts: per CXL
 * node one chart of read latency and one of read bandwidth, each figure
 * at its source on x: measured (cxl_measured, a point per CPU node with
 * its CI), then the parts Linux composes the node's coordinates from and
 * their composition (cxl_explain: the device CDAT's DSLBIS of the range,
 * the link, the generic port; their sum, for bandwidth the least) and
 * the kernel's coordinate, a point per access class.  The entries
 * cxl_judge finds off are ringed.  A figure the document does not hold is
 * not drawn; the chart's caption names it and what the document says of it.
 */
#include "read_text.h"
#include "report_json.h"
#include "util.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SRC_MEASURED, SRC_CDAT, SRC_LINK, SRC_GP, SRC_SUM, SRC_KERNEL, NSRC };

/* Short, so that six fit under a chart without overlapping. */
static const char *const src_name[NSRC] = { "measured", "CDAT", "link", "GP", "sum", "kernel" };
/* The column of cxl_explain that holds each source's figure. */
static const char *const src_col[NSRC] = {
	NULL, "device_cdat", "link", "generic_port", "composed", "kernel_node",
};

struct cxl_figure {
	const char *what;
	const char *explain, *judge;	/* the figure as cxl_explain and cxl_judge name it */
	const char *y, *lo, *hi;	/* cxl_measured's columns */
	double scale;			/* cxl_explain's unit to the chart's */
	const char *ylabel;
	bool y_log2;			/* a link's MB/s beside a port's tens of GB/s */
};

static const struct cxl_figure cxl_figures[] = {
	{ "read latency", "read_latency_ns", "read_latency_ns", "lat_ns", "lat_ci_lo_ns", "lat_ci_hi_ns",
	  1, "read latency, ns", false },
	/* The tables' MB/s are MiB/s, as cxl_judge reads them (its table column is in GB/s). */
	{ "read bandwidth", "read_bandwidth_MBps", "read_bandwidth_GBps", "read_GBps", "read_ci_lo_GBps",
	  "read_ci_hi_GBps", 1048576.0 / 1e9, "read bandwidth, GB/s (log2 scale)", true },
};

static const char *const access_name[2] = { "access0: any initiator", "access1: CPU initiator" };
static const char off_name[] = "off (cxl_judge)";

/* Where in its category a series' points sit, so that none covers another's. */
static const double access_dx[2] = { -0.1, 0.1 };

static void add_item(char **list, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* One more "; "-separated item of *list. */
static void add_item(char **list, const char *fmt, ...)
{
	char item[512], *t;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(item, sizeof(item), fmt, ap);
	va_end(ap);
	t = *list ? xasprintf("%s; %s", *list, item) : xstrdup(item);
	free(*list);
	*list = t;
}

static size_t rows(json_object *t)
{
	return t && json_object_is_type(t, json_type_array) ? json_object_array_length(t) : 0;
}

/* The document's note that nothing was measured, without its "CXL: ", or NULL. */
static const char *unmeasured_note(json_object *root)
{
	json_object *notes = get(root, "notes");

	for (size_t i = 0; i < rows(notes); i++) {
		json_object *n = json_object_array_get_idx(notes, i);
		const char *s = n && json_object_is_type(n, json_type_string) ? json_object_get_string(n) : "";

		if (!strncmp(s, "CXL: nothing measured", 21))
			return s + 5;
	}
	return NULL;
}

/* Each CPU node's measured figure, with its CI, in the category measured. */
static void measured(json_object *root, int node, const struct cxl_figure *fg, struct rep_chart *ch,
		     char **missing)
{
	json_object *t = get(root, "cxl_measured");
	int nc = 0, k = 0;
	const char *why;

	for (size_t i = 0; i < rows(t); i++)
		nc += get_num(json_object_array_get_idx(t, i), "node") == node;
	if (!nc) {
		why = unmeasured_note(root);
		if (why)
			add_item(missing, "measured: %s", why);
		else
			add_item(missing, "measured: no cxl_measured row for node %d", node);
		return;
	}
	for (size_t i = 0; i < rows(t); i++) {
		json_object *row = json_object_array_get_idx(t, i);
		double cpu = get_num(row, "cpu_node"), y = get_num(row, fg->y);
		double dx = (k - (nc - 1) / 2.0) * fmin(0.2, 0.6 / nc);
		char name[48];

		if (get_num(row, "node") != node)
			continue;
		k++;
		snprintf(name, sizeof(name), "CPU node %.0f", cpu);
		if (!isfinite(y)) {
			add_item(missing, "measured from %s: no %s in its cxl_measured row", name, fg->y);
			continue;
		}
		rep_point(rep_series_of(ch, name), SRC_MEASURED + dx, y, get_num(row, fg->lo), get_num(row, fg->hi));
	}
}

/* cxl_explain's row of node, access class a and the figure, or NULL. */
static json_object *explain_row(json_object *root, int node, int a, const struct cxl_figure *fg)
{
	json_object *t = get(root, "cxl_explain");

	for (size_t i = 0; i < rows(t); i++) {
		json_object *row = json_object_array_get_idx(t, i);

		if (get_num(row, "node") == node && get_num(row, "access") == a &&
		    !strcmp(get_str(row, "figure") ?: "", fg->explain))
			return row;
	}
	return NULL;
}

/* The parts, their composition and the kernel's coordinate, a series per access class. */
static void composed(json_object *root, int node, const struct cxl_figure *fg, struct rep_chart *ch,
		     char **missing)
{
	json_object *row[2];
	char why[2][300];

	for (int a = 0; a < 2; a++) {
		const char *v;

		row[a] = explain_row(root, node, a, fg);
		v = get_str(row[a], "verdict");
		if (!row[a])
			snprintf(why[a], sizeof(why[a]), "no cxl_explain row for node %d", node);
		else if (v && !strncmp(v, "cannot tell", 11))
			snprintf(why[a], sizeof(why[a]), "none in cxl_explain, whose verdict is \"%s\"", v);
		else
			snprintf(why[a], sizeof(why[a]), "none in cxl_explain");
	}
	for (int k = SRC_CDAT; k < NSRC; k++) {
		bool absent[2];

		for (int a = 0; a < 2; a++) {
			double v = get_num(row[a], src_col[k]);

			absent[a] = !isfinite(v);
			if (!absent[a])
				rep_point(rep_series_of(ch, access_name[a]), k + access_dx[a], v * fg->scale, NAN, NAN);
		}
		if (absent[0] && absent[1] && !strcmp(why[0], why[1]))
			add_item(missing, "%s of access0 and access1: %s", src_name[k], why[0]);
		else
			for (int a = 0; a < 2; a++)
				if (absent[a])
					add_item(missing, "%s of access%d: %s", src_name[k], a, why[a]);
	}
}

/* The entries cxl_judge finds off, ringed where access class 1 (the CPUs', which it judges) draws them. */
static void judged_off(json_object *root, int node, const struct cxl_figure *fg, struct rep_chart *ch,
		       char **off)
{
	json_object *t = get(root, "cxl_judge");

	for (size_t i = 0; i < rows(t); i++) {
		json_object *row = json_object_array_get_idx(t, i);
		const char *src = get_str(row, "source") ?: "";
		int k = !strcmp(src, "device CDAT") ? SRC_CDAT : !strcmp(src, "generic port") ? SRC_GP : -1;
		struct rep_series *s;

		if (get_num(row, "node") != node || strcmp(get_str(row, "figure") ?: "", fg->judge) ||
		    strcmp(get_str(row, "verdict") ?: "", "OFF"))
			continue;
		if (k < 0) {
			add_item(off, "%s %s (not drawn: no such source here)", src, get_str(row, "entry") ?: "");
			continue;
		}
		s = rep_series_of(ch, off_name);
		s->ring = true;
		rep_point(s, k + access_dx[1], get_num(row, "table"), NAN, NAN);
		add_item(off, "%s %s, %s", src, get_str(row, "entry") ?: "", get_str(row, "why") ?: "");
	}
}

static void node_chart(json_object *root, struct rep_doc *d, int node, const struct cxl_figure *fg)
{
	struct rep_chart *ch = xappend(&d->c, &d->nc, sizeof(*d->c));
	char *missing = NULL, *off = NULL;

	memset(ch, 0, sizeof(*ch));
	ch->title = ch->title_own = xasprintf("CXL node %d: %s, measured and as the tables give it", node,
					      fg->what);
	ch->xlabel = "source: measured; CDAT + link + GP = sum (for bandwidth, the least); kernel's coordinate";
	ch->ylabel = fg->ylabel;
	ch->points = true;
	ch->y_log2 = fg->y_log2;
	for (int k = 0; k < NSRC; k++)
		rep_category(ch, src_name[k]);
	measured(root, node, fg, ch, &missing);
	composed(root, node, fg, ch, &missing);
	judged_off(root, node, fg, ch, &off);
	ch->caption = xasprintf("measured: from each CPU node, with its CI (cxl_measured); CDAT, link, GP, sum, "
			     "kernel: as Linux composes the node's coordinates and as its sysfs gives them, "
			     "per access class (cxl_explain)%s. Not drawn: %s. Ringed, off by cxl_judge: %s.",
			     fg->scale != 1 ? "; the tables' MB/s read as MiB/s, as cxl_judge reads them" : "",
			     missing ? missing : "none", off ? off : "none");
	free(missing);
	free(off);
}

void cxl_charts(json_object *root, struct rep_doc *d)
{
	static const char *const tables[] = { "cxl_explain", "cxl_measured" };
	int *nodes = NULL, n = 0;

	/* Every CXL node the document names, in the order met. */
	for (size_t t = 0; t < ARRAY_SIZE(tables); t++) {
		json_object *tb = get(root, tables[t]);

		for (size_t i = 0; i < rows(tb); i++) {
			double v = get_num(json_object_array_get_idx(tb, i), "node");
			int k;

			if (!isfinite(v) || v < 0 || v >= PH_MAX_NODES)
				continue;
			for (k = 0; k < n && nodes[k] != (int)v; k++)
				;
			if (k == n)
				*(int *)xappend(&nodes, &n, sizeof(int)) = (int)v;
		}
	}
	for (int i = 0; i < n; i++)
		for (size_t f = 0; f < ARRAY_SIZE(cxl_figures); f++)
			node_chart(root, d, nodes[i], &cxl_figures[f]);
	free(nodes);
}
