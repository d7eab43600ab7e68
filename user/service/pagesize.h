/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pagesize.h - the page sizes a buffer can be made of (4K, 2M, 1G, THP):
 * their names, as options take them and rows print them, and their bytes.
 */
#ifndef PAGEHOP_PAGESIZE_H
#define PAGEHOP_PAGESIZE_H

#include <stdint.h>

/* The base page, the unit of move_pages and /proc/self/pagemap. */
#define PH_PAGE_4K 4096ull

enum ph_psize {
	PH_PS_4K = 1,
	PH_PS_2M,
	PH_PS_1G,
	PH_PS_THP,		/* anonymous memory the kernel backs with 2 MiB THP */
	PH_PS_COUNT,
};

const char *psize_name(enum ph_psize ps);	/* "4K", "2M", "1G", "THP" */
int psize_parse(const char *s, enum ph_psize *out);	/* 4k|2m|1g|thp */
uint64_t psize_bytes(enum ph_psize ps);		/* THP: 2 MiB */

#endif
