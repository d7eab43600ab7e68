/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * report.h - saved pagehop documents (any command's --format json) as one
 * self-contained HTML page: verdicts in words at the top, then for each
 * document its provenance, a heatmap per matrix (the SLIT beside the
 * measurement, cells outside tolerance marked, the proposed SLIT) and its
 * curves with CIs as error bars.  The reader (read_report.c) fills the
 * model below; the page (report_html.c) is drawn from it alone.
 */
#ifndef PAGEHOP_REPORT_H
#define PAGEHOP_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct rep_matrix {
	char *title, *unit;
	int nr, nc;
	int *rows, *cols;
	double *val;		/* nr * nc, NAN where none */
	bool *mark;		/* cells outside tolerance */
	bool high_good;
	const char *row_label, *col_label;	/* "CPU node", "memory node"; "CPU" for c2c */
};

struct rep_series {
	char *name;
	int n;
	double *x, *y, *lo, *hi;	/* lo, hi NAN where there is no CI */
	bool ring;		/* rings around points another series draws (entries judged off) */
};

struct rep_chart {
	const char *title, *xlabel, *ylabel;
	char *title_own;	/* title's storage where it was made for the document, or NULL */
	bool x_bytes;
	bool x_log2, y_log2;	/* numbers on a log2 scale */
	bool points;		/* points only, no line joining them: categories of different kinds */
	char *caption;		/* what the chart draws, and what it does not, in words under it; or NULL */
	struct rep_series *s;
	int ns;
	char **xcat;		/* x is a category: x = i stands for xcat[i]; or NULL */
	int ncat;
};

/* The provenance fields a report shows, in order (REP_PROV_KEYS). */
enum { REP_NPROV = 8 };
extern const char *const rep_prov_keys[REP_NPROV];

struct rep_doc {
	char *path;
	char *kind;		/* provenance.subcommand */
	char *not_shown;	/* why the document is not drawn, or NULL */
	char *prov[REP_NPROV];	/* NULL where the document has none */
	char *where;		/* what was measured where: node, page size, CPUs */
	char *measured_on;	/* the host measured, and by which rule; "unknown..." */
	char *analysed_on;	/* the host the document was made on */
	char *measured_host;	/* the host measured alone, or "unknown" */
	bool measured_here;	/* measured where the document was made */
	char *phases;		/* the time block: each phase's seconds, or NULL */
	char *status, *summary, *margin;	/* the verdict, or NULL */
	long long exit_code;
	bool has_exit;
	char **checks;		/* "name: result: detail" */
	int nchecks;
	struct rep_matrix *m;
	int nm;
	struct rep_chart *c;
	int nc;
};

/*
 * The kinds of document the report knows: the names of pagehop's commands,
 * set by main from the command registry (so a new command's documents are
 * known without a change here).  kinds must outlive every report_read().
 */
void report_set_kinds(const char *const *kinds, size_t n);

/*
 * text (a C string) read from path.  0 with d filled (d->not_shown set for
 * a document of a kind it does not know, or of a version other than
 * version's major.minor), or -EINVAL with one line in err for text that
 * is not one JSON object.
 */
int report_read(const char *path, const char *text, const char *version,
		struct rep_doc *d, char *err, size_t errlen);
void report_doc_free(struct rep_doc *d);

/*
 * A document's charts and heatmaps drawn by gnuplot (plot.h) into path,
 * under a title naming the command, the host and CPU, and d->where.  0, or
 * -errno with why (-ENODATA: the document has nothing to draw).
 */
int report_plot(const struct rep_doc *d, const char *gnuplot, const char *path, char *why, size_t size);

/*
 * --plot: doc as --format json writes it, read as a report reads it, drawn
 * by report_plot with Debian's gnuplot.  0, or -errno with why.
 */
struct ph_doc;
int doc_plot(struct ph_doc *doc, const char *path, char *why, size_t size);

/* The page for docs[0..n), as one HTML5 document; 0 or -errno of f. */
int report_html(FILE *f, const struct rep_doc *docs, int n, const char *made_by);

#endif
