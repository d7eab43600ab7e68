// SPDX-License-Identifier: GPL-2.0-only
/*
 * harness.c - the registry, the checks and the TAP runner of harness.h.
 */
#include "harness.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static struct th_test *th_tests;
static const char *th_prog = "harness";
static char *th_skip_why; /* shared with the child that runs the test */
int th_failures;

void th_register(struct th_test *t)
{
	struct th_test **p = &th_tests;

	/* In name order, so that -l reads as a table. */
	while (*p && strcmp((*p)->name, t->name) < 0)
		p = &(*p)->next;
	t->next = *p;
	*p = t;
}

static void th_vsay(const char *where, const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", th_prog);
	vfprintf(stderr, fmt, ap);
	if (where)
		fprintf(stderr, " (%s)", where);
	fputc('\n', stderr);
}

int fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	th_vsay(NULL, fmt, ap);
	va_end(ap);
	return 1;
}

int th_fail_at(const char *file, int line, const char *fmt, ...)
{
	const char *base = strrchr(file, '/');
	char where[128];
	va_list ap;

	snprintf(where, sizeof(where), "%s:%d", base ? base + 1 : file, line);
	va_start(ap, fmt);
	th_vsay(where, fmt, ap);
	va_end(ap);
	return 1;
}

void th_log(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

void th_skip(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (th_skip_why)
		vsnprintf(th_skip_why, 256, fmt, ap);
	va_end(ap);
	fflush(NULL);
	exit(TH_SKIP);
}

static int th_list(FILE *f)
{
	fprintf(f, "usage: %s TEST [ARGS] (TAP) | %s TOOL [ARGS] | %s -l\n", th_prog, th_prog,
		th_prog);
	for (const struct th_test *t = th_tests; t; t = t->next)
		fprintf(f, "  %-5s %s %s\n", t->tool ? "tool" : "test", t->name, t->args);
	return 2;
}

/* The test's name and arguments, for its result line. */
static void th_title(char *buf, size_t size, int argc, char **argv)
{
	size_t n = 0;

	buf[0] = 0;
	for (int i = 0; i < argc && n < size; i++)
		n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? " " : "", argv[i]);
}

static int th_run(const struct th_test *t, int argc, char **argv)
{
	char title[256];
	pid_t pid;
	int st, rc;

	th_title(title, sizeof(title), argc, argv);
	th_skip_why = mmap(NULL, 256, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (th_skip_why == MAP_FAILED)
		th_skip_why = NULL;
	else
		th_skip_why[0] = 0;
	printf("TAP version 13\n1..1\n");
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		fail("fork: %m");
		printf("not ok 1 %s\n", title);
		return 1;
	}
	if (pid == 0) {
		rc = t->fn(argc, argv);
		if (rc == 0 && th_failures)
			rc = 1;
		fflush(NULL);
		exit(rc);
	}
	while (waitpid(pid, &st, 0) < 0)
		;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
		printf("ok 1 %s\n", title);
		return 0;
	}
	if (WIFEXITED(st) && WEXITSTATUS(st) == TH_SKIP) {
		printf("ok 1 %s # SKIP %s\n", title, th_skip_why ? th_skip_why : "");
		return 0;
	}
	if (WIFEXITED(st) && WEXITSTATUS(st) == TH_USAGE) {
		printf("# usage: %s %s %s\nnot ok 1 %s\n", th_prog, t->name, t->args, title);
		return 2;
	}
	if (WIFSIGNALED(st))
		printf("# %s: killed by %s\n", t->name, strsignal(WTERMSIG(st)));
	printf("not ok 1 %s\n", title);
	return 1;
}

int main(int argc, char **argv)
{
	const char *slash = strrchr(argv[0], '/');

	th_prog = slash ? slash + 1 : argv[0];
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 2 || !strcmp(argv[1], "-l"))
		return argc < 2 ? th_list(stderr) : (th_list(stdout), 0);
	for (const struct th_test *t = th_tests; t; t = t->next) {
		if (strcmp(argv[1], t->name))
			continue;
		if (t->tool)
			return t->fn(argc - 1, argv + 1);
		return th_run(t, argc - 1, argv + 1);
	}
	fail("unknown test '%s'", argv[1]);
	th_list(stderr);
	return 2;
}
