// SPDX-License-Identifier: GPL-2.0-only
/*
 * svg.c - heatmaps and curves as SVG, in pixels that stay readable in a
 * page 1280 px wide: text at 12-14 px, a chart at most 900 px wide.
 */
#include "svg.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void xml_text(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default:
			/* A control character is not XML; a report shows it as a space. */
			fputc((unsigned char)*s < 0x20 && *s != '\n' && *s != '\t' ? ' ' : *s, f);
		}
	}
}

static void svg_open(FILE *f, int w, int h, const char *cls, const char *title)
{
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"%s\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"13\" role=\"img\">\n",
		cls, w, h, w, h);
	fputs("<title>", f);
	xml_text(f, title);
	fputs("</title>\n", f);
	fprintf(f, "<text x=\"%d\" y=\"20\" font-size=\"15\" font-weight=\"bold\">", 10);
	xml_text(f, title);
	fputs("</text>\n", f);
}

/*
 * Blue (best) through pale yellow to red (worst), t in [0, 1]: the
 * diverging ramp of ColorBrewer's RdYlBu, readable in grey too.
 */
static void ramp(double t, char *out, size_t size)
{
	static const double stop[3][3] = { { 44, 123, 182 }, { 255, 255, 191 }, { 215, 25, 28 } };
	const double *a, *b;
	double u;

	t = t < 0 ? 0 : t > 1 ? 1 : t;
	a = t < 0.5 ? stop[0] : stop[1];
	b = t < 0.5 ? stop[1] : stop[2];
	u = t < 0.5 ? t * 2 : (t - 0.5) * 2;
	snprintf(out, size, "#%02x%02x%02x", (int)lround(a[0] + (b[0] - a[0]) * u),
		 (int)lround(a[1] + (b[1] - a[1]) * u), (int)lround(a[2] + (b[2] - a[2]) * u));
}

#define CELL 58
#define HEAT_LEFT 80
#define HEAT_TOP 70

void svg_heatmap(FILE *f, const struct svg_heat *h)
{
	int n = h->nrows * h->ncols, w, ht, marks = 0;
	double lo = INFINITY, hi = -INFINITY;
	char col[16];

	for (int i = 0; i < n; i++) {
		if (isfinite(h->val[i])) {
			lo = fmin(lo, h->val[i]);
			hi = fmax(hi, h->val[i]);
		}
		marks += h->mark && h->mark[i];
	}
	/* One scale for charts set side by side, so that a colour means one value. */
	if (isfinite(h->lo) && isfinite(h->hi) && h->hi > h->lo) {
		lo = h->lo;
		hi = h->hi;
	}
	w = HEAT_LEFT + h->ncols * CELL + 20;
	if (w < 330)
		w = 330;
	ht = HEAT_TOP + h->nrows * CELL + 70;
	svg_open(f, w, ht, "chart heatmap", h->title);
	fprintf(f, "<text x=\"%d\" y=\"42\" text-anchor=\"middle\">", HEAT_LEFT + h->ncols * CELL / 2);
	xml_text(f, h->col_label ? h->col_label : "memory node");
	fprintf(f, "</text>\n<text x=\"14\" y=\"%d\" text-anchor=\"middle\" transform=\"rotate(-90 14 %d)\">",
		HEAT_TOP + h->nrows * CELL / 2, HEAT_TOP + h->nrows * CELL / 2);
	xml_text(f, h->row_label ? h->row_label : "CPU node");
	fputs("</text>\n", f);
	for (int c = 0; c < h->ncols; c++)
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%d</text>\n",
			HEAT_LEFT + c * CELL + CELL / 2, HEAT_TOP - 8, h->col_ids[c]);
	for (int r = 0; r < h->nrows; r++) {
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%d</text>\n",
			HEAT_LEFT - 8, HEAT_TOP + r * CELL + CELL / 2 + 5, h->row_ids[r]);
		for (int c = 0; c < h->ncols; c++) {
			int i = r * h->ncols + c, x = HEAT_LEFT + c * CELL, y = HEAT_TOP + r * CELL;
			bool out = h->mark && h->mark[i];
			double t = hi > lo ? (h->val[i] - lo) / (hi - lo) : 0;

			if (!isfinite(h->val[i])) {
				fprintf(f, "<rect class=\"cell none\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
					"fill=\"#eeeeee\" stroke=\"#ffffff\"/>\n", x, y, CELL, CELL);
				fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"#888888\">-</text>\n",
					x + CELL / 2, y + CELL / 2 + 5);
				continue;
			}
			ramp(h->high_is_good ? 1 - t : t, col, sizeof(col));
			fprintf(f, "<rect class=\"cell%s\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" "
				"stroke=\"#ffffff\"><title>CPU node %d, memory node %d: %.4g %s%s</title></rect>\n",
				out ? " out" : "", x, y, CELL, CELL, col, h->row_ids[r], h->col_ids[c], h->val[i],
				h->unit, out ? " (outside tolerance)" : "");
			/* The mark inside the cell, so that a neighbour cannot cover it. */
			if (out)
				fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
					"stroke=\"#000000\" stroke-width=\"3\"/>\n", x + 3, y + 3, CELL - 6, CELL - 6);
			fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\"%s>%.4g</text>\n",
				x + CELL / 2, y + CELL / 2 + 5, out ? " font-weight=\"bold\"" : "", h->val[i]);
		}
	}
	/* The legend: the colour scale with its ends, and what a mark means. */
	{
		int y = HEAT_TOP + h->nrows * CELL + 18;

		for (int k = 0; k < 10; k++) {
			ramp(h->high_is_good ? 1 - k / 9.0 : k / 9.0, col, sizeof(col));
			fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"12\" fill=\"%s\"/>\n",
				HEAT_LEFT + k * 14, y, col);
		}
		fprintf(f, "<text x=\"%d\" y=\"%d\">%.4g to %.4g", HEAT_LEFT + 148, y + 11,
			isfinite(lo) ? lo : 0, isfinite(hi) ? hi : 0);
		if (h->unit[0]) {
			fputc(' ', f);
			xml_text(f, h->unit);
		}
		fputs("</text>\n", f);
		if (marks)
			fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"12\" fill=\"none\" stroke=\"#000000\" "
				"stroke-width=\"3\"/><text x=\"%d\" y=\"%d\">outside tolerance (%d)</text>\n",
				HEAT_LEFT, y + 22, HEAT_LEFT + 22, y + 33, marks);
	}
	fputs("</svg>\n", f);
}

/* ---- curves ---- */

#define CW 900
#define CH 470
#define PL 80	/* plot area: left, right, top, bottom margins */
#define PR 200
#define PT 40
#define PB 60

static const char *const palette[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2",
};

struct axis {
	double lo, hi;
	bool log2;
	int px0, px1;	/* pixels of lo and hi */
};

static double to_px(const struct axis *a, double v)
{
	double u = a->log2 ? (log2(v) - log2(a->lo)) / (log2(a->hi) - log2(a->lo))
			   : (v - a->lo) / (a->hi - a->lo);

	return a->px0 + u * (a->px1 - a->px0);
}

/* 16384 -> "16K", 1048576 -> "1M". */
static void bytes_label(double b, char *out, size_t size)
{
	static const char units[] = "BKMGTP";
	int u = 0;

	while (b >= 1024 && u < 5) {
		b /= 1024;
		u++;
	}
	snprintf(out, size, "%g%c", b, u ? units[u] : 'B');
}

/* A step of 1, 2 or 5 times a power of ten giving about 5 ticks over range. */
static double nice_step(double range)
{
	double p = pow(10, floor(log10(range / 5))), m = range / 5 / p;

	return p * (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10);
}

static bool usable(const struct svg_series *s, int i, const struct axis *x, const struct axis *y)
{
	return isfinite(s->x[i]) && isfinite(s->y[i]) && (!x->log2 || s->x[i] > 0) && (!y->log2 || s->y[i] > 0);
}

/* A CI's end that the y axis can show: finite, and above 0 on a log scale. */
static bool usable_ci(double v, const struct axis *y)
{
	return isfinite(v) && (!y->log2 || v > 0);
}

/* 1024 -> "1024", 0.5 -> "0.5": a power of two in full, not as 1.024e+03. */
static void num_label(double v, char *out, size_t size)
{
	snprintf(out, size, v >= 1 ? "%.0f" : "%g", v);
}

/*
 * The grid line and label of every power of two on a log axis, or of every
 * second, third... one: at most 13 labels, so that the longest ("1048576",
 * "512K") do not run into each other over the plot's 620 px.
 */
static void log2_ticks(FILE *f, const struct axis *a, bool is_x, bool bytes)
{
	int e0 = (int)ceil(log2(a->lo)), e1 = (int)floor(log2(a->hi));
	int step = 1 + (e1 - e0) / 12;
	char lab[32];

	for (int e = e0; e <= e1; e += step) {
		double px = to_px(a, ldexp(1, e));

		if (bytes)
			bytes_label(ldexp(1, e), lab, sizeof(lab));
		else
			num_label(ldexp(1, e), lab, sizeof(lab));
		if (is_x)
			fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#dddddd\"/>"
				"<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
				px, PT, px, CH - PB, px, CH - PB + 18, lab);
		else
			fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#dddddd\"/>"
				"<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
				PL, px, CW - PR, px, PL - 6, px + 4, lab);
	}
}

/*
 * A log axis of numbers from a power of two below its least value to one
 * above its greatest, each at least a sixteenth of a doubling away (a
 * figure of exactly 32 GB/s gets 64 above it): labelled at both ends, no
 * point on the frame.
 */
static void log2_widen(struct axis *a)
{
	if (!a->log2)
		return;
	a->lo = exp2(floor(log2(a->lo) - 1.0 / 16));
	a->hi = exp2(ceil(log2(a->hi) + 1.0 / 16));
	if (a->hi <= a->lo)
		a->hi = a->lo * 2;
}

/*
 * Category labels too wide for their place (8 px a character at 13 px is
 * above sans-serif's widest digits) take turns on two rows; too wide even
 * for two places, they are set smaller too.  Whether they took two rows.
 */
static bool category_ticks(FILE *f, const struct svg_chart *c, const struct axis *x)
{
	double place = c->ncat > 1 ? to_px(x, 1) - to_px(x, 0) : CW - PL - PR, wide = 0, font = 13;
	bool two;

	for (int i = 0; i < c->ncat; i++)
		wide = fmax(wide, 8.0 * (double)strlen(c->xcat[i]) + 6);
	two = wide > place;
	if (wide > 2 * place)
		font = fmax(7, 13 * 2 * place / wide);
	for (int i = 0; i < c->ncat; i++) {
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\"", to_px(x, i),
			CH - PB + 18 + (two && i % 2 ? 14 : 0));
		if (font < 13)
			fprintf(f, " font-size=\"%.1f\"", font);
		fputc('>', f);
		xml_text(f, c->xcat[i]);
		fputs("</text>\n", f);
	}
	return two;
}

static void ticks(FILE *f, const struct svg_chart *c, const struct axis *x, const struct axis *y)
{
	bool two_rows = false;

	if (c->xcat) {
		two_rows = category_ticks(f, c, x);
	} else if (x->log2) {
		log2_ticks(f, x, true, c->x_log2_bytes);
	} else {
		double st = nice_step(x->hi - x->lo);

		for (double v = ceil(x->lo / st) * st; v <= x->hi + st * 1e-9; v += st)
			fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#dddddd\"/>"
				"<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%g</text>\n",
				to_px(x, v), PT, to_px(x, v), CH - PB, to_px(x, v), CH - PB + 18, v);
	}
	if (y->log2) {
		log2_ticks(f, y, false, false);
	} else {
		double st = nice_step(y->hi - y->lo);

		for (double v = ceil(y->lo / st) * st; v <= y->hi + st * 1e-9; v += st)
			fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#dddddd\"/>"
				"<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n",
				PL, to_px(y, v), CW - PR, to_px(y, v), PL - 6, to_px(y, v) + 4, v);
	}
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#444444\"/>\n",
		PL, PT, CW - PL - PR, CH - PT - PB);
	/* Under the second row of labels, when there is one. */
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">", (PL + CW - PR) / 2, CH - (two_rows ? 4 : 14));
	xml_text(f, c->xlabel);
	fprintf(f, "</text>\n<text x=\"18\" y=\"%d\" text-anchor=\"middle\" transform=\"rotate(-90 18 %d)\">",
		(PT + CH - PB) / 2, (PT + CH - PB) / 2);
	xml_text(f, c->ylabel);
	fputs("</text>\n", f);
}

/*
 * One point: a dot, or a ring around another series' dot (a point judged
 * off); the legend's key of a series drawn as points only, of class "key".
 */
static void marker(FILE *f, double px, double py, bool ring, const char *col, bool key)
{
	const char *cls = key ? " class=\"key\"" : "";

	if (ring)
		fprintf(f, "<circle%s cx=\"%.1f\" cy=\"%.1f\" r=\"7\" fill=\"none\" stroke=\"%s\" "
			"stroke-width=\"2\"/>\n", cls, px, py, col);
	else
		fprintf(f, "<circle%s cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"/>\n", cls, px, py, col);
}

void svg_curves(FILE *f, const struct svg_chart *c, const struct svg_series *s, int ns)
{
	struct axis x = { INFINITY, -INFINITY, c->x_log2_bytes || c->x_log2, PL, CW - PR };
	struct axis y = { INFINITY, -INFINITY, c->y_log2, CH - PB, PT };
	int shown = 0, bars = 0, named = 0;
	double step, font;

	for (int k = 0; k < ns; k++)
		for (int i = 0; i < s[k].n; i++) {
			if (!usable(&s[k], i, &x, &y))
				continue;
			x.lo = fmin(x.lo, s[k].x[i]);
			x.hi = fmax(x.hi, s[k].x[i]);
			y.lo = fmin(y.lo, s[k].y[i]);
			y.hi = fmax(y.hi, s[k].y[i]);
			if (s[k].lo && usable_ci(s[k].lo[i], &y))
				y.lo = fmin(y.lo, s[k].lo[i]);
			if (s[k].hi && usable_ci(s[k].hi[i], &y))
				y.hi = fmax(y.hi, s[k].hi[i]);
		}
	if (!isfinite(x.lo)) {
		x.lo = 1;
		x.hi = 2;
		y.lo = y.log2 ? 1 : 0;
		y.hi = y.log2 ? 2 : 1;
	}
	if (c->xcat) {	/* the categories, evenly, half a step in from each side */
		x.lo = -0.5;
		x.hi = c->ncat - 0.5;
	}
	if (c->y_from_zero && !y.log2 && y.lo > 0)
		y.lo = 0;
	if (x.hi <= x.lo)
		x.hi = x.log2 ? x.lo * 2 : x.lo + 1;
	if (y.hi <= y.lo)
		y.hi = y.log2 ? y.lo * 2 : y.lo + (y.lo ? fabs(y.lo) * 0.1 : 1);
	if (c->x_log2)		/* not the working sets' bytes: they start and end at their sizes */
		log2_widen(&x);
	log2_widen(&y);
	if (!y.log2)
		y.hi += (y.hi - y.lo) * 0.05;
	svg_open(f, CW, CH, "chart curves", c->title);
	ticks(f, c, &x, &y);
	/* The legend's names 22 px apart, closer and smaller when that would run off the chart (a matrix's cells). */
	for (int k = 0; k < ns; k++)
		named += s[k].n > 0;
	step = fmin(22, (CH - PT - 40) / (named + 1.0));
	font = fmin(13, step - 1);
	for (int k = 0; k < ns; k++) {
		const char *col = palette[k % (int)(sizeof(palette) / sizeof(palette[0]))];
		bool first = true;
		double ly = PT + 12 + shown * step;

		if (!s[k].n)
			continue;
		fputs("<g class=\"series\">\n", f);
		for (int i = 0; i < s[k].n; i++) {
			double px, lo, hi;

			if (!usable(&s[k], i, &x, &y) || !s[k].lo || !s[k].hi)
				continue;
			lo = s[k].lo[i];
			hi = s[k].hi[i];
			if (!usable_ci(lo, &y) || !usable_ci(hi, &y))
				continue;
			px = to_px(&x, s[k].x[i]);
			fprintf(f, "<path class=\"err\" d=\"M%.1f %.1fV%.1fM%.1f %.1fh8M%.1f %.1fh8\" stroke=\"%s\" fill=\"none\"/>\n",
				px, to_px(&y, lo), to_px(&y, hi), px - 4, to_px(&y, lo), px - 4, to_px(&y, hi), col);
			bars++;
		}
		if (!c->points && !s[k].ring) {
			fprintf(f, "<path class=\"curve\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\" d=\"", col);
			for (int i = 0; i < s[k].n; i++) {
				if (!usable(&s[k], i, &x, &y))
					continue;
				fprintf(f, "%s%.1f %.1f", first ? "M" : "L", to_px(&x, s[k].x[i]), to_px(&y, s[k].y[i]));
				first = false;
			}
			fputs("\"/>\n", f);
		}
		for (int i = 0; i < s[k].n; i++)
			if (usable(&s[k], i, &x, &y))
				marker(f, to_px(&x, s[k].x[i]), to_px(&y, s[k].y[i]), s[k].ring, col, false);
		/* The legend's key: a point where the series has no line, else a stretch of its line. */
		if (c->points || s[k].ring)
			marker(f, CW - PR + 27, ly, s[k].ring, col, true);
		else
			fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"3\"/>",
				CW - PR + 14, ly, CW - PR + 40, ly, col);
		fprintf(f, "<text class=\"name\" x=\"%d\" y=\"%.1f\"", CW - PR + 46, ly + font * 0.4);
		if (font < 13)
			fprintf(f, " font-size=\"%.1f\"", font);
		fputc('>', f);
		xml_text(f, s[k].name);
		fputs("</text>\n</g>\n", f);
		shown++;
	}
	/* Said only where a bar is drawn: a chart without CIs claims none. */
	if (bars)
		fprintf(f, "<text x=\"%d\" y=\"%.1f\" font-size=\"%.1f\" fill=\"#555555\">bars: 95%% CI</text>\n",
			CW - PR + 14, PT + 12 + shown * step + 6, fmin(12, font));
	fputs("</svg>\n", f);
}
