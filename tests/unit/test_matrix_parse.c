// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_matrix_parse.c - the inputs of "pagehop slit": CSV (issue 5's and
 * the output layer's own), pagehop JSON, numactl --hardware; every error
 * path says file, line and what was expected.  Run from the tree's root.
 */
#include "unit.h"

#include "read_csv.h"
#include "read_input.h"
#include "read_json.h"
#include "read_numactl.h"
#include "output.h"
#include "readfile.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define assert_contains(hay, needle)                                             \
	do {                                                                     \
		if (!strstr((hay), (needle)))                                    \
			fail_msg("'%s' does not contain '%s'", (hay), (needle)); \
	} while (0)

static void expect_csv_error(const char *text, enum ph_figure fig, const char *want)
{
	struct ph_input in;
	char err[512] = "";

	assert_int_equal(input_parse_csv("x.csv", text, fig, &in, err, sizeof(err)), -EINVAL);
	assert_contains(err, want);
	assert_null(strchr(err, '\n'));		/* one line */
	assert_null(in.m);
}

static void expect_json_error(const char *text, enum ph_figure fig, const char *want)
{
	struct ph_input in;
	char err[512] = "";

	assert_int_equal(input_parse_json("x.json", text, fig, &in, err, sizeof(err)), -EINVAL);
	assert_contains(err, want);
	assert_null(strchr(err, '\n'));
	assert_null(in.m);
}

static void expect_numactl_error(const char *text, const char *want)
{
	struct ph_slit *s = (struct ph_slit *)1;
	char err[512] = "";

	assert_int_equal(slit_parse_numactl("n.txt", text, &s, err, sizeof(err)), -EINVAL);
	assert_contains(err, want);
	assert_null(strchr(err, '\n'));
	assert_null(s);
}

/* ---- CSV ---- */

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
	/* The example with its "(or ...)" left in; CRLF line ends. */
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

static void test_csv_errors(void **state)
{
	(void)state;
	expect_csv_error("", PH_FIGURE_DEFAULT, "x.csv: no matrix; expected '# pagehop matrix'");
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

/* ---- JSON ---- */

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

	/* Memory-only node 4; one missed CI target; triad absent. */
	assert_int_equal(input_load("tests/data/slit/matrix-4node-cxl.json", PH_FIGURE_DEFAULT,
				    &in, err, sizeof(err)), 0);
	assert_int_equal(in.m->nrows, 4);
	assert_int_equal(in.m->ncols, 5);
	assert_int_equal(in.ci_not_met, 1);
	assert_int_equal(in.slit->n, 5);
	assert_int_equal(in.nhmat, 5);
	assert_string_equal(in.hmat[4].initiators, "0-3");
	input_free(&in);
	assert_int_equal(input_load("tests/data/slit/matrix-4node-cxl.json", PH_FIGURE_TRIAD,
				    &in, err, sizeof(err)), -EINVAL);
	assert_contains(err, "no triad bandwidth_GBps matrix; the file has latency_ns, bandwidth_read_GBps");
}

#define LAT_HEAD "{\"latency_ns\": {\"metric\": \"latency_ns\", \"rows\": [0, 1], \"columns\": [0, 1], "

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
	expect_json_error("[1]", PH_FIGURE_DEFAULT, "x.json:1: expected a JSON object");
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

/* ---- numactl --hardware ---- */

static void test_numactl(void **state)
{
	struct ph_slit *s;
	char err[512];
	const char *kind;
	char *text;
	size_t len;

	(void)state;
	assert_int_equal(read_whole_file("tests/data/shared/amd-6220-4node.numactl.txt", 1 << 20,
					 &text, &len, &kind), 0);
	assert_int_equal(strlen(text), len);
	assert_int_equal(slit_parse_numactl("amd", text, &s, err, sizeof(err)), 0);
	assert_int_equal(s->n, 4);
	assert_int_equal(s->ids[3], 3);
	for (int i = 0; i < 16; i++)
		assert_int_equal(s->dist[i], i % 5 ? 16 : 10);
	slit_free(s);
	free(text);

	assert_int_equal(slit_load_numactl("tests/data/shared/intel-e5-2643-2node.numactl.txt",
					   &s, err, sizeof(err)), 0);
	assert_int_equal(slit_at(s, 0, 1), 21);
	assert_int_equal(slit_at(s, 1, 1), 10);
	assert_int_equal(slit_at(s, 1, 2), -1);
	slit_free(s);

	/* Just the table, trailing blanks as numactl leaves them, rows out of order. */
	assert_int_equal(slit_parse_numactl("t", "node   0   2 \n  2:  21  10 \n  0:  10  21 \n",
					    &s, err, sizeof(err)), 0);
	assert_int_equal(slit_at(s, 2, 0), 21);
	assert_int_equal(slit_at(s, 0, 0), 10);
	assert_int_equal(slit_at(s, 2, 2), 10);
	slit_free(s);
}

static void test_numactl_errors(void **state)
{
	(void)state;
	expect_numactl_error("available: 1 nodes (0)\nnode 0 cpus: 0 1\n",
			     "n.txt: no 'node distances:' table; expected the output of numactl --hardware");
	expect_numactl_error("available: 1 nodes (0)\nNo distance information available.\n",
			     "n.txt:2: numactl found no distance information");
	expect_numactl_error("node distances:\n", "n.txt:1: the file ends after 'node distances:'");
	expect_numactl_error("node distances:\nnode 0 x\n", "n.txt:2: expected the header 'node 0 1 ...', got 'node 0 x'");
	expect_numactl_error("node distances:\nnode 0 1\n 0: 10 21\n",
			     "n.txt:3: the file ends after 1 of 2 rows");
	expect_numactl_error("node distances:\nnode 0 1\n 0: 10 abc\n 1: 21 10\n",
			     "n.txt:3: node 0: distance 2 of 2 missing or not 0..255");
	expect_numactl_error("node distances:\nnode 0 1\n 0: 10 300\n 1: 21 10\n",
			     "n.txt:3: node 0: distance 2 of 2 missing or not 0..255");
	expect_numactl_error("node distances:\nnode 0 1\n 0: 10 21 7\n 1: 21 10\n",
			     "n.txt:3: node 0: more than 2 distances");
	expect_numactl_error("node distances:\nnode 0 1\n 0: 10 21\n 0: 21 10\n",
			     "n.txt:4: row for node 0; expected one row for each node of the header, once");
	expect_numactl_error("node distances:\nnode 0 1\n zero: 10 21\n",
			     "n.txt:3: expected a row 'N: 2 distances' (a node id, a colon, then the distances), got 'zero: 10 21'");
}

/*
 * Issue 11 item 10: a distance row whose node id is not followed at once by
 * a colon.  sscanf("%d:%n") matched the id and left the offset unset, so
 * the row was read from wherever that pointed: past the end of the line
 * under ASan, the next line's numbers in a plain build.
 */
static void test_numactl_row_without_colon(void **state)
{
	(void)state;
	/* No colon at all: the ids 0 10 21 must not be read as node 0's row. */
	expect_numactl_error("node distances:\nnode 0 1\n0 10 21\n1: 21 10\n",
			     "n.txt:3: expected a row 'N: 2 distances' (a node id, a colon, then the distances), got '0 10 21'");
	/* A space before the colon is not numactl's layout either. */
	expect_numactl_error("node distances:\nnode 0 1\n0 : 10 21\n1: 21 10\n",
			     "n.txt:3: expected a row 'N: 2 distances' (a node id, a colon, then the distances), got '0 : 10 21'");
	/* A line cut short after the id, with and without its line end. */
	expect_numactl_error("node distances:\nnode 0 1\n  0\n1: 21 10\n",
			     "n.txt:3: expected a row 'N: 2 distances' (a node id, a colon, then the distances), got '0'");
	expect_numactl_error("node distances:\nnode 0 1\n  0:\n1: 21 10\n",
			     "n.txt:3: node 0: distance 1 of 2 missing or not 0..255");
	/* An id too large for an int is not a node (sscanf's %d overflowed). */
	expect_numactl_error("node distances:\nnode 0 1\n99999999999: 10 21\n1: 21 10\n",
			     "n.txt:3: expected a row 'N: 2 distances' (a node id, a colon, then the distances), got '99999999999: 10 21'");
}

/*
 * Issue 11: a file cut inside a number, "0,34.0,18.9" cut to "0,34.0,1",
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
 * Issue 11: the SLIT recorded in a CSV ("# name: distances") that is not
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
 * Issue 11: a cell whose CI does not hold its own median was accepted.  The
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
 * Issue 11: HMAT initiators of 2^32 or more wrapped to node 0 (strtol to
 * long, then (int)), and 2^63 - 1 overflowed the loop counter (UBSan:
 * signed integer overflow in parse_id_list).  The reader now checks the
 * list itself: node ids 0 to 1023, ranges low-high, at most 256 nodes (what
 * the comparison holds), no longer than the 127 characters kept.
 */
#define HMAT(entry) LAT_HEAD "\"values\": [[1, 2], [3, 4]]}, \"hmat\": [" entry "]}"

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

/* ---- what a file holds and what it is ---- */

static char tmpdir[] = "/tmp/pagehop-parse-XXXXXX";

static int make_tmpdir(void **state)
{
	(void)state;
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int remove_tmpdir(void **state)
{
	char *cmd = xasprintf("rm -rf '%s'", tmpdir);
	int rc = system(cmd);

	(void)state;
	free(cmd);
	return rc;
}

/* tmpdir/name holding len bytes of data; a malloc'd path. */
static char *tmp_file(const char *name, const void *data, size_t len)
{
	char *path = xasprintf("%s/%s", tmpdir, name);
	FILE *f = fopen(path, "we");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
	return path;
}

static void expect_load_error(const char *path, const char *want)
{
	struct ph_input in;
	char err[512] = "";

	assert_int_equal(input_load(path, PH_FIGURE_DEFAULT, &in, err, sizeof(err)), -EINVAL);
	assert_contains(err, want);
	assert_null(strchr(err, '\n'));
	assert_null(in.m);
}

#define B(lit) lit, sizeof(lit) - 1

/*
 * Issue 11: NUL bytes and UTF-16 gave "--input x: Invalid argument"; a
 * control character went through into messages.  Each now names the line
 * and column and what was expected.  A UTF-8 byte-order mark is skipped.
 */
static void test_text_not_text(void **state)
{
	struct ph_input in;
	struct ph_slit *sl;
	char err[512], *p, *q;

	(void)state;
	/* Line 2, "# met" then the NUL: column 6. */
	p = tmp_file("nul.csv", B("# pagehop matrix\n# met\0ric: latency_ns\nnode,0\n0,90\n"));
	q = xasprintf("%s:2: a NUL byte at column 6; expected text (ASCII or UTF-8)", p);
	expect_load_error(p, q);
	free(p);
	free(q);
	p = tmp_file("u16le.csv", B("\xff\xfe#\0 \0m\0"));
	q = xasprintf("%s:1: UTF-16 text (byte-order mark FF FE); expected ASCII or UTF-8: convert it with iconv -f UTF-16 -t UTF-8",
		      p);
	expect_load_error(p, q);
	free(p);
	free(q);
	p = tmp_file("u16be.json", B("\xfe\xff\0{\0}"));
	q = xasprintf("%s:1: UTF-16 text (byte-order mark FE FF)", p);
	expect_load_error(p, q);
	free(p);
	free(q);
	/* Without a byte-order mark, the NUL after '#' says the same. */
	p = tmp_file("u16.csv", B("#\0 \0m\0\n\0"));
	q = xasprintf("%s:1: a NUL byte at column 2; expected text (ASCII or UTF-8); UTF-16? convert it with iconv -f UTF-16 -t UTF-8",
		      p);
	expect_load_error(p, q);
	free(p);
	free(q);
	/* An escape sequence in a comment: "# source: " is 10 columns. */
	p = tmp_file("esc.csv", B("# source: \x1b[31mred\n# metric: latency_ns\nnode,0\n0,90\n"));
	q = xasprintf("%s:1: control character 0x1b at column 11; expected text", p);
	expect_load_error(p, q);
	free(p);
	free(q);
	/* Classic Mac line ends: one line, its first CR at column 21. */
	p = tmp_file("cr.csv", B("# metric: latency_ns\rnode,0\r0,90\r"));
	q = xasprintf("%s:1: a carriage return not followed by a line feed at column 21", p);
	expect_load_error(p, q);
	free(p);
	free(q);
	/* numactl text goes through the same check. */
	p = tmp_file("nul.numactl", B("node distances:\nnode 0\n0: 1\0\n"));
	assert_int_equal(slit_load_numactl(p, &sl, err, sizeof(err)), -EINVAL);
	q = xasprintf("%s:3: a NUL byte at column 5", p);
	assert_contains(err, q);
	assert_null(sl);
	free(p);
	free(q);

	/* A UTF-8 byte-order mark is no character. */
	p = tmp_file("bom.json", B("\xef\xbb\xbf" LAT_HEAD "\"values\": [[1, 2], [3, 4]]}}\n"));
	assert_int_equal(input_load(p, PH_FIGURE_DEFAULT, &in, err, sizeof(err)), 0);
	assert_true(in.json);
	assert_true(in.m->val[3] == 4);
	input_free(&in);
	free(p);
	p = tmp_file("bom.csv", B("\xef\xbb\xbf# pagehop matrix\r\n# metric: latency_ns\r\nnode,0\r\n0,90\r\n"));
	assert_int_equal(input_load(p, PH_FIGURE_DEFAULT, &in, err, sizeof(err)), 0);
	assert_true(in.m->val[0] == 90);
	input_free(&in);
	free(p);
}

/* Run fn with standard input reading len bytes of data written by a child. */
static void with_stdin(const void *data, size_t len, void (*fn)(void))
{
	int fds[2], saved = dup(0), status;
	pid_t pid;

	assert_true(saved >= 0);
	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		const char *b = data;

		close(fds[0]);
		while (len) {
			ssize_t n = write(fds[1], b, len);

			if (n <= 0)
				_exit(0);	/* the reader stopped: fine */
			b += n;
			len -= (size_t)n;
		}
		_exit(0);
	}
	close(fds[1]);
	assert_int_equal(dup2(fds[0], 0), 0);
	close(fds[0]);
	fn();
	assert_int_equal(dup2(saved, 0), 0);
	close(saved);
	assert_int_equal(waitpid(pid, &status, 0), pid);
}

static void load_stdin_ok(void)
{
	struct ph_input in;
	char err[512];

	assert_int_equal(input_load("-", PH_FIGURE_DEFAULT, &in, err, sizeof(err)), 0);
	assert_string_equal(in.path, "<stdin>");
	assert_true(in.m->val[1] == 140);
	input_free(&in);
}

static void load_stdin_big(void)
{
	expect_load_error("-", "--input -: more than 16 MiB; expected a file of at most 16 MiB");
}

static void load_stdin_numactl(void)
{
	struct ph_slit *s;
	char err[512];

	assert_int_equal(slit_load_numactl("-", &s, err, sizeof(err)), 0);
	assert_int_equal(slit_at(s, 0, 1), 21);
	slit_free(s);
}

static void load_stdin_bad(void)
{
	expect_load_error("-", "<stdin>:3: row of node 0 has 1 value; expected 2");
}

static void on_alarm(int sig)
{
	static const char msg[] = "input_load blocked for 5 s\n";

	(void)sig;
	(void)!write(2, msg, sizeof(msg) - 1);
	_exit(1);
}

/*
 * Issue 11: a FIFO blocked forever, a device was read, a 20 MB file
 * passed the 16 MiB cap (the buffer doubled to 32 MiB before the check).
 * Only a regular file is opened, or standard input for "-"; the cap holds
 * by the file's size and by what is read.
 */
static void test_file_kinds_and_cap(void **state)
{
	static const char csv[] = "# metric: latency_ns\nnode,0,1\n0,90,140\n";
	const size_t cap = 16 << 20;
	struct ph_input in;
	char err[512], *p, *q, *big;
	size_t n;

	(void)state;
	/* A FIFO with no writer: refused at once, never waited on. */
	p = xasprintf("%s/fifo", tmpdir);
	assert_int_equal(mkfifo(p, 0600), 0);
	signal(SIGALRM, on_alarm);
	alarm(5);
	q = xasprintf("--input %s: a FIFO; expected a regular file, or - for standard input", p);
	expect_load_error(p, q);
	alarm(0);
	free(p);
	free(q);
	q = xasprintf("--input %s: a directory; expected a regular file", tmpdir);
	expect_load_error(tmpdir, q);
	free(q);
	expect_load_error("/dev/null", "--input /dev/null: a character device; expected a regular file");

	/* Exactly 16 MiB: a matrix, then comment lines of '#', the last ending at the cap. */
	big = xmalloc(cap + (4 << 20));
	memcpy(big, csv, sizeof(csv) - 1);
	for (n = sizeof(csv) - 1; n < cap + (4 << 20); n++)
		big[n] = (n - sizeof(csv) + 1) % 64 == 63 ? '\n' : '#';
	big[cap - 1] = '\n';
	p = tmp_file("16MiB.csv", big, cap);
	assert_int_equal(input_load(p, PH_FIGURE_DEFAULT, &in, err, sizeof(err)), 0);
	assert_true(in.m->val[1] == 140);
	input_free(&in);
	unlink(p);
	free(p);
	/* 20 MB (20,000,000 bytes): refused by its size, before reading. */
	p = tmp_file("20MB.csv", big, 20000000);
	q = xasprintf("--input %s: 20000000 bytes; expected a file of at most 16 MiB", p);
	expect_load_error(p, q);
	unlink(p);
	free(p);
	free(q);

	/* Standard input: what is read counts, as a pipe has no size. */
	with_stdin(csv, sizeof(csv) - 1, load_stdin_ok);
	with_stdin(big, cap + 1, load_stdin_big);
	with_stdin(B("# metric: latency_ns\nnode,0,1\n0,90\n"), load_stdin_bad);
	with_stdin(B("node distances:\nnode 0 1\n0: 10 21\n1: 21 10\n"), load_stdin_numactl);
	free(big);
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
			  PH_FIGURE_DEFAULT, "x.json: latency_ns.metric: \"lat\\x0aency\\x1b[2J\"; expected \"latency_ns\"");
	expect_json_error(HMAT("{\"node\": 0, \"initiators\": \"0\\n1\"}"), PH_FIGURE_DEFAULT,
			  "x.json: hmat[0].initiators: '0\\x0a1'; expected a node list");
	assert_int_equal(input_parse_json("x.json", LAT_HEAD "\"values\": [[1, 2], [3, 4]]}, "
					  "\"provenance\": {\"command_line\": \"pagehop\\u001b[2J matrix\", \"host\": \"h\\r\\n\"}}",
					  PH_FIGURE_DEFAULT, &in, err, sizeof(err)), 0);
	assert_string_equal(in.source, "pagehop?[2J matrix on h?? at ? (pagehop ?)");
	input_free(&in);
}

static void test_figure_parse(void **state)
{
	enum ph_figure f;

	(void)state;
	assert_int_equal(figure_parse("latency", &f), 0);
	assert_int_equal(f, PH_FIGURE_LATENCY);
	assert_int_equal(figure_parse("triad", &f), 0);
	assert_int_equal(f, PH_FIGURE_TRIAD);
	assert_int_equal(figure_parse("copy", &f), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_csv_shared_intel),
		cmocka_unit_test(test_csv_shared_amd),
		cmocka_unit_test(test_csv_forms),
		cmocka_unit_test(test_csv_output_layer_roundtrip),
		cmocka_unit_test(test_csv_errors),
		cmocka_unit_test(test_json_sample),
		cmocka_unit_test(test_json_values),
		cmocka_unit_test(test_json_errors),
		cmocka_unit_test(test_numactl),
		cmocka_unit_test(test_numactl_errors),
		cmocka_unit_test(test_numactl_row_without_colon),
		cmocka_unit_test(test_last_line_without_line_end),
		cmocka_unit_test(test_csv_recorded_slit),
		cmocka_unit_test(test_json_cell_ci),
		cmocka_unit_test(test_json_hmat_bounds),
		cmocka_unit_test(test_text_not_text),
		cmocka_unit_test(test_file_kinds_and_cap),
		cmocka_unit_test(test_json_strings_one_line),
		cmocka_unit_test(test_figure_parse),
	};

	return cmocka_run_group_tests(tests, make_tmpdir, remove_tmpdir);
}
