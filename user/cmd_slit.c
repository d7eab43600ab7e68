// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_slit.c - "pagehop slit": compare a measured node matrix with the SLIT
 * and HMAT, and propose a SLIT.  Options and inputs here; the arithmetic in
 * distance.c, the readers in read_*.c, the report in slit_report.c,
 * the ACPI source in acpi_slit.c.  docs/slit.md explains the method.
 */
#include "acpi_slit.h"
#include "cli.h"
#include "commands.h"
#include "distance.h"
#include "matrix.h"
#include "matrix_doc.h"
#include "read_input.h"
#include "read_numactl.h"
#include "session.h"
#include "output.h"
#include "readfile.h"
#include "slit_report.h"
#include "topology.h"
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void slit_usage(void)
{
	printf("usage: pagehop slit --input FILE [--slit FILE] [--metric WHICH]\n"
	       "                    [--tolerance PCT] [--noise PCT] [--emit-acpi FILE]\n"
	       "                    [--oem-id ID] [--oem-table-id ID] [--oem-revision N]\n"
	       "                    [--slit-table FILE] [--format table|csv|json]\n"
	       "\n"
	       "Compare a measured NUMA matrix (rows: CPU node, columns: memory node) with\n"
	       "the firmware's SLIT and HMAT: distance levels, ordering, magnitude,\n"
	       "asymmetry, a per-hop model, and a proposed SLIT.  Method: docs/slit.md.\n"
	       "\n"
	       "  -i, --input FILE      pagehop's JSON (pagehop matrix --format json) or CSV:\n"
	       "                        '# pagehop matrix', '# metric: latency_ns|bandwidth_GBps|\n"
	       "                        distance', 'node,<ids>', one row per CPU node\n"
	       "  -s, --slit FILE       the SLIT: numactl --hardware output as is (default:\n"
	       "                        the distances recorded with the input).\n"
	       "                        One Linux would ignore (diagonal not 10, or another\n"
	       "                        entry 10 or less) is not compared: Linux's 10 local,\n"
	       "                        20 remote are, and the verdict says why (slit_linux)\n"
	       "                        Either FILE may be - for standard input; otherwise a\n"
	       "                        regular text file of at most 16 MiB (docs: pagehop(1))\n"
	       "  -m, --metric WHICH    latency, bandwidth, read, triad or distance: the figure\n"
	       "                        of the input to analyse (default latency if present,\n"
	       "                        else read, else triad bandwidth)\n"
	       "  -t, --tolerance PCT   magnitude tolerance against the SLIT, and SLIT values\n"
	       "                        this close form one level (default %g)\n"
	       "  -n, --noise PCT       uncertainty assumed for each measured value where its\n"
	       "                        CI is narrower or absent (default %g)\n"
	       "  -e, --emit-acpi FILE  write the proposed SLIT as iasl source (iasl FILE)\n"
	       "      --oem-id ID       OEM ID for it (default: from the SLIT table)\n"
	       "      --oem-table-id ID OEM table ID (default: from the SLIT table)\n"
	       "      --oem-revision N  OEM revision (default: the table's plus one)\n"
	       "      --slit-table FILE the binary SLIT to take them from\n"
	       "                        (default " PH_ACPI_SLIT_PATH ")\n"
	       "  -f, --format FMT      table (default), csv or json\n"
	       "  -h, --help            this text\n"
	       "\n"
	       "Without --input, measures this machine first, as 'pagehop matrix' does\n"
	       "(latency and read bandwidth; on one node there is nothing to compare):\n"
	       "      --save FILE       keep the measurement (pagehop's JSON) in FILE\n"
	       "      --time S, --ci PCT, --size SIZE, --page-size 4k|2m|1g|thp,\n"
	       "      --backend B, --threads N, --reserve, --allow-unverified\n"
	       "                        as for 'pagehop matrix'\n"
	       "Exit status: 0 consistent (or nothing to compare), 1 inconsistent (ordering\n"
	       "violations or a level mismatch), 3 in order but outside the tolerance,\n"
	       "2 bad usage or input.\n",
	       PH_DEFAULT_TOLERANCE * 100, PH_DEFAULT_NOISE * 100);
}

/* ---- ACPI emission ---- */

struct acpi_opts {
	const char *path;
	const char *oem_id, *oem_table_id, *table;
	bool table_given;	/* --slit-table, rather than this machine's */
	bool have_rev;
	uint32_t rev;
};

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

/* Resolve the header fields; 0, or -EINVAL after printing one line. */
static int acpi_ids(const struct acpi_opts *o, struct ph_acpi_ids *ids, char *from,
		    size_t fromlen, uint32_t *table_rev, bool *have_table)
{
	struct ph_acpi_header h;
	const char *kind;
	int err = 0;

	*have_table = false;
	memset(ids, 0, sizeof(*ids));
	memset(&h, 0, sizeof(h));
	/* Read even when every field is given: its revision is worth comparing. */
	err = slit_table_header(o->table, &h, &kind);
	if (kind) {
		ph_err("--slit-table %s: %s; expected a regular file, the SLIT as %s holds it",
		       o->table, kind, PH_ACPI_SLIT_PATH);
		return -EINVAL;
	}
	if (!err) {
		if (memcmp(h.signature, "SLIT", 4)) {
			ph_err("--emit-acpi: %s is a '%s' table; expected a SLIT", o->table, h.signature);
			return -EINVAL;
		}
		*have_table = true;
		*table_rev = h.oem_revision;
	} else if (!o->oem_id || !o->oem_table_id) {
		ph_err("--emit-acpi: cannot read the OEM IDs from %s (%s); give --oem-id and --oem-table-id",
		       o->table, err == -ENOENT && !o->table_given ? "no SLIT on this machine"
			       : err == -EINVAL ? "shorter than an ACPI header" : strerror(-err));
		return -EINVAL;
	}
	if (o->oem_id)
		snprintf(ids->oem_id, sizeof(ids->oem_id), "%s", o->oem_id);
	else if (!acpi_id_to_string(h.oem_id, 6, ids->oem_id, sizeof(ids->oem_id))) {
		ph_err("--emit-acpi: the OEM ID in %s cannot be written in iasl's syntax; give --oem-id", o->table);
		return -EINVAL;
	}
	if (o->oem_table_id)
		snprintf(ids->oem_table_id, sizeof(ids->oem_table_id), "%s", o->oem_table_id);
	else if (!acpi_id_to_string(h.oem_table_id, 8, ids->oem_table_id, sizeof(ids->oem_table_id))) {
		ph_err("--emit-acpi: the OEM table ID in %s cannot be written in iasl's syntax; give --oem-table-id", o->table);
		return -EINVAL;
	}
	if (o->have_rev) {
		ids->oem_revision = o->rev;
	} else if (*have_table) {
		if (h.oem_revision == UINT32_MAX) {
			ph_err("--emit-acpi: the OEM revision in %s is 0xFFFFFFFF and cannot be raised; give --oem-revision", o->table);
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

static int emit_acpi(const struct acpi_opts *o, const struct ph_slit_job *job,
		     const struct ph_analysis *a, struct ph_doc *doc)
{
	const struct ph_proposal *p = &a->prop;
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
	if (acpi_ids(o, &ids, from, sizeof(from), &table_rev, &have_table))
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
			    job->figure, job->input, from,
			    have_table && !o->have_rev ? ", OEM revision raised by one" : "", layout,
			    o->path);
	text = acpi_slit_source(&ids, p->n, p->dist, comment);
	err = write_file_atomic(o->path, text, strlen(text), why, sizeof(why));
	free(comment);
	free(text);
	free(layout);
	if (err) {
		ph_err("--emit-acpi %s: %s", o->path, why);
		return -EINVAL;
	}
	s = doc_add_section(doc, "acpi", "ACPI SLIT source written");
	section_str(s, "file", o->path);
	section_str(s, "oem_id", ids.oem_id);
	section_str(s, "oem_table_id", ids.oem_table_id);
	section_int(s, "oem_revision", ids.oem_revision);
	section_str(s, "ids_from", from);
	if (have_table)
		section_int(s, "firmware_oem_revision", table_rev);
	section_int(s, "localities", p->n);
	if (have_table && ids.oem_revision <= table_rev)
		doc_note(doc, "--oem-revision %u is not above the firmware's %u: the kernel's table upgrade will ignore the table",
			 ids.oem_revision, table_rev);
	if (!have_table)
		doc_note(doc, "this machine has no SLIT: the kernel installs the initrd's as a new table, whatever its OEM IDs");
	return 0;
}

/* ---- the command ---- */

static int single_node(enum ph_format fmt, const struct ph_topology *t, bool numa,
		       bool emit, const char *save)
{
	struct ph_doc *doc = doc_new("slit");
	struct ph_section *s = doc_add_section(doc, "verdict", "verdict");
	int err;

	section_str(s, "status", "nothing to compare");
	section_int(s, "exit_code", PH_EXIT_OK);
	section_str(s, "summary", numa
		    ? "nothing to compare on a single node: its memory is local to all its CPUs, and the SLIT has one entry, 10"
		    : "nothing to compare on a single node: this kernel has no NUMA support, so there is one node and no SLIT");
	section_int(s, "nodes", numa ? t->nnodes : 1);
	if (numa && t->nnodes == 1)
		section_int(s, "slit_0_0", t->distance[0]);
	if (emit)
		doc_note(doc, "--emit-acpi: nothing written; a SLIT of one node has nothing to propose");
	if (save)
		doc_note(doc, "--save %s: nothing written; on a single node nothing is measured", save);
	err = doc_render(doc, fmt, stdout);
	doc_free(doc);
	/* A write error is said once, by main. */
	return err ? PH_EXIT_FAIL : PH_EXIT_OK;
}

/* Every measured node must be in the SLIT, or the comparison is of two machines. */
static int check_coverage(const struct ph_nmatrix *m, const struct ph_slit *s,
			  const char *from)
{
	for (int i = 0; i < m->nrows + m->ncols; i++) {
		int id = i < m->nrows ? m->row_ids[i] : m->col_ids[i - m->nrows];

		if (slit_at(s, id, id) < 0) {
			ph_err("%s: has no node %d, which the measurement has; expected the SLIT of the measured machine",
			       from, id);
			return -EINVAL;
		}
	}
	return 0;
}

static int parse_revision(const char *arg, uint32_t *out)
{
	uint64_t v;

	if (parse_u64(arg, true, &v) || v > UINT32_MAX) {
		ph_err("--oem-revision: invalid number '%s'; expected 0 to 4294967295 (or 0x hex)", arg);
		return -EINVAL;
	}
	*out = (uint32_t)v;
	return 0;
}

enum {
	OPT_OEM_ID = 256,
	OPT_OEM_TABLE_ID,
	OPT_OEM_REVISION,
	OPT_SLIT_TABLE,
	OPT_SAVE,
};

/*
 * Analyse in (label is how the report names it) against the SLIT of
 * slit_path or the one recorded with it.  this_machine: in was measured
 * here, so the machine's own ACPI SLIT is judged beside it.
 */
static int analyse_input(const struct ph_input *in, const char *label, const char *slit_path,
			 double tol, double noise, struct acpi_opts *aop, enum ph_format fmt,
			 bool this_machine)
{
	struct acpi_opts ao = *aop;
	struct ph_slit *given = NULL;
	struct ph_slit_job job;
	struct ph_analysis a;
	struct ph_acpi_slit fw;
	struct ph_doc *doc;
	char err[512], fw_why[256], *slit_from = NULL;
	int c, ret;

	if (slit_path) {
		if (slit_load_numactl(slit_path, &given, err, sizeof(err))) {
			ph_err("%s", err);
			return PH_EXIT_USAGE;
		}
		slit_from = xasprintf("%s (numactl --hardware)",
				      strcmp(slit_path, "-") ? slit_path : "<stdin>");
	} else if (in->slit) {
		slit_from = xasprintf("%s (distances recorded with the measurement)", label);
	}
	memset(&job, 0, sizeof(job));
	job.m = in->m;
	job.input = label;
	job.figure = in->figure;
	job.source = in->source;
	job.latency = in->latency;
	job.read_bw = in->read_bw;
	job.slit = given ? given : in->slit;
	job.slit_from = slit_from;
	job.hmat = in->hmat;
	job.nhmat = in->nhmat;
	job.ci_not_met = in->ci_not_met;
	job.opts.tolerance = tol / 100;
	job.opts.noise = noise / 100;
	memset(&fw, 0, sizeof(fw));
	if (this_machine) {
		/* Whether the distances recorded are the firmware's or Linux's defaults. */
		job.fw_path = PH_ACPI_SLIT_PATH;
		job.fw_err = acpi_slit_read(job.fw_path, &fw, fw_why, sizeof(fw_why));
		job.fw_why = fw_why;
		job.fw = &fw;
	}

	ret = PH_EXIT_USAGE;
	if (job.slit && check_coverage(job.m, job.slit, slit_from))
		goto out_input;
	if (slit_analyse(&job, &a, err, sizeof(err))) {
		ph_err("%s", err);
		goto out_input;
	}
	doc = doc_new("slit");
	slit_report(&job, &a, doc);
	if (ao.path && emit_acpi(&ao, &job, &a, doc))
		goto out_doc;
	c = doc_render(doc, fmt, stdout);
	if (c) {
		ret = PH_EXIT_FAIL;	/* said by main */
		goto out_doc;
	}
	ret = verdict_exit(a.verdict);
out_doc:
	doc_free(doc);
	analysis_free(&a);
out_input:
	acpi_slit_free(&fw);
	slit_free(given);
	free(slit_from);
	return ret;
}

/* Analyse a saved matrix: pagehop's JSON or CSV at input. */
static int analyse_file(const char *input, enum ph_figure fig, const char *slit_path,
			double tol, double noise, struct acpi_opts *ao, enum ph_format fmt)
{
	struct ph_input in;
	char err[512];
	int rc;

	if (input_load(input, fig, &in, err, sizeof(err))) {
		ph_err("%s", err);
		return PH_EXIT_USAGE;
	}
	rc = analyse_input(&in, strcmp(input, "-") ? input : "<stdin>", slit_path, tol, noise,
			   ao, fmt, false);
	input_free(&in);
	return rc;
}

/*
 * Without --input: measure this machine as "pagehop matrix" does (latency
 * and read bandwidth, so that HMAT's figures can be compared too), saving
 * the document with --save, and analyse the measurement as --input would
 * analyse that file.
 */
static int online(struct ph_session *s, const char *save, enum ph_figure fig,
		  const char *slit_path, double tol, double noise,
		  struct acpi_opts *ao, bool psize_given)
{
	struct ph_mx mx = { 0 };
	struct ph_mx_save saver = { .path = save, .s = s };
	struct ph_input in;
	int rc;

	rc = session_machine(s);
	if (rc == PH_EXIT_UNSUPPORTED)
		return single_node(s->fmt, NULL, false, ao->path != NULL, save);
	if (rc)
		return rc;
	if (s->topo.nnodes <= 1)
		return single_node(s->fmt, &s->topo, true, ao->path != NULL, save);
	mx.figures = MX_LATENCY | MX_READ | (fig == PH_FIGURE_TRIAD ? MX_TRIAD : 0);
	chase_parse("random", &mx.pattern);
	mx.pattern.seed = 1;
	mx.lat_size = mx.bw_size = s->size;
	mx.bw_threads = s->bind.threads;
	s->bind.threads = 0;
	rc = matrix_plan(&mx, &s->topo, NULL, NULL, NULL);
	if (rc)
		goto out;
	if (!psize_given)
		s->bufreq.psize = matrix_default_psize(&mx, s);
	runner_catch_sigint();
	rc = matrix_measure(&mx, s, save ? matrix_save_cell : NULL, &saver);
	if (mx.interrupted) {
		ph_err("interrupted after %d of %d cells: nothing to compare%s%s", mx.done, mx.total,
		       save ? "; what was measured is in " : "", save ? save : "");
		rc = PH_EXIT_INTERRUPTED;
		goto out;
	}
	if (rc)
		goto out;
	if (matrix_input(&mx, &s->topo, fig, &in)) {
		ph_err("--metric distance: only for a CSV --input, a matrix already normalised; measuring gives latency, read and triad");
		rc = PH_EXIT_USAGE;
		goto out;
	}
	rc = analyse_input(&in, save && strcmp(save, "-") ? save : "measured by this run (pagehop matrix)",
			   slit_path, tol, noise, ao, s->fmt, true);
	input_free(&in);
out:
	matrix_free(&mx);
	return rc;
}

int cmd_slit(int argc, char *argv[])
{
	static const struct option opts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "slit", required_argument, NULL, 's' },
		{ "metric", required_argument, NULL, 'm' },
		{ "tolerance", required_argument, NULL, 't' },
		{ "noise", required_argument, NULL, 'n' },
		{ "emit-acpi", required_argument, NULL, 'e' },
		{ "oem-id", required_argument, NULL, OPT_OEM_ID },
		{ "oem-table-id", required_argument, NULL, OPT_OEM_TABLE_ID },
		{ "oem-revision", required_argument, NULL, OPT_OEM_REVISION },
		{ "slit-table", required_argument, NULL, OPT_SLIT_TABLE },
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		/* measuring (no --input) */
		{ "save", required_argument, NULL, OPT_SAVE },
		{ "time", required_argument, NULL, OPT_TIME },
		{ "ci", required_argument, NULL, OPT_CI },
		{ "size", required_argument, NULL, OPT_SIZE },
		{ "page-size", required_argument, NULL, OPT_PAGE_SIZE },
		{ "backend", required_argument, NULL, OPT_BACKEND },
		{ "threads", required_argument, NULL, OPT_THREADS },
		{ "reserve", no_argument, NULL, OPT_RESERVE },
		{ "allow-unverified", no_argument, NULL, OPT_ALLOW_UNVERIFIED },
		{ NULL, 0, NULL, 0 },
	};
	enum ph_format fmt = PH_FMT_TABLE;
	struct ph_session sess;
	const char *save = NULL;
	bool measuring_opt = false, psize_given = false;
	enum ph_figure fig = PH_FIGURE_DEFAULT;
	const char *input = NULL, *slit_path = NULL;
	struct acpi_opts ao = { .table = PH_ACPI_SLIT_PATH };
	double tol = PH_DEFAULT_TOLERANCE * 100, noise = PH_DEFAULT_NOISE * 100;
	int c;

	session_init(&sess, GiB);
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":i:s:m:t:n:e:f:h", opts, NULL)) != -1) {
		int h;

		if (c >= OPT_SIZE && c < OPT_COMMON_END) {
			h = session_parse_option(&sess, c, optarg);
			if (h < 0) {
				session_free(&sess);
				return PH_EXIT_USAGE;
			}
			measuring_opt = true;
			psize_given |= c == OPT_PAGE_SIZE;
			continue;
		}
		switch (c) {
		case OPT_SAVE:
			save = optarg;
			measuring_opt = true;
			break;
		case 'i':
			input = optarg;
			break;
		case 's':
			slit_path = optarg;
			break;
		case 'm':
			if (figure_parse(optarg, &fig)) {
				ph_err("--metric: unknown figure '%s'; expected latency, bandwidth, read, triad or distance",
				       optarg);
				return PH_EXIT_USAGE;
			}
			break;
		case 't':
			if (cli_parse_double("--tolerance", optarg, 0, 1000, &tol))
				return PH_EXIT_USAGE;
			break;
		case 'n':
			if (cli_parse_double("--noise", optarg, 0, 50, &noise))
				return PH_EXIT_USAGE;
			break;
		case 'e':
			ao.path = optarg;
			break;
		case OPT_OEM_ID:
			if (!acpi_id_valid(optarg, 6)) {
				ph_err("--oem-id: '%s'; expected 1 to 6 printable ASCII characters, no '\"'", optarg);
				return PH_EXIT_USAGE;
			}
			ao.oem_id = optarg;
			break;
		case OPT_OEM_TABLE_ID:
			if (!acpi_id_valid(optarg, 8)) {
				ph_err("--oem-table-id: '%s'; expected 1 to 8 printable ASCII characters, no '\"'", optarg);
				return PH_EXIT_USAGE;
			}
			ao.oem_table_id = optarg;
			break;
		case OPT_OEM_REVISION:
			if (parse_revision(optarg, &ao.rev))
				return PH_EXIT_USAGE;
			ao.have_rev = true;
			break;
		case OPT_SLIT_TABLE:
			ao.table = optarg;
			ao.table_given = true;
			break;
		case 'f':
			if (cli_parse_format("--format", optarg, &fmt))
				return PH_EXIT_USAGE;
			break;
		case 'h':
			slit_usage();
			return PH_EXIT_OK;
		default:
			cli_option_error(c, argv, opts);
			return PH_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		ph_err("unexpected argument '%s'; see 'pagehop slit --help'", argv[optind]);
		return PH_EXIT_USAGE;
	}
	if (!ao.path && (ao.oem_id || ao.oem_table_id || ao.have_rev || ao.table_given)) {
		ph_err("--oem-id, --oem-table-id, --oem-revision and --slit-table only go with --emit-acpi FILE");
		return PH_EXIT_USAGE;
	}
	if (input && slit_path && !strcmp(input, "-") && !strcmp(slit_path, "-")) {
		ph_err("--input - and --slit -: standard input can be only one of them; give the other as a file");
		session_free(&sess);
		return PH_EXIT_USAGE;
	}
	if (input && measuring_opt) {
		ph_err("--save, --time, --ci, --size, --page-size, --backend, --threads, --reserve and --allow-unverified are for measuring; with --input nothing is measured");
		session_free(&sess);
		return PH_EXIT_USAGE;
	}
	/* Where the results go is checked before anything is measured or read. */
	{
		char why[256];

		if (save && output_path_check(save, why, sizeof(why))) {
			ph_err("--save %s: %s", save, why);
			session_free(&sess);
			return PH_EXIT_USAGE;
		}
		if (ao.path && output_path_check(ao.path, why, sizeof(why))) {
			ph_err("--emit-acpi %s: %s", ao.path, why);
			session_free(&sess);
			return PH_EXIT_USAGE;
		}
	}
	/* A --slit that cannot be read is said before measuring, not after. */
	if (!input && slit_path) {
		struct ph_slit *sl = NULL;
		char err[512];

		if (slit_load_numactl(slit_path, &sl, err, sizeof(err))) {
			ph_err("%s", err);
			session_free(&sess);
			return PH_EXIT_USAGE;
		}
		slit_free(sl);
	}
	if (!input) {
		sess.fmt = fmt;
		c = online(&sess, save, fig, slit_path, tol, noise, &ao, psize_given);
		session_free(&sess);
		return c;
	}
	session_free(&sess);

	return analyse_file(input, fig, slit_path, tol, noise, &ao, fmt);
}
