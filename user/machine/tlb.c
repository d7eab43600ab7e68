// SPDX-License-Identifier: GPL-2.0-only
/*
 * tlb.c - decode data TLB sizes from CPUID.
 *
 * AMD (APM vol. 3, CPUID Fn8000_0005, Fn8000_0006, Fn8000_0019):
 *   0x80000005 EAX = L1 TLB for 2M/4M pages, EBX = for 4K pages:
 *     31:24 data associativity (0xFF = full), 23:16 data entries.
 *   0x80000006 EAX = L2 TLB for 2M/4M pages, EBX = for 4K pages:
 *     31:28 data associativity (encoded), 27:16 data entries.
 *   0x80000019 EAX = L1 TLB for 1G pages, EBX = L2 TLB for 1G pages:
 *     31:28 data associativity (encoded), 27:16 data entries.
 * Intel (SDM vol. 2A, CPUID leaf 18H, one subleaf per structure):
 *   EDX 4:0 type (1 data, 3 unified, 4 load-only), 7:5 level;
 *   EBX 0 4K, 1 2M, 2 4M, 3 1G supported, 31:16 ways; ECX sets.
 */
#include "tlb.h"

#include <libcpuid.h>
#include <stdio.h>
#include <string.h>

static void add(struct ph_tlbs *out, int level, uint64_t page, int entries, int ways)
{
	if (!entries || out->n >= (int)(sizeof(out->t) / sizeof(out->t[0])))
		return;
	out->t[out->n++] = (struct ph_tlb){ .level = level, .page = page,
					     .entries = entries, .ways = ways };
}

/*
 * The L2 and 1G associativity field is an encoding (APM vol. 3, "L2 cache
 * and L2 TLB associativity field encodings"): 0 disabled, 1 direct, 2 2-way,
 * 3 3-way, 4 4-way, 5 6-way, 6 8-way, 8 16-way, A 32, B 48, C 64, D 96,
 * E 128, F fully associative (reported as 0 here).
 */
static int amd_l2_ways(uint32_t code)
{
	static const int ways[16] = {
		[1] = 1, [2] = 2, [3] = 3, [4] = 4, [5] = 6, [6] = 8, [8] = 16,
		[0xA] = 32, [0xB] = 48, [0xC] = 64, [0xD] = 96, [0xE] = 128,
	};

	return ways[code & 0xF];
}

void tlb_decode_amd(uint32_t l5_eax, uint32_t l5_ebx, uint32_t l6_eax,
		    uint32_t l6_ebx, uint32_t l19_eax, uint32_t l19_ebx,
		    struct ph_tlbs *out)
{
	const uint64_t k4 = 4096, m2 = 2 << 20, g1 = 1ull << 30;
	int e;

	memset(out, 0, sizeof(*out));
	e = (l5_ebx >> 16) & 0xFF;
	add(out, 1, k4, e, (l5_ebx >> 24) == 0xFF ? 0 : (int)(l5_ebx >> 24));
	e = (l5_eax >> 16) & 0xFF;
	add(out, 1, m2, e, (l5_eax >> 24) == 0xFF ? 0 : (int)(l5_eax >> 24));
	e = (l6_ebx >> 16) & 0xFFF;
	add(out, 2, k4, e, amd_l2_ways(l6_ebx >> 28));
	e = (l6_eax >> 16) & 0xFFF;
	add(out, 2, m2, e, amd_l2_ways(l6_eax >> 28));
	e = (l19_eax >> 16) & 0xFFF;
	add(out, 1, g1, e, amd_l2_ways(l19_eax >> 28));
	e = (l19_ebx >> 16) & 0xFFF;
	add(out, 2, g1, e, amd_l2_ways(l19_ebx >> 28));
	snprintf(out->source, sizeof(out->source), "CPUID 0x80000005/6/19");
}

void tlb_decode_intel18(uint32_t ebx, uint32_t ecx, uint32_t edx, struct ph_tlbs *out)
{
	static const uint64_t sizes[4] = { 4096, 2 << 20, 4 << 20, 1ull << 30 };
	unsigned type = edx & 0x1F, level = (edx >> 5) & 0x7;
	int ways = (int)(ebx >> 16), entries = ways * (int)ecx;
	bool fully = edx & (1u << 8);

	/* Data, unified and load-only structures serve data loads. */
	if (type != 1 && type != 3 && type != 4)
		return;
	for (int i = 0; i < 4; i++)
		if (ebx & (1u << i) && i != 2)
			add(out, (int)level, sizes[i], entries, fully ? 0 : ways);
}

void tlb_load(const char *vendor, struct ph_tlbs *out)
{
	uint32_t r[4];

	memset(out, 0, sizeof(*out));
	if (!cpuid_present()) {
		snprintf(out->source, sizeof(out->source), "no CPUID");
		return;
	}
	if (!strcmp(vendor, "AuthenticAMD") || !strcmp(vendor, "HygonGenuine")) {
		uint32_t l5[4] = { 0 }, l6[4] = { 0 }, l19[4] = { 0 };

		cpu_exec_cpuid(0x80000000, r);
		if (r[0] >= 0x80000005)
			cpu_exec_cpuid(0x80000005, l5);
		if (r[0] >= 0x80000006)
			cpu_exec_cpuid(0x80000006, l6);
		if (r[0] >= 0x80000019)
			cpu_exec_cpuid(0x80000019, l19);
		tlb_decode_amd(l5[0], l5[1], l6[0], l6[1], l19[0], l19[1], out);
		return;
	}
	if (!strcmp(vendor, "GenuineIntel")) {
		cpu_exec_cpuid(0, r);
		if (r[0] >= 0x18) {
			uint32_t max_sub;

			r[0] = 0x18;
			r[2] = 0;
			cpu_exec_cpuid_ext(r);
			max_sub = r[0];
			for (uint32_t s = 0; s <= max_sub && s < 16; s++) {
				r[0] = 0x18;
				r[1] = 0;
				r[2] = s;
				r[3] = 0;
				cpu_exec_cpuid_ext(r);
				tlb_decode_intel18(r[1], r[2], r[3], out);
			}
			snprintf(out->source, sizeof(out->source), "CPUID 0x18");
			return;
		}
	}
	snprintf(out->source, sizeof(out->source),
		 "none: only CPUID leaf 2 descriptors");
}

uint64_t tlb_reach(const struct ph_tlbs *t, int level, uint64_t page, int *entries)
{
	uint64_t best = 0;

	for (int i = 0; i < t->n; i++)
		if (t->t[i].level == level && t->t[i].page == page &&
		    (uint64_t)t->t[i].entries * page > best) {
			best = (uint64_t)t->t[i].entries * page;
			if (entries)
				*entries = t->t[i].entries;
		}
	return best;
}
