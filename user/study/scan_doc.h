/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * scan_doc.h - pagehop scan's document: the verdict first (the range that
 * strays furthest, its DIMM and its figure), a row per range, the coverage
 * of each node, the memory devices, and how it was all measured.
 */
#ifndef PAGEHOP_SCAN_DOC_H
#define PAGEHOP_SCAN_DOC_H

#include "scan_model.h"

/* The document of sc; *rc becomes 1 when a range strays or was not read back where asked. */
struct ph_doc *scan_document(struct ph_scan *sc, struct ph_session *s, int *rc);

#endif
