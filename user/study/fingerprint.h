/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fingerprint.h - what a machine is and how it is set, read without
 * measuring: the model key (CPU model, sockets, nodes, cores x SMT of each
 * node), the settings a health check compares (THP, numa_balancing,
 * governor, SMT, prefetchers, hugepage pools, SLIT and HMAT hashes,
 * whether Linux took the SLIT, kernel, microcode, BIOS) and the exact
 * figures per node (MemTotal, whether 2M and 1G pages can be had).
 */
#ifndef PAGEHOP_FINGERPRINT_H
#define PAGEHOP_FINGERPRINT_H

#include "hmodel.h"
#include "session.h"

/* Into set, after session_machine(s). */
void fingerprint(struct ph_hset *set, struct ph_session *s);

#endif
