// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_plot.c - plot_draw with stand-in gnuplots (shell scripts made here):
 * what gnuplot is given (a script and data in a private directory, no name
 * of the user's, a clean environment, titles that cannot leave their
 * quotes), what the user's file gets, and each way it fails: gnuplot
 * missing, failing, drawing nothing, nothing to draw.
 */
#include "unit.h"
#include "plot.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[] = "/tmp/pagehop-plottest-XXXXXX";

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)flag;
	(void)f;
	return remove(p);
}

static int setup(void **state)
{
	(void)state;
	strcpy(dir, "/tmp/pagehop-plottest-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static const char *in_dir(const char *name)
{
	static char buf[4][512];
	static int k;

	k = (k + 1) % 4;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", dir, name);
	return buf[k];
}

/* A stand-in gnuplot: body runs with $1 the script, in gnuplot's cwd. */
static const char *fake(const char *name, const char *body)
{
	const char *path = in_dir(name);
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fprintf(f, "#!/bin/sh\nREC='%s'\n%s\n", dir, body);
	fclose(f);
	assert_int_equal(chmod(path, 0755), 0);
	return path;
}

static char *slurp(const char *path)
{
	static char buf[8192];
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return NULL;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

static const double xs[] = { 4096, 8192, 16384 }, ys[] = { 1.5, 2.5, 80 };
static const struct plot P = {
	.title = "t", .xlabel = "x", .ylabel = "y", .x_log2_bytes = true,
};

/* Copies what it is given, then draws "<svg>fake</svg>" where told. */
static const char *const RECORDER =
	"cp \"$1\" \"$REC/script\"; cp data \"$REC/data\"; pwd >\"$REC/cwd\"; env >\"$REC/env\"\n"
	"out=$(sed -n \"s/^set output '\\(.*\\)'$/\\1/p\" \"$1\")\n"
	"printf '<svg>fake</svg>\\n' >\"$out\"";

static void test_gnuplot_sees_only_its_own_names(void **state)
{
	/* A name made to end gnuplot's quote and call system(). */
	const char *evil = in_dir("x'; system('touch pwned'); print 'y.svg");
	const struct plot_series s[] = {
		{ .title = "4K random", .n = 3, .x = xs, .y = ys, .color = 1 },
		{ .title = "a'; system('id'); '", .n = 3, .x = xs, .y = ys, .color = 1, .dashed = true },
	};
	const char *gp = fake("gnuplot", RECORDER);
	char why[512] = "", *text, cwd[8192];
	struct stat st;

	(void)state;
	setenv("PAGEHOP_TEST_SECRET", "1", 1);
	assert_int_equal(plot_draw(gp, evil, &P, s, 2, why, sizeof(why)), 0);
	unsetenv("PAGEHOP_TEST_SECRET");
	assert_string_equal(slurp(evil), "<svg>fake</svg>\n");
	text = slurp(in_dir("script"));
	assert_non_null(text);
	/* No name of the user's, and no quote but those pagehop writes. */
	assert_null(strstr(text, "pwned"));
	assert_null(strstr(text, dir));
	assert_null(strstr(text, "system('"));
	assert_non_null(strstr(text, "title 'a_; system(_id_); _'"));
	assert_non_null(strstr(text, "set terminal svg noenhanced"));
	assert_non_null(strstr(text, "index 1 using 1:2 with lines dt 2"));
	/* The data: both series, in full precision. */
	text = slurp(in_dir("data"));
	assert_non_null(strstr(text, "4096 1.5\n8192 2.5\n16384 80\n\n\n4096 1.5"));
	/* A clean environment, HOME the private directory (no ~/.gnuplot). */
	snprintf(cwd, sizeof(cwd), "%s", slurp(in_dir("cwd")));
	cwd[strcspn(cwd, "\n")] = '\0';
	assert_int_equal(strncmp(cwd, "/tmp/pagehop-plot-", 18), 0);
	text = slurp(in_dir("env"));
	assert_null(strstr(text, "PAGEHOP_TEST_SECRET"));
	assert_non_null(strstr(text, "PATH=/usr/bin:/bin\n"));
	{
		char home[8300];

		snprintf(home, sizeof(home), "HOME=%s\n", cwd);
		assert_non_null(strstr(text, home));
	}
	/* The private directory is gone, and nothing ran. */
	assert_int_equal(stat(cwd, &st), -1);
	assert_int_equal(access(in_dir("pwned"), F_OK), -1);
	assert_int_equal(access("pwned", F_OK), -1);
}

static void expect_failure(const char *gp, int want, const char *words,
			   const struct plot_series *s, int ns)
{
	char why[512] = "";
	int err = plot_draw(gp, in_dir("p.png"), &P, s, ns, why, sizeof(why));

	if (err != want || !strstr(why, words))
		fail_msg("%s: returned %d '%s', expected %d saying '%s'", gp, err, why, want, words);
	/* The user's file is not touched when the plot fails. */
	assert_int_equal(access(in_dir("p.png"), F_OK), -1);
}

static void test_failures(void **state)
{
	const struct plot_series one = { .title = "t", .n = 3, .x = xs, .y = ys, .color = 1 };
	const struct plot_series none = { .title = "t", .n = 0, .x = xs, .y = ys, .color = 1 };

	(void)state;
	expect_failure(fake("failing", "echo '\"plot.gp\" line 3: undefined variable' >&2; exit 1"),
		       -EIO, "failed (exit 1): \"plot.gp\" line 3: undefined variable", &one, 1);
	expect_failure(fake("silent", "exit 0"), -EIO, "drew nothing", &one, 1);
	expect_failure(in_dir("no-such-gnuplot"), -ENOENT, "not installed", &one, 1);
	expect_failure(fake("gnuplot", RECORDER), -ENODATA, "nothing to plot", &none, 1);
	/* A failure leaves no private directory behind either. */
}

static void test_names(void **state)
{
	static const char *const good[] = { "a.svg", "a.png", "dir.x/b.svg", "x'; y.svg" };
	static const char *const bad[] = { "a.pdf", "a", "-", "a.svg.", "a.svg/b", "a.SVG", "" };
	char why[256];

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		assert_int_equal(plot_check_name(good[i], why, sizeof(why)), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (plot_check_name(bad[i], why, sizeof(why)) != -EINVAL)
			fail_msg("plot_check_name('%s') took it", bad[i]);
}

/* The real gnuplot, where it is installed, draws an SVG at an odd name. */
static void test_real_gnuplot(void **state)
{
	const char *evil = in_dir("x'; system('touch pwned'); print 'y.svg");
	const struct plot_series s = { .title = "4K random", .n = 3, .x = xs, .y = ys, .color = 1 };
	char why[512] = "", *text;

	(void)state;
	if (!plot_available(PLOT_GNUPLOT, why, sizeof(why))) {
		fprintf(stderr, "test_real_gnuplot: %s; skipped\n", why);
		skip();
	}
	if (plot_draw(PLOT_GNUPLOT, evil, &P, &s, 1, why, sizeof(why)))
		fail_msg("plot_draw: %s", why);
	text = slurp(evil);
	assert_non_null(text);
	assert_non_null(strstr(text, "<svg"));
	assert_int_equal(access(in_dir("pwned"), F_OK), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_gnuplot_sees_only_its_own_names, setup, teardown),
		cmocka_unit_test_setup_teardown(test_failures, setup, teardown),
		cmocka_unit_test(test_names),
		cmocka_unit_test_setup_teardown(test_real_gnuplot, setup, teardown),
	};

	return cmocka_run_group_tests_name("plot", tests, NULL, NULL);
}
