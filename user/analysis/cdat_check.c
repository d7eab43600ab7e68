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

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *cdat_severity_name(enum ph_cdat_severity s)
{
	return s == PH_CDAT_ERROR ? "error" : s == PH_CDAT_WARNING ? "warning" : "info";
}

static void add(struct ph_cdat_findings *out, enum ph_cdat_severity sev, int type, size_t off,
		const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void add(struct ph_cdat_findings *out, enum ph_cdat_severity sev, int type, size_t off,
		const char *fmt, ...)
{
	struct ph_cdat_finding *f;
	va_list ap;

	f = xappend(&out->f, &out->n, sizeof(*f));
	f->sev = sev;
	f->type = type;
	f->off = off;
	va_start(ap, fmt);
	vsnprintf(f->what, sizeof(f->what), fmt, ap);
	va_end(ap);
	out->count[sev]++;
}

static void check_ranges(const struct ph_cdat *t, struct ph_cdat_findings *out)
{
	if (!t->ndsmas)
		add(out, PH_CDAT_ERROR, -1, 0, "no DSMAS: the device describes no memory range, so Linux computes no coordinates");
	for (int i = 0; i < t->ndsmas; i++) {
		const struct ph_cdat_dsmas *a = &t->dsmas[i];
		bool lat = false, bw = false;

		if (!a->dpa_length)
			add(out, PH_CDAT_ERROR, PH_CDAT_DSMAS, a->off, "range %u has length 0", a->handle);
		for (int j = 0; j < i; j++) {
			const struct ph_cdat_dsmas *b = &t->dsmas[j];

			if (b->handle == a->handle)
				add(out, PH_CDAT_ERROR, PH_CDAT_DSMAS, a->off,
				    "handle %u is also the DSMAS's at offset %zu", a->handle, b->off);
			else if (a->dpa_base < b->dpa_base + b->dpa_length && b->dpa_base < a->dpa_base + a->dpa_length)
				add(out, PH_CDAT_ERROR, PH_CDAT_DSMAS, a->off,
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
			add(out, PH_CDAT_WARNING, PH_CDAT_DSMAS, a->off, "range %u has no %s DSLBIS: Linux has no %s for it",
			    a->handle, !lat && !bw ? "latency or bandwidth" : !lat ? "latency" : "bandwidth",
			    !lat && !bw ? "coordinates" : !lat ? "latency" : "bandwidth");
	}
}

static void check_figures(const struct ph_cdat *t, struct ph_cdat_findings *out)
{
	for (int i = 0; i < t->ndslbis; i++) {
		const struct ph_cdat_dslbis *d = &t->dslbis[i];
		const char *name = acpi_hmat_data_name(d->data_type);

		if (!cdat_dsmas_of(t, d->handle)) {
			add(out, PH_CDAT_ERROR, PH_CDAT_DSLBIS, d->off,
			    "%s names range %u, which no DSMAS describes: Linux drops it", name, d->handle);
			continue;
		}
		if (d->entry[0] == PH_HMAT_ENTRY_NONE || d->entry[0] == PH_HMAT_ENTRY_UNREACHABLE)
			add(out, PH_CDAT_WARNING, PH_CDAT_DSLBIS, d->off, "%s of range %u is %s: no figure",
			    name, d->handle, d->entry[0] ? "0xffff (unreachable)" : "0 (no information)");
		else if (!acpi_hmat_value(d->entry[0], d->base_unit, d->data_type, 2))
			add(out, PH_CDAT_WARNING, PH_CDAT_DSLBIS, d->off,
			    "%s of range %u: entry %u x base unit %llu passes 2^32 - 1: Linux drops it", name,
			    d->handle, d->entry[0], (unsigned long long)d->base_unit);
		for (int j = 0; j < i; j++)
			if (t->dslbis[j].handle == d->handle && t->dslbis[j].data_type == d->data_type)
				add(out, PH_CDAT_WARNING, PH_CDAT_DSLBIS, d->off,
				    "%s of range %u is also given at offset %zu: Linux keeps this later one",
				    name, d->handle, t->dslbis[j].off);
		if (d->entry[1] || d->entry[2])
			add(out, PH_CDAT_INFO, PH_CDAT_DSLBIS, d->off,
			    "%s of range %u has entries 1 and 2 (%u, %u), which Linux does not read", name, d->handle,
			    d->entry[1], d->entry[2]);
	}
}

static void check_types(const struct ph_cdat *t, struct ph_cdat_findings *out)
{
	for (int i = 0; i < t->ndsemts; i++) {
		const struct ph_cdat_dsemts *e = &t->dsemts[i];
		const struct ph_cdat_dsmas *a = cdat_dsmas_of(t, e->handle);

		if (!a)
			add(out, PH_CDAT_ERROR, PH_CDAT_DSEMTS, e->off, "names range %u, which no DSMAS describes", e->handle);
		else if (e->dpa_offset > a->dpa_length || e->dpa_length > a->dpa_length - e->dpa_offset)
			add(out, PH_CDAT_ERROR, PH_CDAT_DSEMTS, e->off,
			    "offset 0x%llx + length 0x%llx runs past range %u's length 0x%llx",
			    (unsigned long long)e->dpa_offset, (unsigned long long)e->dpa_length, e->handle,
			    (unsigned long long)a->dpa_length);
	}
	for (int i = 0; i < t->ndsmscis; i++)
		if (!cdat_dsmas_of(t, t->dsmscis[i].handle))
			add(out, PH_CDAT_ERROR, PH_CDAT_DSMSCIS, t->dsmscis[i].off,
			    "names range %u, which no DSMAS describes", t->dsmscis[i].handle);
	if (t->nunknown)
		add(out, PH_CDAT_INFO, -1, 0, "%d structure%s of a type after SSLBIS, skipped as Linux skips them",
		    t->nunknown, t->nunknown == 1 ? "" : "s");
}

void cdat_check(const struct ph_cdat *t, struct ph_cdat_findings *out)
{
	memset(out, 0, sizeof(*out));
	check_ranges(t, out);
	check_figures(t, out);
	check_types(t, out);
}

void cdat_findings_free(struct ph_cdat_findings *f)
{
	free(f->f);
	memset(f, 0, sizeof(*f));
}
