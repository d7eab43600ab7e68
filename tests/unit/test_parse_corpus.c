// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_parse_corpus.c - every sample under tests/data (slit/, shared/,
 * golden/, hmat/ and the hand-made bad/) through the parsers of "pagehop
 * slit" (text inputs, SLIT, and the binary HMAT of --hmat-table) and the
 * baseline reader of "pagehop check" and "pagehop compare", and the
 * reader of "pagehop report" (any document),
 * cut at every byte and with bytes changed, in process: thousands of
 * inputs a second, where the real command would take a run each.  Built
 * with ASan+UBSan by 'make unit-asan', where any memory error, undefined
 * behaviour or leak ends the program.  Run from the tree's root.
 *
 * What each result must be is decided here, not by the parsers: 0 or
 * -EINVAL; an error is one line that starts with the input's name, and
 * leaves nothing behind; a success holds a sane matrix or SLIT.  A cut CSV
 * or numactl text whose last line has no line end, and a cut JSON
 * document without its closing brace, must fail.  The whole samples must
 * parse as the table below says, and every bad/ file must be refused.
 */
#include "unit.h"

#include "acpi_hmat.h"
#include "read_baseline.h"
#include "read_csv.h"
#include "read_input.h"
#include "read_json.h"
#include "read_numactl.h"
#include "readfile.h"
#include "report.h"
#include "util.h"
#include "version.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const dirs[] = {
	"tests/data/slit", "tests/data/shared", "tests/data/golden", "tests/data/hmat",
	"tests/data/bad",
};

/* A saved check document, the baseline reader's sample. */
static const char baseline_sample[] = "tests/data/compare/host01.json";

/* The whole samples that parse, and with which parser. */
static const struct {
	const char *path;
	bool input, slit, hmat, baseline;
} good[] = {
	{ baseline_sample, false, false, false, true },
	{ "tests/data/slit/matrix-2node.json", true, false, false, false },
	{ "tests/data/slit/matrix-4node-cxl.json", true, false, false, false },
	{ "tests/data/slit/flat-4node.matrix.csv", true, false, false, false },
	{ "tests/data/slit/slit-10-11.numactl.txt", false, true, false, false },
	{ "tests/data/slit/slit-10-16-22.numactl.txt", false, true, false, false },
	{ "tests/data/shared/amd-6220-4node.matrix.csv", true, false, false, false },
	{ "tests/data/shared/intel-e5-2643-2node.matrix.csv", true, false, false, false },
	{ "tests/data/shared/amd-6220-4node.numactl.txt", false, true, false, false },
	{ "tests/data/shared/intel-e5-2643-2node.numactl.txt", false, true, false, false },
	{ "tests/data/golden/output.txt", false, true, false, false },	/* its "node distances:" table */
	{ "tests/data/hmat/qemu-4node-odd.hmat", false, false, true, false },
};

/* Bytes a flip writes: the parsers' delimiters, and what text must not hold. */
static const char specials[] = "\0\n\r\t ,:-.+e{}[]\"#019\x1b\x7f\xff";

#define FLIPS 3000

struct tally {
	long parses, ok, refused, cuts, flips;
};

static struct tally tally;
static const char *cur_path;
static size_t cur_len;		/* of the input handed to the parser */

/* Why a result is wrong, with what produced it. */
#define corpus_fail(fmt, ...)                                                           \
	fail_msg("%s, %zu bytes: " fmt, cur_path, cur_len, ##__VA_ARGS__)

static void check_error(int ret, const char *name, const char *err)
{
	if (ret != -EINVAL)
		corpus_fail("returned %d; expected 0 or -EINVAL", ret);
	if (!*err)
		corpus_fail("refused without a message");
	if (strchr(err, '\n'))
		corpus_fail("a message of more than one line: %s", err);
	/* "NAME:LINE: ..." or "NAME: json.path: ..." */
	if (strncmp(err, name, strlen(name)))
		corpus_fail("a message that does not start with the input's name: %s", err);
}

static bool node_ok(int id)
{
	return id >= 0 && id < 1024;
}

static void check_matrix(const struct ph_nmatrix *m)
{
	if (!m || m->nrows < 1 || m->ncols < 1 || m->nrows > 1024 || m->ncols > 1024)
		corpus_fail("accepted a matrix of %d x %d", m ? m->nrows : -1, m ? m->ncols : -1);
	for (int r = 0; r < m->nrows; r++)
		if (!node_ok(m->row_ids[r]))
			corpus_fail("accepted row node %d", m->row_ids[r]);
	for (int c = 0; c < m->ncols; c++)
		if (!node_ok(m->col_ids[c]))
			corpus_fail("accepted column node %d", m->col_ids[c]);
	for (int k = 0; k < m->nrows * m->ncols; k++) {
		double v = m->val[k];

		if (!isnan(v) && !(v > 0 && isfinite(v)))
			corpus_fail("accepted the value %g", v);
	}
}

static void check_slit(const struct ph_slit *s)
{
	if (!s || s->n < 1 || s->n > 1024)
		corpus_fail("accepted a SLIT of %d nodes", s ? s->n : -1);
	for (int i = 0; i < s->n; i++)
		if (!node_ok(s->ids[i]))
			corpus_fail("accepted SLIT node %d", s->ids[i]);
	for (int k = 0; k < s->n * s->n; k++)
		if (s->dist[k] < 0 || s->dist[k] > 255)
			corpus_fail("accepted the distance %d", s->dist[k]);
}

static void check_input(const struct ph_input *in)
{
	check_matrix(in->m);
	if (in->note && (strncmp(in->note, "c.in:", 5) || strchr(in->note, '\n')))
		corpus_fail("a note that is not one line naming the input: %s", in->note);
	if (!in->path || !in->figure)
		corpus_fail("accepted without a path or a figure");
	if (in->slit)
		check_slit(in->slit);
	for (int i = 0; i < in->nhmat; i++) {
		const struct ph_hmat *h = &in->hmat[i];

		if (!node_ok(h->target) || strlen(h->initiators) >= sizeof(h->initiators))
			corpus_fail("accepted HMAT entry %d: target %d", i, h->target);
		if (h->read_latency_ns < -1 || h->read_latency_ns > UINT32_MAX ||
		    h->read_bandwidth_MiBps < -1 || h->read_bandwidth_MiBps > UINT32_MAX)
			corpus_fail("accepted HMAT entry %d's figures", i);
	}
}

/* An accepted HMAT: every entry of every structure readable (ASan sees the rest). */
static void check_hmat(const struct ph_acpi_hmat *t, size_t len)
{
	unsigned long sum = 0;

	if (t->h.length > len || t->h.length < 40 || memcmp(t->h.signature, "HMAT", 4))
		corpus_fail("accepted an HMAT of length %u, signature %s", t->h.length, t->h.signature);
	for (int s = 0; s < t->nlb; s++) {
		const struct ph_hmat_lb *l = &t->lb[s];

		if (l->data_type > PH_HMAT_WRITE_BANDWIDTH ||
		    (uint64_t)l->ni * l->nt * 2 + ((uint64_t)l->ni + l->nt) * 4 > len)
			corpus_fail("accepted a locality structure of %u x %u, type %d", l->ni, l->nt, l->data_type);
		for (uint64_t k = 0; k < (uint64_t)l->ni * l->nt; k++)
			sum += l->entry[k];
		for (uint32_t k = 0; k < l->ni; k++)
			sum += l->init[k];
		for (uint32_t k = 0; k < l->nt; k++)
			sum += l->targ[k];
	}
	for (int c = 0; c < t->ncache; c++)
		sum += t->cache[c].nhandles;
	(void)sum;
}

/*
 * Must a cut at len of the text buf fail?  JSON (first non-blank byte
 * '{'): when the closing brace is cut off.  Other text: when its last line
 * is not blank and has no line end.
 */
static bool cut_must_fail(const char *buf, size_t len, size_t json_end, bool as_json)
{
	size_t i = len;

	if (as_json)
		return len < json_end;
	while (i > 0 && buf[i - 1] != '\n') {
		if (!isspace((unsigned char)buf[i - 1]))
			return true;
		i--;
	}
	return false;
}

static bool starts_json(const char *buf, size_t len)
{
	size_t i = 0;

	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
		i = 3;
	while (i < len && isspace((unsigned char)buf[i]))
		i++;
	return i < len && buf[i] == '{';
}

/* An accepted baseline: node ids in range, every reference one a ratio can be taken to. */
static void check_baseline(const struct ph_hset *b)
{
	for (int i = 0; i < b->nfigs; i++) {
		const struct ph_hfig *f = &b->figs[i];
		bool flag = !strcmp(f->unit, "bool");

		if (!node_ok(f->node) || !node_ok(f->mem_node))
			corpus_fail("accepted a baseline figure of node %d to %d", f->node, f->mem_node);
		if (!isfinite(f->value) || (flag ? f->value != 0 && f->value != 1 : !(f->value >= 1e-300)))
			corpus_fail("accepted the reference %g %s", f->value, f->unit);
		if (!(f->ci_lo >= 0) || !(f->ci_lo <= f->ci_hi) || !isfinite(f->ci_hi))
			corpus_fail("accepted the CI [%g, %g]", f->ci_lo, f->ci_hi);
	}
}

/*
 * buf[0..len) through input_parse (figure cycling with seq) and
 * slit_parse and acpi_hmat_parse and baseline_parse and report_read.
 * Returns a bit per parser that accepted it: 1 input, 2 slit, 4 hmat, 8
 * baseline, 16 report (which takes a document of any kind, even one it
 * does not draw, so that only its bad files must be refused by it).
 */
static int parse_both(const char *buf, size_t len, unsigned seq)
{
	static const enum ph_figure figs[] = {
		PH_FIGURE_DEFAULT, PH_FIGURE_LATENCY, PH_FIGURE_BANDWIDTH,
		PH_FIGURE_READ, PH_FIGURE_TRIAD, PH_FIGURE_DISTANCE,
	};
	struct ph_input in;
	struct ph_slit *s = (struct ph_slit *)&in;	/* must be reset */
	struct ph_acpi_hmat h;
	struct ph_hset b;
	struct rep_doc d;
	char err[512], *text;
	int ret, accepted = 0;

	cur_len = len;
	err[0] = '\0';
	ret = input_parse("c.in", buf, len, figs[seq % ARRAY_SIZE(figs)], &in, err, sizeof(err));
	tally.parses++;
	if (ret) {
		tally.refused++;
		check_error(ret, "c.in", err);
		if (in.m || in.slit || in.hmat || in.path)
			corpus_fail("refused, but left a result behind");
	} else {
		tally.ok++;
		check_input(&in);
		input_free(&in);
		accepted |= 1;
	}
	err[0] = '\0';
	ret = slit_parse("c.slit", buf, len, &s, err, sizeof(err));
	tally.parses++;
	if (ret) {
		tally.refused++;
		check_error(ret, "c.slit", err);
		if (s)
			corpus_fail("refused a SLIT, but left one behind");
	} else {
		tally.ok++;
		check_slit(s);
		slit_free(s);
		accepted |= 2;
	}
	err[0] = '\0';
	memset(&h, 0xa5, sizeof(h));	/* must be reset */
	ret = acpi_hmat_parse((const uint8_t *)buf, len, &h, err, sizeof(err));
	tally.parses++;
	if (ret) {
		tally.refused++;
		if (ret != -EINVAL || !*err || strchr(err, '\n'))
			corpus_fail("HMAT refused with %d, '%s'; expected -EINVAL and one line", ret, err);
		if (h.lb || h.mpda || h.cache)
			corpus_fail("refused an HMAT, but left structures behind");
	} else {
		tally.ok++;
		check_hmat(&h, len);
		acpi_hmat_free(&h);
		accepted |= 4;
	}
	/* The baseline reader takes a C string, as its loader hands it one. */
	err[0] = '\0';
	text = xmalloc(len + 1);
	memcpy(text, buf, len);
	text[len] = '\0';
	ret = baseline_parse("c.base", text, &b, err, sizeof(err));
	tally.parses++;
	if (ret) {
		tally.refused++;
		check_error(ret, "c.base", err);
		if (b.figs || b.nodes || b.settings)
			corpus_fail("refused a baseline, but left figures behind");
	} else {
		tally.ok++;
		check_baseline(&b);
		hset_free(&b);
		accepted |= 8;
	}
	err[0] = '\0';
	memset(&d, 0xa5, sizeof(d));	/* must be reset */
	ret = report_read("c.rep", text, PAGEHOP_VERSION, &d, err, sizeof(err));
	free(text);
	tally.parses++;
	if (ret) {
		tally.refused++;
		check_error(ret, "c.rep", err);
		if (d.path || d.kind || d.m || d.c)
			corpus_fail("refused a report document, but left a model behind");
	} else {
		tally.ok++;
		if (!d.path || !d.kind)
			corpus_fail("a report document taken without its path or kind");
		report_doc_free(&d);
		accepted |= 16;
	}
	return accepted;
}

static void corpus_file(const char *path, bool bad)
{
	const char *kind;
	char *buf, *mut;
	size_t len, json_end = 0;
	bool json;
	int whole;

	assert_int_equal(read_whole_file(path, 1 << 20, &buf, &len, &kind), 0);
	cur_path = path;
	json = starts_json(buf, len);
	if (json) {
		const char *brace = memrchr(buf, '}', len);

		assert_non_null(brace);
		json_end = (size_t)(brace - buf) + 1;
	}

	/* Whole: as the table says; a bad file refused by both parsers. */
	whole = parse_both(buf, len, 0);
	for (size_t i = 0; i < ARRAY_SIZE(good); i++)
		if (!strcmp(good[i].path, path) &&
		    (whole & 15) != ((good[i].input ? 1 : 0) | (good[i].slit ? 2 : 0) | (good[i].hmat ? 4 : 0) |
			      (good[i].baseline ? 8 : 0)))
			corpus_fail("whole sample: accepted by parsers %d (1 input_parse, 2 slit_parse, 4 acpi_hmat_parse, 8 baseline_parse); expected %s%s%s%s",
				    whole, good[i].input ? "input_parse" : "", good[i].slit ? "slit_parse" : "",
				    good[i].hmat ? "acpi_hmat_parse" : "", good[i].baseline ? "baseline_parse" : "");
	if (bad && (whole & 15))
		corpus_fail("a bad file accepted by %s", whole & 1 ? "input_parse" : whole & 2 ? "slit_parse"
			    : whole & 4 ? "acpi_hmat_parse" : "baseline_parse");
	if (bad && (whole & 16) && strstr(path, ".report.json"))
		corpus_fail("a bad document accepted by report_read");

	/* Cut at every byte.  A copy of exactly len bytes, so that ASan sees any read past it. */
	for (size_t n = 0; n < len; n++) {
		char *cut = xmalloc(n ? n : 1);

		memcpy(cut, buf, n);
		whole = parse_both(cut, n, (unsigned)n);
		tally.cuts++;
		if ((whole & 1) && cut_must_fail(cut, n, json_end, json))
			corpus_fail("cut short and still accepted by input_parse");
		if ((whole & 2) && cut_must_fail(cut, n, 0, false))
			corpus_fail("cut short and still accepted by slit_parse");
		if ((whole & 8) && cut_must_fail(cut, n, json_end, true))
			corpus_fail("cut short and still accepted by baseline_parse");
		if ((whole & 16) && cut_must_fail(cut, n, json_end, true))
			corpus_fail("cut short and still accepted by report_read");
		/* Any cut of an HMAT is shorter than its header's length. */
		if ((whole & 4) && n < len)
			corpus_fail("cut short and still accepted by acpi_hmat_parse");
		free(cut);
	}

	/*
	 * Bytes changed, each twice: one bit flipped, and set to one of the
	 * specials.  Every byte of a file up to FLIPS bytes; of a larger one
	 * (the 12 KB JSON) FLIPS bytes spread evenly, to keep the run short.
	 */
	mut = xmalloc(len ? len : 1);
	for (size_t i = 0; i < len; i += (len + FLIPS - 1) / FLIPS) {
		memcpy(mut, buf, len);
		mut[i] = (char)(buf[i] ^ (1 << (i % 8)));
		parse_both(mut, len, (unsigned)i);
		mut[i] = specials[i % (sizeof(specials) - 1)];
		if (mut[i] == buf[i])
			mut[i] = specials[(i + 1) % (sizeof(specials) - 1)];
		parse_both(mut, len, (unsigned)i + 1);
		tally.flips += 2;
	}
	free(mut);
	free(buf);
}

static void test_corpus(void **state)
{
	int files = 0, bad_files = 0;

	(void)state;
	for (size_t d = 0; d < ARRAY_SIZE(dirs); d++) {
		struct dirent **names;
		int n = scandir(dirs[d], &names, NULL, alphasort);
		bool bad = !strcmp(dirs[d], "tests/data/bad");

		assert_true(n > 0);
		for (int i = 0; i < n; i++) {
			if (names[i]->d_name[0] != '.') {
				char *path = xasprintf("%s/%s", dirs[d], names[i]->d_name);
				bool is_bad = bad && strcmp(names[i]->d_name, "README.md");

				corpus_file(path, is_bad);
				files++;
				bad_files += is_bad;
				free(path);
			}
			free(names[i]);
		}
		free(names);
	}
	corpus_file(baseline_sample, false);
	files++;
	/* The table's samples were all found. */
	for (size_t i = 0; i < ARRAY_SIZE(good); i++)
		assert_int_equal(access(good[i].path, R_OK), 0);
	assert_true(bad_files >= 30);
	printf("corpus: %d files (%d hand-made bad), %ld cuts, %ld changed bytes: %ld parses, %ld accepted and %ld refused as expected\n",
	       files, bad_files, tally.cuts, tally.flips, tally.parses, tally.ok, tally.refused);
}

int main(void)
{
	static const char *const kinds[] = { "matrix", "slit", "scale", "check", "baseline", "c2c" };
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_corpus),
	};

	report_set_kinds(kinds, ARRAY_SIZE(kinds));

	return cmocka_run_group_tests(tests, NULL, NULL);
}
