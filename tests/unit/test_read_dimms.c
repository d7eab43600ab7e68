// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_read_dimms.c - the readers of what is installed behind physical
 * addresses (pagehop scan), on the fixtures of tests/data/dimms: EDAC's
 * sysfs layout (dimm* and rank*, a missing label, error counts), the text
 * of dmidecode (sizes in GB and MB, an empty slot, locators not given), an
 * SMBIOS type 17 and 20 pair built here byte by byte as the firmware lays
 * them out (sysfs raw), and the mapping of a range to its devices.
 */
#include "unit.h"
#include "read_dimms.h"
#include "readfile.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

static void test_edac(void **state)
{
	struct ph_dimms d = { 0 };

	(void)state;
	assert_int_equal(dimms_read_edac("tests/data/dimms/edac/mc", &d), 3);
	assert_int_equal(d.n, 3);
	assert_string_equal(d.v[0].label, "CPU_SrcID#0_MC#0_Chan#0_DIMM#0");
	assert_string_equal(d.v[0].location, "mc0 dimm0: channel 0 slot 0");
	assert_true(d.v[0].size == 16384 * MiB);
	assert_string_equal(d.v[0].type, "Registered-DDR4");
	assert_int_equal(d.v[0].ce, 0);
	assert_int_equal(d.v[1].ce, 12);
	/* A rank with no label from its driver. */
	assert_string_equal(d.v[2].label, "");
	assert_string_equal(d.v[2].location, "mc1 rank0: csrow 0 channel 0");
	assert_true(d.v[2].size == 4096 * MiB);
	dimms_free(&d);
	assert_true(dimms_read_edac("tests/data/dimms/no-such-dir", &d) < 0);
}

static char *slurp(const char *path)
{
	char *buf = NULL;
	size_t len;
	const char *kind;

	assert_int_equal(read_whole_file(path, 1 << 20, &buf, &len, &kind), 0);
	return buf;
}

static void test_dmidecode(void **state)
{
	struct ph_dimms d = { 0 };
	char *text = slurp("tests/data/dimms/dmidecode-two.txt"), names[128];

	(void)state;
	assert_int_equal(dimms_read_dmidecode(text, &d), 5);
	assert_int_equal(d.n, 3);
	assert_string_equal(d.v[0].label, "DIMM_A1");
	assert_string_equal(d.v[0].bank, "NODE 1");
	assert_string_equal(d.v[0].type, "DDR4");
	assert_true(d.v[0].size == 16 * GiB);
	assert_true(d.v[1].size == 0);	/* No Module Installed */
	assert_true(d.v[2].size == 16 * GiB);	/* 16384 MB */
	assert_int_equal(d.nmap, 2);
	assert_true(d.map[0].start == 0 && d.map[0].end == 16 * GiB);
	assert_true(d.map[1].start == 16 * GiB && d.map[1].end == 32 * GiB);
	assert_int_equal(d.map[1].handle, 0x13);
	/* Range to DIMM: each GiB on its own DIMM, one across both, one beyond. */
	assert_int_equal(dimms_for_range(&d, 3 * GiB, 4 * GiB, names, sizeof(names)), 1);
	assert_string_equal(names, "DIMM_A1");
	assert_int_equal(dimms_for_range(&d, 20 * GiB, 21 * GiB, names, sizeof(names)), 1);
	assert_string_equal(names, "DIMM_B1");
	assert_int_equal(dimms_for_range(&d, 15 * GiB, 17 * GiB, names, sizeof(names)), 2);
	assert_string_equal(names, "DIMM_A1+DIMM_B1");
	assert_int_equal(dimms_for_range(&d, 32 * GiB, 33 * GiB, names, sizeof(names)), 0);
	assert_string_equal(names, "");
	dimms_free(&d);
	free(text);
}

static void test_dmidecode_no_labels(void **state)
{
	struct ph_dimms d = { 0 };
	char *text = slurp("tests/data/dimms/dmidecode-nolabels.txt"), names[128];

	(void)state;
	assert_int_equal(dimms_read_dmidecode(text, &d), 4);
	assert_string_equal(d.v[0].label, "");
	assert_string_equal(d.v[1].label, "");
	assert_string_equal(d.v[0].bank, "");
	assert_int_equal(d.map[0].interleave_pos, 1);
	assert_int_equal(d.map[1].interleave_pos, 2);
	/* Two interleaved devices, named by their handles. */
	assert_int_equal(dimms_for_range(&d, GiB, 2 * GiB, names, sizeof(names)), 2);
	assert_string_equal(names, "(no label, handle 0x1100)+(no label, handle 0x1101)");
	dimms_free(&d);
	free(text);
}

static void test_smbios_raw(void **state)
{
	/* Type 17, length 0x28, handle 0x0040: size 0x7FFF -> extended 32768 MiB
	 * at 0x1C; locator string 1, bank string 2, type 0x22 DDR5. */
	unsigned char t17[0x28 + 16] = { 17, 0x28, 0x40, 0x00 };
	/* Type 20, length 0x23, handle 0x0050, device 0x0040: extended addresses. */
	unsigned char t20[0x23 + 2] = { 20, 0x23, 0x50, 0x00 };
	struct ph_dimms d = { 0 };
	char names[64];
	uint64_t start = 64 * GiB, last = 96 * GiB - 1;

	(void)state;
	t17[0x0C] = 0xFF;
	t17[0x0D] = 0x7F;
	t17[0x10] = 1;
	t17[0x11] = 2;
	t17[0x12] = 0x22;
	t17[0x1C] = 0x00;
	t17[0x1D] = 0x80;	/* 0x8000 MiB */
	memcpy(t17 + 0x28, "P0 CH0\0BANK 0\0", 14);
	memset(t20 + 4, 0xFF, 4);
	t20[0x0C] = 0x40;
	for (int i = 0; i < 8; i++) {
		t20[0x13 + i] = (unsigned char)(start >> (8 * i));
		t20[0x1B + i] = (unsigned char)(last >> (8 * i));
	}
	assert_int_equal(dimms_add_smbios(t17, sizeof(t17), &d), 1);
	assert_int_equal(dimms_add_smbios(t20, sizeof(t20), &d), 1);
	assert_string_equal(d.v[0].label, "P0 CH0");
	assert_string_equal(d.v[0].bank, "BANK 0");
	assert_string_equal(d.v[0].type, "DDR5");
	assert_true(d.v[0].size == 32 * GiB);
	assert_true(d.map[0].start == 64 * GiB && d.map[0].end == 96 * GiB);
	assert_int_equal(dimms_for_range(&d, 70 * GiB, 71 * GiB, names, sizeof(names)), 1);
	assert_string_equal(names, "P0 CH0");
	dimms_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_edac),
		cmocka_unit_test(test_dmidecode),
		cmocka_unit_test(test_dmidecode_no_labels),
		cmocka_unit_test(test_smbios_raw),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
