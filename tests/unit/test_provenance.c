// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_provenance.c - the one reader of /proc/cpuinfo's "key : value"
 * lines, which both the JSON provenance and "pagehop info" take the
 * microcode revision from: fixed files with the values written out by
 * hand, and this machine's provenance against a parse of /proc/cpuinfo
 * done here with sscanf (a second path).
 */
#include "unit.h"
#include "provenance.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char path[64];

static void write_cpuinfo(const char *text)
{
	FILE *f;
	int fd;

	snprintf(path, sizeof(path), "/tmp/pagehop-cpuinfo-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static const char two_cpus[] =
	"processor\t: 0\n"
	"vendor_id\t: GenuineIntel\n"
	"model name\t: Intel(R) Xeon(R) Gold 6230 CPU @ 2.10GHz\n"
	"microcode_level\t: 7\n"
	"microcode\t: 0x5003604\n"
	"flags\t\t: fpu vme\n"
	"\n"
	"processor\t: 1\n"
	"model name\t: Intel(R) Xeon(R) Gold 6230 CPU @ 2.10GHz\n"
	"microcode\t: 0x5003999\n";

static void test_fields(void **state)
{
	char out[128];

	(void)state;
	write_cpuinfo(two_cpus);
	cpuinfo_field(path, "microcode", out, sizeof(out));
	/* The first processor's; "microcode_level" is another key. */
	assert_string_equal(out, "0x5003604");
	cpuinfo_field(path, "model name", out, sizeof(out));
	assert_string_equal(out, "Intel(R) Xeon(R) Gold 6230 CPU @ 2.10GHz");
	cpuinfo_field(path, "flags", out, sizeof(out));
	assert_string_equal(out, "fpu vme");
	/* Cut to the buffer, always terminated. */
	cpuinfo_field(path, "microcode", out, 6);
	assert_string_equal(out, "0x500");
	unlink(path);
}

static void test_absent(void **state)
{
	char out[32] = "stale";

	(void)state;
	/* A virtual machine's cpuinfo often has no microcode line. */
	write_cpuinfo("processor\t: 0\nmodel name\t: AMD EPYC\n");
	cpuinfo_field(path, "microcode", out, sizeof(out));
	assert_string_equal(out, "");
	unlink(path);
	strcpy(out, "stale");
	cpuinfo_field("/nonexistent/cpuinfo", "microcode", out, sizeof(out));
	assert_string_equal(out, "");
}

/* This machine: provenance_collect()'s and provenance_microcode()'s against sscanf. */
static void test_this_machine(void **state)
{
	struct ph_provenance p;
	char want[32] = "", got[32] = "stale", line[512];
	FILE *f = fopen("/proc/cpuinfo", "re");

	(void)state;
	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "microcode : %31s", want) == 1)
			break;
	fclose(f);
	provenance_collect(&p);
	assert_string_equal(p.microcode, want);
	provenance_microcode(got, sizeof(got));
	assert_string_equal(got, want);
	print_message("microcode here: '%s'\n", want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_absent),
		cmocka_unit_test(test_this_machine),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
