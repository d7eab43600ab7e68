// SPDX-License-Identifier: GPL-2.0-only
/*
 * chain.c - chains built and checked in parallel on the memory's node.
 *
 * Why the memory's node: the builders write every line of the buffer once
 * and the check reads every line once; from the node's own CPUs those are
 * local accesses, the fastest the machine has, whichever CPU the figure is
 * then measured from.
 */
#include "chain.h"
#include "binding.h"
#include "phases.h"
#include "runner.h"
#include "util.h"

#include <errno.h>
#include <numa.h>
#include <stdio.h>
#include <stdlib.h>

struct chain_job {
	char *base;
	uint64_t bytes;
	struct chase_spec spec;
	int nthreads;
	int64_t nslots;
	int *err;
};

static void work_part(void *ctx, int tid)
{
	struct chain_job *j = ctx;
	int64_t n = chase_build_part(j->base, j->bytes, &j->spec, (unsigned)tid,
				     (unsigned)j->nthreads, &ph_interrupted);

	j->err[tid] = n < 0 ? (int)n : 0;
}

/* Thread tid checks hops [tid n / T, (tid + 1) n / T): the spans cover the cycle. */
static void work_check(void *ctx, int tid)
{
	struct chain_job *j = ctx;
	uint64_t n = (uint64_t)j->nslots, a = n * (uint64_t)tid / (uint64_t)j->nthreads,
		 b = n * (uint64_t)(tid + 1) / (uint64_t)j->nthreads;

	j->err[tid] = a < b ? chase_check_span(j->base, j->bytes, &j->spec, a, b, &ph_interrupted)
			    : 0;
}

int chain_cpus(const struct ph_segment *seg)
{
	int *cpus, n = binding_node_cpus(seg->node, &cpus);

	free(cpus);
	return n;
}

int chain_make(struct ph_session *s, struct ph_segment *seg, uint64_t bytes,
	       const struct chase_spec *spec, int64_t *nslots, void **start)
{
	struct chain_job j = { .base = seg->addr, .bytes = bytes, .spec = *spec };
	double t0 = now_mono_raw();
	struct ph_team *team;
	uint64_t *ticks;
	int *cpus, err;
	char why[256];

	j.nslots = chase_slots(bytes, spec);
	if (j.nslots < 0)
		return (int)j.nslots;
	j.nthreads = binding_node_cpus(seg->node, &cpus);
	if (!j.nthreads) {
		free(cpus);
		return -ENODEV;
	}
	team = team_start(cpus, j.nthreads, why, sizeof(why));
	free(cpus);
	if (!team)
		return -EPERM;
	j.err = xcalloc((size_t)j.nthreads, sizeof(int));
	ticks = xcalloc((size_t)j.nthreads, sizeof(uint64_t));
	team_run(team, work_part, &j, &s->m.clk, ticks);
	err = team_first_error(j.err, j.nthreads);
	if (!err) {
		team_run(team, work_check, &j, &s->m.clk, ticks);
		err = team_first_error(j.err, j.nthreads);
	}
	team_stop(team);
	free(j.err);
	free(ticks);
	phase_add(PH_PHASE_CHAIN, now_mono_raw() - t0);
	if (err)
		return err;
	*nslots = j.nslots;
	*start = (char *)seg->addr + chase_offset_at(bytes, spec, 0);
	return 0;
}
