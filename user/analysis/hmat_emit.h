/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hmat_emit.h - the proposed HMAT of an analysis (hmat_propose.h) written
 * as iasl source ("pagehop slit --emit-hmat"), with the OEM IDs of the
 * firmware's HMAT (or of a saved one, or of the options) and its OEM
 * revision plus one, as the SLIT's (slit_emit.h).
 */
#ifndef PAGEHOP_HMAT_EMIT_H
#define PAGEHOP_HMAT_EMIT_H

#include "acpi_hmat.h"
#include "nmatrix.h"
#include "output.h"
#include "slit_emit.h"

/* Who proposes, and how its figures were had, for the source's comment. */
struct ph_hmat_src {
	const char *by;		/* "pagehop slit" */
	const char *input;	/* the measurement's file, or "this machine's measurement" */
	const char *domains;	/* NULL: "Proximity domain i is node i" */
	/* lines ending in "\n" on how each figure was derived; NULL: all measured */
	const char *derivation;
	/*
	 * The targets are not memory (a generic port's domain): without the
	 * firmware's memory proximity domain attributes none is made up.
	 */
	bool targets_not_memory;
	/*
	 * fw is the firmware's whole table, to be written with the figures in
	 * place of its entries (hmat_carry.h) and every other structure and
	 * entry as it was, each entry's comment saying which.  Without fw the
	 * figures alone are written, under a header saying the table is not
	 * complete and why (fw_missing: why the firmware's was not read).
	 */
	bool carry_firmware;
	const char *fw_missing;
};

/*
 * Propose from lat (ns) and bw (GB/s), either may be NULL, keeping fw's
 * domains and caches (fw NULL: none read), stage the source for o->path
 * in set (o->table: the HMAT the IDs come from; the caller commits it)
 * and report it in doc: section "acpi_hmat", table "proposed_hmat" (every
 * entry, with the figure the kernel will read from it).  0, or -EINVAL
 * after one line on stderr, nothing staged: among the reasons a figure
 * no entry holds within the bound of hmat_propose.h, or a cell not
 * measured in a row and column that are (an entry cannot say "not
 * measured"; rows and columns measured nowhere are left out).
 */
/*
 * With src->carry_firmware and fw, the report also says each entry's
 * origin (carried, replaced, added) in "proposed_hmat".
 */
int hmat_emit_acpi(const struct ph_acpi_out *o, const struct ph_hmat_src *src,
		   const struct ph_nmatrix *lat, const struct ph_nmatrix *bw,
		   const struct ph_acpi_hmat *fw, struct ph_doc *doc, struct ph_outset *set);

#endif
