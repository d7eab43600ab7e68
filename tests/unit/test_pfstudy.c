// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_pfstudy.c - the prefetch study's states: which settings the figures
 * are taken in, from a made-up probe, each expected state worked out by
 * hand from the bits.
 */
#include "unit.h"
#include "pfstudy.h"

#include <string.h>

/* Intel's MSR 0x1A4 bits, as prefetch.c names them. */
static const struct ph_pf_bit bits[] = {
	{ 0, "l2_stream", "" },
	{ 1, "l2_adjacent", "" },
	{ 2, "l1_next_line", "" },
	{ 3, "l1_ip_stride", "" },
};

static void test_states_control(void **state)
{
	/* Bits 0, 1, 3 can be set (0xb); bit 1 was off as found (0x2). */
	const struct ph_pf pf = { .control = true, .supported = 0xb, .original = 0x2,
				  .bits = bits, .nbits = 4 };
	struct pfstudy_state s[PFSTUDY_MAX_STATES];
	int n;

	(void)state;
	n = pfstudy_states(&pf, s, PFSTUDY_MAX_STATES);
	/* As found; l2_stream off (0x2 | 0x1); l2_adjacent is off already and
	 * l1_next_line cannot be set, so next l1_ip_stride (0x2 | 0x8); all off
	 * (0x2 | 0xb). */
	assert_int_equal(n, 4);
	assert_string_equal(s[0].name, "as found");
	assert_int_equal(s[0].disable, 0x2);
	assert_string_equal(s[1].name, "l2_stream off");
	assert_int_equal(s[1].disable, 0x3);
	assert_string_equal(s[2].name, "l1_ip_stride off");
	assert_int_equal(s[2].disable, 0xa);
	assert_string_equal(s[3].name, "all off");
	assert_int_equal(s[3].disable, 0xb);
	assert_false(s[3].done);
}

static void test_states_limit(void **state)
{
	/* All four can be set, all on: room for three states keeps "all off" last. */
	const struct ph_pf pf = { .control = true, .supported = 0xf, .original = 0,
				  .bits = bits, .nbits = 4 };
	struct pfstudy_state s[3];

	(void)state;
	assert_int_equal(pfstudy_states(&pf, s, 3), 3);
	assert_string_equal(s[1].name, "l2_stream off");
	assert_int_equal(s[1].disable, 0x1);
	assert_string_equal(s[2].name, "all off");
	assert_int_equal(s[2].disable, 0xf);
}

static void test_states_no_control(void **state)
{
	/* No control: the state as found alone, whatever the probe read. */
	const struct ph_pf pf = { .control = false, .supported = 0xf, .original = 0x4,
				  .bits = bits, .nbits = 4 };
	struct pfstudy_state s[PFSTUDY_MAX_STATES];

	(void)state;
	assert_int_equal(pfstudy_states(&pf, s, PFSTUDY_MAX_STATES), 1);
	assert_string_equal(s[0].name, "as found");
	assert_int_equal(s[0].disable, 0x4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_states_control),
		cmocka_unit_test(test_states_limit),
		cmocka_unit_test(test_states_no_control),
	};

	return cmocka_run_group_tests_name("pfstudy", tests, NULL, NULL);
}
