// SPDX-License-Identifier: GPL-2.0-only
/*
 * hmat_emit.c - --emit-hmat: the HMAT proposed from the measurement as
 * iasl source, its OEM IDs and revision resolved as the SLIT's are.
 */
#include "hmat_emit.h"
#include "hmat_carry.h"
#include "hmat_propose.h"
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *origin_name(int o)
{
	return o == PH_HMAT_REPLACED ? "replaced" : o == PH_HMAT_ADDED ? "added" : "carried";
}

/*
 * Every proposed entry, with the measured figure and the kernel's reading
 * of it; origin (NULL: all proposed) per structure and entry, as
 * hmat_carry.h says, and a carried entry has no measured figure.
 */
static void report_entries(struct ph_doc *doc, const struct ph_acpi_hmat *t,
			   const struct ph_nmatrix *lat, const struct ph_nmatrix *bw,
			   uint8_t *const *origin)
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
	if (origin)
		table_add_col(tb, "origin");
	for (int k = 0; k < t->nlb; k++) {
		const struct ph_hmat_lb *l = &t->lb[k];
		const bool is_lat = acpi_hmat_is_latency(l->data_type);
		const struct ph_nmatrix *m = is_lat ? lat : bw;

		for (uint32_t i = 0; i < l->ni; i++)
			for (uint32_t c = 0; c < l->nt; c++) {
				uint16_t e = l->entry[i * l->nt + c];
				int o = origin ? origin[k][i * l->nt + c] : PH_HMAT_ADDED;
				int r = table_add_row(tb);

				table_str(tb, r, "data_type", acpi_hmat_data_name(l->data_type));
				table_int(tb, r, "initiator", l->init[i]);
				table_int(tb, r, "target", l->targ[c]);
				if (o != PH_HMAT_CARRIED && m)
					table_num(tb, r, "measured",
						  hmat_measured(m, l->init[i], l->targ[c]) / (is_lat ? 1000 : 1), "%.1f");
				if (origin)
					table_str(tb, r, "origin", origin_name(o));
				table_int(tb, r, "entry", e);
				table_int(tb, r, "base_unit", (long long)l->base_unit);
				table_int(tb, r, "value", acpi_hmat_value(e, l->base_unit, l->data_type, 2));
				table_str(tb, r, "unit", is_lat ? "ns" : "MB/s");
			}
	}
}

/* The smallest and largest figure of a structure, in ps or MB/s. */
static void span_of(const struct ph_hmat_lb *l, const struct ph_nmatrix *m,
		    double *lo, double *hi)
{
	*lo = INFINITY;
	*hi = 0;
	for (uint32_t i = 0; i < l->ni; i++)
		for (uint32_t c = 0; c < l->nt; c++) {
			double v = hmat_measured(m, l->init[i], l->targ[c]);

			if (isfinite(v) && v > 0) {
				*lo = fmin(*lo, v);
				*hi = fmax(*hi, v);
			}
		}
}

/*
 * Refuse what the proposal cannot say as measured: a cell not measured in
 * a row and column that are (an entry cannot say "not measured"), a figure
 * beyond what an entry x base unit can be for the kernel, or one that no
 * base unit holds with the others within the bound.  0, or -EINVAL after
 * one line naming the first such cell and how many there are.
 */
static int check_entries(const struct ph_acpi_hmat *t, const struct ph_nmatrix *lat,
			 const struct ph_nmatrix *bw)
{
	for (int k = 0; k < t->nlb; k++) {
		const struct ph_hmat_lb *l = &t->lb[k];
		const bool is_lat = acpi_hmat_is_latency(l->data_type);
		const struct ph_nmatrix *m = is_lat ? lat : bw;
		const char *unit = is_lat ? "ns" : "GB/s";
		int nmiss = 0, nbad = 0;
		uint32_t mi = 0, mt = 0, bi = 0, bt = 0;
		double bv = 0, lo, hi;
		uint16_t be = 0;

		for (uint32_t i = 0; i < l->ni; i++)
			for (uint32_t c = 0; c < l->nt; c++) {
				double v = hmat_measured(m, l->init[i], l->targ[c]);
				uint16_t e = l->entry[i * l->nt + c];

				if (!(isfinite(v) && v > 0)) {
					if (!nmiss++) {
						mi = l->init[i];
						mt = l->targ[c];
					}
				} else if (!hmat_entry_ok(v, e, l->base_unit) && !nbad++) {
					bi = l->init[i];
					bt = l->targ[c];
					bv = v;
					be = e;
				}
			}
		if (nmiss) {
			ph_err("--emit-hmat: %s from node %u to node %u was not measured (%d cell%s in all); an HMAT entry cannot say so (0 is no information to Linux, 0xFFFF unreachable) and the rows and columns around it were measured: measure every pair of those nodes, or give a matrix without them; nothing written",
			       acpi_hmat_data_name(l->data_type), mi, mt, nmiss, nmiss == 1 ? "" : "s");
			return -EINVAL;
		}
		if (!nbad)
			continue;
		span_of(l, m, &lo, &hi);
		if (hi > (double)UINT32_MAX)
			ph_err("--emit-hmat: %s from node %u to node %u, %g %s (%d entr%s in all): beyond what an HMAT entry x base unit can be (at most 2^32 - 1 = %u %s; the kernel drops more); nothing written",
			       acpi_hmat_data_name(l->data_type), bi, bt, bv / 1000, unit, nbad,
			       nbad == 1 ? "y" : "ies", UINT32_MAX, is_lat ? "ps" : "MB/s");
		else
			ph_err("--emit-hmat: %s from node %u to node %u, %g %s, would be written as %g %s (entry %u x base unit %llu %s): the matrix spans %g to %g %s, %.0f:1, and no base unit holds all of it in 16-bit entries within %g%% or half a unit (%d entr%s off); nothing written",
			       acpi_hmat_data_name(l->data_type), bi, bt, bv / 1000, unit,
			       (double)be * (double)l->base_unit / 1000, unit, be,
			       (unsigned long long)l->base_unit, is_lat ? "ps" : "MB/s", lo / 1000, hi / 1000,
			       unit, hi / lo, PH_HMAT_ROUND_REL * 100, nbad, nbad == 1 ? "y" : "ies");
		return -EINVAL;
	}
	return 0;
}

/* "0 3" : the ids of m's rows (cols true: columns) that l leaves out, "" for none. */
static char *left_out(const struct ph_nmatrix *m, const struct ph_hmat_lb *l, bool cols)
{
	char *s = xstrdup(""), *t;
	int n = cols ? m->ncols : m->nrows;

	for (int k = 0; k < n; k++) {
		uint32_t id = (uint32_t)(cols ? m->col_ids[k] : m->row_ids[k]);
		bool in = false;

		for (uint32_t j = 0; j < (cols ? l->nt : l->ni); j++)
			in |= (cols ? l->targ[j] : l->init[j]) == id;
		if (in)
			continue;
		t = xasprintf("%s%s%u", s, *s ? " " : "", id);
		free(s);
		s = t;
	}
	return s;
}

/* One line of the comment per structure: its figure, unit, base unit and what it leaves out. */
static char *structures_text(const struct ph_acpi_hmat *t, const struct ph_nmatrix *lat,
			     const struct ph_nmatrix *bw, bool derived)
{
	char *s = xstrdup(""), *n;

	for (int k = 0; k < t->nlb; k++) {
		const struct ph_hmat_lb *l = &t->lb[k];
		const bool is_lat = acpi_hmat_is_latency(l->data_type);
		char *rows = left_out(is_lat ? lat : bw, l, false), *cols = left_out(is_lat ? lat : bw, l, true);

		n = xasprintf("%s  %s = the %s %s, %s, entry base unit %llu%s%s%s%s%s\n", s,
			      acpi_hmat_data_name(l->data_type), derived ? "derived" : "measured",
			      is_lat ? "load latency" : "read bandwidth",
			      is_lat ? "ps" : "MB/s", (unsigned long long)l->base_unit,
			      *rows || *cols ? "\n    left out, nothing measured:" : "",
			      *rows ? " initiator node(s) " : "", rows,
			      *cols ? " target node(s) " : "", cols);
		free(s);
		free(rows);
		free(cols);
		s = n;
	}
	return s;
}

/* Beside an entry: as the firmware had it, or the figure it now stands for. */
static char *entry_note(int o, const struct ph_hmat_lb *l, uint32_t i, uint32_t t,
			const struct ph_nmatrix *lat, const struct ph_nmatrix *bw)
{
	const bool is_lat = acpi_hmat_is_latency(l->data_type);
	double v;

	if (o == PH_HMAT_CARRIED)
		return xstrdup("as the firmware had it");
	v = hmat_measured(is_lat ? lat : bw, l->init[i], l->targ[t]);
	return xasprintf("%s: %.*f %s from initiator %u to domain %u, derived above",
			 o == PH_HMAT_REPLACED ? "replaced" : "added", is_lat ? 2 : 0,
			 is_lat ? v / 1000 : v, is_lat ? "ns" : "MB/s", l->init[i], l->targ[t]);
}

/* The notes of c's source, every structure and entry; free them with free_notes(). */
static void make_notes(const struct ph_hmat_carried *c, const struct ph_nmatrix *lat,
		       const struct ph_nmatrix *bw, struct ph_hmat_notes *n)
{
	const char ***entry = xcalloc((size_t)(c->t.nlb ? c->t.nlb : 1), sizeof(*entry));
	const char **lb = xcalloc((size_t)(c->t.nlb ? c->t.nlb : 1), sizeof(*lb));

	n->mpda = n->cache = "as the firmware had it";
	for (int k = 0; k < c->t.nlb; k++) {
		const struct ph_hmat_lb *l = &c->t.lb[k];
		int nrep = 0;

		entry[k] = xcalloc((size_t)l->ni * l->nt + 1, sizeof(**entry));
		for (uint32_t i = 0; i < l->ni; i++)
			for (uint32_t t = 0; t < l->nt; t++) {
				int o = c->origin[k][i * l->nt + t];

				nrep += o == PH_HMAT_REPLACED;
				entry[k][i * l->nt + t] = entry_note(o, l, i, t, lat, bw);
			}
		lb[k] = k >= c->nfirmware_lb
			? xasprintf("added: the firmware has no %s structure for these domains",
				    acpi_hmat_is_latency(l->data_type) ? "latency" : "bandwidth")
			: nrep ? xasprintf("the firmware's, %d entr%s replaced", nrep, nrep == 1 ? "y" : "ies")
			: xstrdup("as the firmware had it");
	}
	n->lb = lb;
	n->entry = (const char *const *const *)entry;
}

static void free_notes(const struct ph_hmat_carried *c, struct ph_hmat_notes *n)
{
	for (int k = 0; k < c->t.nlb; k++) {
		const struct ph_hmat_lb *l = &c->t.lb[k];

		for (size_t e = 0; e < (size_t)l->ni * l->nt; e++)
			free((char *)n->entry[k][e]);
		free((void *)n->entry[k]);
		free((char *)n->lb[k]);
	}
	free((void *)n->entry);
	free((void *)n->lb);
}

/*
 * --emit-hmat carrying the firmware's whole table (src->carry_firmware):
 * fw with the figures in place of its entries, staged as hmat_emit_acpi().
 */
static int emit_carried(const struct ph_acpi_out *o, const struct ph_hmat_src *src,
			const struct ph_nmatrix *lat, const struct ph_nmatrix *bw,
			const struct ph_acpi_hmat *fw, struct ph_doc *doc, struct ph_outset *set)
{
	struct ph_hmat_carried c;
	struct ph_hmat_notes notes;
	struct ph_acpi_ids ids;
	char from[PATH_MAX + 32], why[512], *comment, *text;
	const char *fw_path = o->table ? o->table : "as read";
	uint32_t table_rev = 0;
	bool have_table;
	struct ph_section *s;
	int err, ncarried = 0;

	if (acpi_emit_ids(o, "HMAT", "--hmat-table", &ids, from, sizeof(from), &table_rev, &have_table))
		return -EINVAL;
	if (hmat_carry(fw, lat, bw, &c, why, sizeof(why))) {
		ph_err("--emit-hmat: %s; nothing written", why);
		return -EINVAL;
	}
	for (int k = 0; k < c.t.nlb; k++)
		for (size_t e = 0; e < (size_t)c.t.lb[k].ni * c.t.lb[k].nt; e++)
			ncarried += c.origin[k][e] == PH_HMAT_CARRIED;
	make_notes(&c, lat, bw, &notes);
	comment = xasprintf("HMAT: the firmware's (%s), with the entries the measurement implies\n"
			    "put in its place by %s from %s.\n"
			    "OEM ID and OEM table ID from %s%s.\n"
			    "%s.\n%s"
			    "Every other structure and entry is as the firmware had it: %d memory\n"
			    "proximity domain structure(s), %d memory-side cache(s), %d locality\n"
			    "structure(s) of the firmware's; %d entr%s carried, %d replaced (each\n"
			    "under its structure's base unit, within %g%% or half a unit), %d added.\n"
			    "Each structure's and entry's comment says which.\n\n"
			    "Compile with iasl (acpica-tools): iasl %s writes the .aml beside it.\n"
			    "Try it without reflashing (CONFIG_ACPI_TABLE_UPGRADE): put the .aml as\n"
			    "kernel/firmware/acpi/hmat.aml in an uncompressed cpio in front of the\n"
			    "initrd; see docs/slit.md.",
			    fw_path, src->by, src->input, from,
			    have_table && !o->have_rev ? ", OEM revision raised by one" : "",
			    src->domains ? src->domains : "Proximity domain i is node i",
			    src->derivation ? src->derivation : "", c.t.nmpda, c.t.ncache,
			    c.nfirmware_lb, ncarried, ncarried == 1 ? "y" : "ies", c.nreplaced,
			    PH_HMAT_ROUND_REL * 100, c.nadded, o->path);
	text = acpi_hmat_source_noted(&ids, &c.t, comment, &notes);
	err = outset_stage(set, o->path, text, strlen(text), why, sizeof(why));
	free_notes(&c, &notes);
	free(comment);
	free(text);
	if (err) {
		ph_err("--emit-hmat %s: %s", o->path, why);
		hmat_carried_free(&c);
		return -EINVAL;
	}
	s = acpi_ids_section(doc, "acpi_hmat", "ACPI HMAT source written", o->path, &ids, from,
			     have_table, table_rev);
	section_str(s, "firmware_hmat", fw_path);
	section_int(s, "domains", c.t.nmpda);
	section_int(s, "structures", c.t.nlb);
	section_int(s, "caches", c.t.ncache);
	section_int(s, "entries_carried", ncarried);
	section_int(s, "entries_replaced", c.nreplaced);
	section_int(s, "entries_added", c.nadded);
	section_str(s, "rounding", "each replaced or added entry x its structure's base unit within 1% of the figure, or within half a unit");
	report_entries(doc, &c.t, lat, bw, c.origin);
	if (have_table && ids.oem_revision <= table_rev)
		doc_note(doc, "--oem-revision %u is not above the firmware's HMAT %u: the kernel's table upgrade will ignore the table",
			 ids.oem_revision, table_rev);
	hmat_carried_free(&c);
	return 0;
}

int hmat_emit_acpi(const struct ph_acpi_out *o, const struct ph_hmat_src *src,
		   const struct ph_nmatrix *lat, const struct ph_nmatrix *bw,
		   const struct ph_acpi_hmat *fw, struct ph_doc *doc, struct ph_outset *set)
{
	struct ph_acpi_hmat prop;
	struct ph_acpi_ids ids;
	char from[PATH_MAX + 32], why[256], *comment, *text, *structs, *caches;
	uint32_t table_rev = 0;
	bool have_table;
	struct ph_section *s;
	int err;

	if (!lat && !bw) {
		ph_err("--emit-hmat: the input has neither a latency nor a read bandwidth matrix; nothing to propose");
		return -EINVAL;
	}
	if (src->carry_firmware && fw)
		return emit_carried(o, src, lat, bw, fw, doc, set);
	if (acpi_emit_ids(o, "HMAT", "--hmat-table", &ids, from, sizeof(from), &table_rev, &have_table))
		return -EINVAL;
	hmat_propose(lat, bw, fw, &prop);
	if (src->targets_not_memory && !(fw && fw->nmpda)) {
		free(prop.mpda);
		prop.mpda = NULL;
		prop.nmpda = 0;
	}
	if (check_entries(&prop, lat, bw)) {
		acpi_hmat_free(&prop);
		return -EINVAL;
	}
	structs = structures_text(&prop, lat, bw, src->derivation != NULL);
	caches = prop.ncache
		 ? xasprintf("the firmware's %d, without their SMBIOS handles", prop.ncache)
		 : xstrdup("none (pagehop measures none; a firmware HMAT's would be kept)");
	comment = xasprintf("%s%s%s"
			    "HMAT proposed by %s from %s.\n"
			    "OEM ID and OEM table ID from %s%s.\n"
			    "%s.  Entries of the memory hierarchy, each\n"
			    "entry x base unit within %g%% of the figure below or within half a unit:\n"
			    "%s"
			    "%s"
			    "Memory proximity domain attributes: %s.\n"
			    "Memory-side caches: %s.\n\n"
			    "Compile with iasl (acpica-tools): iasl %s writes the .aml beside it.\n"
			    "Try it without reflashing (CONFIG_ACPI_TABLE_UPGRADE): put the .aml as\n"
			    "kernel/firmware/acpi/hmat.aml in an uncompressed cpio in front of the\n"
			    "initrd; see docs/slit.md.",
			    src->carry_firmware ? "NOT A COMPLETE HMAT: the firmware's could not be read ("
			    : "", src->carry_firmware ? (src->fw_missing ? src->fw_missing : "none given") : "",
			    src->carry_firmware ? "), so only the figures below are in\n"
			    "this table.  It cannot replace the machine's HMAT: the firmware's other\n"
			    "structures and entries (its memory's initiators and targets) are not in it.\n\n"
			    : "",
			    src->by, src->input, from,
			    have_table && !o->have_rev ? ", OEM revision raised by one" : "",
			    src->domains ? src->domains : "Proximity domain i is node i",
			    PH_HMAT_ROUND_REL * 100, structs,
			    src->derivation ? src->derivation
			    : "Every entry is a measured figure: none is 0 (no information).\n",
			    fw && fw->nmpda ? "the firmware's"
			    : src->targets_not_memory ? "none (the targets are not memory; a firmware HMAT's would be kept)"
			    : "one per memory node measured, its own initiator when it has CPUs",
			    caches, o->path);
	text = acpi_hmat_source(&ids, &prop, comment);
	err = outset_stage(set, o->path, text, strlen(text), why, sizeof(why));
	free(structs);
	free(caches);
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
	section_str(s, "rounding", "each entry x base unit within 1% of the measured figure, or within half a unit (0.5 ps, 0.5 MB/s)");
	report_entries(doc, &prop, lat, bw, NULL);
	for (int k = 0; k < prop.nlb; k++) {
		const struct ph_hmat_lb *l = &prop.lb[k];
		const struct ph_nmatrix *m = acpi_hmat_is_latency(l->data_type) ? lat : bw;
		char *rows = left_out(m, l, false), *cols = left_out(m, l, true);

		if (*rows || *cols)
			doc_note(doc, "--emit-hmat: %s left out, nothing measured:%s%s%s%s",
				 acpi_hmat_data_name(l->data_type), *rows ? " initiator node(s) " : "", rows,
				 *cols ? " target node(s) " : "", cols);
		free(rows);
		free(cols);
	}
	if (prop.ncache)
		doc_note(doc, "--emit-hmat: the firmware's %d memory-side cache%s kept without SMBIOS handles",
			 prop.ncache, prop.ncache == 1 ? "" : "s");
	if (have_table && ids.oem_revision <= table_rev)
		doc_note(doc, "--oem-revision %u is not above the firmware's HMAT %u: the kernel's table upgrade will ignore the table",
			 ids.oem_revision, table_rev);
	acpi_hmat_free(&prop);
	return 0;
}
