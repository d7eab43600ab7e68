/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pagehop_buf.h - a pinned buffer, and ALLOC and FREE (pagehop_buf.c).
 */
#ifndef _PAGEHOP_BUF_H
#define _PAGEHOP_BUF_H

#include <linux/compiler_types.h>
#include <linux/kref.h>
#include <linux/types.h>

struct mm_struct;
struct page;
struct pagehop_file;

/*
 * One ALLOC.  Referenced by the fd's table (until FREE or close) and by each
 * VMA mapping it (vm_ops open/close); freed when the last reference goes.
 */
struct pagehop_buf {
	struct kref ref;
	u32 id;
	int node;
	struct mm_struct *mm;		/* whose pinned_vm it is charged to (mmgrab) */
	u32 page_size;			/* enum pagehop_page_size */
	unsigned int shift;		/* log2 of the page size in bytes */
	u64 length;			/* bytes */
	unsigned long nr_chunks;	/* length >> shift */
	struct page **chunks;		/* first struct page of each page */
};

static inline unsigned long pagehop_page_bytes(const struct pagehop_buf *b)
{
	return 1UL << b->shift;
}

int pagehop_shift_of(u32 page_size);
long pagehop_ioc_alloc(struct pagehop_file *pf, void __user *arg);
long pagehop_ioc_free(struct pagehop_file *pf, void __user *arg);
struct pagehop_buf *pagehop_buf_get(struct pagehop_file *pf, u32 id);
void pagehop_buf_put(struct pagehop_buf *b);
void pagehop_file_release_bufs(struct pagehop_file *pf);

#endif /* _PAGEHOP_BUF_H */
