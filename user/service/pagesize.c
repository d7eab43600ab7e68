// SPDX-License-Identifier: GPL-2.0-only
/*
 * pagesize.c - the page sizes a buffer can be made of: names and bytes.
 */
#include "pagesize.h"
#include "util.h"

#include <errno.h>
#include <string.h>
#include <strings.h>

static const char *const psize_names[] = {
	[PH_PS_4K] = "4K",
	[PH_PS_2M] = "2M",
	[PH_PS_1G] = "1G",
	[PH_PS_THP] = "THP",
};

const char *psize_name(enum ph_psize ps)
{
	return ps >= PH_PS_4K && ps < PH_PS_COUNT ? psize_names[ps] : "?";
}

int psize_parse(const char *s, enum ph_psize *out)
{
	for (int p = PH_PS_4K; p < PH_PS_COUNT; p++)
		if (!strcasecmp(s, psize_names[p])) {
			*out = (enum ph_psize)p;
			return 0;
		}
	return -EINVAL;
}

uint64_t psize_bytes(enum ph_psize ps)
{
	switch (ps) {
	case PH_PS_2M:
	case PH_PS_THP:
		return 2 * MiB;
	case PH_PS_1G:
		return GiB;
	default:
		return PH_PAGE_4K;
	}
}
