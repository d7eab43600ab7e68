/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * slit_emit.h - the proposed SLIT of an analysis written as iasl source
 * ("pagehop slit --emit-acpi"), with the OEM IDs of the firmware's table
 * (or of a saved one, or of the options) and its OEM revision plus one, so
 * that the kernel's table upgrade takes it in place of the firmware's.
 */
#ifndef PAGEHOP_SLIT_EMIT_H
#define PAGEHOP_SLIT_EMIT_H

#include <stdbool.h>
#include <stdint.h>

#include "distance.h"
#include "acpi_slit.h"
#include "nmatrix.h"
#include "output.h"
#include "util.h"

/* What --emit-acpi and its companions say. */
struct ph_acpi_out {
	const char *path;		/* --emit-acpi FILE; NULL: nothing to write */
	const char *oem_id, *oem_table_id;	/* NULL: the table's */
	const char *table;		/* the binary SLIT the IDs come from */
	bool table_given;		/* --slit-table, rather than this machine's */
	bool have_rev;			/* --oem-revision given */
	uint32_t rev;
	/*
	 * Not this machine's measurement: why, in words ("the input's
	 * provenance names host X, not this one"); NULL when it is.  Then
	 * this machine's table is not read (unless table_given): the IDs are
	 * prov's, the input's provenance's, or else PH_ACPI_NEUTRAL_*.
	 */
	const char *elsewhere;
	const struct ph_acpi_oem *prov;
};

/* The IDs of a table for a machine whose own are not known: pagehop's, claiming no vendor's. */
#define PH_ACPI_NEUTRAL_OEM_ID "PAGEHP"
#define PH_ACPI_NEUTRAL_OEM_TABLE_ID "PAGEHOP"

/*
 * Resolve the header fields of an emitted table of signature sig ("SLIT",
 * "HMAT") from the options and the header of o->table (named by option
 * table_opt in messages): 0, or -EINVAL after printing one line.  from
 * says where the IDs came from; *have_table and *table_rev the table's.
 * For another machine's input (o->elsewhere) without a table given, its
 * provenance's IDs, OEM revision raised by one, or the neutral ones, and
 * from says which and why.
 */
int acpi_emit_ids(const struct ph_acpi_out *o, const char *sig, const char *table_opt,
		  struct ph_acpi_ids *ids, char *from, size_t fromlen, uint32_t *table_rev,
		  bool *have_table);

/* A section name saying where the table went and its header fields. */
struct ph_section *acpi_ids_section(struct ph_doc *doc, const char *name, const char *title,
				    const char *path, const struct ph_acpi_ids *ids, const char *from,
				    bool have_table, uint32_t table_rev);

/*
 * Stage p, the proposal of the analysis of figure from input (as the
 * comment of the source names them), for o->path in set (the caller
 * commits it with the run's other outputs), and say so in doc (section
 * "acpi", notes).  0, or -EINVAL after one line on stderr: the proposal
 * is incomplete, the IDs cannot be had, the file cannot be written.
 */
int slit_emit_acpi(const struct ph_acpi_out *o, const char *figure, const char *input,
		   const struct ph_proposal *p, struct ph_doc *doc, struct ph_outset *set);

#endif
