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
#include "progress.h"
#include "runner.h"
#include "util.h"

#include <errno.h>
#include <numa.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

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

/* The team of seg's node's CPUs, with an error and a tick count each. */
struct crew {
	struct ph_team *team;
	int n;
	int *err;
	uint64_t *ticks;
};

/*
 * Below this many slots (64 MiB) the passes over a chain's order take
 * tens of milliseconds on one CPU, less than waking a team five times on a
 * busy host (each pass waits for its slowest CPU to be scheduled):
 * chain_derive_make and chain_own_make run them on the calling thread.
 */
#define CREW_MIN_SLOTS (1u << 20)

static int crew_start(const struct ph_segment *seg, struct crew *c)
{
	int *cpus;
	char why[256];

	c->n = binding_node_cpus(seg->node, &cpus);
	if (!c->n) {
		free(cpus);
		return -ENODEV;
	}
	c->team = team_start(cpus, c->n, why, sizeof(why));
	free(cpus);
	if (!c->team)
		return -EPERM;
	c->err = xcalloc((size_t)c->n, sizeof(int));
	c->ticks = xcalloc((size_t)c->n, sizeof(uint64_t));
	return 0;
}

/* A crew of the calling thread alone. */
static void crew_here(struct crew *c)
{
	c->team = NULL;
	c->n = 1;
	c->err = xcalloc(1, sizeof(int));
	c->ticks = xcalloc(1, sizeof(uint64_t));
}

/* fn on every CPU of the crew, each writing its error to c->err[tid]; the first. */
static int crew_run(struct crew *c, team_work_fn fn, void *ctx, struct ph_session *s)
{
	if (!c->team)
		fn(ctx, 0);
	else
		team_run(c->team, fn, ctx, &s->m.clk, c->ticks);
	return team_first_error(c->err, c->n);
}

static void crew_stop(struct crew *c)
{
	if (c->team)
		team_stop(c->team);
	free(c->err);
	free(c->ticks);
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
	struct crew c;
	int err;

	chain_orders_forget(s->orders);

	j.nslots = chase_slots(bytes, spec);
	if (j.nslots < 0)
		return (int)j.nslots;
	err = crew_start(seg, &c);
	if (err)
		return err;
	j.nthreads = c.n;
	j.err = c.err;
	err = crew_run(&c, work_part, &j, s);
	if (!err)
		err = crew_run(&c, work_check, &j, s);
	crew_stop(&c);
	phase_add(PH_PHASE_CHAIN, now_mono_raw() - t0);
	if (err)
		return err;
	*nslots = j.nslots;
	*start = (char *)seg->addr + chase_offset_at(bytes, spec, 0);
	return 0;
}

/* ---- a sweep's chains derived from one random order ---- */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

void chain_orders_plan(struct chain_orders *o, const uint64_t *sizes, int n, uint64_t seed)
{
	memset(o, 0, sizeof(*o));
	o->seed = seed;
	o->bytes = xcalloc(n ? (size_t)n : 1, sizeof(uint64_t));
	memcpy(o->bytes, sizes, (size_t)n * sizeof(uint64_t));
	qsort(o->bytes, (size_t)n, sizeof(uint64_t), cmp_u64);
	for (int i = 0; i < n; i++)
		if (!o->nlevels || o->bytes[o->nlevels - 1] != o->bytes[i])
			o->bytes[o->nlevels++] = o->bytes[i];
	o->order = xcalloc(n ? (size_t)n : 1, sizeof(uint32_t *));
	o->mapped = xcalloc(n ? (size_t)n : 1, sizeof(size_t));
}

static void unmap(void *p, size_t len)
{
	if (p)
		munmap(p, len);
}

void chain_orders_free(struct chain_orders *o)
{
	for (int i = 0; i < o->nlevels; i++)
		unmap(o->order[i], o->mapped[i]);
	unmap(o->next, o->next_mapped);
	unmap(o->own, o->own_mapped);
	free(o->bytes);
	free(o->order);
	free(o->mapped);
	memset(o, 0, sizeof(*o));
}

uint64_t chain_orders_bytes(const struct chain_orders *o)
{
	uint64_t b = 0;

	for (int i = 0; i < o->nlevels; i++)
		b += o->bytes[i] / CHASE_SLOT * sizeof(uint32_t);
	/* next[], and the order of a chain of another pattern (chain_own_make). */
	return o->nlevels ? b + 2 * (o->bytes[o->nlevels - 1] / CHASE_SLOT * sizeof(uint32_t)) : 0;
}

static int level_of(const struct chain_orders *o, uint64_t bytes)
{
	for (int i = 0; i < o->nlevels; i++)
		if (o->bytes[i] == bytes)
			return i;
	return -1;
}

bool chain_orders_fit(const struct chain_orders *o, const struct chase_spec *spec, uint64_t bytes)
{
	/* The slot numbers are 4 bytes, and chase_link_part's "none" is the largest. */
	return o && spec->pattern == CHASE_RANDOM && spec->seed == o->seed &&
	       level_of(o, bytes) >= 0 && chase_slots(o->bytes[o->nlevels - 1], spec) > 1 &&
	       o->bytes[o->nlevels - 1] / CHASE_SLOT < UINT32_MAX;
}

uint64_t chain_orders_offset(const struct chain_orders *o, uint64_t bytes, uint64_t hop)
{
	int k = level_of(o, bytes);
	uint64_t m = bytes / CHASE_SLOT;

	return (uint64_t)o->order[k][hop % m] * CHASE_SLOT;
}

/*
 * 4 bytes a slot, mapped with transparent huge pages asked for: at 4 GiB
 * the largest order alone is 256 MiB, 65,536 faults on 4 KiB pages.  The
 * node's CPUs write it first, so it lies on their node.
 */
static uint32_t *map_slots(uint64_t m, size_t *len)
{
	void *p;

	*len = (size_t)(m * sizeof(uint32_t));
	p = mmap(NULL, *len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	(void)madvise(p, *len, MADV_HUGEPAGE);
	return p;
}

struct link_job {
	char *base;
	uint64_t m, bytes;
	const struct chase_spec *spec;
	uint32_t *order, *next;
	enum chase_link_step step;	/* 0: chase_order_part */
	int nthreads;
	int *err;
};

static void work_link(void *ctx, int tid)
{
	struct link_job *j = ctx;
	uint64_t a = j->m * (uint64_t)tid / (uint64_t)j->nthreads,
		 b = j->m * (uint64_t)(tid + 1) / (uint64_t)j->nthreads;

	if (!j->step)
		j->err[tid] = chase_order_part(j->bytes, j->spec, j->order, a, b, &ph_interrupted);
	else
		j->err[tid] = chase_link_part(j->base, j->m, j->order, j->next, j->step, a, b,
					      &ph_interrupted);
}

/* The largest working set's order by the team, then each level cut from the one above. */
static int orders_build(struct chain_orders *o, struct crew *c, struct link_job *j,
			struct ph_session *s)
{
	int top = o->nlevels - 1, err;
	struct chase_spec spec = { .pattern = CHASE_RANDOM, .seed = o->seed };

	progress_phase("the random order of the sweep's chains (%d working sets)", o->nlevels);
	j->bytes = o->bytes[top];
	j->m = o->bytes[top] / CHASE_SLOT;
	j->spec = &spec;
	j->step = 0;
	/* After a signal the study stops; mapped already, an order is written again. */
	if (!o->order[top])
		o->order[top] = map_slots(j->m, &o->mapped[top]);
	if (!o->order[top])
		return -ENOMEM;
	j->order = o->order[top];
	err = crew_run(c, work_link, j, s);
	for (int k = top - 1; k >= 0 && !err; k--) {
		uint64_t m = o->bytes[k] / CHASE_SLOT;
		int64_t kept;

		if (!o->order[k])
			o->order[k] = map_slots(m, &o->mapped[k]);
		if (!o->order[k])
			return -ENOMEM;
		kept = chase_order_keep(o->order[k + 1], o->bytes[k + 1] / CHASE_SLOT, m, o->order[k],
					&ph_interrupted);
		err = kept < 0 ? (int)kept : (uint64_t)kept != m ? -EINVAL : 0;
	}
	o->built = !err;
	return err;
}

/* ---- a chain laid in one view of the frames, rebased into another ---- */

void chain_orders_views(struct chain_orders *o, void *const *views, int n, uint64_t bytes)
{
	o->nviews = n < PH_MAX_VIEWS ? n : PH_MAX_VIEWS;
	for (int k = 0; k < o->nviews; k++)
		o->views[k] = views[k];
	o->view_bytes = bytes;
	o->laid = NULL;
}

void chain_orders_forget(struct chain_orders *o)
{
	if (o)
		o->laid = NULL;
}

static bool is_view(const struct chain_orders *o, const void *addr, uint64_t bytes)
{
	for (int k = 0; k < o->nviews; k++)
		if (o->views[k] == addr)
			return bytes <= o->view_bytes;
	return false;
}

/* Record where the chain just written and checked lies: in a view, or nowhere that can be rebased. */
static void laid_at(struct chain_orders *o, char *addr, uint64_t bytes, const struct chase_spec *spec)
{
	o->laid = is_view(o, addr, bytes) ? addr : NULL;
	o->laid_bytes = bytes;
	o->laid_spec = *spec;
}

/* Whether spec's chain over bytes is laid in another view of the frames seg's addr maps. */
static bool laid_elsewhere(const struct chain_orders *o, const void *addr, uint64_t bytes,
			   const struct chase_spec *spec)
{
	return o->laid && o->laid != addr && is_view(o, addr, bytes) && o->laid_bytes == bytes &&
	       o->laid_spec.pattern == spec->pattern && o->laid_spec.param == spec->param &&
	       o->laid_spec.seed == spec->seed;
}

struct rebase_job {
	char *base;
	const char *old;
	uint64_t m;
	int nthreads;
	int *err;
	uint64_t *bad;
};

static void work_rebase(void *ctx, int tid)
{
	struct rebase_job *j = ctx;
	uint64_t a = j->m * (uint64_t)tid / (uint64_t)j->nthreads,
		 b = j->m * (uint64_t)(tid + 1) / (uint64_t)j->nthreads;

	j->err[tid] = chase_rebase_part(j->base, j->m, j->old, a, b, &j->bad[tid], &ph_interrupted);
}

/*
 * The chain laid in o->laid moved into seg's view in place, by the crew.
 * Why that is as good as writing and checking it there: the chain in
 * o->laid was written and checked to be one cycle through exactly its
 * slots (chase_link_part's passes), and nothing has written the frames
 * since (else o->laid would be NULL: chain_make, link_make and the
 * bandwidth arrays forget it).  seg's slot x is the same frame, the same
 * bytes, as o->laid's slot x, so its link to o->laid's slot y becomes
 * seg's slot y: the same map on slot numbers, a bijection between the two
 * views' addresses, so one cycle through exactly seg's slots in the same
 * order.  The pass refuses a link that is not a slot of o->laid's working
 * set, which catches bytes that are not that chain; it would not alone
 * prove a cycle, the premise above does.
 */
static int rebase_make(struct ph_session *s, struct ph_segment *seg, uint64_t bytes,
		       struct chain_orders *o)
{
	struct rebase_job j = { .base = seg->addr, .old = o->laid, .m = bytes / CHASE_SLOT };
	struct crew c;
	int err = 0;

	progress_phase("rebasing the chain over %s laid in another view",
		       format_size(bytes, (char[32]){ 0 }, 32));
	if (j.m < CREW_MIN_SLOTS)
		crew_here(&c);
	else if ((err = crew_start(seg, &c)))
		return err;
	j.nthreads = c.n;
	j.err = c.err;
	j.bad = xcalloc((size_t)c.n, sizeof(uint64_t));
	err = crew_run(&c, work_rebase, &j, s);
	o->laid = NULL;
	if (err == -EINVAL) {
		for (int t = 0; t < c.n; t++)
			if (c.err[t] == -EINVAL) {
				uint64_t x = j.bad[t];

				ph_err("the chain over %llu bytes rebased from %p to %p: slot %llu (offset 0x%llx) links to %p, not a slot of the working set",
				       (unsigned long long)bytes, (const void *)j.old, (void *)j.base,
				       (unsigned long long)x, (unsigned long long)(x * CHASE_SLOT),
				       *(void **)(j.base + x * CHASE_SLOT));
				break;
			}
	} else if (!err) {
		o->laid = seg->addr;
		o->rebased++;
	}
	free(j.bad);
	crew_stop(&c);
	return err;
}

/*
 * The chain over the first bytes of seg from an order, written and checked
 * by chase_link_part on the crew: o's derived random order (own NULL), or
 * own's own chain's order made first into o's scratch; or, where it is
 * laid in another view of seg's frames, rebased from there (rebase_make).
 */
static int link_make(struct ph_session *s, struct ph_segment *seg, uint64_t bytes,
		     struct chain_orders *o, const struct chase_spec *own, const uint32_t **ord)
{
	static const enum chase_link_step steps[] = {
		CHASE_LINK_CLEAR, CHASE_LINK_SCATTER, CHASE_LINK_WRITE, CHASE_LINK_VERIFY,
	};
	uint64_t top = o->bytes[o->nlevels - 1] / CHASE_SLOT;
	struct chase_spec rnd = { .pattern = CHASE_RANDOM, .seed = o->seed };
	const struct chase_spec *spec = own ? own : &rnd;
	struct link_job j = { .base = seg->addr };
	double t0 = now_mono_raw();
	int err = 0, k = level_of(o, bytes);
	struct crew c;

	if ((!own && k < 0) || bytes / CHASE_SLOT > top || (uintptr_t)seg->addr % CHASE_SLOT)
		return -EINVAL;
	/* o->own still holds a laid own chain's order: the last one written was it. */
	if (laid_elsewhere(o, seg->addr, bytes, spec)) {
		err = rebase_make(s, seg, bytes, o);
		phase_add(PH_PHASE_CHAIN, now_mono_raw() - t0);
		*ord = own ? o->own : o->order[k];
		return err;
	}
	o->laid = NULL;
	if (!o->next)
		o->next = map_slots(top, &o->next_mapped);
	if (own && !o->own)
		o->own = map_slots(top, &o->own_mapped);
	if (!o->next || (own && !o->own))
		return -ENOMEM;
	/* The first random chain computes the largest order: that wants the team. */
	if (bytes / CHASE_SLOT < CREW_MIN_SLOTS && (own || o->built))
		crew_here(&c);
	else if ((err = crew_start(seg, &c)))
		return err;
	j.nthreads = c.n;
	j.err = c.err;
	if (own) {
		j.bytes = bytes;
		j.m = bytes / CHASE_SLOT;
		j.spec = own;
		j.order = o->own;
		err = crew_run(&c, work_link, &j, s);
	} else if (!o->built) {
		err = orders_build(o, &c, &j, s);
	}
	j.m = bytes / CHASE_SLOT;
	j.order = own ? o->own : o->order[k];
	j.next = o->next;
	for (size_t i = 0; i < ARRAY_SIZE(steps) && !err; i++) {
		j.step = steps[i];
		err = crew_run(&c, work_link, &j, s);
	}
	crew_stop(&c);
	if (!err)
		laid_at(o, seg->addr, bytes, spec);
	phase_add(PH_PHASE_CHAIN, now_mono_raw() - t0);
	*ord = j.order;
	return err;
}

int chain_derive_make(struct ph_session *s, struct ph_segment *seg, uint64_t bytes,
		      struct chain_orders *o, int64_t *nslots, void **start)
{
	const uint32_t *ord;
	int err = link_make(s, seg, bytes, o, NULL, &ord);

	if (err)
		return err;
	*nslots = (int64_t)(bytes / CHASE_SLOT);
	*start = (char *)seg->addr + (uint64_t)ord[0] * CHASE_SLOT;
	return 0;
}

bool chain_orders_own(const struct chain_orders *o, const struct chase_spec *spec, uint64_t bytes)
{
	return o && o->nlevels && spec->pattern == CHASE_TLB && chase_slots(bytes, spec) > 1 &&
	       bytes <= o->bytes[o->nlevels - 1] && o->bytes[o->nlevels - 1] / CHASE_SLOT < UINT32_MAX;
}

int chain_own_make(struct ph_session *s, struct ph_segment *seg, uint64_t bytes,
		   const struct chase_spec *spec, struct chain_orders *o, int64_t *nslots,
		   void **start)
{
	const uint32_t *ord;
	int err = link_make(s, seg, bytes, o, spec, &ord);

	if (err)
		return err;
	*nslots = (int64_t)(bytes / CHASE_SLOT);
	*start = (char *)seg->addr + (uint64_t)ord[0] * CHASE_SLOT;
	return 0;
}
