// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_isa_choice.c - what 'auto' runs (stream_choose_isa) on CPUs made up
 * by hand, against the rule as docs/methodology.md states it, written out
 * here case by case rather than derived from the code's table; how CPUID's
 * leaf 1 is decoded into a family and model, against the values
 * /proc/cpuinfo shows for the same CPUs; and this CPU's identity against
 * this machine's /proc/cpuinfo, a second path to the same facts.
 */
#include "unit.h"
#include "stream.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const enum stream_op all_ops[] = { STREAM_COPY, STREAM_SCALE, STREAM_ADD,
					  STREAM_TRIAD, STREAM_READ, STREAM_WRITE };

static struct isa_cpu cpu_of(enum isa_vendor v, unsigned family, unsigned model, enum ph_isa widest)
{
	struct isa_cpu c = { .vendor = v, .family = family, .model = model, .widest = widest };

	return c;
}

/* Every op with both store kinds (read has no nt variant, but the rule
 * answers for it all the same) must give `want`. */
static void expect_all(const struct isa_cpu *c, enum ph_isa want, const char *label)
{
	for (size_t i = 0; i < sizeof(all_ops) / sizeof(all_ops[0]); i++) {
		for (int nt = 0; nt <= 1; nt++) {
			const char *why = NULL;
			enum ph_isa got = stream_choose_isa(c, all_ops[i], nt, &why);

			if (got != want)
				fail_msg("%s: op %d nt %d: auto chose %s, want %s", label, all_ops[i], nt,
					 isa_name(got), isa_name(want));
			assert_non_null(why);
			assert_true(strlen(why) > 10);
			/* why may be NULL. */
			assert_int_equal(stream_choose_isa(c, all_ops[i], nt, NULL), want);
		}
	}
}

/* The rule of docs/methodology.md, "Which ISA auto runs", case by case. */
static void test_rule(void **state)
{
	struct isa_cpu c;
	const char *why;

	(void)state;
	/* AMD Zen 4 (Genoa, family 25 model 17) with AVX-512: 256-bit. */
	c = cpu_of(ISA_VENDOR_AMD, 0x19, 0x11, PH_ISA_AVX512);
	expect_all(&c, PH_ISA_AVX2, "Zen 4");
	stream_choose_isa(&c, STREAM_TRIAD, false, &why);
	assert_non_null(strstr(why, "AMD"));
	/* AMD Zen 5 (Turin, family 26), this project's measured host. */
	c = cpu_of(ISA_VENDOR_AMD, 0x1a, 0x02, PH_ISA_AVX512);
	expect_all(&c, PH_ISA_AVX2, "Zen 5");
	/* AMD Zen 3 (Milan, family 25 model 1): no AVX-512, AVX2 is its widest. */
	c = cpu_of(ISA_VENDOR_AMD, 0x19, 0x01, PH_ISA_AVX2);
	expect_all(&c, PH_ISA_AVX2, "Zen 3");
	stream_choose_isa(&c, STREAM_COPY, true, &why);
	assert_null(strstr(why, "512-bit is no faster"));
	/* AMD Zen 2 (family 23) and a family after the measured ones: widest. */
	c = cpu_of(ISA_VENDOR_AMD, 0x17, 0x31, PH_ISA_AVX2);
	expect_all(&c, PH_ISA_AVX2, "Zen 2");
	c = cpu_of(ISA_VENDOR_AMD, 0x1b, 0x00, PH_ISA_AVX512);
	expect_all(&c, PH_ISA_AVX512, "AMD family 0x1b");
	c = cpu_of(ISA_VENDOR_AMD, 0x18, 0x00, PH_ISA_AVX512);
	expect_all(&c, PH_ISA_AVX512, "AMD family 0x18");
	/* Intel, never measured by pagehop: the widest, AVX-512 included. */
	c = cpu_of(ISA_VENDOR_INTEL, 0x6, 0x55, PH_ISA_AVX512); /* Skylake-SP */
	expect_all(&c, PH_ISA_AVX512, "Skylake-SP");
	stream_choose_isa(&c, STREAM_TRIAD, false, &why);
	assert_non_null(strstr(why, "widest"));
	c = cpu_of(ISA_VENDOR_INTEL, 0x6, 0x8f, PH_ISA_AVX512); /* Sapphire Rapids */
	expect_all(&c, PH_ISA_AVX512, "Sapphire Rapids");
	/* Family 0x19 from another vendor (Hygon's are 0x18; a made-up one). */
	c = cpu_of(ISA_VENDOR_OTHER, 0x19, 0x11, PH_ISA_AVX512);
	expect_all(&c, PH_ISA_AVX512, "other vendor, family 0x19");
	/* Never wider than the CPU runs, rule or not. */
	c = cpu_of(ISA_VENDOR_AMD, 0x19, 0x11, PH_ISA_SSE2);
	expect_all(&c, PH_ISA_SSE2, "AMD 0x19 with only SSE2");
	c = cpu_of(ISA_VENDOR_INTEL, 0x6, 0x55, PH_ISA_SCALAR);
	expect_all(&c, PH_ISA_SCALAR, "Intel with only scalar");
	/* An unset or out-of-range widest is taken as scalar, never trusted. */
	c = cpu_of(ISA_VENDOR_AMD, 0x19, 0x11, (enum ph_isa)0);
	expect_all(&c, PH_ISA_SCALAR, "widest 0");
	c = cpu_of(ISA_VENDOR_INTEL, 0x6, 0x55, PH_ISA_AUTO);
	expect_all(&c, PH_ISA_SCALAR, "widest auto");
}

/* CPUID leaf 1 EAX of real CPUs, and what /proc/cpuinfo prints for them. */
static void test_decode(void **state)
{
	static const struct {
		const char *vendor;
		unsigned eax;
		enum isa_vendor v;
		unsigned family, model;
	} cases[] = {
		{ "AuthenticAMD", 0x00a00f11, ISA_VENDOR_AMD, 25, 1 },	/* EPYC 7003 Milan */
		{ "AuthenticAMD", 0x00a10f11, ISA_VENDOR_AMD, 25, 17 },	/* EPYC 9004 Genoa */
		{ "AuthenticAMD", 0x00b00f21, ISA_VENDOR_AMD, 26, 2 },	/* EPYC 9005 Turin */
		{ "AuthenticAMD", 0x00830f10, ISA_VENDOR_AMD, 23, 49 },	/* EPYC 7002 Rome */
		{ "GenuineIntel", 0x00050654, ISA_VENDOR_INTEL, 6, 85 },	/* Xeon Skylake-SP */
		{ "GenuineIntel", 0x000806f8, ISA_VENDOR_INTEL, 6, 143 },	/* Sapphire Rapids */
		{ "GenuineIntel", 0x00000f29, ISA_VENDOR_INTEL, 15, 2 },	/* Pentium 4 */
		/* Base family 5: the extended model is ignored, as the SDM says. */
		{ "GenuineIntel", 0x00010543, ISA_VENDOR_INTEL, 5, 4 },
		{ "HygonGenuine", 0x00900f01, ISA_VENDOR_OTHER, 24, 0 },	/* Hygon Dhyana */
		{ "\0\0\0\0\0\0\0\0\0\0\0", 0, ISA_VENDOR_OTHER, 0, 0 },	/* no CPUID */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct isa_cpu c;

		memset(&c, 0xff, sizeof(c));
		isa_cpu_decode(&c, cases[i].vendor, cases[i].eax, PH_ISA_AVX2);
		if (c.vendor != cases[i].v || c.family != cases[i].family ||
		    c.model != cases[i].model || c.widest != PH_ISA_AVX2)
			fail_msg("%s %#x: vendor %d family %u model %u, want %d %u %u", cases[i].vendor,
				 cases[i].eax, c.vendor, c.family, c.model, cases[i].v, cases[i].family,
				 cases[i].model);
	}
}

/* This CPU through CPUID against /proc/cpuinfo (its first processor). */
static void test_here(void **state)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[4096], vendor[64] = "";
	int family = -1, model = -1;
	struct isa_cpu c;
	enum isa_vendor v;

	(void)state;
	if (!f)
		skip();
	while (fgets(line, sizeof(line), f) && !(*vendor && family >= 0 && model >= 0)) {
		if (!*vendor)
			sscanf(line, "vendor_id : %63s", vendor);
		if (family < 0)
			sscanf(line, "cpu family : %d", &family);
		if (model < 0 && !strncmp(line, "model\t", 6))
			sscanf(line, "model : %d", &model);
	}
	fclose(f);
	if (!*vendor || family < 0 || model < 0) {
		print_message("/proc/cpuinfo does not say vendor, family and model: skipped\n");
		skip();
	}
	isa_cpu_here(&c);
	v = !strcmp(vendor, "GenuineIntel") ? ISA_VENDOR_INTEL :
	    !strcmp(vendor, "AuthenticAMD") ? ISA_VENDOR_AMD : ISA_VENDOR_OTHER;
	assert_int_equal(c.vendor, v);
	assert_int_equal(c.family, family);
	assert_int_equal(c.model, model);
	assert_int_equal(c.widest, isa_best());
	print_message("here: %s family %#x model %#x, widest %s\n", vendor, c.family, c.model,
		      isa_name(c.widest));
}

/* stream_auto(): a variant that runs here, of the op and store kind asked. */
static void test_auto_here(void **state)
{
	struct isa_cpu c;

	(void)state;
	isa_cpu_here(&c);
	for (size_t i = 0; i < stream_nops; i++) {
		for (int nt = 0; nt <= 1; nt++) {
			const char *why = NULL;
			const struct stream_kernel *k = stream_auto(stream_ops[i].name, nt, &why);

			if (stream_ops[i].op == STREAM_READ && nt) {
				assert_null(k);
				continue;
			}
			assert_non_null(k);
			assert_string_equal(k->name, stream_ops[i].name);
			assert_int_equal(k->nt, nt);
			assert_true(isa_supported(k->isa));
			assert_true(k->isa <= isa_best());
			assert_non_null(why);
			assert_int_equal(k->isa, stream_choose_isa(&c, stream_ops[i].op, nt, NULL));
		}
	}
	assert_null(stream_auto("Triad", false, NULL));
	assert_null(stream_auto("", false, NULL));
	/* "auto" is not an ISA: no variant carries it, none runs it. */
	assert_null(stream_find("triad", PH_ISA_AUTO, false));
	assert_false(isa_supported(PH_ISA_AUTO));
	assert_string_equal(isa_name(PH_ISA_AUTO), "auto");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rule),
		cmocka_unit_test(test_decode),
		cmocka_unit_test(test_here),
		cmocka_unit_test(test_auto_here),
	};

	return cmocka_run_group_tests_name("isa_choice", tests, NULL, NULL);
}
