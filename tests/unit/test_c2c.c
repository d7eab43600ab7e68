// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_c2c.c - the CPU relations c2c summarises by, on hwloc synthetic
 * topologies whose answers are known by construction; the summary of
 * pair medians against hand-computed values; and the ping-pong loop's
 * count of hand-offs, on two real threads.
 */
#include "unit.h"
#include "c2c.h"
#include "contend.h"
#include "cpurel.h"
#include "latdist.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>

/*
 * 2 packages, each one NUMA node, 2 L3s, 2 cores, 2 PUs: PUs 0-1 one core,
 * 0-3 one L3, 0-7 one node and package, 8-15 the other.
 */
static void test_relations_two_sockets(void **state)
{
	static const int cpus[] = { 0, 1, 2, 4, 8 };
	struct ph_cpuplace p[5];

	(void)state;
	assert_int_equal(cpurel_places("pack:2 [numa] l3:2 core:2 pu:2", cpus, 5, p), 0);
	assert_int_equal(p[0].node, 0);
	assert_int_equal(p[4].node, 1);
	assert_int_equal(cpurel_classify(&p[0], &p[0]), PH_REL_SELF);
	assert_int_equal(cpurel_classify(&p[0], &p[1]), PH_REL_SMT);
	assert_int_equal(cpurel_classify(&p[0], &p[2]), PH_REL_L3);
	assert_int_equal(cpurel_classify(&p[0], &p[3]), PH_REL_NODE);
	assert_int_equal(cpurel_classify(&p[0], &p[4]), PH_REL_REMOTE);
	assert_int_equal(cpurel_classify(&p[4], &p[0]), PH_REL_REMOTE);
	assert_string_equal(cpurel_name(PH_REL_L3), "l3");
}

/* 2 packages of 2 nodes, one L3 per node: two nodes of one socket. */
static void test_relations_snc(void **state)
{
	static const int cpus[] = { 0, 4, 8 };
	struct ph_cpuplace p[3];

	(void)state;
	assert_int_equal(cpurel_places("pack:2 numa:2 l3:1 core:2 pu:2", cpus, 3, p), 0);
	assert_int_equal(p[1].node, 1);
	assert_int_equal(cpurel_classify(&p[0], &p[1]), PH_REL_SOCKET);
	assert_int_equal(cpurel_classify(&p[0], &p[2]), PH_REL_REMOTE);
}

/* No L3 at all: the highest cache (an L2 over 2 cores) stands for it; a
 * CPU hwloc lacks is refused. */
static void test_relations_no_l3(void **state)
{
	static const int cpus[] = { 0, 1, 2 }, bad[] = { 99 };
	struct ph_cpuplace p[3];

	(void)state;
	assert_int_equal(cpurel_places("pack:1 [numa] l2:2 core:2 pu:1", cpus, 3, p), 0);
	assert_int_equal(cpurel_classify(&p[0], &p[1]), PH_REL_L3);
	assert_int_equal(cpurel_classify(&p[0], &p[2]), PH_REL_NODE);
	assert_int_equal(cpurel_places("pack:1 [numa] l2:2 core:2 pu:1", bad, 1, p), -ENOENT);
	/* Unknown levels are never shared. */
	{
		struct ph_cpuplace a = { 1, -1, -1, -1, -1 }, b = { 2, -1, -1, -1, -1 };

		assert_int_equal(cpurel_classify(&a, &b), PH_REL_REMOTE);
	}
}

/* Median of medians: odd and even counts, NAN skipped, none at all. */
static void test_group(void **state)
{
	static const double odd[] = { 300, 100, NAN, 200 }, even[] = { 40, 10, 30, 20 };
	struct ph_c2c_group g;

	(void)state;
	c2c_group(odd, 4, &g);
	assert_int_equal(g.pairs, 3);
	assert_float_equal(g.median, 200, 1e-9);
	assert_float_equal(g.min, 100, 1e-9);
	assert_float_equal(g.max, 300, 1e-9);
	c2c_group(even, 4, &g);
	assert_float_equal(g.median, 25, 1e-9);
	c2c_group(odd + 2, 1, &g);
	assert_int_equal(g.pairs, 0);
	assert_true(isnan(g.median));
}

struct pp {
	volatile uint64_t *line;
	uint64_t rounds;
};

static void *pong(void *arg)
{
	struct pp *p = arg;

	c2c_pingpong(p->line, p->rounds, 1);
	return NULL;
}

/* Every round is two hand-offs: the word ends at 2 x rounds. */
static void test_pingpong_count(void **state)
{
	static volatile uint64_t word __attribute__((aligned(64)));
	struct pp p = { &word, 5000 };
	pthread_t th;

	(void)state;
	word = 0;
	assert_int_equal(pthread_create(&th, NULL, pong, &p), 0);
	c2c_pingpong(&word, p.rounds, 0);
	pthread_join(th, NULL);
	assert_int_equal(word, 10000);
}

struct ppt {
	volatile uint64_t *line;
	uint64_t rounds;
	size_t nruns;
};

static void *pong_timed(void *arg)
{
	struct ppt *p = arg;

	c2c_pingpong_timed(p->line, p->rounds, 1, NULL, p->nruns);
	return NULL;
}

/*
 * The timed loop: 7 runs of 300 round trips from 10 (even: where a block
 * or a batch leaves the word), after one untimed round trip, end at
 * 10 + 2 x (300 x 7 + 1) = 4212, every run timed (non-zero); then from
 * 4212, 0 rounds: brackets only, the word untouched, the answering side
 * done at once.
 */
static void test_pingpong_timed(void **state)
{
	static volatile uint64_t word __attribute__((aligned(64)));
	uint64_t ticks[7] = { 0 };
	struct ppt p = { &word, 300, 7 };
	pthread_t th;

	(void)state;
	word = 10;
	assert_int_equal(pthread_create(&th, NULL, pong_timed, &p), 0);
	c2c_pingpong_timed(&word, p.rounds, 0, ticks, p.nruns);
	pthread_join(th, NULL);
	assert_int_equal(word, 4212);
	for (int i = 0; i < 7; i++)
		assert_true(ticks[i] > 0);
	p.rounds = 0;
	assert_int_equal(pthread_create(&th, NULL, pong_timed, &p), 0);
	c2c_pingpong_timed(&word, 0, 0, ticks, 3);
	pthread_join(th, NULL);
	assert_int_equal(word, 4212);
}

/*
 * The distribution as c2c asks latdist for it (c2c.c's dist_begin): one
 * timed thread, one "chain", a block of R = 3000 round trips = 6000
 * one-way hops.  A 20 ns clock step makes a run last 2000 ns at least:
 * at 160 ns a hop, 64 hops (10240 ns, 32 round trips), a batch
 * 6000 / (10 x 64) = 9 runs; at 20 ns a hop, 64 x 20 = 1280 is short, so
 * 128 hops (2560 ns), 6000 / 1280 = 4 runs.  Then runs of 64 hops taking
 * 10260 and 9620 TSC cycles at 1 GHz less an empty run's 20 are
 * (10260 - 20) / 64 = 160 and (9620 - 20) / 64 = 150 ns one way.
 */
static void test_dist_arith(void **state)
{
	struct ph_clock clk = { .use_tsc = true, .tsc_hz = 1e9, .resolution_ns = 20 };
	struct ph_loadsnap before;
	struct ph_latdist d;

	(void)state;
	latdist_begin(&d, &clk, 1, 1, 6000, 20.0 * 6000);
	assert_int_equal(d.hops, 128);
	assert_int_equal(d.per_batch, 4);
	latdist_free(&d);
	latdist_begin(&d, &clk, 1, 1, 6000, 160.0 * 6000);
	assert_int_equal(d.hops, 64);
	assert_int_equal(d.per_batch, 9);
	for (int i = 0; i < 3; i++) {
		d.empty[0][i] = 20;
		d.runs[0][i] = i == 1 ? 9620 : 10260;
	}
	d.done = 3;
	hostload_snap(&before);
	latdist_end(&d, &clk, &before);
	assert_true(d.measured);
	assert_int_equal(d.n, 3);
	assert_float_equal(d.timer_ns, 20, 1e-9);
	assert_float_equal(d.samples[0], 150, 1e-9);
	assert_float_equal(d.samples[1], 160, 1e-9);
	assert_float_equal(d.samples[2], 160, 1e-9);
	latdist_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_relations_two_sockets),
		cmocka_unit_test(test_relations_snc),
		cmocka_unit_test(test_relations_no_l3),
		cmocka_unit_test(test_group),
		cmocka_unit_test(test_pingpong_count),
		cmocka_unit_test(test_pingpong_timed),
		cmocka_unit_test(test_dist_arith),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
