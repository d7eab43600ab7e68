// SPDX-License-Identifier: GPL-2.0-only
/*
 * cxl_report.c - the CXL memory devices as tables (pagehop info): each
 * memdev, its CDAT's ranges and figures as the kernel reads them, the
 * regions, the access coordinates the kernel computed, and what the CDAT
 * and the SRAT and CEDT say that Linux cannot use (cdat_check.h,
 * acpi_cxl_check.h).
 */
#include "cxl_report.h"
#include "acpi_cxl_check.h"
#include "acpi_hmat.h"
#include "cdat_check.h"
#include "output.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static void add_cxl_memdevs(struct ph_doc *doc, const struct ph_cxl *c)
{
	struct ph_table *tb = doc_add_table(doc, "cxl_memdevs", "CXL memory devices");
	static const char *const cols[] = {
		"memdev", "endpoint", "host_bridge", "serial", "ram_MiB", "pmem_MiB",
		"ram_qos_class", "pmem_qos_class", "dev_node", "regions", "nodes",
		"cdat_bytes", "cdat_parsed", "cdat_why",
	};
	char name[32];

	for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
		table_add_col(tb, cols[i]);
	for (int i = 0; i < c->nmem; i++) {
		const struct ph_cxl_memdev *m = &c->mem[i];
		int r = table_add_row(tb);

		snprintf(name, sizeof(name), "mem%d", m->id);
		table_str(tb, r, "memdev", name);
		if (m->endpoint >= 0) {
			snprintf(name, sizeof(name), "endpoint%d", m->endpoint);
			table_str(tb, r, "endpoint", name);
		}
		table_str(tb, r, "host_bridge", m->host_bridge[0] ? m->host_bridge : NULL);
		table_str(tb, r, "serial", m->serial[0] ? m->serial : NULL);
		if (m->ram_bytes >= 0)
			table_int(tb, r, "ram_MiB", (long long)(m->ram_bytes / (int64_t)MiB));
		if (m->pmem_bytes >= 0)
			table_int(tb, r, "pmem_MiB", (long long)(m->pmem_bytes / (int64_t)MiB));
		if (m->has_ram_qos)
			table_int(tb, r, "ram_qos_class", m->ram_qos);
		if (m->has_pmem_qos)
			table_int(tb, r, "pmem_qos_class", m->pmem_qos);
		table_int(tb, r, "dev_node", m->dev_node);
		table_str(tb, r, "regions", m->regions[0] ? m->regions : NULL);
		table_str(tb, r, "nodes", m->nodes[0] ? m->nodes : NULL);
		if (m->cdat_bytes >= 0) {
			table_int(tb, r, "cdat_bytes", (long long)m->cdat_bytes);
			table_bool(tb, r, "cdat_parsed", m->cdat_err == 0);
			table_str(tb, r, "cdat_why", m->cdat_err ? m->cdat_why : NULL);
		}
	}
}

static int cdat_row(struct ph_table *tb, const char *memdev, int type, int handle)
{
	int r = table_add_row(tb);

	table_str(tb, r, "memdev", memdev);
	table_str(tb, r, "structure", cdat_type_name(type));
	table_int(tb, r, "handle", handle);
	return r;
}

/* Each memdev's memory ranges and their figures, as its CDAT gives them. */
static void add_cxl_cdat(struct ph_doc *doc, const struct ph_cxl *c)
{
	struct ph_table *tb = doc_add_table(doc, "cxl_cdat", "CXL CDAT ranges and figures");
	static const char *const cols[] = {
		"memdev", "structure", "handle", "nonvolatile", "dpa_base", "dpa_length",
		"data_type", "entry", "base_unit", "value",
	};
	char name[32];

	for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
		table_add_col(tb, cols[i]);
	for (int i = 0; i < c->nmem; i++) {
		const struct ph_cxl_memdev *m = &c->mem[i];

		if (m->cdat_err)
			continue;
		snprintf(name, sizeof(name), "mem%d", m->id);
		for (int k = 0; k < m->cdat.ndsmas; k++) {
			const struct ph_cdat_dsmas *d = &m->cdat.dsmas[k];
			int r = cdat_row(tb, name, PH_CDAT_DSMAS, d->handle);

			table_bool(tb, r, "nonvolatile", d->nonvolatile);
			table_int(tb, r, "dpa_base", (long long)d->dpa_base);
			table_int(tb, r, "dpa_length", (long long)d->dpa_length);
		}
		for (int k = 0; k < m->cdat.ndslbis; k++) {
			const struct ph_cdat_dslbis *d = &m->cdat.dslbis[k];
			int r = cdat_row(tb, name, PH_CDAT_DSLBIS, d->handle);

			table_str(tb, r, "data_type", acpi_hmat_data_name(d->data_type));
			table_int(tb, r, "entry", d->entry[0]);
			table_int(tb, r, "base_unit", (long long)d->base_unit);
			/* As the kernel reads it: ns (from ps, rounded up) or MB/s. */
			table_int(tb, r, "value", acpi_hmat_value(d->entry[0], d->base_unit, d->data_type, 2));
		}
	}
}

static void finding_cols(struct ph_table *tb, bool with_memdev)
{
	static const char *const cols[] = { "memdev", "table", "severity", "structure", "offset", "finding" };

	for (size_t i = with_memdev ? 0 : 1; i < ARRAY_SIZE(cols); i++)
		table_add_col(tb, cols[i]);
}

static void finding_rows(struct ph_table *tb, const char *memdev, const struct ph_tfindings *f)
{
	for (int k = 0; k < f->n; k++) {
		int r = table_add_row(tb);

		if (memdev)
			table_str(tb, r, "memdev", memdev);
		table_str(tb, r, "table", f->f[k].table);
		table_str(tb, r, "severity", tseverity_name(f->f[k].sev));
		table_str(tb, r, "structure", f->f[k].structure);
		table_int(tb, r, "offset", (long long)f->f[k].off);
		table_str(tb, r, "finding", f->f[k].what);
	}
}

/* What each parsed CDAT says that Linux cannot use or reads otherwise. */
static void add_cdat_findings(struct ph_doc *doc, const struct ph_cxl *c)
{
	struct ph_table *tb = doc_add_table(doc, "cxl_cdat_findings", "CXL CDAT findings");
	char name[32];
	int n = 0;

	finding_cols(tb, true);
	for (int i = 0; i < c->nmem; i++) {
		struct ph_tfindings f;

		if (c->mem[i].cdat_err)
			continue;
		snprintf(name, sizeof(name), "mem%d", c->mem[i].id);
		cdat_check(&c->mem[i].cdat, &f);
		finding_rows(tb, name, &f);
		n += f.n;
		tfindings_free(&f);
	}
	if (!n)
		doc_note(doc, "CXL: every CDAT parsed has nothing Linux cannot use");
}

/* 0 when the table at path was read; else a note saying why not (absent: nothing said). */
static int read_note(struct ph_doc *doc, const char *name, const char *path, int err, const char *why)
{
	if (err && err != -ENOENT)
		doc_note(doc, "%s: %s: %s", name, path, err == -EINVAL ? why : strerror(-err));
	return err;
}

void acpi_cxl_report(struct ph_doc *doc, const char *srat_path, const char *cedt_path)
{
	struct ph_acpi_srat srat;
	struct ph_acpi_cedt cedt;
	struct ph_tfindings f;
	struct ph_table *tb;
	char why[256];
	bool have_srat = !read_note(doc, "SRAT", srat_path, acpi_srat_read(srat_path, &srat, why, sizeof(why)), why);
	bool have_cedt = !read_note(doc, "CEDT", cedt_path, acpi_cedt_read(cedt_path, &cedt, why, sizeof(why)), why);

	if (!have_srat && !have_cedt) {
		doc_note(doc, "SRAT and CEDT: neither table is here; nothing to check");
		return;
	}
	acpi_cxl_check(have_srat ? &srat : NULL, have_cedt ? &cedt : NULL, &f);
	tb = doc_add_table(doc, "acpi_cxl_findings", "SRAT and CEDT findings");
	finding_cols(tb, false);
	finding_rows(tb, NULL, &f);
	if (!f.n)
		doc_note(doc, "SRAT%s: no finding", have_cedt ? " and CEDT" : " (no CEDT here)");
	tfindings_free(&f);
	acpi_srat_free(&srat);
	acpi_cedt_free(&cedt);
}

static void coord_row(struct ph_table *tb, const char *of, int access, const struct ph_cxl_coord *a)
{
	int r = table_add_row(tb);

	table_str(tb, r, "of", of);
	table_int(tb, r, "access", access);
	if (a->read_lat_ns >= 0)
		table_int(tb, r, "read_lat_ns", a->read_lat_ns);
	if (a->write_lat_ns >= 0)
		table_int(tb, r, "write_lat_ns", a->write_lat_ns);
	if (a->read_bw_MBps >= 0)
		table_int(tb, r, "read_bw_MBps", a->read_bw_MBps);
	if (a->write_bw_MBps >= 0)
		table_int(tb, r, "write_bw_MBps", a->write_bw_MBps);
}

void cxl_report(struct ph_doc *doc, const struct ph_cxl *c)
{
	struct ph_table *tb;
	static const char *const cols[] = {
		"of", "access", "read_lat_ns", "write_lat_ns", "read_bw_MBps", "write_bw_MBps",
	};
	char name[32];

	if (!c->present || !c->nmem) {
		doc_note(doc, "CXL: no CXL memory device found (%s)",
			 c->present ? "no memN in " PH_CXL_SYSFS : "no " PH_CXL_SYSFS);
		return;
	}
	add_cxl_memdevs(doc, c);
	add_cxl_cdat(doc, c);
	add_cdat_findings(doc, c);
	tb = doc_add_table(doc, "cxl_regions", "CXL regions");
	table_add_col(tb, "region");
	table_add_col(tb, "mode");
	table_add_col(tb, "size_MiB");
	table_add_col(tb, "memdevs");
	table_add_col(tb, "node");
	for (int i = 0; i < c->nreg; i++) {
		const struct ph_cxl_region *g = &c->reg[i];
		int r = table_add_row(tb);

		snprintf(name, sizeof(name), "region%d", g->id);
		table_str(tb, r, "region", name);
		table_str(tb, r, "mode", g->mode[0] ? g->mode : NULL);
		table_int(tb, r, "size_MiB", (long long)(g->size / MiB));
		table_str(tb, r, "memdevs", g->memdevs[0] ? g->memdevs : NULL);
		if (g->node >= 0)
			table_int(tb, r, "node", g->node);
	}
	/* The kernel's figures: CDAT + link + generic port, per region and per node. */
	tb = doc_add_table(doc, "cxl_access", "CXL access coordinates (kernel)");
	for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
		table_add_col(tb, cols[i]);
	for (int i = 0; i < c->nreg; i++)
		for (int a = 0; a < 2; a++)
			if (c->reg[i].access[a].present) {
				snprintf(name, sizeof(name), "region%d", c->reg[i].id);
				coord_row(tb, name, a, &c->reg[i].access[a]);
			}
	for (int i = 0; i < c->nnode; i++)
		for (int a = 0; a < 2; a++)
			if (c->node[i].access[a].present) {
				snprintf(name, sizeof(name), "node%d", c->node[i].node);
				coord_row(tb, name, a, &c->node[i].access[a]);
			}
}

