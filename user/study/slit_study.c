// SPDX-License-Identifier: GPL-2.0-only
/*
 * slit_study.c - "pagehop slit" from its input to its exit status: a file
 * read, or this machine measured by the matrix engine and taken straight
 * from the measurement (matrix_input()), then the one analysis, report and
 * ACPI output for both, made while the analysis is alive.
 */
#include "slit_study.h"
#include "acpi_hmat.h"
#include "acpi_slit.h"
#include "hmat_emit.h"
#include "hmat_propose.h"
#include "hmat_report.h"
#include "hmat_table.h"
#include "host_read.h"
#include "hwloc_export.h"
#include "interleave_report.h"
#include "memtier_report.h"
#include "kernel_report.h"
#include "matrix.h"
#include "matrix_doc.h"
#include "read_input.h"
#include "read_numactl.h"
#include "read_text.h"
#include "slit_report.h"
#include "util.h"
#include "verdict.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/utsname.h>

/* The SLIT of --slit, and how the report names where it came from. */
struct given_slit {
	struct ph_slit *slit;	/* NULL without --slit */
	char *from;
};

/* Read --slit, if given.  0, or PH_EXIT_USAGE after one line on stderr. */
static int given_load(const char *path, struct given_slit *g)
{
	char err[512];

	memset(g, 0, sizeof(*g));
	if (!path)
		return 0;
	if (slit_load_numactl(path, &g->slit, err, sizeof(err))) {
		ph_err("%s", err);
		return PH_EXIT_USAGE;
	}
	g->from = xasprintf("%s (numactl --hardware)", strcmp(path, "-") ? path : "<stdin>");
	return 0;
}

static void given_free(struct given_slit *g)
{
	slit_free(g->slit);
	free(g->from);
}

/* The binary HMAT read entry by entry: --hmat-table, or this machine's. */
struct hmat_in {
	const char *path;	/* NULL: none looked at */
	int err;
	char why[256];
	struct ph_acpi_hmat t;
};

/*
 * Read --hmat-table (path), or with own this machine's table.  A table
 * named on the command line must be read: else one line and
 * PH_EXIT_USAGE.  This machine's is reported as it is (absent, unreadable
 * without root, malformed: a finding about the firmware).
 */
static int hmat_load(const char *path, bool own, struct hmat_in *h)
{
	memset(h, 0, sizeof(*h));
	if (!path && !own)
		return 0;
	h->path = path ? path : PH_ACPI_HMAT_PATH;
	h->err = acpi_hmat_read(h->path, &h->t, h->why, sizeof(h->why));
	if (h->err && path) {
		ph_err("--hmat-table %s: %s", path, h->why[0] ? h->why : strerror(-h->err));
		return PH_EXIT_USAGE;
	}
	return 0;
}

/* The HMAT's sections, after the SLIT's: slit is the table compared there. */
static void hmat_add(struct ph_doc *doc, const struct hmat_in *h, const struct ph_slit_job *job,
		     const struct ph_slit *slit)
{
	const bool lat = job->figure && strstr(job->figure, "latency");
	struct ph_hmat_view v;

	if (!h->path)
		return;
	memset(&v, 0, sizeof(v));
	if (!h->err)
		hmat_table_view(&h->t, slit, job->latency ? job->latency : lat ? job->m : NULL,
				job->read_bw ? job->read_bw : !lat ? job->m : NULL,
				job->opts.noise, job->opts.tolerance, &v);
	hmat_report(doc, h->path, h->err, h->why, &h->t, &v);
	hmat_view_free(&v);
}

/*
 * The proposed HMAT the tiers and weights are figured from is clamped where
 * no base unit holds the measurement (hmat_propose.h): said, as --emit-hmat
 * would refuse it.
 */
static void proposal_off_note(struct ph_doc *doc, const struct hmat_in *h,
			      const struct ph_slit_job *job)
{
	const bool lat = job->figure && strstr(job->figure, "latency");
	const struct ph_nmatrix *l = job->latency ? job->latency : lat ? job->m : NULL;
	const struct ph_nmatrix *b = job->read_bw ? job->read_bw : !lat ? job->m : NULL;
	struct ph_acpi_hmat prop;
	int off;

	if (!l && !b)
		return;
	hmat_propose(l, b, h->path && !h->err ? &h->t : NULL, &prop);
	off = hmat_propose_off(&prop, l, b);
	if (off)
		doc_note(doc, "the proposed HMAT (memory_tiers, interleave_weights) has %d entr%s beyond 1%% of the measurement: no 16-bit entry base unit holds the whole matrix, so its proposed tiers and weights rest on clamped figures (--emit-hmat refuses such a table)",
			 off, off == 1 ? "y" : "ies");
	acpi_hmat_free(&prop);
}

/*
 * Whose machine was measured, and the memory tiers and weighted-interleave
 * weights of the firmware's HMAT (when one was read) and of the proposed
 * one, by the rule of the measured machine's kernel: this machine's facts
 * only where they belong to the input (host_read.h), or as the options
 * name them (--kernel-version, PAGEHOP_KERNEL, --this-kernel).
 */
static void tiers_add(struct ph_doc *doc, const struct hmat_in *h, const struct ph_slit_job *job,
		      const struct ph_slit *slit, const struct ph_proposal *prop,
		      const struct ph_slit_plan *p, bool this_machine, const char *input_host)
{
	const bool lat = job->figure && strstr(job->figure, "latency");
	const char *env = getenv("PAGEHOP_KERNEL");
	struct ph_host_ask ask = {
		.measured_here = this_machine,
		.input_host = input_host,
		.this_kernel = p->this_kernel,
		.kernel_version = p->kernel_version ? p->kernel_version : env && *env ? env : NULL,
		.kernel_option = p->kernel_version ? "--kernel-version" : "PAGEHOP_KERNEL",
		.hmat_file = h->path && strncmp(h->path, "/sys/firmware/", 14),
	};
	struct ph_host_read r;

	host_read(&ask, prop->n, prop->ids, &r);
	host_facts_report(doc, &r.f);
	memtier_report(doc, slit, prop, job->m, h->path && !h->err ? &h->t : NULL,
		       job->latency ? job->latency : lat ? job->m : NULL,
		       job->read_bw ? job->read_bw : !lat ? job->m : NULL, r.f.kernel);
	interleave_report(doc, prop, job->m, h->path && !h->err ? &h->t : NULL,
			  job->latency ? job->latency : lat ? job->m : NULL,
			  job->read_bw ? job->read_bw : !lat ? job->m : NULL, &r.f);
	host_read_free(&r);
	proposal_off_note(doc, h, job);
}

/* --emit-hmat: the proposal from the latency and read bandwidth the HMAT was compared with. */
static int hmat_emit(const struct ph_acpi_out *o, const struct hmat_in *h,
		     const struct ph_slit_job *job, struct ph_doc *doc, struct ph_outset *set)
{
	const bool lat = job->figure && strstr(job->figure, "latency");
	const struct ph_hmat_src src = { .by = "pagehop slit", .input = job->input };

	return hmat_emit_acpi(o, &src,
			      job->latency ? job->latency : lat ? job->m : NULL,
			      job->read_bw ? job->read_bw : !lat ? job->m : NULL,
			      h->path && !h->err ? &h->t : NULL, doc, set);
}

/* --hwloc: the latency and read bandwidth compared, as hwloc XML. */
static int hwloc_add(const char *path, const struct ph_slit_job *job, bool this_machine,
		     int packages, struct ph_doc *doc, struct ph_outset *set)
{
	const bool lat = job->figure && strstr(job->figure, "latency");
	const struct ph_nmatrix *l = job->latency ? job->latency : lat ? job->m : NULL;
	const struct ph_nmatrix *b = job->read_bw ? job->read_bw : !lat ? job->m : NULL;
	struct ph_section *s;
	char why[512], shown[256];

	if (!l && !b) {
		ph_err("--hwloc %s: the input has neither a latency nor a read bandwidth matrix", path);
		return -EINVAL;
	}
	if (hwloc_export(path, l, b, this_machine, packages, set,
			 shown, sizeof(shown), why, sizeof(why))) {
		ph_err("--hwloc %s: %s", path, why);
		return -EINVAL;
	}
	s = doc_add_section(doc, "hwloc", "hwloc XML written");
	section_str(s, "file", path);
	section_str(s, "topology", shown);
	if (l)
		section_str(s, "latency_distances", PH_HWLOC_LATENCY_NAME " (ps)");
	if (b)
		section_str(s, "bandwidth_distances", PH_HWLOC_BANDWIDTH_NAME " (MB/s)");
	section_str(s, "memory_attributes", l && b ? "Latency (ns), Bandwidth (MiB/s)" : l ? "Latency (ns)" : "Bandwidth (MiB/s)");
	return 0;
}

/* Node ids listed in an error: the first few, then how many more. */
#define IDS_NAMED 16

/* Append id to the list *s of *n ids so far ("0 5 6 7 and 3 more" at the end). */
static void ids_add(char **s, int *n, int id)
{
	char *t;

	if (*n < IDS_NAMED) {
		t = xasprintf("%s%s%d", *s, *n ? " " : "", id);
		free(*s);
		*s = t;
	}
	(*n)++;
}

static char *ids_done(char *s, int n)
{
	char *t;

	if (n <= IDS_NAMED)
		return s;
	t = xasprintf("%s and %d more", s, n - IDS_NAMED);
	free(s);
	return t;
}

/* Does the recorded SLIT r have exactly the nodes of s? */
static bool same_nodes(const struct ph_slit *r, const struct ph_slit *s)
{
	if (!r || r->n != s->n)
		return false;
	for (int i = 0; i < s->n; i++)
		if (slit_at(r, s->ids[i], s->ids[i]) < 0)
			return false;
	return true;
}

/*
 * The node ids of the input must be the SLIT's: every measured node in the
 * SLIT, or the comparison is of two machines; and every node of the SLIT
 * in the input, unless the input records its machine's distances over the
 * same nodes (pagehop's JSON of some rows or columns, --cpunodebind), so
 * that its ids are known to be that machine's node ids.  Else one line
 * naming the ids, -EINVAL: labels such as socket numbers 1-4 against an
 * 8-node SLIT are no verdict.
 */
static int check_coverage(const struct ph_input *in, const struct ph_slit *s,
			  const char *from)
{
	const struct ph_nmatrix *m = in->m;
	char *missing = xstrdup(""), *extra = xstrdup("");
	int nmissing = 0, nextra = 0, rc = 0;
	int *in_ids = xmalloc((m->nrows + m->ncols + 1) * sizeof(int)), nin = 0;
	int *at;

	for (int i = 0; i < m->nrows + m->ncols; i++) {
		int id = i < m->nrows ? m->row_ids[i] : m->col_ids[i - m->nrows];
		bool seen = false;

		for (int j = 0; j < nin && !seen; j++)
			seen = in_ids[j] == id;
		if (seen)
			continue;
		in_ids[nin++] = id;
		if (slit_at(s, id, id) < 0)
			ids_add(&missing, &nmissing, id);
	}
	at = node_index(in_ids, nin, s->ids, s->n);
	for (int i = 0; i < s->n; i++)
		if (at[i] < 0)
			ids_add(&extra, &nextra, s->ids[i]);
	missing = ids_done(missing, nmissing);
	extra = ids_done(extra, nextra);
	if (nmissing) {
		ph_err("%s: has no node%s %s, which the measurement has; expected the SLIT of the measured machine, whose node ids label the input's rows and columns",
		       from, nmissing == 1 ? "" : "s", missing);
		rc = -EINVAL;
	} else if (nextra && !same_nodes(in->slit, s)) {
		ph_err("%s: node%s %s of the SLIT %s not in the input, which records no distances of its own over those nodes; expected the input's rows and columns labelled with the SLIT's node ids (numactl's node numbers, not socket numbers), every node measured",
		       from, nextra == 1 ? "" : "s", extra, nextra == 1 ? "is" : "are");
		rc = -EINVAL;
	}
	free(at);
	free(in_ids);
	free(missing);
	free(extra);
	return rc;
}

/*
 * Why an input is not this machine's measurement, in words, or NULL when
 * its provenance names this host (host_read.c's rule): host is the one it
 * names, NULL if none.
 */
static char *not_here(const char *host)
{
	struct utsname u;

	if (!host)
		return xstrdup("the input's provenance names no host, so its machine is not known to be this one");
	if (uname(&u) || strcasecmp(host, u.nodename))
		return xasprintf("the input's provenance names host %s, not this one", host);
	return NULL;
}

/* What a run has come to. */
enum slit_state {
	SLIT_NONE,	/* nothing to report */
	SLIT_ONE_NODE,	/* nothing to compare: one node, or no NUMA */
	SLIT_MEASURING,	/* planned: the matrix is to be measured */
	SLIT_ANALYSED,	/* job and a hold the analysis */
};

struct ph_slit_study {
	const struct ph_slit_plan *p;
	enum slit_state state;
	struct given_slit given;
	struct hmat_in hmat;
	struct ph_mx mx;		/* measuring: the matrix measured */
	struct ph_input in;		/* the input read, or taken from mx */
	const char *label;		/* how the report names in */
	bool this_machine;		/* in was measured here */
	int nnodes, slit00;		/* one node: the count (0: no NUMA), its SLIT entry */
	/* the analysis, alive until the run is freed */
	struct ph_slit_job job;
	struct ph_analysis a;
	struct ph_acpi_slit fw;		/* this machine's ACPI SLIT, measuring */
	char fw_why[256];
	char *slit_from;
	char *elsewhere;		/* why in is not this machine's, or NULL */
	ph_mx_cell_fn on_cell;		/* each cell as it is measured (--save), or NULL */
	void *cell_ctx;
};

struct ph_slit_study *slit_study_new(const struct ph_slit_plan *p, ph_mx_cell_fn on_cell, void *cell_ctx)
{
	struct ph_slit_study *r = xcalloc(1, sizeof(*r));

	r->p = p;
	r->on_cell = on_cell;
	r->cell_ctx = cell_ctx;
	return r;
}

/*
 * One node, or no NUMA: the answer without measuring.  An output asked for
 * (--save, --emit-acpi, --emit-hmat, --hwloc) cannot be had: nothing is
 * measured to save or propose, so each is named on stderr, nothing is
 * written, and the exit is PH_EXIT_UNSUPPORTED, not the answer's 0.
 */
static int single_node(struct ph_slit_study *r, const struct ph_topology *t)
{
	const struct ph_slit_plan *p = r->p;
	const char *why = t->nnodes ? "this machine has a single NUMA node, so slit measures nothing"
			       : "this kernel has no NUMA support, so slit measures nothing";
	const struct {
		const char *opt, *path, *hint;
	} outs[] = {
		{ "--save", p->save, "; pagehop matrix --save FILE measures its one cell" },
		{ "--emit-acpi", p->acpi.path, "; a SLIT of one node has nothing to propose" },
		{ "--emit-hmat", p->hmat_acpi.path, "" },
		{ "--hwloc", p->hwloc, "; lstopo --of xml gives the topology" },
	};
	bool refused = false;

	for (size_t k = 0; k < ARRAY_SIZE(outs); k++)
		if (outs[k].path) {
			ph_err("%s %s: not written: %s%s", outs[k].opt, outs[k].path, why, outs[k].hint);
			refused = true;
		}
	if (refused)
		return PH_EXIT_UNSUPPORTED;
	r->state = SLIT_ONE_NODE;
	r->nnodes = t->nnodes;
	r->slit00 = t->nnodes == 1 ? t->distance[0] : -1;
	return 0;
}

/* The answer on one node: nothing to compare, exit 0. */
static struct ph_doc *single_node_doc(const struct ph_slit_study *r)
{
	struct ph_doc *doc = doc_new("slit");
	struct ph_section *s = doc_add_section(doc, "verdict", "verdict");

	section_str(s, "status", "nothing to compare");
	section_int(s, "exit_code", PH_EXIT_OK);
	section_str(s, "summary", r->nnodes
		    ? "nothing to compare on a single node: its memory is local to all its CPUs, and the SLIT has one entry, 10"
		    : "nothing to compare on a single node: this kernel has no NUMA support, so there is one node and no SLIT");
	section_int(s, "nodes", r->nnodes ? r->nnodes : 1);
	if (r->slit00 >= 0)
		section_int(s, "slit_0_0", r->slit00);
	return doc;
}

/*
 * Analyse r->in against the SLIT given, or the one recorded with it; one
 * measured here has the machine's own ACPI SLIT judged beside it.  0, or
 * PH_EXIT_USAGE after one line on stderr.
 */
static int analyse(struct ph_slit_study *r)
{
	const struct ph_input *in = &r->in;
	struct ph_slit_job *job = &r->job;
	char err[512];

	memset(job, 0, sizeof(*job));
	if (r->given.slit)
		r->slit_from = xstrdup(r->given.from);
	else if (in->slit)
		r->slit_from = xasprintf("%s (distances recorded with the measurement)", r->label);
	job->m = in->m;
	job->input = r->label;
	job->figure = in->figure;
	job->source = in->source;
	job->latency = in->latency;
	job->read_bw = in->read_bw;
	job->slit = r->given.slit ? r->given.slit : in->slit;
	job->slit_from = r->slit_from;
	job->hmat = in->hmat;
	job->nhmat = in->nhmat;
	job->ci_not_met = in->ci_not_met;
	job->opts = r->p->opts;
	/* Tables for another machine's input do not take this machine's IDs. */
	r->elsewhere = r->this_machine ? NULL : not_here(in->host);
	if (r->this_machine) {
		/* Whether the distances recorded are the firmware's or Linux's defaults. */
		job->fw_path = PH_ACPI_SLIT_PATH;
		job->fw_err = acpi_slit_read(job->fw_path, &r->fw, r->fw_why, sizeof(r->fw_why));
		job->fw_why = r->fw_why;
		job->fw = &r->fw;
	}
	if (job->slit && check_coverage(in, job->slit, r->slit_from))
		return PH_EXIT_USAGE;
	if (slit_analyse(job, &r->a, err, sizeof(err))) {
		ph_err("%s", err);
		return PH_EXIT_USAGE;
	}
	r->state = SLIT_ANALYSED;
	return 0;
}

/*
 * The report of the analysis, and the ACPI source and hwloc XML, each
 * rendered and staged beside its target first: a run that fails writes
 * none.
 */
struct ph_doc *slit_study_document(struct ph_slit_study *r, int *rc)
{
	const struct ph_slit_plan *p = r->p;
	const struct ph_slit_job *job = &r->job;
	const struct ph_analysis *a = &r->a;
	const struct ph_slit *slit = a->slit_default ? a->slit_default : job->slit;
	struct ph_acpi_out acpi = p->acpi, hmat_acpi = p->hmat_acpi;
	struct ph_outset set = { 0 };
	struct ph_doc *doc;
	const char *failed = NULL;
	char why[256];
	int out_rc = 0;

	if (r->state != SLIT_ANALYSED)
		return single_node_doc(r);
	doc = doc_new("slit");
	/* The OEM options name the fields of both tables written. */
	hmat_acpi.oem_id = acpi.oem_id;
	hmat_acpi.oem_table_id = acpi.oem_table_id;
	hmat_acpi.have_rev = acpi.have_rev;
	hmat_acpi.rev = acpi.rev;
	acpi.elsewhere = hmat_acpi.elsewhere = r->elsewhere;
	acpi.prov = &r->in.acpi[PH_PROV_SLIT];
	hmat_acpi.prov = &r->in.acpi[PH_PROV_HMAT];
	if (r->in.note)
		doc_note(doc, "%s", r->in.note);
	slit_report(job, a, doc);
	kernel_report(doc, slit, &a->prop, job->m);
	hmat_add(doc, &r->hmat, job, slit);
	tiers_add(doc, &r->hmat, job, slit, &a->prop, p, r->this_machine, r->in.host);
	/* A table written from cells without the evidence says so where it is reported. */
	if (a->verdict == PH_VERDICT_CANNOT_TELL && (p->acpi.path || p->hmat_acpi.path))
		doc_note(doc, "%s%s%s: the table written rests on %d cell%s without the evidence for a verdict (lacking_evidence); measure longer (--time) before flashing it",
			 p->acpi.path ? "--emit-acpi" : "", p->acpi.path && p->hmat_acpi.path ? " and " : "",
			 p->hmat_acpi.path ? "--emit-hmat" : "", a->nlacking, a->nlacking == 1 ? "" : "s");
	if ((acpi.path && slit_emit_acpi(&acpi, job->figure, job->input, &a->prop, doc, &set)) ||
	    (hmat_acpi.path && hmat_emit(&hmat_acpi, &r->hmat, job, doc, &set)) ||
	    (p->hwloc && hwloc_add(p->hwloc, job, r->this_machine, r->in.packages, doc, &set))) {
		out_rc = PH_EXIT_USAGE;
	} else if (outset_commit(&set, &failed, why, sizeof(why))) {
		ph_err("%s: %s; %s", failed, why,
		       set.n > 1 ? "the outputs before it in the order written are in place, the others are not" : "nothing written");
		out_rc = PH_EXIT_FAIL;
	}
	outset_discard(&set);
	if (out_rc) {
		doc_free(doc);
		*rc = out_rc;
		return NULL;
	}
	/* What the input could not tell is said on stderr too, once the run reports. */
	if (r->in.note)
		ph_warn("%s", r->in.note);
	*rc = *rc ? *rc : verdict_exit(a->verdict);
	return doc;
}

int slit_study_plan(struct ph_slit_study *r, struct ph_session *s)
{
	const struct ph_slit_plan *p = r->p;
	struct ph_mx *mx = &r->mx;
	char err[512];
	int rc;

	if (p->input) {
		r->label = input_name(p->input);
		if (input_load(p->input, p->fig, &r->in, err, sizeof(err)) ||
		    input_orient(&r->in, p->orient, r->label, err, sizeof(err))) {
			ph_err("%s", err);
			return PH_EXIT_USAGE;
		}
	}
	/* A --slit or --hmat-table that cannot be read is said before measuring, not after. */
	rc = given_load(p->slit, &r->given);
	if (!rc)
		rc = hmat_load(p->hmat_table, !p->input, &r->hmat);
	if (rc || p->input)
		return rc;
	if (s->m.topo.nnodes <= 1)
		return single_node(r, &s->m.topo);
	/* Latency and read bandwidth of every node pair, as "pagehop matrix" measures them. */
	mx->figures = MX_LATENCY | MX_READ | (p->fig == PH_FIGURE_TRIAD ? MX_TRIAD : 0);
	chase_parse("random", &mx->pattern);
	mx->pattern.seed = 1;
	mx->lat_size = mx->bw_size = s->opt->size;
	mx->bw_threads = s->opt->bind.threads;
	rc = matrix_plan(mx, &s->m.topo, NULL, 0, NULL, NULL);
	if (rc)
		return rc;
	mx->psize = s->opt->psize_given ? s->opt->bufreq.psize : matrix_default_psize(mx, s);
	r->state = SLIT_MEASURING;
	return 0;
}

int slit_study_measure(struct ph_slit_study *r, struct ph_session *s)
{
	const struct ph_slit_plan *p = r->p;
	int rc;

	if (p->input)
		return analyse(r);
	if (r->state != SLIT_MEASURING)
		return 0;	/* one node: nothing to measure */
	rc = matrix_measure(&r->mx, s, r->on_cell, r->cell_ctx);
	r->state = SLIT_NONE;
	if (r->mx.interrupted) {
		ph_err("interrupted after %d of %d cells: nothing to compare%s%s", r->mx.done, r->mx.total,
		       p->save ? "; what was measured is in " : "", p->save ? p->save : "");
		return PH_EXIT_INTERRUPTED;
	}
	if (rc)
		return rc;
	/* The measurement, straight from the engine: no file in between. */
	r->label = p->save && strcmp(p->save, "-") ? p->save : "measured by this run (pagehop matrix)";
	r->this_machine = true;
	/* The command refuses --metric distance here; every other figure was measured. */
	if (matrix_input(&r->mx, &s->m.topo, p->fig, &r->in)) {
		ph_err("internal error: the figure asked for was not measured");
		return PH_EXIT_FAIL;
	}
	return analyse(r);
}

bool slit_study_reported(const struct ph_slit_study *r)
{
	return r->state == SLIT_ANALYSED || r->state == SLIT_ONE_NODE;
}

void slit_study_free(struct ph_slit_study *r)
{
	if (!r)
		return;
	if (r->state == SLIT_ANALYSED)
		analysis_free(&r->a);
	acpi_slit_free(&r->fw);
	free(r->slit_from);
	free(r->elsewhere);
	input_free(&r->in);
	acpi_hmat_free(&r->hmat.t);
	matrix_free(&r->mx);
	given_free(&r->given);
	free(r);
}
