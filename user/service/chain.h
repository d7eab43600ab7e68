/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * chain.h - a chase chain built and checked on the CPUs of the memory's
 * own node, all of them at once: each writes the links of its share of the
 * buffer (chase_build_part) and then walks its share of the cycle in
 * pieces (chase_check_span).  The chain is the same for any number of CPUs.
 */
#ifndef PAGEHOP_CHAIN_H
#define PAGEHOP_CHAIN_H

#include <stdint.h>

#include "chase.h"
#include "session.h"

/*
 * Build spec's chain over the first bytes of seg and check that it is one
 * full cycle, on the CPUs of seg's node that this process may use (all it
 * may use if the node has none, or with interleave).  *nslots and *start as
 * chase_build() gives them.  The time goes to the chain phase (phases.h).
 * 0, -EINVAL (the pattern does not fit, or the chain is not one cycle),
 * -EINTR (a signal: ph_interrupted), or -errno of starting the threads.
 */
int chain_make(struct ph_session *s, struct ph_segment *seg, uint64_t bytes,
	       const struct chase_spec *spec, int64_t *nslots, void **start);

/* How many CPUs chain_make() would use for seg (for the document). */
int chain_cpus(const struct ph_segment *seg);

#endif
