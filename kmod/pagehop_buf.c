// SPDX-License-Identifier: GPL-2.0-only
/*
 * pagehop_buf.c - ALLOC and FREE: pinned buffers on one node, of one page
 * size, or nothing; the fd's table of them, and their references.
 *
 * 4 KiB buffers are order-0 pages (allocated up to 2 MiB at a time, then
 * split); 2 MiB buffers are PMD-order pages; 1 GiB buffers are contiguous
 * ranges from alloc_contig_range().  How much may be pinned is
 * pagehop_pin.c's to say; mapping a buffer is pagehop_mmap.c's.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/gfp.h>
#include <linux/delay.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "pagehop.h"
#include "pagehop_buf.h"
#include "pagehop_features.h"
#include "pagehop_pin.h"
#include "pagehop_uapi.h"

/*
 * Node-exact (__GFP_THISNODE), no OOM killer and no long reclaim
 * (__GFP_NORETRY), no allocation-failure splat for a request the caller
 * made (__GFP_NOWARN), zeroed.  Not __GFP_MOVABLE: these pages stay pinned
 * and must not sit in ZONE_MOVABLE or CMA.
 */
#define PAGEHOP_GFP (GFP_HIGHUSER | __GFP_ZERO | __GFP_THISNODE | __GFP_NORETRY | __GFP_NOWARN)

/* 4 KiB buffers are allocated in blocks of up to 2 MiB, then split. */
#define PAGEHOP_4K_BLOCK_ORDER	min(PMD_SHIFT - PAGE_SHIFT, PAGEHOP_MAX_PAGE_ORDER)
#define PAGEHOP_PMD_ORDER	(PMD_SHIFT - PAGE_SHIFT)
#define PAGEHOP_PUD_ORDER	(PUD_SHIFT - PAGE_SHIFT)

/* log2 of an enum pagehop_page_size in bytes, or -EINVAL. */
int pagehop_shift_of(u32 page_size)
{
	switch (page_size) {
	case PAGEHOP_PAGE_4K:
		return PAGE_SHIFT;
	case PAGEHOP_PAGE_2M:
		return PMD_SHIFT;
	case PAGEHOP_PAGE_1G:
		return PUD_SHIFT;
	default:
		return -EINVAL;
	}
}

static u64 pagehop_feature_of(u32 page_size)
{
	switch (page_size) {
	case PAGEHOP_PAGE_2M:
		return PAGEHOP_FEAT_PAGE_2M;
	case PAGEHOP_PAGE_1G:
		return PAGEHOP_FEAT_PAGE_1G;
	default:
		return PAGEHOP_FEAT_PAGE_4K;
	}
}

/* Give back whatever chunks[] holds; entries not yet allocated are NULL. */
static void pagehop_buf_free_pages(struct pagehop_buf *b)
{
	unsigned long i;

	for (i = 0; i < b->nr_chunks; i++) {
		struct page *page = b->chunks[i];

		if (!page)
			continue;
		switch (b->page_size) {
		case PAGEHOP_PAGE_4K:
			/*
			 * put_page, not __free_page: a 4 KiB page is a normal
			 * page that get_user_pages (O_DIRECT, move_pages) may
			 * still hold for a moment; the last put frees it.
			 */
			put_page(page);
			break;
		case PAGEHOP_PAGE_2M:
			__free_pages(page, PAGEHOP_PMD_ORDER);
			break;
		case PAGEHOP_PAGE_1G:
			free_contig_range(page_to_pfn(page), 1UL << PAGEHOP_PUD_ORDER);
			break;
		}
		if ((i & 511) == 511)
			cond_resched();
	}
}

/*
 * The charge stays with the mm that made the ALLOC until the buffer goes,
 * whoever drops the last reference (an fd passed on, a mapping a child
 * inherited after MADV_DOFORK): mmgrab() keeps the mm_struct, not its
 * address space.
 */
static void pagehop_buf_release(struct kref *ref)
{
	struct pagehop_buf *b = container_of(ref, struct pagehop_buf, ref);

	pagehop_buf_free_pages(b);
	pagehop_pin_unreserve(b->length);
	pagehop_pin_uncharge(b->mm, b->length);
	mmdrop(b->mm);
	kvfree(b->chunks);
	kfree(b);
}

void pagehop_buf_put(struct pagehop_buf *b)
{
	kref_put(&b->ref, pagehop_buf_release);
}

/*
 * The fd's buffer with this id, with a reference taken, or NULL.  An id
 * ALLOC has reserved but not yet published loads as NULL.
 */
struct pagehop_buf *pagehop_buf_get(struct pagehop_file *pf, u32 id)
{
	struct pagehop_buf *b;

	xa_lock(&pf->bufs);
	b = xa_load(&pf->bufs, id);
	if (b)
		kref_get(&b->ref);
	xa_unlock(&pf->bufs);
	return b;
}

static int pagehop_alloc_4k(struct pagehop_buf *b)
{
	unsigned long i = 0, n = b->nr_chunks;
	unsigned int order, j;
	struct page *page;

	while (i < n) {
		if (fatal_signal_pending(current))
			return -EINTR;
		order = min_t(unsigned int, PAGEHOP_4K_BLOCK_ORDER, ilog2(n - i));
		page = alloc_pages_node(b->node, PAGEHOP_GFP, order);
		/* A fragmented node still has single pages: go straight there. */
		if (!page && order) {
			order = 0;
			page = alloc_pages_node(b->node, PAGEHOP_GFP, 0);
		}
		if (!page)
			return -ENOMEM;
		if (page_to_nid(page) != b->node) {
			__free_pages(page, order);
			return -ENOMEM;
		}
		split_page(page, order);
		for (j = 0; j < (1U << order); j++)
			b->chunks[i++] = page + j;
		cond_resched();
	}
	return 0;
}

static int pagehop_alloc_2m(struct pagehop_buf *b)
{
	struct page *page;
	unsigned long i;

	for (i = 0; i < b->nr_chunks; i++) {
		if (fatal_signal_pending(current))
			return -EINTR;
		page = alloc_pages_node(b->node, PAGEHOP_GFP, PAGEHOP_PMD_ORDER);
		if (!page)
			return -ENOMEM;
		b->chunks[i] = page;
		if (page_to_nid(page) != b->node)
			return -ENOMEM;
		cond_resched();
	}
	return 0;
}

#if PAGEHOP_HAVE_PUD_PFNMAP
/*
 * Could [pfn, pfn + nr) be had by alloc_contig_range()?  The cheap checks
 * mm/page_alloc.c:pfn_range_valid_contig() makes (it is static): all online,
 * all in this zone, nothing reserved (memmap, kernel image), no hugetlb page.
 * alloc_contig_range() does the real work and may still fail.
 */
static bool pagehop_range_may_contig(struct zone *zone, unsigned long pfn, unsigned long nr)
{
	unsigned long i;
	struct page *page;

	for (i = pfn; i < pfn + nr; i++) {
		page = pfn_to_online_page(i);
		if (!page || page_zone(page) != zone || PageReserved(page) || PageHuge(page))
			return false;
	}
	return true;
}

/*
 * alloc_contig_range() fails with -EBUSY also for a moment's reasons: a
 * page in flight on an LRU or per-CPU list, a short get_page() elsewhere.
 * A few tries a little apart turn most of those into a success; a range
 * with a truly unmovable page fails every time, and costs 3 tries.
 */
#define PAGEHOP_CONTIG_TRIES	3

static int pagehop_contig_range(unsigned long pfn, unsigned long nr)
{
	int i, err = -EBUSY;

	for (i = 0; i < PAGEHOP_CONTIG_TRIES && err == -EBUSY; i++) {
		if (i)
			msleep(20);
		err = alloc_contig_range(pfn, pfn + nr, MIGRATE_MOVABLE, PAGEHOP_CONTIG_GFP);
	}
	return err;
}

/* Zero a 1 GiB range page by page: alloc_contig_range() does not. */
static int pagehop_clear_range(struct page *page, unsigned long nr)
{
	unsigned long i;

	for (i = 0; i < nr; i++) {
		clear_highpage(page + i);
		if ((i & 511) == 511) {
			if (fatal_signal_pending(current))
				return -EINTR;
			cond_resched();
		}
	}
	return 0;
}

/*
 * One physically contiguous, 1 GiB-aligned GiB on the node: scan its zones
 * for an aligned range and let alloc_contig_range() isolate and migrate it,
 * as alloc_contig_pages() does (not exported before 7.x).  Best effort: a
 * node whose every GiB holds unmovable pages gives -ENOMEM; the reliable
 * route is a boot-time hugetlb reservation, hugepagesz=1G hugepages=N:n.
 *
 * Only the zones an unmovable allocation may use, up to gfp_zone() of our
 * GFP (ZONE_NORMAL), as alloc_contig_pages() limits its zonelist walk: a
 * pinned GiB in ZONE_MOVABLE (movablecore=, kernelcore=, memory onlined
 * movable) would make that memory impossible to offline.  CMA pageblocks
 * are refused by alloc_contig_range() itself: isolating them for
 * MIGRATE_MOVABLE fails (has_unmovable_pages() in mm/page_isolation.c), so
 * a range that holds one is -EBUSY and skipped, as for alloc_contig_pages().
 */
static struct page *pagehop_alloc_1g_one(int nid)
{
	const unsigned long nr = 1UL << PAGEHOP_PUD_ORDER;
	pg_data_t *pgdat = NODE_DATA(nid);
	unsigned int scanned = 0, tried = 0;
	unsigned long pfn;
	int z, err = 0;

	for (z = 0; z <= gfp_zone(PAGEHOP_CONTIG_GFP); z++) {
		struct zone *zone = &pgdat->node_zones[z];

		if (!populated_zone(zone))
			continue;
		for (pfn = ALIGN(zone->zone_start_pfn, nr);
		     zone_spans_pfn(zone, pfn + nr - 1); pfn += nr) {
			if (fatal_signal_pending(current))
				return ERR_PTR(-EINTR);
			cond_resched();
			scanned++;
			if (!pagehop_range_may_contig(zone, pfn, nr))
				continue;
			tried++;
			err = pagehop_contig_range(pfn, nr);
			if (err)
				continue;
			err = pagehop_clear_range(pfn_to_page(pfn), nr);
			if (err) {
				free_contig_range(pfn, nr);
				return ERR_PTR(err);
			}
			return pfn_to_page(pfn);
		}
	}
	pagehop_warn("ALLOC: node %d: %u aligned GiB outside ZONE_MOVABLE, %u without reserved or hugetlb pages, alloc_contig_range: %d\n",
		     nid, scanned, tried, err);
	return ERR_PTR(-ENOMEM);
}

static int pagehop_alloc_1g(struct pagehop_buf *b)
{
	struct page *page;
	unsigned long i;

	for (i = 0; i < b->nr_chunks; i++) {
		page = pagehop_alloc_1g_one(b->node);
		if (IS_ERR(page))
			return PTR_ERR(page);
		b->chunks[i] = page;
	}
	return 0;
}
#else
static int pagehop_alloc_1g(struct pagehop_buf *b)
{
	return -EOPNOTSUPP;
}
#endif /* PAGEHOP_HAVE_PUD_PFNMAP */

/*
 * The checks of ALLOC, in the order docs/abi.md gives them, so each kind of
 * mistake has its own errno whatever else is wrong.
 */
static int pagehop_alloc_check(const struct pagehop_alloc *a, int *shift)
{
	if (a->flags || a->reserved0 || a->reserved[0] || a->reserved[1])
		return -EINVAL;
	if (a->node >= nr_node_ids || !node_online(a->node)) {
		pagehop_warn("ALLOC: node %u is not an online node\n", a->node);
		return -EINVAL;
	}
	*shift = pagehop_shift_of(a->page_size);
	if (*shift < 0) {
		pagehop_warn("ALLOC: page size %u is not a pagehop_page_size\n", a->page_size);
		return -EINVAL;
	}
	if (!a->length || !IS_ALIGNED(a->length, 1ULL << *shift)) {
		pagehop_warn("ALLOC: length %llu is not a non-zero multiple of the page size\n",
			     a->length);
		return -EINVAL;
	}
	if (!(pagehop_features() & pagehop_feature_of(a->page_size))) {
		pagehop_warn("ALLOC: this kernel cannot map %s pages from a device\n",
			     a->page_size == PAGEHOP_PAGE_2M ? "2 MiB" : "1 GiB");
		return -EOPNOTSUPP;
	}
	if (!node_state(a->node, N_MEMORY))
		return -ENOMEM;
	return 0;
}

/*
 * Put b in the fd's table and tell the caller its id.  The id becomes
 * visible to other callers (FREE, mmap, CHASE on the same fd, from other
 * threads) only once the caller has been told it: the index is reserved
 * first (xa_alloc of NULL stores a zero entry, which loads as NULL and
 * which FREE leaves alone), the result copied out, and only then b
 * published in the reserved slot.  Had b been published first, a copy-out
 * that faults would have to take back an id that a concurrent FREE may
 * already have freed the buffer under, or a new ALLOC may hold by now.
 */
static int pagehop_publish(struct pagehop_file *pf, struct pagehop_buf *b,
			   struct pagehop_alloc *a, void __user *arg, u32 usize)
{
	bool published;
	void *old;
	int err;
	u32 id;

	err = xa_alloc(&pf->bufs, &id, NULL, XA_LIMIT(1, PAGEHOP_ID_MAX), GFP_KERNEL);
	if (err)
		return err == -EBUSY ? -ENOSPC : err;
	b->id = id;
	a->id = id;
	a->mmap_offset = (u64)id << PAGEHOP_OFF_SHIFT;
	err = pagehop_copy_out(arg, a, sizeof(*a), usize);
	if (err) {
		xa_release(&pf->bufs, id);
		return err;
	}
	/*
	 * Nothing but this call can have changed the reservation; check
	 * anyway, under the lock, so that b is never both unpublished and
	 * kept (a leak) nor published and freed.
	 */
	xa_lock(&pf->bufs);
	old = __xa_cmpxchg(&pf->bufs, id, XA_ZERO_ENTRY, b, GFP_KERNEL);
	published = !xa_is_err(old) && xa_load(&pf->bufs, id) == b;
	xa_unlock(&pf->bufs);
	if (WARN_ON_ONCE(!published))
		return -EBUSY;
	return 0;
}

long pagehop_ioc_alloc(struct pagehop_file *pf, void __user *arg)
{
	struct mm_struct *mm = current->mm;
	struct pagehop_alloc a;
	struct pagehop_buf *b;
	int shift, err;
	u32 usize;

	err = pagehop_copy_in(&a, sizeof(a), arg, &usize);
	if (err)
		return err;
	err = pagehop_alloc_check(&a, &shift);
	if (err)
		return err;
	err = pagehop_pin_charge(mm, a.length);
	if (err)
		return err;
	err = pagehop_pin_reserve(a.length, a.node);
	if (err)
		goto uncharge;

	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b) {
		pagehop_pin_unreserve(a.length);
		err = -ENOMEM;
		goto uncharge;
	}
	kref_init(&b->ref);
	mmgrab(mm);
	b->mm = mm;
	b->node = a.node;
	b->page_size = a.page_size;
	b->shift = shift;
	b->length = a.length;
	b->nr_chunks = a.length >> shift;
	/* From here on the release function undoes everything. */
	b->chunks = kvcalloc(b->nr_chunks, sizeof(*b->chunks), GFP_KERNEL);
	if (!b->chunks) {
		err = -ENOMEM;
		goto fail;
	}
	switch (a.page_size) {
	case PAGEHOP_PAGE_4K:
		err = pagehop_alloc_4k(b);
		break;
	case PAGEHOP_PAGE_2M:
		err = pagehop_alloc_2m(b);
		break;
	default:
		err = pagehop_alloc_1g(b);
		break;
	}
	if (err) {
		if (err == -ENOMEM)
			pagehop_warn("ALLOC: node %d has no %llu MiB of %s pages now\n",
				     b->node, b->length >> 20,
				     shift == PAGE_SHIFT ? "4 KiB" :
				     shift == PMD_SHIFT ? "2 MiB" : "contiguous 1 GiB");
		goto fail;
	}

	err = pagehop_publish(pf, b, &a, arg, usize);
	if (err)
		goto fail;
	return 0;

fail:
	pagehop_buf_put(b);
	return err;

uncharge:
	pagehop_pin_uncharge(mm, a.length);
	return err;
}

long pagehop_ioc_free(struct pagehop_file *pf, void __user *arg)
{
	struct pagehop_free f;
	struct pagehop_buf *b;
	u32 usize;
	int err;

	err = pagehop_copy_in(&f, sizeof(f), arg, &usize);
	if (err)
		return err;
	if (f.reserved[0] || f.reserved[1])
		return -EINVAL;
	/*
	 * Erase only a published buffer: an id an ALLOC has reserved but not
	 * yet copied out loads as NULL and stays reserved (pagehop_publish).
	 */
	xa_lock(&pf->bufs);
	b = xa_load(&pf->bufs, f.id);
	if (b)
		__xa_erase(&pf->bufs, f.id);
	xa_unlock(&pf->bufs);
	if (!b)
		return -ENOENT;
	pagehop_buf_put(b);
	return 0;
}

void pagehop_file_release_bufs(struct pagehop_file *pf)
{
	struct pagehop_buf *b;
	unsigned long id;

	xa_for_each(&pf->bufs, id, b) {
		xa_erase(&pf->bufs, id);
		pagehop_buf_put(b);
	}
}
