// SPDX-License-Identifier: GPL-2.0-only
/*
 * plot.c - figures drawn by gnuplot, without letting gnuplot see a name or
 * a string that pagehop did not make.
 */
#include "plot.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* The largest image read back: far above a 900x600 SVG of 160 points. */
#define PLOT_MAX_BYTES (64 * MiB)

/* Text for a quoted gnuplot string: only characters that cannot end it or escape. */
static void clean_text(const char *in, char *out, size_t size)
{
	size_t n = 0;

	for (; in && *in && n + 1 < size; in++) {
		char c = *in;
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			  (c >= '0' && c <= '9') || strchr(" ./+_-,():;=%", c);

		out[n++] = ok ? c : '_';
	}
	out[n] = '\0';
}

static const char *extension(const char *path)
{
	const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');

	return dot && (!slash || dot > slash) ? dot : NULL;
}

int plot_check_name(const char *path, char *why, size_t size)
{
	const char *ext = extension(path);

	if (!ext || ext == path + strlen(path) - 1 ||
	    (strcmp(ext, ".svg") && strcmp(ext, ".png"))) {
		snprintf(why, size, "expected a file name ending in .svg or .png");
		return -EINVAL;
	}
	return 0;
}

bool plot_available(const char *gnuplot, char *why, size_t size)
{
	if (!access(gnuplot, X_OK))
		return true;
	snprintf(why, size, "%s: %s (Debian: apt-get install gnuplot-nox)", gnuplot,
		 errno == ENOENT ? "not installed" : strerror(errno));
	return false;
}

static void put_series(FILE *f, const struct plot_series *s)
{
	for (int i = 0; i < s->n; i++) {
		double lo = s->lo ? s->lo[i] : NAN, hi = s->hi ? s->hi[i] : NAN;

		if (!s->lo && !s->hi)
			fprintf(f, "%.17g %.17g\n", s->x[i], s->y[i]);
		else	/* no CI: a bar of no length, so the point stays */
			fprintf(f, "%.17g %.17g %.17g %.17g\n", s->x[i], s->y[i],
				isfinite(lo) ? lo : s->y[i], isfinite(hi) ? hi : s->y[i]);
	}
	fprintf(f, "\n\n");
}

static bool heat_marked(const struct plot_heat *h)
{
	for (int i = 0; h->mark && i < h->nr * h->nc; i++)
		if (h->mark[i])
			return true;
	return false;
}

/* A heatmap's cells "column row value", then its marked cells, each a block. */
static void put_heat(FILE *f, const struct plot_heat *h)
{
	for (int r = 0; r < h->nr; r++)
		for (int c = 0; c < h->nc; c++)
			if (isfinite(h->val[r * h->nc + c]))
				fprintf(f, "%d %d %.17g\n", c, r, h->val[r * h->nc + c]);
	fprintf(f, "\n\n");
	if (!heat_marked(h))
		return;
	for (int i = 0; i < h->nr * h->nc; i++)
		if (h->mark[i])
			fprintf(f, "%d %d\n", i % h->nc, i / h->nc);
	fprintf(f, "\n\n");
}

/* Write the data, one block per series or heatmap, for "index k". */
static int write_data(const char *file, const struct plot_panel *panel, int np)
{
	FILE *f = fopen(file, "wx");
	int err = 0;

	if (!f)
		return -errno;
	for (int p = 0; p < np; p++) {
		if (panel[p].h)
			put_heat(f, panel[p].h);
		for (int k = 0; !panel[p].h && k < panel[p].ns; k++)
			if (panel[p].s[k].n > 0)
				put_series(f, &panel[p].s[k]);
	}
	if (fflush(f) || ferror(f))
		err = errno ? -errno : -EIO;
	if (fclose(f) && !err)
		err = -errno;
	return err;
}

/* The curves of one panel; idx counts the data blocks. */
static void script_curves(FILE *f, const struct plot *p, const struct plot_series *s, int ns, int *idx)
{
	char a[256], b[256], c[256];
	int drawn = 0;

	if (p->x_log2_bytes)
		fprintf(f, "set logscale x 2\nset format x '%%.0b%%B'\n");
	if (p->x_log2)
		fprintf(f, "set logscale x 2\n");
	if (p->y_log2)
		fprintf(f, "set logscale y 2\n");
	if (p->xcat && p->ncat > 0) {
		fprintf(f, "set xrange [-0.5:%g]\nset xtics (", p->ncat - 0.5);
		for (int i = 0; i < p->ncat; i++) {
			clean_text(p->xcat[i], a, sizeof(a));
			fprintf(f, "%s'%s' %d", i ? ", " : "", a, i);
		}
		fprintf(f, ")\n");
	}
	clean_text(p->xlabel, a, sizeof(a));
	clean_text(p->ylabel, b, sizeof(b));
	clean_text(p->title, c, sizeof(c));
	fprintf(f, "set xlabel '%s'\nset ylabel '%s'\nset title '%s'\nset key top left\nset grid\nplot ",
		a, b, c);
	for (int k = 0; k < ns; k++) {
		if (s[k].n <= 0)
			continue;
		clean_text(s[k].title, a, sizeof(a));
		if (s[k].lo || s[k].hi)
			fprintf(f, "%s'data' index %d using 1:2:3:4 with yerrorlines lw 2 lc %d%s title '%s'",
				drawn ? ", " : "", (*idx)++, s[k].color, s[k].dashed ? " dt 2" : "", a);
		else
			fprintf(f, "%s'data' index %d using 1:2 with %s lc %d title '%s'",
				drawn ? ", " : "", (*idx)++,
				s[k].dashed ? "lines dt 2 lw 1" : "linespoints lw 2", s[k].color, a);
		drawn++;
	}
	fprintf(f, "\n");
}

/* Tic labels: every id when they fit, else every step-th. */
static void script_tics(FILE *f, const char *axis, const int *ids, int n)
{
	int step = n <= 32 ? 1 : (n + 31) / 32;

	fprintf(f, "set %s (", axis);
	for (int i = 0; i < n; i += step)
		fprintf(f, "%s'%d' %d", i ? ", " : "", ids[i], i);
	fprintf(f, ")\n");
}

static void script_heat(FILE *f, const struct plot_heat *h, int *idx)
{
	char a[256], b[256], c[256], u[64];

	clean_text(h->col_label, a, sizeof(a));
	clean_text(h->row_label, b, sizeof(b));
	clean_text(h->title, c, sizeof(c));
	clean_text(h->unit, u, sizeof(u));
	fprintf(f, "set xlabel '%s'\nset ylabel '%s'\nset title '%s'\nset cblabel '%s'\n", a, b, c, u);
	script_tics(f, "xtics", h->cols, h->nc);
	script_tics(f, "ytics", h->rows, h->nr);
	/* Row 0 at the top, as the tables print it. */
	fprintf(f, "set xrange [-0.5:%g]\nset yrange [%g:-0.5]\nunset grid\nset key below\n",
		h->nc - 0.5, h->nr - 0.5);
	fprintf(f, "set palette defined (0 '#2c7bb6', 0.5 '#ffffbf', 1 '#d7191c')\n");
	fprintf(f, "set style fill solid 1.0 noborder\n");
	fprintf(f, "plot 'data' index %d using 1:2:(0.5):(0.5):3 with boxxyerror fc palette notitle", *idx);
	if (h->nr * h->nc <= 144)
		fprintf(f, ", 'data' index %d using 1:2:(sprintf('%%.4g', $3)) with labels notitle", *idx);
	(*idx)++;
	if (heat_marked(h))
		fprintf(f, ", 'data' index %d using 1:2 with points pt 6 ps 3 lw 2 lc rgb 'black' "
			"title 'outside tolerance'", (*idx)++);
	fprintf(f, "\n");
}

/* What one panel set that the next must not inherit. */
static const char panel_reset[] =
	"unset logscale\nset format x '%h'\nset format y '%h'\nset xtics autofreq\nset ytics autofreq\n"
	"set autoscale\nset xrange [*:*]\nset yrange [*:*]\nunset cblabel\nset style fill empty\n";

static int write_script(const char *file, const char *ext, const char *title, const char *where,
			const struct plot_panel *panel, int np)
{
	FILE *f = fopen(file, "wx");
	char a[256], b[512];
	int err = 0, idx = 0;

	if (!f)
		return -errno;
	/*
	 * Every name below is pagehop's own and relative: gnuplot runs in the
	 * private directory, so not even its path ($TMPDIR) is in the script.
	 * Text is drawn as written (noenhanced: no _ subscripts, no @ or &
	 * markup); clean_text leaves no quote or backslash in it.
	 */
	fprintf(f, "set terminal %s noenhanced size 900,%d\n", strcmp(ext, ".png") ? "svg" : "pngcairo",
		np > 1 ? 560 * np + 60 : 600);
	fprintf(f, "set output 'out%s'\n", ext);
	if (title || where || np > 1) {
		clean_text(title, a, sizeof(a));
		clean_text(where, b, sizeof(b));
		fprintf(f, "set multiplot layout %d,1 title \"%s%s%s\"\n", np, a, a[0] && b[0] ? "\\n" : "", b);
	}
	for (int p = 0; p < np; p++) {
		if (p)
			fputs(panel_reset, f);
		if (panel[p].h)
			script_heat(f, panel[p].h, &idx);
		else
			script_curves(f, panel[p].p, panel[p].s, panel[p].ns, &idx);
	}
	if (title || where || np > 1)
		fprintf(f, "unset multiplot\n");
	if (fflush(f) || ferror(f))
		err = errno ? -errno : -EIO;
	if (fclose(f) && !err)
		err = -errno;
	return err;
}

/*
 * Run gnuplot in dir on its script there (plot.gp): stdout on /dev/null,
 * stderr in dir/stderr.
 */
static int run_gnuplot(const char *gnuplot, const char *dir, const char *errfile)
{
	/* No ~/.gnuplot of whoever's HOME this is: HOME is the private dir. */
	char *home = xasprintf("HOME=%s", dir);
	char *const argv[] = { (char *)"gnuplot", (char *)"plot.gp", NULL };
	char *const envp[] = { (char *)"PATH=/usr/bin:/bin", home, (char *)"LC_ALL=C", NULL };
	int status;
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		free(home);
		return -errno;
	}
	if (!pid) {
		int null = open("/dev/null", O_RDWR | O_CLOEXEC);
		int err = open(errfile, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);

		if (null < 0 || err < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 ||
		    dup2(err, 2) < 0 || chdir(dir))
			_exit(126);
		/* pagehop ignores SIGPIPE (main.c); gnuplot gets the default. */
		signal(SIGPIPE, SIG_DFL);
		execve(gnuplot, argv, envp);
		_exit(127);
	}
	free(home);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* The first line of what gnuplot said, for the error. */
static void first_line(const char *file, char *out, size_t size)
{
	char buf[512];
	int n = read_text(file, buf, sizeof(buf));
	char *line = buf;

	out[0] = '\0';
	if (n <= 0)
		return;
	for (char *tok = strtok(buf, "\n"); tok; tok = strtok(NULL, "\n")) {
		while (*tok == ' ' || *tok == '\t' || *tok == '^')
			tok++;
		if (*tok) {
			line = tok;
			break;
		}
	}
	snprintf(out, size, "%s", line);
}

/* Read all of file (at most PLOT_MAX_BYTES); the caller frees it. */
static int read_all(const char *file, char **buf, size_t *len)
{
	int fd = open(file, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	ssize_t n;

	*buf = NULL;
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || (uint64_t)st.st_size > PLOT_MAX_BYTES) {
		close(fd);
		return -EIO;
	}
	*buf = xmalloc((size_t)st.st_size + 1);
	*len = 0;
	while ((n = read(fd, *buf + *len, (size_t)st.st_size - *len)) > 0)
		*len += (size_t)n;
	close(fd);
	if (n < 0) {
		free(*buf);
		*buf = NULL;
		return -EIO;
	}
	return 0;
}

int plot_draw(const char *gnuplot, const char *path, const struct plot *p,
	      const struct plot_series *s, int ns, char *why, size_t size)
{
	const struct plot_panel one = { .p = p, .s = s, .ns = ns };

	return plot_figure(gnuplot, path, NULL, NULL, &one, 1, why, size);
}

int plot_figure(const char *gnuplot, const char *path, const char *title, const char *where,
		const struct plot_panel *panel, int np, char *why, size_t size)
{
	char *dir, *data, *script, *errfile, *out, *img = NULL;
	const char *ext = extension(path);
	size_t len = 0;
	int points = 0, err, rc;

	if (plot_check_name(path, why, size))
		return -EINVAL;
	for (int p = 0; p < np; p++) {
		for (int k = 0; !panel[p].h && k < panel[p].ns; k++)
			points += panel[p].s[k].n > 0 ? panel[p].s[k].n : 0;
		for (int i = 0; panel[p].h && i < panel[p].h->nr * panel[p].h->nc; i++)
			points += isfinite(panel[p].h->val[i]);
	}
	if (!points) {
		snprintf(why, size, "nothing to plot: no figure was measured");
		return -ENODATA;
	}
	if (!plot_available(gnuplot, why, size))
		return -ENOENT;
	dir = ph_tmp_template("plot");
	if (!mkdtemp(dir)) {
		err = -errno;
		snprintf(why, size, "cannot make a private directory in %.*s ($TMPDIR, else /tmp): %s",
			 (int)(strrchr(dir, '/') - dir), dir, strerror(-err));
		free(dir);
		return err;
	}
	data = xasprintf("%s/data", dir);
	script = xasprintf("%s/plot.gp", dir);
	errfile = xasprintf("%s/stderr", dir);
	out = xasprintf("%s/out%s", dir, ext);
	err = write_data(data, panel, np);
	if (!err)
		err = write_script(script, ext, title, where, panel, np);
	if (err) {
		snprintf(why, size, "cannot write gnuplot's input in %s: %s", dir, strerror(-err));
		goto out;
	}
	rc = run_gnuplot(gnuplot, dir, errfile);
	if (rc < 0) {
		err = rc;
		snprintf(why, size, "cannot run %s: %s", gnuplot, strerror(-err));
		goto out;
	}
	if (rc) {
		char line[512];

		first_line(errfile, line, sizeof(line));
		snprintf(why, size, "%s failed (exit %d)%s%s", gnuplot, rc, line[0] ? ": " : "", line);
		err = -EIO;
		goto out;
	}
	if (read_all(out, &img, &len) || !len) {
		snprintf(why, size, "%s drew nothing", gnuplot);
		err = -EIO;
		goto out;
	}
	err = write_file_atomic(path, img, len, why, size);
out:
	free(img);
	unlink(out);
	unlink(errfile);
	unlink(script);
	unlink(data);
	rmdir(dir);
	free(dir);
	free(out);
	free(errfile);
	free(script);
	free(data);
	return err;
}
