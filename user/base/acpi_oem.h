/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * acpi_oem.h - the OEM fields of a machine's ACPI SLIT and HMAT headers: a
 * fact of the machine a document was made on (provenance), carried with
 * the matrices read back from it (nmatrix) to the tables emitted for it.
 */
#ifndef PAGEHOP_ACPI_OEM_H
#define PAGEHOP_ACPI_OEM_H

#include <stdbool.h>
#include <stdint.h>

/*
 * The OEM fields of one ACPI table's header: what a table written to
 * replace it must carry for the kernel's table upgrade to take it.
 */
struct ph_acpi_oem {
	bool have;		/* false: no such table, or unreadable (root only) */
	char oem_id[7], oem_table_id[9];	/* as iasl writes them back */
	uint32_t oem_revision;
};

enum { PH_PROV_SLIT, PH_PROV_HMAT, PH_PROV_NACPI };

#endif
