/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * svg.h - charts as SVG written by pagehop itself (no gnuplot, no script):
 * a heatmap of a node x node matrix and x/y curves with CIs as error bars.
 * Part of the output layer; pagehop report puts them inline in its page.
 *
 * Every chart is one <svg> element that parses as XML on its own, with a
 * fixed width in pixels, axes with units, and a legend; what a chart holds
 * carries a class a test can count: a heatmap's cells are
 * <rect class="cell">, the cells it marks also have class "out"; each
 * series is one <g class="series"> of its error bars (<path class="err">),
 * its line (<path class="curve">; none where it is drawn as points only),
 * its points (<circle>) and its name (<text class="name">), the legend's
 * key of a series drawn as points a <circle class="key">.
 */
#ifndef PAGEHOP_SVG_H
#define PAGEHOP_SVG_H

#include <stdbool.h>
#include <stdio.h>

/* Text as XML character data or an attribute value: & < > " ' escaped. */
void xml_text(FILE *f, const char *s);

struct svg_heat {
	const char *title;	/* above the chart */
	const char *unit;	/* "ns", "GB/s"; "" for a distance */
	int nrows, ncols;
	const int *row_ids, *col_ids;	/* node ids: rows CPU, columns memory */
	const double *val;	/* nrows * ncols, row-major; NAN: no value */
	const bool *mark;	/* the same shape, cells to mark; or NULL */
	bool high_is_good;	/* bandwidth: the largest value is the coolest colour */
	double lo, hi;		/* the colour scale's ends; NAN: the values' own */
	const char *row_label, *col_label;	/* NULL: "CPU node", "memory node" */
};

/* One heatmap as an <svg> element. */
void svg_heatmap(FILE *f, const struct svg_heat *h);

/* One curve: y[i] against x[i]; lo, hi (or NULL) the CI, NAN where none. */
struct svg_series {
	const char *name;
	int n;
	const double *x, *y, *lo, *hi;
	bool ring;		/* rings around points another series draws, no line */
};

struct svg_chart {
	const char *title, *xlabel, *ylabel;	/* the labels say the units */
	bool x_log2_bytes;	/* x in bytes, log2 scale, 4K 1M 1G labels */
	bool x_log2;		/* x a number on a log2 scale, its powers of two labelled */
	bool y_log2;		/* y the same */
	bool y_from_zero;	/* the y axis starts at 0 (not with y_log2) */
	const char *const *xcat;	/* x is a category: x = i is labelled xcat[i]; or NULL */
	int ncat;
	bool points;		/* points only, no line joining them: categories of different kinds */
};

/* The curves as an <svg> element; the ones with n == 0 are left out. */
void svg_curves(FILE *f, const struct svg_chart *c, const struct svg_series *s, int ns);

#endif
