// SPDX-License-Identifier: GPL-2.0-only
/*
 * pagehop_query.c - QUERY: where the caller's own mappings really are.
 *
 * walk_page_range() is not exported, and on 6.12 neither is
 * __pte_offset_map() (behind pte_offset_map()), while follow_pfnmap_start()
 * serves only PFNMAP VMAs and does not say the level.  So the walk is open
 * coded: pgd/p4d/pud/pmd_offset are inline, and pte_offset_kernel() is valid
 * for user page tables because x86_64 has no HIGHPTE.  It runs under
 * mmap_read_lock, which keeps VMAs and upper tables in place; entries are
 * read once each (READ_ONCE) because faults may fill them concurrently; a
 * PTE table is read under rcu_read_lock and the PMD re-checked afterwards,
 * since 6.5+ may free an empty or collapsed PTE table by RCU under only the
 * mmap read lock.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/mm.h>
#include <linux/pgtable.h>
#include <linux/rcupdate.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "pagehop.h"

/* Entries gathered under one hold of the mmap lock, then copied out. */
#define PAGEHOP_QUERY_BATCH	128

static void pagehop_leaf(struct pagehop_query_entry *e, unsigned long addr,
			 unsigned long size, unsigned long pfn, u32 level)
{
	e->addr = addr & ~(size - 1);
	e->length = size;
	e->pfn = pfn;
	e->level = level;
	e->node = pfn_valid(pfn) ? page_to_nid(pfn_to_page(pfn)) : -1;
}

static void pagehop_hole(struct pagehop_query_entry *e, unsigned long addr, unsigned long end)
{
	e->addr = addr;
	e->length = end - addr;
	e->pfn = 0;
	e->level = PAGEHOP_LEVEL_NONE;
	e->node = -1;
}

/*
 * Describe the piece of [addr, end) that starts at addr: a leaf (which may
 * begin before addr and end after end) or a hole, at most up to end.
 */
static void pagehop_walk_one(struct mm_struct *mm, unsigned long addr, unsigned long end,
			     struct pagehop_query_entry *e)
{
	struct vm_area_struct *vma;
	pgd_t *pgdp, pgd;
	p4d_t *p4dp, p4d;
	pud_t *pudp, pud;
	pmd_t *pmdp, pmd;
	pte_t *ptep, pte;

	vma = find_vma(mm, addr);
	if (!vma || vma->vm_start >= end)
		return pagehop_hole(e, addr, end);
	if (vma->vm_start > addr)
		return pagehop_hole(e, addr, vma->vm_start);

	pgdp = pgd_offset(mm, addr);
	pgd = READ_ONCE(*pgdp);
	if (pgd_none(pgd) || pgd_bad(pgd))
		return pagehop_hole(e, addr, pgd_addr_end(addr, end));

	p4dp = p4d_offset(pgdp, addr);
	p4d = READ_ONCE(*p4dp);
	if (p4d_none(p4d) || !p4d_present(p4d) || p4d_bad(p4d))
		return pagehop_hole(e, addr, p4d_addr_end(addr, end));

	pudp = pud_offset(p4dp, addr);
	pud = READ_ONCE(*pudp);
	if (pud_none(pud) || !pud_present(pud))
		return pagehop_hole(e, addr, pud_addr_end(addr, end));
	if (pud_leaf(pud))
		return pagehop_leaf(e, addr, PUD_SIZE, pud_pfn(pud), PAGEHOP_LEVEL_PUD);
	if (pud_bad(pud))
		return pagehop_hole(e, addr, pud_addr_end(addr, end));

	/* From the value read, not the live entry: both are a table here. */
	pmdp = pmd_offset(&pud, addr);
again:
	pmd = READ_ONCE(*pmdp);
	if (pmd_none(pmd) || !pmd_present(pmd))
		return pagehop_hole(e, addr, pmd_addr_end(addr, end));
	if (pmd_leaf(pmd))
		return pagehop_leaf(e, addr, PMD_SIZE, pmd_pfn(pmd), PAGEHOP_LEVEL_PMD);
	if (pmd_bad(pmd))
		return pagehop_hole(e, addr, pmd_addr_end(addr, end));

	rcu_read_lock();
	ptep = pte_offset_kernel(&pmd, addr);
	pte = ptep_get(ptep);
	if (!pmd_same(pmd, READ_ONCE(*pmdp))) {
		/* The table went away or became a leaf under us: look again. */
		rcu_read_unlock();
		goto again;
	}
	rcu_read_unlock();
	if (!pte_present(pte))
		return pagehop_hole(e, addr, addr + PAGE_SIZE);
	pagehop_leaf(e, addr, PAGE_SIZE, pte_pfn(pte), PAGEHOP_LEVEL_PTE);
}

long pagehop_ioc_query(void __user *arg)
{
	struct pagehop_query_entry *kbuf, e, hole = { 0 };
	struct pagehop_query_entry __user *out;
	struct mm_struct *mm = current->mm;
	unsigned long addr, end, resume;
	struct pagehop_query q;
	bool have_hole = false;
	u32 usize, n, room, written = 0;
	long err;

	err = pagehop_copy_in(&q, sizeof(q), arg, &usize);
	if (err)
		return err;
	if (q.flags || q.reserved[0] || q.reserved[1])
		return -EINVAL;
	if (!mm || !q.length || !IS_ALIGNED(q.addr | q.length, PAGE_SIZE) ||
	    q.addr + q.length < q.addr || q.addr + q.length > TASK_SIZE ||
	    !q.max_entries || !q.entries_ptr)
		return -EINVAL;

	kbuf = kmalloc_array(PAGEHOP_QUERY_BATCH, sizeof(*kbuf), GFP_KERNEL);
	if (!kbuf)
		return -ENOMEM;
	out = u64_to_user_ptr(q.entries_ptr);
	addr = q.addr;
	end = q.addr + q.length;

	/*
	 * Holes merge into one entry, "hole", written only when a leaf or the
	 * end follows; so "resume", where the first piece not yet written
	 * starts, is the hole's start while one is open.
	 */
	while (addr < end && written < q.max_entries) {
		room = min_t(u32, PAGEHOP_QUERY_BATCH, q.max_entries - written);
		n = 0;
		if (mmap_read_lock_killable(mm)) {
			err = -EINTR;
			goto out;
		}
		while (addr < end && n < room) {
			pagehop_walk_one(mm, addr, end, &e);
			if (e.level == PAGEHOP_LEVEL_NONE) {
				if (have_hole && hole.addr + hole.length == e.addr) {
					hole.length += e.length;
				} else {
					if (have_hole)
						kbuf[n++] = hole;
					hole = e;
					have_hole = true;
				}
				addr = e.addr + e.length;
				continue;
			}
			if (have_hole) {
				kbuf[n++] = hole;
				have_hole = false;
				if (n == room)
					break;	/* the leaf is found again next batch */
			}
			kbuf[n++] = e;
			addr = e.addr + e.length;
		}
		mmap_read_unlock(mm);
		if (copy_to_user(out + written, kbuf, n * sizeof(*kbuf))) {
			err = -EFAULT;
			goto out;
		}
		written += n;
		if (fatal_signal_pending(current)) {
			err = -EINTR;
			goto out;
		}
		cond_resched();
	}
	resume = have_hole ? hole.addr : addr;
	if (addr >= end && have_hole && written < q.max_entries) {
		if (copy_to_user(out + written, &hole, sizeof(hole))) {
			err = -EFAULT;
			goto out;
		}
		written++;
		resume = end;
	}
	q.nr_entries = written;
	q.next_addr = min(resume, end);
	err = pagehop_copy_out(arg, &q, sizeof(q), usize);
out:
	kfree(kbuf);
	return err;
}
