// SPDX-License-Identifier: GPL-2.0-only
/*
 * acpi_cxl_check.c - the SRAT's and CEDT's structural checks.  What Linux
 * refuses is read from drivers/cxl/acpi.c (cxl_acpi_cfmws_verify(): base
 * and size 256 MiB aligned, ways and granularity encodings, modulo or XOR
 * arithmetic) and drivers/acpi/numa/srat.c (a generic port is matched to
 * its host bridge by the ACPI _UID).
 */
#include "acpi_cxl_check.h"

#include <stdbool.h>
#include <string.h>

#define SZ_256M (256ull << 20)
#define CHBCR_LEN 0x10000	/* a CXL 2.0+ host bridge's component registers */
#define RCRB_LEN 0x2000		/* a CXL 1.1 root complex register block */

static bool overlap(uint64_t a, uint64_t alen, uint64_t b, uint64_t blen)
{
	return alen && blen && a < b + blen && b < a + alen;
}

static void check_srat_memory(const struct ph_acpi_srat *s, struct ph_tfindings *out)
{
	for (int i = 0; i < s->nmem; i++) {
		const struct ph_srat_mem *m = &s->mem[i];

		if (!m->enabled)
			continue;
		if (!m->length)
			tfindings_add(out, PH_T_ERROR, "SRAT", "memory affinity", m->off,
				      "domain %u: an enabled range of length 0", m->domain);
		for (int j = 0; j < i; j++) {
			const struct ph_srat_mem *o = &s->mem[j];

			if (o->enabled && overlap(m->base, m->length, o->base, o->length))
				tfindings_add(out, PH_T_ERROR, "SRAT", "memory affinity", m->off,
					      "domain %u's 0x%llx + 0x%llx overlaps domain %u's 0x%llx + 0x%llx (offset %zu)",
					      m->domain, (unsigned long long)m->base, (unsigned long long)m->length,
					      o->domain, (unsigned long long)o->base, (unsigned long long)o->length, o->off);
		}
		if (m->hotplug || m->nonvolatile)
			tfindings_add(out, PH_T_INFO, "SRAT", "memory affinity", m->off,
				      "domain %u's 0x%llx + 0x%llx is%s%s%s", m->domain, (unsigned long long)m->base,
				      (unsigned long long)m->length, m->hotplug ? " hot-pluggable" : "",
				      m->hotplug && m->nonvolatile ? " and" : "", m->nonvolatile ? " non-volatile" : "");
	}
}

static void check_srat_devices(const struct ph_acpi_srat *s, const struct ph_acpi_cedt *c,
			       struct ph_tfindings *out)
{
	for (int i = 0; i < s->ndev; i++) {
		const struct ph_srat_dev *d = &s->dev[i];
		const char *kind = d->type == 6 ? "generic port" : "generic initiator";

		if (d->handle_type > 1) {
			tfindings_add(out, PH_T_ERROR, "SRAT", kind, d->off,
				      "device handle type %u; expected 0 (ACPI) or 1 (PCI)", d->handle_type);
			continue;
		}
		if (!d->enabled)
			tfindings_add(out, PH_T_WARNING, "SRAT", kind, d->off, "domain %u is not enabled: Linux ignores it",
				      d->domain);
		if (d->type != 6)
			continue;
		if (d->handle_type != 0) {
			tfindings_add(out, PH_T_ERROR, "SRAT", kind, d->off,
				      "domain %u has a PCI handle: a generic port of a CXL host bridge is named by ACPI _UID",
				      d->domain);
			continue;
		}
		if (strcmp(d->hid, "ACPI0016"))
			tfindings_add(out, PH_T_WARNING, "SRAT", kind, d->off,
				      "domain %u: _HID '%s', not ACPI0016 (a CXL host bridge)", d->domain, d->hid);
		if (c && !acpi_cedt_chbs_of(c, d->uid))
			tfindings_add(out, PH_T_ERROR, "SRAT", kind, d->off,
				      "domain %u names host bridge _UID %u, which no CEDT CHBS describes",
				      d->domain, d->uid);
	}
}

static void check_chbs(const struct ph_acpi_cedt *c, const struct ph_acpi_srat *s, struct ph_tfindings *out)
{
	for (int i = 0; i < c->nchbs; i++) {
		const struct ph_cedt_chbs *h = &c->chbs[i];
		uint64_t want = h->version ? CHBCR_LEN : RCRB_LEN;

		for (int j = 0; j < i; j++)
			if (c->chbs[j].uid == h->uid)
				tfindings_add(out, PH_T_ERROR, "CEDT", "CHBS", h->off,
					      "_UID %u is also the CHBS's at offset %zu", h->uid, c->chbs[j].off);
		if (h->length != want)
			tfindings_add(out, PH_T_WARNING, "CEDT", "CHBS", h->off,
				      "_UID %u: register block of 0x%llx bytes; a CXL %s one is 0x%llx", h->uid,
				      (unsigned long long)h->length, h->version ? "2.0+ (CHBCR)" : "1.1 (RCRB)",
				      (unsigned long long)want);
		if (s && !acpi_srat_port_of(s, h->uid))
			tfindings_add(out, PH_T_WARNING, "CEDT", "CHBS", h->off,
				      "host bridge _UID %u has no SRAT generic port: Linux computes no access coordinates for the memory below it",
				      h->uid);
	}
}

static void check_cfmws(const struct ph_acpi_cedt *c, const struct ph_acpi_srat *s, struct ph_tfindings *out)
{
	for (int i = 0; i < c->ncfmws; i++) {
		const struct ph_cedt_cfmws *w = &c->cfmws[i];
		bool in_srat = false;

		if (w->base % SZ_256M || w->size % SZ_256M || !w->size)
			tfindings_add(out, PH_T_ERROR, "CEDT", "CFMWS", w->off,
				      "window 0x%llx + 0x%llx: base and size must be non-zero multiples of 256 MiB: Linux refuses it",
				      (unsigned long long)w->base, (unsigned long long)w->size);
		if (w->hbig > 6)
			tfindings_add(out, PH_T_ERROR, "CEDT", "CFMWS", w->off,
				      "granularity encoding %u; the spec has 0-6 (256 B to 16 KiB): Linux refuses it", w->hbig);
		if (w->arithmetic > 1)
			tfindings_add(out, PH_T_ERROR, "CEDT", "CFMWS", w->off,
				      "interleave arithmetic %u; expected 0 (modulo) or 1 (XOR): Linux refuses it", w->arithmetic);
		if (!(w->restrictions & (PH_CFMWS_TYPE2 | PH_CFMWS_TYPE3)) ||
		    !(w->restrictions & (PH_CFMWS_VOLATILE | PH_CFMWS_PMEM)))
			tfindings_add(out, PH_T_WARNING, "CEDT", "CFMWS", w->off,
				      "restrictions 0x%x allow no %s: no region can be made in it", w->restrictions,
				      !(w->restrictions & (PH_CFMWS_TYPE2 | PH_CFMWS_TYPE3)) ? "device type" : "memory kind");
		for (int k = 0; k < w->ways; k++)
			if (!acpi_cedt_chbs_of(c, w->target[k]))
				tfindings_add(out, PH_T_ERROR, "CEDT", "CFMWS", w->off,
					      "target %d names host bridge _UID %u, which no CHBS describes", k, w->target[k]);
		for (int j = 0; j < i; j++)
			if (overlap(w->base, w->size, c->cfmws[j].base, c->cfmws[j].size))
				tfindings_add(out, PH_T_ERROR, "CEDT", "CFMWS", w->off,
					      "window 0x%llx + 0x%llx overlaps the window at offset %zu",
					      (unsigned long long)w->base, (unsigned long long)w->size, c->cfmws[j].off);
		if (w->extra)
			tfindings_add(out, PH_T_INFO, "CEDT", "CFMWS", w->off,
				      "%u bytes past its %d targets, which Linux does not read", w->extra, w->ways);
		for (int m = 0; s && m < s->nmem; m++)
			in_srat |= s->mem[m].enabled && overlap(w->base, w->size, s->mem[m].base, s->mem[m].length);
		if (s)
			tfindings_add(out, PH_T_INFO, "CEDT", "CFMWS", w->off,
				      "window 0x%llx + 0x%llx %s", (unsigned long long)w->base, (unsigned long long)w->size,
				      in_srat ? "has SRAT memory affinity: its memory takes that domain's node"
					      : "has no SRAT memory affinity: Linux gives it a node of its own");
	}
}

void acpi_cxl_check(const struct ph_acpi_srat *srat, const struct ph_acpi_cedt *cedt,
		    struct ph_tfindings *out)
{
	memset(out, 0, sizeof(*out));
	if (srat) {
		if (!srat->sum_ok)
			tfindings_add(out, PH_T_WARNING, "SRAT", "table", 0,
				      "its bytes do not sum to 0: Linux takes it with a warning");
		check_srat_memory(srat, out);
		check_srat_devices(srat, cedt, out);
	}
	if (cedt) {
		if (!cedt->sum_ok)
			tfindings_add(out, PH_T_WARNING, "CEDT", "table", 0,
				      "its bytes do not sum to 0: Linux takes it with a warning");
		check_chbs(cedt, srat, out);
		check_cfmws(cedt, srat, out);
	}
}
