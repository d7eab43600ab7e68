// SPDX-License-Identifier: GPL-2.0-only
/*
 * pagehop_features.c - the PAGEHOP_FEAT_* bits: what this build can do on
 * this kernel (pagehop_compat.h) and this CPU.  INFO reports them, ALLOC
 * refuses a page size they lack, and the load message prints them.
 */
#include <asm/cpufeature.h>

#include "pagehop.h"
#include "pagehop_features.h"
#include "pagehop_prefetch.h"

/* What this build can do on this kernel and this CPU. */
u64 pagehop_features(void)
{
	u64 f = PAGEHOP_FEAT_PAGE_4K | PAGEHOP_FEAT_QUERY | PAGEHOP_FEAT_CHASE |
		PAGEHOP_FEAT_CHASE_HOPS | PAGEHOP_FEAT_MAP_XLATE;

	if (PAGEHOP_HAVE_PMD_PFNMAP && boot_cpu_has(X86_FEATURE_PSE))
		f |= PAGEHOP_FEAT_PAGE_2M;
	if (PAGEHOP_HAVE_PUD_PFNMAP && boot_cpu_has(X86_FEATURE_GBPAGES))
		f |= PAGEHOP_FEAT_PAGE_1G;
	if (pagehop_prefetch_supported())
		f |= PAGEHOP_FEAT_PREFETCH;
	return f;
}
