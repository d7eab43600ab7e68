// SPDX-License-Identifier: GPL-2.0-only
/*
 * pagehop_pin.c - how much pagehop.ko may pin, and how much it has pinned.
 *
 * Three limits stand between an ALLOC and the pages, each with its own
 * errno: the module's cap on pinned bytes, for every fd together
 * (max_pinned_mb; over it is E2BIG), a floor of free memory each node keeps
 * (E2BIG too), and the caller's RLIMIT_MEMLOCK, charged to mm->pinned_vm
 * (EPERM).  INFO reports the cap, the bytes pinned and each node's free
 * pages from here.  This file calls nothing else of pagehop.ko.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/capability.h>
#include <linux/mm.h>
#include <linux/mm_types.h>
#include <linux/mmzone.h>
#include <linux/module.h>
#include <linux/nodemask.h>
#include <linux/sched/signal.h>
#include <linux/vmstat.h>

#include "pagehop.h"
#include "pagehop_pin.h"

/* A node must keep this share of its memory free after an ALLOC: 1/20. */
#define PAGEHOP_FLOOR_DIV	20

/* Bytes pinned by every buffer of every fd, against the cap. */
static atomic64_t pagehop_pinned = ATOMIC64_INIT(0);

static unsigned long pagehop_max_pinned_mb;
module_param_named(max_pinned_mb, pagehop_max_pinned_mb, ulong, 0644);
MODULE_PARM_DESC(max_pinned_mb,
		 "Most MiB pagehop pins in all, for every fd together (default 0: half of RAM)");

u64 pagehop_pin_cap_bytes(void)
{
	unsigned long mb = READ_ONCE(pagehop_max_pinned_mb);

	if (mb)
		return (u64)mb << 20;
	return ((u64)totalram_pages() / 2) << PAGE_SHIFT;
}

/* Free pages of a node, in PAGE_SIZE units, from the zone counters. */
u64 pagehop_node_free_pages(int nid)
{
	pg_data_t *pgdat;
	u64 sum = 0;
	int z;

	if (nid < 0 || nid >= nr_node_ids || !node_online(nid))
		return 0;
	pgdat = NODE_DATA(nid);
	for (z = 0; z < MAX_NR_ZONES; z++)
		sum += zone_page_state(&pgdat->node_zones[z], NR_FREE_PAGES);
	return sum;
}

u64 pagehop_node_managed_pages(int nid)
{
	pg_data_t *pgdat;
	u64 sum = 0;
	int z;

	if (nid < 0 || nid >= nr_node_ids || !node_online(nid))
		return 0;
	pgdat = NODE_DATA(nid);
	for (z = 0; z < MAX_NR_ZONES; z++)
		sum += zone_managed_pages(&pgdat->node_zones[z]);
	return sum;
}

u64 pagehop_pinned_bytes(void)
{
	return atomic64_read(&pagehop_pinned);
}

/* Reserve length bytes against the cap and the node's floor, or -E2BIG. */
int pagehop_pin_reserve(u64 length, int node)
{
	u64 cap = pagehop_pin_cap_bytes(), pages = length >> PAGE_SHIFT;
	u64 free = pagehop_node_free_pages(node);
	u64 floor = pagehop_node_managed_pages(node) / PAGEHOP_FLOOR_DIV;

	/* Beyond the buffer's 1 TiB offset window is beyond any cap too. */
	if (length >= PAGEHOP_BUF_MAX || length > cap)
		goto over_cap;
	if (atomic64_add_return(length, &pagehop_pinned) > cap) {
		atomic64_sub(length, &pagehop_pinned);
		goto over_cap;
	}
	/*
	 * Racy against other allocations by design: the floor keeps a request
	 * from pushing the node into reclaim; __GFP_NORETRY is what keeps the
	 * OOM killer away if two requests race past it together.
	 */
	if (free < pages || free - pages < floor) {
		atomic64_sub(length, &pagehop_pinned);
		pagehop_warn("ALLOC: %llu MiB would leave node %d below 5%% free\n",
			     length >> 20, node);
		return -E2BIG;
	}
	return 0;

over_cap:
	pagehop_warn("ALLOC: %llu MiB would exceed max_pinned_mb=%llu (%llu MiB pinned)\n",
		     length >> 20, cap >> 20, pagehop_pinned_bytes() >> 20);
	return -E2BIG;
}

/* Give back what pagehop_pin_reserve() took, when the buffer goes or fails. */
void pagehop_pin_unreserve(u64 length)
{
	atomic64_sub(length, &pagehop_pinned);
}

/*
 * Charge length bytes to mm->pinned_vm, which /proc/PID/status shows as
 * VmPin, holding the caller to RLIMIT_MEMLOCK unless it has CAP_IPC_LOCK,
 * as RDMA's ib_umem_get() does for the pages it pins.  Over the limit is
 * EPERM, as perf_mmap() says for the same limit: distinct from ENOMEM (no
 * memory on the node) and E2BIG (the module's own cap), so the command can
 * say what to change.
 */
int pagehop_pin_charge(struct mm_struct *mm, u64 length)
{
	u64 pages = length >> PAGE_SHIFT;
	u64 limit = rlimit(RLIMIT_MEMLOCK) >> PAGE_SHIFT;
	u64 pinned = atomic64_add_return(pages, &mm->pinned_vm);

	/* capable() only when it matters: it marks the task as using the cap. */
	if (pinned > limit && !capable(CAP_IPC_LOCK)) {
		atomic64_sub(pages, &mm->pinned_vm);
		pagehop_warn("ALLOC: %llu KiB more pinned would exceed RLIMIT_MEMLOCK (%llu KiB, %llu KiB pinned): raise ulimit -l or grant CAP_IPC_LOCK\n",
			     length >> 10, limit << (PAGE_SHIFT - 10),
			     (pinned - pages) << (PAGE_SHIFT - 10));
		return -EPERM;
	}
	return 0;
}

void pagehop_pin_uncharge(struct mm_struct *mm, u64 length)
{
	atomic64_sub(length >> PAGE_SHIFT, &mm->pinned_vm);
}
