// SPDX-License-Identifier: GPL-2.0-only
/*
 * isa.c - which instruction sets the loops may use here (see isa.h): CPUID
 * for the instructions, XCR0 for the registers the OS saves.
 */
#include "isa.h"

#if !defined(__x86_64__)
#error "kernels/isa.c is written for x86-64"
#endif

#include <cpuid.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

static const char *const isa_names[] = {
	[PH_ISA_SCALAR] = "scalar",
	[PH_ISA_SSE2] = "sse2",
	[PH_ISA_AVX2] = "avx2",
	[PH_ISA_AVX512] = "avx512",
	[PH_ISA_AUTO] = "auto",
};

static const char *const isa_descs[] = {
	[PH_ISA_SCALAR] = "one double per instruction",
	[PH_ISA_SSE2] = "128-bit vectors",
	[PH_ISA_AVX2] = "256-bit vectors, with FMA",
	[PH_ISA_AVX512] = "512-bit vectors (AVX-512F)",
};

const char *isa_name(enum ph_isa isa)
{
	if (isa < PH_ISA_SCALAR || isa > PH_ISA_AUTO)
		return "?";
	return isa_names[isa];
}

const char *isa_desc(enum ph_isa isa)
{
	if (isa < PH_ISA_SCALAR || isa > PH_ISA_AVX512)
		return "?";
	return isa_descs[isa];
}

const char *isa_name_list(void)
{
	/* Made on the first call, while options are parsed, before any thread. */
	static char list[64];
	size_t len = 0;

	if (list[0])
		return list;
	for (int i = PH_ISA_SCALAR; i <= PH_ISA_AVX512 && len < sizeof(list); i++)
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s",
					i == PH_ISA_SCALAR ? "" : i < PH_ISA_AVX512 ? ", " : " or ",
					isa_names[i]);
	return list;
}

int isa_parse(const char *s, enum ph_isa *out)
{
	for (int i = PH_ISA_SCALAR; i <= PH_ISA_AUTO; i++) {
		if (!strcmp(s, isa_names[i])) {
			*out = (enum ph_isa)i;
			return 0;
		}
	}
	return -EINVAL;
}

/* XCR0 bits: the OS saves SSE (1), AVX (2) and the three AVX-512 states (5-7). */
#define XCR0_YMM 0x06ull
#define XCR0_ZMM 0xe0ull

bool isa_supported_by(enum ph_isa isa, unsigned leaf1_ecx, unsigned leaf1_edx,
		      unsigned leaf7_ebx, unsigned long long xcr0)
{
	/* A CPUID bit alone is not enough: using a register the OS does not
	 * save on a context switch would corrupt it (or fault). */
	bool ymm_os = (leaf1_ecx & bit_OSXSAVE) && (xcr0 & XCR0_YMM) == XCR0_YMM;
	bool avx2 = ymm_os && (leaf1_ecx & bit_AVX) && (leaf1_ecx & bit_FMA) &&
		    (leaf7_ebx & bit_AVX2);

	switch (isa) {
	case PH_ISA_SCALAR:
		return true;
	case PH_ISA_SSE2:
		return leaf1_edx & bit_SSE2;
	case PH_ISA_AVX2:
		return avx2;
	case PH_ISA_AVX512:
		/* target("avx512f") lets the compiler use AVX2 too. */
		return avx2 && (xcr0 & XCR0_ZMM) == XCR0_ZMM && (leaf7_ebx & bit_AVX512F);
	case PH_ISA_AUTO:
		return false; /* not an ISA */
	}
	return false;
}

bool isa_supported(enum ph_isa isa)
{
	unsigned eax, ebx, ecx = 0, edx = 0, l7_ebx = 0;
	unsigned long long xcr0 = 0;

	if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx))
		return isa == PH_ISA_SCALAR;
	if (ecx & bit_OSXSAVE) {
		unsigned lo, hi;

		/* XCR0; inline asm needs no target("xsave") attribute. */
		__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
		xcr0 = ((unsigned long long)hi << 32) | lo;
	}
	if (__get_cpuid_max(0, NULL) >= 7) {
		unsigned a7, c7, d7;

		__cpuid_count(7, 0, a7, l7_ebx, c7, d7);
		(void)a7, (void)c7, (void)d7;
	}
	return isa_supported_by(isa, ecx, edx, l7_ebx, xcr0);
}

enum ph_isa isa_best(void)
{
	for (int i = PH_ISA_AVX512; i > PH_ISA_SCALAR; i--) {
		if (isa_supported((enum ph_isa)i))
			return (enum ph_isa)i;
	}
	return PH_ISA_SCALAR;
}

const char *isa_supported_list(char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int i = PH_ISA_SCALAR; i <= PH_ISA_AVX512 && len < size; i++)
		if (isa_supported((enum ph_isa)i))
			len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? "," : "",
						isa_names[i]);
	return buf;
}

void isa_cpu_decode(struct isa_cpu *cpu, const char vendor[12], unsigned leaf1_eax,
		    enum ph_isa widest)
{
	unsigned base_family = (leaf1_eax >> 8) & 0xf, base_model = (leaf1_eax >> 4) & 0xf;

	cpu->vendor = !memcmp(vendor, "GenuineIntel", 12) ? ISA_VENDOR_INTEL :
		      !memcmp(vendor, "AuthenticAMD", 12) ? ISA_VENDOR_AMD : ISA_VENDOR_OTHER;
	cpu->family = base_family;
	if (base_family == 0xf)
		cpu->family += (leaf1_eax >> 20) & 0xff;
	cpu->model = base_model;
	if (base_family == 0x6 || base_family == 0xf)
		cpu->model |= ((leaf1_eax >> 16) & 0xf) << 4;
	cpu->widest = widest;
}

void isa_cpu_here(struct isa_cpu *cpu)
{
	unsigned max, eax = 0, ebx, ecx, edx;
	char vendor[12] = { 0 };

	if (__get_cpuid(0, &max, &ebx, &ecx, &edx)) {
		memcpy(vendor, &ebx, 4);
		memcpy(vendor + 4, &edx, 4);
		memcpy(vendor + 8, &ecx, 4);
		if (max >= 1)
			__get_cpuid(1, &eax, &ebx, &ecx, &edx);
	}
	isa_cpu_decode(cpu, vendor, eax, isa_best());
}
