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
#include "output.h"

/* What --emit-acpi and its companions say. */
struct ph_acpi_out {
	const char *path;		/* --emit-acpi FILE; NULL: nothing to write */
	const char *oem_id, *oem_table_id;	/* NULL: the table's */
	const char *table;		/* the binary SLIT the IDs come from */
	bool table_given;		/* --slit-table, rather than this machine's */
	bool have_rev;			/* --oem-revision given */
	uint32_t rev;
};

/*
 * Write p, the proposal of the analysis of figure from input (as the
 * comment of the source names them), to o->path, and say so in doc
 * (section "acpi", notes).  0, or -EINVAL after one line on stderr: the
 * proposal is incomplete, the IDs cannot be had, the file cannot be written.
 */
int slit_emit_acpi(const struct ph_acpi_out *o, const char *figure, const char *input,
		   const struct ph_proposal *p, struct ph_doc *doc);

#endif
