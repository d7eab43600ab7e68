// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_acpi_slit.c - ACPI header parsing from bytes, OEM id handling, and
 * the SLIT source against a golden text in iasl's data-table syntax.
 */
#include "unit.h"

#include "acpi_slit.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * QEMU's SLIT for two nodes at distance 21 (the bytes of its test table
 * tests/data/acpi/pc/SLIT.memhp): "SLIT", length 0x30, revision 1,
 * checksum 0x2C, "BOCHS ", "BXPCSLIT", OEM revision 1, "BXPC", 1.
 */
static const uint8_t qemu_slit[48] = {
	0x53, 0x4C, 0x49, 0x54, 0x30, 0x00, 0x00, 0x00, 0x01, 0x2C, 0x42, 0x4F,
	0x43, 0x48, 0x53, 0x20, 0x42, 0x58, 0x50, 0x43, 0x53, 0x4C, 0x49, 0x54,
	0x01, 0x00, 0x00, 0x00, 0x42, 0x58, 0x50, 0x43, 0x01, 0x00, 0x00, 0x00,
	0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0A, 0x15, 0x15, 0x0A,
};

static void test_header_parse(void **state)
{
	struct ph_acpi_header h;
	uint8_t buf[48];

	(void)state;
	assert_int_equal(acpi_header_parse(qemu_slit, sizeof(qemu_slit), &h), 0);
	assert_string_equal(h.signature, "SLIT");
	assert_int_equal(h.length, 48);
	assert_int_equal(h.revision, 1);
	assert_int_equal(h.checksum, 0x2C);
	assert_memory_equal(h.oem_id, "BOCHS ", 6);
	assert_memory_equal(h.oem_table_id, "BXPCSLIT", 8);
	assert_int_equal(h.oem_revision, 1);
	assert_string_equal(h.asl_compiler_id, "BXPC");
	assert_int_equal(h.asl_compiler_revision, 1);

	/* Little-endian, all 32 bits. */
	memcpy(buf, qemu_slit, sizeof(buf));
	buf[24] = 0x78;
	buf[25] = 0x56;
	buf[26] = 0x34;
	buf[27] = 0x12;
	assert_int_equal(acpi_header_parse(buf, sizeof(buf), &h), 0);
	assert_int_equal(h.oem_revision, 0x12345678);

	assert_int_equal(acpi_header_parse(qemu_slit, 35, &h), -EINVAL);
	assert_int_equal(acpi_header_parse(qemu_slit, 36, &h), 0);
}

static void test_header_read(void **state)
{
	char path[] = "/tmp/pagehop-test-slit-XXXXXX";
	int fd = mkstemp(path);
	struct ph_acpi_header h;

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, qemu_slit, sizeof(qemu_slit)), (int)sizeof(qemu_slit));
	close(fd);
	assert_int_equal(acpi_header_read(path, &h), 0);
	assert_int_equal(h.oem_revision, 1);
	assert_int_equal(truncate(path, 20), 0);
	assert_int_equal(acpi_header_read(path, &h), -EINVAL);
	unlink(path);
	assert_int_equal(acpi_header_read(path, &h), -ENOENT);
}

static void test_slit_parse(void **state)
{
	struct ph_acpi_slit t;
	uint8_t buf[48 + 4];
	char why[160];

	(void)state;
	assert_int_equal(acpi_slit_parse(qemu_slit, sizeof(qemu_slit), &t, why, sizeof(why)), 0);
	assert_int_equal(t.n, 2);
	assert_int_equal(t.entry[0], 10);
	assert_int_equal(t.entry[1], 21);
	assert_int_equal(t.entry[2], 21);
	assert_int_equal(t.entry[3], 10);
	acpi_slit_free(&t);

	/* Not a SLIT. */
	memcpy(buf, qemu_slit, sizeof(qemu_slit));
	memcpy(buf, "SRAT", 4);
	assert_int_equal(acpi_slit_parse(buf, sizeof(qemu_slit), &t, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "'SRAT'"));
	/* Shorter than the header's length. */
	assert_int_equal(acpi_slit_parse(qemu_slit, 47, &t, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "47 bytes where its header says 48"));
	/* Header and locality count only. */
	assert_int_equal(acpi_slit_parse(qemu_slit, 43, &t, why, sizeof(why)), -EINVAL);
	/* 3 localities need 9 bytes; the table has 4. */
	memcpy(buf, qemu_slit, sizeof(qemu_slit));
	buf[36] = 3;
	assert_int_equal(acpi_slit_parse(buf, sizeof(qemu_slit), &t, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "3 localities need 9 bytes"));
	/* A count whose square overflows 64 bits is refused, not wrapped. */
	memset(buf + 36, 0xff, 8);
	assert_int_equal(acpi_slit_parse(buf, sizeof(qemu_slit), &t, why, sizeof(why)), -EINVAL);
	assert_null(t.entry);
	/* Bytes past the header's length are not entries; zero localities is a table. */
	memcpy(buf, qemu_slit, sizeof(qemu_slit));
	buf[4] = 44;
	buf[36] = 0;
	assert_int_equal(acpi_slit_parse(buf, sizeof(buf), &t, why, sizeof(why)), 0);
	assert_int_equal(t.n, 0);
	acpi_slit_free(&t);
}

static void test_slit_read(void **state)
{
	char path[] = "/tmp/pagehop-test-slit-XXXXXX", why[160];
	int fd = mkstemp(path);
	struct ph_acpi_slit t;

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, qemu_slit, sizeof(qemu_slit)), (int)sizeof(qemu_slit));
	close(fd);
	assert_int_equal(acpi_slit_read(path, &t, why, sizeof(why)), 0);
	assert_int_equal(t.n, 2);
	assert_int_equal(t.entry[1], 21);
	acpi_slit_free(&t);
	assert_int_equal(truncate(path, 40), 0);
	assert_int_equal(acpi_slit_read(path, &t, why, sizeof(why)), -EINVAL);
	unlink(path);
	assert_int_equal(acpi_slit_read(path, &t, why, sizeof(why)), -ENOENT);
	/* A directory (or a FIFO) is no table, and reading it must not hang. */
	assert_int_equal(acpi_slit_read("/tmp", &t, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "not a regular file");
}

static void test_ids(void **state)
{
	char s[16];

	(void)state;
	/* Trailing spaces are kept; NUL padding becomes a shorter string. */
	assert_true(acpi_id_to_string((const uint8_t *)"BOCHS ", 6, s, sizeof(s)));
	assert_string_equal(s, "BOCHS ");
	assert_true(acpi_id_to_string((const uint8_t *)"INTEL\0", 6, s, sizeof(s)));
	assert_string_equal(s, "INTEL");
	assert_true(acpi_id_to_string((const uint8_t *)"\0\0\0\0\0\0", 6, s, sizeof(s)));
	assert_string_equal(s, "");
	/* What iasl cannot write back byte for byte. */
	assert_false(acpi_id_to_string((const uint8_t *)"A\0B\0\0\0", 6, s, sizeof(s)));
	assert_false(acpi_id_to_string((const uint8_t *)"A\"B   ", 6, s, sizeof(s)));
	assert_false(acpi_id_to_string((const uint8_t *)"A\tB   ", 6, s, sizeof(s)));
	assert_false(acpi_id_to_string((const uint8_t *)"\xff\xff\xff\xff\xff\xff", 6, s, sizeof(s)));
	assert_false(acpi_id_to_string((const uint8_t *)"BOCHS ", 6, s, 6));

	assert_true(acpi_id_valid("BOCHS ", 6));
	assert_true(acpi_id_valid("BXPC    ", 8));
	assert_false(acpi_id_valid("TOOLONG", 6));
	assert_false(acpi_id_valid("", 6));
	assert_false(acpi_id_valid("A\"B", 6));
}

static void test_source_golden(void **state)
{
	const struct ph_acpi_ids ids = { "BOCHS ", "BXPC    ", 2 };
	const int dist[] = { 10, 21, 21, 10 };
	char *s = acpi_slit_source(&ids, 2, dist, "two nodes\n\nend */ here");
	static const char want[] =
		"/*\n"
		" * two nodes\n"
		" *\n"
		" * end * / here\n"
		" *\n"
		" * Format: [ByteLength]  FieldName : HexFieldValue\n"
		" */\n"
		"[0004]                          Signature : \"SLIT\"    [System Locality Information Table]\n"
		"[0004]                       Table Length : 00000030\n"
		"[0001]                           Revision : 01\n"
		"[0001]                           Checksum : 00\n"
		"[0006]                             Oem ID : \"BOCHS \"\n"
		"[0008]                       Oem Table ID : \"BXPC    \"\n"
		"[0004]                       Oem Revision : 00000002\n"
		"[0004]                    Asl Compiler ID : \"INTL\"\n"
		"[0004]              Asl Compiler Revision : 00000000\n"
		"\n"
		"[0008]                         Localities : 0000000000000002\n"
		"[0002]                       Locality   0 : 0A 15\n"
		"[0002]                       Locality   1 : 15 0A\n";

	(void)state;
	assert_string_equal(s, want);
	free(s);
}

static void test_source_wide(void **state)
{
	/* 17 localities: 16 bytes a line, then a backslash continuation. */
	const struct ph_acpi_ids ids = { "OEM", "TABLE", 0xfffffffe };
	int dist[17 * 17];
	char *s;

	(void)state;
	for (int i = 0; i < 17 * 17; i++)
		dist[i] = i / 17 == i % 17 ? 10 : 11 + i % 17;
	s = acpi_slit_source(&ids, 17, dist, NULL);
	assert_non_null(strstr(s, "Table Length : 0000014D\n"));	/* 36 + 8 + 289 */
	assert_non_null(strstr(s, "Oem Revision : FFFFFFFE\n"));
	assert_non_null(strstr(s, "[0017]                       Locality  16 : "));
	assert_non_null(strstr(s, "Locality   0 : 0A 0C 0D 0E 0F 10 11 12 13 14 15 16 17 18 19 1A \\\n"
				  "                                            1B\n"));
	assert_null(strstr(s, "Format: [ByteLength]  FieldName : HexFieldValue\n */\n/*"));
	free(s);
}

static void test_write_atomic(void **state)
{
	char dir[] = "/tmp/pagehop-test-dir-XXXXXX", path[64], buf[32], why[256];
	DIR *d;
	struct dirent *e;
	int n = 0;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/slit.asl", dir);
	assert_int_equal(write_file_atomic(path, "first\n", 6, why, sizeof(why)), 0);
	assert_int_equal(write_file_atomic(path, "second\n", 7, why, sizeof(why)), 0);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	assert_string_equal(buf, "second\n");
	/* No temporary file left behind, hidden or not. */
	d = opendir(dir);
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	assert_int_equal(n, 1);
	unlink(path);
	rmdir(dir);
	snprintf(path, sizeof(path), "%s/none/slit.asl", dir);
	assert_int_equal(write_file_atomic(path, "x", 1, why, sizeof(why)), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header_parse),
		cmocka_unit_test(test_header_read),
		cmocka_unit_test(test_slit_parse),
		cmocka_unit_test(test_slit_read),
		cmocka_unit_test(test_ids),
		cmocka_unit_test(test_source_golden),
		cmocka_unit_test(test_source_wide),
		cmocka_unit_test(test_write_atomic),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
