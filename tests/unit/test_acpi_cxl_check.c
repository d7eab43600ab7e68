// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_acpi_cxl_check.c - the SRAT and CEDT checks on tables written here
 * field by field: a sound pair gives only the window's node note; each
 * fault, put in alone, gives the finding it should, with its severity,
 * table, structure and offset.
 */
#include "unit.h"

#include "acpi_cxl_check.h"

#include <string.h>

static struct ph_srat_mem mem[2];
static struct ph_srat_dev dev[1];
static struct ph_cedt_chbs chbs[2];
static struct ph_cedt_cfmws win[2];

/*
 * SRAT: DRAM 0-2 GiB in domain 0 and 2-4 GiB in domain 1, a generic port
 * ACPI0016 _UID 12 in domain 4.  CEDT: host bridge 12 (CXL 2.0, 64 KiB
 * CHBCR); one 4 GiB window at 16 GiB, one way to host bridge 12, type 3
 * volatile, 256 B granularity -- in no SRAT range.
 */
static void sound(struct ph_acpi_srat *s, struct ph_acpi_cedt *c)
{
	memset(s, 0, sizeof(*s));
	memset(c, 0, sizeof(*c));
	for (int d = 0; d < 2; d++)
		mem[d] = (struct ph_srat_mem){ .off = 48 + 40 * (size_t)d, .domain = (uint32_t)d,
					       .base = (uint64_t)d << 31, .length = 1ull << 31, .enabled = true };
	dev[0] = (struct ph_srat_dev){ .off = 128, .type = 6, .domain = 4, .hid = "ACPI0016", .uid = 12,
				       .enabled = true };
	chbs[0] = (struct ph_cedt_chbs){ .off = 36, .uid = 12, .version = 1, .base = 0xfe000000, .length = 0x10000 };
	win[0] = (struct ph_cedt_cfmws){ .off = 68, .base = 16ull << 30, .size = 4ull << 30, .ways = 1,
					 .restrictions = PH_CFMWS_TYPE3 | PH_CFMWS_VOLATILE, .target = { 12 } };
	s->sum_ok = c->sum_ok = true;
	s->mem = mem;
	s->nmem = 2;
	s->dev = dev;
	s->ndev = 1;
	c->chbs = chbs;
	c->nchbs = 1;
	c->cfmws = win;
	c->ncfmws = 1;
}

/* Of the findings, exactly one of sev besides the window note, in table/structure at off, saying phrase. */
static void one(const struct ph_acpi_srat *s, const struct ph_acpi_cedt *c, enum ph_tseverity sev,
		const char *table, const char *structure, size_t off, const char *phrase)
{
	struct ph_tfindings f;
	int found = 0, others = 0;

	acpi_cxl_check(s, c, &f);
	for (int i = 0; i < f.n; i++) {
		if (strstr(f.f[i].what, "SRAT memory affinity"))
			continue;	/* the window's node note */
		if (f.f[i].sev == sev && !strcmp(f.f[i].table, table) && !strcmp(f.f[i].structure, structure) &&
		    f.f[i].off == off && strstr(f.f[i].what, phrase))
			found++;
		else
			others++;
		if (others)
			fail_msg("unexpected finding '%s' (%s %s at %zu)", f.f[i].what, f.f[i].table,
				 f.f[i].structure, f.f[i].off);
	}
	if (found != 1)
		fail_msg("%d findings saying '%s'", found, phrase);
	tfindings_free(&f);
}

/*
 * A fault of the generic port: the SRAT error saying phrase, then the
 * CEDT's warning that bridge 12 has no port, and no other finding but the
 * window's note.
 */
static void port_lost(const struct ph_acpi_srat *s, const struct ph_acpi_cedt *c, const char *phrase)
{
	struct ph_tfindings f;

	acpi_cxl_check(s, c, &f);
	assert_int_equal(f.n, 3);
	assert_int_equal(f.count[PH_T_ERROR], 1);
	assert_int_equal(f.count[PH_T_WARNING], 1);
	assert_non_null(strstr(f.f[0].what, phrase));
	assert_non_null(strstr(f.f[1].what, "host bridge _UID 12 has no SRAT generic port"));
	tfindings_free(&f);
}

static void test_sound(void **state)
{
	struct ph_acpi_srat s;
	struct ph_acpi_cedt c;
	struct ph_tfindings f;

	(void)state;
	sound(&s, &c);
	acpi_cxl_check(&s, &c, &f);
	assert_int_equal(f.n, 1);
	assert_int_equal(f.f[0].sev, PH_T_INFO);
	assert_string_equal(f.f[0].what,
			    "window 0x400000000 + 0x100000000 has no SRAT memory affinity: Linux gives it a node of its own");
	tfindings_free(&f);
	/* With 16-20 GiB in the SRAT (domain 1 moved there), it takes that node. */
	mem[1].base = 16ull << 30;
	mem[1].length = 4ull << 30;
	acpi_cxl_check(&s, &c, &f);
	assert_int_equal(f.n, 1);
	assert_non_null(strstr(f.f[0].what, "has SRAT memory affinity: its memory takes that domain's node"));
	tfindings_free(&f);
	/* Neither table: nothing to say. */
	acpi_cxl_check(NULL, NULL, &f);
	assert_int_equal(f.n, 0);
}

static void test_srat(void **state)
{
	struct ph_acpi_srat s;
	struct ph_acpi_cedt c;

	(void)state;
	sound(&s, &c);
	mem[1].base = 1ull << 30;	/* 1-3 GiB: over domain 0's 0-2 GiB */
	one(&s, &c, PH_T_ERROR, "SRAT", "memory affinity", 88, "domain 1's 0x40000000 + 0x80000000 overlaps domain 0's");
	sound(&s, &c);
	mem[1].base = 1ull << 30;
	mem[1].enabled = false;	/* a disabled range overlaps nothing */
	{
		struct ph_tfindings f;

		acpi_cxl_check(&s, &c, &f);
		assert_int_equal(f.n, 1);	/* the window's node note */
		tfindings_free(&f);
	}
	sound(&s, &c);
	mem[0].length = 0;
	one(&s, &c, PH_T_ERROR, "SRAT", "memory affinity", 48, "domain 0: an enabled range of length 0");
	sound(&s, &c);
	mem[1].hotplug = true;
	one(&s, &c, PH_T_INFO, "SRAT", "memory affinity", 88, "is hot-pluggable");
	sound(&s, &c);
	dev[0].uid = 13;
	/* The port names no bridge, and bridge 12 has no port: two findings, on two tables. */
	port_lost(&s, &c, "names host bridge _UID 13, which no CEDT CHBS describes");
	sound(&s, &c);
	memcpy(dev[0].hid, "PNP0A08", 8);
	one(&s, &c, PH_T_WARNING, "SRAT", "generic port", 128, "_HID 'PNP0A08', not ACPI0016");
	sound(&s, &c);
	dev[0].handle_type = 1;
	/* Then it is no port of bridge 12 either. */
	port_lost(&s, &c, "has a PCI handle");
	sound(&s, &c);
	s.sum_ok = false;
	one(&s, &c, PH_T_WARNING, "SRAT", "table", 0, "do not sum to 0");
}

static void test_cedt(void **state)
{
	struct ph_acpi_srat s;
	struct ph_acpi_cedt c;

	(void)state;
	sound(&s, &c);
	win[0].base += 1u << 20;
	one(&s, &c, PH_T_ERROR, "CEDT", "CFMWS", 68, "must be non-zero multiples of 256 MiB: Linux refuses it");
	sound(&s, &c);
	win[0].hbig = 7;
	one(&s, &c, PH_T_ERROR, "CEDT", "CFMWS", 68, "granularity encoding 7");
	sound(&s, &c);
	win[0].arithmetic = 2;
	one(&s, &c, PH_T_ERROR, "CEDT", "CFMWS", 68, "interleave arithmetic 2");
	sound(&s, &c);
	win[0].restrictions = PH_CFMWS_TYPE3;
	one(&s, &c, PH_T_WARNING, "CEDT", "CFMWS", 68, "restrictions 0x2 allow no memory kind");
	sound(&s, &c);
	win[0].target[0] = 7;
	one(&s, &c, PH_T_ERROR, "CEDT", "CFMWS", 68, "target 0 names host bridge _UID 7, which no CHBS describes");
	sound(&s, &c);
	win[1] = win[0];
	win[1].off = 112;
	win[1].base += 2ull << 30;
	c.ncfmws = 2;
	one(&s, &c, PH_T_ERROR, "CEDT", "CFMWS", 112, "overlaps the window at offset 68");
	sound(&s, &c);
	win[0].extra = 4;
	one(&s, &c, PH_T_INFO, "CEDT", "CFMWS", 68, "4 bytes past its 1 targets");
	sound(&s, &c);
	chbs[0].length = 0x2000;
	one(&s, &c, PH_T_WARNING, "CEDT", "CHBS", 36, "register block of 0x2000 bytes; a CXL 2.0+ (CHBCR) one is 0x10000");
	sound(&s, &c);
	chbs[1] = chbs[0];
	chbs[1].off = 200;
	c.nchbs = 2;
	one(&s, &c, PH_T_ERROR, "CEDT", "CHBS", 200, "_UID 12 is also the CHBS's at offset 36");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sound),
		cmocka_unit_test(test_srat),
		cmocka_unit_test(test_cedt),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
