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
	"{\"provenance\": {\"tool\": \"pagehop\", \"version\": \"0.1.0\", \"subcommand\": \"baseline\"}," \
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
		{ DOC("{\"figure\": \"latency_4k\", \"node\": 0, \"value\": 90, \"unit\": \"ns\", \"ci_lo\": 89}"),
		  "b.json: figure latency_4k (row 1) has no CI: a reference must carry one" },
		{ DOC("{\"figure\": \"latency_4k\", \"node\": 0, \"value\": 90, \"unit\": \"ns\", \"ci_lo\": 91, \"ci_hi\": 89}"),
		  "b.json: figure latency_4k (row 1) has no CI: a reference must carry one" },
		{ DOC("{\"figure\": \"latency_4k\", \"node\": 0, \"value\": 90, \"unit\": \"ns\", \"ci_lo\": 89, \"ci_hi\": 91, \"lower\": 0.2}"),
		  "b.json: figure latency_4k (row 1): lower must be in [-1, 0] and upper >= 0, or null" },
		{ DOC("{\"node\": 0, \"value\": 90}"), "b.json: figures row 1 lacks a figure name, node or value" },
		{ DOC(""), "b.json: no figures" },
		{ "{\"provenance\": {\"subcommand\": \"matrix\"}}", "b.json: not a pagehop baseline or check document" },
		{ "{\"provenance\": {\"tool\": \"pagehop\", \"subcommand\": \"check\"}, \"figures\": []}", "b.json: no identity.model_key" },
		{ "[1, 2", "b.json: not JSON: line 1: the JSON ends early; expected one JSON object as pagehop baseline or check --format json writes it" },
		{ "null", "b.json: a JSON null, not a pagehop baseline or check document" },
		/* Strict JSON, the line where it went wrong. */
		{ DOC("") " x", "b.json: not JSON: line 1: text after the JSON object; expected one JSON object as pagehop baseline or check --format json writes it" },
		{ "{\n/* c */}", "b.json: not JSON: line 2: quoted object property name expected; expected one JSON object as pagehop baseline or check --format json writes it" },
		{ "{\n\n'provenance': {}}", "b.json: not JSON: line 3: a single quote outside a string; JSON quotes with '\"' only; expected one JSON object as pagehop baseline or check --format json writes it" },
		/* Provenance: pagehop's, of this version. */
		{ "{\"provenance\": {\"tool\": \"other\", \"subcommand\": \"baseline\"}}",
		  "b.json: provenance.tool: 'other'; expected \"pagehop\"" },
		{ "{\"provenance\": {\"subcommand\": \"baseline\"}}", "b.json: provenance.tool: none; expected \"pagehop\"" },
		{ "{\"provenance\": {\"tool\": \"pagehop\", \"version\": \"99.0\", \"subcommand\": \"baseline\"}}",
		  "b.json: provenance.version: '99.0'; expected this pagehop's release, 0.1.0, or an earlier one" },
		/* An earlier release's baseline passes the version (and fails later, here for its key). */
		{ "{\"provenance\": {\"tool\": \"pagehop\", \"version\": \"0.0.9\", \"subcommand\": \"baseline\"}}",
		  "b.json: no identity.model_key" },
		{ "{\"provenance\": {\"tool\": \"pagehop\", \"version\": 0.1, \"subcommand\": \"baseline\"}}",
		  "b.json: provenance.version: not a string; expected this pagehop's release, 0.1.0, or an earlier one" },
		/* Figures pagehop measures, with their units and kinds. */
		{ DOC("{\"figure\": \"latency_9k\", \"node\": 0, \"value\": 90, \"unit\": \"ns\", \"ci_lo\": 89, \"ci_hi\": 91}"),
		  "b.json: figures[0].figure: 'latency_9k'; expected a figure pagehop measures (latency_4k, latency_2m, latency_hopN, bandwidth_triad, bandwidth_read, bandwidth_read_hopN, mem_total, hugepages_2m, hugepages_1g, tail_pP_ of a latency figure)" },
		{ DOC("{\"figure\": \"latency_hop0\", \"node\": 0, \"value\": 90, \"unit\": \"ns\", \"ci_lo\": 89, \"ci_hi\": 91}"),
		  "b.json: figures[0].figure: 'latency_hop0'; expected a figure pagehop measures (latency_4k, latency_2m, latency_hopN, bandwidth_triad, bandwidth_read, bandwidth_read_hopN, mem_total, hugepages_2m, hugepages_1g, tail_pP_ of a latency figure)" },
		/* a tail: above 50, as %g writes it, of a latency figure */
		{ DOC("{\"figure\": \"tail_p50_latency_4k\", \"node\": 0, \"value\": 90, \"unit\": \"ns\", \"ci_lo\": 89, \"ci_hi\": 91}"),
		  "b.json: figures[0].figure: 'tail_p50_latency_4k'; expected a figure pagehop measures (latency_4k, latency_2m, latency_hopN, bandwidth_triad, bandwidth_read, bandwidth_read_hopN, mem_total, hugepages_2m, hugepages_1g, tail_pP_ of a latency figure)" },
		/* a tail: above 50, as %g writes it, of a latency figure */
		{ DOC("{\"figure\": \"tail_p99_bandwidth_read\", \"node\": 0, \"value\": 90, \"unit\": \"ns\", \"ci_lo\": 89, \"ci_hi\": 91}"),
		  "b.json: figures[0].figure: 'tail_p99_bandwidth_read'; expected a figure pagehop measures (latency_4k, latency_2m, latency_hopN, bandwidth_triad, bandwidth_read, bandwidth_read_hopN, mem_total, hugepages_2m, hugepages_1g, tail_pP_ of a latency figure)" },
		/* a tail: above 50, as %g writes it, of a latency figure */
		{ DOC("{\"figure\": \"tail_p099_latency_4k\", \"node\": 0, \"value\": 90, \"unit\": \"ns\", \"ci_lo\": 89, \"ci_hi\": 91}"),
		  "b.json: figures[0].figure: 'tail_p099_latency_4k'; expected a figure pagehop measures (latency_4k, latency_2m, latency_hopN, bandwidth_triad, bandwidth_read, bandwidth_read_hopN, mem_total, hugepages_2m, hugepages_1g, tail_pP_ of a latency figure)" },
		/* a tail: above 50, as %g writes it, of a latency figure */
		{ DOC("{\"figure\": \"tail_p99_latency_9k\", \"node\": 0, \"value\": 90, \"unit\": \"ns\", \"ci_lo\": 89, \"ci_hi\": 91}"),
		  "b.json: figures[0].figure: 'tail_p99_latency_9k'; expected a figure pagehop measures (latency_4k, latency_2m, latency_hopN, bandwidth_triad, bandwidth_read, bandwidth_read_hopN, mem_total, hugepages_2m, hugepages_1g, tail_pP_ of a latency figure)" },
		/* a tail: above 50, as %g writes it, of a latency figure */
		{ DOC("{\"figure\": \"tail_p99latency_4k\", \"node\": 0, \"value\": 90, \"unit\": \"ns\", \"ci_lo\": 89, \"ci_hi\": 91}"),
		  "b.json: figures[0].figure: 'tail_p99latency_4k'; expected a figure pagehop measures (latency_4k, latency_2m, latency_hopN, bandwidth_triad, bandwidth_read, bandwidth_read_hopN, mem_total, hugepages_2m, hugepages_1g, tail_pP_ of a latency figure)" },
		{ DOC("{\"figure\": \"tail_p99.9_latency_hop2\", \"kind\": \"latency\", \"node\": 0, \"value\": 90, \"unit\": \"ns\", \"ci_lo\": 89, \"ci_hi\": 91}"),
		  "b.json: figures[0].kind: 'latency'; expected \"tail\" for tail_p99.9_latency_hop2" },
		{ DOC("{\"figure\": \"latency_4k\", \"node\": 0, \"value\": 90, \"unit\": \"us\", \"ci_lo\": 89, \"ci_hi\": 91}"),
		  "b.json: figures[0].unit: 'us'; expected \"ns\" for latency_4k" },
		{ DOC("{\"figure\": \"mem_total\", \"node\": 0, \"value\": 16, \"ci_lo\": 16, \"ci_hi\": 16}"),
		  "b.json: figures[0].unit: none; expected \"GiB\" for mem_total" },
		{ DOC("{\"figure\": \"latency_4k\", \"kind\": \"bandwidth\", \"node\": 0, \"value\": 90, \"unit\": \"ns\", \"ci_lo\": 89, \"ci_hi\": 91}"),
		  "b.json: figures[0].kind: 'bandwidth'; expected \"latency\" for latency_4k" },
		/* A reference that would be divided by: positive, not subnormal. */
		{ DOC("{\"figure\": \"latency_4k\", \"node\": 0, \"value\": 0, \"unit\": \"ns\", \"ci_lo\": 0, \"ci_hi\": 0}"),
		  "b.json: figures[0].value: 0 ns; expected a positive number for latency_4k, a reference figures are divided by" },
		{ DOC("{\"figure\": \"bandwidth_read\", \"node\": 0, \"value\": 1e-320, \"unit\": \"GB/s\", \"ci_lo\": 0, \"ci_hi\": 1e-310}"),
		  "b.json: figures[0].value: 9.99989e-321 GB/s; expected a positive number for bandwidth_read, a reference figures are divided by" },
		{ DOC("{\"figure\": \"latency_hop1\", \"node\": 0, \"mem_node\": 1, \"value\": 5e-324, \"unit\": \"ns\", \"ci_lo\": 0, \"ci_hi\": 1}"),
		  "b.json: figures[0].value: 4.94066e-324 ns; expected a positive number for latency_hop1, a reference figures are divided by" },
		{ DOC("{\"figure\": \"latency_4k\", \"node\": 0, \"value\": 1"
		      "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
		      "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
		      "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
		      "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
		      ", \"unit\": \"ns\", \"ci_lo\": 89, \"ci_hi\": 91}"),
		  "b.json: not JSON: line 1: column 338: the number 100000000000000000000000... is beyond what a double holds; expected one JSON object as pagehop baseline or check --format json writes it" },
		/* A double, but an integer json-c saturates. */
		{ DOC("{\"figure\": \"latency_4k\", \"node\": 0, \"value\": 100000000000000000000000000000"
		      ", \"unit\": \"ns\", \"ci_lo\": 89, \"ci_hi\": 91}"),
		  "b.json: figures[0].value: expected a number" },
		{ DOC("{\"figure\": \"hugepages_2m\", \"node\": 0, \"value\": 0.5, \"unit\": \"bool\", \"ci_lo\": 0.5, \"ci_hi\": 0.5}"),
		  "b.json: figures[0].value: 0.5; expected 0 or 1 for hugepages_2m (cannot or can be had)" },
		/* Node ids: integers 0..1023, mem_node not null. */
		{ DOC("{\"figure\": \"latency_4k\", \"node\": -1, \"value\": 90, \"unit\": \"ns\", \"ci_lo\": 89, \"ci_hi\": 91}"),
		  "b.json: figures[0].node: expected a node id, 0 to 1023" },
		{ DOC("{\"figure\": \"latency_4k\", \"node\": 1.5, \"value\": 90, \"unit\": \"ns\", \"ci_lo\": 89, \"ci_hi\": 91}"),
		  "b.json: figures[0].node: expected a node id, 0 to 1023" },
		{ DOC("{\"figure\": \"latency_4k\", \"node\": 1e20, \"value\": 90, \"unit\": \"ns\", \"ci_lo\": 89, \"ci_hi\": 91}"),
		  "b.json: figures[0].node: expected a node id, 0 to 1023" },
		{ DOC("{\"figure\": \"latency_4k\", \"node\": 2147483648, \"value\": 90, \"unit\": \"ns\", \"ci_lo\": 89, \"ci_hi\": 91}"),
		  "b.json: figures[0].node: expected a node id, 0 to 1023" },
		{ DOC("{\"figure\": \"latency_4k\", \"node\": 99999, \"value\": 90, \"unit\": \"ns\", \"ci_lo\": 89, \"ci_hi\": 91}"),
		  "b.json: figures[0].node: expected a node id, 0 to 1023" },
		{ DOC("{\"figure\": \"latency_hop1\", \"node\": 0, \"mem_node\": null, \"value\": 90, \"unit\": \"ns\", \"ci_lo\": 89, \"ci_hi\": 91}"),
		  "b.json: figures[0].mem_node: expected a node id, 0 to 1023" },
		/* The CI: non-negative, holding the value. */
		{ DOC("{\"figure\": \"latency_4k\", \"node\": 0, \"value\": 90, \"unit\": \"ns\", \"ci_lo\": -5, \"ci_hi\": 91}"),
		  "b.json: figures[0]: latency_4k 90 outside its CI [-5, 91]; expected 0 <= ci_lo <= value <= ci_hi" },
		{ DOC("{\"figure\": \"latency_4k\", \"node\": 0, \"value\": 90, \"unit\": \"ns\", \"ci_lo\": 91.5, \"ci_hi\": 95}"),
		  "b.json: figures[0]: latency_4k 90 outside its CI [91.5, 95]; expected 0 <= ci_lo <= value <= ci_hi" },
		{ DOC("{\"figure\": \"latency_4k\", \"node\": 0, \"value\": 90, \"unit\": \"ns\", \"ci_lo\": 89, \"ci_hi\": 91, \"rep_lo\": 95, \"rep_hi\": 94}"),
		  "b.json: figures[0]: expected rep_lo and rep_hi, 0 <= rep_lo <= rep_hi, or both null" },
		{ DOC("{\"figure\": \"latency_4k\", \"node\": 0, \"value\": 90, \"unit\": \"ns\", \"ci_lo\": 89, \"ci_hi\": 91, \"rep_lo\": 85, \"rep_hi\": 94, \"repeats\": 0}"),
		  "b.json: figures[0].repeats: expected a count, 1 to 1000, or null" },
		/* One figure twice. */
		{ DOC("{\"figure\": \"latency_4k\", \"node\": 0, \"value\": 90, \"unit\": \"ns\", \"ci_lo\": 89, \"ci_hi\": 91},"
		      "{\"figure\": \"latency_4k\", \"node\": 0, \"mem_node\": 0, \"value\": 900, \"unit\": \"ns\", \"ci_lo\": 890, \"ci_hi\": 910}"),
		  "b.json: figures[1]: latency_4k of node 0 to 0 twice; expected each figure once" },
		{ "{\"provenance\": {\"tool\": \"pagehop\", \"subcommand\": \"baseline\"}, \"identity\": {\"model_key\": \"k\"},"
		  " \"nodes\": [{\"node\": -1, \"ncpus\": 2}],"
		  " \"figures\": [{\"figure\": \"mem_total\", \"node\": 0, \"value\": 16, \"unit\": \"GiB\", \"ci_lo\": 16, \"ci_hi\": 16}]}",
		  "b.json: nodes[0]: expected node, a node id 0 to 1023, and ncpus, a count" },
	};
	struct ph_hset s;
	char err[512];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (baseline_parse("b.json", cases[i].text, &s, err, sizeof(err)) != -EINVAL)
			fail_msg("case %zu accepted: %s", i, cases[i].text);
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
	fputs(DOC("{\"figure\": \"mem_total\", \"node\": 0, \"value\": 16, \"unit\": \"GiB\", \"ci_lo\": 16, \"ci_hi\": 16}"), f);
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
	fprintf(f, "{\"provenance\": {\"tool\": \"pagehop\", \"subcommand\": \"baseline\"%s%s%s},"
		" \"identity\": {\"model_key\": \"cpu=X;nodes=1\"},"
		" \"figures\": [{\"figure\": \"mem_total\", \"node\": 0, \"value\": 16, \"unit\": \"GiB\", \"ci_lo\": 16, \"ci_hi\": 16}]}",
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
