// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_matrix_doc.c - a measurement reaches "pagehop slit" two ways: on
 * this machine straight from the matrix engine (matrix_input()), or from
 * the JSON "pagehop matrix" writes (matrix_doc(), rendered, then the JSON
 * reader).  Both must give the analysis the same input: the same matrices
 * to the bit, CIs, sample counts, SLIT, HMAT, missed CI targets and
 * provenance line.  The values are given with more digits than the
 * document records, and checked against what the document's digits say by
 * hand, so that neither path is trusted to define the other.
 *
 * Also the per-cell save callback of --save (matrix_save_cell()): a file
 * after every cell, standard output once at the end, nothing over a file
 * when nothing was measured.
 */
#include "unit.h"

#include "matrix.h"
#include "matrix_doc.h"
#include "matrix_save.h"
#include "output.h"
#include "read_json.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const int row_ids[] = { 0, 1 };		/* node 2 has memory only */
static const int col_ids[] = { 0, 1, 2 };
static const int slit3[] = { 10, 21, 31, 21, 10, 31, 31, 31, 10 };

/* Measured-looking medians and CIs: more digits than any document keeps. */
static const double lat[] = { 90.4728, 141.2549, 233.05, 139.95, 89.7, NAN };
static const double bw_read[] = { 34.01234, 18.90567, 9.004999, 17.4449, 33.5, 8.1 };
static const double bw_triad[] = { 30.5555, 16.4444, 7.3333, 15.2222, 29.9999, NAN };

static void fill(struct ph_nmatrix *m, const double *v, struct ph_mx *mx,
		 enum ph_recorded fig, int samples)
{
	for (int k = 0; k < 6; k++) {
		struct ph_mx_cell *cl;

		if (isnan(v[k]))
			continue;
		m->val[k] = v[k];
		m->ci_lo[k] = v[k] * 0.99371;
		m->ci_hi[k] = v[k] * 1.00713;
		m->samples[k] = samples + k;
		cl = &mx->cellv[mx->ncellv++];
		memset(cl, 0, sizeof(*cl));
		cl->row = row_ids[k / 3];
		cl->col = col_ids[k % 3];
		cl->fig = fig;
		cl->st.median = v[k];
		cl->st.ci_lo = m->ci_lo[k];
		cl->st.ci_hi = m->ci_hi[k];
		cl->st.min = v[k] * 0.98;
		cl->st.max = v[k] * 1.02;
		cl->st.n = (size_t)(samples + k);
		/* Two missed CI targets in latency, one in read. */
		cl->ci_met = !((fig == PH_REC_LATENCY && k < 2) || (fig == PH_REC_READ && k == 4));
		if (!cl->ci_met)
			mx->ci_not_met++;
		cl->verified = true;
		snprintf(cl->page_size, sizeof(cl->page_size), "4K");
		snprintf(cl->backend, sizeof(cl->backend), "kmod");
		snprintf(cl->nodes, sizeof(cl->nodes), "%d", cl->col);
		snprintf(cl->cpus, sizeof(cl->cpus), "%d", cl->row);
		cl->threads = 1;
	}
}

static struct ph_options fake_opt;

/* A 2 x 3 matrix as matrix_measure() leaves it, on a machine of 3 nodes. */
static void fake_run(struct ph_mx *mx, struct ph_session *s)
{
	struct ph_hmat *h;

	options_init(&fake_opt, GiB);
	session_init(s, &fake_opt);
	s->m.topo.nnodes = 3;
	s->m.topo.nodes = xcalloc(3, sizeof(*s->m.topo.nodes));
	s->m.topo.distance = xmalloc(sizeof(slit3));
	memcpy(s->m.topo.distance, slit3, sizeof(slit3));
	for (int i = 0; i < 3; i++)
		s->m.topo.nodes[i].id = i;
	s->m.topo.nhmat = 3;
	s->m.topo.hmat = h = xcalloc(3, sizeof(*h));
	h[0] = (struct ph_hmat){ 0, 1, "0", 80, 82, 40960, 38000 };
	h[1] = (struct ph_hmat){ 1, 0, "1", 85, -1, 40000, -1 };
	h[2] = (struct ph_hmat){ 2, 1, "", -1, -1, -1, 9000 };

	memset(mx, 0, sizeof(*mx));
	mx->figures = MX_LATENCY | MX_READ | MX_TRIAD;
	assert_int_equal(chase_parse("random", &mx->pattern), 0);
	mx->lat_size = mx->bw_size = 8 * MiB;
	mx->psize = PH_PS_4K;
	mx->nrows = 2;
	mx->ncols = 3;
	mx->lat = nmatrix_new(PH_METRIC_LATENCY, 2, row_ids, 3, col_ids);
	mx->read = nmatrix_new(PH_METRIC_BANDWIDTH, 2, row_ids, 3, col_ids);
	mx->triad = nmatrix_new(PH_METRIC_BANDWIDTH, 2, row_ids, 3, col_ids);
	mx->cellv = xcalloc(18, sizeof(*mx->cellv));
	fill(mx->lat, lat, mx, PH_REC_LATENCY, 30);
	fill(mx->read, bw_read, mx, PH_REC_READ, 12);
	fill(mx->triad, bw_triad, mx, PH_REC_TRIAD, 20);
	mx->done = mx->total = 6;
	mx->all_verified = true;
	mx->backend = "kmod";
	snprintf(mx->prov.command, sizeof(mx->prov.command), "pagehop slit --size 8M");
	/* A control character, as a host name could hold: both paths say '?'. */
	snprintf(mx->prov.host, sizeof(mx->prov.host), "box\001one");
	snprintf(mx->prov.time_utc, sizeof(mx->prov.time_utc), "2026-01-02T03:04:05Z");
	snprintf(mx->prov.version, sizeof(mx->prov.version), "0.1.0");
	mx->have_prov = true;
}

static void fake_free(struct ph_mx *mx, struct ph_session *s)
{
	free(s->m.topo.nodes);
	free(s->m.topo.distance);
	free(s->m.topo.hmat);
	memset(&s->m.topo, 0, sizeof(s->m.topo));
	matrix_free(mx);
	session_free(s);
	options_free(&fake_opt);
}

/* The document as "pagehop matrix --format json" prints it; malloc'd. */
static char *json_of(const struct ph_mx *mx, struct ph_session *s)
{
	struct ph_doc *doc = matrix_doc(mx, s, false);	/* JSON keeps CPU rows */
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	assert_int_equal(doc_render(doc, PH_FMT_JSON, f), 0);
	assert_int_equal(fclose(f), 0);
	doc_free(doc);
	return text;
}

/* Equal to the bit, or both unknown. */
static void same_double(double a, double b, const char *what, int k)
{
	if (isnan(a) && isnan(b))
		return;
	if (memcmp(&a, &b, sizeof(a)))
		fail_msg("%s[%d]: %.17g from the document, %.17g straight", what, k, a, b);
}

static void same_matrix(const struct ph_nmatrix *a, const struct ph_nmatrix *b)
{
	if (!a || !b) {
		assert_null(a);
		assert_null(b);
		return;
	}
	assert_int_equal(a->metric, b->metric);
	assert_int_equal(a->nrows, b->nrows);
	assert_int_equal(a->ncols, b->ncols);
	assert_memory_equal(a->row_ids, b->row_ids, a->nrows * sizeof(int));
	assert_memory_equal(a->col_ids, b->col_ids, a->ncols * sizeof(int));
	for (int k = 0; k < a->nrows * a->ncols; k++) {
		same_double(a->val[k], b->val[k], "val", k);
		same_double(a->ci_lo[k], b->ci_lo[k], "ci_lo", k);
		same_double(a->ci_hi[k], b->ci_hi[k], "ci_hi", k);
		assert_int_equal(a->samples[k], b->samples[k]);
	}
}

static void same_input(const struct ph_input *a, const struct ph_input *b)
{
	assert_string_equal(a->figure, b->figure);
	assert_string_equal(a->source, b->source);
	assert_true(a->json == b->json);
	same_matrix(a->m, b->m);
	same_matrix(a->latency, b->latency);
	same_matrix(a->read_bw, b->read_bw);
	assert_non_null(a->slit);
	assert_non_null(b->slit);
	assert_int_equal(a->slit->n, b->slit->n);
	assert_memory_equal(a->slit->ids, b->slit->ids, a->slit->n * sizeof(int));
	assert_memory_equal(a->slit->dist, b->slit->dist, a->slit->n * a->slit->n * sizeof(int));
	assert_int_equal(a->nhmat, b->nhmat);
	for (int i = 0; i < a->nhmat; i++) {
		assert_int_equal(a->hmat[i].target, b->hmat[i].target);
		assert_int_equal(a->hmat[i].access, b->hmat[i].access);
		assert_string_equal(a->hmat[i].initiators, b->hmat[i].initiators);
		assert_int_equal(a->hmat[i].read_latency_ns, b->hmat[i].read_latency_ns);
		assert_int_equal(a->hmat[i].write_latency_ns, b->hmat[i].write_latency_ns);
		assert_int_equal(a->hmat[i].read_bandwidth_MiBps, b->hmat[i].read_bandwidth_MiBps);
		assert_int_equal(a->hmat[i].write_bandwidth_MiBps, b->hmat[i].write_bandwidth_MiBps);
	}
	assert_int_equal(a->ci_not_met, b->ci_not_met);
}

static void test_round_trip(void **state)
{
	static const struct {
		enum ph_figure fig;
		const char *key;
		int ci_not_met;
	} figs[] = {
		{ PH_FIGURE_DEFAULT, "latency_ns", 2 },
		{ PH_FIGURE_LATENCY, "latency_ns", 2 },
		{ PH_FIGURE_BANDWIDTH, "bandwidth_read_GBps", 1 },
		{ PH_FIGURE_READ, "bandwidth_read_GBps", 1 },
		{ PH_FIGURE_TRIAD, "bandwidth_triad_GBps", 0 },
	};
	struct ph_session s;
	struct ph_mx mx;
	char err[512], *text;

	(void)state;
	fake_run(&mx, &s);
	text = json_of(&mx, &s);
	for (size_t i = 0; i < ARRAY_SIZE(figs); i++) {
		struct ph_input viajson, direct;

		if (input_parse_json("run.json", text, figs[i].fig, &viajson, err, sizeof(err)))
			fail_msg("the JSON reader refused the document: %s", err);
		assert_int_equal(matrix_input(&mx, &s.m.topo, figs[i].fig, &direct), 0);
		same_input(&viajson, &direct);
		assert_string_equal(direct.figure, figs[i].key);
		assert_int_equal(direct.ci_not_met, figs[i].ci_not_met);
		input_free(&viajson);
		input_free(&direct);
	}
	free(text);
	fake_free(&mx, &s);
}

/* What the analysis gets, worked out from the document's digits by hand. */
static void test_as_recorded(void **state)
{
	struct ph_session s;
	struct ph_mx mx;
	struct ph_input in;

	(void)state;
	fake_run(&mx, &s);
	assert_int_equal(matrix_input(&mx, &s.m.topo, PH_FIGURE_DEFAULT, &in), 0);
	/* Latency to 0.1 ns, its CI to 0.01 ns: 90.4728 x 0.99371 = 89.9037.. */
	assert_true(in.m->val[0] == 90.5);
	assert_true(in.m->ci_lo[0] == 89.90);
	assert_true(in.m->ci_hi[0] == 91.12);
	assert_true(in.m->val[2] == 233.1);	/* 233.05 is 233.05000000000001 */
	assert_true(isnan(in.m->val[5]) && isnan(in.m->ci_lo[5]));
	assert_int_equal(in.m->samples[1], 31);
	assert_int_equal(in.m->samples[5], 0);
	/* Bandwidth to 0.01 GB/s, its CI to 0.001 GB/s. */
	assert_true(in.read_bw->val[0] == 34.01);
	assert_true(in.read_bw->val[2] == 9.0);	/* 9.004999 */
	assert_true(in.read_bw->ci_hi[0] == 34.255);	/* 34.01234 x 1.00713 = 34.2548.. */
	assert_true(in.latency->val[0] == 90.5);
	assert_string_equal(in.figure, "latency_ns");
	assert_string_equal(in.source, "pagehop slit --size 8M on box?one at 2026-01-02T03:04:05Z (pagehop 0.1.0)");
	assert_int_equal(in.ci_not_met, 2);
	assert_int_equal(in.slit->n, 3);
	assert_memory_equal(in.slit->dist, slit3, sizeof(slit3));
	assert_int_equal(in.nhmat, 3);
	assert_int_equal(in.hmat[1].write_latency_ns, -1);
	assert_int_equal(in.hmat[2].write_bandwidth_MiBps, 9000);
	assert_string_equal(in.hmat[2].initiators, "");
	input_free(&in);
	/* The triad was measured but only the analysed figure is kept beside latency and read. */
	assert_int_equal(matrix_input(&mx, &s.m.topo, PH_FIGURE_TRIAD, &in), 0);
	assert_true(in.m->val[0] == 30.56);
	assert_true(in.latency->val[0] == 90.5);
	assert_true(in.read_bw->val[0] == 34.01);
	input_free(&in);
	/* A normalised matrix is not what a measurement is. */
	assert_int_equal(matrix_input(&mx, &s.m.topo, PH_FIGURE_DISTANCE, &in), -EINVAL);
	fake_free(&mx, &s);
}

/* Without latency, the default is read bandwidth; a figure not measured is refused. */
static void test_figures_measured(void **state)
{
	struct ph_session s;
	struct ph_mx mx;
	struct ph_input in;
	char err[512], *text;

	(void)state;
	fake_run(&mx, &s);
	nmatrix_free(mx.lat);
	nmatrix_free(mx.triad);
	mx.lat = mx.triad = NULL;
	mx.figures = MX_READ;
	assert_int_equal(matrix_input(&mx, &s.m.topo, PH_FIGURE_DEFAULT, &in), 0);
	assert_string_equal(in.figure, "bandwidth_read_GBps");
	assert_null(in.latency);
	input_free(&in);
	assert_int_equal(matrix_input(&mx, &s.m.topo, PH_FIGURE_TRIAD, &in), -EINVAL);
	assert_int_equal(matrix_input(&mx, &s.m.topo, PH_FIGURE_LATENCY, &in), -EINVAL);
	text = json_of(&mx, &s);
	assert_int_equal(input_parse_json("run.json", text, PH_FIGURE_TRIAD, &in, err, sizeof(err)), -EINVAL);
	free(text);
	fake_free(&mx, &s);
}

/* ---- --save through the per-cell callback ---- */

static char tmpdir[] = "/tmp/pagehop-mxdoc-XXXXXX";

static int make_tmpdir(void **state)
{
	(void)state;
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int remove_tmpdir(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	return system(cmd) ? -1 : 0;
}

static long file_size(const char *path)
{
	FILE *f = fopen(path, "r");
	long n;

	if (!f)
		return -1;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fclose(f);
	return n;
}

static void test_save_callback(void **state)
{
	struct ph_session s;
	struct ph_mx mx;
	struct ph_mx_save sv = { 0 };
	struct ph_input in;
	char path[128], err[512], *buf;
	FILE *f;
	long n;

	(void)state;
	fake_run(&mx, &s);
	snprintf(path, sizeof(path), "%s/m.json", tmpdir);
	sv.path = path;
	sv.s = &s;
	/* After a cell: the whole document, which the reader takes back. */
	assert_int_equal(matrix_save_cell(&sv, &mx, false, 0), 0);
	n = file_size(path);
	assert_true(n > 0);
	buf = xcalloc(1, (size_t)n + 1);
	f = fopen(path, "r");
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	assert_int_equal(input_parse_json(path, buf, PH_FIGURE_DEFAULT, &in, err, sizeof(err)), 0);
	assert_int_equal(in.m->nrows, 2);
	input_free(&in);
	free(buf);
	/* At the end of a run that went well the last cell's file stands. */
	assert_int_equal(unlink(path), 0);
	assert_int_equal(matrix_save_cell(&sv, &mx, true, 0), 0);
	assert_int_equal(file_size(path), -1);
	/* Cut short (a failed cell or a signal): written again, with what there is. */
	assert_int_equal(matrix_save_cell(&sv, &mx, true, PH_EXIT_FAIL), 0);
	assert_true(file_size(path) > 0);
	/* Nothing measured: an existing file is left as it was. */
	mx.ncellv = 0;
	assert_int_equal(unlink(path), 0);
	f = fopen(path, "w");
	fputs("old\n", f);
	fclose(f);
	assert_int_equal(matrix_save_cell(&sv, &mx, true, PH_EXIT_FAIL), 0);
	assert_int_equal(file_size(path), 4);
	/* A file that cannot be written stops the run, and is not tried again. */
	snprintf(path, sizeof(path), "%s/none/m.json", tmpdir);
	mx.ncellv = 6;
	assert_int_equal(matrix_save_cell(&sv, &mx, false, 0), PH_EXIT_FAIL);
	assert_true(sv.failed);
	assert_int_equal(matrix_save_cell(&sv, &mx, true, PH_EXIT_FAIL), 0);
	fake_free(&mx, &s);
}

/* "-": one document on standard output, at the end only. */
static void test_save_stdout(void **state)
{
	struct ph_session s;
	struct ph_mx mx;
	struct ph_mx_save sv = { 0 };
	char path[128];
	int out = dup(1), fd;

	(void)state;
	fake_run(&mx, &s);
	snprintf(path, sizeof(path), "%s/stdout", tmpdir);
	sv.path = "-";
	sv.s = &s;
	fflush(stdout);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	dup2(fd, 1);
	close(fd);
	assert_int_equal(matrix_save_cell(&sv, &mx, false, 0), 0);
	fflush(stdout);
	assert_int_equal(file_size(path), 0);
	assert_int_equal(matrix_save_cell(&sv, &mx, true, 0), 0);
	fflush(stdout);
	dup2(out, 1);
	close(out);
	assert_true(file_size(path) > 100);
	fake_free(&mx, &s);
}

/* The block of the table output titled title: its header and rows, each
 * with its runs of blanks squeezed to one ("node 0 1", "2: 9.00 8.10"). */
static void table_block(const char *text, const char *title, char lines[5][96])
{
	const char *p = strstr(text, title);

	assert_non_null(p);
	p = strchr(p, '\n') + 1;
	for (int i = 0; i < 5; i++) {
		int k = 0;

		while (*p == ' ')
			p++;
		for (; *p && *p != '\n' && k < 95; p++)
			if (*p != ' ' || (k && lines[i][k - 1] != ' '))
				lines[i][k++] = *p;
		lines[i][k] = '\0';
		p += *p == '\n';
	}
}

/*
 * --orientation mem-rows: the table's matrices with rows = memory node,
 * each value where the hand-transposed matrix puts it; JSON keeps CPU rows.
 */
static void test_orientation(void **state)
{
	struct ph_session s;
	struct ph_mx mx;
	char *text = NULL, lines[5][96];
	size_t len = 0;
	struct ph_doc *doc;
	FILE *f;

	(void)state;
	fake_run(&mx, &s);
	mx.orient = PH_ORIENT_MEM_ROWS;
	doc = matrix_doc(&mx, &s, true);
	f = open_memstream(&text, &len);
	assert_int_equal(doc_render(doc, PH_FMT_TABLE, f), 0);
	assert_int_equal(fclose(f), 0);
	doc_free(doc);
	/* read: CPU rows { 34.01 18.91 9.00 | 17.44 33.50 8.10 }, printed
	 * with rows = memory node 0, 1, 2 and columns = CPU node 0, 1. */
	table_block(text, "read bandwidth, GB/s (median); rows = memory node:", lines);
	assert_string_equal(lines[0], "node 0 1");
	assert_string_equal(lines[1], "0: 34.01 17.44");
	assert_string_equal(lines[2], "1: 18.91 33.50");
	assert_string_equal(lines[3], "2: 9.00 8.10");
	assert_non_null(strstr(text, "rows = memory node (table and CSV only)"));
	free(text);
	/* JSON: rows are the CPU nodes, as slit --input reads them. */
	text = json_of(&mx, &s);
	assert_null(strstr(text, "rows = memory node"));
	{
		/* Row 0 (34.01, 18.91, 9.00) before row 1 (17.44, ...); rows =
		 * memory node would put 17.44 second. */
		const char *m = strstr(text, "\"bandwidth_read_GBps\": {");

		assert_non_null(m);
		assert_true(strstr(m, "18.91") < strstr(m, "17.44"));
	}
	free(text);
	fake_free(&mx, &s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_orientation),
		cmocka_unit_test(test_as_recorded),
		cmocka_unit_test(test_figures_measured),
		cmocka_unit_test(test_save_callback),
		cmocka_unit_test(test_save_stdout),
	};

	ph_set_progname("pagehop matrix");
	return cmocka_run_group_tests(tests, make_tmpdir, remove_tmpdir);
}
