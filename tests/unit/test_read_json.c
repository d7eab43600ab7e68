// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_read_json.c - pagehop's own JSON: matrices, each cell's CI and
 * samples, HMAT and provenance; every error says file, JSON path and what
 * was expected, in one line.  Run from the tree's root.
 */
#include "unit.h"

#include "readers.h"
#include "read_input.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_json_sample(void **state)
{
	struct ph_input in;
	char err[512];

	(void)state;
	assert_int_equal(input_load("tests/data/slit/matrix-2node.json", PH_FIGURE_DEFAULT,
				    &in, err, sizeof(err)), 0);
	assert_true(in.json);
	assert_string_equal(in.figure, "latency_ns");
	assert_int_equal(in.m->metric, PH_METRIC_LATENCY);
	assert_true(in.m->val[1] == 140.2);
	assert_true(in.m->ci_lo[1] == 139.0);
	assert_true(in.m->ci_hi[1] == 141.5);
	assert_int_equal(in.m->samples[1], 24);
	assert_non_null(in.latency);
	assert_non_null(in.read_bw);
	assert_true(in.read_bw->val[1] == 12.3);
	assert_non_null(in.slit);
	assert_int_equal(in.slit->dist[1], 21);
	assert_int_equal(in.nhmat, 2);
	assert_int_equal(in.hmat[1].target, 1);
	assert_string_equal(in.hmat[1].initiators, "1");
	assert_int_equal(in.hmat[0].read_latency_ns, 80);
	assert_int_equal(in.hmat[0].read_bandwidth_MiBps, 20480);
	assert_int_equal(in.ci_not_met, 0);
	assert_contains(in.source, "pagehop matrix --format json on synthetic");
	input_free(&in);

	assert_int_equal(input_load("tests/data/slit/matrix-2node.json", PH_FIGURE_READ,
				    &in, err, sizeof(err)), 0);
	assert_string_equal(in.figure, "bandwidth_read_GBps");
	assert_int_equal(in.m->metric, PH_METRIC_BANDWIDTH);
	assert_true(isnan(in.m->ci_lo[0]));	/* no cells for this figure */
	input_free(&in);

	assert_int_equal(input_load("tests/data/slit/matrix-2node.json", PH_FIGURE_TRIAD,
				    &in, err, sizeof(err)), 0);
	assert_string_equal(in.figure, "bandwidth_triad_GBps");
	assert_true(in.m->val[0] == 22.0);
	input_free(&in);

	/* Memory-only node 4; one missed CI target, of read bandwidth; triad absent. */
	assert_int_equal(input_load("tests/data/slit/matrix-4node-cxl.json", PH_FIGURE_READ,
				    &in, err, sizeof(err)), 0);
	assert_int_equal(in.ci_not_met, 1);
	assert_true(in.m->ci_missed[3 * 5 + 4]);
	assert_false(in.m->ci_missed[3 * 5 + 3]);
	assert_int_equal(in.m->samples[3 * 5 + 4], 10);
	input_free(&in);
	assert_int_equal(input_load("tests/data/slit/matrix-4node-cxl.json", PH_FIGURE_DEFAULT,
				    &in, err, sizeof(err)), 0);
	assert_int_equal(in.m->nrows, 4);
	assert_int_equal(in.m->ncols, 5);
	assert_int_equal(in.ci_not_met, 0);
	assert_int_equal(in.slit->n, 5);
	assert_int_equal(in.nhmat, 5);
	assert_string_equal(in.hmat[4].initiators, "0-3");
	input_free(&in);
	assert_int_equal(input_load("tests/data/slit/matrix-4node-cxl.json", PH_FIGURE_TRIAD,
				    &in, err, sizeof(err)), -EINVAL);
	assert_contains(err, "no triad bandwidth_GBps matrix; the file has latency_ns, bandwidth_read_GBps");
}

static void test_json_values(void **state)
{
	struct ph_input in;
	char err[512];

	(void)state;
	/* null is a missing cell; integers are numbers. */
	assert_int_equal(input_parse_json("x.json", LAT_HEAD "\"values\": [[90, null], [141.5, 89]]}}",
					  PH_FIGURE_DEFAULT, &in, err, sizeof(err)), 0);
	assert_true(in.m->val[0] == 90);
	assert_true(isnan(in.m->val[1]));
	assert_null(in.slit);
	assert_int_equal(in.nhmat, 0);
	input_free(&in);
}

static void test_json_errors(void **state)
{
	(void)state;
	expect_json_error("{\n  \"latency_ns\": {\n    \"metric\": ,\n", PH_FIGURE_DEFAULT, "x.json:3: ");
	expect_json_error("{\n\"a\": 1", PH_FIGURE_DEFAULT, "x.json:2: the JSON ends early");
	expect_json_error("{}\n{}", PH_FIGURE_DEFAULT, "x.json:2: text after the JSON object");
	expect_json_error("[1]", PH_FIGURE_DEFAULT, "x.json:1: not a JSON object");
	/* Strict JSON only: what json-c takes by default is refused, at its line. */
	expect_json_error("{\n/* c */ \"a\": 1}", PH_FIGURE_DEFAULT, "x.json:2: quoted object property name expected");
	expect_json_error("{\"a\": 1 // c\n}", PH_FIGURE_DEFAULT, "x.json:1: object value separator ',' expected");
	expect_json_error("{\n\n'a': 1}", PH_FIGURE_DEFAULT,
			  "x.json:3: a single quote outside a string; JSON quotes with '\"' only");
	expect_json_error("{\"a\": 'b'}", PH_FIGURE_DEFAULT, "x.json:1: unexpected character");
	expect_json_error("{\"a\": [1,]}", PH_FIGURE_DEFAULT, "x.json:1: unexpected character");
	expect_json_error("{\"a\": True}", PH_FIGURE_DEFAULT, "x.json:1: boolean expected");
	expect_json_error("{} x", PH_FIGURE_DEFAULT, "x.json:1: text after the JSON object");
	/* 400 digits: beyond a double (json-c would saturate it to 2^64 - 1). */
	expect_json_error("{\"latency_ns\": {\"metric\": \"latency_ns\", \"rows\": [0], \"columns\": [0], \"values\": [[1"
			  "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
			  "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
			  "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
			  "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000]]}}",
			  PH_FIGURE_DEFAULT, "x.json:1: column 82: the number 100000000000000000000000... is beyond what a double holds");
	/* 30 digits: a double, but an integer json-c saturates; not a number pagehop takes. */
	expect_json_error("{\"latency_ns\": {\"metric\": \"latency_ns\", \"rows\": [0], \"columns\": [0], \"values\": [["
			  "100000000000000000000000000000]]}}",
			  PH_FIGURE_DEFAULT, "x.json: latency_ns.values[0][0]: expected a positive number or null");
	expect_json_error("{}", PH_FIGURE_DEFAULT,
			  "x.json: no latency_ns, bandwidth_read_GBps or bandwidth_triad_GBps matrix; the file has none");
	expect_json_error(LAT_HEAD "\"values\": [[1, 2]]}}", PH_FIGURE_DEFAULT,
			  "x.json: latency_ns.values: expected an array of 2 rows");
	expect_json_error(LAT_HEAD "\"values\": [[1, 2], [3]]}}", PH_FIGURE_DEFAULT,
			  "x.json: latency_ns.values[1]: expected an array of 2 numbers or nulls");
	expect_json_error(LAT_HEAD "\"values\": [[1, \"2\"], [3, 4]]}}", PH_FIGURE_DEFAULT,
			  "x.json: latency_ns.values[0][1]: expected a positive number or null");
	expect_json_error(LAT_HEAD "\"values\": [[1, 0], [3, 4]]}}", PH_FIGURE_DEFAULT,
			  "x.json: latency_ns.values[0][1]: expected a positive number or null");
	expect_json_error("{\"latency_ns\": {\"metric\": \"bandwidth_GBps\", \"rows\": [0], \"columns\": [0], \"values\": [[1]]}}",
			  PH_FIGURE_DEFAULT, "x.json: latency_ns.metric: \"bandwidth_GBps\"; expected \"latency_ns\"");
	expect_json_error("{\"latency_ns\": {\"metric\": \"latency_ns\", \"rows\": [0, 0], \"columns\": [0], \"values\": [[1], [1]]}}",
			  PH_FIGURE_DEFAULT, "x.json: latency_ns.rows: node 0 twice");
	expect_json_error("{\"latency_ns\": {\"metric\": \"latency_ns\", \"rows\": [-1], \"columns\": [0], \"values\": [[1]]}}",
			  PH_FIGURE_DEFAULT, "x.json: latency_ns.rows[0]: expected a node id");
	expect_json_error(LAT_HEAD "\"values\": [[1, 2], [3, 4]]}, "
			  "\"distances\": {\"metric\": \"distance\", \"rows\": [0], \"columns\": [0, 1], \"values\": [[10, 21]]}}",
			  PH_FIGURE_DEFAULT, "x.json: distances: expected a SLIT: a square table");
	expect_json_error(LAT_HEAD "\"values\": [[1, 2], [3, 4]]}, \"hmat\": [{\"node\": 0, \"initiators\": \"x\"}]}",
			  PH_FIGURE_DEFAULT, "x.json: hmat[0].initiators: 'x'; expected a node list");
	expect_json_error(LAT_HEAD "\"values\": [[1, 2], [3, 4]]}, \"hmat\": [{\"node\": 0, \"read_lat_ns\": \"80\"}]}",
			  PH_FIGURE_DEFAULT, "x.json: hmat[0]: expected read_lat_ns, write_lat_ns");
	expect_json_error(LAT_HEAD "\"values\": [[1, 2], [3, 4]]}, \"cells\": [{\"cpu_node\": 0, \"mem_node\": 1, "
			  "\"figure\": \"latency_ns\", \"ci_low\": 3, \"ci_high\": 2}]}",
			  PH_FIGURE_DEFAULT, "x.json: cells[0]: ci_low 3 above ci_high 2");
	expect_json_error(LAT_HEAD "\"values\": [[1, 2], [3, 4]]}, \"cells\": [{\"cpu_node\": 0, \"mem_node\": 7, "
			  "\"figure\": \"latency_ns\"}]}",
			  PH_FIGURE_DEFAULT, "x.json: cells[0]: node 0 to 7 is not a cell of latency_ns");
	expect_json_error(LAT_HEAD "\"values\": [[1, 2], [3, 4]]}}", PH_FIGURE_DISTANCE,
			  "x.json: --metric distance is for CSV input");
	expect_json_error(LAT_HEAD "\"values\": [[1, 2], [3, 4]]}}", PH_FIGURE_READ,
			  "x.json: no read bandwidth_GBps matrix; the file has latency_ns");
}

/*
 * A cell whose CI does not hold its own median was accepted.  The
 * median (the cell's, else the matrix value) must lie in [ci_low, ci_high],
 * and the cell's median must be the matrix value, each allowing for the
 * rounding of the printed numbers: half a unit of the last digit printed.
 */
#define CELL(fig, extra) "{\"cpu_node\": 0, \"mem_node\": 1, \"figure\": \"" fig "\"" extra "}"

static void test_json_cell_ci(void **state)
{
	struct ph_input in;
	char err[512];

	(void)state;
	/* The median 140.2 is not within [150, 160]. */
	expect_json_error(LAT_HEAD "\"values\": [[90, 140.2], [141, 89]]}, \"cells\": ["
			  CELL("latency_ns", ", \"median\": 140.2, \"ci_low\": 150, \"ci_high\": 160") "]}",
			  PH_FIGURE_DEFAULT, "x.json: cells[0]: median 140.2 outside its CI [150, 160]");
	/* No median in the cell: the matrix value 140 is the median. */
	expect_json_error(LAT_HEAD "\"values\": [[90, 140], [141, 89]]}, \"cells\": ["
			  CELL("latency_ns", ", \"ci_low\": 150, \"ci_high\": 160") "]}",
			  PH_FIGURE_DEFAULT, "x.json: cells[0]: median 140 outside its CI [150, 160]");
	/* Only ci_high, 130, below the value 140. */
	expect_json_error(LAT_HEAD "\"values\": [[90, 140], [141, 89]]}, \"cells\": ["
			  CELL("latency_ns", ", \"ci_high\": 130") "]}",
			  PH_FIGURE_DEFAULT, "x.json: cells[0]: median 140 outside its CI [-, 130]");
	/* A cell whose median is not the matrix's value. */
	expect_json_error(LAT_HEAD "\"values\": [[90, 99], [141, 89]]}, \"cells\": ["
			  CELL("latency_ns", ", \"median\": 140.2, \"ci_low\": 139.0, \"ci_high\": 141.5") "]}",
			  PH_FIGURE_DEFAULT, "x.json: cells[0]: median 140.2; expected the value of latency_ns.values[0][1], 99");
	/*
	 * Rounding: the writer prints the matrix with one decimal, cells with
	 * two.  A median of 90.04 at the CI's low end prints as 90.0 in the
	 * matrix: 90.0 >= 90.04 - 0.005 - 0.05 = 89.985, accepted; 89.9 is not.
	 */
	assert_int_equal(input_parse_json("x.json", LAT_HEAD "\"values\": [[1, 90.0], [3, 4]]}, \"cells\": ["
					  CELL("latency_ns", ", \"median\": 90.04, \"ci_low\": 90.04, \"ci_high\": 90.30") "]}",
					  PH_FIGURE_DEFAULT, &in, err, sizeof(err)), 0);
	assert_true(in.m->ci_lo[1] == 90.04);
	input_free(&in);
	expect_json_error(LAT_HEAD "\"values\": [[1, 89.9], [3, 4]]}, \"cells\": ["
			  CELL("latency_ns", ", \"ci_low\": 90.04, \"ci_high\": 90.30") "]}",
			  PH_FIGURE_DEFAULT, "x.json: cells[0]: median 89.9 outside its CI [90.04, 90.3]");
	/* A bad cell of a figure not analysed is still a bad file. */
	expect_json_error(LAT_HEAD "\"values\": [[90, 140], [141, 89]]}, "
			  "\"bandwidth_read_GBps\": {\"metric\": \"bandwidth_GBps\", \"rows\": [0, 1], \"columns\": [0, 1], "
			  "\"values\": [[20.1, 12.3], [12.0, 19.8]]}, \"cells\": ["
			  CELL("bandwidth_read_GBps", ", \"median\": 12.3, \"ci_low\": 12.5, \"ci_high\": 12.9") "]}",
			  PH_FIGURE_LATENCY, "x.json: cells[0]: median 12.3 outside its CI [12.5, 12.9]");
	/* The median must be a positive number. */
	expect_json_error(LAT_HEAD "\"values\": [[90, 140], [141, 89]]}, \"cells\": ["
			  CELL("latency_ns", ", \"median\": \"140\"") "]}",
			  PH_FIGURE_DEFAULT, "x.json: cells[0].median: expected a positive number or null");
}

/*
 * HMAT initiators of 2^32 or more wrapped to node 0 (strtol to
 * long, then (int)), and 2^63 - 1 overflowed the loop counter (UBSan:
 * signed integer overflow in parse_id_list).  The reader now checks the
 * list itself: node ids 0 to 1023, ranges low-high, at most 256 nodes (what
 * the comparison holds), no longer than the 127 characters kept.
 */
static void test_json_hmat_bounds(void **state)
{
	struct ph_input in;
	char err[512], *text, *p;

	(void)state;
	expect_json_error(HMAT("{\"node\": 0, \"initiators\": \"4294967296\"}"), PH_FIGURE_DEFAULT,
			  "x.json: hmat[0].initiators: '4294967296'; expected a node list such as \"0\" or \"0-1,3\", node ids 0 to 1023");
	expect_json_error(HMAT("{\"node\": 0, \"initiators\": \"9223372036854775807\"}"), PH_FIGURE_DEFAULT,
			  "x.json: hmat[0].initiators: '9223372036854775807'; expected a node list");
	expect_json_error(HMAT("{\"node\": 0, \"initiators\": \"0-4294967296\"}"), PH_FIGURE_DEFAULT,
			  "x.json: hmat[0].initiators: '0-4294967296'; expected a node list");
	expect_json_error(HMAT("{\"node\": 0, \"initiators\": \"1024\"}"), PH_FIGURE_DEFAULT,
			  "x.json: hmat[0].initiators: '1024'; expected a node list");
	expect_json_error(HMAT("{\"node\": 0, \"initiators\": \"3-1\"}"), PH_FIGURE_DEFAULT,
			  "x.json: hmat[0].initiators: '3-1'; expected a node list");
	expect_json_error(HMAT("{\"node\": 0, \"initiators\": \" 0\"}"), PH_FIGURE_DEFAULT,
			  "x.json: hmat[0].initiators: ' 0'; expected a node list");
	expect_json_error(HMAT("{\"node\": 0, \"initiators\": \"0,,1\"}"), PH_FIGURE_DEFAULT,
			  "x.json: hmat[0].initiators: '0,,1'; expected a node list");
	/* 0-256 is 257 nodes. */
	expect_json_error(HMAT("{\"node\": 0, \"initiators\": \"0-256\"}"), PH_FIGURE_DEFAULT,
			  "x.json: hmat[0].initiators: '0-256' names 257 nodes; expected at most 256");
	/* 64 times "0," and a final 0: 129 characters. */
	text = xasprintf(HMAT("{\"node\": 0, \"initiators\": \"%s0\"}"),
			 "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,"
			 "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,");
	expect_json_error(text, PH_FIGURE_DEFAULT, "x.json: hmat[0].initiators: 129 characters; expected at most 127");
	free(text);
	/* The target and the figures. */
	expect_json_error(HMAT("{\"node\": 1024}"), PH_FIGURE_DEFAULT,
			  "x.json: hmat[0]: expected an object with \"node\", a node id 0 to 1023");
	expect_json_error(HMAT("{\"node\": 0, \"read_lat_ns\": 80.5}"), PH_FIGURE_DEFAULT,
			  "x.json: hmat[0]: expected read_lat_ns, write_lat_ns, read_bw_MiBps and write_bw_MiBps to be whole numbers 0 to 4294967295, or null");
	expect_json_error(HMAT("{\"node\": 0, \"read_bw_MiBps\": 4294967296}"), PH_FIGURE_DEFAULT,
			  "x.json: hmat[0]: expected read_lat_ns");
	expect_json_error(HMAT("{\"node\": 0, \"write_lat_ns\": 1e30}"), PH_FIGURE_DEFAULT,
			  "x.json: hmat[0]: expected read_lat_ns");
	/* Node ids of a matrix are bounded the same way. */
	expect_json_error("{\"latency_ns\": {\"metric\": \"latency_ns\", \"rows\": [1024], \"columns\": [0], \"values\": [[1]]}}",
			  PH_FIGURE_DEFAULT, "x.json: latency_ns.rows[0]: expected a node id, 0 to 1023");

	/* What is good is kept as written. */
	assert_int_equal(input_parse_json("x.json", HMAT("{\"node\": 1023, \"initiators\": \"0,2-3,1023\", "
							  "\"read_lat_ns\": 4294967295}, {\"node\": 0, \"initiators\": \"\"}"),
					  PH_FIGURE_DEFAULT, &in, err, sizeof(err)), 0);
	assert_int_equal(in.nhmat, 2);
	assert_int_equal(in.hmat[0].target, 1023);
	assert_string_equal(in.hmat[0].initiators, "0,2-3,1023");
	assert_true(in.hmat[0].read_latency_ns == 4294967295LL);
	assert_true(in.hmat[0].write_latency_ns == -1);
	assert_string_equal(in.hmat[1].initiators, "");
	input_free(&in);
	/* 127 characters fit: 63 times "0," and a final 0. */
	text = xasprintf(HMAT("{\"node\": 0, \"initiators\": \"%s0\"}"),
			 "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,"
			 "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,");
	assert_int_equal(input_parse_json("x.json", text, PH_FIGURE_DEFAULT, &in, err, sizeof(err)), 0);
	p = in.hmat[0].initiators;
	assert_int_equal(strlen(p), 127);
	input_free(&in);
	free(text);
}

/*
 * A JSON string can hold any character through an escape: quoted in a
 * message it must leave the message one line, and kept as the report's
 * source it must not carry a control character to the terminal.
 */
static void test_json_strings_one_line(void **state)
{
	struct ph_input in;
	char err[512];

	(void)state;
	expect_json_error("{\"latency_ns\": {\"metric\": \"lat\\nency\\u001b[2J\", \"rows\": [0], \"columns\": [0], \"values\": [[1]]}}",
			  PH_FIGURE_DEFAULT, "x.json: latency_ns.metric: \"lat\\nency\\e[2J\"; expected \"latency_ns\"");
	expect_json_error(HMAT("{\"node\": 0, \"initiators\": \"0\\n1\"}"), PH_FIGURE_DEFAULT,
			  "x.json: hmat[0].initiators: '0\\n1'; expected a node list");
	assert_int_equal(input_parse_json("x.json", LAT_HEAD "\"values\": [[1, 2], [3, 4]]}, "
					  "\"provenance\": {\"command_line\": \"pagehop\\u001b[2J matrix\", \"host\": \"h\\r\\n\"}}",
					  PH_FIGURE_DEFAULT, &in, err, sizeof(err)), 0);
	assert_string_equal(in.source, "pagehop?[2J matrix on h?? at ? (pagehop ?)");
	input_free(&in);
}

/* json_doc_parse refuses text, at line, with why holding want. */
static void expect_doc_error(const char *text, int line, const char *want)
{
	json_object *root = (json_object *)1;
	char why[JSON_WHY_MAX] = "";
	int at = -1;

	if (json_doc_parse(text, &root, &at, why, sizeof(why)) != -EINVAL)
		fail_msg("accepted '%s'", text);
	assert_null(root);
	assert_contains(why, want);
	assert_null(strchr(why, '\n'));
	if (at != line)
		fail_msg("'%s': line %d, expected %d (%s)", text, at, line, why);
}

/* json_doc_parse takes text, and root.key is the integer want. */
static void expect_doc_int(const char *text, const char *key, int64_t want)
{
	json_object *root = NULL, *v;
	char why[JSON_WHY_MAX] = "";
	int at = 0;

	if (json_doc_parse(text, &root, &at, why, sizeof(why)))
		fail_msg("refused '%s': line %d: %s", text, at, why);
	assert_true(json_object_object_get_ex(root, key, &v));
	assert_int_equal(json_object_get_int64(v), want);
	json_object_put(root);
}

/* {"d": [[...]] tail: depth arrays in the root object. */
static void nested(char *buf, size_t size, int depth, const char *tail)
{
	int n = snprintf(buf, size, "{\"d\": ");

	for (int i = 0; i < depth; i++)
		buf[n++] = '[';
	for (int i = 0; i < depth; i++)
		buf[n++] = ']';
	snprintf(buf + n, size - (size_t)n, "%s", tail);
}

/*
 * The strict reading every JSON reader shares, against hand-written text:
 * what RFC 8259 refuses and json-c's strict mode takes, each named with
 * its line and column (counted here by hand); a key twice in one object,
 * however it is escaped, named with both places.
 */
static void test_json_doc_strict(void **state)
{
	char deep[200];

	(void)state;
	/* Duplicate keys: the second named, the first's place in the message. */
	expect_doc_error("{\"a\": 1, \"b\": 2, \"a\": 3}", 1,
			 "column 18: key \"a\" twice in one object, first at line 1 column 2");
	expect_doc_error("{\n  \"a\": 1,\n  \"\\u0061\": 1\n}", 3,
			 "column 3: key \"a\" twice in one object, first at line 2 column 3");
	expect_doc_error("{\"x\": {\"k\": 1, \"j\": 2, \"k\": 1}}", 1,
			 "column 24: key \"k\" twice in one object, first at line 1 column 8");
	/* Of three, the second is the fault. */
	expect_doc_error("{\"k\": 1,\n\"k\": 2,\n\"k\": 3}", 2, "key \"k\" twice in one object, first at line 1 column 2");
	/* The same key in two objects, or in an array's objects, is no duplicate. */
	expect_doc_int("{\"x\": {\"k\": 1}, \"y\": {\"k\": 2}, \"k\": 3}", "k", 3);
	expect_doc_int("{\"r\": [{\"k\": 1}, {\"k\": 2}], \"k\": 4}", "k", 4);
	/* Keys alike up to a length are different keys. */
	expect_doc_int("{\"ab\": 1, \"a\": 2, \"abc\": 3}", "a", 2);
	/* Numbers. */
	expect_doc_error("{\"v\": NaN}", 1, "column 7: NaN, which JSON has no number for");
	expect_doc_error("{\"v\": Infinity}", 1, "column 7: Infinity, which JSON has no number for");
	expect_doc_error("{\"v\": -Infinity}", 1, "column 7: -Infinity, which JSON has no number for");
	expect_doc_error("{\"v\":\n 1e999}", 2, "column 2: the number 1e999 is beyond what a double holds");
	expect_doc_error("{\"v\": -1e400}", 1, "the number -1e400 is beyond what a double holds");
	expect_doc_error("{\"v\": 1.}", 1, "column 7: a number with no digit after its decimal point");
	expect_doc_error("{\"v\": 1.e5}", 1, "column 7: a number with no digit after its decimal point");
	expect_doc_int("{\"v\": -0, \"w\": 1.5e-3, \"x\": 2E+2, \"n\": 7}", "n", 7);
	/* Strings. */
	expect_doc_error("{\"s\": \"\\ud800\"}", 1, "column 8: \\ud800, the first half of a UTF-16 surrogate pair, alone");
	expect_doc_error("{\"s\": \"\\ud800\\u0041\"}", 1, "the first half of a UTF-16 surrogate pair, alone");
	expect_doc_error("{\"s\": \"a\\udc00\"}", 1, "column 9: \\udc00, the second half of a UTF-16 surrogate pair, alone");
	expect_doc_int("{\"s\": \"\\ud83d\\ude00\", \"n\": 1}", "n", 1);
	expect_doc_error("{\"s\": \"a\tb\"}", 1, "column 9: control character 0x09 inside a string");
	expect_doc_error("{\"s\": \"\\q\"}", 1, "invalid string sequence");
	/* Text after it, cut short, not an object: json-c's words. */
	expect_doc_error("{\"a\": 1}\nx", 2, "text after the JSON object");
	expect_doc_error("{\"a\": [1,\n2", 2, "the JSON ends early");
	expect_doc_error("[1]", 1, "not a JSON object");
	/* Nesting: 32 deep is taken, 33 is not. */
	nested(deep, sizeof(deep), 31, ", \"n\": 5}");
	expect_doc_int(deep, "n", 5);
	nested(deep, sizeof(deep), 32, "}");
	expect_doc_error(deep, 1, "nesting too deep");
}

/*
 * The measured machine's packages and ACPI table IDs, in the provenance as
 * the JSON renderer writes them (tests/data/golden/output.json's shape).
 */
static void test_json_provenance_machine(void **state)
{
	struct ph_input in;
	char err[512];

	(void)state;
	assert_int_equal(input_parse_json("x.json", LAT_HEAD "\"values\": [[1, 2], [3, 4]]}, "
					  "\"provenance\": {\"host\": \"h\", \"packages\": 2, \"acpi\": "
					  "{\"SLIT\": {\"oem_id\": \"BOCHS \", \"oem_table_id\": \"BXPCSLIT\", \"oem_revision\": 1}, "
					  "\"HMAT\": null}}}",
					  PH_FIGURE_DEFAULT, &in, err, sizeof(err)), 0);
	assert_int_equal(in.packages, 2);
	assert_true(in.acpi[PH_PROV_SLIT].have);
	assert_string_equal(in.acpi[PH_PROV_SLIT].oem_id, "BOCHS ");
	assert_string_equal(in.acpi[PH_PROV_SLIT].oem_table_id, "BXPCSLIT");
	assert_int_equal(in.acpi[PH_PROV_SLIT].oem_revision, 1);
	assert_false(in.acpi[PH_PROV_HMAT].have);
	input_free(&in);
	/* Not said: 0 and none. */
	assert_int_equal(input_parse_json("x.json", LAT_HEAD "\"values\": [[1, 2], [3, 4]]}, "
					  "\"provenance\": {\"packages\": null, \"acpi\": null}}",
					  PH_FIGURE_DEFAULT, &in, err, sizeof(err)), 0);
	assert_int_equal(in.packages, 0);
	assert_false(in.acpi[PH_PROV_SLIT].have);
	input_free(&in);
	expect_json_error(LAT_HEAD "\"values\": [[1, 2], [3, 4]]}, \"provenance\": {\"packages\": 1.5}}",
			  PH_FIGURE_DEFAULT, "x.json: provenance.packages: expected the measured machine's CPU packages");
	expect_json_error(LAT_HEAD "\"values\": [[1, 2], [3, 4]]}, \"provenance\": {\"packages\": 0}}",
			  PH_FIGURE_DEFAULT, "x.json: provenance.packages: expected");
	expect_json_error(LAT_HEAD "\"values\": [[1, 2], [3, 4]]}, \"provenance\": {\"acpi\": "
			  "{\"HMAT\": {\"oem_id\": \"A\\\"B\", \"oem_table_id\": \"T\", \"oem_revision\": 1}}}}",
			  PH_FIGURE_DEFAULT, "x.json: provenance.acpi.HMAT: expected oem_id (1 to 6 characters)");
	expect_json_error(LAT_HEAD "\"values\": [[1, 2], [3, 4]]}, \"provenance\": {\"acpi\": "
			  "{\"SLIT\": {\"oem_id\": \"A\", \"oem_table_id\": \"T\", \"oem_revision\": 4294967296}}}}",
			  PH_FIGURE_DEFAULT, "x.json: provenance.acpi.SLIT: expected");
	expect_json_error(LAT_HEAD "\"values\": [[1, 2], [3, 4]]}, \"provenance\": {\"acpi\": []}}",
			  PH_FIGURE_DEFAULT, "x.json: provenance.acpi: expected an object of tables");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_sample),
		cmocka_unit_test(test_json_values),
		cmocka_unit_test(test_json_errors),
		cmocka_unit_test(test_json_cell_ci),
		cmocka_unit_test(test_json_hmat_bounds),
		cmocka_unit_test(test_json_strings_one_line),
		cmocka_unit_test(test_json_doc_strict),
		cmocka_unit_test(test_json_provenance_machine),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
