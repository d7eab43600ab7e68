/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * onekernel.h - what a study that runs one stream kernel on placed
 * threads (scale, goaround) is told: the kernel, its ISA and store kind,
 * the placement and each thread's size.  The command's options fill it
 * (common_study_option), the study's state holds it.
 */
#ifndef PAGEHOP_ONEKERNEL_H
#define PAGEHOP_ONEKERNEL_H

#include <stdbool.h>
#include <stdint.h>

#include "isa.h"
#include "placement.h"

struct common_study {
	const char *kernel;
	enum ph_isa isa;
	bool nt;
	enum ph_place place;
	uint64_t size_per_thread;
};

#endif
