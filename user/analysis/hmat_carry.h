/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hmat_carry.h - the firmware's whole HMAT with the entries a proposal
 * holds put in place of the firmware's ("pagehop cxl --emit-hmat"), so
 * that the table can replace the machine's: every structure and every
 * other entry is carried over as the firmware had it.
 *
 *   latency     a figure of lat (ns) from initiator i to target t is the
 *               entry from i to t of each structure of the memory
 *               hierarchy whose data type is access or read latency;
 *   bandwidth   a figure of bw (GB/s) likewise, of access or read
 *               bandwidth; write figures are not measured, so write
 *               structures are carried whole.
 *
 * An entry replaced keeps its structure's base unit (the firmware's other
 * entries in it are under that unit): entry = figure (ps or MB/s) / base
 * unit, rounded, within the bound of hmat_propose.h.  A kind (latency or
 * bandwidth) whose targets no structure lists is added as a structure of
 * its own, as hmat_propose() lays it out, after the firmware's.
 */
#ifndef PAGEHOP_HMAT_CARRY_H
#define PAGEHOP_HMAT_CARRY_H

#include "acpi_hmat.h"
#include "nmatrix.h"

#include <stddef.h>
#include <stdint.h>

enum ph_hmat_origin {
	PH_HMAT_CARRIED = 1,	/* as the firmware had it */
	PH_HMAT_REPLACED,	/* the proposal's figure in the firmware's entry */
	PH_HMAT_ADDED,		/* in a structure the firmware did not have */
};

struct ph_hmat_carried {
	struct ph_acpi_hmat t;	/* the table to write */
	uint8_t **origin;	/* per locality structure k, per entry i * nt + t: enum ph_hmat_origin */
	int nfirmware_lb;	/* t.lb[0..nfirmware_lb) are the firmware's */
	int nreplaced, nadded;
};

/*
 * out from fw and the figures of lat and bw (either may be NULL): 0, or
 * -EINVAL with one phrase in why, nothing in out: fw has structures of a
 * type pagehop does not read (it could not write them back); a figure
 * whose target a structure of its kind lists but not its initiator (the
 * structure would change shape); a kind some of whose figures have a
 * structure and some not; a cell not measured in a structure added; a
 * figure no entry under its structure's base unit holds within the bound.
 */
int hmat_carry(const struct ph_acpi_hmat *fw, const struct ph_nmatrix *lat,
	       const struct ph_nmatrix *bw, struct ph_hmat_carried *out,
	       char *why, size_t whylen);
void hmat_carried_free(struct ph_hmat_carried *c);

#endif
