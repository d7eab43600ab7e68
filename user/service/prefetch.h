/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * prefetch.h - the hardware prefetchers of one CPU through pagehop.ko's
 * PREFETCH ioctl: which can be switched off, what each is called, and
 * setting them.  The module restores every CPU's original setting when the
 * fd is closed, so a crash or Ctrl-C cannot leave a prefetcher off.
 */
#ifndef PAGEHOP_PREFETCH_H
#define PAGEHOP_PREFETCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kmod.h"

struct ph_pf_bit {
	int bit;
	const char *name;	/* "l2_stream" */
	const char *desc;
};

struct ph_pf {
	bool control;		/* the prefetchers of cpu can be set */
	char why[192];		/* why not, citing the errno */
	int cpu;
	uint32_t msr_kind;	/* enum pagehop_prefetch_msr */
	uint64_t supported;	/* bits that can be set */
	uint64_t original;	/* disable bits as found */
	const struct ph_pf_bit *bits;	/* the vendor's names for the supported bits */
	int nbits;
};

/*
 * Probe cpu's prefetch control: GET, and a SET of the bits as found (which
 * needs more: CAP_SYS_RAWIO, no lockdown).  Fills pf either way.
 */
void pf_probe(struct ph_kmod *km, int cpu, struct ph_pf *pf);
/*
 * Set the disable bits of pf->cpu; 0 or -errno.  *now gets what the
 * register holds afterwards, as the module read it back: it may differ
 * from what was asked where the CPU does not take a bit.
 */
int pf_set(struct ph_kmod *km, const struct ph_pf *pf, uint64_t disable, uint64_t *now);
/* "l2_stream,l1_ip_stride" for the disable bits, "none" if none. */
const char *pf_names(const struct ph_pf *pf, uint64_t disable, char *buf, size_t size);
const char *pf_msr_name(uint32_t kind);

#endif
