/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * harness.h - the guest helpers' test harness (kmodtest, kwalk): a registry
 * of tests, the checks they make, and TAP for each run.
 *
 *   PROG NAME [ARGS]     run test NAME in a child process and report it:
 *                          TAP version 13
 *                          1..1
 *                          ...what the test printed, and why it failed...
 *                          ok 1 NAME ARGS | not ok 1 NAME ARGS | ok 1 NAME ARGS # SKIP why
 *                        exit 0 (passed or skipped), 1 (failed), 2 (bad usage)
 *   PROG -l              the tests and tools, with their arguments
 *
 * A test runs in a child, so that an exit() or a signal in it is still
 * reported as its result.  A tool is not a test: it runs in place, with no
 * TAP, for what the guest scripts read from it (a value, a held buffer).
 *
 * Every check that can fail goes through one of:
 *   fail(FMT, ...)               a failed check: the reason on stderr, returns 1
 *   expect(WHAT, GOT, WANT)      an errno check (0 or the errno), as fail()
 *                                  (guest.h)
 *   ASSERT_FALSE(COND, FMT, ...) if COND holds, fail and return 1 from the
 *   ASSERT_TRUE(COND, FMT, ...)    function (a test, or a helper returning
 *                                  0 or 1 as tests do)
 *   EXPECT_FALSE / EXPECT_TRUE   as ASSERT_*, but record the failure and go on:
 *                                  the test fails however it returns
 * and a test passes when it returns 0 with no EXPECT_* failed.
 */
#ifndef PAGEHOP_GUEST_HARNESS_H
#define PAGEHOP_GUEST_HARNESS_H

struct th_test {
	const char *name;	/* the subcommand */
	const char *args;	/* its arguments, for -l and bad usage */
	int (*fn)(int argc, char **argv); /* argv[0] is the name */
	int tool;		/* 1: no TAP, run in place */
	struct th_test *next;
};

void th_register(struct th_test *t);

#define TH_DEFINE(id, cname, cargs, is_tool)                                        \
	static int id(int argc, char **argv);                                       \
	static struct th_test id##_entry = { cname, cargs, id, is_tool, 0 };        \
	static void __attribute__((constructor)) id##_register(void)                \
	{                                                                           \
		th_register(&id##_entry);                                           \
	}                                                                           \
	static int id(int argc, char **argv)

/* TEST(id, "name", "ARGS") { ... return 0; }: a test, run as PROG name ARGS. */
#define TEST(id, name, args) TH_DEFINE(test_##id, name, args, 0)
/* TOOL(id, "name", "ARGS") { ... }: a tool, no TAP. */
#define TOOL(id, name, args) TH_DEFINE(tool_##id, name, args, 1)

/* The exit code by which a test says it was skipped (th_skip). */
#define TH_SKIP 77
/* Return TH_USAGE from a test given the wrong arguments. */
#define TH_USAGE 2

int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int th_fail_at(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A "# " line of TAP on stdout. */
void th_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* End the test as skipped, for the reason given. */
void th_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* EXPECT_* failures of the running test so far. */
extern int th_failures;

#define ASSERT_FALSE(cond, ...)                                                     \
	do {                                                                        \
		if (cond)                                                           \
			return th_fail_at(__FILE__, __LINE__, __VA_ARGS__);          \
	} while (0)
#define ASSERT_TRUE(cond, ...) ASSERT_FALSE(!(cond), __VA_ARGS__)
#define EXPECT_FALSE(cond, ...)                                                     \
	do {                                                                        \
		if (cond)                                                           \
			th_failures += th_fail_at(__FILE__, __LINE__, __VA_ARGS__);  \
	} while (0)
#define EXPECT_TRUE(cond, ...) EXPECT_FALSE(!(cond), __VA_ARGS__)

#endif
