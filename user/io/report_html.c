// SPDX-License-Identifier: GPL-2.0-only
/*
 * report_html.c - the report's page: HTML5 with its style inline and its
 * charts as inline SVG (svg.c); no script, nothing fetched, so the file
 * alone is the report, to mail or post.
 */
#include "report.h"
#include "svg.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static const char style[] =
	"body{font-family:sans-serif;margin:24px auto;max-width:1240px;color:#222;line-height:1.4}"
	"h1{font-size:26px}h2{font-size:20px;border-bottom:1px solid #ccc;padding-bottom:4px;margin-top:36px}"
	"h3{font-size:16px}"
	"table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #ccc;padding:4px 8px;text-align:left;"
	"vertical-align:top}th{background:#f3f3f3}"
	".ok{background:#dff0d8}.bad{background:#f8d7da}.warn{background:#fff3cd}"
	".charts{display:flex;flex-wrap:wrap;gap:16px;align-items:flex-start}"
	".charts svg{border:1px solid #ddd;background:#fff}"
	".charts figure{margin:0;max-width:902px}figcaption{font-size:13px;color:#444;margin-top:4px}"
	".notshown{background:#f3f3f3;padding:8px 12px;border-left:4px solid #888}"
	"dl.prov{display:grid;grid-template-columns:max-content auto;gap:2px 16px;font-size:14px}"
	"dl.prov dt{font-weight:bold}dl.prov dd{margin:0;font-family:monospace;word-break:break-all}";

static void text(FILE *f, const char *s)
{
	xml_text(f, s ? s : "");
}

/* The class of a verdict's row: green for a pass, red for a failure. */
static const char *verdict_class(const struct rep_doc *d)
{
	if (!d->has_exit)
		return "";
	if (d->exit_code == 0)
		return "ok";
	/* check's WARNING; slit's exit 3, in order but not in magnitude. */
	if ((d->status && !strcmp(d->status, "WARNING")) || (!strcmp(d->kind, "slit") && d->exit_code == 3))
		return "warn";
	return "bad";
}

static void verdicts(FILE *f, const struct rep_doc *docs, int n)
{
	int nv = 0;

	fputs("<section id=\"verdicts\">\n<h2>Verdicts</h2>\n", f);
	for (int i = 0; i < n; i++)
		nv += docs[i].status || docs[i].has_exit;
	if (!nv) {
		fputs("<p>No document carries a verdict.</p>\n</section>\n", f);
		return;
	}
	fputs("<table>\n<tr><th>document</th><th>command</th><th>verdict</th><th>exit status</th>"
	      "<th>in words</th><th>margin</th></tr>\n", f);
	for (int i = 0; i < n; i++) {
		const struct rep_doc *d = &docs[i];

		if (!d->status && !d->has_exit)
			continue;
		fprintf(f, "<tr class=\"verdict %s\"><td>", verdict_class(d));
		text(f, d->path);
		fputs("</td><td>pagehop ", f);
		text(f, d->kind);
		fputs("</td><td><b>", f);
		text(f, d->status);
		fputs("</b></td><td>", f);
		if (d->has_exit)
			fprintf(f, "%lld", d->exit_code);
		fputs("</td><td>", f);
		text(f, d->summary);
		fputs("</td><td>", f);
		text(f, d->margin ? d->margin : "-");
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n</section>\n", f);
}

static void provenance(FILE *f, const struct rep_doc *d)
{
	fputs("<dl class=\"prov\">\n", f);
	for (int i = 0; i < REP_NPROV; i++) {
		fputs("<dt>", f);
		text(f, rep_prov_keys[i]);
		fputs("</dt><dd>", f);
		text(f, d->prov[i] ? d->prov[i] : "not recorded");
		fputs("</dd>\n", f);
	}
	fputs("<dt>measured on</dt><dd>", f);
	text(f, d->measured_on ? d->measured_on : "not recorded");
	fputs("</dd>\n<dt>analysed on</dt><dd>", f);
	text(f, d->analysed_on ? d->analysed_on : "not recorded");
	fputs("</dd>\n<dt>measured</dt><dd>", f);
	text(f, d->where ? d->where : "not recorded");
	fputs("</dd>\n<dt>time</dt><dd>", f);
	text(f, d->phases ? d->phases : "not recorded (no time block)");
	fputs("</dd>\n", f);
	fputs("</dl>\n", f);
}

static void document(FILE *f, const struct rep_doc *d, int idx)
{
	fprintf(f, "<section class=\"doc\" id=\"doc%d\">\n<h2>", idx);
	if (d->kind && d->kind[0]) {
		fputs("pagehop ", f);
		text(f, d->kind);
		fputs(": ", f);
	}
	text(f, d->path);
	fputs("</h2>\n", f);
	if (d->not_shown) {
		fputs("<p class=\"notshown\"><b>not shown</b>: ", f);
		text(f, d->not_shown);
		fputs("</p>\n</section>\n", f);
		return;
	}
	provenance(f, d);
	if (d->nchecks) {
		fputs("<h3>checks</h3>\n<ul>\n", f);
		for (int i = 0; i < d->nchecks; i++) {
			fputs("<li>", f);
			text(f, d->checks[i]);
			fputs("</li>\n", f);
		}
		fputs("</ul>\n", f);
	}
	if (d->nm) {
		double dlo = NAN, dhi = NAN;

		/* Distances (measured, SLIT, proposed) on one colour scale. */
		for (int i = 0; i < d->nm; i++)
			for (int k = 0; !d->m[i].unit[0] && k < d->m[i].nr * d->m[i].nc; k++)
				if (isfinite(d->m[i].val[k])) {
					dlo = isfinite(dlo) ? fmin(dlo, d->m[i].val[k]) : d->m[i].val[k];
					dhi = isfinite(dhi) ? fmax(dhi, d->m[i].val[k]) : d->m[i].val[k];
				}
		fprintf(f, "<h3>matrices (rows: %s, columns: %s)</h3>\n<div class=\"charts\">\n",
			d->m[0].row_label, d->m[0].col_label);
		for (int i = 0; i < d->nm; i++) {
			const struct rep_matrix *m = &d->m[i];
			struct svg_heat h = { m->title, m->unit, m->nr, m->nc, m->rows, m->cols, m->val,
					      m->mark, m->high_good, m->unit[0] ? NAN : dlo,
					      m->unit[0] ? NAN : dhi, m->row_label, m->col_label };

			svg_heatmap(f, &h);
		}
		fputs("</div>\n", f);
	}
	if (d->nc) {
		fputs("<h3>curves</h3>\n<div class=\"charts\">\n", f);
		for (int i = 0; i < d->nc; i++) {
			const struct rep_chart *c = &d->c[i];
			struct svg_series s[32];
			struct svg_chart ch = { .title = c->title, .xlabel = c->xlabel, .ylabel = c->ylabel,
						.x_log2_bytes = c->x_bytes, .x_log2 = c->x_log2,
						.y_log2 = c->y_log2, .y_from_zero = true,
						.xcat = (const char *const *)c->xcat, .ncat = c->ncat,
						.points = c->points };
			int ns = c->ns < 32 ? c->ns : 32;

			for (int k = 0; k < ns; k++)
				s[k] = (struct svg_series){ c->s[k].name, c->s[k].n, c->s[k].x, c->s[k].y,
							    c->s[k].lo, c->s[k].hi, c->s[k].ring };
			if (c->caption || ns < c->ns)
				fputs("<figure>\n", f);
			svg_curves(f, &ch, s, ns);
			if (c->caption || ns < c->ns) {
				fputs("<figcaption>", f);
				text(f, c->caption);
				if (ns < c->ns)
					fprintf(f, "%sOnly the first %d of %d curves are drawn; the others are in the JSON.",
						c->caption ? " " : "", ns, c->ns);
				fputs("</figcaption>\n</figure>\n", f);
			}
		}
		fputs("</div>\n", f);
	}
	if (!d->nm && !d->nc && !d->nchecks)
		fputs("<p>This kind of document has no chart; its figures are in its JSON.</p>\n", f);
	fputs("</section>\n", f);
}

int report_html(FILE *f, const struct rep_doc *docs, int n, const char *made_by)
{
	int shown = 0;

	for (int i = 0; i < n; i++)
		shown += !docs[i].not_shown;
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<link rel=\"icon\" href=\"data:,\">\n<title>pagehop report</title>\n<style>", f);
	fputs(style, f);
	fputs("</style>\n</head>\n<body>\n<h1>pagehop report</h1>\n<p>", f);
	fprintf(f, "%d document%s, %d shown; made by ", n, n == 1 ? "" : "s", shown);
	text(f, made_by);
	fputs(".</p>\n", f);
	verdicts(f, docs, n);
	for (int i = 0; i < n; i++)
		document(f, &docs[i], i);
	fputs("</body>\n</html>\n", f);
	if (fflush(f) || ferror(f))
		return errno ? -errno : -EIO;
	return 0;
}
