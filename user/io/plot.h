/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * plot.h - figures drawn by gnuplot, for --plot.  Part of the output layer.
 *
 * No name the user gave ever reaches gnuplot: gnuplot reads a script and a
 * data file that pagehop wrote in a private directory (mkdtemp) and draws
 * into a file there, under names pagehop made; pagehop then copies the
 * result to the user's path with write_file_atomic.  gnuplot is run by its
 * absolute path, with a clean environment, its stdout on /dev/null.
 */
#ifndef PAGEHOP_PLOT_H
#define PAGEHOP_PLOT_H

#include <stdbool.h>
#include <stddef.h>

/* Debian's gnuplot (gnuplot-nox); never looked up in $PATH. */
#define PLOT_GNUPLOT "/usr/bin/gnuplot"

/* One curve: y[i] against x[i]. */
struct plot_series {
	const char *title;	/* in the key; characters other than letters,
				 * digits and " ./+_-,():;=%" are drawn as '_' */
	int n;
	const double *x, *y;
	int color;		/* gnuplot's colour index, 1 and up */
	bool dashed;		/* a dashed line, else a line with points */
	const double *lo, *hi;	/* the CI as error bars, or NULL; NAN: none */
};

struct plot {
	const char *title, *xlabel, *ylabel;	/* the same characters as titles */
	bool x_log2_bytes;	/* x in bytes, log2 scale, binary prefixes */
	const char *const *xcat;	/* x is a category: x = i is labelled xcat[i]; or NULL */
	int ncat;
	bool x_log2, y_log2;	/* x, y numbers on a log2 scale */
};

/* A heatmap: val[r * nc + c] for row id rows[r], column id cols[c]. */
struct plot_heat {
	const char *title, *row_label, *col_label, *unit;	/* characters as titles */
	int nr, nc;
	const int *rows, *cols;
	const double *val;	/* NAN: no value, the cell left blank */
	const bool *mark;	/* cells outside tolerance, circled; or NULL */
};

/* One chart of a figure: curves (p, s, ns) or a heatmap (h). */
struct plot_panel {
	const struct plot *p;
	const struct plot_series *s;
	int ns;
	const struct plot_heat *h;
};

/*
 * The output path's form: ends in .svg or .png (the terminal follows).
 * 0, or -EINVAL with why.
 */
int plot_check_name(const char *path, char *why, size_t size);

/* Whether gnuplot (at the absolute path gnuplot) can be run; else why. */
bool plot_available(const char *gnuplot, char *why, size_t size);

/*
 * Draw the series into path (.svg or .png) with gnuplot.  0, or -errno
 * with why: -ENOENT gnuplot missing, -ENODATA no point to draw, -EIO
 * gnuplot failed (why has the first line it wrote on stderr), or what
 * write_file_atomic said about path.  path is written only on success.
 */
int plot_draw(const char *gnuplot, const char *path, const struct plot *p,
	      const struct plot_series *s, int ns, char *why, size_t size);

/*
 * The same for a figure of np charts, one above the other, under title
 * and a second line, where (what was measured where: node, page size,
 * CPUs); either may be NULL.
 */
int plot_figure(const char *gnuplot, const char *path, const char *title, const char *where,
		const struct plot_panel *panel, int np, char *why, size_t size);

#endif
