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
	.boot_id = "6f1e2d3c-0000-4000-8000-123456789abc",
	.packages = 2,
	/* A SLIT header read, no HMAT: one object, one null. */
	.acpi = { [PH_PROV_SLIT] = { .have = true, .oem_id = "BOCHS ", .oem_table_id = "BXPCSLIT",
				     .oem_revision = 1 } },
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

/* ---- format_number() against printf itself ---- */

static unsigned long long rng = 88172645463325252ULL;

static unsigned long long rnd64(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void check_number(const char *fmt, double v)
{
	char want[512], got[512], small[6], small_want[6];
	int nw = snprintf(want, sizeof(want), fmt, v);
	int ng = format_number(got, sizeof(got), fmt, v);

	if (ng != nw || strcmp(got, want))
		fail_msg("format_number(\"%s\", %.17g) = '%s' (%d), printf says '%s' (%d)",
			 fmt, v, got, ng, want, nw);
	/* Truncated as snprintf truncates. */
	assert_int_equal(format_number(small, sizeof(small), fmt, v),
			 snprintf(small_want, sizeof(small_want), fmt, v));
	assert_string_equal(small, small_want);
}

static void test_format_number(void **state)
{
	static const char *const fmts[] = {
		"%.2f", "%+.1f", "%.1f", "%.0f", "%.3f", "%.4f", "%+.2f", "%.9f",
		"%g", "%.4g", "%.2g", "%.1g", "%.0g", "%.10g", "%.17g",
		"%5.2f", "%e", "%.3e",	/* not taken: printf itself */
	};
	static const double edges[] = {
		0.0, -0.0, 0.5, 1.5, 2.5, -0.5, 0.125, 0.375, -0.125, 1e-5, 9.5e-5,
		0.0001, 0.00012345, 999999.5, 999999.4, 9999995, 99999.95, 9.9999996,
		0.99999999, 1e15, 1e16, 1e17, 1e19, 1.8446744073709552e19, 1e20, 1e300,
		-1e300, 5e-324, 2.2250738585072014e-308, 123456789012.345, 17.989418,
		-14.336, 28.384615, 4503599627370496.5, 9007199254740993.0, 0.045, 1.005,
	};
	double v;

	(void)state;
	for (size_t f = 0; f < sizeof(fmts) / sizeof(fmts[0]); f++) {
		for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++)
			check_number(fmts[f], edges[i]);
		for (int i = 0; i < 20000; i++) {
			unsigned long long u = rnd64();

			switch (i % 4) {
			case 0:	/* any magnitude pagehop prints */
				v = ldexp((double)(u >> 11), (int)(rnd64() % 90) - 80);
				break;
			case 1:	/* exact ties at the printed precision and beyond */
				v = (double)(u % 100000) / (double)(1ULL << (rnd64() % 12));
				break;
			case 2:	/* short decimals, as measured values are */
				v = (double)(u % 10000000) / 1000.0;
				break;
			default:	/* any bit pattern that is a number */
				memcpy(&v, &u, sizeof(v));
				if (!isfinite(v))
					v = 1.0;
				break;
			}
			if (rnd64() & 1)
				v = -v;
			check_number(fmts[f], v);
		}
	}
}

/* ---- JSON: json-c writes back exactly what was rendered ---- */

static void fill_row(const void *ctx, struct ph_table *t, int row)
{
	const int *k = ctx;

	table_int(t, row, "n", row * *k);
	table_num(t, row, "x", row / 3.0, "%.2f");
	table_num(t, row, "signed", row - 2.5, "%+.1f");
	if (row % 3)
		table_str(t, row, "s", row % 2 ? "a/b" : "tab\there");
	table_bool(t, row, "b", row % 2);
}

static void fill_matrix(const void *ctx, struct ph_matrix *m, int row)
{
	(void)ctx;
	for (int c = 0; c < 3; c++)
		if (row != c)
			matrix_num(m, row, c, 10 + row * 1.5 + c, "%g");
}

static struct ph_doc *odd_doc(bool lazy)
{
	static const int k = 7;
	struct ph_doc *d = doc_new("odd");
	struct ph_section *s;
	struct ph_table *t;
	struct ph_matrix *m;
	int ids[] = { 4, 0, 9 };

	doc_set_provenance(d, &fixed);
	s = doc_add_section(d, "empty", NULL);
	s = doc_add_section(d, "strings", "strings");
	section_str(s, "quote", "say \"hi\" \\ back/slash");
	section_str(s, "control", "bell\a nul-less \x01\x1f\b\f\n\r\t end");
	section_str(s, "utf8", "caf\xc3\xa9 \xe2\x80\x94 \x7f");
	section_str(s, "", "empty key");
	section_num(s, "neg", -0.0, "%.2f");
	section_int(s, "min", -9223372036854775807LL - 1);
	t = doc_add_table(d, "no_rows", "a table without rows");
	table_add_col(t, "a");
	t = doc_add_table(d, "no_cols", "a table without columns");
	table_add_row(t);
	table_add_row(t);
	if (lazy) {
		t = doc_add_table_rows(d, "rows", "generated", 5, fill_row, &k);
		table_add_col(t, "n");
		table_add_col(t, "x");
		table_add_col(t, "signed");
		table_add_col(t, "s");
		table_add_col(t, "b");
		m = doc_add_matrix_rows(d, "m", "generated matrix", "distance", 3, ids, 3, ids,
					fill_matrix, NULL);
	} else {
		t = doc_add_table(d, "rows", "generated");
		table_add_col(t, "n");
		table_add_col(t, "x");
		table_add_col(t, "signed");
		table_add_col(t, "s");
		table_add_col(t, "b");
		for (int r = 0; r < 5; r++)
			fill_row(&k, t, table_add_row(t));
		m = doc_add_matrix(d, "m", "generated matrix", "distance", 3, ids, 3, ids);
		for (int r = 0; r < 3; r++)
			fill_matrix(NULL, m, r);
	}
	m = doc_add_matrix(d, "none", "no nodes", "distance", 0, ids, 0, ids);
	(void)m;
	/* A repeated name: json-c keeps the first place, the last value. */
	s = doc_add_section(d, "strings", "again");
	section_int(s, "replaced", 1);
	t = doc_add_table(d, "dup_cols", "repeated column");
	table_add_col(t, "a");
	table_add_col(t, "b");
	table_add_col(t, "a");
	table_int(t, table_add_row(t), "b", 2);
	doc_note(d, "first");
	doc_note(d, "second, with \"quotes\"");
	return d;
}

static void reparse_equal(struct ph_doc *d)
{
	char *text = render(d, PH_FMT_JSON);
	json_object *root = json_tokener_parse(text);
	const char *back;

	assert_non_null(root);
	back = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
						     JSON_C_TO_STRING_NOSLASHESCAPE);
	assert_int_equal(strlen(text), strlen(back) + 1);
	assert_memory_equal(text, back, strlen(back));
	assert_int_equal(text[strlen(back)], '\n');
	json_object_put(root);
	free(text);
}

static void test_json_layout(void **state)
{
	struct ph_doc *d;
	char *text;

	(void)state;
	/* "%+.1f" prints "+1.5" in a table and CSV, 1.5 in JSON (no '+' there). */
	d = odd_doc(true);
	text = render(d, PH_FMT_JSON);
	assert_non_null(strstr(text, "\"signed\": 1.5"));
	assert_null(strstr(text, ": +"));
	free(text);
	text = render(d, PH_FMT_CSV);
	assert_non_null(strstr(text, ",+1.5,"));
	free(text);
	doc_free(d);
	d = sample();
	reparse_equal(d);
	doc_free(d);
	d = odd_doc(false);
	reparse_equal(d);
	doc_free(d);
	d = odd_doc(true);
	reparse_equal(d);
	doc_free(d);
	/* No notes, no items. */
	d = doc_new("bare");
	doc_set_provenance(d, &fixed);
	reparse_equal(d);
	doc_free(d);
}

/* Rows made when rendered print exactly as rows stored, in every format. */
static void test_generated_rows(void **state)
{
	(void)state;
	for (int fmt = PH_FMT_TABLE; fmt <= PH_FMT_JSON; fmt++) {
		struct ph_doc *a = odd_doc(false), *b = odd_doc(true);
		char *ta = render(a, (enum ph_format)fmt), *tb = render(b, (enum ph_format)fmt);

		assert_string_equal(ta, tb);
		free(ta);
		free(tb);
		doc_free(a);
		doc_free(b);
	}
}

/*
 * A table's last column is not padded: a left-aligned text column at the
 * end leaves no line of the table rendering ending in a space, and the
 * columns before it stay aligned.
 */
static void test_last_column_unpadded(void **state)
{
	struct ph_doc *d = doc_new("test");
	struct ph_table *t = doc_add_table(d, "rows", "rows");
	static const char want[] =
		"rows:\n"
		"  n  description\n"
		"  1  short\n"
		"  2  a longer one\n"
		"  3  -\n";
	char *text;
	int r;

	(void)state;
	table_add_col(t, "n");
	table_add_col(t, "description");
	r = table_add_row(t);
	table_int(t, r, "n", 1);
	table_str(t, r, "description", "short");
	r = table_add_row(t);
	table_int(t, r, "n", 2);
	table_str(t, r, "description", "a longer one");
	r = table_add_row(t);
	table_int(t, r, "n", 3);
	text = render(d, PH_FMT_TABLE);
	assert_string_equal(text, want);
	free(text);
	doc_free(d);
}

/*
 * A string with a short form: the table prints the short form (and sizes
 * its column by it), CSV and JSON the whole string; the same as the short
 * form, or none, is a plain string.
 */
static void test_brief(void **state)
{
	struct ph_doc *d = doc_new("test");
	struct ph_section *s = doc_add_section(d, "view", "view");
	struct ph_table *t = doc_add_table(d, "rows", "rows");
	static const char want[] =
		"view:\n"
		"  pairs  {0,1} ... and 2 more\n"
		"  same   x\n"
		"\n"
		"rows:\n"
		"  n  order\n"
		"  1  0 1 ... and 2 more\n";
	char *text;
	int r;

	(void)state;
	section_str_brief(s, "pairs", "{0,1} {0,2} {1,2}", "{0,1} ... and 2 more");
	section_str_brief(s, "same", "x", "x");
	table_add_col(t, "n");
	table_add_col(t, "order");
	r = table_add_row(t);
	table_int(t, r, "n", 1);
	table_str_brief(t, r, "order", "0 1 2 3", "0 1 ... and 2 more");
	text = render(d, PH_FMT_TABLE);
	assert_string_equal(text, want);
	free(text);
	text = render(d, PH_FMT_JSON);
	assert_non_null(strstr(text, "\"pairs\": \"{0,1} {0,2} {1,2}\""));
	assert_non_null(strstr(text, "\"order\": \"0 1 2 3\""));
	assert_null(strstr(text, "more"));
	free(text);
	text = render(d, PH_FMT_CSV);
	assert_non_null(strstr(text, "0 1 2 3"));
	assert_null(strstr(text, "more"));
	free(text);
	doc_free(d);
}

/*
 * Detail columns: the default table leaves them out, the verbose table,
 * CSV and JSON have them.  The expected text is written by hand.
 */
static void test_detail_columns(void **state)
{
	struct ph_doc *d = doc_new("test");
	struct ph_table *t = doc_add_table(d, "chase", "chase");
	struct ph_section *empty = doc_add_section(d, "empty", "nothing here");
	static const char want[] =
		"chase:\n"
		"  n  lat_ns\n"
		"  1    2.50\n";
	static const char want_verbose[] =
		"chase:\n"
		"  n  lat_ns  lat_min_ns  samples\n"
		"  1    2.50        2.25       12\n";
	char *text;
	int r;

	(void)state;
	table_add_col(t, "n");
	table_add_col(t, "lat_ns");
	table_add_col(t, "lat_min_ns");
	table_add_col(t, "samples");
	table_detail(t, "lat_min_ns samples");
	r = table_add_row(t);
	table_int(t, r, "n", 1);
	table_num(t, r, "lat_ns", 2.5, "%.2f");
	table_num(t, r, "lat_min_ns", 2.25, "%.2f");
	table_int(t, r, "samples", 12);
	section_str(empty, "key", NULL);	/* no value: the section is left out */
	text = render(d, PH_FMT_TABLE);
	assert_string_equal(text, want);
	free(text);
	text = render(d, PH_FMT_TABLE_VERBOSE);
	assert_string_equal(text, want_verbose);
	free(text);
	text = render(d, PH_FMT_CSV);
	assert_non_null(strstr(text, "n,lat_ns,lat_min_ns,samples\n1,2.50,2.25,12\n"));
	free(text);
	text = render(d, PH_FMT_JSON);
	assert_non_null(strstr(text, "\"lat_min_ns\": 2.25"));
	assert_non_null(strstr(text, "\"samples\": 12"));
	free(text);
	doc_free(d);
}

/* Ten columns of 17-character names over values of one: 190 columns on one
 * header line, 100 with each name over two. */
static void test_two_line_header(void **state)
{
	struct ph_doc *d = doc_new("test");
	struct ph_table *t = doc_add_table(d, "wide", "wide");
	char want[1024] = "wide:\n", col[32], *text;
	int r;

	(void)state;
	for (int c = 0; c < 10; c++) {
		snprintf(col, sizeof(col), "abcdefg%d_hijklmno", c);
		table_add_col(t, col);
	}
	r = table_add_row(t);
	for (int c = 0; c < 10; c++) {
		snprintf(col, sizeof(col), "abcdefg%d_hijklmno", c);
		table_int(t, r, col, c);
	}
	for (int c = 0; c < 10; c++)
		snprintf(want + strlen(want), sizeof(want) - strlen(want), "  abcdefg%d", c);
	strcat(want, "\n");
	for (int c = 0; c < 10; c++)
		strcat(want, "  hijklmno");
	strcat(want, "\n");
	for (int c = 0; c < 10; c++)
		snprintf(want + strlen(want), sizeof(want) - strlen(want), "         %d", c);
	strcat(want, "\n");
	text = render(d, PH_FMT_TABLE);
	assert_string_equal(text, want);
	free(text);
	doc_free(d);
}

/* A prose last column too long for the line wraps at a space, under itself. */
static void test_wrap_last_column(void **state)
{
	struct ph_doc *d = doc_new("test");
	struct ph_table *t = doc_add_table(d, "why", "why");
	char prose[256] = "", want[512], *text;
	int r;

	(void)state;
	for (int i = 0; i < 30; i++)
		strcat(prose, i ? " abcd" : "abcd");	/* 149 characters */
	table_add_col(t, "n");
	table_add_col(t, "text");
	r = table_add_row(t);
	table_int(t, r, "n", 1);
	table_str(t, r, "text", prose);
	/* From column 5, 95 left: 19 words (94 characters), then 11 under them. */
	strcpy(want, "why:\n  n  text\n  1  ");
	for (int i = 0; i < 19; i++)
		strcat(want, i ? " abcd" : "abcd");
	strcat(want, "\n     ");
	for (int i = 0; i < 11; i++)
		strcat(want, i ? " abcd" : "abcd");
	strcat(want, "\n");
	text = render(d, PH_FMT_TABLE);
	assert_string_equal(text, want);
	free(text);
	/* The verbose table keeps the row on one line. */
	text = render(d, PH_FMT_TABLE_VERBOSE);
	snprintf(want, sizeof(want), "why:\n  n  text\n  1  %s\n", prose);
	assert_string_equal(text, want);
	free(text);
	doc_free(d);
}

/* Too wide with a number last: a block of "column  value" lines per row. */
static void test_records(void **state)
{
	struct ph_doc *d = doc_new("test");
	struct ph_table *t = doc_add_table(d, "rec", "rec");
	char prose[128] = "", want[512], *text;
	int r;

	(void)state;
	for (int i = 0; i < 20; i++)
		strcat(prose, i ? " abcd" : "abcd");	/* 99 characters */
	table_add_col(t, "what");
	table_add_col(t, "n");
	for (int i = 1; i <= 2; i++) {
		r = table_add_row(t);
		table_str(t, r, "what", i == 1 ? prose : "short");
		table_int(t, r, "n", i);
	}
	/* Values from column 8, 92 left: 18 words (89 characters), the 19th would end at 94. */
	snprintf(want, sizeof(want),
		 "rec:\n"
		 "  what  %.*s\n"
		 "        abcd abcd\n"
		 "  n     1\n"
		 "\n"
		 "  what  short\n"
		 "  n     2\n", 89, prose);
	text = render(d, PH_FMT_TABLE);
	assert_string_equal(text, want);
	free(text);
	doc_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden),
		cmocka_unit_test(test_json_values),
		cmocka_unit_test(test_save_json_atomic),
		cmocka_unit_test(test_format_number),
		cmocka_unit_test(test_json_layout),
		cmocka_unit_test(test_generated_rows),
		cmocka_unit_test(test_last_column_unpadded),
		cmocka_unit_test(test_brief),
		cmocka_unit_test(test_detail_columns),
		cmocka_unit_test(test_two_line_header),
		cmocka_unit_test(test_wrap_last_column),
		cmocka_unit_test(test_records),
	};

	return cmocka_run_group_tests_name("output", tests, NULL, NULL);
}
