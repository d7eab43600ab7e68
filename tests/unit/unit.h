/* SPDX-License-Identifier: GPL-2.0-only */
/* unit.h - what every cmocka unit test includes. */
#ifndef PAGEHOP_UNIT_H
#define PAGEHOP_UNIT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#endif
