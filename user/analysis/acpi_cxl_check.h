/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * acpi_cxl_check.h - the SRAT and the CEDT checked against themselves and
 * each other, in the spirit of fwts: memory ranges that overlap or are
 * empty, generic ports that name no CXL host bridge, host bridges with no
 * generic port (Linux then computes no coordinates for their memory),
 * fixed memory windows that Linux refuses (base or size not 256 MiB
 * aligned, a granularity or arithmetic the spec does not have) or that
 * name no host bridge, windows that overlap, and the sums.
 */
#ifndef PAGEHOP_ACPI_CXL_CHECK_H
#define PAGEHOP_ACPI_CXL_CHECK_H

#include "acpi_cedt.h"
#include "acpi_srat.h"
#include "tfindings.h"

/*
 * Judge srat and cedt (either may be NULL: not on this machine); out
 * (zeroed first) holds every finding, tables "SRAT" and "CEDT".
 */
void acpi_cxl_check(const struct ph_acpi_srat *srat, const struct ph_acpi_cedt *cedt,
		    struct ph_tfindings *out);

#endif
