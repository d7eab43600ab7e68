// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_output.c - the output layer renders one document identically to the
 * golden files in all three formats, and its JSON parses back (through
 * json-c, a second path) to the values put in.
 */
#include "unit.h"
#include "golden.h"
#include "output.h"

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct ph_provenance fixed = {
	.command = "pagehop test --format json",
	.host = "host1",
	.kernel = "6.1.0-test #1 SMP",
	.machine = "x86_64",
	.cpu = "Test CPU @ 1.00GHz",
	.microcode = "0x42",
	.bios = "",
	.version = "0.0.0",
	.time_utc = "2026-01-02T03:04:05Z",
};

static struct ph_doc *sample(void)
{
	struct ph_doc *d = doc_new("test");
	struct ph_section *s;
	struct ph_table *t;
	struct ph_matrix *m;
	int ids[] = { 0, 1 };
	int r;

	doc_set_provenance(d, &fixed);
	s = doc_add_section(d, "clock", "the clock");
	section_str(s, "name", "tsc");
	section_int(s, "hz", 2400000000LL);
	section_num(s, "ppm", 12.345, "%.1f");
	section_bool(s, "invariant", true);
	section_str(s, "why", NULL);
	section_num(s, "nan", NAN, "%.1f");

	t = doc_add_table(d, "rows", "some rows");
	table_add_col(t, "node");
	table_add_col(t, "label");
	table_add_col(t, "lat_ns");
	r = table_add_row(t);
	table_int(t, r, "node", 0);
	table_str(t, r, "label", "a,b \"quoted\"");
	table_num(t, r, "lat_ns", 91.25, "%.2f");
	r = table_add_row(t);
	table_int(t, r, "node", 10);
	table_str(t, r, "label", "plain");
	/* lat_ns left unset: a missing value */

	m = doc_add_matrix(d, "distances", "node distances", "distance", 2, ids, 2, ids);
	matrix_int(m, 0, 0, 10);
	matrix_int(m, 0, 1, 21);
	matrix_int(m, 1, 0, 21);
	matrix_int(m, 1, 1, 10);
	doc_note(d, "a note, with a comma");
	return d;
}

static char *render(struct ph_doc *d, enum ph_format fmt)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(doc_render(d, fmt, f), 0);
	fclose(f);
	return buf;
}

static void test_golden(void **state)
{
	static const struct { enum ph_format fmt; const char *file; } cases[] = {
		{ PH_FMT_TABLE, "output.txt" },
		{ PH_FMT_CSV, "output.csv" },
		{ PH_FMT_JSON, "output.json" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ph_doc *d = sample();
		char *text = render(d, cases[i].fmt);

		assert_int_equal(golden_compare(cases[i].file, text), 0);
		free(text);
		doc_free(d);
	}
}

static void test_json_values(void **state)
{
	struct ph_doc *d = sample();
	char *text = render(d, PH_FMT_JSON);
	json_object *root = json_tokener_parse(text), *o, *v;

	(void)state;
	assert_non_null(root);
	assert_true(json_object_object_get_ex(root, "clock", &o));
	assert_true(json_object_object_get_ex(o, "hz", &v));
	assert_int_equal(json_object_get_int64(v), 2400000000LL);
	assert_true(json_object_object_get_ex(o, "ppm", &v));
	assert_true(fabs(json_object_get_double(v) - 12.3) < 1e-9);
	/* NaN and unset values are JSON null, never "nan". */
	assert_true(json_object_object_get_ex(o, "nan", &v));
	assert_null(v);
	assert_true(json_object_object_get_ex(o, "why", &v));
	assert_null(v);
	assert_true(json_object_object_get_ex(root, "rows", &o));
	assert_int_equal(json_object_array_length(o), 2);
	v = json_object_array_get_idx(o, 0);
	assert_string_equal(json_object_get_string(json_object_object_get(v, "label")),
			    "a,b \"quoted\"");
	assert_true(json_object_object_get_ex(root, "distances", &o));
	v = json_object_array_get_idx(json_object_object_get(o, "values"), 1);
	assert_int_equal(json_object_get_int(json_object_array_get_idx(v, 0)), 21);
	assert_true(json_object_object_get_ex(root, "provenance", &o));
	assert_string_equal(json_object_get_string(json_object_object_get(o, "host")), "host1");
	json_object_put(root);
	free(text);
	doc_free(d);
}

static void test_save_json_atomic(void **state)
{
	char dir[] = "/tmp/pagehop-test-XXXXXX";
	char path[128], why[256];
	struct ph_doc *d = sample();
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/out.json", dir);
	assert_int_equal(doc_save_json(d, path, why, sizeof(why)), 0);
	f = fopen(path, "r");
	assert_non_null(f);
	fclose(f);
	/* A directory that does not exist: an error, and nothing left behind. */
	assert_true(doc_save_json(d, "/nonexistent-dir/x.json", why, sizeof(why)) < 0);
	remove(path);
	rmdir(dir);
	doc_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden),
		cmocka_unit_test(test_json_values),
		cmocka_unit_test(test_save_json_atomic),
	};

	return cmocka_run_group_tests_name("output", tests, NULL, NULL);
}
