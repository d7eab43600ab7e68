// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_read_input.c - what --input and --slit read: only text, only a
 * regular file or standard input, never more than the cap, and --metric's
 * words.
 */
#include "unit.h"

#include "readers.h"
#include "read_input.h"
#include "readfile.h"
#include "util.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- what a file holds and what it is ---- */

static char tmpdir[] = "/tmp/pagehop-parse-XXXXXX";

static int make_tmpdir(void **state)
{
	(void)state;
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int remove_tmpdir(void **state)
{
	char *cmd = xasprintf("rm -rf '%s'", tmpdir);
	int rc = system(cmd);

	(void)state;
	free(cmd);
	return rc;
}

/* tmpdir/name holding len bytes of data; a malloc'd path. */
static char *tmp_file(const char *name, const void *data, size_t len)
{
	char *path = xasprintf("%s/%s", tmpdir, name);
	FILE *f = fopen(path, "we");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
	return path;
}

static void expect_load_error(const char *path, const char *want)
{
	struct ph_input in;
	char err[512] = "";

	assert_int_equal(input_load(path, PH_FIGURE_DEFAULT, &in, err, sizeof(err)), -EINVAL);
	assert_contains(err, want);
	assert_null(strchr(err, '\n'));
	assert_null(in.m);
}

#define B(lit) lit, sizeof(lit) - 1

/*
 * NUL bytes and UTF-16 gave "--input x: Invalid argument"; a
 * control character went through into messages.  Each now names the line
 * and column and what was expected.  A UTF-8 byte-order mark is skipped.
 */
static void test_text_not_text(void **state)
{
	struct ph_input in;
	struct ph_slit *sl;
	char err[512], *p, *q;

	(void)state;
	/* Line 2, "# met" then the NUL: column 6. */
	p = tmp_file("nul.csv", B("# pagehop matrix\n# met\0ric: latency_ns\nnode,0\n0,90\n"));
	q = xasprintf("%s:2: a NUL byte at column 6; expected text (ASCII or UTF-8)", p);
	expect_load_error(p, q);
	free(p);
	free(q);
	p = tmp_file("u16le.csv", B("\xff\xfe#\0 \0m\0"));
	q = xasprintf("%s:1: UTF-16 text (byte-order mark FF FE); expected ASCII or UTF-8: convert it with iconv -f UTF-16 -t UTF-8",
		      p);
	expect_load_error(p, q);
	free(p);
	free(q);
	p = tmp_file("u16be.json", B("\xfe\xff\0{\0}"));
	q = xasprintf("%s:1: UTF-16 text (byte-order mark FE FF)", p);
	expect_load_error(p, q);
	free(p);
	free(q);
	/* Without a byte-order mark, the NUL after '#' says the same. */
	p = tmp_file("u16.csv", B("#\0 \0m\0\n\0"));
	q = xasprintf("%s:1: a NUL byte at column 2; expected text (ASCII or UTF-8); UTF-16? convert it with iconv -f UTF-16 -t UTF-8",
		      p);
	expect_load_error(p, q);
	free(p);
	free(q);
	/* An escape sequence in a comment: "# source: " is 10 columns. */
	p = tmp_file("esc.csv", B("# source: \x1b[31mred\n# metric: latency_ns\nnode,0\n0,90\n"));
	q = xasprintf("%s:1: control character 0x1b at column 11; expected text", p);
	expect_load_error(p, q);
	free(p);
	free(q);
	/* Classic Mac line ends: one line, its first CR at column 21. */
	p = tmp_file("cr.csv", B("# metric: latency_ns\rnode,0\r0,90\r"));
	q = xasprintf("%s:1: a carriage return not followed by a line feed at column 21", p);
	expect_load_error(p, q);
	free(p);
	free(q);
	/* numactl text goes through the same check. */
	p = tmp_file("nul.numactl", B("node distances:\nnode 0\n0: 1\0\n"));
	assert_int_equal(slit_load_numactl(p, &sl, err, sizeof(err)), -EINVAL);
	q = xasprintf("%s:3: a NUL byte at column 5", p);
	assert_contains(err, q);
	assert_null(sl);
	free(p);
	free(q);

	/* A UTF-8 byte-order mark is no character. */
	p = tmp_file("bom.json", B("\xef\xbb\xbf" LAT_HEAD "\"values\": [[1, 2], [3, 4]]}}\n"));
	assert_int_equal(input_load(p, PH_FIGURE_DEFAULT, &in, err, sizeof(err)), 0);
	assert_true(in.json);
	assert_true(in.m->val[3] == 4);
	input_free(&in);
	free(p);
	p = tmp_file("bom.csv", B("\xef\xbb\xbf# pagehop matrix\r\n# metric: latency_ns\r\nnode,0\r\n0,90\r\n"));
	assert_int_equal(input_load(p, PH_FIGURE_DEFAULT, &in, err, sizeof(err)), 0);
	assert_true(in.m->val[0] == 90);
	input_free(&in);
	free(p);
}

/* Run fn with standard input reading len bytes of data written by a child. */
static void with_stdin(const void *data, size_t len, void (*fn)(void))
{
	int fds[2], saved = dup(0), status;
	pid_t pid;

	assert_true(saved >= 0);
	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		const char *b = data;

		close(fds[0]);
		while (len) {
			ssize_t n = write(fds[1], b, len);

			if (n <= 0)
				_exit(0);	/* the reader stopped: fine */
			b += n;
			len -= (size_t)n;
		}
		_exit(0);
	}
	close(fds[1]);
	assert_int_equal(dup2(fds[0], 0), 0);
	close(fds[0]);
	fn();
	assert_int_equal(dup2(saved, 0), 0);
	close(saved);
	assert_int_equal(waitpid(pid, &status, 0), pid);
}

static void load_stdin_ok(void)
{
	struct ph_input in;
	char err[512];

	assert_int_equal(input_load("-", PH_FIGURE_DEFAULT, &in, err, sizeof(err)), 0);
	assert_string_equal(in.path, "<stdin>");
	assert_true(in.m->val[1] == 140);
	input_free(&in);
}

static void load_stdin_big(void)
{
	expect_load_error("-", "--input -: more than 16 MiB; expected a file of at most 16 MiB");
}

static void load_stdin_numactl(void)
{
	struct ph_slit *s;
	char err[512];

	assert_int_equal(slit_load_numactl("-", &s, err, sizeof(err)), 0);
	assert_int_equal(slit_at(s, 0, 1), 21);
	slit_free(s);
}

static void load_stdin_bad(void)
{
	expect_load_error("-", "<stdin>:3: row of node 0 has 1 value; expected 2");
}

static void on_alarm(int sig)
{
	static const char msg[] = "input_load blocked for 5 s\n";

	(void)sig;
	(void)!write(2, msg, sizeof(msg) - 1);
	_exit(1);
}

/*
 * A FIFO blocked forever, a device was read, a 20 MB file
 * passed the 16 MiB cap (the buffer doubled to 32 MiB before the check).
 * Only a regular file is opened, or standard input for "-"; the cap holds
 * by the file's size and by what is read.
 */
static void test_file_kinds_and_cap(void **state)
{
	static const char csv[] = "# metric: latency_ns\nnode,0,1\n0,90,140\n";
	const size_t cap = 16 << 20;
	struct ph_input in;
	char err[512], *p, *q, *big;
	size_t n;

	(void)state;
	/* A FIFO with no writer: refused at once, never waited on. */
	p = xasprintf("%s/fifo", tmpdir);
	assert_int_equal(mkfifo(p, 0600), 0);
	signal(SIGALRM, on_alarm);
	alarm(5);
	q = xasprintf("--input %s: a FIFO; expected a regular file, or - for standard input", p);
	expect_load_error(p, q);
	alarm(0);
	free(p);
	free(q);
	q = xasprintf("--input %s: a directory; expected a regular file", tmpdir);
	expect_load_error(tmpdir, q);
	free(q);
	expect_load_error("/dev/null", "--input /dev/null: a character device; expected a regular file");

	/* Exactly 16 MiB: a matrix, then comment lines of '#', the last ending at the cap. */
	big = xmalloc(cap + (4 << 20));
	memcpy(big, csv, sizeof(csv) - 1);
	for (n = sizeof(csv) - 1; n < cap + (4 << 20); n++)
		big[n] = (n - sizeof(csv) + 1) % 64 == 63 ? '\n' : '#';
	big[cap - 1] = '\n';
	p = tmp_file("16MiB.csv", big, cap);
	assert_int_equal(input_load(p, PH_FIGURE_DEFAULT, &in, err, sizeof(err)), 0);
	assert_true(in.m->val[1] == 140);
	input_free(&in);
	unlink(p);
	free(p);
	/* 20 MB (20,000,000 bytes): refused by its size, before reading. */
	p = tmp_file("20MB.csv", big, 20000000);
	q = xasprintf("--input %s: 20000000 bytes; expected a file of at most 16 MiB", p);
	expect_load_error(p, q);
	unlink(p);
	free(p);
	free(q);

	/* Standard input: what is read counts, as a pipe has no size. */
	with_stdin(csv, sizeof(csv) - 1, load_stdin_ok);
	with_stdin(big, cap + 1, load_stdin_big);
	with_stdin(B("# metric: latency_ns\nnode,0,1\n0,90\n"), load_stdin_bad);
	with_stdin(B("node distances:\nnode 0 1\n0: 10 21\n1: 21 10\n"), load_stdin_numactl);
	free(big);
}

static void test_figure_parse(void **state)
{
	enum ph_figure f;

	(void)state;
	assert_int_equal(figure_parse("latency", &f), 0);
	assert_int_equal(f, PH_FIGURE_LATENCY);
	assert_int_equal(figure_parse("triad", &f), 0);
	assert_int_equal(f, PH_FIGURE_TRIAD);
	assert_int_equal(figure_parse("copy", &f), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_not_text),
		cmocka_unit_test(test_file_kinds_and_cap),
		cmocka_unit_test(test_figure_parse),
	};

	return cmocka_run_group_tests(tests, make_tmpdir, remove_tmpdir);
}
