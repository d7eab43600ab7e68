/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pagehop_features.h - what this build can do here (pagehop_features.c).
 */
#ifndef _PAGEHOP_FEATURES_H
#define _PAGEHOP_FEATURES_H

#include <linux/types.h>

u64 pagehop_features(void);

#endif /* _PAGEHOP_FEATURES_H */
