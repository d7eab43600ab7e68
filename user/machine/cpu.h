/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cpu.h - CPU identity and features (libcpuid), caches, cores and SMT
 * siblings (hwloc).  CPUID leaves that libcpuid reads but does not decode
 * (TSC frequency 0x15/0x16, invariant TSC 0x80000007) are taken from its raw
 * data.  Which instruction sets the loops may use is not asked of libcpuid:
 * that is kernels/isa.h's one answer, the one the loops act on.
 */
#ifndef PAGEHOP_CPU_H
#define PAGEHOP_CPU_H

#include <stdbool.h>
#include <stdint.h>

struct ph_cache {
	int level;
	char type[16];		/* "data", "instruction", "unified" */
	uint64_t size;		/* bytes, per instance */
	int line;		/* bytes */
	int ways;		/* -1: fully associative, 0: unknown */
	int instances;
	int cpus_per_instance;
};

struct ph_core {
	int package;
	int core;		/* hwloc logical index */
	char pus[64];		/* OS CPU ids, e.g. "0,32" */
	int npus;
	int pu_ids[16];		/* the same as numbers (the first 16) */
};

struct ph_cpu {
	bool identified;	/* libcpuid succeeded */
	char vendor[16];	/* "GenuineIntel", "AuthenticAMD" */
	char brand[64];
	char codename[64];
	int family, model, stepping;	/* display family/model (with ext) */
	bool invariant_tsc;	/* CPUID 0x80000007 EDX bit 8 */
	bool constant_tsc;
	uint32_t leaf15[4];	/* EAX, EBX, ECX, EDX; zero if absent */
	uint32_t leaf16[4];
	bool hypervisor;	/* CPUID 1 ECX bit 31 */
	char hv_vendor[16];	/* CPUID 0x40000000 EBX ECX EDX, "" unknown */

	int packages, cores, pus;
	int threads_per_core;	/* the most PUs any core has */
	struct ph_cache caches[16];
	int ncaches;
	struct ph_core *core_list;
	int ncore_list;
};

/* 0 or -errno; fields that could not be had are left zero. */
int cpu_load(struct ph_cpu *c);
void cpu_free(struct ph_cpu *c);

#endif
