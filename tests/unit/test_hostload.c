// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_hostload.c - what check reads of the host's load, on fixed text
 * with values worked out by hand: the /proc/stat, /proc/PID/stat and
 * /proc/pressure parsers, the load between two snapshots, the busiest
 * processes between two scans; busy.h's rule on loads either side of its
 * thresholds; check's findings of figures timed under load; and a
 * baseline's repeats, read and widening the band.
 */
#include "unit.h"
#include "busy.h"
#include "diag.h"
#include "health.h"
#include "hostload.h"
#include "read_baseline.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#define NEAR(a, b) assert_true(fabs((a) - (b)) < 1e-9)

static void test_parse_stat(void **state)
{
	struct ph_cpustat c;

	(void)state;
	assert_int_equal(hostload_parse_stat("cpu  26201 0 11588 42143 610 0 168 88 0 0\n"
					     "cpu0 12302 0 5214 22738 50 0 27 42 0 0\n", &c), 0);
	assert_true(c.user == 26201 && c.nice == 0 && c.system == 11588 && c.idle == 42143);
	assert_true(c.iowait == 610 && c.irq == 0 && c.softirq == 168 && c.steal == 88);
	/* An old kernel's line, without iowait and what follows. */
	assert_int_equal(hostload_parse_stat("cpu 1 2 3 4\n", &c), 0);
	assert_true(c.user == 1 && c.idle == 4 && c.iowait == 0 && c.steal == 0);
	assert_int_equal(hostload_parse_stat("cpu0 1 2 3 4\n", &c), -EINVAL);
	assert_int_equal(hostload_parse_stat("intr 1 2 3\n", &c), -EINVAL);
	assert_int_equal(hostload_parse_stat("cpu 1 2\n", &c), -EINVAL);
}

static void test_parse_psi(void **state)
{
	struct ph_psi p;

	(void)state;
	assert_int_equal(hostload_parse_psi("some avg10=1.50 avg60=0.80 avg300=0.20 total=123456\n"
					    "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n", &p), 0);
	assert_true(p.ok);
	NEAR(p.some_avg10, 1.5);
	assert_true(p.some_total_us == 123456);
	assert_int_equal(hostload_parse_psi("full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n", &p), -EINVAL);
	assert_int_equal(hostload_parse_psi("some avg10=1.0\n", &p), -EINVAL);
}

static void test_parse_pidstat(void **state)
{
	struct ph_pidstat s;

	(void)state;
	/* utime 250 + stime 50, cutime 30 + cstime 20, starttime 5000; the
	 * name holds a space and both parentheses. */
	assert_int_equal(hostload_parse_pidstat("1234 (my (odd) name) S 7 1234 1234 0 -1 4194560 100 0 0 0 "
						"250 50 30 20 20 0 1 0 5000 1000000 200 18446744073709551615\n", &s), 0);
	assert_int_equal(s.pid, 1234);
	assert_int_equal(s.ppid, 7);
	assert_string_equal(s.comm, "my (odd) name");
	assert_true(s.ticks == 300 && s.child_ticks == 50 && s.start == 5000);
	/* Nothing that breaks a line or a perfdata field stays in a name. */
	assert_int_equal(hostload_parse_pidstat("9 (a\nb;c) R 1 9 9 0 -1 0 0 0 0 0 1 2 0 0 20 0 1 0 77\n", &s), 0);
	assert_string_equal(s.comm, "a?b?c");
	assert_true(s.ticks == 3 && s.start == 77);
	assert_int_equal(hostload_parse_pidstat("12 (short) S 1 2 3\n", &s), -EINVAL);
	assert_int_equal(hostload_parse_pidstat("garbage", &s), -EINVAL);
}

static void test_diff(void **state)
{
	struct ph_loadsnap a = { .ok = true, .t = 10.0, .self_s = 1.0 }, b = { .ok = true, .t = 11.0, .self_s = 1.5 };
	struct ph_load l;

	(void)state;
	a.cpu = (struct ph_cpustat){ 1000, 0, 500, 3000, 100, 0, 50, 0 };
	b.cpu = (struct ph_cpustat){ 1150, 10, 540, 3100, 110, 5, 55, 30 };
	a.psi_cpu = (struct ph_psi){ true, 3.0, 1000000 };
	b.psi_cpu = (struct ph_psi){ true, 12.5, 1350000 };
	b.psi_mem = (struct ph_psi){ true, 1.0, 10 };	/* a has none: not ok */
	hostload_diff(&a, &b, 100, &l);
	assert_true(l.ok);
	NEAR(l.wall_s, 1.0);
	/* busy 150 + 10 + 40 + 5 + 5 = 210 ticks = 2.10 s in 1 s, this process 0.5 */
	NEAR(l.self_cpus, 0.5);
	NEAR(l.other_cpus, 1.6);
	/* steal 30 of 210 + 30 + 100 + 10 = 350 ticks */
	NEAR(l.steal, 30.0 / 350.0);
	assert_true(l.psi_cpu_ok && !l.psi_mem_ok);
	NEAR(l.psi_cpu, 0.35);
	NEAR(l.psi_cpu_avg10, 12.5);
	/* This process alone (its time rounds above the ticks'): no load. */
	b.self_s = 3.5;
	hostload_diff(&a, &b, 100, &l);
	NEAR(l.other_cpus, 0);
	/* No time between them, or a snapshot not read: nothing. */
	hostload_diff(&a, &a, 100, &l);
	assert_false(l.ok);
	b.ok = false;
	hostload_diff(&a, &b, 100, &l);
	assert_false(l.ok);
}

static void test_top(void **state)
{
	/* Sorted by PID, as hostload_procs() leaves them. */
	struct ph_pidstat av[] = {
		{ .pid = 10, .ppid = 1, .comm = "make", .ticks = 100, .start = 50 },
		{ .pid = 11, .ppid = 10, .comm = "cc1", .ticks = 40, .start = 60 },
		{ .pid = 12, .ppid = 1, .comm = "idle", .ticks = 5, .start = 70 },
		{ .pid = 13, .ppid = 1, .comm = "old", .ticks = 500, .start = 80 },
		{ .pid = 99, .ppid = 1, .comm = "pagehop", .ticks = 1000, .start = 90 },
		/* sh, and its cc of 30 ticks before a, both gone: 12 reaped
		 * the cc, then 10 reaped sh, each with what it had then */
		{ .pid = 120, .ppid = 12, .comm = "sh", .ticks = 2, .start = 71 },
		{ .pid = 121, .ppid = 120, .comm = "cc", .ticks = 30, .start = 72 },
	};
	struct ph_pidstat bv[] = {
		/* cc1 ended with 90 ticks, 40 of them before a: make's 50 */
		{ .pid = 10, .ppid = 1, .comm = "make", .ticks = 110, .child_ticks = 90, .start = 50 },
		/* sh 2 + 2 and cc 30 + 6: 32 of the 40 before a, 8 since */
		{ .pid = 12, .ppid = 1, .comm = "idle", .ticks = 5, .child_ticks = 40, .start = 70 },
		/* a new process under a reused PID: all its 20 ticks */
		{ .pid = 13, .ppid = 1, .comm = "new13", .ticks = 20, .start = 900 },
		{ .pid = 14, .ppid = 1, .comm = "stress-ng-vm", .ticks = 70, .start = 950 },
		{ .pid = 99, .ppid = 1, .comm = "pagehop", .ticks = 2000, .start = 90 },
	};
	struct ph_proclist a = { av, 7 }, b = { bv, 5 };
	struct ph_busyproc top[3], top4[4];
	char phrase[160];

	(void)state;
	assert_int_equal(hostload_top(&a, &b, 99, 100, top, 3), 3);
	assert_int_equal(top[0].pid, 14);
	NEAR(top[0].cpu_s, 0.70);
	assert_string_equal(top[0].comm, "stress-ng-vm");
	assert_int_equal(top[1].pid, 10);
	NEAR(top[1].cpu_s, 0.60);	/* 10 of its own + 50 of cc1's */
	assert_int_equal(top[2].pid, 13);
	NEAR(top[2].cpu_s, 0.20);
	assert_int_equal(hostload_top(&a, &b, 99, 100, top4, 4), 4);
	assert_int_equal(top4[3].pid, 12);
	NEAR(top4[3].cpu_s, 0.08);
	assert_int_equal(hostload_top(&a, &b, 99, 100, top, 2), 2);
	assert_int_equal(top[0].pid, 14);
	assert_int_equal(top[1].pid, 10);
	busy_procs_phrase(top, 2, phrase, sizeof(phrase));
	assert_string_equal(phrase, "stress-ng-vm[14] 0.70 s, make[10] 0.60 s");
	busy_procs_phrase(top, 0, phrase, sizeof(phrase));
	assert_string_equal(phrase, "");
}

static void test_rule(void **state)
{
	struct ph_load l = { .ok = true, .wall_s = 1 };
	char why[128];

	(void)state;
	assert_false(busy_explains(&l, why, sizeof(why)));
	assert_string_equal(why, "");
	l.other_cpus = 0.25;	/* at the threshold: not beyond it */
	assert_false(busy_explains(&l, why, sizeof(why)));
	l.other_cpus = 0.30;
	assert_true(busy_explains(&l, why, sizeof(why)));
	assert_string_equal(why, "other tasks used 0.30 CPU");
	l.other_cpus = 1.0;
	l.steal = 0.10;
	assert_true(busy_explains(&l, why, sizeof(why)));
	assert_string_equal(why, "other tasks used 1.00 CPU; steal 10%");
	l = (struct ph_load){ .ok = true, .steal = 0.05, .psi_cpu = 0.5, .psi_mem = 0.06, .psi_mem_ok = true };
	/* steal at its threshold, CPU pressure not read: memory pressure alone */
	assert_true(busy_explains(&l, why, sizeof(why)));
	assert_string_equal(why, "memory pressure 6%");
	l.psi_cpu_ok = true;
	assert_true(busy_explains(&l, why, sizeof(why)));
	assert_string_equal(why, "CPU pressure 50%; memory pressure 6%");
	l.ok = false;
	assert_false(busy_explains(&l, why, sizeof(why)));
}

static struct ph_hfinding *finding(struct ph_hfindings *f, const char *name, enum ph_hstatus st, double dev)
{
	struct ph_hfinding *x = hfindings_add(f);

	snprintf(x->fig.name, sizeof(x->fig.name), "%s", name);
	x->basis = PH_HB_BASELINE;
	x->st = st;
	x->dev = dev;
	snprintf(x->why, sizeof(x->why), "node 0 %s 1.0 x, 50%% off baseline 2.0 (limit +10%%)", name);
	return x;
}

static void test_diag_busy(void **state)
{
	struct ph_diag_item items[3] = { { .name = "latency_4k" }, { .name = "bandwidth_triad" },
					 { .name = "latency_2m" } };
	struct ph_diag d = { .items = items, .nitems = 3, .ntop = 1 };
	struct ph_hfindings f = { 0 };

	(void)state;
	d.top[0] = (struct ph_busyproc){ 4242, "stress-ng-vm", 1.5 };
	items[0].load = (struct ph_load){ .ok = true, .wall_s = 1, .other_cpus = 0.9 };
	items[1].load = (struct ph_load){ .ok = true, .wall_s = 1, .other_cpus = 0.1 };
	items[2].load = items[0].load;
	finding(&f, "latency_4k", PH_H_CRITICAL, 0.5);	/* slower, busy: not judged */
	finding(&f, "bandwidth_triad", PH_H_CRITICAL, -0.5);	/* quiet while timed: judged */
	finding(&f, "latency_2m", PH_H_WARNING, -0.3);	/* faster, busy: no load does that */
	finding(&f, "mem_total", PH_H_CRITICAL, -0.5);	/* untimed: judged */
	assert_int_equal(diag_busy(&d, &f), 1);
	assert_int_equal(f.v[0].st, PH_H_UNKNOWN);
	assert_string_equal(f.v[0].why, "node 0 latency_4k 1.0 x, 50% off baseline 2.0, not judged: the host was busy "
					"(other tasks used 0.90 CPU); busiest: stress-ng-vm[4242] 1.50 s");
	assert_int_equal(f.v[1].st, PH_H_CRITICAL);
	assert_int_equal(f.v[2].st, PH_H_WARNING);
	assert_int_equal(f.v[3].st, PH_H_CRITICAL);
	hfindings_free(&f);
}

static void test_repeats_band(void **state)
{
	static const char doc[] =
		"{\"provenance\":{\"tool\":\"pagehop\",\"subcommand\":\"baseline\",\"host\":\"h\"},"
		"\"identity\":{\"model_key\":\"cpu=x;nodes=1\"},"
		"\"figures\":[{\"figure\":\"latency_4k\",\"node\":0,\"value\":100,\"unit\":\"ns\","
		"\"ci_lo\":98,\"ci_hi\":103,\"rep_lo\":95,\"rep_hi\":120,\"repeats\":3},"
		"{\"figure\":\"bandwidth_triad\",\"node\":0,\"value\":20,\"unit\":\"GB/s\","
		"\"ci_lo\":19,\"ci_hi\":21}]}";
	struct ph_hset set;
	char err[256];
	double lo, hi;

	(void)state;
	assert_int_equal(baseline_parse("b.json", doc, &set, err, sizeof(err)), 0);
	assert_int_equal(set.nfigs, 2);
	NEAR(set.figs[0].rep_lo, 95);
	NEAR(set.figs[0].rep_hi, 120);
	assert_int_equal(set.figs[0].repeats, 3);
	/* The wider of the CI and the repeats' range, on each side. */
	health_ref_band(&set.figs[0], &lo, &hi);
	NEAR(lo, 95);
	NEAR(hi, 120);
	/* A baseline without repeats: its CI alone. */
	assert_true(isnan(set.figs[1].rep_lo) && set.figs[1].repeats == 0);
	health_ref_band(&set.figs[1], &lo, &hi);
	NEAR(lo, 19);
	NEAR(hi, 21);
	/* Repeats inside the CI widen nothing. */
	set.figs[1].rep_lo = 19.5;
	set.figs[1].rep_hi = 20.5;
	health_ref_band(&set.figs[1], &lo, &hi);
	NEAR(lo, 19);
	NEAR(hi, 21);
	hset_free(&set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_stat),
		cmocka_unit_test(test_parse_psi),
		cmocka_unit_test(test_parse_pidstat),
		cmocka_unit_test(test_diff),
		cmocka_unit_test(test_top),
		cmocka_unit_test(test_rule),
		cmocka_unit_test(test_diag_busy),
		cmocka_unit_test(test_repeats_band),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
