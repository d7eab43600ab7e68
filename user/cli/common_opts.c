// SPDX-License-Identifier: GPL-2.0-only
/*
 * common_opts.c - the handler of the options several commands share: each
 * value checked and put where the engines read it, in the run context.
 */
#include "common_opts.h"
#include "dist.h"
#include "cli.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/*
 * --plot: the name's form and a place it can be written to, checked before
 * anything is measured; without gnuplot the run goes on and its document
 * says why nothing was drawn.
 */
static int parse_plot(struct ph_options *opt, const char *arg)
{
	char why[256];

	if (plot_check_name(arg, why, sizeof(why))) {
		ph_err("--plot %s: %s", arg, why);
		return -1;
	}
	if (cli_check_output("--plot", arg))
		return -1;
	opt->plot = arg;
	free(opt->plot_skipped);
	opt->plot_skipped = NULL;
	if (!plot_available(PLOT_GNUPLOT, why, sizeof(why))) {
		ph_warn("--plot: %s; measuring without the plot", why);
		opt->plot_skipped = xstrdup(why);
		opt->plot = NULL;
	}
	return 1;
}

static int parse_common(struct ph_options *opt, int c, const char *arg)
{
	unsigned u;
	double d;

	switch (c) {
	case OPT_SIZE:
		if (cli_parse_size("--size", arg, &opt->size))
			return -1;
		opt->size_given = true;
		return 1;
	case OPT_PAGE_SIZE:
		if (psize_parse(arg, &opt->bufreq.psize)) {
			ph_err("--page-size: unknown page size '%s'; expected 4k, 2m, 1g or thp", arg);
			return -1;
		}
		opt->psize_given = true;
		return 1;
	case OPT_BACKEND:
		if (backend_parse(arg, &opt->bufreq.backend)) {
			ph_err("--backend: unknown backend '%s'; expected auto, kmod, hugetlb or anon", arg);
			return -1;
		}
		return 1;
	case OPT_MEMBIND:
		return cli_parse_nodes("--membind", arg, &opt->bind.membind) ? -1 : 1;
	case OPT_INTERLEAVE:
		if (cli_parse_nodes("--interleave", arg, &opt->bind.interleave))
			return -1;
		opt->bufreq.interleave = opt->bind.interleave;
		return 1;
	case OPT_CPUNODEBIND:
		return cli_parse_nodes("--cpunodebind", arg, &opt->bind.cpunodebind) ? -1 : 1;
	case OPT_PHYSCPUBIND:
		return cli_parse_cpus("--physcpubind", arg, &opt->bind.physcpubind) ? -1 : 1;
	case OPT_THREADS:
		if (cli_parse_uint("--threads", arg, 1, 4096, &u))
			return -1;
		opt->bind.threads = u;
		return 1;
	case OPT_TIME:
		if (cli_parse_double("--time", arg, 0.001, 86400, &d))
			return -1;
		opt->mcfg.time_s = d;
		return 1;
	case OPT_CI:
		if (cli_parse_double("--ci", arg, 0.001, 100, &d))
			return -1;
		opt->mcfg.ci_target = d / 100;
		return 1;
	case OPT_ALLOW_UNVERIFIED:
		opt->allow_unverified = true;
		return 1;
	case OPT_RESERVE:
		opt->bufreq.reserve = true;
		return 1;
	case OPT_FORMAT:
		return cli_parse_format("--format", arg, &opt->fmt) ? -1 : 1;
	case OPT_VERBOSE:
		if (opt->fmt == PH_FMT_TABLE)
			opt->fmt = PH_FMT_TABLE_VERBOSE;
		return 1;
	case OPT_PLOT:
		return parse_plot(opt, arg);
	case OPT_PROGRESS:
	case OPT_QUIET:
		common_progress_option(c, &opt->progress);
		return 1;
	default:
		return 0;
	}
}

int common_option(struct ph_options *opt, const struct ph_opt *o, const char *arg)
{
	int h;

	if (o->id < OPT_SIZE || o->id >= OPT_COMMON_END)
		return 1;
	h = parse_common(opt, o->id, arg);
	return h < 0 ? -EINVAL : h ? 0 : 1;
}

int common_dist_option(struct ph_distreq *req, int id, const char *arg)
{
	char why[160];
	int n;

	if (id == OPT_HISTOGRAM) {
		req->histogram = true;
		req->want = true;
		return 0;
	}
	n = dist_parse_percentiles(arg ? arg : dist_default_percentiles, req->pcts, DIST_MAX_PCTS,
				   why, sizeof(why));
	if (n < 0) {
		ph_err("--percentiles: %s", why);
		return -EINVAL;
	}
	req->npcts = n;
	req->want = true;
	return 0;
}

int common_tail_option(struct ph_distreq *req, int id, const char *arg)
{
	int rc;

	/* The list is bare --percentiles' until a --percentiles, in either order, gives one. */
	if (id == OPT_HISTOGRAM) {
		rc = req->npcts ? 0 : common_tail_option(req, OPT_PERCENTILES, NULL);
		return rc ? rc : common_dist_option(req, id, NULL);
	}
	rc = common_dist_option(req, OPT_PERCENTILES, arg ? arg : "99");
	if (rc)
		return rc;
	if (req->pcts[req->npcts - 1] <= 50) {
		ph_err("--percentiles: %s: a tail is a percentile above 50 (the median is the figure itself)", arg);
		return -EINVAL;
	}
	if (req->pcts[req->npcts - 1] >= 100) {
		ph_err("--percentiles: %s: 100 is the largest run, which has no CI: a tail is below 100", arg);
		return -EINVAL;
	}
	return 0;
}

void common_dist_finish(struct ph_distreq *req)
{
	if (req->want && !req->npcts)
		req->npcts = dist_parse_percentiles(dist_default_percentiles, req->pcts,
						    DIST_MAX_PCTS, NULL, 0);
}

int common_format_option(const struct ph_opt *o, const char *arg, enum ph_format *fmt)
{
	switch (o->id) {
	case OPT_FORMAT:
		return cli_parse_format("--format", arg, fmt);
	case OPT_VERBOSE:
		if (*fmt == PH_FMT_TABLE)
			*fmt = PH_FMT_TABLE_VERBOSE;
		return 0;
	}
	return 1;
}

int common_progress_option(int id, enum ph_progress_mode *mode)
{
	if (id != OPT_PROGRESS && id != OPT_QUIET)
		return 1;
	*mode = id == OPT_QUIET ? PH_PROGRESS_OFF : PH_PROGRESS_LOG;
	return 0;
}

int common_study_option(struct common_study *c, const struct ph_opt *o, const char *arg)
{
	switch (o->id) {
	case OPT_STUDY_KERNEL:
		c->kernel = arg;
		return 0;
	case OPT_STUDY_ISA:
		return common_parse_isa(arg, &c->isa);
	case OPT_STUDY_NT:
		c->nt = true;
		return 0;
	case OPT_STUDY_PLACEMENT:
		return common_parse_placement(arg, &c->place);
	case OPT_STUDY_SIZE_PER_THREAD:
		return cli_parse_size("--size-per-thread", arg, &c->size_per_thread);
	}
	return 1;
}

int common_one_kernel(struct ph_bwstudy *plan, const struct common_study *c)
{
	const char *missing = NULL, *kernel = c->kernel;
	enum ph_isa isa = c->isa;
	bool nt = c->nt;
	int err = bandwidth_study_plan(plan, &kernel, 1, isa, nt, &missing);

	if (err == -EOPNOTSUPP) {
		ph_err("--isa %s: this CPU (or the OS) does not support it; the widest here is %s",
		       isa_name(isa), isa_name(isa_best()));
		return PH_EXIT_UNSUPPORTED;
	}
	if (err) {
		ph_err("--kernel %s: no such kernel%s; expected %s", kernel, nt ? " with --nt" : "",
		       stream_op_list());
		return PH_EXIT_USAGE;
	}
	return 0;
}

int common_parse_isa(const char *arg, enum ph_isa *isa)
{
	if (!isa_parse(arg, isa))
		return 0;
	ph_err("--isa: unknown ISA '%s'; expected auto, %s", arg, isa_name_list());
	return -EINVAL;
}

int common_parse_placement(const char *arg, enum ph_place *place)
{
	if (!place_parse(arg, place))
		return 0;
	ph_err("--placement: unknown placement '%s'; expected %s", arg, place_list());
	return -EINVAL;
}

int common_parse_kernels(const char *arg, const char ***out, int *n)
{
	char *copy, *save = NULL;
	int count = 0;

	if (cli_check_list("--kernel", arg, "kernels separated by commas, e.g. copy,triad"))
		return -EINVAL;
	copy = xstrdup(arg);
	free(*out);
	*out = NULL;
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		const char *name = NULL;

		for (size_t i = 0; i < stream_nops && !name; i++)
			if (!strcmp(stream_ops[i].name, tok))
				name = stream_ops[i].name;
		if (!name) {
			ph_err("--kernel: unknown kernel '%s'; expected %s", tok, stream_op_list());
			free(copy);
			return -EINVAL;
		}
		*out = xrealloc(*out, (size_t)(count + 1) * sizeof(**out));
		(*out)[count++] = name;
	}
	free(copy);
	if (!count) {
		ph_err("--kernel: empty; expected %s", stream_op_list());
		return -EINVAL;
	}
	*n = count;
	return 0;
}
