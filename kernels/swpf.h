/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * swpf.h - read with software prefetch: STREAM's read (the sum of a) with a
 * prefetcht0 for the line SWPF_DISTANCE bytes ahead of every line loaded.
 * Set beside the plain read, it shows what software prefetch adds to (or
 * takes from) the hardware prefetchers.  Same signature and table entry as
 * the stream family, so the bandwidth runner measures it unchanged.
 */
#ifndef PAGEHOP_SWPF_H
#define PAGEHOP_SWPF_H

#include "stream.h"

/*
 * How far ahead: a prefetch must be issued at least one memory latency
 * before the load that needs it.  At ~100 ns of DRAM latency and ~15 GB/s
 * that one core streams, 100 ns x 15 GB/s = 1.5 KB are consumed meanwhile;
 * 2 KiB (32 lines) covers that with a margin, and stays well inside a 4 KiB
 * page half the time so that few prefetches cross into a page whose
 * translation is not in the TLB yet.
 */
#define SWPF_DISTANCE 2048

extern const struct stream_kernel swpf_kernels[];
extern const size_t swpf_nkernels;
const struct stream_kernel *swpf_find(enum ph_isa isa);

#endif
