// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_read_csv.c - measured matrices as CSV (plain tables and the output
 * layer's own), and the SLIT recorded in one; a cut last line refused in
 * CSV and numactl text alike.  Every error says file, line and what was
 * expected.  Run from the tree's root.
 */
#include "unit.h"

#include "readers.h"
#include "read_input.h"
#include "output.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_csv_shared_intel(void **state)
{
	struct ph_input in;
	char err[512];

	(void)state;
	assert_int_equal(input_load("tests/data/shared/intel-e5-2643-2node.matrix.csv",
				    PH_FIGURE_DEFAULT, &in, err, sizeof(err)), 0);
	assert_false(in.json);
	assert_int_equal(in.m->metric, PH_METRIC_BANDWIDTH);
	assert_int_equal(in.m->nrows, 2);
	assert_int_equal(in.m->ncols, 2);
	assert_true(in.m->val[1] == 18.9);
	assert_true(in.m->val[2] == 17.4);
	assert_true(isnan(in.m->ci_lo[0]));
	assert_string_equal(in.figure, "bandwidth_GBps");
	assert_contains(in.source, "Intel Xeon E5-2643");
	assert_null(in.slit);
	assert_null(in.latency);
	input_free(&in);
}

static void test_csv_shared_amd(void **state)
{
	struct ph_input in;
	char err[512];

	(void)state;
	assert_int_equal(input_load("tests/data/shared/amd-6220-4node.matrix.csv",
				    PH_FIGURE_BANDWIDTH, &in, err, sizeof(err)), 0);
	assert_int_equal(in.m->nrows, 4);
	assert_int_equal(in.m->col_ids[3], 3);
	assert_true(in.m->val[3 * 4 + 2] == 11.6);
	input_free(&in);
}

static void test_csv_forms(void **state)
{
	struct ph_input in;
	char err[512];

	(void)state;
	/* A hand-written table with its "(or ...)" left in; CRLF line ends. */
	assert_int_equal(input_parse_csv("x.csv",
					 "# pagehop matrix\r\n# metric: bandwidth_GBps        (or latency_ns, or distance)\r\n"
					 "node,0,1\r\n0,34.0,18.9\r\n1,17.4,33.5\r\n",
					 PH_FIGURE_DEFAULT, &in, err, sizeof(err)), 0);
	assert_int_equal(in.m->metric, PH_METRIC_BANDWIDTH);
	assert_true(in.m->val[3] == 33.5);
	input_free(&in);

	/* Decimal forms a spreadsheet writes. */
	assert_int_equal(input_parse_csv("x.csv", "# metric: latency_ns\nnode,0,1,2,3\n0,1e2,+90.5,.5,7.\n",
					 PH_FIGURE_DEFAULT, &in, err, sizeof(err)), 0);
	assert_true(in.m->val[0] == 100);
	assert_true(in.m->val[1] == 90.5);
	assert_true(in.m->val[2] == 0.5);
	assert_true(in.m->val[3] == 7);
	input_free(&in);

	/* No "# pagehop matrix" line; spaces around fields; missing values. */
	assert_int_equal(input_parse_csv("x.csv",
					 "# from another tool\n# metric: latency_ns\n node , 0 , 2 \n0, 90 ,\n2,-,89\n",
					 PH_FIGURE_LATENCY, &in, err, sizeof(err)), 0);
	assert_int_equal(in.m->metric, PH_METRIC_LATENCY);
	assert_int_equal(in.m->col_ids[1], 2);
	assert_int_equal(in.m->row_ids[1], 2);
	assert_true(in.m->val[0] == 90);
	assert_true(isnan(in.m->val[1]));
	assert_true(isnan(in.m->val[2]));
	assert_true(in.m->val[3] == 89);
	input_free(&in);

	/* A CPU-only node is a row, a memory-only node a column. */
	assert_int_equal(input_parse_csv("x.csv",
					 "# metric: distance\nnode,0,1,4\n0,10,21,30\n1,21,10,30\n5,17,28,35\n",
					 PH_FIGURE_DEFAULT, &in, err, sizeof(err)), 0);
	assert_int_equal(in.m->metric, PH_METRIC_DISTANCE);
	assert_int_equal(in.m->nrows, 3);
	assert_int_equal(in.m->ncols, 3);
	assert_int_equal(in.m->row_ids[2], 5);
	input_free(&in);
}

/* What the output layer writes for a "pagehop matrix" run is read back. */
static void test_csv_output_layer_roundtrip(void **state)
{
	struct ph_provenance p = { .command = "pagehop matrix", .host = "h", .kernel = "k",
				   .version = "0", .time_utc = "t" };
	struct ph_doc *doc = doc_new("matrix");
	const int ids[] = { 0, 1 };
	const double lat[] = { 90.1, 140.2, 141.0, 89.7 }, rd[] = { 20.1, 12.3, 12.0, 19.8 };
	const int dist[] = { 10, 21, 21, 10 };
	struct ph_section *s;
	struct ph_table *t;
	struct ph_matrix *m;
	struct ph_input in;
	char *buf = NULL, err[512];
	size_t len = 0;
	FILE *f;

	(void)state;
	doc_set_provenance(doc, &p);
	s = doc_add_section(doc, "run", "run");
	section_int(s, "threads", 4);
	t = doc_add_table(doc, "hmat", "hmat");
	table_add_col(t, "node");
	table_add_col(t, "read_lat_ns");
	table_int(t, table_add_row(t), "node", 0);
	m = doc_add_matrix(doc, "distances", "node distances", "distance", 2, ids, 2, ids);
	for (int i = 0; i < 4; i++)
		matrix_int(m, i / 2, i % 2, dist[i]);
	m = doc_add_matrix(doc, "bandwidth_read_GBps", "read", "bandwidth_GBps", 2, ids, 2, ids);
	for (int i = 0; i < 4; i++)
		matrix_num(m, i / 2, i % 2, rd[i], "%.1f");
	m = doc_add_matrix(doc, "latency_ns", "latency", "latency_ns", 2, ids, 2, ids);
	for (int i = 0; i < 4; i++)
		if (i != 2)
			matrix_num(m, i / 2, i % 2, lat[i], "%.1f");
	doc_note(doc, "a note");
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(doc_render(doc, PH_FMT_CSV, f), 0);
	fclose(f);
	doc_free(doc);

	assert_int_equal(input_parse_csv("m.csv", buf, PH_FIGURE_DEFAULT, &in, err, sizeof(err)), 0);
	assert_string_equal(in.figure, "latency_ns");
	assert_int_equal(in.m->metric, PH_METRIC_LATENCY);
	assert_true(in.m->val[1] == 140.2);
	assert_true(isnan(in.m->val[2]));	/* the unset cell: an empty field */
	assert_non_null(in.slit);
	assert_int_equal(in.slit->n, 2);
	assert_int_equal(in.slit->dist[1], 21);
	input_free(&in);

	assert_int_equal(input_parse_csv("m.csv", buf, PH_FIGURE_READ, &in, err, sizeof(err)), 0);
	assert_string_equal(in.figure, "bandwidth_read_GBps");
	assert_true(in.m->val[2] == 12.0);
	input_free(&in);

	expect_csv_error(buf, PH_FIGURE_TRIAD,
			 "x.csv: no triad bandwidth_GBps matrix to analyse; the file has: distance distances, bandwidth_GBps bandwidth_read_GBps, latency_ns latency_ns");
	free(buf);
}

/*
 * Header nodes with no row after the last one: memory-only nodes, or a
 * file cut after a whole row.  Read, and said; a square matrix says nothing.
 */
static void test_csv_cut_note(void **state)
{
	struct ph_input in;
	char err[512];

	(void)state;
	assert_int_equal(input_parse_csv("x.csv", "# pagehop matrix\n# metric: latency_ns\nnode,0,1,2,3\n"
					 "0,90,140,200,210\n1,140,90,210,200\n", PH_FIGURE_DEFAULT, &in, err, sizeof(err)), 0);
	assert_int_equal(in.m->nrows, 2);
	assert_int_equal(in.m->ncols, 4);
	assert_string_equal(in.note, "x.csv:3: the header names 4 nodes and the matrix has 2 rows: nodes 2, 3, after the last row, have none; memory-only nodes have none, and so has a file cut after a whole row: which, the file cannot tell");
	input_free(&in);
	assert_int_equal(input_parse_csv("x.csv", "# metric: latency_ns\nnode,0,1\n0,90,140\n1,140,90\n",
					 PH_FIGURE_DEFAULT, &in, err, sizeof(err)), 0);
	assert_null(in.note);
	input_free(&in);
	/* A node without a row before the last row: no cut loses that one. */
	assert_int_equal(input_parse_csv("x.csv", "# metric: latency_ns\nnode,0,1,2\n0,90,140,200\n2,200,140,90\n",
					 PH_FIGURE_DEFAULT, &in, err, sizeof(err)), 0);
	assert_null(in.note);
	input_free(&in);
}

static void test_csv_errors(void **state)
{
	(void)state;
	expect_csv_error("", PH_FIGURE_DEFAULT, "x.csv: no matrix; expected '# pagehop matrix'");
	/* One metric a matrix, alone on its line (a remark in parentheses aside). */
	expect_csv_error("# pagehop matrix\n# metric: bandwidth_GBps\n# metric: latency_ns\nnode,0\n0,1\n",
			 PH_FIGURE_DEFAULT,
			 "x.csv:3: a second '# metric:' line for the matrix whose metric line 2 gave; expected one");
	expect_csv_error("# pagehop matrix\n# metric: bandwidth_GBps latency_ns\nnode,0\n0,1\n", PH_FIGURE_DEFAULT,
			 "x.csv:2: 'latency_ns' after the metric bandwidth_GBps; expected the metric alone, or a remark in parentheses");
	/* Rows said to be of both kinds: which is it? */
	expect_csv_error("# pagehop matrix\n# metric: latency_ns\n# orientation: mem-rows\n"
			 "# rows: cpu node, columns: memory node\nnode,0\n0,1\n", PH_FIGURE_DEFAULT,
			 "x.csv:4: '# rows: cpu node, columns: memory node' says the rows are CPU nodes, but line 3 says memory nodes");
	expect_csv_error("# pagehop matrix\n# metric: latency_ns\n# rows: memory node\n"
			 "# orientation: cpu-rows\nnode,0\n0,1\n", PH_FIGURE_DEFAULT,
			 "x.csv:4: '# orientation: cpu-rows' says the rows are CPU nodes, but line 3 says memory nodes");
	/* Said of no matrix, or among the rows: it would be lost. */
	expect_csv_error("# orientation: mem-rows\n# pagehop matrix\n# metric: latency_ns\nnode,0,1\n0,1,2\n1,2,1\n",
			 PH_FIGURE_DEFAULT,
			 "x.csv:1: '# orientation: mem-rows' before any '# pagehop matrix'; expected it after '# pagehop matrix' and before the 'node,...' header");
	expect_csv_error("# pagehop matrix\n# metric: latency_ns\nnode,0,1\n0,1,2\n# rows: memory node\n1,2,1\n",
			 PH_FIGURE_DEFAULT,
			 "x.csv:5: '# rows: memory node' among the rows of the matrix from line 1; expected it before the matrix's 'node,...' header");
	expect_csv_error("node,0,1\n0,1,2\n", PH_FIGURE_DEFAULT,
			 "x.csv:1: a 'node,...' header with no '# metric:' line before it");
	expect_csv_error("# pagehop matrix\nnode,0,1\n0,1,2\n", PH_FIGURE_DEFAULT,
			 "x.csv:2: the matrix from line 1 has no '# metric:' line before its header");
	expect_csv_error("# metric: furlongs\nnode,0\n0,1\n", PH_FIGURE_DEFAULT,
			 "x.csv:1: unknown metric 'furlongs'; expected latency_ns, bandwidth_GBps or distance");
	expect_csv_error("# metric: latency_ns\nnode,0,1\n0,90,140\n1,141\n", PH_FIGURE_DEFAULT,
			 "x.csv:4: row of node 1 has 1 value; expected 2, one per column of the header at line 2");
	expect_csv_error("# metric: latency_ns\nnode,0,1\n0,90,140,7\n", PH_FIGURE_DEFAULT,
			 "x.csv:3: row of node 0 has 3 values; expected 2");
	expect_csv_error("# metric: latency_ns\nnode,0,1\n0,90,abc\n", PH_FIGURE_DEFAULT,
			 "x.csv:3: memory node 1: 'abc' is not a number; expected a positive number");
	expect_csv_error("# metric: latency_ns\nnode,0,1\n0,90,12x\n", PH_FIGURE_DEFAULT,
			 "x.csv:3: memory node 1: '12x' is not a number");
	/* strtod reads hex and "infinity"; a CSV number is decimal. */
	expect_csv_error("# metric: latency_ns\nnode,0,1\n0,90,0x10\n", PH_FIGURE_DEFAULT,
			 "x.csv:3: memory node 1: '0x10' is not a number");
	expect_csv_error("# metric: latency_ns\nnode,0,1\n0,90,infinity\n", PH_FIGURE_DEFAULT,
			 "x.csv:3: memory node 1: 'infinity' is not a number");
	expect_csv_error("# metric: latency_ns\nnode,0,1\n0,90,1e\n", PH_FIGURE_DEFAULT,
			 "x.csv:3: memory node 1: '1e' is not a number");
	expect_csv_error("# metric: latency_ns\nnode,0,1\n0,90,.\n", PH_FIGURE_DEFAULT,
			 "x.csv:3: memory node 1: '.' is not a number");
	expect_csv_error("# metric: latency_ns\nnode,0,1\n0,90,-5\n", PH_FIGURE_DEFAULT,
			 "x.csv:3: memory node 1: -5; expected a positive number");
	expect_csv_error("# metric: latency_ns\nnode,0,1\n0,90,140\n0,91,141\n", PH_FIGURE_DEFAULT,
			 "x.csv:4: a second row for node 0");
	expect_csv_error("# metric: latency_ns\nnode,0,0\n", PH_FIGURE_DEFAULT,
			 "x.csv:2: node 0 appears twice in the header");
	expect_csv_error("# metric: latency_ns\nnode,0,x\n", PH_FIGURE_DEFAULT,
			 "x.csv:2: header column 3 is 'x'; expected a node id");
	expect_csv_error("# metric: latency_ns\ncpu,0,1\n", PH_FIGURE_DEFAULT,
			 "x.csv:2: expected the header 'node,<memory node ids>', got 'cpu'");
	expect_csv_error("# metric: latency_ns\nnode,0,1\n", PH_FIGURE_DEFAULT,
			 "x.csv:2: the matrix has a header but no rows");
	expect_csv_error("# metric: latency_ns\nnode,0,1\nx,1,2\n", PH_FIGURE_DEFAULT,
			 "x.csv:3: row starts with 'x'; expected a CPU node id, then 2 values");
	expect_csv_error("# pagehop matrix\n# metric: latency_ns\n", PH_FIGURE_DEFAULT,
			 "x.csv:2: the file ends before the 'node,<ids>' header of the matrix from line 1");
	expect_csv_error("# metric: latency_ns\nnode,0\n0,1\n# metric: latency_ns\n", PH_FIGURE_DEFAULT,
			 "x.csv:4: a '# metric:' line among the rows of the matrix from line 1");
	expect_csv_error("# pagehop matrix\n# pagehop matrix\n", PH_FIGURE_DEFAULT,
			 "x.csv:2: a new '# pagehop matrix' before the matrix from line 1 had its 'node,...' header");
	expect_csv_error("# metric: bandwidth_GBps\nnode,0\n0,1\n", PH_FIGURE_LATENCY,
			 "x.csv: no latency_ns matrix to analyse; the file has: bandwidth_GBps");
}

/*
 * A file cut inside a number, "0,34.0,18.9" cut to "0,34.0,1",
 * was read as a bandwidth of 1 GB/s with exit 0.  A CSV or numactl file
 * whose last line has no line end is taken as cut short.
 */
static void test_last_line_without_line_end(void **state)
{
	static const char intel[] = "# pagehop matrix\n# metric: bandwidth_GBps\nnode,0,1\n0,34.0,18.9\n1,17.4,33.5\n";
	struct ph_input in;
	struct ph_slit *s;
	char err[512], cut[sizeof(intel)];

	(void)state;
	/* Cut right after the '1' of 18.9: line 4 is "0,34.0,1". */
	memcpy(cut, intel, sizeof(intel));
	cut[strstr(intel, "18.9") - intel + 1] = '\0';
	expect_csv_error(cut, PH_FIGURE_DEFAULT,
			 "x.csv:4: the last line has no line end; the file looks cut short, perhaps inside a number");
	/* Whole lines but the last line end: still refused, as no reader can tell. */
	memcpy(cut, intel, sizeof(intel));
	cut[sizeof(intel) - 2] = '\0';
	expect_csv_error(cut, PH_FIGURE_DEFAULT, "x.csv:5: the last line has no line end");
	/* Blanks after the last line end are no line. */
	assert_int_equal(input_parse_csv("x.csv", "# metric: latency_ns\nnode,0\n0,90\n  ", PH_FIGURE_DEFAULT,
					 &in, err, sizeof(err)), 0);
	assert_true(in.m->val[0] == 90);
	input_free(&in);

	/* numactl: "  1:  21  10" cut to "  1:  21  1". */
	expect_numactl_error("node distances:\nnode 0 1\n  0:  10  21\n  1:  21  1",
			     "n.txt:4: the last line has no line end; the file looks cut short, perhaps inside a number");
	assert_int_equal(slit_parse_numactl("n.txt", "node 0 1\n0: 10 21\n1: 21 10\n\t", &s, err, sizeof(err)), 0);
	assert_int_equal(slit_at(s, 1, 0), 21);
	slit_free(s);
}

/*
 * The SLIT recorded in a CSV ("# name: distances") that is not
 * one was dropped without a word, and the analysis ran with no SLIT; the
 * same table in JSON exits 2.  Both now refuse it.
 */
#define CSV_LAT "# pagehop matrix\n# name: latency_ns\n# metric: latency_ns\nnode,0,1\n0,90,140\n1,141,89\n\n"
#define CSV_DIST "# pagehop matrix\n# name: distances\n# metric: distance\n"

static void test_csv_recorded_slit(void **state)
{
	struct ph_input in;
	char err[512];

	(void)state;
	/* A good one is read (lines 8-12). */
	assert_int_equal(input_parse_csv("x.csv", CSV_LAT CSV_DIST "node,0,1\n0,10,21\n1,21,10\n",
					 PH_FIGURE_DEFAULT, &in, err, sizeof(err)), 0);
	assert_non_null(in.slit);
	assert_int_equal(slit_at(in.slit, 1, 0), 21);
	input_free(&in);
	/* Not an integer: its header is line 11. */
	expect_csv_error(CSV_LAT CSV_DIST "node,0,1\n0,10,21\n1,21.5,10\n", PH_FIGURE_DEFAULT,
			 "x.csv:11: distances: expected a SLIT: a square table, the same nodes as rows and columns, integers up to 255");
	/* Above 255. */
	expect_csv_error(CSV_LAT CSV_DIST "node,0,1\n0,10,21\n1,256,10\n", PH_FIGURE_DEFAULT,
			 "x.csv:11: distances: expected a SLIT");
	/* A missing entry. */
	expect_csv_error(CSV_LAT CSV_DIST "node,0,1\n0,10,\n1,21,10\n", PH_FIGURE_DEFAULT,
			 "x.csv:11: distances: expected a SLIT");
	/* One row of two columns: not square. */
	expect_csv_error(CSV_LAT CSV_DIST "node,0,1\n0,10,21\n", PH_FIGURE_DEFAULT,
			 "x.csv:11: distances: expected a SLIT");
	/* Square but other nodes in the rows than in the columns. */
	expect_csv_error(CSV_LAT CSV_DIST "node,0,1\n0,10,21\n2,21,10\n", PH_FIGURE_DEFAULT,
			 "x.csv:11: distances: expected a SLIT");
	/* The JSON message says the same. */
	expect_json_error(LAT_HEAD "\"values\": [[1, 2], [3, 4]]}, "
			  "\"distances\": {\"metric\": \"distance\", \"rows\": [0, 1], \"columns\": [0, 1], \"values\": [[10, 21], [21.5, 10]]}}",
			  PH_FIGURE_DEFAULT, "x.json: distances: expected a SLIT: a square table, the same nodes as rows and columns, integers up to 255");
}

/*
 * A table as published: "MEM CPU" corner (blanks or a tab between the two
 * words), tabs, rows = memory node; read back with rows = CPU node.  And
 * the orientation lines, and what they refuse.
 */
static void test_csv_mem_rows(void **state)
{
	struct ph_input in;
	char err[512];
	/* memory node 0: CPU 0 34, CPU 1 17.4; memory node 1: CPU 0 18.9, CPU 1 33.5 */
	static const char *const forms[] = {
		"MEM CPU\t0\t1\n0\t34.0\t17.4\n1\t18.9\t33.5\n",
		"mem\tcpu\t0\t1\n0\t34.0\t17.4\n1\t18.9\t33.5\n",
		"# metric: bandwidth_GBps\n# orientation: mem-rows\nnode,0,1\n0,34.0,17.4\n1,18.9,33.5\n",
		"# metric: bandwidth_GBps\n# rows: memory node\nnode,0,1\n0,34.0,17.4\n1,18.9,33.5\n",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		assert_int_equal(input_parse_csv("t.tsv", forms[i], PH_FIGURE_DEFAULT, &in, err, sizeof(err)), 0);
		assert_int_equal(in.m->metric, PH_METRIC_BANDWIDTH);
		assert_int_equal(in.rows, PH_ORIENT_MEM_ROWS);
		/* CPU 0 row: memory 0 34, memory 1 18.9. */
		assert_true(in.m->val[0] == 34.0 && in.m->val[1] == 18.9);
		assert_true(in.m->val[2] == 17.4 && in.m->val[3] == 33.5);
		input_free(&in);
	}
	assert_int_equal(input_parse_csv("t.csv", "# metric: bandwidth_GBps\n# rows: sideways\nnode,0\n0,1\n",
					 PH_FIGURE_DEFAULT, &in, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "t.csv:2"));
	assert_int_equal(input_parse_csv("t.csv", "# metric: bandwidth_GBps\n# rows: cpu node\nMEM CPU\t0\n0\t1\n",
					 PH_FIGURE_DEFAULT, &in, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "line 2"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_csv_shared_intel),
		cmocka_unit_test(test_csv_shared_amd),
		cmocka_unit_test(test_csv_forms),
		cmocka_unit_test(test_csv_mem_rows),
		cmocka_unit_test(test_csv_output_layer_roundtrip),
		cmocka_unit_test(test_csv_cut_note),
		cmocka_unit_test(test_csv_errors),
		cmocka_unit_test(test_last_line_without_line_end),
		cmocka_unit_test(test_csv_recorded_slit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
