/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * complete.h - shell completion made from the commands' option tables.
 */
#ifndef PAGEHOP_COMPLETE_H
#define PAGEHOP_COMPLETE_H

#include <stdio.h>

/* The bash completion script ('pagehop --bash-completion'). */
void complete_bash(FILE *f);

#endif
