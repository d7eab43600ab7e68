// SPDX-License-Identifier: GPL-2.0-only
/*
 * slit_emit.c - --emit-acpi: the proposed SLIT as iasl source, its OEM IDs
 * and revision resolved from the options and the firmware's table header.
 */
#include "slit_emit.h"
#include "acpi_slit.h"
#include "readfile.h"
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * The header of the SLIT table at path: a regular file only (a FIFO would
 * block, a device be read); *kind names anything else.  0 or -errno.
 */
static int slit_table_header(const char *path, struct ph_acpi_header *h, const char **kind)
{
	uint8_t buf[PH_ACPI_HEADER_SIZE];
	size_t got = 0;
	int fd = open_regular(path, kind), err = 0;

	if (fd < 0)
		return fd;
	while (got < sizeof(buf)) {
		ssize_t n = read(fd, buf + got, sizeof(buf) - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			err = -errno;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	return err ? err : acpi_header_parse(buf, got, h);
}

/*
 * The IDs of a table for the machine an input was measured on, not this
 * one: this machine's table says nothing of it.  The options first, then
 * the input's provenance, then pagehop's neutral IDs.
 */
static int elsewhere_ids(const struct ph_acpi_out *o, const char *sig, const char *opt,
			 struct ph_acpi_ids *ids, char *from, size_t fromlen)
{
	const struct ph_acpi_oem *pv = o->prov && o->prov->have ? o->prov : NULL;

	snprintf(ids->oem_id, sizeof(ids->oem_id), "%s",
		 o->oem_id ? o->oem_id : pv ? pv->oem_id : PH_ACPI_NEUTRAL_OEM_ID);
	snprintf(ids->oem_table_id, sizeof(ids->oem_table_id), "%s",
		 o->oem_table_id ? o->oem_table_id : pv ? pv->oem_table_id : PH_ACPI_NEUTRAL_OEM_TABLE_ID);
	if (o->have_rev) {
		ids->oem_revision = o->rev;
	} else if (pv) {
		if (pv->oem_revision == UINT32_MAX) {
			ph_err("%s: the OEM revision in the input's provenance.acpi.%s is 0xFFFFFFFF and cannot be raised; give --oem-revision",
			       opt, sig);
			return -EINVAL;
		}
		ids->oem_revision = pv->oem_revision + 1;
	} else {
		ids->oem_revision = 1;
	}
	if (o->oem_id && o->oem_table_id)
		snprintf(from, fromlen, "options, not this machine's %s (%s)", sig, o->elsewhere);
	else if (pv)
		snprintf(from, fromlen, "the input's provenance.acpi.%s%s: the measured machine's%s, not this machine's (%s)",
			 sig, o->oem_id || o->oem_table_id ? " and options" : "",
			 o->have_rev ? "" : ", OEM revision raised by one", o->elsewhere);
	else
		snprintf(from, fromlen, "%spagehop's neutral IDs (%s, %s), not this machine's %s's (%s); the input records none of the measured machine's",
			 o->oem_id || o->oem_table_id ? "options and " : "", PH_ACPI_NEUTRAL_OEM_ID,
			 PH_ACPI_NEUTRAL_OEM_TABLE_ID, sig, o->elsewhere);
	return 0;
}

int acpi_emit_ids(const struct ph_acpi_out *o, const char *sig, const char *table_opt,
		  struct ph_acpi_ids *ids, char *from, size_t fromlen, uint32_t *table_rev,
		  bool *have_table)
{
	const char *opt = sig[0] == 'S' ? "--emit-acpi" : "--emit-hmat";
	struct ph_acpi_header h;
	const char *kind;
	int err = 0;

	*have_table = false;
	memset(ids, 0, sizeof(*ids));
	memset(&h, 0, sizeof(h));
	if (o->elsewhere && !o->table_given)
		return elsewhere_ids(o, sig, opt, ids, from, fromlen);
	/* Read even when every field is given: its revision is worth comparing. */
	err = slit_table_header(o->table, &h, &kind);
	if (kind) {
		ph_err("%s %s: %s; expected a regular file, the %s as /sys/firmware/acpi/tables/%s holds it",
		       table_opt, o->table, kind, sig, sig);
		return -EINVAL;
	}
	if (!err) {
		if (memcmp(h.signature, sig, 4)) {
			ph_err("%s: %s is a '%s' table; expected a %s", opt, o->table, h.signature, sig);
			return -EINVAL;
		}
		*have_table = true;
		*table_rev = h.oem_revision;
	} else if (!o->oem_id || !o->oem_table_id) {
		char reason[64];

		snprintf(reason, sizeof(reason), "%s%s%s",
			 err == -ENOENT && !o->table_given ? "no " : "",
			 err == -ENOENT && !o->table_given ? sig : err == -EINVAL
			 ? "shorter than an ACPI header" : strerror(-err),
			 err == -ENOENT && !o->table_given ? " on this machine" : "");
		ph_err("%s: cannot read the OEM IDs from %s (%s); give --oem-id and --oem-table-id",
		       opt, o->table, reason);
		return -EINVAL;
	}
	if (o->oem_id)
		snprintf(ids->oem_id, sizeof(ids->oem_id), "%s", o->oem_id);
	else if (!acpi_id_to_string(h.oem_id, 6, ids->oem_id, sizeof(ids->oem_id))) {
		ph_err("%s: the OEM ID in %s cannot be written in iasl's syntax; give --oem-id", opt, o->table);
		return -EINVAL;
	}
	if (o->oem_table_id)
		snprintf(ids->oem_table_id, sizeof(ids->oem_table_id), "%s", o->oem_table_id);
	else if (!acpi_id_to_string(h.oem_table_id, 8, ids->oem_table_id, sizeof(ids->oem_table_id))) {
		ph_err("%s: the OEM table ID in %s cannot be written in iasl's syntax; give --oem-table-id", opt, o->table);
		return -EINVAL;
	}
	if (o->have_rev) {
		ids->oem_revision = o->rev;
	} else if (*have_table) {
		if (h.oem_revision == UINT32_MAX) {
			ph_err("%s: the OEM revision in %s is 0xFFFFFFFF and cannot be raised; give --oem-revision", opt, o->table);
			return -EINVAL;
		}
		ids->oem_revision = h.oem_revision + 1;
	} else {
		ids->oem_revision = 1;
	}
	snprintf(from, fromlen, "%s%s", *have_table ? o->table : "options",
		 *have_table && (o->oem_id || o->oem_table_id || o->have_rev) ? " and options" : "");
	return 0;
}

struct ph_section *acpi_ids_section(struct ph_doc *doc, const char *name, const char *title,
				    const char *path, const struct ph_acpi_ids *ids, const char *from,
				    bool have_table, uint32_t table_rev)
{
	struct ph_section *s = doc_add_section(doc, name, title);

	section_str(s, "file", path);
	section_str(s, "oem_id", ids->oem_id);
	section_str(s, "oem_table_id", ids->oem_table_id);
	section_int(s, "oem_revision", ids->oem_revision);
	section_str(s, "ids_from", from);
	if (have_table)
		section_int(s, "firmware_oem_revision", table_rev);
	return s;
}

int slit_emit_acpi(const struct ph_acpi_out *o, const char *figure, const char *input,
		   const struct ph_proposal *p, struct ph_doc *doc, struct ph_outset *set)
{
	struct ph_acpi_ids ids;
	char from[PATH_MAX + 32], why[256], *comment, *text, *layout = NULL;
	size_t layout_len = 0;
	uint32_t table_rev = 0;
	bool have_table;
	struct ph_section *s;
	FILE *f;
	int err;

	if (p->nunknown) {
		ph_err("--emit-acpi: %d entr%s of the proposed SLIT %s unknown (nodes measured in neither direction and not in a SLIT); give --slit FILE to fill them",
		       p->nunknown, p->nunknown == 1 ? "y" : "ies", p->nunknown == 1 ? "is" : "are");
		return -EINVAL;
	}
	if (!slit_valid_for_linux(p->n, p->dist)) {
		ph_err("--emit-acpi: internal error: the proposed SLIT is not valid for Linux");
		return -EINVAL;
	}
	if (acpi_emit_ids(o, "SLIT", "--slit-table", &ids, from, sizeof(from), &table_rev, &have_table))
		return -EINVAL;
	/* Written once into a growing buffer: appending to a string N^2 times costs N^4. */
	f = open_memstream(&layout, &layout_len);
	if (!f) {
		ph_errno(errno, "--emit-acpi: cannot lay out the table");
		return -EINVAL;
	}
	for (int i = 0; i < p->n; i++) {
		fprintf(f, "\n  %3d:", p->ids[i]);
		for (int j = 0; j < p->n; j++)
			fprintf(f, " %3d", p->dist[i * p->n + j]);
	}
	if (fclose(f)) {
		ph_errno(errno, "--emit-acpi: cannot lay out the table");
		free(layout);
		return -EINVAL;
	}
	comment = xasprintf("SLIT proposed by pagehop slit from %s in %s.\n"
			    "OEM ID and OEM table ID from %s%s.\n"
			    "Locality i is the i-th node in ascending order; distances (numactl layout):%s\n\n"
			    "Compile with iasl (acpica-tools): iasl %s writes the .aml beside it.\n"
			    "Try it without reflashing (CONFIG_ACPI_TABLE_UPGRADE): put the .aml as\n"
			    "kernel/firmware/acpi/slit.aml in an uncompressed cpio in front of the\n"
			    "initrd; see docs/slit.md.",
			    figure, input, from,
			    have_table && !o->have_rev ? ", OEM revision raised by one" : "", layout,
			    o->path);
	text = acpi_slit_source(&ids, p->n, p->dist, comment);
	err = outset_stage(set, o->path, text, strlen(text), why, sizeof(why));
	free(comment);
	free(text);
	free(layout);
	if (err) {
		ph_err("--emit-acpi %s: %s", o->path, why);
		return -EINVAL;
	}
	s = acpi_ids_section(doc, "acpi", "ACPI SLIT source written", o->path, &ids, from,
			     have_table, table_rev);
	section_int(s, "localities", p->n);
	if (have_table && ids.oem_revision <= table_rev)
		doc_note(doc, "--oem-revision %u is not above the firmware's %u: the kernel's table upgrade will ignore the table",
			 ids.oem_revision, table_rev);
	if (!have_table && (!o->elsewhere || o->table_given))
		doc_note(doc, "this machine has no SLIT: the kernel installs the initrd's as a new table, whatever its OEM IDs");
	return 0;
}
