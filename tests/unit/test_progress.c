// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_progress.c - the progress line (progress.c) on a fake clock into a
 * captured file, against text written out by hand: the step counts, the
 * time left at the mean step time, the cut to the terminal's width, the
 * clearing at the end and after a signal.
 */
#include "unit.h"
#include "progress.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static double fake_now;

static double fake_clock(void)
{
	return fake_now;
}

static FILE *out;

/* What was written to out since the last call. */
static const char *captured(void)
{
	static char buf[4096];
	size_t n;

	fflush(out);
	rewind(out);
	n = fread(buf, 1, sizeof(buf) - 1, out);
	buf[n] = '\0';
	assert_int_equal(ftruncate(fileno(out), 0), 0);
	rewind(out);
	return buf;
}

static int setup(void **state)
{
	(void)state;
	out = tmpfile();
	return out ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	progress_open(PH_PROGRESS_NONE, NULL, NULL, 0);
	fclose(out);
	return 0;
}

/* --progress: one line per step; the time left from the second step on. */
static void test_lines(void **state)
{
	(void)state;
	progress_open(PH_PROGRESS_LINES, out, fake_clock, 80);
	fake_now = 100;
	progress_phase("reading the machine");	/* outside a run: a line */
	assert_string_equal(captured(), "reading the machine\n");
	progress_begin(4, "pages");
	progress_step("4K, %s", "16 KiB");
	assert_string_equal(captured(), "pages [1/4] 4K, 16 KiB\n");
	fake_now = 103;		/* 1 step in 3 s: 3 steps left, 9 s */
	progress_step("4K, 32 KiB");
	assert_string_equal(captured(), "pages [2/4] 4K, 32 KiB, ~9 s left\n");
	fake_now = 106;		/* 2 in 6 s: 2 left, 6 s */
	progress_step("2M, 16 KiB");
	progress_phase("laying out");	/* inside a run: the terminal's only */
	progress_detail("40 samples");
	assert_string_equal(captured(), "pages [3/4] 2M, 16 KiB, ~6 s left\n");
	fake_now = 112.5;
	assert_true(progress_step_seconds() == 6.5);	/* step 3 began at 106 */
	fake_now = 130;		/* 3 in 30 s: 1 left, 10 s */
	progress_step("2M, 32 KiB");
	assert_string_equal(captured(), "pages [4/4] 2M, 32 KiB, ~10 s left\n");
	fake_now = 140;
	progress_done();
	assert_string_equal(captured(), "pages: 4 of 4 steps in 40.0 s\n");
	/* No escape code anywhere, and nothing after the end. */
	progress_step("after the end");
	progress_done();
	assert_string_equal(captured(), "");
}

/* The terminal: one line rewritten, never wider than width - 1, cleared at the end. */
static void test_tty(void **state)
{
	(void)state;
	progress_open(PH_PROGRESS_TTY, out, fake_clock, 20);
	fake_now = 0;
	progress_begin(2, "hops");
	progress_step("1 KiB on node 0");
	/* "hops [1/2] 1 KiB on node 0" cut to 19 columns */
	assert_string_equal(captured(), "\r\033[Khops [1/2] 1 KiB on");
	progress_detail("40 samples");
	assert_string_equal(captured(), "\r\033[Khops [1/2] 1 KiB on");
	progress_done();
	assert_string_equal(captured(), "\r\033[K");

	progress_open(PH_PROGRESS_TTY, out, fake_clock, 80);
	progress_phase("laying out 1 GiB");	/* before the steps: the line alone */
	assert_string_equal(captured(), "\r\033[Klaying out 1 GiB");
	fake_now = 10;
	progress_begin(3, "scale");
	progress_step("1 threads");
	progress_detail("read: %d samples", 40);
	assert_string_equal(captured(), "\r\033[Kscale [1/3] 1 threads\r\033[Kscale [1/3] 1 threads: read: 40 samples");
	fake_now = 70;		/* 1 step in 60 s: 2 left, 120 s = 2 min */
	progress_step("2 threads");
	progress_detail("%s", "");
	assert_string_equal(captured(), "\r\033[Kscale [2/3] 2 threads, ~2 min left"
			    "\r\033[Kscale [2/3] 2 threads, ~2 min left");
	ph_warn("a message while the line is shown");	/* on the test's own stderr */
	assert_string_equal(captured(), "\r\033[K");	/* the line cleared first */
	ph_warn("another");	/* nothing shown: nothing to clear */
	assert_string_equal(captured(), "");
	progress_step("3 threads");	/* still at 70: 2 steps in 60 s, 1 left, 30 s */
	progress_done();
	assert_string_equal(captured(), "\r\033[Kscale [3/3] 3 threads, ~30 s left\r\033[K");
	progress_done();	/* nothing shown: nothing to clear */
	assert_string_equal(captured(), "");
}

/* A signal clears the line at once; nothing is drawn after it. */
static void test_signal(void **state)
{
	(void)state;
	progress_open(PH_PROGRESS_TTY, out, fake_clock, 80);
	progress_begin(5, "matrix");
	progress_step("cell 0,0");
	progress_signal();
	assert_string_equal(captured(), "\r\033[Kmatrix [1/5] cell 0,0\r\033[K");
	assert_int_equal(progress_shown(), PH_PROGRESS_NONE);
	progress_step("cell 0,1");
	progress_detail("x");
	progress_done();
	assert_string_equal(captured(), "");

	progress_open(PH_PROGRESS_LINES, out, fake_clock, 80);
	progress_begin(2, "c2c");
	progress_step("0-1");
	progress_signal();	/* a log keeps its lines: nothing to clear, no summary */
	progress_step("0-2");
	progress_done();
	assert_string_equal(captured(), "c2c [1/2] 0-1\n");
}

/* --quiet, or stderr not a terminal: nothing at all. */
static void test_none(void **state)
{
	(void)state;
	progress_open(PH_PROGRESS_NONE, out, fake_clock, 80);
	progress_phase("setup");
	fake_now = 7;
	assert_true(progress_step_seconds() == 0);	/* no step yet */
	progress_begin(2, "pages");
	progress_step("a");
	fake_now = 9.25;	/* timed though not shown */
	assert_true(progress_step_seconds() == 2.25);
	progress_detail("b");
	progress_done();
	progress_signal();
	assert_string_equal(captured(), "");
}

static void test_eta(void **state)
{
	char b[32];

	(void)state;
	assert_string_equal(progress_eta(0, b, sizeof(b)), "~0 s left");
	assert_string_equal(progress_eta(12.4, b, sizeof(b)), "~12 s left");
	assert_string_equal(progress_eta(89.4, b, sizeof(b)), "~89 s left");
	assert_string_equal(progress_eta(90, b, sizeof(b)), "~2 min left");	/* 1.5 rounds to 2 */
	assert_string_equal(progress_eta(600, b, sizeof(b)), "~10 min left");
	assert_string_equal(progress_eta(5400, b, sizeof(b)), "~1.5 h left");
	assert_string_equal(progress_eta(-3, b, sizeof(b)), "~0 s left");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_lines, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tty, setup, teardown),
		cmocka_unit_test_setup_teardown(test_signal, setup, teardown),
		cmocka_unit_test_setup_teardown(test_none, setup, teardown),
		cmocka_unit_test(test_eta),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
