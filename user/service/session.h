/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * session.h - the run context every measuring study shares, in three
 * lifetimes: the options as the command parsed them (common_opts.h; const
 * here, no study or engine writes them), the machine as found (topology,
 * CPU, module, clock), and the run (threads bound to CPUs, verified memory
 * for each thread, how figures are measured), with the columns every
 * result row carries.  A study that lays out something else for a step
 * passes its own binding and layout to session_start_bind().
 */
#ifndef PAGEHOP_SESSION_H
#define PAGEHOP_SESSION_H

#include <stdbool.h>
#include <stdint.h>

#include "binding.h"
#include "buffer.h"
#include "chase.h"
#include "clock.h"
#include "cpu.h"
#include "kmod.h"
#include "output.h"
#include "progress.h"
#include "runner.h"
#include "topology.h"

/*
 * Memory that outlives the sessions measuring it, one after another from
 * different CPUs (matrix: a memory node set up once, measured from every
 * CPU node).  A session given it (ph_session.mem) takes its segments when
 * they fit the binding (as many threads, as many bytes each, the same
 * nodes), else lays out new ones into it; session_stop leaves them, and
 * memory_release frees them.  The chain built in it is kept too.
 */
struct ph_memory {
	struct ph_segment *segs;
	int n;
	uint64_t per_thread;
	int *nodes;		/* each segment's node asked for */
	bool all_verified;
	int laid_out;		/* times segments were allocated into it */
	/* the chase chain in it, per segment (latency.c) */
	bool have_chain;
	struct chase_spec chain_spec;	/* thread i's seed is chain_spec.seed + i */
	int64_t *nslots;
	int chains_built;
	/*
	 * The bandwidth arrays in it (bandwidth.c): the values the last
	 * figure left, checked right, of kernel op over arrays of elems
	 * elements; a figure of the same kind starts from them instead of
	 * writing them again.  arrays_written counts the writes.
	 */
	bool have_arrays;
	int arrays_op;
	size_t arrays_elems;
	int arrays_written;
};

struct ph_counters;
struct chain_orders;

/*
 * What one session_start lays out: the options' --size and memory request
 * (session_layout), or a study's own for one step (a cell, a page size, a
 * thread count), the options left as parsed.
 */
struct ph_layout {
	uint64_t size;		/* working set, all threads together */
	struct ph_bufreq bufreq;
};

/*
 * The options as parsed: filled in by the command (common_opts.c, a study's
 * init and option handlers), which owns them; read-only after parsing (the
 * session holds them const).
 */
struct ph_options {
	enum ph_format fmt;
	const char *plot;	/* --plot FILE, drawn by the driver (study.h), or NULL */
	char *plot_skipped;	/* why --plot draws nothing (no gnuplot), or NULL */
	struct ph_bindopts bind;
	struct ph_bufreq bufreq;
	uint64_t size;		/* working set, all threads together */
	bool size_given;
	bool psize_given;	/* --page-size was given, not the default */
	struct ph_mcfg mcfg;
	bool allow_unverified;
	enum ph_progress_mode progress;	/* --progress, --quiet (progress.h) */
	bool binds_itself;	/* the study places its threads: session_start
				 * binds no --cpunodebind, --physcpubind, --threads */
};

/* The machine as found (session_machine). */
struct ph_machine {
	struct ph_topology topo;
	struct ph_cpu cpu;
	struct ph_kmod km;
	struct ph_clock clk;
};

struct ph_session {
	const struct ph_options *opt;
	struct ph_machine m;
	/* the run */
	struct ph_mcfg meas;	/* how figures are measured: mcfg as parsed
				 * (session_machine), or a study's own */
	struct ph_layout laid;	/* what session_start laid out */
	struct ph_binding binding;
	struct ph_segment *segs;	/* one per thread */
	struct ph_memory *mem;	/* NULL, or memory lent by the caller */
	bool segs_lent;		/* segs are mem's: session_stop leaves them */
	struct ph_team *team;
	uint64_t per_thread;	/* laid.size / threads: what each thread works on */
	bool all_verified;
	bool reverify_skipped;	/* a signal came before the memory was re-read */
	bool plotted;		/* --plot drawn (study_plot): once a run */
	char backend_note[384];	/* why --backend auto took another backend */
	struct ph_counters *counters;	/* enabled around each timed chase block
					 * (latency.c), or NULL: set by pages */
	struct chain_orders *orders;	/* a sweep's random chains are derived
					 * from these (chain.h), or NULL: set by
					 * the study, which owns them */
};

/* Defaults: table, 4K pages, auto backend, --time 2, --ci 1. */
void options_init(struct ph_options *o, uint64_t default_size);
/* Free what parsing allocated (node and CPU lists). */
void options_free(struct ph_options *o);

/* A session over opt (parsed, or about to be: opt is read, never written). */
void session_init(struct ph_session *s, const struct ph_options *opt);

/* Load topology, CPU, module and clock; meas from the options.  0 or an exit code. */
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
/* The options' layout: --size, --page-size, --backend, --interleave, --reserve. */
struct ph_layout session_layout(const struct ph_session *s);
/*
 * session_start on exactly these CPUs, threads of them, for a study that
 * places its threads itself (binds_itself): the memory as the options
 * bind it, the CPUs as the study chose them, laid out as lay says (NULL:
 * session_layout).  The options stay as parsed.
 */
int session_start_on(struct ph_session *s, struct bitmask *cpus, unsigned threads,
		     const struct ph_layout *lay);
/*
 * session_start with a binding of the study's own (one CPU and one node a
 * step: hops; NULL: the options') and a layout of its own (NULL:
 * session_layout), the parsed options left as they are.
 */
int session_start_bind(struct ph_session *s, const struct ph_bindopts *bind,
		       const struct ph_layout *lay, unsigned default_threads);

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

/*
 * Read m's segments back once more (as session_still_verified), then free
 * them; m keeps its counts.  False if a page had moved.
 */
bool memory_release(struct ph_session *s, struct ph_memory *m);

/* Undo session_start: stop the threads, free the memory; the machine stays. */
void session_stop(struct ph_session *s);
void session_free(struct ph_session *s);

#endif
