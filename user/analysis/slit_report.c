// SPDX-License-Identifier: GPL-2.0-only
/*
 * slit_report.c - the report of "pagehop slit": the analysis of distance.c
 * turned into a document, each figure saying what it was derived from.
 * Here the verdict, the evidence it lacks, the checks and the firmware's
 * SLIT; slit_compare_report.c sets the measurement against the SLIT,
 * slit_model_report.c models it and proposes a SLIT.  docs/slit.md
 * explains every number.
 */
#include "acpi_slit.h"
#include "distance.h"
#include "number.h"
#include "output.h"
#include "slit_compare_report.h"
#include "slit_model_report.h"
#include "slit_report.h"
#include "util.h"
#include "verdict.h"
#include "verdict_margin.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The lowest level without a local cell: the nearest remote one. */
static int nearest_remote(const struct ph_levels *l)
{
	for (int i = 0; i < l->n; i++)
		if (!l->lv[i].has_local)
			return i;
	return -1;
}

/* ---- the document ---- */

static void add_verdict(struct ph_doc *doc, const struct ph_slit_job *job,
			const struct ph_analysis *a)
{
	struct ph_section *s = doc_add_section(doc, "verdict", "verdict");
	char *sum = slit_summary(a), *der = slit_derivation(job);
	int near = nearest_remote(&a->measured);

	section_str(s, "status", verdict_status(a->verdict));
	section_int(s, "exit_code", verdict_exit(a->verdict));
	section_str(s, "summary", sum);
	section_str(s, "input", job->input);
	section_str(s, "figure", job->figure);
	section_str(s, "measured_by", job->source);
	section_str(s, "normalisation", der);
	if (!job->slit) {
		section_str(s, "slit", "none");
	} else if (!a->slit_rejected) {
		section_str(s, "slit", job->slit_from);
		section_str(s, "slit_linux", "accepted");
	} else {
		const struct ph_slit_check *c = &a->slit_check;
		char *label = slit_compared_label(job, a);
		char *why = slit_rejection(c, "node", job->slit->ids[c->row], job->slit->ids[c->col]);

		section_str(s, "slit", label);
		section_str(s, "slit_linux", "rejected");
		section_str(s, "slit_given", job->slit_from);
		section_str(s, "slit_linux_rule", slit_rule_name(c->rule));
		section_int(s, "slit_linux_from", job->slit->ids[c->row]);
		section_int(s, "slit_linux_to", job->slit->ids[c->col]);
		section_int(s, "slit_linux_value", c->value);
		section_int(s, "slit_linux_bad_entries", c->nbad);
		section_str(s, "slit_linux_why", why);
		section_str(s, "slit_compared", "Linux's default distances: 10 local, 20 remote");
		free(label);
		free(why);
	}
	section_num(s, "tolerance_pct", a->opts.tolerance * 100, "%g");
	section_num(s, "noise_pct", a->opts.noise * 100, "%g");
	section_int(s, "measured_levels", a->measured.n);
	section_int(s, "measured_remote_levels", a->measured.nremote);
	if (near >= 0) {
		struct level_cells g;
		char *p;

		slit_level_cells_init(&a->dm, &a->measured, &g);
		p = slit_level_cells_pairs(&a->dm, &a->measured, &g, near);
		section_str(s, "nearest_remote_pairs", p);
		free(p);
		slit_level_cells_free(&g);
	}
	if (a->have_slit) {
		section_int(s, "slit_levels", a->slit.n);
		section_int(s, "slit_remote_levels", a->slit.nremote);
		section_int(s, "ordering_violations", a->nviol);
		if (a->measured.n == a->slit.n)
			section_int(s, "cells_in_other_level", a->nlevel_cells_differ);
		section_int(s, "cells_compared", a->nmag);
		section_int(s, "cells_outside_tolerance", a->nmag_out);
	}
	section_int(s, "asymmetric_pairs", a->nasym_beyond);
	if (!a->have_counts) {
		char *e = xasprintf("figures as given: the input carries no sample counts, so the figures are judged as they are, each taken as uncertain by +-%g%% (--noise) where it has no CI",
				    a->opts.noise * 100);

		section_str(s, "evidence", e);
		free(e);
	} else if (a->nlacking) {
		section_str(s, "evidence", "lacking: see lacking_evidence");
		section_int(s, "lacking_cells", a->nlacking);
		section_str(s, "status_of_figures", verdict_status(a->verdict_figures));
	} else {
		char *e = xasprintf("every analysed cell: at least %d samples, CI target met", PH_EVIDENCE_MIN_SAMPLES);

		section_str(s, "evidence", e);
		free(e);
	}
	free(sum);
	free(der);
}

static void lacking_row(const void *ctx, struct ph_table *t, int r)
{
	const struct ph_analysis *a = ctx;
	const struct ph_nmatrix *m = a->m;
	int k = a->lacking[r];

	table_int(t, r, "cpu_node", m->row_ids[k / m->ncols]);
	table_int(t, r, "mem_node", m->col_ids[k % m->ncols]);
	table_int(t, r, "samples", m->samples[k]);
	table_bool(t, r, "ci_met", !m->ci_missed[k] && m->samples[k] >= PH_EVIDENCE_MIN_SAMPLES);
}

/* The cells without the evidence, made when the document is rendered. */
static void add_lacking(struct ph_doc *doc, const struct ph_slit_job *job,
			const struct ph_analysis *a)
{
	struct ph_table *t;

	if (!a->nlacking)
		return;
	t = doc_add_table_rows(doc, "lacking_evidence",
			       "cells without the evidence for a verdict (fewer samples than needed, or the CI target missed)",
			       a->nlacking, lacking_row, a);
	table_add_col(t, "cpu_node");
	table_add_col(t, "mem_node");
	table_add_col(t, "samples");
	table_add_col(t, "ci_met");
	doc_note(doc, "no verdict: %d cell%s of %s have fewer than %d samples or missed the CI target; the verdict needs both of every cell. A longer --time (or a looser --ci) gives them the samples",
		 a->nlacking, slit_plural(a->nlacking), job->figure, PH_EVIDENCE_MIN_SAMPLES);
}

static void add_checks(struct ph_doc *doc, const struct ph_slit_job *job,
		       const struct ph_analysis *a)
{
	struct ph_table *t = doc_add_table(doc, "checks", "checks");
	int r;

	table_add_col(t, "check");
	table_add_col(t, "result");
	table_add_col(t, "detail");
	if (job->slit) {
		const struct ph_slit_check *c = &a->slit_check;
		char *d = a->slit_rejected
			  ? slit_rejection(c, "node", job->slit->ids[c->row], job->slit->ids[c->col])
			  : xstrdup("diagonal 10, every other entry above 10: Linux uses it as given");

		r = table_add_row(t);
		table_str(t, r, "check", "slit_for_linux");
		table_str(t, r, "result", a->slit_rejected ? "ignored by Linux" : "ok");
		table_str(t, r, "detail", d);
		free(d);
	}
	if (a->have_slit) {
		char *d;

		r = table_add_row(t);
		table_str(t, r, "check", "levels");
		table_str(t, r, "result", a->measured.n == a->slit.n && !a->nlevel_cells_differ
					  ? "ok" : "inconsistent");
		d = xasprintf("measured %d (%d remote), %s %d (%d remote)%s",
			      a->measured.n, a->measured.nremote, slit_table_name(a), a->slit.n, a->slit.nremote,
			      a->nlevel_cells_differ ? "; some cells fall in different levels" : "");
		table_str(t, r, "detail", d);
		free(d);

		r = table_add_row(t);
		table_str(t, r, "check", "ordering");
		table_str(t, r, "result", a->nviol ? "inconsistent" : "ok");
		d = xasprintf("%d pair%s where the SLIT says nearer and the measurement says farther beyond the CIs",
			      a->nviol, slit_plural(a->nviol));
		table_str(t, r, "detail", d);
		free(d);

		r = table_add_row(t);
		table_str(t, r, "check", "magnitude");
		table_str(t, r, "result", a->nmag_out ? "outside tolerance" : "ok");
		d = xasprintf("%d of %d remote cell%s outside +-%g%% of the SLIT",
			      a->nmag_out, a->nmag, slit_plural(a->nmag), a->opts.tolerance * 100);
		table_str(t, r, "detail", d);
		free(d);
	}
	r = table_add_row(t);
	table_str(t, r, "check", "asymmetry");
	table_str(t, r, "result", "information");
	{
		char *d = xasprintf("asymmetric beyond the CIs: %d of %d node pair%s (not part of the verdict)",
				    a->nasym_beyond, a->nasym, slit_plural(a->nasym));

		table_str(t, r, "detail", d);
		free(d);
	}
	if (job->nhmat) {
		r = table_add_row(t);
		table_str(t, r, "check", "hmat");
		table_str(t, r, "result", "information");
		table_str(t, r, "detail", "HMAT local latency and bandwidth against the measurement (not part of the verdict)");
	}
}

void slit_report_firmware(struct ph_doc *doc, const char *path, bool this_machine,
			  int err, const char *why, const struct ph_acpi_slit *t)
{
	struct ph_section *s = doc_add_section(doc, "firmware_slit",
					       "firmware SLIT (the ACPI table, as Linux judges it)");
	struct ph_slit_check c;
	char *text;

	section_str(s, "table", path);
	if (err == -ENOENT) {
		section_str(s, "status", "absent");
		section_str(s, "linux_uses", "no ACPI SLIT: its default distances, 10 local and 20 remote (unless a device tree gives distances)");
		return;
	}
	if (err == -EINVAL) {
		section_str(s, "status", "malformed");
		section_str(s, "why", why);
		section_str(s, "linux_uses", "unknown");
		return;
	}
	if (err) {
		text = xasprintf("%s%s", strerror(-err),
				 err == -EACCES || err == -EPERM ? ": reading the table needs root" : "");
		section_str(s, "status", "unreadable");
		section_str(s, "why", text);
		section_str(s, "linux_uses", "unknown");
		free(text);
		return;
	}
	if (slit_linux_check(t->n, t->entry, &c)) {
		section_str(s, "status", "accepted");
		section_int(s, "localities", t->n);
		section_str(s, "linux_uses", "this table (localities are proximity domains; dmesg 'SRAT: PXM p -> ... -> Node n' maps them to nodes)");
		return;
	}
	text = slit_rejection(&c, "locality", c.row, c.col);
	section_str(s, "status", "rejected");
	section_int(s, "localities", t->n);
	section_str(s, "linux_uses", "its default distances: 10 local, 20 remote");
	section_str(s, "rule", slit_rule_name(c.rule));
	section_int(s, "from_locality", c.row);
	section_int(s, "to_locality", c.col);
	section_int(s, "value", c.value);
	section_int(s, "bad_entries", c.nbad);
	section_str(s, "why", text);
	if (this_machine)
		doc_note(doc, "the firmware's SLIT (%s): %s; the node distances this kernel reports are those defaults, not the firmware's",
			 path, text);
	else
		doc_note(doc, "the SLIT of %s: %s; a kernel booted with it would report those defaults, not its distances",
			 path, text);
	free(text);
}

int slit_analyse(const struct ph_slit_job *job, struct ph_analysis *a,
		 char *err, size_t errlen)
{
	int ret = analysis_run(job->m, job->slit, &job->opts, a);

	if (ret)
		snprintf(err, errlen, "%s: no CPU node has a usable measured cell; nothing to normalise",
			 job->input);
	return ret;
}

void slit_report(const struct ph_slit_job *job, const struct ph_analysis *a,
		 struct ph_doc *doc)
{
	add_verdict(doc, job, a);
	add_lacking(doc, job, a);
	/* No verdict, no margin: run again at any --noise it is "cannot tell" still. */
	if (a->verdict != PH_VERDICT_CANNOT_TELL)
		verdict_margin_report(doc, job->m, a->slit_default ? a->slit_default : job->slit, a);
	if (job->fw_path)
		slit_report_firmware(doc, job->fw_path, true, job->fw_err, job->fw_why, job->fw);
	add_checks(doc, job, a);
	slit_report_compare(doc, job, a);
	slit_report_model(doc, job, a);
	if (!job->slit)
		doc_note(doc, "no SLIT given: levels, asymmetry, per-hop model and proposed SLIT only; give --slit FILE (numactl --hardware output) to compare");
	else if (!a->have_slit)
		doc_note(doc, "the SLIT (%s) covers none of the measured cells: not compared", job->slit_from);
	if (a->slit_rejected) {
		const struct ph_slit_check *c = &a->slit_check;
		char *why = slit_rejection(c, "node", job->slit->ids[c->row], job->slit->ids[c->col]);

		doc_note(doc, "the SLIT of %s: %s; the measurement is compared with those defaults, the table the kernel would use, not with the SLIT given",
			 job->slit_from, why);
		free(why);
	}
	if (job->m->metric != PH_METRIC_LATENCY && job->nhmat == 0 && !job->latency)
		doc_note(doc, "per-hop figures are in distance units (10 = local), derived from %s; a latency matrix gives them in ns",
			 job->figure);
	if (job->ci_not_met && !a->nlacking)
		doc_note(doc, "%d cell%s of %s missed the CI target when measured (ci_met false); the analysis uses the CIs as recorded",
			 job->ci_not_met, slit_plural(job->ci_not_met), job->figure);
	doc_note(doc, "each measured value is taken as uncertain by at least +-%g%% (--noise) where its CI is narrower or absent; distances whose intervals overlap are one level",
		 a->opts.noise * 100);
}
