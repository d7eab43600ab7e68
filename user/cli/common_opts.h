/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * common_opts.h - the options several commands share, as entries of a
 * command's option declaration (optspec.h), and their handler, which fills
 * the options of the run context (struct ph_options, session.h) the engines
 * take.  The engines never see the option parser.
 */
#ifndef PAGEHOP_COMMON_OPTS_H
#define PAGEHOP_COMMON_OPTS_H

#include "cli.h"
#include "optspec.h"
#include "bandwidth.h"
#include "placement.h"
#include "onekernel.h"
#include "plot.h"
#include "session.h"
#include "latdist.h"

/* getopt_long values of the common options; commands use values below. */
enum {
	OPT_SIZE = 1000,
	OPT_PAGE_SIZE,
	OPT_BACKEND,
	OPT_MEMBIND,
	OPT_INTERLEAVE,
	OPT_CPUNODEBIND,
	OPT_PHYSCPUBIND,
	OPT_THREADS,
	OPT_TIME,
	OPT_CI,
	OPT_ALLOW_UNVERIFIED,
	OPT_RESERVE,
	OPT_FORMAT,
	OPT_VERBOSE,
	OPT_PLOT,
	OPT_HELP,
	OPT_STUDY_KERNEL,
	OPT_STUDY_ISA,
	OPT_STUDY_NT,
	OPT_STUDY_PLACEMENT,
	OPT_STUDY_SIZE_PER_THREAD,
	OPT_SAVE_DOC,		/* --save FILE: the driver's (study.h) */
	OPT_PROGRESS,
	OPT_QUIET,
	OPT_PERCENTILES,	/* the command's own: common_dist_option */
	OPT_HISTOGRAM,
	OPT_COMMON_END,
};

/*
 * The common options as entries of a command's option table (optspec.h).
 * A command lists the ones it takes, each with its default as the user
 * would write it (NULL: none, or one the command works out; then the entry
 * says how in its defdesc), and session_option() handles them.  A command
 * that means something narrower by one (matrix: --cpunodebind picks rows)
 * writes its own entry with the same id and its own help.
 */
#define PH_OPT_SIZE(def)	{ "size", 0, "SIZE", OPT_SIZE, \
	"working set, all threads together (K, M, G, T suffixes)", def, NULL }
#define PH_OPT_PAGE_SIZE(def, desc)	{ "page-size", 0, "4k|2m|1g|thp", OPT_PAGE_SIZE, \
	"page size of the measured memory", def, desc }
#define PH_OPT_BACKEND	{ "backend", 0, "auto|kmod|hugetlb|anon", OPT_BACKEND, \
	"where the memory comes from; auto: pagehop.ko if loaded\n" \
	"and able, else hugetlb for 2m/1g, else anonymous memory", "auto", NULL }
#define PH_OPT_MEMBIND	{ "membind", 0, "NODES", OPT_MEMBIND, \
	"memory on these nodes; each thread's on the member\nnearest its CPU", NULL, \
	"each thread's own node" }
#define PH_OPT_INTERLEAVE	{ "interleave", 0, "NODES", OPT_INTERLEAVE, \
	"pages round robin over these nodes", NULL, NULL }
#define PH_OPT_RESERVE	{ "reserve", 0, NULL, OPT_RESERVE, \
	"grow a node's hugetlb pool if it is short (put back\nafter; --reserve runs take turns)", NULL, NULL }
#define PH_OPT_ALLOW_UNVERIFIED	{ "allow-unverified", 0, NULL, OPT_ALLOW_UNVERIFIED, \
	"measure even if the memory is not where or what was\nasked; every row's verified column then says no", \
	NULL, NULL }
/* A latency figure's distribution (latdist.h): the command's handler calls common_dist_option. */
#define PH_OPT_PERCENTILES	{ "percentiles", 0, "[=LIST]", OPT_PERCENTILES, \
	"also the distribution of means over runs of N hops\n" \
	"(N >= 64), timer cost subtracted: these percentiles\n" \
	"(bare: 50,90,99,99.9)", NULL, NULL }
/* baseline's and check's: latency figures' tails, judged by check. */
#define PH_OPT_TAILS	{ "percentiles", 0, "[=LIST]", OPT_PERCENTILES, \
	"each latency figure's percentiles above 50 as tail\n" \
	"figures (tail_pP_...), of means over runs of N hops\n" \
	"(N >= 64), timer cost subtracted; check judges each\n" \
	"against the baseline's, a WARNING at most (bare: 99)", NULL, NULL }
#define PH_OPT_HISTOGRAM	{ "histogram", 0, NULL, OPT_HISTOGRAM, \
	"also the distribution's histogram, log-spaced buckets", NULL, NULL }
/* baseline's and check's: the tails' distribution, never judged; more help lines in more. */
#define PH_OPT_TAIL_HISTOGRAM(more)	{ "histogram", 0, NULL, OPT_HISTOGRAM, \
	"also each latency figure's distribution (the one its\n" \
	"tails come from) in log-spaced buckets, never judged;\n" \
	"without --percentiles, as bare --percentiles" more, NULL, NULL }
#define PH_OPT_CPUNODEBIND	{ "cpunodebind", 0, "NODES", OPT_CPUNODEBIND, \
	"run on the CPUs of these nodes", NULL, NULL }
#define PH_OPT_PHYSCPUBIND	{ "physcpubind", 0, "CPUS", OPT_PHYSCPUBIND, \
	"run on these CPUs", NULL, NULL }
#define PH_OPT_THREADS(desc)	{ "threads", 0, "N", OPT_THREADS, \
	"how many threads (one per CPU, distinct cores first)", NULL, desc }
#define PH_OPT_TIME(def)	{ "time", 0, "SECONDS", OPT_TIME, "budget per figure", def, NULL }
#define PH_OPT_CI(def)	{ "ci", 0, "PERCENT", OPT_CI, \
	"stop once the median's 95% CI is within this", def, NULL }
/*
 * --format and --verbose, which every command with --format takes:
 * common_option() handles them (a command that parses them itself calls
 * common_format_option()).
 */
#define PH_OPT_FORMAT	{ "format", 'f', "table|csv|json", OPT_FORMAT, "how to print the results", \
	"table", NULL }, PH_OPT_VERBOSE
#define PH_OPT_VERBOSE	{ "verbose", 0, NULL, OPT_VERBOSE, \
	"the table with every column (minimum, samples, cycles,\n" \
	"CI target met and the like), each row on one line;\n" \
	"without it the table keeps to 100 columns (CSV and\n" \
	"JSON always have every column)", NULL, NULL }

/*
 * --progress and --quiet, which every measuring command takes: what the
 * run is doing, on stderr only (progress.h).  A command run unattended
 * (check, baseline) shows nothing without --progress.
 */
#define PH_OPT_PROGRESS_DEF(desc)	{ "progress", 0, NULL, OPT_PROGRESS, \
	"say each step on stderr, one line each (for logs),\n" \
	"also when stderr is not a terminal", NULL, desc }, \
	{ "quiet", 0, NULL, OPT_QUIET, "no progress on stderr", NULL, NULL }
#define PH_OPT_PROGRESS	PH_OPT_PROGRESS_DEF("a line rewritten on stderr when it is a terminal")
#define PH_OPT_PROGRESS_UNATTENDED	PH_OPT_PROGRESS_DEF("none, even on a terminal")

/* The figure's curves and heatmaps drawn by gnuplot (report_plot). */
#define PH_OPT_PLOT	{ "plot", 0, "FILE.svg|.png", OPT_PLOT, \
	"draw the curves and heatmaps into this file\n(" PLOT_GNUPLOT ", Debian's gnuplot-nox)", NULL, NULL }

/*
 * The statistics and output groups of a command's options (optspec.h), as
 * every study shows them: --time and --ci with their defaults; --format
 * and --verbose, and with _PLOT --plot too.
 */
#define PH_GROUP_STATISTICS(time, ci)	{ "statistics", \
	(const struct ph_opt[]){ PH_OPT_TIME(time), PH_OPT_CI(ci), { 0 } } }
#define PH_GROUP_OUTPUT	{ "output", (const struct ph_opt[]){ PH_OPT_FORMAT, PH_OPT_PROGRESS, { 0 } } }
#define PH_GROUP_OUTPUT_PLOT	{ "output", (const struct ph_opt[]){ PH_OPT_FORMAT, PH_OPT_PLOT, PH_OPT_PROGRESS, { 0 } } }

/*
 * Every common measuring option, as refusals (optspec.h) for a command that
 * takes none of them, each with the reason why.
 */
#define PH_REFUSE_MEASURING(why)                                                                   \
	{ "size", why }, { "page-size", why }, { "backend", why }, { "membind", why },             \
	{ "interleave", why }, { "cpunodebind", why }, { "physcpubind", why }, { "threads", why }, \
	{ "time", why }, { "ci", why }, { "reserve", why }, { "allow-unverified", why }

/*
 * The options of a study that runs one stream kernel on placed threads,
 * each with a block of its own (scale, goaround): common_study_option()
 * fills a struct common_study with them.
 */
#define PH_OPT_STUDY_KERNEL	{ "kernel", 0, "K", OPT_STUDY_KERNEL, \
	"the stream kernel (pagehop list)", "triad", NULL }, \
	{ "isa", 0, "ISA", OPT_STUDY_ISA, "its instruction set, as pagehop stream takes it", \
	  "auto", NULL }, \
	{ "nt", 0, NULL, OPT_STUDY_NT, "non-temporal stores", NULL, NULL }
#define PH_OPT_STUDY_PLACEMENT	{ "placement", 0, "P", OPT_STUDY_PLACEMENT, \
	"compact: fill a node before the next; scatter: round\n" \
	"robin over the nodes, each node's spread over its\n" \
	"cores; exclusive: one thread per core; shared: SMT\n" \
	"siblings of a core first", "compact", NULL }
#define PH_OPT_STUDY_SIZE_PER_THREAD(what)	{ "size-per-thread", 0, "SIZE", \
	OPT_STUDY_SIZE_PER_THREAD, what " (K, M, G, T suffixes)", "256M", NULL }

/* struct common_study is onekernel.h's, the state of those studies holds it. */

/* The last lines of the usage of a command that takes node or CPU lists. */
#define PH_USAGE_LISTS "NODES and CPUS are lists as numactl takes them: 0,2-3, all, !1.\n"


/*
 * Handle a common option for opts_parse: 0, -EINVAL after the one-line
 * error, or 1 when o is not a common option (the command's own).
 */
int common_option(struct ph_options *opt, const struct ph_opt *o, const char *arg);
/*
 * --percentiles[=LIST] (NULL: the default list) and --histogram into req
 * (id OPT_PERCENTILES or OPT_HISTOGRAM); 0 or -EINVAL after the one-line
 * error.  common_dist_finish, in the command's check: --histogram alone
 * gets the default percentiles beside it.
 */
int common_dist_option(struct ph_distreq *req, int id, const char *arg);
void common_dist_finish(struct ph_distreq *req);
/*
 * baseline's and check's --percentiles (PH_OPT_TAILS): bare is 99; one
 * above 50 at least.  --histogram (PH_OPT_TAIL_HISTOGRAM, id OPT_HISTOGRAM)
 * collects the distribution as bare --percentiles does, unless a
 * --percentiles gives the list.
 */
int common_tail_option(struct ph_distreq *req, int id, const char *arg);

/*
 * --format or --verbose into *fmt: 0, -EINVAL after the one-line error, or
 * 1 when o is neither.  --verbose makes a table the verbose table
 * (PH_FMT_TABLE_VERBOSE), whichever comes first; CSV and JSON always have
 * every column.
 */
int common_format_option(const struct ph_opt *o, const char *arg, enum ph_format *fmt);

/*
 * --progress or --quiet (option id) into *mode, the last one given
 * winning: 0, or 1 when id is neither.
 */
int common_progress_option(int id, enum ph_progress_mode *mode);

/*
 * Handle a study option (PH_OPT_STUDY_*) as common_option() does the
 * common ones: 0, -EINVAL after the one-line error, or 1 when o is not one.
 */
int common_study_option(struct common_study *c, const struct ph_opt *o, const char *arg);

/*
 * The one stream kernel of a study (scale, goaround), chosen as pagehop
 * stream chooses it (bandwidth_study_plan).  0, or an exit code after one
 * line on stderr: PH_EXIT_UNSUPPORTED for an ISA this CPU lacks,
 * PH_EXIT_USAGE for no such kernel.
 */
int common_one_kernel(struct ph_bwstudy *plan, const struct common_study *c);

/* --kernel "copy,triad" into names of stream_ops[] (*out malloc'd).  0 or -EINVAL. */
int common_parse_kernels(const char *arg, const char ***out, int *n);

/* --isa and --placement: 0, or -EINVAL after one line naming what is accepted. */
int common_parse_isa(const char *arg, enum ph_isa *isa);
int common_parse_placement(const char *arg, enum ph_place *place);

#endif
