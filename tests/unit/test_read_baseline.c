// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_read_baseline.c - baseline documents read into the health model,
 * refusals of what cannot be a reference (no CI, no model key, another
 * command's document, bad tolerances).
 */
#include "unit.h"
#include "read_baseline.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define DOC(figs) \
	"{\"provenance\": {\"subcommand\": \"baseline\"}," \
	" \"identity\": {\"model_key\": \"cpu=X;sockets=1;nodes=2;node0=4x2;node1=4x2\"}," \
	" \"settings\": {\"thp_enabled\": \"madvise\", \"numa_balancing\": \"1\"}," \
	" \"nodes\": [{\"node\": 0, \"ncpus\": 8}, {\"node\": 1, \"ncpus\": 8}]," \
	" \"figures\": [" figs "]}"

static void test_parse_good(void **state)
{
	struct ph_hset s;
	char err[256];
	const struct ph_hfig *f;

	(void)state;
	assert_int_equal(baseline_parse("b.json", DOC(
		"{\"figure\": \"bandwidth_triad\", \"node\": 1, \"mem_node\": 1, \"value\": 54.3, \"unit\": \"GB/s\","
		" \"ci_lo\": 54.0, \"ci_hi\": 54.6, \"lower\": -0.1, \"upper\": null},"
		"{\"figure\": \"latency_hop1\", \"node\": 0, \"mem_node\": 1, \"value\": 140, \"unit\": \"ns\","
		" \"ci_lo\": 139, \"ci_hi\": 141}"), &s, err, sizeof(err)), 0);
	assert_string_equal(s.model, "cpu=X;sockets=1;nodes=2;node0=4x2;node1=4x2");
	assert_int_equal(s.nfigs, 2);
	f = hset_find(&s, "bandwidth_triad", 1, 1);
	assert_non_null(f);
	assert_true(f->tol_set);
	assert_true(fabs(f->tol.lower + 0.1) < 1e-12 && isnan(f->tol.upper));
	f = hset_find(&s, "latency_hop1", 0, 1);
	assert_non_null(f);
	assert_false(f->tol_set);
	assert_true(f->ci_lo == 139 && f->ci_hi == 141);
	assert_string_equal(hset_setting(&s, "numa_balancing"), "1");
	assert_int_equal(s.nnodes, 2);
	assert_int_equal(s.nodes[1].ncpus, 8);
	hset_free(&s);
}

static void test_parse_refused(void **state)
{
	static const struct {
		const char *text, *err;
	} cases[] = {
		{ DOC("{\"figure\": \"latency_4k\", \"node\": 0, \"value\": 90, \"ci_lo\": 89}"),
		  "b.json: figure latency_4k (row 1) has no CI: a reference must carry one" },
		{ DOC("{\"figure\": \"latency_4k\", \"node\": 0, \"value\": 90, \"ci_lo\": 91, \"ci_hi\": 89}"),
		  "b.json: figure latency_4k (row 1) has no CI: a reference must carry one" },
		{ DOC("{\"figure\": \"latency_4k\", \"node\": 0, \"value\": 90, \"ci_lo\": 89, \"ci_hi\": 91, \"lower\": 0.2}"),
		  "b.json: figure latency_4k (row 1): lower must be in [-1, 0] and upper >= 0, or null" },
		{ DOC("{\"node\": 0, \"value\": 90}"), "b.json: figures row 1 lacks a figure name, node or value" },
		{ DOC(""), "b.json: no figures" },
		{ "{\"provenance\": {\"subcommand\": \"matrix\"}}", "b.json: not a pagehop baseline or check document" },
		{ "{\"provenance\": {\"subcommand\": \"check\"}, \"figures\": []}", "b.json: no identity.model_key" },
		{ "[1, 2", "b.json: not JSON: unexpected end of data" },
		{ "null", "b.json: a JSON null, not a pagehop baseline or check document" },
	};
	struct ph_hset s;
	char err[256];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(baseline_parse("b.json", cases[i].text, &s, err, sizeof(err)), -EINVAL);
		assert_string_equal(err, cases[i].err);
	}
}

static void test_load_dir(void **state)
{
	char *dir = ph_tmp_template("unit"), path[512], err[1024];
	struct ph_hset *sets;
	int n;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(baseline_load(dir, &sets, &n, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "no baseline in the directory"));
	snprintf(path, sizeof(path), "%s/bad.json", dir);
	f = fopen(path, "w");
	fputs("{", f);
	fclose(f);
	assert_int_equal(baseline_load(dir, &sets, &n, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "bad.json: not JSON"));
	snprintf(path, sizeof(path), "%s/good.json", dir);
	f = fopen(path, "w");
	fputs(DOC("{\"figure\": \"mem_total\", \"node\": 0, \"value\": 16, \"ci_lo\": 16, \"ci_hi\": 16}"), f);
	fclose(f);
	assert_int_equal(baseline_load(dir, &sets, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	assert_int_equal(sets[0].figs[0].mem_node, 0);	/* absent: the node itself */
	baseline_free(sets, n);
	unlink(path);
	snprintf(path, sizeof(path), "%s/bad.json", dir);
	unlink(path);
	rmdir(dir);
	free(dir);
}

/* A document of DOC's shape made at time_utc t (NULL: no time stamp). */
static void write_doc(const char *path, const char *t)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fprintf(f, "{\"provenance\": {\"subcommand\": \"baseline\"%s%s%s},"
		" \"identity\": {\"model_key\": \"cpu=X;nodes=1\"},"
		" \"figures\": [{\"figure\": \"mem_total\", \"node\": 0, \"value\": 16, \"ci_lo\": 16, \"ci_hi\": 16}]}",
		t ? ", \"time_utc\": \"" : "", t ? t : "", t ? "\"" : "");
	fclose(f);
}

static void test_load_stamps_notes_cap(void **state)
{
	char *dir = ph_tmp_template("unit"), a[512], b[512], c[512], err[1024], **notes = NULL;
	struct ph_hset *sets;
	int n, nnotes = 0;
	struct timespec ts[2] = { { .tv_sec = 1000000000 }, { .tv_sec = 1000000000 } };
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(a, sizeof(a), "%s/a.json", dir);
	snprintf(b, sizeof(b), "%s/b.json", dir);
	snprintf(c, sizeof(c), "%s/c.json", dir);
	/* 2026-01-02T03:04:05Z is 1767322800 + 3 h 4 min 5 s = 1767323045 s (date -d) */
	write_doc(a, "2026-01-02T03:04:05Z");
	write_doc(b, NULL);
	assert_int_equal(utimensat(AT_FDCWD, b, ts, 0), 0);
	f = fopen(c, "w");
	fputs("{\"provenance\": {\"subcommand\": \"matrix\"}}", f);
	fclose(f);
	assert_int_equal(baseline_load_noted(dir, &sets, &n, &notes, &nnotes, err, sizeof(err)), 0);
	assert_int_equal(n, 2);
	assert_string_equal(sets[0].source, a);
	assert_true(sets[0].stamp_from_doc);
	assert_true(sets[0].stamp == 1767323045.0);
	/* no time stamp of its own: the file's mtime */
	assert_false(sets[1].stamp_from_doc);
	assert_true(sets[1].stamp == 1000000000.0);
	/* the document that is not a baseline is named, not skipped in silence */
	assert_int_equal(nnotes, 1);
	assert_non_null(strstr(notes[0], "not a baseline: "));
	assert_non_null(strstr(notes[0], "c.json: not a pagehop baseline or check document"));
	free(notes[0]);
	free(notes);
	baseline_free(sets, n);
	/* over the 16 MiB of every input reader: refused, with the cap */
	f = fopen(c, "w");
	assert_int_equal(ftruncate(fileno(f), 16 * 1024 * 1024 + 1), 0);
	fclose(f);
	assert_int_equal(baseline_load(c, &sets, &n, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "16777217 bytes; a baseline is at most 16 MiB"));
	unlink(a);
	unlink(b);
	unlink(c);
	rmdir(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_good),
		cmocka_unit_test(test_parse_refused),
		cmocka_unit_test(test_load_dir),
		cmocka_unit_test(test_load_stamps_notes_cap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
