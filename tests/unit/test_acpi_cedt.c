// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_acpi_cedt.c - the raw CEDT parser on a table built here byte by
 * byte (one CHBS, one 2-way CFMWS as QEMU's cxl-fmw builds one), every
 * field read back, every truncation refused, every single-bit flip parsed
 * or refused with a reason (ASan watches the reads), the ways encodings.
 */
#include "unit.h"
#include "table_bytes.h"

#include "acpi_cedt.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/*
 * CHBS _UID 12, CXL 2.0 (version 1), CHBCR at 0xfe000000, 0x10000 bytes;
 * CFMWS 4 GiB at 0x490000000, 2 ways (encoding 1), modulo, granularity 1
 * (512 B), restrictions type 3 + volatile + persistent (0xe), QTG 0,
 * targets 12 and 13; then a CXIMS of one map.
 */
static void build(struct bytes *w)
{
	uint8_t sum = 0;

	memset(w, 0, sizeof(*w));
	memcpy(w->b, "CEDT", 4);
	w->n = 8;
	put(w, 1, 1), put(w, 0, 1);
	memcpy(w->b + w->n, "PAGEHOTESTCEDT", 14);
	w->n += 14;
	put(w, 1, 4), put(w, 0x4c544e49, 4), put(w, 1, 4);
	/* CHBS at 36 */
	put(w, 0, 1), put(w, 0, 1), put(w, 32, 2), put(w, 12, 4), put(w, 1, 4), put(w, 0, 4);
	put(w, 0xfe000000, 8), put(w, 0x10000, 8);
	/* CFMWS at 68: 36 + 2 x 4 = 44 bytes */
	put(w, 1, 1), put(w, 0, 1), put(w, 44, 2), put(w, 0, 4);
	put(w, 0x490000000ull, 8), put(w, 4ull << 30, 8);
	put(w, 1, 1), put(w, 0, 1), put(w, 0, 2), put(w, 1, 4), put(w, 0xe, 2), put(w, 0, 2);
	put(w, 12, 4), put(w, 13, 4);
	/* CXIMS at 112: 8 + 8 bytes */
	put(w, 2, 1), put(w, 0, 1), put(w, 16, 2), put(w, 0, 2), put(w, 1, 1), put(w, 1, 1), put(w, 0x100, 8);
	for (int i = 0; i < 4; i++)
		w->b[4 + i] = (uint8_t)(w->n >> (8 * i));
	for (size_t i = 0; i < w->n; i++)
		sum = (uint8_t)(sum + w->b[i]);
	w->b[9] = (uint8_t)-sum;
}

static void test_fields(void **state)
{
	struct bytes w;
	struct ph_acpi_cedt t;
	char why[256];

	(void)state;
	build(&w);
	assert_int_equal(w.n, 128);
	assert_int_equal(acpi_cedt_parse(w.b, w.n, &t, why, sizeof(why)), 0);
	assert_true(t.sum_ok);
	assert_int_equal(t.nchbs, 1);
	assert_int_equal(t.chbs[0].uid, 12);
	assert_int_equal(t.chbs[0].version, 1);
	assert_int_equal(t.chbs[0].base, 0xfe000000);
	assert_int_equal(t.chbs[0].length, 0x10000);
	assert_int_equal(t.ncfmws, 1);
	assert_int_equal(t.cfmws[0].off, 68);
	assert_int_equal(t.cfmws[0].base, 0x490000000ull);
	assert_int_equal(t.cfmws[0].size, 4ull << 30);
	assert_int_equal(t.cfmws[0].ways, 2);
	assert_int_equal(t.cfmws[0].hbig, 1);
	assert_int_equal(t.cfmws[0].restrictions, 0xe);
	assert_int_equal(t.cfmws[0].target[1], 13);
	assert_int_equal(t.cfmws[0].extra, 0);
	assert_int_equal(t.ncxims, 1);
	assert_ptr_equal(acpi_cedt_chbs_of(&t, 12), &t.chbs[0]);
	assert_null(acpi_cedt_chbs_of(&t, 13));
	acpi_cedt_free(&t);
}

static void test_ways(void **state)
{
	static const int want[16] = { 1, 2, 4, 8, 16, 0, 0, 0, 3, 6, 12, 0, 0, 0, 0, 0 };

	(void)state;
	for (int e = 0; e < 16; e++)
		assert_int_equal(acpi_cedt_ways((uint8_t)e), want[e]);
}

/* acpi_cedt_parse as table_bytes.h calls it: a table parsed from a flipped bit never sums to 0. */
static int parse(const uint8_t *b, size_t n, char *why, size_t whylen)
{
	struct ph_acpi_cedt t;
	int rc = acpi_cedt_parse(b, n, &t, why, whylen);

	if (!rc) {
		assert_false(t.sum_ok);
		acpi_cedt_free(&t);
	}
	return rc;
}

static void test_refused(void **state)
{
	struct bytes w;
	struct ph_acpi_cedt t;
	char why[256];
	int parsed, refused;

	(void)state;
	build(&w);
	each_truncation_refused(&w, parse, 36, "shorter than a CEDT's header", "where its header says");
	/* The CFMWS said to have 4 ways (encoding 2) in 44 bytes: 36 + 16 = 52 expected. */
	build(&w);
	w.b[68 + 24] = 2;
	assert_int_equal(acpi_cedt_parse(w.b, w.n, &t, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "structure of type 1 at offset 68: length 44; expected 52");
	/* A ways encoding the spec does not have. */
	w.b[68 + 24] = 5;
	assert_int_equal(acpi_cedt_parse(w.b, w.n, &t, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "interleave ways encoding the spec does not have"));
	/* A CHBS of 24 bytes. */
	build(&w);
	w.b[36 + 2] = 24;
	assert_int_equal(acpi_cedt_parse(w.b, w.n, &t, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "type 0 at offset 36: length 24; expected 32"));
	build(&w);
	each_flip(&w, 4, parse, &parsed, &refused);
	assert_true(parsed > 0 && refused > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_ways),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
