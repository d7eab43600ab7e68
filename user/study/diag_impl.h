/* SPDX-License-Identifier: GPL-2.0-only */
/* diag_impl.h - what diag.c and diag_load.c share; private to diag's unit. */
#ifndef PAGEHOP_DIAG_IMPL_H
#define PAGEHOP_DIAG_IMPL_H

#include "diag.h"

/* The planned item a figure came from, or NULL (an exact figure). */
const struct ph_diag_item *diag_item_of(const struct ph_diag *d, const struct ph_hfig *f);
/* The cell, or null when v is not a number. */
void diag_num_or_null(struct ph_table *t, int r, const char *col, double v, const char *fmt);

#endif
