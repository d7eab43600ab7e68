// SPDX-License-Identifier: GPL-2.0-only
/*
 * hmat_emit.c - --emit-hmat: the HMAT proposed from the measurement as
 * iasl source, its OEM IDs and revision resolved as the SLIT's are.
 */
#include "hmat_emit.h"
#include "hmat_propose.h"
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every proposed entry, with the measured figure and the kernel's reading of it. */
static void report_entries(struct ph_doc *doc, const struct ph_acpi_hmat *t,
			   const struct ph_nmatrix *lat, const struct ph_nmatrix *bw)
{
	struct ph_table *tb = doc_add_table(doc, "proposed_hmat",
					    "proposed HMAT entries (memory hierarchy)");

	table_add_col(tb, "data_type");
	table_add_col(tb, "initiator");
	table_add_col(tb, "target");
	table_add_col(tb, "measured");
	table_add_col(tb, "entry");
	table_add_col(tb, "base_unit");
	table_add_col(tb, "value");
	table_add_col(tb, "unit");
	for (int k = 0; k < t->nlb; k++) {
		const struct ph_hmat_lb *l = &t->lb[k];
		const bool is_lat = acpi_hmat_is_latency(l->data_type);
		const struct ph_nmatrix *m = is_lat ? lat : bw;

		for (uint32_t i = 0; i < l->ni; i++)
			for (uint32_t c = 0; c < l->nt; c++) {
				uint16_t e = l->entry[i * l->nt + c];
				int r = table_add_row(tb);

				table_str(tb, r, "data_type", acpi_hmat_data_name(l->data_type));
				table_int(tb, r, "initiator", l->init[i]);
				table_int(tb, r, "target", l->targ[c]);
				table_num(tb, r, "measured", m->val[i * l->nt + c] * (is_lat ? 1 : 1000), "%.1f");
				table_int(tb, r, "entry", e);
				table_int(tb, r, "base_unit", (long long)l->base_unit);
				if (e == PH_HMAT_ENTRY_NONE)
					table_str(tb, r, "value", "none");
				else
					table_int(tb, r, "value", acpi_hmat_value(e, l->base_unit, l->data_type, 2));
				table_str(tb, r, "unit", is_lat ? "ns" : "MB/s");
			}
	}
}

int hmat_emit_acpi(const struct ph_acpi_out *o, const char *input,
		   const struct ph_nmatrix *lat, const struct ph_nmatrix *bw,
		   const struct ph_acpi_hmat *fw, struct ph_doc *doc)
{
	struct ph_acpi_hmat prop;
	struct ph_acpi_ids ids;
	char from[PATH_MAX + 32], why[256], *comment, *text;
	uint32_t table_rev = 0;
	bool have_table;
	struct ph_section *s;
	int unknown, err;

	if (!lat && !bw) {
		ph_err("--emit-hmat: the input has neither a latency nor a read bandwidth matrix; nothing to propose");
		return -EINVAL;
	}
	if (acpi_emit_ids(o, "HMAT", "--hmat-table", &ids, from, sizeof(from), &table_rev, &have_table))
		return -EINVAL;
	unknown = hmat_propose(lat, bw, fw, &prop);
	comment = xasprintf("HMAT proposed by pagehop slit from %s.\n"
			    "OEM ID and OEM table ID from %s%s.\n"
			    "Proximity domain i is node i.  Entries of the memory hierarchy:\n"
			    "%s%s"
			    "Memory proximity domains and memory-side caches: %s.\n\n"
			    "Compile with iasl (acpica-tools): iasl %s writes the .aml beside it.\n"
			    "Try it without reflashing (CONFIG_ACPI_TABLE_UPGRADE): put the .aml as\n"
			    "kernel/firmware/acpi/hmat.aml in an uncompressed cpio in front of the\n"
			    "initrd; see docs/slit.md.",
			    input, from, have_table && !o->have_rev ? ", OEM revision raised by one" : "",
			    lat ? "  access latency = the measured load latency (ps x base unit)\n" : "",
			    bw ? "  access bandwidth = the measured read bandwidth (MB/s x base unit)\n" : "",
			    fw && (fw->nmpda || fw->ncache)
			    ? "the firmware's, caches without their SMBIOS handles"
			    : "one per memory node, its own initiator when it has CPUs",
			    o->path);
	text = acpi_hmat_source(&ids, &prop, comment);
	err = write_file_atomic(o->path, text, strlen(text), why, sizeof(why));
	free(comment);
	free(text);
	if (err) {
		ph_err("--emit-hmat %s: %s", o->path, why);
		acpi_hmat_free(&prop);
		return -EINVAL;
	}
	s = acpi_ids_section(doc, "acpi_hmat", "ACPI HMAT source written", o->path, &ids, from,
			     have_table, table_rev);
	section_int(s, "domains", prop.nmpda);
	section_int(s, "structures", prop.nlb);
	section_int(s, "caches", prop.ncache);
	section_int(s, "entries_without_information", unknown);
	report_entries(doc, &prop, lat, bw);
	if (unknown)
		doc_note(doc, "--emit-hmat: %d entr%s not measured: written as 0, no information",
			 unknown, unknown == 1 ? "y" : "ies");
	if (prop.ncache)
		doc_note(doc, "--emit-hmat: the firmware's %d memory-side cache%s kept without SMBIOS handles",
			 prop.ncache, prop.ncache == 1 ? "" : "s");
	if (have_table && ids.oem_revision <= table_rev)
		doc_note(doc, "--oem-revision %u is not above the firmware's HMAT %u: the kernel's table upgrade will ignore the table",
			 ids.oem_revision, table_rev);
	acpi_hmat_free(&prop);
	return 0;
}
