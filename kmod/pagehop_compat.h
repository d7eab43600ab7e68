/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pagehop_compat.h - every difference between the kernels pagehop.ko builds
 * for, in one place.  Verified against Debian's 6.1.192 and 6.12.117 sources
 * (both built and tested in QEMU guests); keyed on Kconfig symbols where a
 * feature has one, else on the version.  The branches for kernels after
 * 6.12 follow upstream renames as we understand them and are not built here.
 */
#ifndef _PAGEHOP_COMPAT_H
#define _PAGEHOP_COMPAT_H

#include <linux/version.h>
#include <linux/mm.h>
#include <linux/huge_mm.h>
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 17, 0)
#include <linux/pfn_t.h>
#endif
#include <linux/sched/mm.h>
#include <asm/msr.h>

/*
 * Huge leaves through ->huge_fault on a VM_PFNMAP VMA.
 *
 * 6.1: hugepage_vma_check() refuses non-DAX VM_PFNMAP/VM_MIXEDMAP VMAs, so a
 * character device never sees ->huge_fault; and there is no pmd_special, so
 * an inserted pfn PMD would be taken for a THP by zap and GUP.
 * 6.12: the huge pfnmap work (the one vfio-pci uses) added pmd/pud_special
 * behind CONFIG_ARCH_SUPPORTS_{PMD,PUD}_PFNMAP and lets
 * __thp_vma_allowable_orders() pass PMD and PUD orders to a VM_PFNMAP VMA
 * with ->huge_fault (vma_is_special_huge(), THP_ORDERS_ALL_SPECIAL).  The
 * Kconfig symbols appeared in the same series, so they are the test.
 */
#if IS_ENABLED(CONFIG_TRANSPARENT_HUGEPAGE) && IS_ENABLED(CONFIG_ARCH_SUPPORTS_PMD_PFNMAP)
#define PAGEHOP_HAVE_PMD_PFNMAP 1
#else
#define PAGEHOP_HAVE_PMD_PFNMAP 0
#endif

#if PAGEHOP_HAVE_PMD_PFNMAP && IS_ENABLED(CONFIG_ARCH_SUPPORTS_PUD_PFNMAP) && \
	IS_ENABLED(CONFIG_HAVE_ARCH_TRANSPARENT_HUGEPAGE_PUD) && IS_ENABLED(CONFIG_CONTIG_ALLOC)
#define PAGEHOP_HAVE_PUD_PFNMAP 1
#else
#define PAGEHOP_HAVE_PUD_PFNMAP 0
#endif

#if PAGEHOP_HAVE_PMD_PFNMAP
/*
 * ->huge_fault took an enum page_entry_size until 6.6 and an order after;
 * every kernel with huge pfnmaps has the order form, so pagehop_mmap.c uses
 * it as is.  The pfn goes in as a pfn_t (removed upstream in 6.17); flags 0
 * make the entry "special" rather than devmap, which is what a VM_PFNMAP
 * leaf must be (6.12 insert_pfn_pmd/pud: pmd/pud_mkspecial).
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 17, 0)
#define pagehop_insert_pfn_pmd(vmf, pfn, write) \
	vmf_insert_pfn_pmd(vmf, __pfn_to_pfn_t(pfn, 0), write)
#define pagehop_insert_pfn_pud(vmf, pfn, write) \
	vmf_insert_pfn_pud(vmf, __pfn_to_pfn_t(pfn, 0), write)
#else
#define pagehop_insert_pfn_pmd(vmf, pfn, write) vmf_insert_pfn_pmd(vmf, pfn, write)
#define pagehop_insert_pfn_pud(vmf, pfn, write) vmf_insert_pfn_pud(vmf, pfn, write)
#endif
#endif /* PAGEHOP_HAVE_PMD_PFNMAP */

/* mm_get_unmapped_area() replaced mm->get_unmapped_area in 6.10. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
#define pagehop_mm_get_unmapped_area(filp, addr, len, pgoff, flags) \
	mm_get_unmapped_area(current->mm, filp, addr, len, pgoff, flags)
#else
#define pagehop_mm_get_unmapped_area(filp, addr, len, pgoff, flags) \
	current->mm->get_unmapped_area(filp, addr, len, pgoff, flags)
#endif

/* vm_flags became write-protected behind vm_flags_set() in 6.3. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
#define pagehop_vm_flags_set(vma, flags) vm_flags_set(vma, flags)
#else
static inline void pagehop_vm_flags_set(struct vm_area_struct *vma, unsigned long flags)
{
	vma->vm_flags |= flags;
}
#endif

/*
 * The largest buddy order: MAX_ORDER was exclusive until 6.4, then inclusive,
 * and was renamed MAX_PAGE_ORDER in 6.8.
 */
#if defined(MAX_PAGE_ORDER)
#define PAGEHOP_MAX_PAGE_ORDER MAX_PAGE_ORDER
#elif LINUX_VERSION_CODE >= KERNEL_VERSION(6, 4, 0)
#define PAGEHOP_MAX_PAGE_ORDER MAX_ORDER
#else
#define PAGEHOP_MAX_PAGE_ORDER (MAX_ORDER - 1)
#endif

/* rdmsrl/wrmsrl_safe_on_cpu were renamed rdmsrq/wrmsrq_safe_on_cpu in 6.16. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 16, 0)
#define pagehop_rdmsr_safe_on_cpu(cpu, msr, v) rdmsrq_safe_on_cpu(cpu, msr, v)
#define pagehop_wrmsr_safe_on_cpu(cpu, msr, v) wrmsrq_safe_on_cpu(cpu, msr, v)
#else
#define pagehop_rdmsr_safe_on_cpu(cpu, msr, v) rdmsrl_safe_on_cpu(cpu, msr, v)
#define pagehop_wrmsr_safe_on_cpu(cpu, msr, v) wrmsrl_safe_on_cpu(cpu, msr, v)
#endif

/*
 * A PMD read without its lock, as __pte_offset_map() does: 6.5 added
 * pmdp_get_lockless() (which also covers 32-bit PAE) with the RCU-freed PTE
 * tables; before it, x86_64 reads a PMD atomically with READ_ONCE.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
#define pagehop_pmdp_get_lockless(pmdp) pmdp_get_lockless(pmdp)
#else
#define pagehop_pmdp_get_lockless(pmdp) READ_ONCE(*(pmdp))
#endif

/*
 * alloc_contig_range() took __GFP_NORETRY silently until 6.12 refused
 * anything outside its reclaim/action masks with -EINVAL.  It already avoids
 * the OOM killer (it adds __GFP_RETRY_MAYFAIL), so ask only for quiet.
 */
#define PAGEHOP_CONTIG_GFP (GFP_KERNEL | __GFP_NOWARN)

#endif /* _PAGEHOP_COMPAT_H */
