// SPDX-License-Identifier: GPL-2.0-only
/*
 * pagehop_pfstate.c - the prefetcher registers' save and restore
 * bookkeeping (pagehop_pfstate.h).  Pure logic: built into pagehop.ko and
 * into tests/unit/test_pfstate.c alike.
 */
#ifdef __KERNEL__
#include <linux/errno.h>
#else
#include <errno.h>
#endif

#include "pagehop_pfstate.h"

#define PAGEHOP_PF_LONG_BITS	(8 * sizeof(unsigned long))

static bool pagehop_pf_test(const unsigned long *b, u32 i)
{
	return b[i / PAGEHOP_PF_LONG_BITS] & (1UL << (i % PAGEHOP_PF_LONG_BITS));
}

static void pagehop_pf_assign(unsigned long *b, u32 i, bool on)
{
	if (on)
		b[i / PAGEHOP_PF_LONG_BITS] |= 1UL << (i % PAGEHOP_PF_LONG_BITS);
	else
		b[i / PAGEHOP_PF_LONG_BITS] &= ~(1UL << (i % PAGEHOP_PF_LONG_BITS));
}

static int pagehop_pf_find(const struct pagehop_pfstate *s, u64 key)
{
	u32 i;

	for (i = 0; i < s->nr; i++)
		if (s->reg[i].used && s->reg[i].key == key)
			return (int)i;
	return -1;
}

/* Whether slot i remembers an original value (referenced, or owed a restore). */
static bool pagehop_pf_live(const struct pagehop_pfreg *r)
{
	return r->users || r->pending;
}

static void pagehop_pf_forget(struct pagehop_pfreg *r)
{
	*r = (struct pagehop_pfreg){ 0 };
}

int pagehop_pfstate_get(const struct pagehop_pfstate *s, const struct pagehop_pfops *ops,
			u32 cpu, u64 *cur, u64 *orig)
{
	int i, err;
	u64 v;

	err = ops->read(ops->ctx, cpu, &v);
	if (err)
		return err;
	i = pagehop_pf_find(s, ops->key(ops->ctx, cpu));
	*cur = v & s->mask;
	*orig = i >= 0 && pagehop_pf_live(&s->reg[i]) ? s->reg[i].orig & s->mask : *cur;
	return 0;
}

int pagehop_pfstate_set(struct pagehop_pfstate *s, const struct pagehop_pfops *ops,
			unsigned long *refs, u32 cpu, u64 disable, u64 *now, u64 *orig)
{
	u64 key = ops->key(ops->ctx, cpu), cur, after;
	struct pagehop_pfreg *r;
	int i, err;
	u32 j;

	err = ops->read(ops->ctx, cpu, &cur);
	if (err)
		return err;
	i = pagehop_pf_find(s, key);
	if (i < 0) {
		for (j = 0; j < s->nr && s->reg[j].used; j++)
			;
		if (j == s->nr)
			return -ENOSPC;
		i = (int)j;
	}
	err = ops->write(ops->ctx, cpu, (cur & ~s->mask) | (disable & s->mask));
	if (!err)
		err = ops->read(ops->ctx, cpu, &after);
	if (err)
		return err;	/* a slot not yet in use stays free */

	r = &s->reg[i];
	/* The first value saved stays: a later SET finds pagehop's own bits. */
	if (!r->used || !pagehop_pf_live(r))
		*r = (struct pagehop_pfreg){ .key = key, .orig = cur, .used = true };
	/* A restore owed since a release is this reference's to do now. */
	r->pending = false;
	/* What the register took, read back, not what was asked. */
	r->changed |= (after ^ r->orig) & s->mask;
	r->last = after;
	if (!pagehop_pf_test(refs, (u32)i)) {
		pagehop_pf_assign(refs, (u32)i, true);
		r->users++;
	}
	*now = after & s->mask;
	*orig = r->orig & s->mask;
	return 0;
}

/*
 * Undo pagehop's changes to slot i's register through an online CPU of it,
 * or leave the restore owed.  1 if it is owed, 0 if done, or -errno.
 */
static int pagehop_pf_restore(struct pagehop_pfstate *s, const struct pagehop_pfops *ops,
			      struct pagehop_pfreg *r)
{
	int cpu = ops->online_cpu(ops->ctx, r->key), err;
	u64 cur, m;

	if (cpu < 0) {
		r->pending = true;
		return 1;
	}
	err = ops->read(ops->ctx, (u32)cpu, &cur);
	if (!err) {
		/* Bits changed by someone else since pagehop's last write stay. */
		m = r->changed & ~(cur ^ r->last) & s->mask;
		if (m)
			err = ops->write(ops->ctx, (u32)cpu, (cur & ~m) | (r->orig & m));
	}
	pagehop_pf_forget(r);
	return err;
}

int pagehop_pfstate_release(struct pagehop_pfstate *s, const struct pagehop_pfops *ops,
			    unsigned long *refs)
{
	int owed = 0, err = 0, e;
	struct pagehop_pfreg *r;
	u32 i;

	for (i = 0; i < s->nr; i++) {
		if (!pagehop_pf_test(refs, i))
			continue;
		pagehop_pf_assign(refs, i, false);
		r = &s->reg[i];
		if (!r->users || --r->users)
			continue;
		e = pagehop_pf_restore(s, ops, r);
		if (e > 0)
			owed++;
		else if (e < 0 && !err)
			err = e;
	}
	return err ? err : owed;
}

int pagehop_pfstate_settle(struct pagehop_pfstate *s, const struct pagehop_pfops *ops, int cpu)
{
	int owed = 0, err = 0, e;
	struct pagehop_pfreg *r;
	u32 i;

	for (i = 0; i < s->nr; i++) {
		r = &s->reg[i];
		if (!r->used || !r->pending)
			continue;
		if (cpu >= 0 && r->key != ops->key(ops->ctx, (u32)cpu)) {
			owed++;
			continue;
		}
		e = pagehop_pf_restore(s, ops, r);
		if (e > 0)
			owed++;
		else if (e < 0 && !err)
			err = e;
	}
	return err ? err : owed;
}

/*
 * Intel disclosed MSR 0x1A4's four bits for Nehalem through Broadwell
 * ("Disclosure of Hardware Prefetcher Control on Some Intel Processors",
 * 2014: one register per core, shared by both hyper-threads); later big
 * cores keep the layout (Intel SDM vol. 4, MSR_MISC_FEATURE_CONTROL; the
 * models likwid drives the same way).  Xeon Phi (Knights Landing and Mill:
 * bit 0 L1, bit 1 L2) and the Atom cores lay 0x1A4 out differently, and
 * hybrid parts mix core types, so they are left out, as is anything not
 * named here.
 */
bool pagehop_pf_intel_model_known(u32 family, u32 model)
{
	static const unsigned char models[] = {
		0x1a, 0x1e, 0x1f, 0x2e,		/* Nehalem */
		0x25, 0x2c, 0x2f,		/* Westmere */
		0x2a, 0x2d,			/* Sandy Bridge */
		0x3a, 0x3e,			/* Ivy Bridge */
		0x3c, 0x3f, 0x45, 0x46,		/* Haswell */
		0x3d, 0x47, 0x4f, 0x56,		/* Broadwell */
		0x4e, 0x5e, 0x55,		/* Skylake; Skylake, Cascade, Cooper Lake server */
		0x8e, 0x9e,			/* Kaby, Coffee, Whiskey, Amber Lake */
		0x66,				/* Cannon Lake */
		0xa5, 0xa6,			/* Comet Lake */
		0x6a, 0x6c, 0x7d, 0x7e,		/* Ice Lake, server and client */
		0xa7,				/* Rocket Lake */
		0x8f,				/* Sapphire Rapids */
	};
	u32 i;

	if (family != 6)
		return false;
	for (i = 0; i < sizeof(models); i++)
		if (models[i] == model)
			return true;
	return false;
}
