/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * scan.h - pagehop scan's study: as much of a node's memory as can be
 * pinned safely, grouped by physical range, each range's read bandwidth
 * and chase latency measured on exactly its frames (the bandwidth
 * and latency services, on a view that moves the range's pages into one
 * virtual range, frames.h), read back before measuring; the ranges that
 * stray from the node's median (scan_stray.h), and what the firmware says
 * is installed there (read_dimms.h) and the node's memory blocks
 * (memblocks.h).
 */
#ifndef PAGEHOP_SCAN_H
#define PAGEHOP_SCAN_H

#include "scan_model.h"
#include "steps.h"

/*
 * The steps of pagehop scan (steps.h) on a struct ph_scan.  plan: the
 * nodes, --range a power of two of at least the page size; 0 or an exit
 * code after one line.  measure: node after node, pin, read frames, view
 * and measure each range, within --budget; 0 or an exit code.  document:
 * *rc is 1 when a range strays.
 */
extern const struct ph_steps scan_steps;

#endif
