// SPDX-License-Identifier: GPL-2.0-only
/*
 * cdat_check.c - a parsed CDAT against itself and against how Linux reads
 * it (drivers/cxl/core/cdat.c: a DSLBIS whose handle names no DSMAS is
 * dropped with a warning, an entry of 0 or 0xffff or whose product with
 * its base unit passes 2^32 - 1 is no figure, and a later DSLBIS of the
 * same range and data type replaces an earlier one).
 */
#include "cdat_check.h"
#include "acpi_hmat.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check_ranges(const struct ph_cdat *t, struct ph_tfindings *out)
{
	if (!t->ndsmas)
		tfindings_add(out, PH_T_ERROR, "CDAT", "table", 0,
			      "no DSMAS: the device describes no memory range, so Linux computes no coordinates");
	for (int i = 0; i < t->ndsmas; i++) {
		const struct ph_cdat_dsmas *a = &t->dsmas[i];
		bool lat = false, bw = false;

		if (!a->dpa_length)
			tfindings_add(out, PH_T_ERROR, "CDAT", "DSMAS", a->off, "range %u has length 0", a->handle);
		for (int j = 0; j < i; j++) {
			const struct ph_cdat_dsmas *b = &t->dsmas[j];

			if (b->handle == a->handle)
				tfindings_add(out, PH_T_ERROR, "CDAT", "DSMAS", a->off,
				    "handle %u is also the DSMAS's at offset %zu", a->handle, b->off);
			else if (a->dpa_base < b->dpa_base + b->dpa_length && b->dpa_base < a->dpa_base + a->dpa_length)
				tfindings_add(out, PH_T_ERROR, "CDAT", "DSMAS", a->off,
				    "range %u (DPA 0x%llx + 0x%llx) overlaps range %u (DPA 0x%llx + 0x%llx)", a->handle,
				    (unsigned long long)a->dpa_base, (unsigned long long)a->dpa_length, b->handle,
				    (unsigned long long)b->dpa_base, (unsigned long long)b->dpa_length);
		}
		for (int k = 0; k < t->ndslbis; k++)
			if (t->dslbis[k].handle == a->handle) {
				lat |= acpi_hmat_is_latency(t->dslbis[k].data_type);
				bw |= !acpi_hmat_is_latency(t->dslbis[k].data_type);
			}
		if (!lat || !bw)
			tfindings_add(out, PH_T_WARNING, "CDAT", "DSMAS", a->off, "range %u has no %s DSLBIS: Linux has no %s for it",
			    a->handle, !lat && !bw ? "latency or bandwidth" : !lat ? "latency" : "bandwidth",
			    !lat && !bw ? "coordinates" : !lat ? "latency" : "bandwidth");
	}
}

static void check_figures(const struct ph_cdat *t, struct ph_tfindings *out)
{
	for (int i = 0; i < t->ndslbis; i++) {
		const struct ph_cdat_dslbis *d = &t->dslbis[i];
		const char *name = acpi_hmat_data_name(d->data_type);

		if (!cdat_dsmas_of(t, d->handle)) {
			tfindings_add(out, PH_T_ERROR, "CDAT", "DSLBIS", d->off,
			    "%s names range %u, which no DSMAS describes: Linux drops it", name, d->handle);
			continue;
		}
		if (d->entry[0] == PH_HMAT_ENTRY_NONE || d->entry[0] == PH_HMAT_ENTRY_UNREACHABLE)
			tfindings_add(out, PH_T_WARNING, "CDAT", "DSLBIS", d->off, "%s of range %u is %s: no figure",
			    name, d->handle, d->entry[0] ? "0xffff (unreachable)" : "0 (no information)");
		else if (!acpi_hmat_value(d->entry[0], d->base_unit, d->data_type, 2))
			tfindings_add(out, PH_T_WARNING, "CDAT", "DSLBIS", d->off,
			    "%s of range %u: entry %u x base unit %llu passes 2^32 - 1: Linux drops it", name,
			    d->handle, d->entry[0], (unsigned long long)d->base_unit);
		for (int j = 0; j < i; j++)
			if (t->dslbis[j].handle == d->handle && t->dslbis[j].data_type == d->data_type)
				tfindings_add(out, PH_T_WARNING, "CDAT", "DSLBIS", d->off,
				    "%s of range %u is also given at offset %zu: Linux keeps this later one",
				    name, d->handle, t->dslbis[j].off);
		if (d->entry[1] || d->entry[2])
			tfindings_add(out, PH_T_INFO, "CDAT", "DSLBIS", d->off,
			    "%s of range %u has entries 1 and 2 (%u, %u), which Linux does not read", name, d->handle,
			    d->entry[1], d->entry[2]);
	}
}

static void check_types(const struct ph_cdat *t, struct ph_tfindings *out)
{
	for (int i = 0; i < t->ndsemts; i++) {
		const struct ph_cdat_dsemts *e = &t->dsemts[i];
		const struct ph_cdat_dsmas *a = cdat_dsmas_of(t, e->handle);

		if (!a)
			tfindings_add(out, PH_T_ERROR, "CDAT", "DSEMTS", e->off,
				      "names range %u, which no DSMAS describes", e->handle);
		else if (e->dpa_offset > a->dpa_length || e->dpa_length > a->dpa_length - e->dpa_offset)
			tfindings_add(out, PH_T_ERROR, "CDAT", "DSEMTS", e->off,
			    "offset 0x%llx + length 0x%llx runs past range %u's length 0x%llx",
			    (unsigned long long)e->dpa_offset, (unsigned long long)e->dpa_length, e->handle,
			    (unsigned long long)a->dpa_length);
	}
	for (int i = 0; i < t->ndsmscis; i++)
		if (!cdat_dsmas_of(t, t->dsmscis[i].handle))
			tfindings_add(out, PH_T_ERROR, "CDAT", "DSMSCIS", t->dsmscis[i].off,
			    "names range %u, which no DSMAS describes", t->dsmscis[i].handle);
	if (t->nunknown)
		tfindings_add(out, PH_T_INFO, "CDAT", "table", 0,
			      "%d structure%s of a type after SSLBIS, skipped as Linux skips them",
		    t->nunknown, t->nunknown == 1 ? "" : "s");
}

void cdat_check(const struct ph_cdat *t, struct ph_tfindings *out)
{
	memset(out, 0, sizeof(*out));
	check_ranges(t, out);
	check_figures(t, out);
	check_types(t, out);
}

