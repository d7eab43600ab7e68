// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_fleet.c - pagehop compare's judgement: on hand-made hosts, the
 * median, MAD and the two conditions (k robust sigmas and the tolerance)
 * computed by hand, with an even count of hosts, a host given four times
 * (its newest counts, once) and models too small to judge; on the synthetic fleet of tests/data/compare (make.py:
 * 20 hosts drawn with realistic noise, one with node 1's triad 20% low),
 * the one made to stray is found, and none of the 20 is; and the reader of
 * a fleet's files, which skips and names what does not read.
 */
#include "unit.h"
#include "fleet.h"
#include "read_baseline.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void host(struct ph_hset *s, const char *model, double triad)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->model, sizeof(s->model), "%s", model);
	hset_add_fig(s, "bandwidth_triad", 0, 0, "GB/s", triad, triad - 1, triad + 1);
}

static void test_by_hand(void **state)
{
	/* 100, 101, 99, 100.5, 85: median 100, |dev| 0, 1, 1, 0.5, 15 -> MAD 1,
	 * sigma 1.4826; 85 is 15 from it: > 4 x 1.4826 = 5.93 and -15% beyond -10%. */
	static const double v[] = { 100, 101, 99, 100.5, 85 };
	struct ph_hset s[6];
	struct ph_fleet f;
	struct ph_htol over[PH_HK_NKINDS];
	bool set[PH_HK_NKINDS] = { 0 };

	(void)state;
	for (int i = 0; i < 5; i++)
		host(&s[i], "m=a", v[i]);
	host(&s[5], "m=b", 50);	/* alone in its model: not judged */
	fleet_compare(s, 6, 4, over, set, &f);
	assert_int_equal(f.n, 1);
	assert_int_equal(f.v[0].set, 4);
	assert_true(f.v[0].median == 100 && f.v[0].mad == 1);
	assert_true(fabs(f.v[0].dev + 0.15) < 1e-12 && fabs(f.v[0].score - 1.5) < 1e-12);
	assert_int_equal(f.nranked, 1);
	assert_int_equal(f.rank[0], 4);
	assert_int_equal(f.nmodels, 2);
	assert_int_equal(f.nsmall, 1);
	assert_int_equal(f.nunknown, 1);
	assert_int_equal(f.nhosts, 6);	/* no host names, no files: each its own host */
	fleet_free(&f);
	/* beyond k MADs but within the tolerance (-20%): not a stray */
	over[PH_HK_BANDWIDTH].lower = -0.2;
	over[PH_HK_BANDWIDTH].upper = 0.2;
	set[PH_HK_BANDWIDTH] = true;
	fleet_compare(s, 6, 4, over, set, &f);
	assert_int_equal(f.n, 0);
	fleet_free(&f);
	/* beyond the tolerance but within k MADs (k = 20: 29.7): not a stray */
	set[PH_HK_BANDWIDTH] = false;
	fleet_compare(s, 6, 20, over, set, &f);
	assert_int_equal(f.n, 0);
	fleet_free(&f);
	for (int i = 0; i < 6; i++)
		hset_free(&s[i]);
}

/*
 * Host name and time stamp of a hand-made document, the stamp parsed as
 * the reader does: every stamp here is 2026-01-01T00:00:SSZ, 1767225600 s
 * after the epoch plus SS; anything else has none.
 */
static void named(struct ph_hset *s, const char *model, double triad, const char *name, const char *t)
{
	static const char day[] = "2026-01-01T00:00:";
	size_t n = sizeof(day) - 1;

	host(s, model, triad);
	snprintf(s->host, sizeof(s->host), "%s", name);
	snprintf(s->time_utc, sizeof(s->time_utc), "%s", t);
	if (!strncmp(t, day, n) && strlen(t) == n + 3 && t[n + 2] == 'Z') {
		s->stamp = 1767225600.0 + (t[n] - '0') * 10 + (t[n + 1] - '0');
		s->stamp_from_doc = true;
	}
}

static void free_all(struct ph_hset *s, int n)
{
	for (int i = 0; i < n; i++)
		hset_free(&s[i]);
}

static void test_even_count(void **state)
{
	/* 98, 100, 102, 104, 80, 101: sorted 80 98 100 101 102 104, median
	 * (100 + 101) / 2 = 100.5; |dev| 2.5 0.5 1.5 3.5 20.5 0.5, sorted 0.5
	 * 0.5 1.5 2.5 3.5 20.5, MAD (1.5 + 2.5) / 2 = 2; 4 x 1.4826 x 2 = 11.86 <
	 * 20.5, and -20.5 / 100.5 = -20.4% is beyond -10%: 2.04 tolerances. */
	static const double v[] = { 98, 100, 102, 104, 80, 101 };
	struct ph_hset s[6];
	struct ph_fleet f;

	(void)state;
	for (int i = 0; i < 6; i++)
		host(&s[i], "m=a", v[i]);
	fleet_compare(s, 6, 4, NULL, NULL, &f);
	assert_int_equal(f.n, 1);
	assert_int_equal(f.v[0].set, 4);
	assert_true(f.v[0].median == 100.5 && f.v[0].mad == 2);
	assert_true(fabs(f.v[0].dev + 20.5 / 100.5) < 1e-12);
	assert_true(fabs(f.v[0].score - 20.5 / 100.5 / 0.1) < 1e-12);
	assert_int_equal(f.nmodels, 1);
	assert_int_equal(f.nunknown, 0);
	assert_true(f.models[0].judged);
	assert_int_equal(f.models[0].nhosts, 6);
	assert_int_equal(f.models[0].nfigs, 1);
	assert_int_equal(f.models[0].nstraying, 1);
	fleet_free(&f);
	free_all(s, 6);
}

static void test_newest_per_host(void **state)
{
	/*
	 * Hosts a, b, c at 100, 101, 99 and host s four times: 80 stamped :01,
	 * 80 stamped :03, 100 with no stamp (older than any with one), 100
	 * stamped :02.  Its newest is index 3 (80), and s counts once: the
	 * values are 100 101 99 80, median 99.5, |dev| 0.5 1.5 0.5 19.5, MAD
	 * (0.5 + 1.5) / 2 = 1; 19.5 > 4 x 1.4826 = 5.93 and -19.5 / 99.5 is
	 * beyond -10%.  (Counted four times, as 80 80 100 100 beside 100 101
	 * 99, the median would be 100 and the MAD 1.)
	 */
	struct ph_hset s[7];
	struct ph_fleet f;

	(void)state;
	named(&s[0], "m=a", 100, "a", "2026-01-01T00:00:00Z");
	named(&s[1], "m=a", 101, "b", "2026-01-01T00:00:00Z");
	named(&s[2], "m=a", 80, "s", "2026-01-01T00:00:01Z");
	named(&s[3], "m=a", 80, "s", "2026-01-01T00:00:03Z");
	named(&s[4], "m=a", 100, "s", "");
	named(&s[5], "m=a", 99, "c", "2026-01-01T00:00:00Z");
	named(&s[6], "m=a", 100, "s", "2026-01-01T00:00:02Z");
	fleet_compare(s, 7, 4, NULL, NULL, &f);
	assert_int_equal(f.nhosts, 4);
	assert_int_equal(f.nolder, 3);
	assert_int_equal(f.newer[3], -1);
	assert_int_equal(f.newer[2], 3);
	assert_int_equal(f.newer[4], 3);
	assert_int_equal(f.newer[6], 3);
	assert_int_equal(f.newer[0], -1);
	assert_int_equal(f.n, 1);
	assert_int_equal(f.v[0].set, 3);
	assert_true(f.v[0].median == 99.5 && f.v[0].mad == 1);
	assert_int_equal(f.models[0].nhosts, 4);
	fleet_free(&f);
	/* Equal stamps (and a stamp that is not one, "yesterday", older than
	 * both): the last given is used. */
	free_all(s, 7);
	named(&s[0], "m=a", 100, "a", "2026-01-01T00:00:05Z");
	named(&s[1], "m=a", 100, "a", "yesterday");
	named(&s[2], "m=a", 90, "a", "2026-01-01T00:00:05Z");
	fleet_compare(s, 3, 4, NULL, NULL, &f);
	assert_int_equal(f.nhosts, 1);
	assert_int_equal(f.newer[2], -1);
	assert_int_equal(f.newer[0], 2);
	assert_int_equal(f.newer[1], 2);
	fleet_free(&f);
	free_all(s, 3);
}

static void test_unknown_models(void **state)
{
	/* m=one has 1 host, m=two 2: UNKNOWN, 3 hosts not judged, even where
	 * a value is far off; m=three is judged, its triad on all three hosts
	 * and its latency on two only (not judged: figures_few). */
	struct ph_hset s[6];
	struct ph_fleet f;

	(void)state;
	host(&s[0], "m=two", 100);
	host(&s[1], "m=one", 10);
	host(&s[2], "m=two", 50);
	for (int i = 3; i < 6; i++)
		host(&s[i], "m=three", 100 + i);
	hset_add_fig(&s[3], "latency_4k", 0, 0, "ns", 100, 99, 101);
	hset_add_fig(&s[4], "latency_4k", 0, 0, "ns", 300, 299, 301);
	/* the same figure twice in one document: its first counts, once */
	hset_add_fig(&s[5], "bandwidth_triad", 0, 0, "GB/s", 1, 0.5, 1.5);
	fleet_compare(s, 6, 4, NULL, NULL, &f);
	assert_int_equal(f.n, 0);
	assert_int_equal(f.nmodels, 3);
	assert_int_equal(f.nunknown, 2);
	assert_int_equal(f.nsmall, 3);
	/* in the order of their first documents */
	assert_string_equal(f.models[0].model, "m=two");
	assert_false(f.models[0].judged);
	assert_int_equal(f.models[0].nhosts, 2);
	assert_string_equal(f.models[1].model, "m=one");
	assert_false(f.models[1].judged);
	assert_string_equal(f.models[2].model, "m=three");
	assert_true(f.models[2].judged);
	assert_int_equal(f.models[2].nfigs, 1);
	assert_int_equal(f.models[2].nfigs_few, 1);
	fleet_free(&f);
	free_all(s, 6);
	/* Three hosts, each with a figure of its own: no figure on three of
	 * them, so the model is UNKNOWN although it has the hosts. */
	for (int i = 0; i < 3; i++) {
		memset(&s[i], 0, sizeof(s[i]));
		snprintf(s[i].model, sizeof(s[i].model), "m=a");
		hset_add_fig(&s[i], "latency_4k", i, i, "ns", 100, 99, 101);
	}
	fleet_compare(s, 3, 4, NULL, NULL, &f);
	assert_true(f.models[0].judged);
	assert_int_equal(f.models[0].nfigs, 0);
	assert_int_equal(f.models[0].nfigs_few, 3);
	assert_int_equal(f.nunknown, 1);
	assert_int_equal(f.nsmall, 3);
	fleet_free(&f);
	free_all(s, 3);
}

static void test_synthetic_fleet(void **state)
{
	struct ph_hset *sets;
	struct ph_fleet f;
	char err[512];
	int n;

	(void)state;
	assert_int_equal(baseline_load("tests/data/compare", &sets, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 23);
	fleet_compare(sets, n, 4, NULL, NULL, &f);
	assert_int_equal(f.nranked, 1);
	assert_string_equal(sets[f.rank[0]].host, "stray");
	assert_int_equal(f.n, 1);
	assert_string_equal(f.v[0].fig.name, "bandwidth_triad");
	assert_int_equal(f.v[0].fig.node, 1);
	assert_int_equal(f.nsmall, 2);
	assert_int_equal(f.nunknown, 1);
	assert_int_equal(f.nhosts, 23);
	assert_int_equal(f.nolder, 0);
	fleet_free(&f);
	baseline_free(sets, n);
}

static void put(const char *dir, const char *name, const char *text, size_t len)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	fclose(f);
}

static void test_read(void **state)
{
	/* A directory of a good document, a truncated one, one not named
	 * *.json, a hidden one, a directory named *.json; then a missing path
	 * and an empty directory: one document, four skipped in the order
	 * given, each reason after its path. */
	char dir[] = "/tmp/pagehop-test-fleet-XXXXXX", path[256], *text = NULL;
	struct ph_fleet_docs d = { 0 };
	size_t len = 0;
	FILE *f = fopen("tests/data/compare/host01.json", "r");

	(void)state;
	assert_non_null(f);
	assert_int_equal(getdelim(&text, &len, '\0', f) > 0, 1);
	fclose(f);
	len = strlen(text);
	assert_non_null(mkdtemp(dir));
	put(dir, "a.json", text, len);
	put(dir, "b.json", text, len / 2);
	put(dir, "c.txt", text, len);
	put(dir, ".d.json", text, len);
	snprintf(path, sizeof(path), "%s/e.json", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	fleet_read(&d, dir);
	snprintf(path, sizeof(path), "%s/none.json", dir);
	fleet_read(&d, path);
	snprintf(path, sizeof(path), "%s/e.json", dir);
	fleet_read(&d, path);
	assert_int_equal(d.n, 1);
	assert_string_equal(d.sets[0].host, "host01");
	assert_int_equal(d.nskipped, 4);
	snprintf(path, sizeof(path), "%s/b.json: not JSON: ", dir);
	assert_string_equal(d.skipped[0].path + strlen(dir), "/b.json");
	assert_memory_equal(d.skipped[0].why, path, strlen(path));
	snprintf(path, sizeof(path), "%s/e.json: a directory, not a document", dir);
	assert_string_equal(d.skipped[1].why, path);
	snprintf(path, sizeof(path), "%s/none.json: No such file or directory", dir);
	assert_string_equal(d.skipped[2].why, path);
	snprintf(path, sizeof(path), "%s/e.json: no document in the directory (no *.json file)", dir);
	assert_string_equal(d.skipped[3].why, path);
	fleet_docs_free(&d);
	for (const char *n = "a.json\0b.json\0c.txt\0.d.json\0"; *n; n += strlen(n) + 1) {
		snprintf(path, sizeof(path), "%s/%s", dir, n);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/e.json", dir);
	rmdir(path);
	rmdir(dir);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_by_hand),
		cmocka_unit_test(test_even_count),
		cmocka_unit_test(test_newest_per_host),
		cmocka_unit_test(test_unknown_models),
		cmocka_unit_test(test_synthetic_fleet),
		cmocka_unit_test(test_read),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
