// SPDX-License-Identifier: GPL-2.0-only
/*
 * report_plot.c - --plot: a document's curves and heatmaps drawn by
 * gnuplot.  The figures are read from the document as --format json writes
 * it, by the report's reader, so that a plot, a report and a saved document
 * of one run show the same figures, and a study with a curve (a row of
 * read_report.c's curve_specs) is plotted without code of its own here.
 */
#include "output.h"
#include "plot.h"
#include "report.h"
#include "util.h"
#include "version.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int report_plot(const struct rep_doc *d, const char *gnuplot, const char *path, char *why, size_t size)
{
	int np = d->nm + d->nc, ns = 0, err;
	struct plot_panel *panel = xcalloc((size_t)np + 1, sizeof(*panel));
	struct plot_heat *heat = xcalloc((size_t)d->nm + 1, sizeof(*heat));
	struct plot *chart = xcalloc((size_t)d->nc + 1, sizeof(*chart));
	struct plot_series *s;
	char *title, **units = xcalloc((size_t)d->nm + 1, sizeof(char *));

	for (int i = 0; i < d->nc; i++)
		ns += d->c[i].ns;
	s = xcalloc((size_t)ns + 1, sizeof(*s));
	if (!np) {
		snprintf(why, size, "nothing to plot: a %s document has no curve or matrix", d->kind);
		err = -ENODATA;
		goto out;
	}
	np = 0;
	for (int i = 0; i < d->nm; i++) {
		const struct rep_matrix *m = &d->m[i];

		units[i] = m->unit[0] ? xstrdup(m->unit) : xstrdup("distance (10 = local)");
		heat[i] = (struct plot_heat){ m->title, m->row_label, m->col_label, units[i], m->nr, m->nc,
					      m->rows, m->cols, m->val, m->mark };
		panel[np++] = (struct plot_panel){ .h = &heat[i] };
	}
	ns = 0;
	for (int i = 0; i < d->nc; i++) {
		const struct rep_chart *c = &d->c[i];

		chart[i] = (struct plot){ c->title, c->xlabel, c->ylabel, c->x_bytes,
					  (const char *const *)c->xcat, c->ncat, c->x_log2, c->y_log2 };
		panel[np] = (struct plot_panel){ .p = &chart[i], .s = &s[ns], .ns = c->ns };
		for (int k = 0; k < c->ns; k++)
			s[ns++] = (struct plot_series){ .title = c->s[k].name, .n = c->s[k].n, .x = c->s[k].x,
							.y = c->s[k].y, .color = k + 1, .lo = c->s[k].lo,
							.hi = c->s[k].hi };
		np++;
	}
	/* The host and CPU of the provenance are where the document was made, not always the measured ones. */
	if (d->measured_here)
		title = xasprintf("pagehop %s on %s (%s), %s", d->kind, d->prov[0] ? d->prov[0] : "?",
				  d->prov[2] ? d->prov[2] : "CPU not recorded", d->prov[5] ? d->prov[5] : "");
	else
		title = xasprintf("pagehop %s of figures measured on %s, analysed on %s, %s", d->kind,
				  d->measured_host ? d->measured_host : "unknown",
				  d->prov[0] ? d->prov[0] : "?", d->prov[5] ? d->prov[5] : "");
	err = plot_figure(gnuplot, path, title, d->where, panel, np, why, size);
	free(title);
out:
	for (int i = 0; i < d->nm; i++)
		free(units[i]);
	free(units);
	free(s);
	free(chart);
	free(heat);
	free(panel);
	return err;
}

int doc_plot(struct ph_doc *doc, const char *path, char *why, size_t size)
{
	char *text = NULL, err[512];
	size_t len = 0;
	struct rep_doc d;
	FILE *f = open_memstream(&text, &len);
	int rc;

	if (!f) {
		snprintf(why, size, "%s", strerror(errno));
		return -errno;
	}
	rc = doc_render(doc, PH_FMT_JSON, f);
	if (fclose(f) && !rc)
		rc = -EIO;
	if (!rc && report_read(path, text, PAGEHOP_VERSION, &d, err, sizeof(err))) {
		snprintf(why, size, "%s", err);
		rc = -EINVAL;
	} else if (!rc) {
		rc = d.not_shown ? -ENODATA : report_plot(&d, PLOT_GNUPLOT, path, why, size);
		if (d.not_shown)
			snprintf(why, size, "nothing to plot: %s", d.not_shown);
		report_doc_free(&d);
	} else {
		snprintf(why, size, "cannot render the document: %s", strerror(-rc));
	}
	free(text);
	return rc;
}
