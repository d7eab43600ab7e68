// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_health.c - the verdict of "pagehop check" on figures whose bands
 * were computed by hand: each limit is ref_ci (1 + tolerance), the
 * CRITICAL one ref_ci (1 + 2 tolerance), and a figure is out only when the
 * end of its CI nearest the band is.
 */
#include "unit.h"
#include "health.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static struct ph_hfinding fig(const char *name, int node, double v, double lo, double hi, const char *unit)
{
	struct ph_hfinding f;

	memset(&f, 0, sizeof(f));
	snprintf(f.fig.name, sizeof(f.fig.name), "%s", name);
	snprintf(f.fig.unit, sizeof(f.fig.unit), "%s", unit);
	f.fig.node = f.fig.mem_node = node;
	f.fig.value = v;
	f.fig.ci_lo = lo;
	f.fig.ci_hi = hi;
	return f;
}

static void test_judge_bandwidth(void **state)
{
	struct ph_htol t = health_default_tol(PH_HK_BANDWIDTH);	/* -0.10, +0.25 */
	struct ph_hfinding f;

	(void)state;
	assert_true(fabs(t.lower + 0.10) < 1e-12 && fabs(t.upper - 0.25) < 1e-12);
	/* ref 54.3 [54.0, 54.6]: warn below 54.0 x 0.9 = 48.6, critical below 54.0 x 0.8 = 43.2 */
	f = fig("bandwidth_triad", 1, 41.2, 41.0, 41.5, "GB/s");
	assert_int_equal(health_judge(&f, 54.3, 54.0, 54.6, t), PH_H_CRITICAL);
	assert_true(fabs(f.limit_lo - 48.6) < 1e-9);
	assert_true(fabs(f.dev - (41.2 - 54.3) / 54.3) < 1e-12);
	f = fig("bandwidth_triad", 1, 47.0, 46.5, 47.5, "GB/s");
	assert_int_equal(health_judge(&f, 54.3, 54.0, 54.6, t), PH_H_WARNING);
	/* the median is out, its CI reaches the band (49.0 >= 48.6): not proven */
	f = fig("bandwidth_triad", 1, 48.0, 47.0, 49.0, "GB/s");
	assert_int_equal(health_judge(&f, 54.3, 54.0, 54.6, t), PH_H_OK);
	/* above: warn over 54.6 x 1.25 = 68.25, critical over 54.6 x 1.5 = 81.9 */
	f = fig("bandwidth_read", 0, 70.0, 69.0, 71.0, "GB/s");
	assert_int_equal(health_judge(&f, 54.3, 54.0, 54.6, t), PH_H_WARNING);
	/* beyond 81.9, but better than the baseline: a stale reference, a WARNING */
	f = fig("bandwidth_read", 0, 90.0, 85.0, 95.0, "GB/s");
	assert_int_equal(health_judge(&f, 54.3, 54.0, 54.6, t), PH_H_WARNING);
}

static void test_judge_tail(void **state)
{
	struct ph_htol tt = health_default_tol(PH_HK_TAIL);	/* open, +0.50 */
	struct ph_hfinding f;

	(void)state;
	assert_int_equal(health_kind_of("tail_p99_latency_4k"), PH_HK_TAIL);
	assert_true(isnan(tt.lower) && fabs(tt.upper - 0.50) < 1e-12);
	/* ref 180 [150, 210]: warn over 210 x 1.5 = 315; twice the tolerance
	 * (420) would be CRITICAL for a latency, a tail stays a WARNING */
	f = fig("tail_p99_latency_4k", 0, 900, 850, 950, "ns");
	assert_int_equal(health_judge(&f, 180, 150, 210, tt), PH_H_WARNING);
	assert_true(fabs(f.limit_hi - 315) < 1e-9);
	assert_true(isnan(f.crit_hi));
	f = fig("tail_p99_latency_4k", 0, 400, 330, 470, "ns");
	assert_int_equal(health_judge(&f, 180, 150, 210, tt), PH_H_WARNING);
	/* its CI reaches the band (300 <= 315): not proven */
	f = fig("tail_p99_latency_4k", 0, 360, 300, 420, "ns");
	assert_int_equal(health_judge(&f, 180, 150, 210, tt), PH_H_OK);
	/* a tail ten times shorter: the lower side is open */
	f = fig("tail_p99_latency_4k", 0, 18, 15, 21, "ns");
	assert_int_equal(health_judge(&f, 180, 150, 210, tt), PH_H_OK);
}

static void test_judge_latency_memory_pages(void **state)
{
	struct ph_htol lt = health_default_tol(PH_HK_LATENCY);	/* -0.20, +0.10 */
	struct ph_hfinding f;

	(void)state;
	/* ref 100 [99, 101]: warn over 111.1, critical over 121.2 */
	f = fig("latency_4k", 0, 115, 114, 116, "ns");
	assert_int_equal(health_judge(&f, 100, 99, 101, lt), PH_H_WARNING);
	f = fig("latency_4k", 0, 130, 125, 135, "ns");
	assert_int_equal(health_judge(&f, 100, 99, 101, lt), PH_H_CRITICAL);
	f = fig("latency_4k", 0, 111, 109, 113, "ns");
	assert_int_equal(health_judge(&f, 100, 99, 101, lt), PH_H_OK);
	/* far below 99 x 0.6 = 59.4, better than the baseline: WARNING at most */
	f = fig("latency_4k", 0, 50, 49, 51, "ns");
	assert_int_equal(health_judge(&f, 100, 99, 101, lt), PH_H_WARNING);
	/* memory, exact: 16 GiB; warn below 15.92, critical below 15.84 */
	f = fig("mem_total", 2, 15.9, 15.9, 15.9, "GiB");
	assert_int_equal(health_judge(&f, 16, 16, 16, health_default_tol(PH_HK_MEMORY)), PH_H_WARNING);
	f = fig("mem_total", 2, 8, 8, 8, "GiB");
	assert_int_equal(health_judge(&f, 16, 16, 16, health_default_tol(PH_HK_MEMORY)), PH_H_CRITICAL);
	f = fig("mem_total", 2, 16, 16, 16, "GiB");
	assert_int_equal(health_judge(&f, 16, 16, 16, health_default_tol(PH_HK_MEMORY)), PH_H_OK);
	/* pages: 1 -> 0 is below 0.5 but not below 0: WARNING; 0 -> 0 is nothing lost */
	f = fig("hugepages_2m", 1, 0, 0, 0, "bool");
	assert_int_equal(health_judge(&f, 1, 1, 1, health_default_tol(PH_HK_PAGES)), PH_H_WARNING);
	f = fig("hugepages_1g", 1, 0, 0, 0, "bool");
	assert_int_equal(health_judge(&f, 0, 0, 0, health_default_tol(PH_HK_PAGES)), PH_H_OK);
	/* no CI: never a verdict of OK */
	f = fig("latency_4k", 0, 100, NAN, NAN, "ns");
	assert_int_equal(health_judge(&f, 100, 99, 101, lt), PH_H_UNKNOWN);
	f = fig("latency_4k", 0, 100, 99, 101, "ns");
	assert_int_equal(health_judge(&f, 100, NAN, 101, lt), PH_H_UNKNOWN);
}

static void test_against_and_fold(void **state)
{
	struct ph_hset base = { 0 }, now = { 0 };
	struct ph_hfindings out = { 0 };
	struct ph_htol over[PH_HK_NKINDS];
	bool set[PH_HK_NKINDS] = { 0 };
	struct ph_hfig *b;
	char line[512], why[128];

	(void)state;
	hset_add_fig(&base, "bandwidth_triad", 1, 1, "GB/s", 54.3, 54.0, 54.6);
	hset_add_fig(&base, "latency_4k", 1, 1, "ns", 100, 99, 101);
	hset_add_fig(&base, "latency_4k", 0, 0, "ns", 100, 99, 101);
	hset_add_setting(&base, "thp_enabled", "madvise");
	hset_add_fig(&now, "bandwidth_triad", 1, 1, "GB/s", 41.2, 41.0, 41.5);
	hset_add_fig(&now, "latency_4k", 1, 1, "ns", 100.5, 100, 101);
	hset_add_fig(&now, "latency_4k", 0, 0, "ns", 100.5, 100, 101);
	hset_add_fig(&now, "latency_2m", 0, 0, "ns", 90, 89, 91);	/* not in the baseline */
	hset_add_setting(&now, "thp_enabled", "madvise");
	health_against(&base, &now, over, set, &out);
	out.nnodes = 2;
	assert_int_equal(out.n, 4);
	assert_int_equal(health_fold(&out, line, sizeof(line)), PH_H_CRITICAL);
	assert_string_equal(line, "PAGEHOP CRITICAL - node 1 bandwidth_triad 41.2 GB/s, 24% below baseline 54.3 (limit -10%)");
	hfindings_free(&out);

	/* the baseline's own tolerance, then --tolerance over it */
	b = &base.figs[0];
	b->tol.lower = -0.5;
	b->tol.upper = 0.5;
	b->tol_set = true;
	health_against(&base, &now, over, set, &out);
	out.nnodes = 2;
	assert_int_equal(health_fold(&out, line, sizeof(line)), PH_H_OK);
	assert_string_equal(line, "PAGEHOP OK - 2 nodes, 3 timed and 0 untimed figures within tolerance");
	hfindings_free(&out);
	assert_int_equal(health_parse_tolerance("bandwidth=-0.2:none", over, set, why, sizeof(why)), 0);
	assert_true(set[PH_HK_BANDWIDTH] && !set[PH_HK_LATENCY]);
	assert_true(fabs(over[PH_HK_BANDWIDTH].lower + 0.2) < 1e-12 && isnan(over[PH_HK_BANDWIDTH].upper));
	health_against(&base, &now, over, set, &out);
	out.nnodes = 2;
	/* 41.5 < 54.0 x 0.8 = 43.2: WARNING; critical below 54.0 x 0.6 = 32.4 */
	assert_int_equal(health_fold(&out, line, sizeof(line)), PH_H_WARNING);
	assert_string_equal(line, "PAGEHOP WARNING - node 1 bandwidth_triad 41.2 GB/s, 24% below baseline 54.3 (limit -20%)");
	hfindings_free(&out);

	/* a setting changed, and two figures out: the worst first, then the count */
	set[PH_HK_BANDWIDTH] = false;
	hset_add_setting(&now, "numa_balancing", "0");
	snprintf(now.settings[0].val, sizeof(now.settings[0].val), "always");
	now.figs[2].value = 112;
	now.figs[2].ci_lo = 111.5;
	now.figs[2].ci_hi = 113;
	health_against(&base, &now, over, set, &out);
	out.nnodes = 2;
	assert_int_equal(health_fold(&out, line, sizeof(line)), PH_H_WARNING);
	assert_string_equal(line, "PAGEHOP WARNING - node 0 latency_4k 112.0 ns, 12% above baseline 100.0 (limit +10%); +1 more");
	assert_string_equal(out.v[out.n - 1].why, "thp_enabled is always, baseline madvise");
	hfindings_free(&out);
	hset_free(&base);
	hset_free(&now);
}

static void test_siblings(void **state)
{
	struct ph_hset now = { 0 };
	struct ph_hfindings out = { 0 };
	struct ph_htol over[PH_HK_NKINDS];
	bool set[PH_HK_NKINDS] = { 0 };
	char line[512];

	(void)state;
	for (int n = 0; n < 4; n++) {
		hset_add_node(&now, n, 8);
		hset_add_fig(&now, "mem_total", n, n, "GiB", n == 3 ? 8 : 16, n == 3 ? 8 : 16, n == 3 ? 8 : 16);
		hset_add_fig(&now, "hugepages_2m", n, n, "bool", n == 1 ? 0 : 1, n == 1 ? 0 : 1, n == 1 ? 0 : 1);
	}
	hset_add_node(&now, 4, 0);	/* memory only: no sibling */
	hset_add_fig(&now, "mem_total", 4, 4, "GiB", 4, 4, 4);
	health_siblings(&now, over, set, &out);
	out.nnodes = 5;
	/* median of 8, 16, 16, 16 is 16: node 3 is at -50%, beyond 2 x 5% (siblings' memory tolerance) */
	assert_int_equal(out.n, 8);
	assert_int_equal(health_fold(&out, line, sizeof(line)), PH_H_CRITICAL);
	assert_string_equal(line, "PAGEHOP CRITICAL - node 3 mem_total 8.0 GiB, 50% below siblings' median 16.0 (limit -5%); +1 more");
	for (int i = 0; i < out.n; i++)
		if (out.v[i].fig.node == 1 && !strcmp(out.v[i].fig.name, "hugepages_2m")) {
			assert_int_equal(out.v[i].st, PH_H_WARNING);
			assert_string_equal(out.v[i].why, "node 1 hugepages_2m cannot be had, siblings' median can");
		}
	hfindings_free(&out);
	/* two alike nodes: neither is the odd one, nothing judged -> UNKNOWN */
	now.nnodes = 2;
	now.nfigs = 4;
	health_siblings(&now, over, set, &out);
	assert_int_equal(out.n, 0);
	assert_int_equal(health_fold(&out, line, sizeof(line)), PH_H_UNKNOWN);
	assert_int_equal(strncmp(line, "PAGEHOP UNKNOWN - ", 18), 0);
	hset_free(&now);
}

static void test_model_rules_tolerance(void **state)
{
	struct ph_hset now = { 0 };
	struct ph_hfindings out = { 0 };
	struct ph_htol over[PH_HK_NKINDS];
	bool set[PH_HK_NKINDS] = { 0 };
	char diff[128], why[160];

	(void)state;
	assert_true(health_model_match("cpu=X;sockets=2;nodes=4", "cpu=X;sockets=2;nodes=4", diff, sizeof(diff)));
	assert_false(health_model_match("cpu=X;sockets=2;nodes=4", "cpu=X;sockets=2;nodes=2", diff, sizeof(diff)));
	assert_string_equal(diff, "nodes: 4 here, 2 in the baseline");
	assert_false(health_model_match("cpu=X;nodes=4", "cpu=X;nodes=4;node0=8x2", diff, sizeof(diff)));
	assert_string_equal(diff, "'(nothing)' here, 'node0=8x2' in the baseline");

	hset_add_setting(&now, "slit_valid", "no: the diagonal must be 10 (LOCAL_DISTANCE) (entry 0,0 is 12)");
	health_rules(&now, true, &out);
	assert_int_equal(out.n, 1);
	assert_int_equal(out.v[0].st, PH_H_WARNING);
	hfindings_free(&out);
	/* without a baseline, the kernel's defaults: balancing off on 2 nodes, THP never */
	hset_add_node(&now, 0, 4);
	hset_add_node(&now, 1, 4);
	hset_add_setting(&now, "numa_balancing", "0");
	hset_add_setting(&now, "thp_enabled", "never");
	health_rules(&now, true, &out);
	assert_int_equal(out.n, 1);	/* with one, the baseline is the reference */
	hfindings_free(&out);
	health_rules(&now, false, &out);
	assert_int_equal(out.n, 3);
	assert_string_equal(out.v[0].why, "numa_balancing is 0, the kernel's default on several nodes is 1");
	assert_int_equal(out.v[1].st, PH_H_WARNING);
	assert_string_equal(out.v[1].why, "thp_enabled is never, never the kernel's default");
	hfindings_free(&out);
	snprintf(now.settings[1].val, sizeof(now.settings[1].val), "1");
	snprintf(now.settings[2].val, sizeof(now.settings[2].val), "madvise");
	health_rules(&now, false, &out);
	assert_true(out.v[0].st == PH_H_OK && out.v[1].st == PH_H_OK);
	hfindings_free(&out);
	hset_free(&now);

	assert_int_equal(health_parse_tolerance("latency=-0.1:0.05,memory=none:0", over, set, why, sizeof(why)), 0);
	assert_true(set[PH_HK_LATENCY] && set[PH_HK_MEMORY] && !set[PH_HK_PAGES]);
	assert_true(isnan(over[PH_HK_MEMORY].lower) && over[PH_HK_MEMORY].upper == 0);
	assert_int_equal(health_parse_tolerance("bandwidth=0.1:0.2", over, set, why, sizeof(why)), -EINVAL);
	assert_int_equal(health_parse_tolerance("disk=-0.1:0.1", over, set, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "unknown kind 'disk'; expected latency, bandwidth, memory, pages or tail");
	assert_int_equal(health_parse_tolerance("latency=-0.1", over, set, why, sizeof(why)), -EINVAL);
	assert_int_equal(health_parse_tolerance(",", over, set, why, sizeof(why)), -EINVAL);
	assert_int_equal(health_kind_of("bandwidth_triad"), PH_HK_BANDWIDTH);
	assert_int_equal(health_kind_of("thp_enabled"), -1);
}

/* A finding judged against a baseline, by hand: status and deviation set. */
static struct ph_hfinding judged(const char *name, int node, enum ph_hstatus st, double dev, const char *why)
{
	struct ph_hfinding f = fig(name, node, 1, 1, 1, "");

	f.basis = PH_HB_BASELINE;
	f.st = st;
	f.dev = dev;
	snprintf(f.why, sizeof(f.why), "%s", why);
	return f;
}

static void test_fold_precedence(void **state)
{
	struct ph_hfindings out = { 0 };
	char line[512];

	(void)state;
	/* CRITICAL + UNKNOWN (an unmeasured figure) is CRITICAL: a halved
	 * memory is not hidden by a figure that could not be had */
	*hfindings_add(&out) = judged("mem_total", 0, PH_H_CRITICAL, -0.5, "node 0 mem_total halved");
	health_unmeasured(&out, "latency_4k", 0, 0, "ns", "it failed");
	out.nnodes = 1;
	out.timed_planned = 4;
	out.timed_measured = 3;
	assert_int_equal(health_fold(&out, line, sizeof(line)), PH_H_CRITICAL);
	assert_string_equal(line, "PAGEHOP CRITICAL - node 0 mem_total halved; +1 more");
	/* whatever the order */
	out.v[0] = out.v[1];
	out.v[1] = judged("mem_total", 0, PH_H_CRITICAL, -0.5, "node 0 mem_total halved");
	assert_int_equal(health_fold(&out, line, sizeof(line)), PH_H_CRITICAL);
	/* ... and with no timed figure measured at all */
	out.timed_measured = 0;
	assert_int_equal(health_fold(&out, line, sizeof(line)), PH_H_CRITICAL);
	/* WARNING beats UNKNOWN too */
	out.v[1].st = PH_H_WARNING;
	assert_int_equal(health_fold(&out, line, sizeof(line)), PH_H_WARNING);
	assert_string_equal(line, "PAGEHOP WARNING - node 0 mem_total halved; +1 more");
	/* UNKNOWN beats OK: the unmeasured figure takes the line, with its reason */
	out.v[1].st = PH_H_OK;
	out.timed_measured = 3;
	assert_int_equal(health_fold(&out, line, sizeof(line)), PH_H_UNKNOWN);
	assert_string_equal(line, "PAGEHOP UNKNOWN - node 0 latency_4k not measured: it failed");
	assert_int_equal(out.v[0].basis, PH_HB_UNMEASURED);
	assert_true(isnan(out.v[0].fig.value));
	hfindings_free(&out);
}

static void test_fold_no_timed(void **state)
{
	struct ph_hfindings out = { 0 };
	char line[512];

	(void)state;
	/* only untimed figures, all OK, of four timed ones planned: no evidence */
	*hfindings_add(&out) = judged("mem_total", 0, PH_H_OK, 0, "m");
	*hfindings_add(&out) = judged("hugepages_2m", 0, PH_H_OK, 0, "h");
	*hfindings_add(&out) = judged("hugepages_1g", 0, PH_H_OK, 0, "g");
	out.nnodes = 1;
	out.timed_planned = 4;
	snprintf(out.timed_why, sizeof(out.timed_why), "placement cannot be verified without root; run as root");
	assert_int_equal(health_fold(&out, line, sizeof(line)), PH_H_UNKNOWN);
	assert_string_equal(line, "PAGEHOP UNKNOWN - no timed figure measured: placement cannot be verified"
			    " without root; run as root; 3 untimed figures within tolerance");
	/* with the unmeasured figures as findings of their own, the same */
	for (int i = 0; i < 4; i++)
		health_unmeasured(&out, i % 2 ? "latency_4k" : "bandwidth_triad", 0, 0, "", "no root");
	assert_int_equal(health_fold(&out, line, sizeof(line)), PH_H_UNKNOWN);
	assert_int_equal(strncmp(line, "PAGEHOP UNKNOWN - no timed figure measured: placement", 53), 0);
	/* no timed figure planned at all (a machine of memory-only nodes): the
	 * untimed ones are all there is, and the line says what it counted */
	out.n = 3;
	out.timed_planned = 0;
	out.against[0] = '\0';
	assert_int_equal(health_fold(&out, line, sizeof(line)), PH_H_OK);
	assert_string_equal(line, "PAGEHOP OK - 1 node, 3 untimed figures within tolerance (no timed figure planned)");
	/* timed and untimed counted apart; left out and the baseline named */
	*hfindings_add(&out) = judged("latency_4k", 0, PH_H_OK, 0.01, "l");
	*hfindings_add(&out) = judged("bandwidth_triad", 0, PH_H_OK, 0.01, "t");
	*hfindings_add(&out) = judged("thp_enabled", -1, PH_H_OK, NAN, "s");
	out.v[out.n - 1].basis = PH_HB_SETTING;
	out.timed_planned = 4;
	out.timed_measured = 2;
	health_left_out(&out, "bandwidth_read", 0, 0);
	health_left_out(&out, "latency_hop1", 0, 1);
	snprintf(out.against, sizeof(out.against), "/b/x.json");
	assert_int_equal(health_fold(&out, line, sizeof(line)), PH_H_OK);
	assert_string_equal(line, "PAGEHOP OK - 1 node, 2 timed and 3 untimed figures within tolerance;"
			    " left out: node 0 bandwidth_read, node 0->1 latency_hop1; against /b/x.json");
	/* timed figures measured, but none has a reference: no evidence either */
	out.n = 3;
	assert_int_equal(health_fold(&out, line, sizeof(line)), PH_H_UNKNOWN);
	assert_string_equal(line, "PAGEHOP UNKNOWN - no timed figure judged: none of the 2 timed figures measured"
			    " has a reference (the baseline's, or three alike nodes'); 3 untimed figures within"
			    " tolerance; against /b/x.json");
	/* a budget that let nothing timed be measured, everything left out */
	out.n = 3;
	out.timed_measured = 0;
	out.timed_why[0] = '\0';
	assert_int_equal(health_fold(&out, line, sizeof(line)), PH_H_UNKNOWN);
	hfindings_free(&out);
}

static void test_line_bounded(void **state)
{
	struct ph_hset base = { 0 }, now = { 0 };
	struct ph_hfindings out = { 0 };
	struct ph_htol over[PH_HK_NKINDS];
	bool set[PH_HK_NKINDS] = { 0 };
	char line[1024], diff[256];

	(void)state;
	/* a model key with a newline and an ESC, copied into the line */
	assert_false(health_model_match("cpu=X;nodes=1", "cpu=X\n\033[2J;nodes=1", diff, sizeof(diff)));
	health_unknown(line, sizeof(line), diff);
	assert_string_equal(line, "PAGEHOP UNKNOWN - cpu: X here, X??[2J in the baseline");
	/* a '|' would start the performance data */
	health_unknown(line, sizeof(line), "a|b\r\n\t");
	assert_string_equal(line, "PAGEHOP UNKNOWN - a/b???");
	/* a reference of 1e300: a bounded number, not 300 digits */
	hset_add_fig(&base, "latency_4k", 0, 0, "ns", 1e300, 1e300, 1e300);
	hset_add_fig(&now, "latency_4k", 0, 0, "ns", 100, 99, 101);
	health_against(&base, &now, over, set, &out);
	out.nnodes = 1;
	assert_int_equal(health_fold(&out, line, sizeof(line)), PH_H_WARNING);
	assert_string_equal(line, "PAGEHOP WARNING - node 0 latency_4k 100.0 ns, 100% below baseline 1e+300 (limit -20%)");
	hfindings_free(&out);
	now.figs[0].value = now.figs[0].ci_lo = now.figs[0].ci_hi = 1e300;
	base.figs[0].value = base.figs[0].ci_lo = base.figs[0].ci_hi = 1;
	health_against(&base, &now, over, set, &out);
	health_fold(&out, line, sizeof(line));
	assert_string_equal(line, "PAGEHOP CRITICAL - node 0 latency_4k 1e+300 ns, 1e+302% above baseline 1.0 (limit +10%)");
	hfindings_free(&out);
	hset_free(&base);
	hset_free(&now);
}

static void test_ok_reads_ok_and_slit_once(void **state)
{
	struct ph_hset base = { 0 }, now = { 0 };
	struct ph_hfindings out = { 0 };
	struct ph_htol over[PH_HK_NKINDS];
	bool set[PH_HK_NKINDS] = { 0 };
	int slit = 0;

	(void)state;
	/* 407 is 32% below 598.6, past -20%, but its CI [300, 500] reaches the
	 * band's edge 550 x 0.8 = 440: OK, and the row says why */
	hset_add_fig(&base, "latency_4k", 0, 0, "ns", 598.6, 550, 650);
	hset_add_fig(&now, "latency_4k", 0, 0, "ns", 407, 300, 500);
	hset_add_setting(&base, "slit_valid", "yes");
	hset_add_setting(&now, "slit_valid", "yes");
	health_against(&base, &now, over, set, &out);
	health_rules(&now, true, &out);
	assert_int_equal(out.v[0].st, PH_H_OK);
	assert_string_equal(out.v[0].why, "node 0 latency_4k 407.0 ns, 32% below baseline 598.6 (limit -20%), "
			    "within the band once both CIs are counted");
	for (int i = 0; i < out.n; i++)
		slit += !strcmp(out.v[i].fig.name, "slit_valid");
	assert_int_equal(slit, 1);
	hfindings_free(&out);
	/* within the tolerance: no such clause */
	now.figs[0].value = 590;
	health_against(&base, &now, over, set, &out);
	assert_string_equal(out.v[0].why, "node 0 latency_4k 590.0 ns, 1.4% below baseline 598.6 (limit -20%)");
	hfindings_free(&out);
	hset_free(&base);
	hset_free(&now);
}

static void test_perfdata(void **state)
{
	struct ph_hset base = { 0 }, now = { 0 };
	struct ph_hfindings out = { 0 };
	struct ph_htol over[PH_HK_NKINDS];
	bool set[PH_HK_NKINDS] = { 0 };
	char perf[512], small[60];

	(void)state;
	hset_add_fig(&base, "bandwidth_triad", 1, 1, "GB/s", 54.3, 54.0, 54.6);
	hset_add_fig(&base, "latency_4k", 1, 1, "ns", 100, 99, 101);
	hset_add_fig(&base, "latency_hop1", 0, 1, "ns", 150, 150, 150);
	hset_add_fig(&base, "mem_total", 1, 1, "GiB", 16, 16, 16);
	hset_add_fig(&base, "hugepages_2m", 1, 1, "bool", 1, 1, 1);
	hset_add_fig(&now, "bandwidth_triad", 1, 1, "GB/s", 41.2, 41.0, 41.5);
	hset_add_fig(&now, "latency_4k", 1, 1, "ns", 100.5, 100, 101);
	hset_add_fig(&now, "latency_hop1", 0, 1, "ns", 160, 158, 162);
	hset_add_fig(&now, "mem_total", 1, 1, "GiB", 16, 16, 16);
	hset_add_fig(&now, "hugepages_2m", 1, 1, "bool", 1, 1, 1);
	health_against(&base, &now, over, set, &out);
	health_unmeasured(&out, "latency_2m", 1, 1, "ns", "x");
	/* triad: warn outside [54.0 x 0.9, 54.6 x 1.25], critical below 54.0 x 0.8
	 * (above is better: never CRITICAL); latency: warn outside [99 x 0.8,
	 * 101 x 1.1], critical above 101 x 1.2; the hop: 150 x 0.8, 150 x 1.1,
	 * 150 x 1.2; memory: 16 x 0.995, 16 x 1.005, critical below 16 x 0.99;
	 * pages: warn below 0.5, critical below 0; the unmeasured one: none */
	assert_int_equal(health_perfdata(&out, perf, sizeof(perf)), 5);
	assert_string_equal(perf,
			    "node1_bandwidth_triad_GBps=41.2;48.6:68.25;43.2: "
			    "node1_latency_4k_ns=100.5;79.2:111.1;~:121.2 "
			    "node0to1_latency_hop1_ns=160;120:165;~:180 "
			    "node1_mem_total_GiB=16;15.92:16.08;15.84: "
			    "node1_hugepages_2m=1;0.5:;0:");
	/* whole items only */
	assert_int_equal(health_perfdata(&out, small, sizeof(small)), 1);
	assert_string_equal(small, "node1_bandwidth_triad_GBps=41.2;48.6:68.25;43.2:");
	hfindings_free(&out);
	hset_free(&base);
	hset_free(&now);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_judge_bandwidth),
		cmocka_unit_test(test_judge_latency_memory_pages),
		cmocka_unit_test(test_judge_tail),
		cmocka_unit_test(test_against_and_fold),
		cmocka_unit_test(test_siblings),
		cmocka_unit_test(test_model_rules_tolerance),
		cmocka_unit_test(test_fold_precedence),
		cmocka_unit_test(test_fold_no_timed),
		cmocka_unit_test(test_line_bounded),
		cmocka_unit_test(test_ok_reads_ok_and_slit_once),
		cmocka_unit_test(test_perfdata),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
