// SPDX-License-Identifier: GPL-2.0-only
/*
 * plot.c - figures drawn by gnuplot, without letting gnuplot see a name or
 * a string that pagehop did not make.
 */
#include "plot.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
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
			  (c >= '0' && c <= '9') || strchr(" ./+_-,():", c);

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

/* Write the data, one block per series, for "index k". */
static int write_data(const char *file, const struct plot_series *s, int ns)
{
	FILE *f = fopen(file, "wx");
	int err = 0;

	if (!f)
		return -errno;
	for (int k = 0; k < ns; k++) {
		if (s[k].n <= 0)
			continue;
		for (int i = 0; i < s[k].n; i++)
			fprintf(f, "%.17g %.17g\n", s[k].x[i], s[k].y[i]);
		fprintf(f, "\n\n");
	}
	if (fflush(f) || ferror(f))
		err = errno ? -errno : -EIO;
	if (fclose(f) && !err)
		err = -errno;
	return err;
}

static int write_script(const char *file, const char *ext,
			const struct plot *p, const struct plot_series *s, int ns)
{
	FILE *f = fopen(file, "wx");
	char a[256], b[256], c[256];
	int err = 0, drawn = 0;

	if (!f)
		return -errno;
	/*
	 * Every name below is pagehop's own and relative: gnuplot runs in the
	 * private directory, so not even its path ($TMPDIR) is in the script.
	 * Text is drawn as written (noenhanced: no _ subscripts, no @ or &
	 * markup).
	 */
	fprintf(f, "set terminal %s noenhanced size 900,600\n", strcmp(ext, ".png") ? "svg" : "pngcairo");
	fprintf(f, "set output 'out%s'\n", ext);
	if (p->x_log2_bytes)
		fprintf(f, "set logscale x 2\nset format x '%%.0b%%B'\n");
	clean_text(p->xlabel, a, sizeof(a));
	clean_text(p->ylabel, b, sizeof(b));
	clean_text(p->title, c, sizeof(c));
	fprintf(f, "set xlabel '%s'\nset ylabel '%s'\nset title '%s'\nset key top left\nset grid\nplot ",
		a, b, c);
	for (int k = 0, idx = 0; k < ns; k++) {
		if (s[k].n <= 0)
			continue;
		clean_text(s[k].title, a, sizeof(a));
		fprintf(f, "%s'data' index %d using 1:2 with %s lc %d title '%s'",
			drawn ? ", " : "", idx, s[k].dashed ? "lines dt 2 lw 1" : "linespoints lw 2",
			s[k].color, a);
		idx++;
		drawn++;
	}
	fprintf(f, "\n");
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
	char *dir, *data, *script, *errfile, *out, *img = NULL;
	const char *ext = extension(path);
	size_t len = 0;
	int points = 0, err, rc;

	if (plot_check_name(path, why, size))
		return -EINVAL;
	for (int k = 0; k < ns; k++)
		points += s[k].n > 0 ? s[k].n : 0;
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
	err = write_data(data, s, ns);
	if (!err)
		err = write_script(script, ext, p, s, ns);
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
