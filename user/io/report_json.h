/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * report_json.h - what the report's readers (read_report.c, the general
 * part; report_kinds.c, what some kinds add) share.  Private to them.
 */
#ifndef PAGEHOP_REPORT_JSON_H
#define PAGEHOP_REPORT_JSON_H

#include <json-c/json.h>

#include "report.h"

/* o[key], or NULL when o is not an object or has no such key. */
json_object *get(json_object *o, const char *key);
/* o[key] as a string, or NULL when it is not one. */
const char *get_str(json_object *o, const char *key);
/* o[key] as a number, or NAN when it is not one. */
double get_num(json_object *o, const char *key);

/* A zeroed matrix inserted at index at of d->m. */
struct rep_matrix *add_matrix(struct rep_doc *d, int at);

/* The place of category name on ch's x axis, added when new. */
double rep_category(struct rep_chart *ch, const char *name);
/* ch's series called name, added (empty) when new. */
struct rep_series *rep_series_of(struct rep_chart *ch, const char *name);
/* One more point of s: y (its CI lo, hi, NAN where none) at x. */
void rep_point(struct rep_series *s, double x, double y, double lo, double hi);

/*
 * pagehop cxl: per CXL node a chart of read latency and one of read
 * bandwidth, each figure at its source (measured, CDAT, link, GP, sum,
 * kernel); what is not drawn named in the chart's caption (report_cxl.c).
 */
void cxl_charts(json_object *root, struct rep_doc *d);

/* pagehop c2c: the CPU x CPU latency of its pairs table as a heatmap. */
void c2c_heatmap(json_object *root, struct rep_doc *d);
/* d->where: the node, page size and CPUs the document says it measured. */
void read_where(json_object *root, struct rep_doc *d);
/* The time block's phases as one line, or NULL. */
char *read_phases(json_object *time);

#endif
