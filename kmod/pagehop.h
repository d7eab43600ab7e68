/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pagehop.h - what the parts of pagehop.ko share.
 */
#ifndef _PAGEHOP_H
#define _PAGEHOP_H

#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/ratelimit.h>
#include <linux/sched.h>
#include <linux/types.h>
#include <linux/xarray.h>

#include <uapi/pagehop.h>

#include "pagehop_compat.h"

/*
 * User-triggerable failures are logged rate-limited with the caller's name;
 * the errno is what the caller acts on, the log line is for the admin.
 */
#define pagehop_warn(fmt, ...) \
	pr_warn_ratelimited("%s[%d]: " fmt, current->comm, \
			    task_pid_nr(current), ##__VA_ARGS__)

/*
 * A buffer's mmap offset is its id shifted by PAGEHOP_OFF_SHIFT, so every
 * buffer has a 1 TiB window of file offsets, aligned to 1 GiB for the huge
 * page alignment arithmetic of ->get_unmapped_area.
 */
#define PAGEHOP_OFF_SHIFT	40
#define PAGEHOP_BUF_MAX		(1ULL << PAGEHOP_OFF_SHIFT)
#define PAGEHOP_ID_MAX		((1U << 20) - 1)

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

/* The state of one open /dev/pagehop. */
struct pagehop_file {
	struct xarray bufs;		/* id -> struct pagehop_buf, under its xa_lock */
	unsigned long *pf_set;		/* prefetcher registers this fd holds a
					 * reference to (pagehop_pfstate slots) */
};

static inline unsigned long pagehop_page_bytes(const struct pagehop_buf *b)
{
	return 1UL << b->shift;
}

/* pagehop_uapi.c */
int pagehop_copy_in(void *k, size_t ksize, void __user *arg, u32 *usize);
int pagehop_copy_in_min(void *k, size_t ksize, size_t kmin, void __user *arg, u32 *usize);
int pagehop_copy_out(void __user *arg, const void *k, size_t ksize, u32 usize);

/* pagehop_pin.c */
u64 pagehop_pin_cap_bytes(void);
u64 pagehop_pinned_bytes(void);
u64 pagehop_node_free_pages(int nid);
u64 pagehop_node_managed_pages(int nid);
int pagehop_pin_reserve(u64 length, int node);
void pagehop_pin_unreserve(u64 length);
int pagehop_pin_charge(struct mm_struct *mm, u64 length);
void pagehop_pin_uncharge(struct mm_struct *mm, u64 length);

/* pagehop_features.c */
u64 pagehop_features(void);

/* pagehop_buf.c */
long pagehop_ioc_alloc(struct pagehop_file *pf, void __user *arg);
long pagehop_ioc_free(struct pagehop_file *pf, void __user *arg);
struct pagehop_buf *pagehop_buf_get(struct pagehop_file *pf, u32 id);
void pagehop_buf_put(struct pagehop_buf *b);
void pagehop_file_release_bufs(struct pagehop_file *pf);

/* pagehop_mmap.c */
int pagehop_mmap(struct file *filp, struct vm_area_struct *vma);
unsigned long pagehop_get_unmapped_area(struct file *filp, unsigned long addr,
					unsigned long len, unsigned long pgoff,
					unsigned long flags);

/* pagehop_query.c */
long pagehop_ioc_query(void __user *arg);

/* pagehop_chase.c */
long pagehop_ioc_chase(struct pagehop_file *pf, void __user *arg);

/* pagehop_prefetch.c */
int pagehop_prefetch_init(void);
void pagehop_prefetch_exit(void);
bool pagehop_prefetch_supported(void);
long pagehop_ioc_prefetch(struct pagehop_file *pf, void __user *arg);
void pagehop_prefetch_release(struct pagehop_file *pf);

#endif /* _PAGEHOP_H */
