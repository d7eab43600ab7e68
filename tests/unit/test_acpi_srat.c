// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_acpi_srat.c - the raw SRAT parser on a table built here byte by
 * byte: every field read back against the value written, every truncation
 * refused, every single-bit flip either parsed or refused with a reason
 * (never read past the table: ASan), the sum judged, the generic port
 * found by its _UID.
 */
#include "unit.h"
#include "table_bytes.h"

#include "acpi_srat.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void seal(struct bytes *w)
{
	uint8_t sum = 0;

	for (int i = 0; i < 4; i++)
		w->b[4 + i] = (uint8_t)(w->n >> (8 * i));
	w->b[9] = 0;
	for (size_t i = 0; i < w->n; i++)
		sum = (uint8_t)(sum + w->b[i]);
	w->b[9] = (uint8_t)-sum;
}

/*
 * Two CPUs (local APIC 0 in domain 0x10203 -- bytes 03 @2, 02 01 00 @9 --
 * and x2APIC 1 in domain 1), memory 0-2 GiB in domain 0 and 2-4 GiB in
 * domain 1 (hot-pluggable), a PCI generic initiator 0000:03:00.0 in domain
 * 2, a generic port ACPI0016 _UID 12 in domain 4, a GICC (counted), and a
 * structure of type 9, 8 bytes (unknown).
 */
static void build(struct bytes *w)
{
	memset(w, 0, sizeof(*w));
	memcpy(w->b, "SRAT", 4);
	w->n = 8;
	put(w, 3, 1), put(w, 0, 1);
	memcpy(w->b + w->n, "PAGEHOPTESTSRAT ", 14);
	w->n += 14;
	put(w, 1, 4), put(w, 0x4c544e49, 4), put(w, 1, 4);
	put(w, 1, 4), put(w, 0, 8);
	/* type 0 at 48 */
	put(w, 0, 1), put(w, 16, 1), put(w, 0x03, 1), put(w, 0, 1), put(w, 1, 4);
	put(w, 0, 1), put(w, 0x02, 1), put(w, 0x01, 1), put(w, 0x00, 1), put(w, 0, 4);
	/* type 2 at 64 */
	put(w, 2, 1), put(w, 24, 1), put(w, 0, 2), put(w, 1, 4), put(w, 1, 4), put(w, 1, 4), put(w, 0, 4), put(w, 0, 4);
	/* type 1 at 88 and 128 */
	for (int d = 0; d < 2; d++) {
		put(w, 1, 1), put(w, 40, 1), put(w, (uint64_t)d, 4), put(w, 0, 2);
		put(w, (uint64_t)d << 31, 8), put(w, 1ull << 31, 8), put(w, 0, 4), put(w, d ? 3 : 1, 4), put(w, 0, 8);
	}
	/* type 5 at 168: PCI segment 0, BDF 03:00.0 = 0x0300 */
	put(w, 5, 1), put(w, 32, 1), put(w, 0, 1), put(w, 1, 1), put(w, 2, 4);
	put(w, 0, 2), put(w, 0x0300, 2), put(w, 0, 8), put(w, 0, 4), put(w, 1, 4), put(w, 0, 4);
	/* type 6 at 200 */
	put(w, 6, 1), put(w, 32, 1), put(w, 0, 1), put(w, 0, 1), put(w, 4, 4);
	memcpy(w->b + w->n, "ACPI0016", 8);
	w->n += 8;
	put(w, 12, 4), put(w, 0, 4), put(w, 1, 4), put(w, 0, 4);
	/* type 3 at 232, 18 bytes; type 9 at 250, 8 bytes */
	put(w, 3, 1), put(w, 18, 1), put(w, 0, 8), put(w, 0, 8);
	put(w, 9, 1), put(w, 8, 1), put(w, 0, 6);
	seal(w);
}

static void test_fields(void **state)
{
	struct bytes w;
	struct ph_acpi_srat t;
	char why[256];

	(void)state;
	build(&w);
	assert_int_equal(w.n, 258);
	assert_int_equal(acpi_srat_parse(w.b, w.n, &t, why, sizeof(why)), 0);
	assert_true(t.sum_ok);
	assert_int_equal(t.h.revision, 3);
	assert_int_equal(t.ncpu, 2);
	assert_int_equal(t.cpu[0].domain, 0x10203);
	assert_int_equal(t.cpu[0].off, 48);
	assert_true(t.cpu[0].enabled);
	assert_int_equal(t.cpu[1].type, 2);
	assert_int_equal(t.cpu[1].apic_id, 1);
	assert_int_equal(t.nmem, 2);
	assert_int_equal(t.mem[1].off, 128);
	assert_int_equal(t.mem[1].base, 1ull << 31);
	assert_int_equal(t.mem[1].length, 1ull << 31);
	assert_true(t.mem[1].hotplug);
	assert_false(t.mem[0].hotplug);
	assert_false(t.mem[1].nonvolatile);
	assert_int_equal(t.ndev, 2);
	assert_int_equal(t.dev[0].handle_type, 1);
	assert_int_equal(t.dev[0].bdf, 0x0300);
	assert_int_equal(t.dev[0].domain, 2);
	assert_string_equal(t.dev[1].hid, "ACPI0016");
	assert_int_equal(t.dev[1].uid, 12);
	assert_ptr_equal(acpi_srat_port_of(&t, 12), &t.dev[1]);
	assert_null(acpi_srat_port_of(&t, 13));
	assert_int_equal(t.nother, 1);
	assert_int_equal(t.nunknown, 1);
	acpi_srat_free(&t);
	/* A wrong sum is said, not refused. */
	w.b[9]++;
	assert_int_equal(acpi_srat_parse(w.b, w.n, &t, why, sizeof(why)), 0);
	assert_false(t.sum_ok);
	acpi_srat_free(&t);
}

/* acpi_srat_parse as table_bytes.h calls it: a table parsed from a flipped bit never sums to 0. */
static int parse(const uint8_t *b, size_t n, char *why, size_t whylen)
{
	struct ph_acpi_srat t;
	int rc = acpi_srat_parse(b, n, &t, why, whylen);

	if (!rc) {
		assert_false(t.sum_ok);
		acpi_srat_free(&t);
	}
	return rc;
}

static void test_refused(void **state)
{
	struct bytes w;
	struct ph_acpi_srat t;
	char why[256];
	int parsed, refused;

	(void)state;
	build(&w);
	each_truncation_refused(&w, parse, 48, "shorter than an SRAT's header", "where its header says");
	/* A memory affinity of 32 bytes: the length is its type's or nothing. */
	build(&w);
	w.b[88 + 1] = 32;
	seal(&w);
	assert_int_equal(acpi_srat_parse(w.b, w.n, &t, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "structure of type 1 at offset 88: length 32; that type is 40 bytes");
	/* A length of 1, and one past the end (the last structure, at 250, 8 bytes left). */
	build(&w);
	w.b[250 + 1] = 1;
	assert_int_equal(acpi_srat_parse(w.b, w.n, &t, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "offset 250"));
	w.b[250 + 1] = 9;
	assert_int_equal(acpi_srat_parse(w.b, w.n, &t, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "8 bytes are left"));
	/* Every single-bit flip past the signature. */
	build(&w);
	each_flip(&w, 4, parse, &parsed, &refused);
	assert_true(parsed > 0 && refused > 0);
	assert_int_equal(parsed + refused, (int)(w.n - 4) * 8);
	/* Not an SRAT. */
	build(&w);
	memcpy(w.b, "SLIT", 4);
	assert_int_equal(acpi_srat_parse(w.b, w.n, &t, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "not 'SRAT'"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
