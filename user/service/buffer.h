/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * buffer.h - the memory every measurement runs on: one interface, three
 * backends (pagehop.ko, hugetlb, anonymous).  Where every page really is,
 * and what size, is read back by verify.h before anything is measured.
 */
#ifndef PAGEHOP_BUFFER_H
#define PAGEHOP_BUFFER_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kmod.h"
#include "pagesize.h"

struct bitmask;

enum ph_backend {
	PH_BACKEND_AUTO = 0,	/* kmod if it can, else hugetlb, else anon */
	PH_BACKEND_KMOD = 1,
	PH_BACKEND_HUGETLB,
	PH_BACKEND_ANON,
};

const char *backend_name(enum ph_backend b);
int backend_parse(const char *s, enum ph_backend *out);

/* What was found when the buffer was read back (segment_verify, verify.h). */
struct ph_placement {
	bool complete;		/* every page was found mapped */
	int nr_nodes;		/* entries in node_bytes: numa_max_node() + 1 */
	uint64_t *node_bytes;	/* bytes found on each node */
	uint64_t psize_bytes[PH_PS_COUNT];	/* bytes found per page size */
	uint64_t other_bytes;	/* found, but of no size above (or node unknown) */
	char method[64];	/* how it was read back */
};

struct ph_segment {
	void *addr;		/* page-aligned start */
	uint64_t bytes;		/* usable length, a multiple of the page size */
	enum ph_backend backend;
	enum ph_psize psize;
	int node;		/* node asked for; -1 with interleave */
	struct ph_placement found;
	bool verified;		/* found == asked */
	char verify_msg[512];	/* what was found against what was asked */
	char backend_note[384];	/* why AUTO took another backend, or "" */
	/* private */
	const volatile sig_atomic_t *cancel;
	void *map;
	uint64_t map_len;
	struct ph_kbuf kbuf;
};

/* A weighted interleave of a segment's pages (pagehop interleave's layouts). */
enum ph_wl_mode {
	/* mbind MPOL_WEIGHTED_INTERLEAVE (Linux 6.9+) over the nodes: the
	 * kernel's weights, as sysfs holds them, place the pages */
	PH_WL_KERNEL = 1,
	/* pagehop's own round robin, sysfs untouched: from the segment's first
	 * page on, each run of weights[k] pages faulted in under
	 * set_mempolicy(MPOL_BIND, nodes[k]), the nodes in turn */
	PH_WL_PAGEHOP,
};

#define PH_WL_MAX_NODES 64

struct ph_wlayout {
	enum ph_wl_mode mode;
	int n;
	int nodes[PH_WL_MAX_NODES];	/* ascending, as the kernel walks them */
	int weights[PH_WL_MAX_NODES];	/* PH_WL_PAGEHOP's, each >= 1 */
};

struct ph_bufreq {
	enum ph_backend backend;	/* AUTO resolves per request */
	enum ph_psize psize;
	bool reserve;		/* grow a node's hugetlb pool if it is short */
	struct bitmask *interleave;	/* NULL, or spread pages over these */
	/* NULL, or the weighted layout over interleave's nodes (which it
	 * needs): 4K anonymous pages only */
	const struct ph_wlayout *weighted;
	/* Stop faulting in, growing or reading back once *cancel is non-zero
	 * (NULL: never); the call then returns -EINTR. */
	const volatile sig_atomic_t *cancel;
};

/* Which backend AUTO picks for psize with this module state. */
enum ph_backend buffer_auto_backend(const struct ph_kmod *km, enum ph_psize ps);
/*
 * When AUTO's pagehop.ko allocation of ps pages failed with err (-errno from
 * ALLOC or the first touch): the backend to try instead, or PH_BACKEND_AUTO
 * for none.  The module's refusals for want of memory (E2BIG: its pin cap
 * or the node's 5% floor; ENOMEM: no contiguous run) are met by the hugetlb
 * pool (2M, 1G) or anonymous memory (4K); any other error is reported.
 */
enum ph_backend buffer_auto_fallback(enum ph_psize ps, int err);

/*
 * Allocate bytes (rounded up to the page size) on node (ignored with
 * interleave), pre-faulted and locked.  0, or -errno with a one-line reason
 * in why: -EINVAL bad request, -ENOMEM not enough on that node,
 * -EOPNOTSUPP the page size or backend is not available here, -EPERM
 * growing a pool needs root, -EINTR rq->cancel was set.
 *
 * With rq->reserve, a node's hugetlb pool that is short is grown, and put
 * back by pools_restore() (pools.h, which says how --reserve runs take
 * turns).
 */
int segment_alloc(struct ph_kmod *km, const struct ph_bufreq *rq, int node,
		  uint64_t bytes, struct ph_segment *seg, char *why, size_t whylen);
void segment_free(struct ph_kmod *km, struct ph_segment *seg);

/*
 * Whether this kernel takes MPOL_WEIGHTED_INTERLEAVE (Linux 6.9+), asked
 * of mbind on one page of a mapping of its own over node: 0, or -errno
 * (-EINVAL: the kernel has no such mode) with why saying so.
 */
int buffer_weighted_probe(int node, char *why, size_t whylen);

#endif
