/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cdat_check.h - what a parsed CDAT says that Linux cannot use or will
 * read otherwise than the device meant, in the spirit of fwts: structures
 * that name no range, ranges that overlap or run past their range, ranges
 * with no figure, figures the kernel drops (no information, unreachable,
 * an overflowing product) and figures given twice.  Each finding has a
 * severity and names the structure by its offset in the table.
 */
#ifndef PAGEHOP_CDAT_CHECK_H
#define PAGEHOP_CDAT_CHECK_H

#include "cdat.h"
#include "tfindings.h"

/* Judge t; out (zeroed first) holds every finding, table "CDAT". */
void cdat_check(const struct ph_cdat *t, struct ph_tfindings *out);

#endif
