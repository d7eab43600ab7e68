// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_report_cxl.c - a pagehop cxl document as the report reads it: the
 * charts' series and points against values worked out by hand from a
 * small document, the figures it lacks left out and named in the caption.
 */
#include "unit.h"
#include "report.h"
#include "version.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Node 2: access 0 whole; access 1's latency without its generic port
 * (so without a sum), its kernel figure 500; no access-1 bandwidth row.
 * CPU node 0 measured both figures, CPU node 1 bandwidth only.  The
 * CDAT's read latency judged off.
 */
static const char doc_fmt[] =
	"{\"provenance\": {\"tool\": \"pagehop\", \"subcommand\": \"cxl\", \"version\": \"%s\"},"
	" \"cxl_explain\": ["
	"  {\"node\": 2, \"access\": 0, \"figure\": \"read_latency_ns\", \"device_cdat\": 150, \"link\": 218,"
	"   \"generic_port\": 50, \"composed\": 418, \"kernel_node\": 418, \"verdict\": \"adds up\"},"
	"  {\"node\": 2, \"access\": 1, \"figure\": \"read_latency_ns\", \"device_cdat\": 150, \"link\": 218,"
	"   \"generic_port\": null, \"composed\": null, \"kernel_node\": 500,"
	"   \"verdict\": \"cannot tell: no generic port figure\"},"
	"  {\"node\": 2, \"access\": 0, \"figure\": \"read_bandwidth_MBps\", \"device_cdat\": 12000, \"link\": 312,"
	"   \"generic_port\": 30000, \"composed\": 312, \"kernel_node\": 312, \"verdict\": \"adds up\"}],"
	" \"cxl_measured\": ["
	"  {\"node\": 2, \"cpu_node\": 0, \"lat_ns\": 418, \"lat_ci_lo_ns\": 417.5, \"lat_ci_hi_ns\": 418.5,"
	"   \"read_GBps\": 0.3, \"read_ci_lo_GBps\": 0.299, \"read_ci_hi_GBps\": 0.301},"
	"  {\"node\": 2, \"cpu_node\": 1, \"read_GBps\": 0.29}],"
	" \"cxl_judge\": ["
	"  {\"node\": 2, \"source\": \"device CDAT\", \"entry\": \"DSLBIS read_latency_ns (DSMAS 0)\","
	"   \"figure\": \"read_latency_ns\", \"table\": 150, \"verdict\": \"OFF\","
	"   \"why\": \"the measurement implies 99\"}]}";

static const char *const kinds[] = { "cxl" };

static void read_doc(struct rep_doc *d)
{
	char text[sizeof(doc_fmt) + 64], err[256] = "";

	snprintf(text, sizeof(text), doc_fmt, PAGEHOP_VERSION);
	report_set_kinds(kinds, 1);
	assert_int_equal(report_read("c.json", text, PAGEHOP_VERSION, d, err, sizeof(err)), 0);
	assert_null(d->not_shown);
}

static const struct rep_series *series(const struct rep_chart *c, const char *name)
{
	for (int k = 0; k < c->ns; k++)
		if (!strcmp(c->s[k].name, name))
			return &c->s[k];
	return NULL;
}

/* The series' points, x and y, as hand-computed; lo, hi NAN but where given. */
static void points(const struct rep_series *s, int n, const double *x, const double *y)
{
	assert_non_null(s);
	assert_int_equal(s->n, n);
	for (int i = 0; i < n; i++) {
		assert_true(fabs(s->x[i] - x[i]) < 1e-12);
		assert_true(fabs(s->y[i] - y[i]) < 1e-9);
	}
}

static void test_latency(void **state)
{
	static const double ax[] = { 0.9, 1.9, 2.9, 3.9, 4.9 }, ay[] = { 150, 218, 50, 418, 418 };
	static const double bx[] = { 1.1, 2.1, 5.1 }, by[] = { 150, 218, 500 };
	static const char *const cats[] = { "measured", "CDAT", "link", "GP", "sum", "kernel" };
	static const double mx[] = { -0.1 }, my[] = { 418 }, ox[] = { 1.1 }, oy[] = { 150 };
	struct rep_doc d;
	const struct rep_chart *c;
	const struct rep_series *s;

	(void)state;
	read_doc(&d);
	assert_int_equal(d.nc, 2);
	c = &d.c[0];
	assert_string_equal(c->title, "CXL node 2: read latency, measured and as the tables give it");
	assert_true(c->points);
	assert_false(c->y_log2);
	assert_int_equal(c->ncat, 6);
	for (int i = 0; i < 6; i++)
		assert_string_equal(c->xcat[i], cats[i]);
	/* CPU node 1 measured no latency: no series of its own here. */
	assert_int_equal(c->ns, 4);
	assert_null(series(c, "CPU node 1"));
	/* The first of two CPU nodes, a tenth of a category left of centre. */
	s = series(c, "CPU node 0");
	points(s, 1, mx, my);
	assert_true(s->lo[0] == 417.5 && s->hi[0] == 418.5);
	points(series(c, "access0: any initiator"), 5, ax, ay);
	/* No GP, no sum for access 1: not drawn, neither as 0. */
	points(series(c, "access1: CPU initiator"), 3, bx, by);
	assert_true(isnan(series(c, "access1: CPU initiator")->lo[0]));
	s = series(c, "off (cxl_judge)");
	points(s, 1, ox, oy);
	assert_true(s->ring);
	assert_false(series(c, "access0: any initiator")->ring);
	assert_non_null(strstr(c->caption, "Not drawn: measured from CPU node 1: no lat_ns in its cxl_measured row; "
				       "GP of access1: none in cxl_explain, whose verdict is \"cannot tell: no "
				       "generic port figure\"; sum of access1: none in cxl_explain, whose verdict "
				       "is \"cannot tell: no generic port figure\". "));
	assert_non_null(strstr(c->caption, "Ringed, off by cxl_judge: device CDAT DSLBIS read_latency_ns "
				       "(DSMAS 0), the measurement implies 99."));
	assert_null(strstr(c->caption, "MiB/s"));
	report_doc_free(&d);
}

static void test_bandwidth(void **state)
{
	/* The tables' MiB/s as GB/s: 12000, 312, 30000 x 1048576 / 10^9. */
	static const double ax[] = { 0.9, 1.9, 2.9, 3.9, 4.9 };
	static const double ay[] = { 12.582912, 0.327155712, 31.45728, 0.327155712, 0.327155712 };
	static const double m0x[] = { -0.1 }, m0y[] = { 0.3 }, m1x[] = { 0.1 }, m1y[] = { 0.29 };
	struct rep_doc d;
	const struct rep_chart *c;

	(void)state;
	read_doc(&d);
	c = &d.c[1];
	assert_string_equal(c->title, "CXL node 2: read bandwidth, measured and as the tables give it");
	assert_true(c->y_log2);
	assert_int_equal(c->ns, 3);
	points(series(c, "CPU node 0"), 1, m0x, m0y);
	assert_true(series(c, "CPU node 0")->lo[0] == 0.299);
	points(series(c, "CPU node 1"), 1, m1x, m1y);
	assert_true(isnan(series(c, "CPU node 1")->lo[0]));
	points(series(c, "access0: any initiator"), 5, ax, ay);
	assert_null(series(c, "access1: CPU initiator"));
	assert_null(series(c, "off (cxl_judge)"));
	assert_non_null(strstr(c->caption, "the tables' MB/s read as MiB/s"));
	assert_non_null(strstr(c->caption, "Not drawn: CDAT of access1: no cxl_explain row for node 2; link of "
				       "access1: no cxl_explain row for node 2; GP of access1: no cxl_explain row "
				       "for node 2; sum of access1: no cxl_explain row for node 2; kernel of "
				       "access1: no cxl_explain row for node 2. Ringed, off by cxl_judge: none."));
	report_doc_free(&d);
}

/* A document without measurement: the caption quotes the document's own. */
static void test_unmeasured(void **state)
{
	char text[1024], err[256] = "";
	struct rep_doc d;

	(void)state;
	snprintf(text, sizeof(text),
		 "{\"provenance\": {\"tool\": \"pagehop\", \"subcommand\": \"cxl\", \"version\": \"%s\"},"
		 " \"notes\": [\"CXL: nothing measured, so no entry is judged\"],"
		 " \"cxl_explain\": [{\"node\": 3, \"access\": 0, \"figure\": \"read_latency_ns\","
		 " \"device_cdat\": 150}]}", PAGEHOP_VERSION);
	report_set_kinds(kinds, 1);
	assert_int_equal(report_read("u.json", text, PAGEHOP_VERSION, &d, err, sizeof(err)), 0);
	assert_int_equal(d.nc, 2);
	assert_string_equal(d.c[0].title, "CXL node 3: read latency, measured and as the tables give it");
	assert_int_equal(d.c[0].ns, 1);
	assert_int_equal(d.c[0].s[0].n, 1);
	assert_non_null(strstr(d.c[0].caption, "Not drawn: measured: nothing measured, so no entry is judged; "
					  "CDAT of access1: no cxl_explain row for node 3; "
					  "link of access0: none in cxl_explain; "));
	/* No bandwidth row at all: an empty chart, its caption saying why. */
	assert_int_equal(d.c[1].ns, 0);
	report_doc_free(&d);
}

/* A figure of the wrong type is refused, not drawn as missing. */
static void test_wrong_type(void **state)
{
	char text[512], err[256] = "";
	struct rep_doc d;

	(void)state;
	snprintf(text, sizeof(text),
		 "{\"provenance\": {\"tool\": \"pagehop\", \"subcommand\": \"cxl\", \"version\": \"%s\"},"
		 " \"cxl_measured\": [{\"node\": 2, \"cpu_node\": 0, \"lat_ns\": \"418\"}]}", PAGEHOP_VERSION);
	report_set_kinds(kinds, 1);
	assert_int_equal(report_read("w.json", text, PAGEHOP_VERSION, &d, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "cxl_measured[0].lat_ns: expected a number or null, got a string"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_latency),
		cmocka_unit_test(test_bandwidth),
		cmocka_unit_test(test_unmeasured),
		cmocka_unit_test(test_wrong_type),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
