// SPDX-License-Identifier: GPL-2.0-only
/*
 * pagehop_mmap.c - mmap of a buffer: ->mmap, ->get_unmapped_area and the
 * VMA operations (fault, huge fault, split, mremap, open and close).
 *
 * 4 KiB buffers are put into the VMA with vm_insert_pages() at mmap time;
 * they are ordinary struct pages, visible to move_pages(2) and
 * /proc/self/pagemap.  2 MiB and 1 GiB buffers are mapped by PMD and PUD
 * leaves from ->huge_fault on a VM_PFNMAP VMA, where the kernel offers that
 * (pagehop_compat.h); such leaves are invisible to move_pages and pagemap,
 * which is why QUERY exists.  Each VMA holds a reference to its buffer
 * (pagehop_buf.c), so a buffer outlives FREE and close while it is mapped.
 *
 * A mapping may ask, in its mmap offset (PAGEHOP_MMAP_XLATE), for leaves
 * smaller than the buffer's pages: a 1 GiB buffer seen through 4 KiB PTEs
 * or 2 MiB PMDs, a 2 MiB one through PTEs.  Such a view is the same
 * VM_PFNMAP mapping with the same rules (alignment, split, mremap, fork) as
 * the buffer's own; only the leaves its faults insert are smaller.  The
 * translation stays in vm_pgoff, above the buffer's offset window.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/sched/mm.h>

#include "pagehop.h"
#include "pagehop_buf.h"
#include "pagehop_mmap.h"

/* Byte offset into the buffer of the page containing addr. */
static u64 pagehop_vma_buf_offset(struct vm_area_struct *vma, unsigned long addr)
{
	u64 off = ((u64)vma->vm_pgoff << PAGE_SHIFT) + (addr - vma->vm_start);

	return off & (PAGEHOP_BUF_MAX - 1);
}

/* log2 of the leaf size this VMA maps its buffer with. */
static unsigned int pagehop_vma_shift(struct vm_area_struct *vma)
{
	struct pagehop_buf *b = vma->vm_private_data;
	u32 xlate = pagehop_off_xlate((u64)vma->vm_pgoff << PAGE_SHIFT);

	/* pagehop_mmap() let only a valid size no larger than the buffer's in. */
	return xlate ? pagehop_shift_of(xlate) : b->shift;
}

/* The first frame of the buffer's memory at byte offset off. */
static unsigned long pagehop_buf_pfn(struct pagehop_buf *b, u64 off)
{
	return page_to_pfn(b->chunks[off >> b->shift]) +
	       ((off & (pagehop_page_bytes(b) - 1)) >> PAGE_SHIFT);
}

static const struct vm_operations_struct pagehop_vm_ops;

/*
 * mremap() of a 2 MiB or 1 GiB mapping: take the huge leaves out of the
 * source before the kernel moves page tables, so that the move has nothing
 * to carry and the new mapping is filled again by ->huge_fault on its first
 * touch, with the same pages.  Moving stays allowed and is safe.
 *
 * Why: move_page_tables() does not handle a PUD leaf of a VM_PFNMAP VMA.
 * get_old_pud() runs pud_none_or_clear_bad() on it, which takes the leaf
 * for a corrupt entry ("bad pud"), clears it and flushes no TLB, so the old
 * address went on reading the GiB after it was freed (6.12).  PMD leaves do
 * go through move_huge_pmd(), which flushes; they take the same path here
 * so that one rule holds for both sizes.
 *
 * Where: mremap calls ->mremap only after move_page_tables(), too late to
 * refuse or to fix anything; ->get_unmapped_area runs before the move but
 * cannot tell an mremap from a second mmap() of the same buffer.  copy_vma()
 * calls ->open on the new VMA before move_page_tables(), with mmap_lock held
 * for writing and the source VMA write-locked (vma_start_write() in
 * move_vma()), so nothing can fault the leaves back in between;
 * zap_vma_ptes() clears them with a TLB flush, as munmap() would.
 *
 * ->open also runs for a split VMA (__split_vma(): the new VMA lies inside
 * the old one, which still covers its range) and for fork (dup_mmap(),
 * another mm; VM_DONTCOPY and VM_IO keep huge mappings from it).  Only for
 * mremap is the new VMA's range free of other VMAs: mremap unmapped the
 * destination first.  ->open is not told the source, so every mapping of
 * the buffer in this mm that covers the moving part is emptied: the source,
 * and any second mapping of the same pages, which refaults when touched.
 */
static void pagehop_vm_empty_source(struct vm_area_struct *new)
{
	struct pagehop_buf *b = new->vm_private_data;
	struct mm_struct *mm = new->vm_mm;
	pgoff_t first = new->vm_pgoff, end = first + vma_pages(new);
	struct vm_area_struct *vma;
	VMA_ITERATOR(vmi, mm, 0);

	if (b->shift == PAGE_SHIFT || mm != current->mm)
		return;
	mmap_assert_write_locked(mm);
	if (find_vma_intersection(mm, new->vm_start, new->vm_end))
		return;
	for_each_vma(vmi, vma) {
		pgoff_t from, to;

		if (vma->vm_ops != &pagehop_vm_ops || vma->vm_private_data != b)
			continue;
		from = max(first, vma->vm_pgoff);
		to = min(end, vma->vm_pgoff + vma_pages(vma));
		if (from < to)
			zap_vma_ptes(vma, vma->vm_start + ((from - vma->vm_pgoff) << PAGE_SHIFT),
				     (to - from) << PAGE_SHIFT);
	}
}

static void pagehop_vm_open(struct vm_area_struct *vma)
{
	struct pagehop_buf *b = vma->vm_private_data;

	/* A split VMA or an mremap copy: one more mapping of the buffer. */
	kref_get(&b->ref);
	pagehop_vm_empty_source(vma);
}

static void pagehop_vm_close(struct vm_area_struct *vma)
{
	pagehop_buf_put(vma->vm_private_data);
}

/* Never leave a huge leaf half mapped: split only on page boundaries. */
static int pagehop_vm_may_split(struct vm_area_struct *vma, unsigned long addr)
{
	struct pagehop_buf *b = vma->vm_private_data;

	return IS_ALIGNED(addr, pagehop_page_bytes(b)) ? 0 : -EINVAL;
}

/*
 * mremap may move a mapping, but only to an address huge leaves fit.  This
 * runs after the move; pagehop_vm_empty_source() has made sure there was
 * nothing to move, so refusing here (mremap then unmaps the new VMA and
 * keeps the old one) loses nothing.
 */
static int pagehop_vm_mremap(struct vm_area_struct *vma)
{
	struct pagehop_buf *b = vma->vm_private_data;

	return IS_ALIGNED(vma->vm_start, pagehop_page_bytes(b)) ? 0 : -EINVAL;
}

/* The leaf size of this mapping (smaps' KernelPageSize). */
static unsigned long pagehop_vm_pagesize(struct vm_area_struct *vma)
{
	return 1UL << pagehop_vma_shift(vma);
}

/*
 * A 4 KiB view of a huge buffer: insert the PTE of the fault, then the rest
 * of its 2 MiB block inside the VMA, so that a GiB takes 512 faults and not
 * 262144.  The PTEs are special (vmf_insert_pfn on VM_PFNMAP): no page
 * reference, no rmap; the VMA's reference keeps the buffer, as for its
 * huge leaves.  An entry already there is left as it is.
 */
static vm_fault_t pagehop_vm_fault_pte_view(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct pagehop_buf *b = vma->vm_private_data;
	unsigned long addr = vmf->address & PAGE_MASK;
	unsigned long from = max(addr & PMD_MASK, vma->vm_start);
	unsigned long to = min((addr & PMD_MASK) + PMD_SIZE, vma->vm_end);
	u64 off = pagehop_vma_buf_offset(vma, addr);
	vm_fault_t ret;

	if (off >= b->length)
		return VM_FAULT_SIGBUS;
	ret = vmf_insert_pfn(vma, addr, pagehop_buf_pfn(b, off));
	if (ret != VM_FAULT_NOPAGE)
		return ret;
	for (addr = from; addr < to; addr += PAGE_SIZE) {
		off = pagehop_vma_buf_offset(vma, addr);
		if (off >= b->length || addr == (vmf->address & PAGE_MASK))
			continue;
		if (vmf_insert_pfn(vma, addr, pagehop_buf_pfn(b, off)) != VM_FAULT_NOPAGE)
			break;
	}
	return VM_FAULT_NOPAGE;
}

/*
 * 4 KiB buffers are mapped whole at mmap time; this refills a PTE that was
 * zapped since (MADV_DONTNEED), with the same page, as udmabuf does.
 * A huge buffer reaching here was denied ->huge_fault (MADV_NOHUGEPAGE or
 * prctl(PR_SET_THP_DISABLE) on the caller): mapping it with 4 KiB PTEs
 * would break the promise of the page size, so it is a SIGBUS.
 */
static vm_fault_t pagehop_vm_fault(struct vm_fault *vmf)
{
	struct pagehop_buf *b = vmf->vma->vm_private_data;
	u64 off = pagehop_vma_buf_offset(vmf->vma, vmf->address);
	struct page *page;

	if (b->shift != PAGE_SHIFT && pagehop_vma_shift(vmf->vma) == PAGE_SHIFT)
		return pagehop_vm_fault_pte_view(vmf);
	if (b->shift != PAGE_SHIFT) {
		pagehop_warn("fault on a %s buffer without a huge fault: THP disabled for this mapping?\n",
			     b->shift == PMD_SHIFT ? "2 MiB" : "1 GiB");
		return VM_FAULT_SIGBUS;
	}
	if (off >= b->length)
		return VM_FAULT_SIGBUS;
	page = b->chunks[off >> PAGE_SHIFT];
	get_page(page);
	vmf->page = page;
	return 0;
}

#if PAGEHOP_HAVE_PMD_PFNMAP
/*
 * Map the PMD or PUD leaf holding the fault, whole.  The VMA's start and
 * offset are aligned to the buffer's page size (pagehop_mmap), so the leaf
 * lies inside the VMA and inside one page of the buffer.  A mapping offered
 * a leaf larger than its translation falls back to the next smaller one (a
 * 2 MiB buffer offered a PUD, a 4 KiB or 2 MiB view of a 1 GiB buffer); one
 * offered a smaller leaf than its translation (its PUD was refused) fails
 * rather than map smaller leaves than asked.
 */
static vm_fault_t pagehop_vm_huge_fault(struct vm_fault *vmf, unsigned int order)
{
	struct vm_area_struct *vma = vmf->vma;
	struct pagehop_buf *b = vma->vm_private_data;
	unsigned int shift = pagehop_vma_shift(vma);
	bool write = vmf->flags & FAULT_FLAG_WRITE;
	unsigned long addr, size = 1UL << shift;
	u64 off;

	if (order > shift - PAGE_SHIFT)
		return VM_FAULT_FALLBACK;
	if (order < shift - PAGE_SHIFT || (order != PMD_ORDER && order != PUD_ORDER))
		return VM_FAULT_SIGBUS;
	addr = vmf->address & ~(size - 1);
	if (addr < vma->vm_start || addr + size > vma->vm_end)
		return VM_FAULT_SIGBUS;
	off = pagehop_vma_buf_offset(vma, addr);
	if (off >= b->length)
		return VM_FAULT_SIGBUS;
	if (order == PMD_ORDER)
		return pagehop_insert_pfn_pmd(vmf, pagehop_buf_pfn(b, off), write);
#if PAGEHOP_HAVE_PUD_PFNMAP
	return pagehop_insert_pfn_pud(vmf, pagehop_buf_pfn(b, off), write);
#else
	return VM_FAULT_SIGBUS;
#endif
}
#endif

static const struct vm_operations_struct pagehop_vm_ops = {
	.open = pagehop_vm_open,
	.close = pagehop_vm_close,
	.may_split = pagehop_vm_may_split,
	.mremap = pagehop_vm_mremap,
	.fault = pagehop_vm_fault,
#if PAGEHOP_HAVE_PMD_PFNMAP
	.huge_fault = pagehop_vm_huge_fault,
#endif
	.pagesize = pagehop_vm_pagesize,
};

int pagehop_mmap(struct file *filp, struct vm_area_struct *vma)
{
	struct pagehop_file *pf = filp->private_data;
	u64 off = (u64)vma->vm_pgoff << PAGE_SHIFT;
	u64 len = vma->vm_end - vma->vm_start;
	u64 within = off & (PAGEHOP_BUF_MAX - 1);
	u32 xlate = pagehop_off_xlate(off);
	unsigned long flags = VM_DONTCOPY | VM_DONTEXPAND | VM_DONTDUMP;
	struct pagehop_buf *b;
	unsigned long num;
	int err = -EINVAL;

	b = pagehop_buf_get(pf, pagehop_off_id(off));
	if (!b) {
		pagehop_warn("mmap: offset 0x%llx is no buffer of this fd\n", off);
		return -EINVAL;
	}
	if (xlate && (pagehop_shift_of(xlate) < 0 || pagehop_shift_of(xlate) > b->shift)) {
		pagehop_warn("mmap: translation %u is no page size up to the buffer's\n", xlate);
		goto fail;
	}
	/* A private (COW) copy of pinned memory would defeat the pinning. */
	if (!(vma->vm_flags & VM_MAYSHARE)) {
		pagehop_warn("mmap: MAP_PRIVATE refused, use MAP_SHARED\n");
		goto fail;
	}
	if (!IS_ALIGNED(within | len | vma->vm_start, pagehop_page_bytes(b))) {
		pagehop_warn("mmap: offset, length and address must be multiples of the buffer's page size\n");
		goto fail;
	}
	if (within + len > b->length) {
		pagehop_warn("mmap: 0x%llx bytes at 0x%llx go beyond the %llu-byte buffer\n",
			     len, within, b->length);
		goto fail;
	}

	if (b->shift == PAGE_SHIFT) {
		pagehop_vm_flags_set(vma, flags | VM_MIXEDMAP);
		num = len >> PAGE_SHIFT;
		err = vm_insert_pages(vma, vma->vm_start, b->chunks + (within >> PAGE_SHIFT), &num);
		if (!err && num)
			err = -ENOMEM;
		if (err)
			goto fail;
	} else {
		/*
		 * VM_IO as well: madvise(MADV_DOFORK) refuses it (EINVAL), so
		 * VM_DONTCOPY stays and no child inherits huge leaves.  It
		 * changes nothing else here: VM_PFNMAP already keeps GUP,
		 * mlock and khugepaged away.  4 KiB buffers cannot have it
		 * (it would hide their pages from move_pages and GUP), so
		 * MADV_DOFORK works on them; see docs/abi.md.
		 */
		pagehop_vm_flags_set(vma, flags | VM_PFNMAP | VM_IO);
	}
	/* The reference taken above now belongs to the VMA. */
	vma->vm_private_data = b;
	vma->vm_ops = &pagehop_vm_ops;
	return 0;

fail:
	pagehop_buf_put(b);
	return err;
}

/*
 * Place a huge buffer's mapping at an address aligned to its page size, as
 * drivers/dax/device.c does: ask for len + align and round up inside.
 */
unsigned long pagehop_get_unmapped_area(struct file *filp, unsigned long addr,
					unsigned long len, unsigned long pgoff,
					unsigned long flags)
{
	struct pagehop_file *pf = filp->private_data;
	unsigned long align = PAGE_SIZE, area;
	struct pagehop_buf *b;

	b = pagehop_buf_get(pf, pagehop_off_id((u64)pgoff << PAGE_SHIFT));
	if (b) {
		align = pagehop_page_bytes(b);
		pagehop_buf_put(b);
	}
	if (align == PAGE_SIZE || (flags & MAP_FIXED) || len + align < len)
		return pagehop_mm_get_unmapped_area(filp, addr, len, pgoff, flags);
	area = pagehop_mm_get_unmapped_area(filp, 0, len + align, pgoff, flags);
	if (IS_ERR_VALUE(area))
		return area;
	return round_up(area, align);
}
