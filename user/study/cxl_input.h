/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cxl_input.h - a saved pagehop cxl document (--format json) read back to
 * judge offline: its explanation (table cxl_explain, each figure's parts,
 * which are composed again here, not taken as written; cxl_parts) and its
 * measurement (cxl_measured: read latency and read bandwidth from each CPU
 * node, each with its CI, or none).
 */
#ifndef PAGEHOP_CXL_INPUT_H
#define PAGEHOP_CXL_INPUT_H

#include "cxl_explain.h"
#include "cxl_judge.h"

#include <stddef.h>

/*
 * Read path into e[0..*ne) and m[0..*nm) (malloc'd), and its provenance's
 * boot_id into boot ("" where it has none): 0, or -errno / -EINVAL with
 * one phrase in why (the file, the table and row, what is wrong).  A
 * document with no cxl_explain row is refused.
 */
int cxl_input_read(const char *path, struct ph_cxl_explained **e, int *ne,
		   struct ph_cxl_measured **m, int *nm, char *boot, size_t bootsize, char *why,
		   size_t whylen);

#endif
