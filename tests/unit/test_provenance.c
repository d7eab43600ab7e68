// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_provenance.c - the one reader of /proc/cpuinfo's "key : value"
 * lines, which both the JSON provenance and "pagehop info" take the
 * microcode revision from: fixed files with the values written out by
 * hand, and this machine's provenance against a parse of /proc/cpuinfo
 * done here with sscanf (a second path); the CPU packages and the ACPI
 * table headers from fixed trees made here, counted and written by hand.
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

/* A file of len bytes at dir/name, made with its directories. */
static void put_file(const char *dir, const char *name, const void *bytes, size_t len)
{
	char file[512], cmd[600];
	FILE *f;

	snprintf(file, sizeof(file), "%s/%s", dir, name);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", file);
	assert_int_equal(system(cmd), 0);
	f = fopen(file, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(bytes, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

static void rm_tree(const char *dir)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/*
 * Packages: distinct physical_package_id of the CPUs with a topology
 * directory (counted here by hand: 0 and 1 among four CPUs, an offline CPU
 * without one, a cpufreq directory that is no CPU).
 */
static void test_packages(void **state)
{
	char dir[] = "/tmp/pagehop-cpu-XXXXXX";

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(provenance_packages(dir), 0);	/* no CPU: unknown */
	put_file(dir, "cpu0/topology/physical_package_id", "0\n", 2);
	put_file(dir, "cpu1/topology/physical_package_id", "0\n", 2);
	put_file(dir, "cpu2/topology/physical_package_id", "1\n", 2);
	put_file(dir, "cpu10/topology/physical_package_id", "1\n", 2);
	put_file(dir, "cpu3/online", "0\n", 2);
	put_file(dir, "cpufreq/topology/physical_package_id", "7\n", 2);
	assert_int_equal(provenance_packages(dir), 2);
	put_file(dir, "cpu4/topology/physical_package_id", "3\n", 2);
	assert_int_equal(provenance_packages(dir), 3);
	/* A package id the kernel does not know (-1): the count is not known either. */
	put_file(dir, "cpu5/topology/physical_package_id", "-1\n", 3);
	assert_int_equal(provenance_packages(dir), 0);
	rm_tree(dir);
	assert_int_equal(provenance_packages("/nonexistent/pagehop"), 0);
}

/* ACPI headers: QEMU's SLIT header written out by hand, a table that is not what its name says, none. */
static void test_acpi(void **state)
{
	static const unsigned char slit[] =
		"SLIT\x30\x00\x00\x00\x01\x2c" "BOCHS " "BXPCSLIT" "\x07\x00\x00\x00" "BXPC\x01\x00\x00\x00";
	static const unsigned char hmat_short[] = "HMAT\x28\x00\x00\x00\x02\x00" "ALASKA";
	char dir[] = "/tmp/pagehop-acpi-XXXXXX";
	struct ph_acpi_oem a[PH_PROV_NACPI];

	(void)state;
	assert_non_null(mkdtemp(dir));
	provenance_acpi(dir, a);
	assert_false(a[PH_PROV_SLIT].have);
	assert_false(a[PH_PROV_HMAT].have);
	put_file(dir, "SLIT", slit, 36);
	put_file(dir, "HMAT", hmat_short, sizeof(hmat_short) - 1);	/* shorter than a header */
	provenance_acpi(dir, a);
	assert_true(a[PH_PROV_SLIT].have);
	assert_string_equal(a[PH_PROV_SLIT].oem_id, "BOCHS ");
	assert_string_equal(a[PH_PROV_SLIT].oem_table_id, "BXPCSLIT");
	assert_int_equal(a[PH_PROV_SLIT].oem_revision, 7);
	assert_false(a[PH_PROV_HMAT].have);
	/* The SLIT's bytes under the HMAT's name: not an HMAT. */
	put_file(dir, "HMAT", slit, 36);
	provenance_acpi(dir, a);
	assert_false(a[PH_PROV_HMAT].have);
	rm_tree(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_absent),
		cmocka_unit_test(test_this_machine),
		cmocka_unit_test(test_packages),
		cmocka_unit_test(test_acpi),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
