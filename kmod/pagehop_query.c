// SPDX-License-Identifier: GPL-2.0-only
/*
 * pagehop_query.c - QUERY: where the caller's own mappings really are.
 *
 * walk_page_range() is not exported, and on 6.12 neither is
 * __pte_offset_map() (behind pte_offset_map()), while follow_pfnmap_start()
 * serves only PFNMAP VMAs and does not say the level.  So the walk is open
 * coded, on the rules mm/ walkers keep:
 *  - it runs under mmap_read_lock, which keeps VMAs and the upper tables of
 *    this mm in place; entries are read once each, since faults may fill
 *    them concurrently;
 *  - a PTE table is found and read inside one RCU read section, the PMD
 *    read inside it as __pte_offset_map() does (6.5+ frees an empty or
 *    collapsed PTE table by RCU under only the mmap read lock), and the PMD
 *    is checked again before the entries are believed;
 *  - hugetlb PMD tables shared between processes (MAP_SHARED hugetlbfs,
 *    1 GiB-aligned) can be unshared through the rmap, without our mmap
 *    lock, and then freed by the last other sharer.  In-tree walkers hold
 *    hugetlb_vma_lock_read(), which is not exported; huge_pmd_unshare()
 *    also requires the file's i_mmap_rwsem held for write, so holding it
 *    for read keeps the table ours for the walk (option 2.2 in the comment
 *    above huge_pte_offset() in include/linux/hugetlb.h);
 *  - pte_offset_kernel() is valid for user page tables: x86_64 has no
 *    HIGHPTE.
 *
 * The work of one call is bounded, not the output: holes merge into one
 * entry, so a sparse range could otherwise cost any amount of walking for
 * one entry.  An empty PTE table is read in one pass, not entry by entry
 * from the top; a VMA that cannot be accessed (PROT_NONE) is one hole
 * without a look at its tables.  Every PAGEHOP_QUERY_HOLD_WORK entries read,
 * the lock is dropped, a fatal signal ends the call and the scheduler runs;
 * after PAGEHOP_QUERY_CALL_WORK the call returns with what it has, and
 * next_addr says where to go on.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/hugetlb_inline.h>
#include <linux/memory_hotplug.h>
#include <linux/mm.h>
#include <linux/pgtable.h>
#include <linux/rcupdate.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "pagehop.h"
#include "pagehop_query.h"
#include "pagehop_uapi.h"

/* Entries gathered under one hold of the mmap lock, then copied out. */
#define PAGEHOP_QUERY_BATCH	128

/*
 * Work is counted in page-table entries read (a VMA lookup counts as one).
 * 2^14 per hold of the lock is 32 PTE tables: some tens of microseconds
 * natively, about a millisecond under TCG, between chances for a writer of
 * the lock, a signal and the scheduler.  2^20 per call is 2048 PTE tables,
 * 4 GiB of address space even where every table is there and empty: a few
 * milliseconds natively, tens under TCG.
 */
#define PAGEHOP_QUERY_HOLD_WORK	(1UL << 14)
#define PAGEHOP_QUERY_CALL_WORK	(1UL << 20)

struct pagehop_qwalk {
	struct mm_struct *mm;
	struct vm_area_struct *vma;	/* around the last address, or NULL */
	unsigned long work;		/* entries read so far in this call */
};

/* The node of an online page frame, or -1 (no memmap, ZONE_DEVICE, offline). */
static int pagehop_pfn_node(unsigned long pfn)
{
	struct page *page = pfn_to_online_page(pfn);

	return page ? page_to_nid(page) : -1;
}

static void pagehop_leaf(struct pagehop_query_entry *e, unsigned long addr,
			 unsigned long size, unsigned long pfn, u32 level)
{
	e->addr = addr & ~(size - 1);
	e->length = size;
	e->pfn = pfn;
	e->level = level;
	e->node = pagehop_pfn_node(pfn);
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
 * Describe, from the page tables, the piece of [addr, end) that starts at
 * addr, all inside one accessible VMA: a leaf (which may begin before addr
 * and end after end) or a hole.  A hole at the PTE level runs on through
 * the table to its first present entry.
 */
static void pagehop_walk_tables(struct pagehop_qwalk *w, unsigned long addr,
				unsigned long end, struct pagehop_query_entry *e)
{
	unsigned long a, tend;
	pgd_t *pgdp, pgd;
	p4d_t *p4dp, p4d;
	pud_t *pudp, pud;
	pmd_t *pmdp, pmd;
	pte_t *ptep, pte;

	pgdp = pgd_offset(w->mm, addr);
	pgd = READ_ONCE(*pgdp);
	w->work++;
	if (pgd_none(pgd) || pgd_bad(pgd))
		return pagehop_hole(e, addr, pgd_addr_end(addr, end));

	p4dp = p4d_offset(pgdp, addr);
	p4d = READ_ONCE(*p4dp);
	w->work++;
	if (p4d_none(p4d) || !p4d_present(p4d) || p4d_bad(p4d))
		return pagehop_hole(e, addr, p4d_addr_end(addr, end));

	pudp = pud_offset(p4dp, addr);
	pud = READ_ONCE(*pudp);
	w->work++;
	if (pud_none(pud) || !pud_present(pud))
		return pagehop_hole(e, addr, pud_addr_end(addr, end));
	if (pud_leaf(pud))
		return pagehop_leaf(e, addr, PUD_SIZE, pud_pfn(pud), PAGEHOP_LEVEL_PUD);
	if (pud_bad(pud))
		return pagehop_hole(e, addr, pud_addr_end(addr, end));

	/* From the value read, not the live entry: both are this table. */
	pmdp = pmd_offset(&pud, addr);
	tend = pmd_addr_end(addr, end);
	rcu_read_lock();
again:
	pmd = pagehop_pmdp_get_lockless(pmdp);
	w->work++;
	if (pmd_none(pmd) || !pmd_present(pmd)) {
		rcu_read_unlock();
		return pagehop_hole(e, addr, tend);
	}
	if (pmd_leaf(pmd)) {
		rcu_read_unlock();
		return pagehop_leaf(e, addr, PMD_SIZE, pmd_pfn(pmd), PAGEHOP_LEVEL_PMD);
	}
	if (pmd_bad(pmd)) {
		rcu_read_unlock();
		return pagehop_hole(e, addr, tend);
	}
	/*
	 * The table was linked when it was read inside this RCU section, so
	 * it stays readable until the section ends even if it is unlinked.
	 */
	ptep = pte_offset_kernel(&pmd, addr);
	pte = __pte(0);
	for (a = addr; a < tend; a += PAGE_SIZE, ptep++) {
		pte = ptep_get(ptep);
		w->work++;
		if (pte_present(pte))
			break;
	}
	if (!pmd_same(pmd, pagehop_pmdp_get_lockless(pmdp)))
		goto again;	/* the table went away or became a leaf: look again */
	rcu_read_unlock();
	if (a > addr)
		return pagehop_hole(e, addr, a);
	/*
	 * A PTE made PROT_NONE by NUMA balancing in an accessible VMA is
	 * present to pte_present() and still maps its page: a leaf.
	 */
	pagehop_leaf(e, addr, PAGE_SIZE, pte_pfn(pte), PAGEHOP_LEVEL_PTE);
}

/* Describe the piece of [addr, end) that starts at addr: a leaf or a hole. */
static void pagehop_walk_one(struct pagehop_qwalk *w, unsigned long addr, unsigned long end,
			     struct pagehop_query_entry *e)
{
	struct vm_area_struct *vma = w->vma;
	struct address_space *shared = NULL;

	if (!vma || addr < vma->vm_start || addr >= vma->vm_end) {
		vma = find_vma(w->mm, addr);
		w->vma = vma;
		w->work++;
	}
	if (!vma || vma->vm_start >= end)
		return pagehop_hole(e, addr, end);
	if (vma->vm_start > addr)
		return pagehop_hole(e, addr, vma->vm_start);
	end = min(end, vma->vm_end);
	/*
	 * Nothing in a PROT_NONE mapping can be reached, whatever its entries
	 * hold (a PROT_NONE 2 MiB entry is pmd_present() on x86).
	 */
	if (!vma_is_accessible(vma))
		return pagehop_hole(e, addr, end);
	if (is_vm_hugetlb_page(vma) && (vma->vm_flags & VM_MAYSHARE) && vma->vm_file) {
		shared = vma->vm_file->f_mapping;
		i_mmap_lock_read(shared);
	}
	pagehop_walk_tables(w, addr, end, e);
	if (shared)
		i_mmap_unlock_read(shared);
}

long pagehop_ioc_query(void __user *arg)
{
	struct pagehop_query_entry *kbuf, e, hole = { 0 };
	struct pagehop_query_entry __user *out;
	struct pagehop_qwalk w = { .mm = current->mm };
	unsigned long addr, end, hold_end;
	struct pagehop_query q;
	bool have_hole = false;
	u32 usize, n, room, written = 0;
	long err;

	err = pagehop_copy_in(&q, sizeof(q), arg, &usize);
	if (err)
		return err;
	if (q.flags || q.reserved[0] || q.reserved[1])
		return -EINVAL;
	if (!w.mm || !q.length || !IS_ALIGNED(q.addr | q.length, PAGE_SIZE) ||
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
	 * Holes merge into one entry, "hole", written when a leaf follows or
	 * the call ends.  Each hold of the lock walks at least one piece, so
	 * every call moves on.
	 */
	while (addr < end && written < q.max_entries && w.work < PAGEHOP_QUERY_CALL_WORK) {
		room = min_t(u32, PAGEHOP_QUERY_BATCH, q.max_entries - written);
		n = 0;
		hold_end = w.work + PAGEHOP_QUERY_HOLD_WORK;
		if (mmap_read_lock_killable(w.mm)) {
			err = -EINTR;
			goto out;
		}
		w.vma = NULL;
		while (addr < end && n < room && w.work < hold_end) {
			pagehop_walk_one(&w, addr, end, &e);
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
		mmap_read_unlock(w.mm);
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
	/*
	 * An open hole is written now if there is room (the next call may
	 * start with more of it); else the next call starts where it does.
	 */
	if (have_hole && written < q.max_entries) {
		if (copy_to_user(out + written, &hole, sizeof(hole))) {
			err = -EFAULT;
			goto out;
		}
		written++;
		have_hole = false;
	}
	q.nr_entries = written;
	q.next_addr = min(have_hole ? hole.addr : addr, end);
	err = pagehop_copy_out(arg, &q, sizeof(q), usize);
out:
	kfree(kbuf);
	return err;
}
