// SPDX-License-Identifier: GPL-2.0-only
/*
 * cxl_study.c - pagehop cxl's steps: read the CXL devices and the
 * firmware's tables, explain each CXL memory node's coordinates.
 */
#include "cxl_study.h"
#include "provenance.h"
#include "cxl_effects.h"
#include "cxl_hmat.h"
#include "hmat_emit.h"
#include "cxl_input.h"
#include "output.h"
#include "matrix.h"

#include <numa.h>
#include "session.h"
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A table under the study's root: its reader's code, why in why (absent: ENOENT). */
static int read_table(const char *root, const char *path, int (*rd)(const char *, void *, char *, size_t),
		      void *t, char *why, size_t whylen)
{
	char full[PATH_MAX];

	snprintf(full, sizeof(full), "%s%s", root, path);
	why[0] = '\0';
	return rd(full, t, why, whylen);
}

static int rd_srat(const char *p, void *t, char *why, size_t n)
{
	return acpi_srat_read(p, t, why, n);
}

static int rd_hmat(const char *p, void *t, char *why, size_t n)
{
	return acpi_hmat_read(p, t, why, n);
}

static void table_why(int err, char *why, size_t n)
{
	if (err && !why[0])
		snprintf(why, n, "%s", strerror(-err));
}

/* The measured cell (CPU node row, CXL node col) of one matrix into a row of x->m. */
static void take_cell(struct ph_cxl_measured *r, const struct ph_nmatrix *m, int row, int col, bool lat)
{
	int i;

	if (!m)
		return;
	i = row * m->ncols + col;
	if (!isfinite(m->val[i]))
		return;
	if (lat) {
		r->have_lat = true;
		r->lat_ns = m->val[i];
		r->lat_lo = m->ci_lo[i];
		r->lat_hi = m->ci_hi[i];
		r->lat_ci_met = !m->ci_missed[i];
	} else {
		r->have_bw = true;
		r->bw_GBps = m->val[i];
		r->bw_lo = m->ci_lo[i];
		r->bw_hi = m->ci_hi[i];
		r->bw_ci_met = !m->ci_missed[i];
	}
}

/*
 * Read latency (a random chase) and read bandwidth from every CPU node to
 * each CXL node, as pagehop matrix measures its cells: memory laid out on
 * the node and read back there, threads on the row's CPUs.
 */
static int measure_nodes(struct ph_cxl_study *x, struct ph_session *s)
{
	struct ph_mx *mx = &x->mx;
	struct bitmask *cols = numa_allocate_nodemask();
	int rc;

	for (int i = 0; i < x->ne; i++)
		numa_bitmask_setbit(cols, (unsigned)x->e[i].node);
	mx->figures = MX_LATENCY | MX_READ;
	chase_parse("random", &mx->pattern);
	mx->pattern.seed = 1;
	mx->lat_size = mx->bw_size = s->opt->size;
	mx->bw_threads = s->opt->bind.threads;
	rc = matrix_plan(mx, &s->m.topo, NULL, 0, NULL, cols);
	numa_bitmask_free(cols);
	if (rc)
		return rc;
	mx->psize = s->opt->psize_given ? s->opt->bufreq.psize : matrix_default_psize(mx, s);
	rc = matrix_measure(mx, s, NULL, NULL);
	if (rc)
		return rc;
	x->measured_here = true;
	x->all_verified = mx->all_verified;
	for (int r = 0; mx->lat && r < mx->lat->nrows; r++)
		for (int c = 0; c < mx->lat->ncols; c++) {
			struct ph_cxl_measured *m = xappend(&x->m, &x->nm, sizeof(*x->m));

			memset(m, 0, sizeof(*m));
			m->cpu_node = mx->lat->row_ids[r];
			m->node = mx->lat->col_ids[c];
			m->lat_lo = m->lat_hi = m->bw_lo = m->bw_hi = NAN;
			take_cell(m, mx->lat, r, c, true);
			take_cell(m, mx->read, r, c, false);
		}
	return 0;
}

/*
 * --cdat with --input: the file read and parsed, and its figures for the
 * document's range (its DSMAS handle) the document's device CDAT figures,
 * each the document gives: else it is another device's table, or another
 * version of it, and a CDAT proposed from it would carry figures the
 * measurement was not judged against.  0, or exit 2 after saying why.
 */
static int given_cdat(struct ph_cxl_study *x)
{
	uint32_t fig[PH_CXL_NFIG];
	char why[256] = "";
	int handle, err;

	err = cdat_read(x->cdat_file, &x->given_cdat, why, sizeof(why));
	if (err) {
		ph_err("--cdat %s: %s", x->cdat_file, why[0] ? why : strerror(-err));
		return PH_EXIT_USAGE;
	}
	x->have_given_cdat = true;
	if (x->ne != 1 || x->e[0].why || x->e[0].ndev > 1)
		return 0;	/* emit_cdat refuses it, saying why */
	handle = cxl_cdat_figures(&x->given_cdat, 0, UINT64_MAX, fig);
	if (handle != x->e[0].cdat_handle) {
		ph_err("--cdat %s: its range (DSMAS handle %d) is not the document's (%d): not this device's CDAT",
		       x->cdat_file, handle, x->e[0].cdat_handle);
		return PH_EXIT_USAGE;
	}
	for (int f = 0; f < PH_CXL_NFIG; f++)
		if (x->e[0].parts.cdat[f] && fig[f] != x->e[0].parts.cdat[f]) {
			ph_err("--cdat %s: its %s is %u, the document's device CDAT says %u: not the CDAT the document was judged with",
			       x->cdat_file, cxl_fig_name(f), fig[f], x->e[0].parts.cdat[f]);
			return PH_EXIT_USAGE;
		}
	return 0;
}

static int cxl_measure(void *state, struct ph_session *s)
{
	struct ph_cxl_study *x = state;
	int err;

	(void)s;
	if (x->hmat_table) {
		char why[256] = "";

		err = acpi_hmat_read(x->hmat_table, &x->given_hmat, why, sizeof(why));
		if (err) {
			ph_err("--hmat-table %s: %s", x->hmat_table, why[0] ? why : strerror(-err));
			return PH_EXIT_USAGE;
		}
		x->have_given_hmat = true;
	}
	if (x->input) {
		char why[512];

		char boot[40];

		err = cxl_input_read(x->input, &x->e, &x->ne, &x->m, &x->nm, x->input_boot,
				     sizeof(x->input_boot), why, sizeof(why));
		if (err) {
			ph_err("--input: %s", why);
			return PH_EXIT_USAGE;
		}
		/* Made in this boot: this machine's tiers and weights are the input's. */
		provenance_boot_id(boot, sizeof(boot));
		x->same_boot = boot[0] && !strcmp(boot, x->input_boot);
		if (x->same_boot) {
			x->root = cxl_sysfs_root();
			cxl_tiering_load(x->root, &x->tiering);
		}
		return x->cdat_file ? given_cdat(x) : 0;
	}
	x->root = cxl_sysfs_root();
	cxl_load(x->root, &x->c);
	if (!x->c.present) {
		ph_err("no CXL memory node: no %s (no CXL device, or the cxl drivers are not loaded)",
		       PH_CXL_SYSFS);
		return PH_EXIT_UNSUPPORTED;
	}
	for (int k = 0; k < x->c.nreg; k++)
		if (x->c.reg[k].node >= 0)
			x->ne++;
	if (!x->ne) {
		ph_err("no CXL memory node: %d memory device(s), %d region(s), none online as a node's memory",
		       x->c.nmem, x->c.nreg);
		return PH_EXIT_UNSUPPORTED;
	}
	err = read_table(x->root, PH_ACPI_SRAT_PATH, rd_srat, &x->srat, x->srat_why, sizeof(x->srat_why));
	x->have_srat = !err;
	table_why(err, x->srat_why, sizeof(x->srat_why));
	err = read_table(x->root, PH_ACPI_HMAT_PATH, rd_hmat, &x->hmat, x->hmat_why, sizeof(x->hmat_why));
	x->have_hmat = !err;
	table_why(err, x->hmat_why, sizeof(x->hmat_why));
	x->e = xcalloc((size_t)x->ne, sizeof(*x->e));
	x->ne = 0;
	for (int k = 0; k < x->c.nreg; k++)
		if (x->c.reg[k].node >= 0)
			cxl_explain_region(&x->c, k, x->have_srat ? &x->srat : NULL,
					   x->have_hmat ? &x->hmat : NULL, &x->e[x->ne++]);
	cxl_tiering_load(x->root, &x->tiering);
	return x->no_measure ? 0 : measure_nodes(x, s);
}

/* One measured figure's cells: its value, its CI where it has one, whether the CI was met. */
static void figure_cells(struct ph_table *tb, int r, const char *const col[4], double v, double lo, double hi,
			 bool met, const char *fmt)
{
	table_num(tb, r, col[0], v, fmt);
	if (isfinite(lo) && isfinite(hi)) {
		table_num(tb, r, col[1], lo, fmt);
		table_num(tb, r, col[2], hi, fmt);
	}
	table_bool(tb, r, col[3], met);
}

/* The measured rows as the table --input reads back. */
static void measured_table(struct ph_doc *doc, const struct ph_cxl_measured *m, int nm)
{
	struct ph_table *tb = doc_add_table(doc, "cxl_measured", "CXL nodes measured from each CPU node");
	static const char *const lat[4] = { "lat_ns", "lat_ci_lo_ns", "lat_ci_hi_ns", "lat_ci_met" };
	static const char *const bw[4] = { "read_GBps", "read_ci_lo_GBps", "read_ci_hi_GBps", "read_ci_met" };

	table_add_col(tb, "node");
	table_add_col(tb, "cpu_node");
	for (size_t i = 0; i < 4; i++)
		table_add_col(tb, lat[i]);
	for (size_t i = 0; i < 4; i++)
		table_add_col(tb, bw[i]);
	for (int i = 0; i < nm; i++) {
		int r = table_add_row(tb);

		table_int(tb, r, "node", m[i].node);
		table_int(tb, r, "cpu_node", m[i].cpu_node);
		if (m[i].have_lat)
			figure_cells(tb, r, lat, m[i].lat_ns, m[i].lat_lo, m[i].lat_hi, m[i].lat_ci_met, "%.2f");
		if (m[i].have_bw)
			figure_cells(tb, r, bw, m[i].bw_GBps, m[i].bw_lo, m[i].bw_hi, m[i].bw_ci_met, "%.3f");
	}
}

/* --emit-cdat: the one CXL node's device CDAT with its measured figures; 0 or -1 after saying why. */
static int emit_cdat(struct ph_cxl_study *x, struct ph_doc *doc, const struct ph_cxl_judged *j, int nj)
{
	const struct ph_cxl_explained *e = &x->e[0];
	const struct ph_cxl_memdev *m = NULL;
	const struct ph_cdat *t;
	struct ph_cdat out;
	const char *why;
	char werr[256];
	uint8_t *bytes;
	size_t len;
	int n, err, id = -1;

	if (x->ne != 1 || e->why || e->ndev > 1) {
		ph_err("--emit-cdat: %s", x->ne != 1 ? "more than one CXL node: one device's CDAT at a time"
			   : e->why ? e->why
			   : "the node is interleaved over several devices: one measurement cannot be split between their CDATs");
		return -1;
	}
	if (x->have_given_cdat) {
		t = &x->given_cdat;
	} else {
		if (sscanf(e->memdev, "mem%d", &id) != 1)
			id = -1;
		for (int i = 0; i < x->c.nmem; i++)
			if (x->c.mem[i].id == id)
				m = &x->c.mem[i];
		if (!m || m->cdat_err) {
			ph_err("--emit-cdat: %s has no CDAT pagehop could parse", e->memdev);
			return -1;
		}
		t = &m->cdat;
	}
	n = cxl_propose_cdat(t, e, j, nj, &out, &why);
	if (n < 0) {
		ph_err("--emit-cdat: %s", why);
		return -1;
	}
	bytes = cdat_build(&out, &len);
	cdat_free(&out);
	err = write_file_atomic(x->emit_cdat, bytes, len, werr, sizeof(werr));
	free(bytes);
	if (err) {
		ph_err("--emit-cdat: %s", werr);
		return -1;
	}
	doc_note(doc, "CXL: %s: %s's CDAT%s%s with %d DSLBIS entr%s from the measurement (%zu bytes, "
		      "for QEMU's cdat= or the device's firmware)%s%s", x->emit_cdat, e->memdev,
		 x->have_given_cdat ? " as in " : "", x->have_given_cdat ? x->cdat_file : "", n,
		 n == 1 ? "y" : "ies", len, why ? "; " : "", why ? why : "");
	return 0;
}

/*
 * --emit-hmat: the firmware's HMAT (--hmat-table's, else this machine's;
 * a document carries none) with the generic ports' entries (cxl_hmat.h)
 * in place, as iasl source, through the slit's HMAT writer; where no
 * firmware HMAT can be read, the generic ports' entries alone under a
 * header saying the table is not complete.  0 or -1 after saying why.
 */
static int emit_hmat(struct ph_cxl_study *x, struct ph_doc *doc)
{
	struct ph_nmatrix *lat, *bw;
	struct ph_outset set = { 0 };
	struct ph_acpi_out o = { .path = x->emit_hmat };
	const struct ph_acpi_hmat *fw = NULL;
	char why[512], table[PATH_MAX], missing[PATH_MAX + 300], *text, *derivation;
	const char *failed;
	int err;

	if (cxl_propose_gp(x->e, x->ne, x->m, x->nm, &lat, &bw, &text, why, sizeof(why))) {
		ph_err("--emit-hmat: %s; nothing written", why);
		return -1;
	}
	if (x->have_given_hmat) {
		o.table = x->hmat_table;
		o.table_given = true;
		fw = &x->given_hmat;
	} else if (x->input) {
		o.elsewhere = "a saved document (--input)";
		snprintf(missing, sizeof(missing), "a saved document (--input) does not carry it; give it with --hmat-table");
	} else {
		snprintf(table, sizeof(table), "%s%s", x->root, PH_ACPI_HMAT_PATH);
		o.table = table;
		fw = x->have_hmat ? &x->hmat : NULL;
		snprintf(missing, sizeof(missing), "%s: %s", table, x->hmat_why);
	}
	derivation = xasprintf("Each figure, as Linux composes a CXL node's coordinates (the generic\n"
			       "port's latency adds to the device CDAT's and the link's; its bandwidth\n"
			       "is the least of the three), from the measured row it rests on:\n%s", text);
	{
		const struct ph_hmat_src src = {
			.by = "pagehop cxl",
			.input = x->input ? x->input : "this machine's measurement",
			.domains = "Proximity domain i is node i; the generic ports' domains are targets",
			.derivation = derivation,
			.targets_not_memory = true,
			.carry_firmware = true,
			.fw_missing = fw ? NULL : missing,
		};

		err = hmat_emit_acpi(&o, &src, lat, bw, fw, doc, &set);
	}
	if (!err && !fw)
		doc_note(doc, "--emit-hmat %s: NOT a complete HMAT, the generic ports' entries only (%s): it cannot replace the machine's",
			 x->emit_hmat, missing);
	free(derivation);
	free(text);
	nmatrix_free(lat);
	nmatrix_free(bw);
	if (!err && outset_commit(&set, &failed, why, sizeof(why))) {
		ph_err("--emit-hmat %s: %s", failed, why);
		err = -1;
	}
	outset_discard(&set);
	return err ? -1 : 0;
}

/* The tiers and weights, now and as proposed: this machine's only (a document does not hold them). */
static void effects(struct ph_cxl_study *x, struct ph_doc *doc, const struct ph_cxl_judged *j, int nj)
{
	struct ph_cxl_effect *f;

	if (x->input && !x->same_boot) {
		doc_note(doc, "CXL: the tiers and weights are this machine's, and the input was not made in this boot of it (%s): not shown",
			 x->input_boot[0] ? "another boot_id" : "it has no boot_id");
		return;
	}
	if (x->input)
		doc_note(doc, "CXL: the tiers and weights are this machine's now: the input was made in this boot of it (boot_id %s)",
			 x->input_boot);
	f = xcalloc((size_t)x->ne, sizeof(*f));
	for (int i = 0; i < x->ne; i++)
		cxl_effect(&x->e[i], &x->tiering, j, nj, &f[i]);
	cxl_effects_report(doc, f, x->ne);
	free(f);
}

static struct ph_doc *cxl_doc(void *state, struct ph_session *s, int *rc)
{
	struct ph_cxl_study *x = state;
	struct ph_doc *doc = doc_new("cxl");
	struct ph_cxl_judged *j;
	int nj;

	if (x->input)
		doc_note(doc, "CXL: from %s; every figure composed again from its parts", x->input);
	if (!x->input && !x->have_srat)
		doc_note(doc, "SRAT: %s%s: %s", x->root, PH_ACPI_SRAT_PATH, x->srat_why);
	if (!x->input && !x->have_hmat)
		doc_note(doc, "HMAT: %s%s: %s", x->root, PH_ACPI_HMAT_PATH, x->hmat_why);
	cxl_explain_report(doc, x->e, x->ne);
	if (!x->nm) {
		doc_note(doc, "CXL: nothing measured, so no entry is judged (a saved document with a "
			      "cxl_measured table is judged with --input)");
		effects(x, doc, NULL, 0);
		return doc;
	}
	measured_table(doc, x->m, x->nm);
	if (x->measured_here)
		doc_note(doc, "CXL: measured here: read latency (a random chase over %llu MiB) and "
			      "read bandwidth from each CPU node, as pagehop matrix measures a cell; "
			      "memory placement %s", (unsigned long long)(s->opt->size >> 20),
			 x->all_verified ? "verified on every cell" : "NOT verified on every cell");
	nj = cxl_judge(x->e, x->ne, x->m, x->nm, x->tolerance, x->noise, &j);
	if (!*rc)
		*rc = cxl_judge_report(doc, j, nj, x->tolerance, x->noise);
	if (x->emit_cdat && emit_cdat(x, doc, j, nj))
		*rc = PH_EXIT_FAIL;
	if (x->emit_hmat && emit_hmat(x, doc))
		*rc = PH_EXIT_FAIL;
	effects(x, doc, j, nj);
	free(j);
	return doc;
}

static bool cxl_measured(const void *state)
{
	return ((const struct ph_cxl_study *)state)->e != NULL;
}

static void cxl_study_free(void *state, struct ph_session *s)
{
	struct ph_cxl_study *x = state;

	(void)s;
	if (x->have_srat)
		acpi_srat_free(&x->srat);
	if (x->have_hmat)
		acpi_hmat_free(&x->hmat);
	if (x->have_given_hmat)
		acpi_hmat_free(&x->given_hmat);
	if (x->have_given_cdat)
		cdat_free(&x->given_cdat);
	cxl_free(&x->c);
	cxl_tiering_free(&x->tiering);
	free(x->e);
	free(x->m);
	matrix_free(&x->mx);
}

const struct ph_steps cxl_steps = {
	.size = sizeof(struct ph_cxl_study),
	.measure = cxl_measure,
	.measured = cxl_measured,
	.document = cxl_doc,
	.free = cxl_study_free,
};
