// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_cdat_check.c - the CDAT's findings on tables written here field by
 * field: a sound table has none; each fault, put in alone, gives the one
 * finding it should, with its severity and the structure's offset.
 */
#include "unit.h"

#include "acpi_hmat.h"
#include "cdat_check.h"

#include <string.h>

static struct ph_cdat_dsmas ranges[2];
static struct ph_cdat_dslbis figs[6];
static struct ph_cdat_dsemts types[1];

/*
 * Two ranges: handle 0 at DPA 0, 256 MiB; handle 1 at 256 MiB, 256 MiB;
 * each with a read latency (150 and 400 ns, base 1000 ps) and a read
 * bandwidth (12000 and 4000 MB/s, base 1); range 0's whole length EFI
 * type 1.  Offsets are made up, one per structure.
 */
static void sound(struct ph_cdat *t)
{
	memset(t, 0, sizeof(*t));
	for (int h = 0; h < 2; h++) {
		ranges[h] = (struct ph_cdat_dsmas){ .off = 16 + 24 * (size_t)h, .handle = (uint8_t)h,
						    .dpa_base = (uint64_t)h << 28, .dpa_length = 1ull << 28 };
		figs[2 * h] = (struct ph_cdat_dslbis){ .off = 64 + 48 * (size_t)h, .handle = (uint8_t)h,
						      .data_type = PH_HMAT_READ_LATENCY, .base_unit = 1000,
						      .entry = { h ? 400 : 150 } };
		figs[2 * h + 1] = (struct ph_cdat_dslbis){ .off = 88 + 48 * (size_t)h, .handle = (uint8_t)h,
							  .data_type = PH_HMAT_READ_BANDWIDTH, .base_unit = 1,
							  .entry = { h ? 4000 : 12000 } };
	}
	types[0] = (struct ph_cdat_dsemts){ .off = 160, .handle = 0, .efi_type = 1, .dpa_length = 1ull << 28 };
	t->dsmas = ranges;
	t->ndsmas = 2;
	t->dslbis = figs;
	t->ndslbis = 4;
	t->dsemts = types;
	t->ndsemts = 1;
}

/* t has exactly one finding, of that severity and structure, saying phrase. */
static void one(const struct ph_cdat *t, enum ph_tseverity sev, int type, size_t off, const char *phrase)
{
	struct ph_tfindings f;

	cdat_check(t, &f);
	if (f.n != 1)
		fail_msg("%d findings, the first '%s'; expected one saying '%s'", f.n, f.n ? f.f[0].what : "", phrase);
	assert_int_equal(f.f[0].sev, sev);
	assert_string_equal(f.f[0].table, "CDAT");
	assert_string_equal(f.f[0].structure, type < 0 ? "table" : cdat_type_name(type));
	assert_int_equal(f.f[0].off, off);
	if (!strstr(f.f[0].what, phrase))
		fail_msg("'%s' lacks '%s'", f.f[0].what, phrase);
	assert_int_equal(f.count[sev], 1);
	tfindings_free(&f);
}

static void test_sound(void **state)
{
	struct ph_cdat t;
	struct ph_tfindings f;

	(void)state;
	sound(&t);
	cdat_check(&t, &f);
	assert_int_equal(f.n, 0);
	tfindings_free(&f);
}

static void test_ranges(void **state)
{
	struct ph_cdat t;

	(void)state;
	sound(&t);
	ranges[1].handle = 0;
	/* Range 1's figures still name handle 1: two findings; take only the DSMAS's. */
	figs[2].handle = figs[3].handle = 0;
	t.ndslbis = 2;
	one(&t, PH_T_ERROR, PH_CDAT_DSMAS, 40, "handle 0 is also the DSMAS's at offset 16");
	sound(&t);
	ranges[1].dpa_base = 0x8000000;	/* 128 MiB: inside range 0 */
	one(&t, PH_T_ERROR, PH_CDAT_DSMAS, 40, "range 1 (DPA 0x8000000 + 0x10000000) overlaps range 0");
	sound(&t);
	ranges[1].dpa_length = 0;
	one(&t, PH_T_ERROR, PH_CDAT_DSMAS, 40, "range 1 has length 0");
	sound(&t);
	t.ndslbis = 3;		/* range 1's bandwidth left out */
	one(&t, PH_T_WARNING, PH_CDAT_DSMAS, 40, "range 1 has no bandwidth DSLBIS");
	sound(&t);
	t.ndsmas = 0;
	t.ndslbis = 0;
	t.ndsemts = 0;
	one(&t, PH_T_ERROR, -1, 0, "no DSMAS");
}

static void test_figures(void **state)
{
	struct ph_cdat t;

	(void)state;
	sound(&t);
	figs[4] = figs[2];
	figs[4].handle = 5;
	figs[4].off = 200;
	t.ndslbis = 5;
	one(&t, PH_T_ERROR, PH_CDAT_DSLBIS, 200, "read_latency names range 5, which no DSMAS describes: Linux drops it");
	sound(&t);
	figs[2].entry[0] = 0xffff;
	one(&t, PH_T_WARNING, PH_CDAT_DSLBIS, 112, "read_latency of range 1 is 0xffff (unreachable)");
	sound(&t);
	figs[1].entry[0] = 0;
	one(&t, PH_T_WARNING, PH_CDAT_DSLBIS, 88, "read_bandwidth of range 0 is 0 (no information)");
	sound(&t);
	/* 40000 x 131072 = 5,242,880,000 > 2^32 - 1 = 4,294,967,295. */
	figs[3].entry[0] = 40000;
	figs[3].base_unit = 1u << 17;
	one(&t, PH_T_WARNING, PH_CDAT_DSLBIS, 136, "entry 40000 x base unit 131072 passes 2^32 - 1");
	sound(&t);
	figs[4] = figs[0];
	figs[4].off = 200;
	t.ndslbis = 5;
	one(&t, PH_T_WARNING, PH_CDAT_DSLBIS, 200, "read_latency of range 0 is also given at offset 64: Linux keeps this later one");
	sound(&t);
	figs[0].entry[2] = 9;
	one(&t, PH_T_INFO, PH_CDAT_DSLBIS, 64, "entries 1 and 2 (0, 9)");
}

static void test_types(void **state)
{
	struct ph_cdat t;

	(void)state;
	sound(&t);
	types[0].dpa_offset = 1u << 20;	/* 1 MiB in, 256 MiB long: 1 MiB past */
	one(&t, PH_T_ERROR, PH_CDAT_DSEMTS, 160, "offset 0x100000 + length 0x10000000 runs past range 0's length 0x10000000");
	sound(&t);
	types[0].handle = 3;
	one(&t, PH_T_ERROR, PH_CDAT_DSEMTS, 160, "names range 3");
	sound(&t);
	t.nunknown = 2;
	one(&t, PH_T_INFO, -1, 0, "2 structures of a type after SSLBIS");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sound),
		cmocka_unit_test(test_ranges),
		cmocka_unit_test(test_figures),
		cmocka_unit_test(test_types),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
