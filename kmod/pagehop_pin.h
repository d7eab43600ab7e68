/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pagehop_pin.h - the pin cap, the bytes pinned, the node counters and the
 * RLIMIT_MEMLOCK charge (pagehop_pin.c).
 */
#ifndef _PAGEHOP_PIN_H
#define _PAGEHOP_PIN_H

#include <linux/types.h>

struct mm_struct;

u64 pagehop_pin_cap_bytes(void);
u64 pagehop_pinned_bytes(void);
u64 pagehop_node_free_pages(int nid);
u64 pagehop_node_managed_pages(int nid);
int pagehop_pin_reserve(u64 length, int node);
void pagehop_pin_unreserve(u64 length);
int pagehop_pin_charge(struct mm_struct *mm, u64 length);
void pagehop_pin_uncharge(struct mm_struct *mm, u64 length);

#endif /* _PAGEHOP_PIN_H */
