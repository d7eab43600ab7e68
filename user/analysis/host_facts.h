/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * host_facts.h - what the analysis may know of the machine that was
 * measured, beyond the input's figures: its kernel release and what its
 * weighted-interleave sysfs holds.  The study gathers them (host_read.h)
 * and only where they belong to the input: an analysis of another
 * machine's table, or of one whose origin is unknown, gets none of this
 * machine's facts unless an option asks for them.  The analysis never
 * reads the machine itself; a plain struct, every pointer borrowed.
 */
#ifndef PAGEHOP_HOST_FACTS_H
#define PAGEHOP_HOST_FACTS_H

#include <stdbool.h>

#include "output.h"

/* Whose machine the input is, as the study decided it. */
enum ph_origin {
	PH_ORIGIN_UNKNOWN = 1,	/* no host in the input's provenance */
	PH_ORIGIN_HERE,		/* measured by this run, or its host is this one's */
	PH_ORIGIN_ELSEWHERE,	/* its host is another's */
};

/* What a weighted-interleave sysfs holds (/sys/kernel/mm/mempolicy/weighted_interleave). */
struct ph_wi_facts {
	bool read;		/* false: not read */
	const char *unread;	/* why not, when !read */
	const char *dir;	/* the directory read */
	bool present;		/* it exists */
	int auto_mode;		/* 1 auto, 0 manual, -1 no such file */
	int n;
	const int *weight;	/* per node of the proposal's ids, -1 no nodeN file */
};

struct ph_host_facts {
	enum ph_origin origin;
	const char *origin_text;	/* "measured here", "measured on HOST", "origin unknown" */
	const char *measured_on;	/* the host measured; NULL: unknown */
	const char *analysed_on;	/* this machine's host name */
	/*
	 * The kernel whose rules apply (memory tiers, weighted interleave);
	 * NULL: not known (the input is not this machine's and no option
	 * named one).  kernel_from says where it came from.
	 */
	const char *kernel;
	const char *kernel_from;
	struct ph_wi_facts wi;
};

/* What a report says where it needs the measured machine's kernel and has none. */
#define PH_FACTS_NEED_KERNEL \
	"not known: the kernel's view needs the measured machine's kernel version: give --kernel-version RELEASE (or --this-kernel for this machine's)"

/*
 * A section "origin": the rule that decided whose the input is (f's
 * origin_text), the host measured ("unknown" without one), the host
 * analysing, the kernel whose rules apply and where it came from, and
 * whether a weighted-interleave sysfs was read.
 */
void host_facts_report(struct ph_doc *doc, const struct ph_host_facts *f);

#endif
