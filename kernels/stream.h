/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * stream.h - the bandwidth loops: STREAM's copy, scale, add and triad on
 * doubles, plus read (a sum) and write (a fill), each in scalar, SSE2, AVX2
 * and AVX-512 variants with normal or non-temporal stores.
 *
 * The loops run on memory the caller hands them; they never allocate, time
 * or print.  One table, stream_kernels[], names every variant with the bytes
 * it moves per element, and stream_ops[] says once per op what it computes,
 * so the runner, --help and 'pagehop list' all print from the same place.
 */
#ifndef PAGEHOP_STREAM_H
#define PAGEHOP_STREAM_H

#include <stdbool.h>
#include <stddef.h>

#include "isa.h"

enum stream_op { STREAM_COPY = 1, STREAM_SCALE, STREAM_ADD, STREAM_TRIAD, STREAM_READ, STREAM_WRITE };

/* Which of a, b, c an op touches (struct stream_kernel.uses). */
enum { STREAM_A = 1u << 0, STREAM_B = 1u << 1, STREAM_C = 1u << 2 };

/*
 * STREAM's arrays and assignments:
 *   copy  c = a          scale  b = s*c         add  c = a + b
 *   triad a = b + s*c    read   sum of a        write  a = s
 * n elements; returns the sum for READ, 0 otherwise.  Arrays an op does not
 * use (see .uses) are not dereferenced and may be NULL.
 */
typedef double (*stream_fn)(double *restrict a, double *restrict b, double *restrict c, double s,
			    size_t n);

struct stream_kernel {
	const char *name;	/* "copy", "scale", "add", "triad", "read", "write" */
	enum stream_op op;
	enum ph_isa isa;
	bool nt;		/* non-temporal stores, fenced (sfence) before return; never for read */
	unsigned arrays;	/* how many of a, b, c it touches */
	unsigned uses;		/* which ones: STREAM_A | STREAM_B | STREAM_C */
	unsigned bytes_stream;	/* bytes per element as STREAM counts them: loads + stores */
	unsigned bytes_wa;	/* the same plus the write-allocate read of each stored
				 * element's line: bytes_stream + 8 per store, unless nt */
	size_t align_elems;	/* the doubles one unrolled iteration covers: n must be a
				 * multiple of it, and each array's address a multiple of
				 * align_elems * sizeof(double) bytes (at most 512) */
	stream_fn fn;
};

extern const struct stream_kernel stream_kernels[];
extern const size_t stream_nkernels;

/*
 * The ops, once each, in the order of stream_kernels[]: what an op computes
 * is the same in every ISA and store kind, so it is said here, once, for
 * --help and 'pagehop list'.
 */
struct stream_op_info {
	const char *name;	/* as in stream_kernels[] */
	enum stream_op op;
	const char *desc;	/* "c = a" */
};

extern const struct stream_op_info stream_ops[];
extern const size_t stream_nops;
/* The ops' names for messages: "copy, scale, add, triad, read or write". */
const char *stream_op_list(void);

/* The variant for an op name, ISA and store kind; NULL if there is none (read with nt). */
const struct stream_kernel *stream_find(const char *name, enum ph_isa isa, bool nt);

/*
 * What 'auto' runs: the one choice of ISA for a bandwidth loop, made for
 * every command that measures bandwidth (stream, matrix, slit, survey,
 * pages, prefetch), so that their figures agree.
 *
 * stream_choose_isa() is the rule, a pure function of the CPU's identity
 * (struct isa_cpu), the op and the store kind: the widest ISA the CPU
 * runs, unless a row of its table (stream.c, with the measurements behind
 * each row in docs/methodology.md, "Which ISA auto runs") caps it for that
 * CPU, op and store kind.  *why (if why is not NULL) is set to a sentence
 * saying which row decided, or that none did.  Never wider than
 * cpu->widest.
 *
 * stream_auto() is that choice on this CPU, as a variant: NULL for an
 * unknown op name, or read with nt (read stores nothing).
 */
enum ph_isa stream_choose_isa(const struct isa_cpu *cpu, enum stream_op op, bool nt,
			      const char **why);
const struct stream_kernel *stream_auto(const char *name, bool nt, const char **why);

/*
 * Validation, as STREAM does it.  stream_init() fills the arrays with the
 * start values below (NULL arrays are skipped); after any number of
 * repetitions of ONE op (each is idempotent on these arrays when run alone),
 * stream_check() counts the wrong elements of the arrays that op uses:
 * sources must be unchanged, the destination must hold the op's result,
 * which differs from its start value for any s other than those listed, so
 * an element the loop skipped is caught.  `sum` is READ's return value.
 * 0 means valid.
 *
 *   start: a = 1, b = 2, c = 4
 *   copy c = 1;  scale b = 4s (s != 0.5);  add c = 3;  triad a = 2 + 4s (s != -0.25);
 *   read sum = n;  write a = s (s != 1)
 */
#define STREAM_INIT_A 1.0
#define STREAM_INIT_B 2.0
#define STREAM_INIT_C 4.0
void stream_init(double *a, double *b, double *c, size_t n);
size_t stream_check(enum stream_op op, const double *a, const double *b, const double *c, double s,
		    size_t n, double sum);

#endif
