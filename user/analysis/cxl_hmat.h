/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cxl_hmat.h - the generic port's HMAT figures a CXL measurement implies
 * ("pagehop cxl --emit-hmat"), per CPU node (initiator) to each generic
 * port's proximity domain (target), as Linux composes a CXL node's
 * coordinates (cxl_explain.h):
 *
 *   read latency    the latency measured from that CPU node less the
 *                   device CDAT's read latency and the link's (both as
 *                   Linux takes them, in ns): the sum is the node's;
 *   read bandwidth  the bandwidth measured from that CPU node where the
 *                   generic port's figure is the least of the three parts
 *                   (then the measurement shows it); where another part
 *                   binds the port's figure cannot show, so the firmware's
 *                   (the best over initiators, as Linux takes it) is kept
 *                   for every initiator, and the comment says so.
 *
 * The matrices are in pagehop's units (ns, GB/s), rows the CPU nodes,
 * columns the ports' domains, for hmat_emit_acpi().
 */
#ifndef PAGEHOP_CXL_HMAT_H
#define PAGEHOP_CXL_HMAT_H

#include "cxl_judge.h"
#include "nmatrix.h"

/*
 * From the explained nodes e[0..ne) and the measured rows m[0..nm):
 * *lat and *bw (nmatrix_free them) and *text, one comment line per
 * figure saying how it was derived, from which measurement, and whether
 * that measurement missed its CI (free it).  0, or -EINVAL with *why
 * (static or in whybuf): no node with a generic port and its parts, a
 * figure the other parts alone exceed, two nodes behind one port.
 */
int cxl_propose_gp(const struct ph_cxl_explained *e, int ne, const struct ph_cxl_measured *m,
		   int nm, struct ph_nmatrix **lat, struct ph_nmatrix **bw, char **text,
		   char *whybuf, size_t whylen);

#endif
