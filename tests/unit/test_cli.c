// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_cli.c - option parsers against hand-written expectations: sizes,
 * formats, numbers, and node/CPU lists through libnuma as numactl takes
 * them, each rejection being one line on stderr that names the option.
 */
#include "unit.h"
#include "cli.h"
#include "util.h"

#include <errno.h>
#include <numa.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Capture what a call writes to stderr. */
static char captured[4096];
static int saved_fd = -1;
static FILE *cap;

static void capture_begin(void)
{
	fflush(stderr);
	cap = tmpfile();
	saved_fd = dup(2);
	dup2(fileno(cap), 2);
}

static const char *capture_end(void)
{
	size_t n;

	fflush(stderr);
	dup2(saved_fd, 2);
	close(saved_fd);
	rewind(cap);
	n = fread(captured, 1, sizeof(captured) - 1, cap);
	captured[n] = '\0';
	fclose(cap);
	return captured;
}

static int lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static void test_parse_size(void **state)
{
	static const struct { const char *in; uint64_t want; } good[] = {
		{ "1", 1 }, { "4k", 4096 }, { "4K", 4096 }, { "2M", 2097152 },
		{ "2MiB", 2097152 }, { "64MB", 67108864 }, { "1g", 1073741824 },
		{ "1G", 1073741824 }, { "3T", 3298534883328ULL }, { "512B", 512 },
	};
	static const char *const bad[] = {
		"", "k", "-1", "+1", "1x", "1 G", "1.5G", "1Gi", "0x10", "1GG",
		/* strtoull skips white space and takes a sign: " -1" wrapped to 2^64-1. */
		" -1", " 1", "\t1", " +1", "1 ", "-0", " ",
	};
	uint64_t v;

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		assert_int_equal(parse_size(good[i].in, &v, false), 0);
		assert_int_equal(v, good[i].want);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (parse_size(bad[i], &v, false) != -EINVAL)
			fail_msg("parse_size('%s') took it as %llu", bad[i], (unsigned long long)v);
	assert_int_equal(parse_size("0", &v, false), -ERANGE);
	assert_int_equal(parse_size("0", &v, true), 0);
	assert_int_equal(v, 0);
	assert_int_equal(parse_size("16777216T", &v, false), -ERANGE);	/* 2^64 */
	assert_int_equal(parse_size("18446744073709551616", &v, false), -ERANGE);
	/* 2^64-1 bytes fits a uint64_t but no machine: sizes stop at PH_SIZE_MAX. */
	assert_int_equal(parse_size("18446744073709551615", &v, false), -ERANGE);
	assert_int_equal(parse_size("1025T", &v, false), -ERANGE);
	assert_int_equal(parse_size("1024T", &v, false), 0);
	assert_int_equal(v, PH_SIZE_MAX);
}

/* Every bad value: -EINVAL and exactly one line that names the option. */
static void expect_one_line(int rc, const char *opt, const char *arg)
{
	const char *err = capture_end();

	if (rc != -EINVAL)
		fail_msg("%s '%s': returned %d, expected -EINVAL", opt, arg, rc);
	if (lines(err) != 1 || !strstr(err, opt))
		fail_msg("%s '%s': expected one line naming it, got '%s'", opt, arg, err);
}

static void test_size_option(void **state)
{
	static const char *const bad[] = {
		" -1", "18446744073709551615", "", " 1M", "1M ", "+1M", "-1M", "0", "1X",
		"16777216T",
	};
	uint64_t v = 7;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		capture_begin();
		expect_one_line(cli_parse_size("--size", bad[i], &v), "--size", bad[i]);
	}
	assert_int_equal(v, 7);
}

static void test_format_size(void **state)
{
	char buf[32];

	(void)state;
	assert_string_equal(format_size(0, buf, sizeof(buf)), "0 B");
	assert_string_equal(format_size(4096, buf, sizeof(buf)), "4 KiB");
	assert_string_equal(format_size(1536, buf, sizeof(buf)), "1.5 KiB");
	assert_string_equal(format_size(2 * MiB, buf, sizeof(buf)), "2 MiB");
	assert_string_equal(format_size(GiB, buf, sizeof(buf)), "1 GiB");
}

static void test_format(void **state)
{
	enum ph_format f = 0;
	const char *err;

	(void)state;
	assert_int_equal(cli_parse_format("--format", "table", &f), 0);
	assert_int_equal(f, PH_FMT_TABLE);
	assert_int_equal(cli_parse_format("--format", "csv", &f), 0);
	assert_int_equal(f, PH_FMT_CSV);
	assert_int_equal(cli_parse_format("--format", "json", &f), 0);
	assert_int_equal(f, PH_FMT_JSON);
	capture_begin();
	assert_int_equal(cli_parse_format("--format", "xml", &f), -EINVAL);
	err = capture_end();
	assert_int_equal(lines(err), 1);
	assert_non_null(strstr(err, "--format"));
	assert_non_null(strstr(err, "expected table, csv or json"));
}

static void test_numbers(void **state)
{
	unsigned u = 0;
	double d = 0;

	(void)state;
	assert_int_equal(cli_parse_uint("--threads", "4", 1, 64, &u), 0);
	assert_int_equal(u, 4);
	capture_begin();
	assert_int_equal(cli_parse_uint("--threads", "0", 1, 64, &u), -EINVAL);
	assert_int_equal(cli_parse_uint("--threads", "65", 1, 64, &u), -EINVAL);
	assert_int_equal(cli_parse_uint("--threads", "-1", 1, 64, &u), -EINVAL);
	assert_int_equal(cli_parse_uint("--threads", "4x", 1, 64, &u), -EINVAL);
	assert_int_equal(cli_parse_uint("--threads", "", 1, 64, &u), -EINVAL);
	assert_int_equal(lines(capture_end()), 5);
	assert_int_equal(cli_parse_double("--ci", "0.5", 0.01, 50, &d), 0);
	assert_true(d == 0.5);
	capture_begin();
	assert_int_equal(cli_parse_double("--ci", "nan", 0.01, 50, &d), -EINVAL);
	assert_int_equal(cli_parse_double("--ci", "100", 0.01, 50, &d), -EINVAL);
	assert_int_equal(cli_parse_double("--ci", "1%", 0.01, 50, &d), -EINVAL);
	assert_int_equal(lines(capture_end()), 3);
}

/* Leading space, sign, overflow, trailing junk, empty: each refused by each parser. */
static void test_numbers_strict(void **state)
{
	static const char *const bad_int[] = {
		"", " ", " 4", "4 ", "\t4", "+4", "-4", " -1", "4x", "0x", "18446744073709551616",
		"99999999999999999999999",
	};
	static const char *const bad_double[] = {
		"", " ", " 1", "1 ", "+1", "-1", " -1", "1x", "nan", "inf", "0x1p0", "1e999", ".",
	};
	unsigned u = 7;
	uint64_t v = 7;
	double d = 7;

	(void)state;
	for (size_t i = 0; i < sizeof(bad_int) / sizeof(bad_int[0]); i++) {
		capture_begin();
		expect_one_line(cli_parse_uint("--threads", bad_int[i], 1, 4096, &u), "--threads", bad_int[i]);
		capture_begin();
		expect_one_line(cli_parse_u64("--seed", bad_int[i], &v), "--seed", bad_int[i]);
	}
	/* 2^32 + 4 must not wrap into range. */
	capture_begin();
	expect_one_line(cli_parse_uint("--threads", "4294967300", 1, 4096, &u), "--threads", "4294967300");
	for (size_t i = 0; i < sizeof(bad_double) / sizeof(bad_double[0]); i++) {
		capture_begin();
		expect_one_line(cli_parse_double("--ci", bad_double[i], 0, 100, &d), "--ci", bad_double[i]);
	}
	assert_int_equal(u, 7);
	assert_int_equal(v, 7);
	assert_true(d == 7);
	/* What stays good: decimal, 0x hex for 64-bit numbers, decimal fractions. */
	assert_int_equal(cli_parse_u64("--seed", "18446744073709551615", &v), 0);
	assert_true(v == UINT64_MAX);
	assert_int_equal(cli_parse_u64("--seed", "0x10", &v), 0);
	assert_int_equal(v, 16);
	/* A leading zero is decimal, not octal. */
	assert_int_equal(cli_parse_u64("--seed", "010", &v), 0);
	assert_int_equal(v, 10);
	assert_int_equal(cli_parse_double("--ci", "0.5", 0, 100, &d), 0);
	assert_true(d == 0.5);
	assert_int_equal(cli_parse_double("--ci", ".5", 0, 100, &d), 0);
	assert_int_equal(cli_parse_double("--ci", "1e1", 0, 100, &d), 0);
	assert_true(d == 10);
}

static void test_nodes_good(void **state)
{
	struct bitmask *bm = NULL;

	(void)state;
	assert_int_equal(cli_parse_nodes("--membind", "0", &bm), 0);
	assert_true(numa_bitmask_isbitset(bm, 0));
	assert_int_equal(numa_bitmask_weight(bm), 1);
	numa_bitmask_free(bm);
	/* "all" is every node this task may use, as numactl means it. */
	assert_int_equal(cli_parse_nodes("--membind", "all", &bm), 0);
	assert_int_equal(numa_bitmask_weight(bm), numa_bitmask_weight(numa_all_nodes_ptr));
	numa_bitmask_free(bm);
	assert_int_equal(cli_parse_cpus("--physcpubind", "0", &bm), 0);
	assert_true(numa_bitmask_isbitset(bm, 0));
	numa_bitmask_free(bm);
}

static void expect_node_error(const char *arg, const char *why)
{
	struct bitmask *bm = NULL;
	const char *err;

	capture_begin();
	assert_int_equal(cli_parse_nodes("--membind", arg, &bm), -EINVAL);
	err = capture_end();
	assert_null(bm);
	/* One line, naming the option and the expected form. */
	assert_int_equal(lines(err), 1);
	assert_non_null(strstr(err, "--membind"));
	assert_non_null(strstr(err, "expected"));
	if (why && !strstr(err, why))
		fail_msg("'%s': message '%s' lacks '%s'", arg, err, why);
}

static void test_nodes_bad(void **state)
{
	(void)state;
	/* "0-" is malformed on every machine. */
	expect_node_error("0-", "missing node argument");
	expect_node_error("x", "unparseable");
	expect_node_error("", "selects no node");
	/* Node 9 does not exist on a machine with fewer than 10 nodes. */
	if (numa_max_node() < 9)
		expect_node_error("9", "out of range");
	/* "!0" leaves nothing on a one-node machine. */
	if (numa_max_node() == 0)
		expect_node_error("!0", "selects no node");
	/* libnuma skips a leading space but refuses a trailing one: refuse both. */
	expect_node_error(" 0", "space");
	expect_node_error("0 ", "space");
	expect_node_error("0,\t1", "space");
}

/*
 * libnuma reads a list's numbers with strtoul and keeps them in an int or
 * an unsigned, so that 4294967296 would be node 0: every id beyond the
 * machine's possible ones is refused by pagehop first, the id named, in
 * every place of the list syntax (a lone id, a range's end, after '!' or
 * '+', after a comma).  Only decimal ids are taken: "010" is node 8 and
 * "0x1" node 1 to libnuma, which no reader would guess.
 */
static void expect_id_refused(bool cpus, const char *arg, const char *id)
{
	struct bitmask *bm = NULL;
	const char *opt = cpus ? "--physcpubind" : "--interleave", *err;

	capture_begin();
	assert_int_equal(cpus ? cli_parse_cpus(opt, arg, &bm) : cli_parse_nodes(opt, arg, &bm), -EINVAL);
	err = capture_end();
	assert_null(bm);
	assert_int_equal(lines(err), 1);
	assert_non_null(strstr(err, opt));
	if (!strstr(err, id))
		fail_msg("'%s': message '%s' does not name '%s'", arg, err, id);
}

static void test_ids_wrap(void **state)
{
	static const char *const lists[][2] = {
		{ "4294967296", "4294967296" },
		{ "0,4294967296", "4294967296" },
		{ "4294967296,0", "4294967296" },
		{ "0-4294967296", "4294967296" },
		{ "4294967296-4294967297", "4294967296" },
		{ "!4294967296", "4294967296" },
		{ "+4294967296", "4294967296" },
		{ "!+4294967297", "4294967297" },
		{ "9223372036854775808", "9223372036854775808" },
		{ "18446744073709551616", "18446744073709551616" },
		{ "99999999999999999999999999", "99999999999999999999999999" },
		{ "4294967295", "4294967295" },
		{ "100000", "100000" },
		{ "010", "010" },
		{ "0x1", "0x1" },
		{ "00", "00" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		expect_id_refused(false, lists[i][0], lists[i][1]);
		expect_id_refused(true, lists[i][0], lists[i][1]);
	}
	/* What libnuma would take as something else than ids. */
	expect_id_refused(false, "netdev:lo", "netdev:lo");
	expect_id_refused(false, "0-1-2", "0-1-2");
	expect_id_refused(false, "-1", "-1");
	expect_id_refused(false, "+-1", "-1");
	expect_id_refused(false, "1+", "1+");
	expect_id_refused(false, "all,0", "all,0");
	expect_id_refused(false, "allx", "allx");
	expect_id_refused(false, "0:1", "0:1");
}

/* The list syntax numactl allows, with ids the machine has. */
static void test_ids_syntax(void **state)
{
	struct bitmask *bm = NULL;
	static const char *const nodes[] = { "0", "0-0", "0,0", "+0", "all", "+all", "!+all" };
	static const char *const cpus[] = { "0", "0-0", "0,0", "+0", "all", "!0" };

	(void)state;
	/* "!+all" leaves nothing, said as such: past the id check. */
	for (size_t i = 0; i < sizeof(nodes) / sizeof(nodes[0]); i++) {
		int rc;

		capture_begin();
		rc = cli_parse_nodes("--membind", nodes[i], &bm);
		capture_end();
		if (i == sizeof(nodes) / sizeof(nodes[0]) - 1) {
			assert_int_equal(rc, -EINVAL);
			continue;
		}
		if (rc)
			fail_msg("node list '%s' refused", nodes[i]);
		assert_true(numa_bitmask_isbitset(bm, 0));
		numa_bitmask_free(bm);
		bm = NULL;
	}
	for (size_t i = 0; i < sizeof(cpus) / sizeof(cpus[0]); i++) {
		int rc;

		/* "!0" is every CPU but 0: nothing on a one-CPU machine. */
		if (!strcmp(cpus[i], "!0") && numa_num_configured_cpus() < 2)
			continue;
		capture_begin();
		rc = cli_parse_cpus("--physcpubind", cpus[i], &bm);
		capture_end();
		if (rc)
			fail_msg("CPU list '%s' refused", cpus[i]);
		numa_bitmask_free(bm);
		bm = NULL;
	}
}

static void test_cpus_bad(void **state)
{
	struct bitmask *bm = NULL;
	const char *err;

	(void)state;
	capture_begin();
	assert_int_equal(cli_parse_cpus("--physcpubind", "100000", &bm), -EINVAL);
	assert_int_equal(cli_parse_cpus("--physcpubind", "0-", &bm), -EINVAL);
	err = capture_end();
	assert_int_equal(lines(err), 2);
	assert_non_null(strstr(err, "--physcpubind: invalid CPU list '100000'"));
}

/*
 * An option's value is quoted in its error with every control character
 * escaped, as a file's contents are: a newline cannot make a second line,
 * an escape sequence cannot retitle or recolour the terminal.
 */
static void test_escaped(void **state)
{
	static const struct { const char *in, *shown; } cases[] = {
		{ "1\n", "'1\\n'" },
		{ "\x1b]0;pwned\a\x1b[31mRED", "'\\e]0;pwned\\x07\\e[31mRED'" },
		{ "a\tb\rc\x7f", "'a\\tb\\rc\\x7f'" },
		/* U+009B, the one-character CSI, in UTF-8. */
		{ "x\xc2\x9b" "31m", "'x\\xc2\\x9b31m'" },
	};
	uint64_t v;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *err;

		capture_begin();
		assert_int_equal(cli_parse_size("--size", cases[i].in, &v), -EINVAL);
		err = capture_end();
		assert_int_equal(lines(err), 1);
		if (!strstr(err, cases[i].shown))
			fail_msg("message '%s' lacks %s", err, cases[i].shown);
		for (const char *c = err; *c; c++)
			if (((unsigned char)*c < 0x20 && *c != '\n') || *c == 0x7f ||
			    ((unsigned char)c[0] == 0xc2 && (unsigned char)c[1] >= 0x80 && (unsigned char)c[1] < 0xa0))
				fail_msg("message '%s' holds control character 0x%02x", err, (unsigned char)*c);
	}
	/* Valid UTF-8 beyond the controls is left as it is. */
	capture_begin();
	assert_int_equal(cli_parse_size("--size", "1\xc3\xa9", &v), -EINVAL);
	assert_non_null(strstr(capture_end(), "'1\xc3\xa9'"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_size),
		cmocka_unit_test(test_format_size),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_size_option),
		cmocka_unit_test(test_numbers_strict),
		cmocka_unit_test(test_nodes_good),
		cmocka_unit_test(test_nodes_bad),
		cmocka_unit_test(test_cpus_bad),
		cmocka_unit_test(test_ids_wrap),
		cmocka_unit_test(test_ids_syntax),
		cmocka_unit_test(test_escaped),
	};

	if (numa_available() < 0) {
		fprintf(stderr, "test_cli: NUMA not available; node list tests need libnuma\n");
		return 1;
	}
	return cmocka_run_group_tests_name("cli", tests, NULL, NULL);
}
