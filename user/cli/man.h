/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * man.h - the parts of docs/pagehop.1 that come from pagehop's own tables,
 * in roff: a command's option list from its declaration (optspec.h), and
 * EXIT STATUS from ph_exit_codes[].  Printed by the hidden
 * 'pagehop --man-options CMD' and 'pagehop --man-exit-status';
 * docs/update-man.sh puts them into the man page and tests/host/test_docs.sh
 * fails when the page is not what they print.
 */
#ifndef PAGEHOP_MAN_H
#define PAGEHOP_MAN_H

#include <stdio.h>

struct ph_cmdspec;

void man_options(FILE *f, const struct ph_cmdspec *spec);
void man_exit_status(FILE *f);

#endif
