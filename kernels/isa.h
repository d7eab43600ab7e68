/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * isa.h - which instruction sets the measured loops may use on this CPU.
 *
 * This is the one answer pagehop gives to "what does this CPU support":
 * the loops act on it (stream_find, swpf_find, isa_best), 'pagehop list'
 * marks the variants that run here from it, and 'pagehop info' prints it.
 * It stays in the loops' layer because it is their fact: a variant may run
 * only where the CPU has its instructions AND the OS saves its registers
 * (XCR0), which is more than a feature flag says.  libcpuid (user/machine/cpu.c)
 * names the CPU but is not asked about ISAs: on some CPUs it does not
 * decode AVX-512 where the loops run it.
 *
 * Which of the supported ISAs a command runs by default is another
 * question, answered once for all commands by stream_choose_isa()
 * (stream.h) from the CPU's identity below (struct isa_cpu).
 */
#ifndef PAGEHOP_ISA_H
#define PAGEHOP_ISA_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Instruction sets a variant is written for; 0 is no ISA (catches an unset
 * field).  PH_ISA_AUTO is not one: it asks for the variant 'auto' chooses
 * per loop (stream_choose_isa() in stream.h), and no variant carries it.
 */
enum ph_isa { PH_ISA_SCALAR = 1, PH_ISA_SSE2, PH_ISA_AVX2, PH_ISA_AVX512, PH_ISA_AUTO };

const char *isa_name(enum ph_isa isa);		/* "scalar", "sse2", "avx2", "avx512", "auto"; "?" otherwise */
const char *isa_desc(enum ph_isa isa);		/* "256-bit vectors, with FMA"; "?" otherwise */
const char *isa_name_list(void);		/* "scalar, sse2, avx2 or avx512", for messages */
int isa_parse(const char *s, enum ph_isa *out); /* a name above or "auto" (PH_ISA_AUTO); 0 or -EINVAL */
bool isa_supported(enum ph_isa isa);		/* the CPU has it and the OS saves its registers */
enum ph_isa isa_best(void);			/* the widest supported ISA (not what auto runs) */
/* The supported ISAs by name, narrowest first: "scalar,sse2,avx2,avx512". */
const char *isa_supported_list(char *buf, size_t size);

/*
 * The decision behind isa_supported(), from raw CPUID words and XCR0, so that
 * it can be tested against hand-written cases: leaf 1 ECX/EDX, leaf 7
 * (sub-leaf 0) EBX, and XCR0 (0 when OSXSAVE is clear).
 */
bool isa_supported_by(enum ph_isa isa, unsigned leaf1_ecx, unsigned leaf1_edx,
		      unsigned leaf7_ebx, unsigned long long xcr0);

/*
 * What the choice of 'auto' knows of a CPU (stream_choose_isa): who made
 * it, its family and model as /proc/cpuinfo prints them (display values:
 * the extended fields added in), and the widest ISA it runs.  A plain
 * struct, so that the choice can be tested on CPUs made up by hand.
 */
enum isa_vendor { ISA_VENDOR_OTHER = 1, ISA_VENDOR_INTEL, ISA_VENDOR_AMD };

struct isa_cpu {
	enum isa_vendor vendor;
	unsigned family;	/* display family, e.g. 0x19 (25) for AMD Zen 3 and Zen 4 */
	unsigned model;		/* display model */
	enum ph_isa widest;	/* isa_best() */
};

/* This CPU, from CPUID leaves 0 and 1 and isa_best(). */
void isa_cpu_here(struct isa_cpu *cpu);
/*
 * The decoding behind isa_cpu_here(), testable: the 12-byte vendor string
 * of leaf 0 (EBX, EDX, ECX) and leaf 1 EAX, as the SDM and AMD's APM
 * define the display family (base + extended when base is 0xf) and model
 * (extended model in bits 4-7 when the family is 6 or at least 0xf).
 */
void isa_cpu_decode(struct isa_cpu *cpu, const char vendor[12], unsigned leaf1_eax,
		    enum ph_isa widest);

#endif
