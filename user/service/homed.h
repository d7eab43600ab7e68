/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * homed.h - one verified segment on one node, for the contention studies
 * (c2c's line, locks' lock word, loaded's chaser and loader buffers): the
 * node from --membind (exactly one) or a CPU's own, the memory allocated
 * through buffer.h and read back through verify.h before and after.
 */
#ifndef PAGEHOP_HOMED_H
#define PAGEHOP_HOMED_H

#include "session.h"

struct bitmask;

/*
 * The one node of nodes (opt names the option for the error), or, when
 * nodes is NULL, cpu's node.  0, or PH_EXIT_USAGE after the one-line error.
 */
int homed_node(const struct bitmask *nodes, const char *opt, int cpu, int *node);

/*
 * Allocate bytes (whole pages of s->opt->bufreq's size) on node and read them
 * back; what names the memory in errors ("the line's page").  Unverified
 * memory fails unless --allow-unverified (then s->all_verified is false).
 * *have is set once seg must be freed.  0 or an exit code.
 */
int homed_alloc(struct ph_session *s, int node, uint64_t bytes, struct ph_segment *seg,
		bool *have, const char *what);

/*
 * Every CPU of cpus (NULL: all) this process may run on, in order, into
 * *out (malloc'd).  0, or PH_EXIT_USAGE after the one-line error when cpus
 * names a CPU this process may not run on.
 */
int contend_cpus(const struct bitmask *cpus, const char *opt, int **out, int *n);

/* Read seg back after measuring; false (and a warning) if it moved. */
bool homed_still_verified(struct ph_session *s, struct ph_segment *seg, const char *what);

/* Section name: node asked and found, backend, page size, verified, how. */
void homed_section(struct ph_doc *doc, const char *name, const char *title,
		   const struct ph_segment *seg, bool have, int node);

#endif
