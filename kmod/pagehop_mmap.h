/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pagehop_mmap.h - mapping a buffer into the caller (pagehop_mmap.c).
 */
#ifndef _PAGEHOP_MMAP_H
#define _PAGEHOP_MMAP_H

struct file;
struct vm_area_struct;

int pagehop_mmap(struct file *filp, struct vm_area_struct *vma);
unsigned long pagehop_get_unmapped_area(struct file *filp, unsigned long addr,
					unsigned long len, unsigned long pgoff,
					unsigned long flags);

#endif /* _PAGEHOP_MMAP_H */
