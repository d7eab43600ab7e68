// SPDX-License-Identifier: GPL-2.0-only
/*
 * pages_frames.c - "pages --same-frames": one pagehop.ko allocation of
 * 1 GiB pages on the node, mapped once per translation (4 KiB PTEs, 2 MiB
 * PMDs, its own 1 GiB PUDs: PAGEHOP_MMAP_XLATE), so that each page size's
 * sweep chases the same physical lines in the same order (the same chain
 * seed over the same offsets) and only the translation differs.  Before
 * anything is measured, QUERY must show every view at its level over the
 * very frames of the 1 GiB mapping.  Each sweep is lent its view as the
 * session's memory (ph_memory), so the session neither allocates nor frees.
 */
#include "pages_frames.h"
#include "chase.h"
#include "util.h"
#include "verify.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static uint32_t xlate_of(enum ph_psize ps)
{
	return ps == PH_PS_1G ? PAGEHOP_PAGE_1G : ps == PH_PS_2M ? PAGEHOP_PAGE_2M : PAGEHOP_PAGE_4K;
}

static uint32_t level_of(enum ph_psize ps)
{
	return ps == PH_PS_1G ? PAGEHOP_LEVEL_PUD : ps == PH_PS_2M ? PAGEHOP_LEVEL_PMD :
	       PAGEHOP_LEVEL_PTE;
}

int pages_frames_possible(const struct ph_session *s, int node, const struct sweep_avail *av1g,
			  char *why, size_t len)
{
	if (!kmod_has(&s->m.km, PAGEHOP_FEAT_MAP_XLATE) || !kmod_has(&s->m.km, PAGEHOP_FEAT_QUERY)) {
		snprintf(why, len, "needs pagehop.ko with PAGEHOP_FEAT_MAP_XLATE: %s",
			 s->m.km.fd < 0 ? s->m.km.why : "the loaded module is older");
		return -EOPNOTSUPP;
	}
	if (!av1g->ok || av1g->backend != PH_BACKEND_KMOD) {
		snprintf(why, len, "1 GiB pages from pagehop.ko cannot be had on node %d: %s", node,
			 kmod_has(&s->m.km, PAGEHOP_FEAT_PAGE_1G) ? av1g->why :
			 "the module cannot map 1 GiB pages on this kernel");
		return -EOPNOTSUPP;
	}
	return 0;
}

/* QUERY callback: each leaf must be of the view's level on the frames expected. */
struct frames_check {
	const struct pages_frames *f;
	uint32_t level;
	uint64_t next;		/* the view's offset the next leaf must start at */
	uint64_t leaves;
	char why[160];
};

static int frames_leaf(const struct pagehop_query_entry *e, void *arg)
{
	struct frames_check *c = arg;
	const struct pages_frames *f = c->f;
	uint64_t off = c->next;
	uint64_t want = f->pfn[off / GiB] + (off % GiB) / PH_PAGE_4K;

	if (e->level != c->level || e->pfn != want) {
		snprintf(c->why, sizeof(c->why),
			 "offset 0x%llx: level %u, pfn 0x%llx, expected level %u, pfn 0x%llx",
			 (unsigned long long)off, e->level, (unsigned long long)e->pfn, c->level,
			 (unsigned long long)want);
		return -EXDEV;
	}
	c->next += e->length;
	c->leaves++;
	return 0;
}

/* The 1 GiB mapping's own frames, one per GiB. */
static int frames_native(const struct pagehop_query_entry *e, void *arg)
{
	struct pages_frames *f = arg;

	if (e->level != PAGEHOP_LEVEL_PUD || f->npfn >= f->bytes / GiB)
		return -EXDEV;
	f->pfn[f->npfn++] = e->pfn;
	return 0;
}

/* Fault a view in whole before it is read back, as segment_alloc does. */
static void touch(void *v, uint64_t bytes)
{
	for (uint64_t off = 0; off < bytes; off += PH_PAGE_4K)
		((volatile char *)v)[off] = 0;
}

int pages_frames_open(struct pages_frames *f, struct ph_session *s, int node, uint64_t bytes,
		      const enum ph_psize *ps, int nps)
{
	int err;

	f->bytes = (bytes + GiB - 1) / GiB * GiB;
	err = kmod_alloc_map(&s->m.km, node, PAGEHOP_PAGE_1G, f->bytes, &f->kb);
	if (err) {
		/* Said by the caller: auto goes on without, on stops here. */
		snprintf(f->why, sizeof(f->why), "%s of 1 GiB pages on node %d: %s",
			 format_size(f->bytes, (char[32]){ 0 }, 32), node, kmod_alloc_why(err));
		return PH_EXIT_UNSUPPORTED;
	}
	f->pfn = xcalloc((size_t)(f->bytes / GiB), sizeof(uint64_t));
	touch(f->kb.addr, f->bytes);
	err = kmod_query(&s->m.km, f->kb.addr, f->bytes, frames_native, f);
	if (err || f->npfn != f->bytes / GiB) {
		ph_err("--same-frames: QUERY: the 1 GiB mapping is not 1 GiB leaves (%s)",
		       err ? strerror(-err) : "a GiB is missing");
		return PH_EXIT_FAIL;
	}
	f->pfn0 = f->pfn[0];
	for (int k = 0; k < nps; k++) {
		struct frames_check c = { .f = f, .level = level_of(ps[k]) };
		void *v = ps[k] == PH_PS_1G ? f->kb.addr : kmod_map_view(&s->m.km, &f->kb, xlate_of(ps[k]));

		if (!v) {
			ph_err("--same-frames: mmap of the %s view: %s", psize_name(ps[k]), strerror(errno));
			return PH_EXIT_FAIL;
		}
		f->view[ps[k]] = v;
		touch(v, f->bytes);
		err = kmod_query(&s->m.km, v, f->bytes, frames_leaf, &c);
		if (err || c.next != f->bytes) {
			ph_err("--same-frames: QUERY of the %s view: %s", psize_name(ps[k]),
			       err == -EXDEV ? c.why : err ? strerror(-err) : "not all mapped");
			return PH_EXIT_FAIL;
		}
		f->leaves[ps[k]] = c.leaves;
	}
	f->checked = true;
	return 0;
}

void pages_frames_lend(struct pages_frames *f, struct ph_session *s, enum ph_psize ps, int node,
		       uint64_t per_thread)
{
	struct ph_memory *m = &f->mem[ps];
	struct ph_segment *seg;

	if (m->segs) {
		s->mem = m;
		return;
	}
	memset(m, 0, sizeof(*m));
	m->segs = seg = xcalloc(1, sizeof(*seg));
	seg->addr = f->view[ps];
	seg->bytes = f->bytes;
	seg->backend = PH_BACKEND_KMOD;
	seg->psize = ps;
	seg->node = node;
	/* Read back as any segment is: each view's own page size, on the node. */
	segment_verify(&s->m.km, seg, NULL);
	m->n = 1;
	m->per_thread = per_thread;
	m->nodes = xcalloc(1, sizeof(int));
	m->nodes[0] = node;
	m->all_verified = seg->verified;
	m->nslots = xcalloc(1, sizeof(int64_t));
	s->mem = m;
}

void pages_frames_switch(struct pages_frames *f, struct ph_session *s, enum ph_psize ps)
{
	s->mem = &f->mem[ps];
	s->segs = s->mem->segs;
	s->all_verified = s->mem->all_verified;
}

void pages_frames_unlend(struct pages_frames *f, struct ph_session *s)
{
	s->mem = NULL;
	for (int p = PH_PS_4K; p < PH_PS_COUNT; p++) {
		struct ph_memory *m = &f->mem[p];

		if (m->segs)
			free(m->segs[0].found.node_bytes);
		free(m->segs);
		free(m->nodes);
		free(m->nslots);
		memset(m, 0, sizeof(*m));
	}
}

int pages_frames_order(struct pages_frames *f, enum ph_psize ps, const void *base, uint64_t ws)
{
	struct pages_order *o = &f->order[ps];
	const char *b = base, *p = base;
	uint64_t h = 0xcbf29ce484222325ull;

	memset(o, 0, sizeof(*o));
	do {
		uint64_t off = (uint64_t)(p - b);

		if (off % CHASE_SLOT || off >= ws || o->hops >= ws / CHASE_SLOT) {
			ph_err("--same-frames: the %s view's chain over %llu bytes leaves it or is not one "
			       "cycle at hop %llu (offset 0x%llx)", psize_name(ps), (unsigned long long)ws,
			       (unsigned long long)o->hops, (unsigned long long)off);
			return PH_EXIT_FAIL;
		}
		if (o->hops < PAGES_ORDER_FIRST)
			o->first[o->hops] = off;
		for (int k = 0; k < 8; k++)
			h = (h ^ ((off >> (8 * k)) & 0xff)) * 0x100000001b3ull;
		o->hops++;
		p = *(const char *const *)p;
	} while (p != b);
	if (o->hops != ws / CHASE_SLOT) {
		ph_err("--same-frames: the %s view's chain has %llu slots, not %llu", psize_name(ps),
		       (unsigned long long)o->hops, (unsigned long long)(ws / CHASE_SLOT));
		return PH_EXIT_FAIL;
	}
	o->ws = ws;
	o->hash = h;
	for (int q = PH_PS_4K; q < PH_PS_COUNT; q++)
		if (q != (int)ps && f->order[q].ws == ws && f->order[q].hash != h) {
			ph_err("--same-frames: the %s view's chain over %llu bytes is not the %s view's: fnv1a 0x%016llx, not 0x%016llx",
			       psize_name(ps), (unsigned long long)ws, psize_name((enum ph_psize)q),
			       (unsigned long long)h, (unsigned long long)f->order[q].hash);
			return PH_EXIT_FAIL;
		}
	return 0;
}

void pages_frames_order_text(const struct pages_order *o, char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "%llu hops from +0x0:", (unsigned long long)o->hops);

	for (uint64_t k = 1; k < PAGES_ORDER_FIRST && k < o->hops && n < len; k++)
		n += (size_t)snprintf(buf + n, len - n, " +0x%llx", (unsigned long long)o->first[k]);
	if (n < len)
		snprintf(buf + n, len - n, "; fnv1a 0x%016llx", (unsigned long long)o->hash);
}

void pages_frames_close(struct pages_frames *f, struct ph_session *s)
{
	for (int p = PH_PS_4K; p < PH_PS_COUNT; p++)
		if (f->view[p] && f->view[p] != f->kb.addr)
			munmap(f->view[p], f->bytes);
	memset(f->view, 0, sizeof(f->view));
	kmod_unmap_free(&s->m.km, &f->kb);
	free(f->pfn);
	f->pfn = NULL;
}
