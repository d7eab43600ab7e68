// SPDX-License-Identifier: GPL-2.0-only
/*
 * pagehop_chase.c - CHASE: a pointer chase over a pinned buffer, timed with
 * the TSC on a chosen CPU, interrupts off for each window.
 *
 * Each window runs through smp_call_function_single(): on the target CPU in
 * the IPI handler, or directly with interrupts saved off if the caller is
 * already there; either way nothing preempts or interrupts it.  Between
 * windows interrupts are on again, a fatal signal ends the call, and the
 * scheduler gets a turn.
 *
 * A window is bounded by hops (PAGEHOP_CHASE_MAX_LOADS) and by time: every
 * PAGEHOP_CHASE_CHECK hops it reads the TSC and ends, at a whole hop, if
 * the next PAGEHOP_CHASE_CHECK hops, as slow as the last ones, would take it
 * past PAGEHOP_CHASE_WINDOW_US of TSC time (tsc_khz).  So interrupts stay
 * off for at most 1 ms, plus whatever 64 hops take beyond the 64 before
 * them (at 1 us a hop, 64 us).  The look costs one unserialised rdtsc per
 * 64 hops, which overlaps the outstanding load: a fraction of a cycle per
 * hop.  How many hops each window took goes back to the caller (hops_ptr),
 * so that cycles per hop stay right.
 *
 * How a hop finds its slot (docs/abi.md, "CHASE and address translation"):
 *  - 4 KiB buffers are vmap()ed once per call into one virtually contiguous
 *    range: a hop is a single load, and like a 4 KiB user mapping it goes
 *    through 4 KiB PTEs, so TLB misses cost what they cost in user space
 *    (the kernel's vmap PTEs instead of the user's).  The cost is the vmap:
 *    vmalloc space and 8 bytes of page table per 4 KiB, built and torn down
 *    (with a TLB flush) per call.
 *  - 2 MiB and 1 GiB buffers are reached through the kernel's direct map,
 *    translated per hop through a table of each page's direct-map address:
 *    one extra dependent load per hop (8 bytes per 2 MiB of buffer, so the
 *    table stays in L1/L2: a few cycles per hop), and TLB reach at least
 *    that of the user's huge mapping, since x86_64 maps the direct map with
 *    2 MiB or 1 GiB pages.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/mm.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <asm/msr.h>
#include <asm/tsc.h>

#include "pagehop.h"
#include "pagehop_buf.h"
#include "pagehop_chase.h"
#include "pagehop_uapi.h"

/* Hops between two looks at the TSC inside a window. */
#define PAGEHOP_CHASE_CHECK	64

struct pagehop_chase_ctx {
	const char *base;	/* vmap of a 4 KiB buffer, or NULL */
	char **va;		/* else: direct-map address of each page */
	unsigned int shift;
	u64 length;
	u64 budget;		/* TSC cycles a window may last */
	u64 pos;		/* in: where the window starts; out: where it ended */
	u32 loads;
	u32 hops;		/* out: hops taken */
	u64 cycles;
	int err;
};

/*
 * One window, with interrupts off.  Every hop is checked before it is
 * taken; the TSC is looked at every PAGEHOP_CHASE_CHECK hops.
 */
static void pagehop_chase_window(void *arg)
{
	struct pagehop_chase_ctx *c = arg;
	const u64 len = c->length, mask = (1ULL << c->shift) - 1;
	u64 pos = c->pos, t0, t, last, chunk;
	u32 i = 0, stop;

	c->err = 0;
	t0 = rdtsc_ordered();
	last = t0;
	while (i < c->loads) {
		stop = i + min_t(u32, c->loads - i, PAGEHOP_CHASE_CHECK);
		if (c->base) {
			for (; i < stop; i++) {
				if (unlikely(pos >= len || (pos & 7)))
					goto bad;
				pos = READ_ONCE(*(const u64 *)(c->base + pos));
			}
		} else {
			for (; i < stop; i++) {
				if (unlikely(pos >= len || (pos & 7)))
					goto bad;
				pos = READ_ONCE(*(const u64 *)(c->va[pos >> c->shift] + (pos & mask)));
			}
		}
		t = rdtsc();
		chunk = t - last;
		last = t;
		if (t - t0 + chunk > c->budget)
			break;
	}
	goto done;
bad:
	c->err = -EINVAL;
done:
	c->cycles = rdtsc_ordered() - t0;
	c->pos = pos;
	c->hops = i;
}

long pagehop_ioc_chase(struct pagehop_file *pf, void __user *arg)
{
	struct pagehop_chase_ctx ctx = { 0 };
	struct pagehop_chase k;
	struct pagehop_buf *b;
	void *vbase = NULL;
	u64 *cycles = NULL;
	u32 *hops = NULL;
	u32 usize, w;
	unsigned long i;
	long err;

	/* Binaries from before hops_ptr pass the struct without it. */
	err = pagehop_copy_in_min(&k, sizeof(k), offsetof(struct pagehop_chase, hops_ptr), arg,
				  &usize);
	if (err)
		return err;
	if (k.flags || k.reserved[0] || k.reserved[1])
		return -EINVAL;
	if (!k.loads_per_window || k.loads_per_window > PAGEHOP_CHASE_MAX_LOADS ||
	    !k.windows || k.windows > PAGEHOP_CHASE_MAX_WINDOWS || !k.cycles_ptr)
		return -EINVAL;
	if (k.cpu >= nr_cpu_ids || !cpu_online(k.cpu))
		return -EINVAL;
	b = pagehop_buf_get(pf, k.id);
	if (!b)
		return -ENOENT;
	err = -EINVAL;
	if (k.start >= b->length || (k.start & 7))
		goto out;

	err = -ENOMEM;
	cycles = kvmalloc_array(k.windows, sizeof(*cycles), GFP_KERNEL);
	hops = kvmalloc_array(k.windows, sizeof(*hops), GFP_KERNEL);
	if (!cycles || !hops)
		goto out;
	/* With no TSC frequency known (tsc_khz 0) a window is its first 64 hops. */
	ctx.budget = (u64)tsc_khz * PAGEHOP_CHASE_WINDOW_US / 1000;
	ctx.length = b->length;
	ctx.shift = b->shift;
	if (b->shift == PAGE_SHIFT) {
		vbase = vmap(b->chunks, b->nr_chunks, VM_MAP, PAGE_KERNEL);
		if (!vbase)
			goto out;
		ctx.base = vbase;
	} else {
		ctx.va = kvmalloc_array(b->nr_chunks, sizeof(*ctx.va), GFP_KERNEL);
		if (!ctx.va)
			goto out;
		for (i = 0; i < b->nr_chunks; i++)
			ctx.va[i] = page_address(b->chunks[i]);
	}

	ctx.pos = k.start;
	ctx.loads = k.loads_per_window;
	for (w = 0; w < k.windows; w++) {
		err = smp_call_function_single(k.cpu, pagehop_chase_window, &ctx, 1);
		if (err)
			goto out;	/* the CPU went offline */
		err = ctx.err;
		if (err) {
			pagehop_warn("CHASE: hop to offset 0x%llx leaves the buffer or is misaligned\n",
				     ctx.pos);
			goto out;
		}
		/* A caller that cannot learn the hops would take these for loads. */
		if (ctx.hops < ctx.loads && !k.hops_ptr) {
			err = -ETIME;
			goto out;
		}
		cycles[w] = ctx.cycles;
		hops[w] = ctx.hops;
		if (fatal_signal_pending(current)) {
			err = -EINTR;
			goto out;
		}
		cond_resched();
	}
	k.end = ctx.pos;
	err = -EFAULT;
	if (copy_to_user(u64_to_user_ptr(k.cycles_ptr), cycles, k.windows * sizeof(*cycles)))
		goto out;
	if (k.hops_ptr &&
	    copy_to_user(u64_to_user_ptr(k.hops_ptr), hops, k.windows * sizeof(*hops)))
		goto out;
	err = pagehop_copy_out(arg, &k, sizeof(k), usize);
out:
	if (vbase)
		vunmap(vbase);
	kvfree(ctx.va);
	kvfree(cycles);
	kvfree(hops);
	pagehop_buf_put(b);
	return err;
}
