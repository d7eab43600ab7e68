/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PAGEHOP_VERSION_H
#define PAGEHOP_VERSION_H

/* The command's release; the ABI has its own, PAGEHOP_API_VERSION. */
#define PAGEHOP_VERSION "0.1.0"

#endif
