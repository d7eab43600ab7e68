/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tlb.h - the data TLBs of this CPU and their reach.  libcpuid (0.6) does
 * not decode TLB sizes, so they are decoded here from the CPUID leaves the
 * vendors document, executed through libcpuid: AMD 0x80000005 (L1),
 * 0x80000006 (L2) and 0x80000019 (1 GiB pages); Intel 0x18 (deterministic
 * address translation parameters).  Older Intel CPUs describe TLBs only in
 * leaf 2's descriptor bytes, which are not decoded: no TLB is reported.
 */
#ifndef PAGEHOP_TLB_H
#define PAGEHOP_TLB_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

struct ph_tlb {
	int level;		/* 1 or 2 */
	uint64_t page;		/* page size covered, bytes */
	int entries;
	int ways;		/* 0: fully associative */
};

struct ph_tlbs {
	int n;
	struct ph_tlb t[16];
	char source[64];	/* which CPUID leaves, or why none */
};

/* Decode from raw CPUID register values (for tests): AMD leaves. */
void tlb_decode_amd(uint32_t l5_eax, uint32_t l5_ebx, uint32_t l6_eax,
		    uint32_t l6_ebx, uint32_t l19_eax, uint32_t l19_ebx,
		    struct ph_tlbs *out);
/* Intel leaf 0x18 subleaf: one structure (EBX, ECX, EDX). */
void tlb_decode_intel18(uint32_t ebx, uint32_t ecx, uint32_t edx, struct ph_tlbs *out);

/* Read this CPU's data TLBs (vendor from libcpuid). */
void tlb_load(const char *vendor, struct ph_tlbs *out);

/*
 * The largest reach (entries x page) of a data TLB level for page size
 * page; 0 if none reported.  An L1 that serves 2M and 4M pages counts for 2M.
 */
uint64_t tlb_reach(const struct ph_tlbs *t, int level, uint64_t page, int *entries);

#endif
