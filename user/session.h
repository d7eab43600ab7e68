/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * session.h - what every measuring command shares: the common options, the
 * machine (topology, CPU, module, clock), threads bound to CPUs, verified
 * memory for each thread, and the columns every result row carries.
 */
#ifndef PAGEHOP_SESSION_H
#define PAGEHOP_SESSION_H

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>

#include "binding.h"
#include "buffer.h"
#include "clock.h"
#include "cli.h"
#include "cpu.h"
#include "kmod.h"
#include "optspec.h"
#include "output.h"
#include "runner.h"
#include "topology.h"

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
	OPT_HELP,
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
	"measure even if the memory is not where or what was\nasked; every row then says verified=no", \
	NULL, NULL }
#define PH_OPT_CPUNODEBIND	{ "cpunodebind", 0, "NODES", OPT_CPUNODEBIND, \
	"run on the CPUs of these nodes", NULL, NULL }
#define PH_OPT_PHYSCPUBIND	{ "physcpubind", 0, "CPUS", OPT_PHYSCPUBIND, \
	"run on these CPUs", NULL, NULL }
#define PH_OPT_THREADS(desc)	{ "threads", 0, "N", OPT_THREADS, \
	"how many threads (one per CPU, distinct cores first)", NULL, desc }
#define PH_OPT_TIME(def)	{ "time", 0, "SECONDS", OPT_TIME, "budget per figure", def, NULL }
#define PH_OPT_CI(def)	{ "ci", 0, "PERCENT", OPT_CI, \
	"stop once the median's 95% CI is within this", def, NULL }
#define PH_OPT_FORMAT	{ "format", 'f', "table|csv|json", OPT_FORMAT, "how to print the results", \
	"table", NULL }

/*
 * Every common measuring option, as refusals (optspec.h) for a command that
 * takes none of them, each with the reason why.
 */
#define PH_REFUSE_MEASURING(why)                                                                   \
	{ "size", why }, { "page-size", why }, { "backend", why }, { "membind", why },             \
	{ "interleave", why }, { "cpunodebind", why }, { "physcpubind", why }, { "threads", why }, \
	{ "time", why }, { "ci", why }, { "reserve", why }, { "allow-unverified", why }

/* The last lines of the usage of a command that takes node or CPU lists. */
#define PH_USAGE_LISTS "NODES and CPUS are lists as numactl takes them: 0,2-3, all, !1.\n"

/* The common long options, terminated by a zero entry. */
extern const struct option session_common_options[];
/* The usage lines for them. */
extern const char session_common_usage[];

struct ph_session {
	/* options */
	enum ph_format fmt;
	struct ph_bindopts bind;
	struct ph_bufreq bufreq;
	uint64_t size;		/* working set, all threads together */
	bool size_given;
	uint64_t per_thread;	/* size / threads: what each thread works on */
	struct ph_mcfg mcfg;
	bool allow_unverified;
	/* the machine */
	struct ph_topology topo;
	struct ph_cpu cpu;
	struct ph_kmod km;
	struct ph_clock clk;
	/* the run */
	struct ph_binding binding;
	struct ph_segment *segs;	/* one per thread */
	struct ph_team *team;
	bool all_verified;
	bool reverify_skipped;	/* a signal came before the memory was re-read */
	char backend_note[384];	/* why --backend auto took another backend */
};

/*
 * Handle a common option for opts_parse: 0, -EINVAL after the one-line
 * error, or 1 when o is not a common option (the command's own).
 */
int session_option(struct ph_session *s, const struct ph_opt *o, const char *arg);

/* Defaults: table, 4K pages, auto backend, --time 2, --ci 1. */
void session_init(struct ph_session *s, uint64_t default_size);

/*
 * Merge the common options with a command's own into one getopt_long table
 * (the caller frees it).
 */
struct option *session_options(const struct option *own);

/*
 * Handle a common option.  Returns 1 if handled, 0 if c is not common,
 * -1 on a bad value (the one-line error already printed).
 */
int session_parse_option(struct ph_session *s, int c, const char *arg);

/* Load topology, CPU, module and clock.  0 or an exit code. */
int session_machine(struct ph_session *s);

/*
 * Bind threads (default_threads as binding_resolve takes it), allocate
 * size / threads (rounded up to whole pages) on each thread's node, verify
 * every segment, start the pinned team.  On a verification failure prints what was found against
 * what was asked and returns PH_EXIT_FAIL unless --allow-unverified.
 * Without the privilege to read the memory back (root), says so and returns
 * PH_EXIT_UNSUPPORTED unless --allow-unverified.  A signal while the memory
 * is laid out or read back: PH_EXIT_INTERRUPTED.  0 or an exit code.
 */
int session_start(struct ph_session *s, unsigned default_threads);

/*
 * Verify the segments again after measuring: were the pages still there?
 * After a signal this is skipped (it takes seconds over 1 GiB), and the
 * output says that the memory was not read back after measuring.
 */
bool session_still_verified(struct ph_session *s);

/* Section "run": clock, frequency and source, time and CI targets; a note
 * if --backend auto took another backend than pagehop.ko, and why. */
void session_describe(struct ph_session *s, struct ph_doc *doc);
/* Table "buffers": per thread its CPU, node, backend, page size, verification. */
void session_buffers_table(struct ph_session *s, struct ph_doc *doc);

/* The columns every result row has, declared and filled in one place. */
void session_add_common_cols(struct ph_table *t);
void session_fill_common(struct ph_session *s, struct ph_table *t, int row);
/* The nodes ("0,1") and page sizes ("2M", "4K+THP") the memory was found on. */
void session_found(struct ph_session *s, char *nodes, size_t nodes_len,
		   char *psizes, size_t psizes_len);

/* Undo session_start: stop the threads, free the memory; the machine stays. */
void session_stop(struct ph_session *s);
/*
 * The end of every measuring command: note unverified memory and an
 * interruption by a signal (exit 130), render doc in --format.  Returns the
 * exit code.
 */
int session_render(struct ph_session *s, struct ph_doc *doc, int rc);
void session_free(struct ph_session *s);

#endif
