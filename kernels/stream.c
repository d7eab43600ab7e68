// SPDX-License-Identifier: GPL-2.0-only
/*
 * stream.c - the bandwidth loops (see stream.h), the table that registers
 * them, run-time ISA dispatch, and STREAM-style validation.
 *
 * Each op is written once per ISA as an always-inline body taking `nt` as a
 * constant; the two entry points per op (normal and non-temporal stores) are
 * thin wrappers, so the store kind is decided at compile time and each
 * variant is a straight loop.  ISA variants carry target attributes instead
 * of -march flags so that one binary runs everywhere; isa_supported()
 * (isa.c) says which of them this machine may call.
 *
 * Every loop covers whole cache lines per array per iteration (align_elems
 * doubles), with aligned loads and stores and all arrays walked forwards in
 * lockstep, which is what the hardware prefetchers follow best.  Non-
 * temporal stores therefore fill whole lines in order, and the variant ends
 * with sfence so the data is globally visible before the caller stops its
 * clock.
 *
 * Tried on Zen 3 (EPYC Milan, 1 GiB, 1 and 2 threads) and left out because
 * none beat the plain loops beyond run-to-run noise: 8 instead of 4 AVX2
 * registers per iteration, software prefetch of the sources 256 B to 4 KiB
 * ahead (it cost up to 15% with non-temporal stores), prefetchw of the
 * destination, and interleaving each load with its store.
 */
#include "stream.h"

#if !defined(__x86_64__)
#error "kernels/stream.c is written for x86-64"
#endif

#include <immintrin.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

/*
 * The stores land in caller memory and READ returns its sum, so a compiler
 * cannot drop the work today; the sinks make that a promise (LTO, a caller
 * that ignores the sum) rather than an accident.
 */
static inline void sink_mem(const void *p)
{
	__asm__ volatile("" : : "r"(p) : "memory");
}

static inline double sink_sum(double x)
{
	__asm__ volatile("" : "+x"(x));
	return x;
}

/* Unroll a loop over the registers of one iteration completely (gcc and clang). */
#define UNROLL _Pragma("GCC unroll 16")

/*
 * The eight accumulators of a read loop, added pairwise.  Written out rather
 * than as a loop so that they stay in registers (a loop over a halving
 * width is unrolled too late for that).
 */
#define SUM8(add, x)                                                                               \
	add(add(add((x)[0], (x)[1]), add((x)[2], (x)[3])),                                         \
	    add(add((x)[4], (x)[5]), add((x)[6], (x)[7])))

/* The store kind is a compile-time constant in every caller. */
#define NT_FENCE(nt)                                                                               \
	do {                                                                                       \
		if (nt)                                                                            \
			_mm_sfence();                                                              \
	} while (0)

/* ---------------------------------------------------------------- scalar */

/*
 * One double per instruction.  Hiding each value from the optimiser keeps
 * gcc and clang (which vectorise at -O2) from turning these loops into SSE2
 * code or a memcpy() call, so "scalar" means what it says.
 */
#define SCALAR_U 8
_Static_assert(SCALAR_U == 8, "sc_read adds eight accumulators");
#define OPAQUE(x) __asm__("" : "+x"(x))

static inline __attribute__((always_inline)) double sc_ld(const double *p)
{
	double x = *p;

	OPAQUE(x);
	return x;
}

static inline __attribute__((always_inline)) void sc_st(double *p, double x, bool nt)
{
	OPAQUE(x);	/* else clang pairs the arithmetic of two elements into SSE2 */
	if (nt) {
		long long bits;

		/* movnti: the one scalar non-temporal store (SSE2), from a GPR. */
		memcpy(&bits, &x, sizeof(bits));
		_mm_stream_si64((long long *)p, bits);
	} else {
		/* A plain store the compiler cannot merge with its neighbours. */
		__asm__("movsd %1, %0" : "=m"(*p) : "x"(x));
	}
}

static inline __attribute__((always_inline)) double
sc_copy(double *restrict a, double *restrict b, double *restrict c, double s, size_t n, bool nt)
{
	(void)b, (void)s;
	for (size_t i = 0; i < n; i += SCALAR_U) {
		UNROLL for (int k = 0; k < SCALAR_U; k++)
			sc_st(c + i + k, sc_ld(a + i + k), nt);
	}
	NT_FENCE(nt);
	sink_mem(c);
	return 0;
}

static inline __attribute__((always_inline)) double
sc_scale(double *restrict a, double *restrict b, double *restrict c, double s, size_t n, bool nt)
{
	(void)a;
	for (size_t i = 0; i < n; i += SCALAR_U) {
		UNROLL for (int k = 0; k < SCALAR_U; k++)
			sc_st(b + i + k, s * sc_ld(c + i + k), nt);
	}
	NT_FENCE(nt);
	sink_mem(b);
	return 0;
}

static inline __attribute__((always_inline)) double
sc_add(double *restrict a, double *restrict b, double *restrict c, double s, size_t n, bool nt)
{
	(void)s;
	for (size_t i = 0; i < n; i += SCALAR_U) {
		UNROLL for (int k = 0; k < SCALAR_U; k++)
			sc_st(c + i + k, sc_ld(a + i + k) + sc_ld(b + i + k), nt);
	}
	NT_FENCE(nt);
	sink_mem(c);
	return 0;
}

static inline __attribute__((always_inline)) double
sc_triad(double *restrict a, double *restrict b, double *restrict c, double s, size_t n, bool nt)
{
	for (size_t i = 0; i < n; i += SCALAR_U) {
		UNROLL for (int k = 0; k < SCALAR_U; k++)
			sc_st(a + i + k, sc_ld(b + i + k) + s * sc_ld(c + i + k), nt);
	}
	NT_FENCE(nt);
	sink_mem(a);
	return 0;
}

static inline __attribute__((always_inline)) double
sc_read(double *restrict a, double *restrict b, double *restrict c, double s, size_t n, bool nt)
{
	/* One accumulator per element of the iteration: 8 adds in flight hide
	 * the add latency (3-4 cycles) behind two loads per cycle. */
	double acc[SCALAR_U] = { 0 };

	(void)b, (void)c, (void)s, (void)nt;
	for (size_t i = 0; i < n; i += SCALAR_U) {
		UNROLL for (int k = 0; k < SCALAR_U; k++) {
			acc[k] += sc_ld(a + i + k);
			OPAQUE(acc[k]);	/* else clang pairs the accumulators */
		}
	}
	return sink_sum(((acc[0] + acc[1]) + (acc[2] + acc[3])) +
			((acc[4] + acc[5]) + (acc[6] + acc[7])));
}

static inline __attribute__((always_inline)) double
sc_write(double *restrict a, double *restrict b, double *restrict c, double s, size_t n, bool nt)
{
	(void)b, (void)c;
	OPAQUE(s);
	for (size_t i = 0; i < n; i += SCALAR_U) {
		UNROLL for (int k = 0; k < SCALAR_U; k++)
			sc_st(a + i + k, s, nt);
	}
	NT_FENCE(nt);
	sink_mem(a);
	return 0;
}

/* ---------------------------------------------------------------- SSE2 */

/* SSE2 is part of x86-64, so these need no target attribute. */
#define SSE2_W 2	/* doubles per register */
#define SSE2_U 8	/* registers per array per iteration: two cache lines */
_Static_assert(SSE2_U == 8, "read adds eight accumulators with SUM8");
#define SSE2_STEP (SSE2_W * SSE2_U)

static inline __attribute__((always_inline)) void sse2_st(double *p, __m128d x, bool nt)
{
	if (nt)
		_mm_stream_pd(p, x);
	else
		_mm_store_pd(p, x);
}

static inline __attribute__((always_inline)) double
sse2_copy(double *restrict a, double *restrict b, double *restrict c, double s, size_t n, bool nt)
{
	(void)b, (void)s;
	for (size_t i = 0; i < n; i += SSE2_STEP) {
		__m128d x[SSE2_U];

		UNROLL for (int k = 0; k < SSE2_U; k++)
			x[k] = _mm_load_pd(a + i + k * SSE2_W);
		UNROLL for (int k = 0; k < SSE2_U; k++)
			sse2_st(c + i + k * SSE2_W, x[k], nt);
	}
	NT_FENCE(nt);
	sink_mem(c);
	return 0;
}

static inline __attribute__((always_inline)) double
sse2_scale(double *restrict a, double *restrict b, double *restrict c, double s, size_t n, bool nt)
{
	const __m128d vs = _mm_set1_pd(s);

	(void)a;
	for (size_t i = 0; i < n; i += SSE2_STEP) {
		__m128d x[SSE2_U];

		UNROLL for (int k = 0; k < SSE2_U; k++)
			x[k] = _mm_mul_pd(vs, _mm_load_pd(c + i + k * SSE2_W));
		UNROLL for (int k = 0; k < SSE2_U; k++)
			sse2_st(b + i + k * SSE2_W, x[k], nt);
	}
	NT_FENCE(nt);
	sink_mem(b);
	return 0;
}

static inline __attribute__((always_inline)) double
sse2_add(double *restrict a, double *restrict b, double *restrict c, double s, size_t n, bool nt)
{
	(void)s;
	for (size_t i = 0; i < n; i += SSE2_STEP) {
		__m128d x[SSE2_U];

		UNROLL for (int k = 0; k < SSE2_U; k++)
			x[k] = _mm_add_pd(_mm_load_pd(a + i + k * SSE2_W),
					  _mm_load_pd(b + i + k * SSE2_W));
		UNROLL for (int k = 0; k < SSE2_U; k++)
			sse2_st(c + i + k * SSE2_W, x[k], nt);
	}
	NT_FENCE(nt);
	sink_mem(c);
	return 0;
}

static inline __attribute__((always_inline)) double
sse2_triad(double *restrict a, double *restrict b, double *restrict c, double s, size_t n, bool nt)
{
	const __m128d vs = _mm_set1_pd(s);

	for (size_t i = 0; i < n; i += SSE2_STEP) {
		__m128d x[SSE2_U];

		UNROLL for (int k = 0; k < SSE2_U; k++)
			x[k] = _mm_add_pd(_mm_load_pd(b + i + k * SSE2_W),
					  _mm_mul_pd(vs, _mm_load_pd(c + i + k * SSE2_W)));
		UNROLL for (int k = 0; k < SSE2_U; k++)
			sse2_st(a + i + k * SSE2_W, x[k], nt);
	}
	NT_FENCE(nt);
	sink_mem(a);
	return 0;
}

static inline __attribute__((always_inline)) double
sse2_read(double *restrict a, double *restrict b, double *restrict c, double s, size_t n, bool nt)
{
	__m128d acc[SSE2_U];

	(void)b, (void)c, (void)s, (void)nt;
	UNROLL for (int k = 0; k < SSE2_U; k++)
		acc[k] = _mm_setzero_pd();
	for (size_t i = 0; i < n; i += SSE2_STEP) {
		UNROLL for (int k = 0; k < SSE2_U; k++)
			acc[k] = _mm_add_pd(acc[k], _mm_load_pd(a + i + k * SSE2_W));
	}
	acc[0] = SUM8(_mm_add_pd, acc);
	acc[0] = _mm_add_sd(acc[0], _mm_unpackhi_pd(acc[0], acc[0]));
	return sink_sum(_mm_cvtsd_f64(acc[0]));
}

static inline __attribute__((always_inline)) double
sse2_write(double *restrict a, double *restrict b, double *restrict c, double s, size_t n, bool nt)
{
	const __m128d vs = _mm_set1_pd(s);

	(void)b, (void)c;
	for (size_t i = 0; i < n; i += SSE2_STEP) {
		UNROLL for (int k = 0; k < SSE2_U; k++)
			sse2_st(a + i + k * SSE2_W, vs, nt);
	}
	NT_FENCE(nt);
	sink_mem(a);
	return 0;
}

/* ---------------------------------------------------------------- AVX2 */

/* FMA comes with every AVX2 CPU but has its own CPUID bit; both are checked. */
#define AVX2_ATTR __attribute__((target("avx2,fma")))
#define AVX2_INLINE static inline __attribute__((always_inline, target("avx2,fma")))
#define AVX2_W 4
#define AVX2_U 4	/* two cache lines per array per iteration */
#define AVX2_STEP (AVX2_W * AVX2_U)
#define AVX2_RU 8	/* read: eight accumulators, four lines per iteration */
_Static_assert(AVX2_RU == 8, "read adds eight accumulators with SUM8");
#define AVX2_RSTEP (AVX2_W * AVX2_RU)

AVX2_INLINE void avx2_st(double *p, __m256d x, bool nt)
{
	if (nt)
		_mm256_stream_pd(p, x);
	else
		_mm256_store_pd(p, x);
}

AVX2_INLINE double avx2_copy(double *restrict a, double *restrict b, double *restrict c, double s,
			     size_t n, bool nt)
{
	(void)b, (void)s;
	for (size_t i = 0; i < n; i += AVX2_STEP) {
		__m256d x[AVX2_U];

		UNROLL for (int k = 0; k < AVX2_U; k++)
			x[k] = _mm256_load_pd(a + i + k * AVX2_W);
		UNROLL for (int k = 0; k < AVX2_U; k++)
			avx2_st(c + i + k * AVX2_W, x[k], nt);
	}
	NT_FENCE(nt);
	sink_mem(c);
	return 0;
}

AVX2_INLINE double avx2_scale(double *restrict a, double *restrict b, double *restrict c, double s,
			      size_t n, bool nt)
{
	const __m256d vs = _mm256_set1_pd(s);

	(void)a;
	for (size_t i = 0; i < n; i += AVX2_STEP) {
		__m256d x[AVX2_U];

		UNROLL for (int k = 0; k < AVX2_U; k++)
			x[k] = _mm256_mul_pd(vs, _mm256_load_pd(c + i + k * AVX2_W));
		UNROLL for (int k = 0; k < AVX2_U; k++)
			avx2_st(b + i + k * AVX2_W, x[k], nt);
	}
	NT_FENCE(nt);
	sink_mem(b);
	return 0;
}

AVX2_INLINE double avx2_add(double *restrict a, double *restrict b, double *restrict c, double s,
			    size_t n, bool nt)
{
	(void)s;
	for (size_t i = 0; i < n; i += AVX2_STEP) {
		__m256d x[AVX2_U];

		UNROLL for (int k = 0; k < AVX2_U; k++)
			x[k] = _mm256_add_pd(_mm256_load_pd(a + i + k * AVX2_W),
					     _mm256_load_pd(b + i + k * AVX2_W));
		UNROLL for (int k = 0; k < AVX2_U; k++)
			avx2_st(c + i + k * AVX2_W, x[k], nt);
	}
	NT_FENCE(nt);
	sink_mem(c);
	return 0;
}

AVX2_INLINE double avx2_triad(double *restrict a, double *restrict b, double *restrict c, double s,
			      size_t n, bool nt)
{
	const __m256d vs = _mm256_set1_pd(s);

	for (size_t i = 0; i < n; i += AVX2_STEP) {
		__m256d x[AVX2_U];

		UNROLL for (int k = 0; k < AVX2_U; k++)
			x[k] = _mm256_fmadd_pd(vs, _mm256_load_pd(c + i + k * AVX2_W),
					       _mm256_load_pd(b + i + k * AVX2_W));
		UNROLL for (int k = 0; k < AVX2_U; k++)
			avx2_st(a + i + k * AVX2_W, x[k], nt);
	}
	NT_FENCE(nt);
	sink_mem(a);
	return 0;
}

AVX2_INLINE double avx2_read(double *restrict a, double *restrict b, double *restrict c, double s,
			     size_t n, bool nt)
{
	__m256d acc[AVX2_RU];
	__m128d x;

	(void)b, (void)c, (void)s, (void)nt;
	UNROLL for (int k = 0; k < AVX2_RU; k++)
		acc[k] = _mm256_setzero_pd();
	for (size_t i = 0; i < n; i += AVX2_RSTEP) {
		UNROLL for (int k = 0; k < AVX2_RU; k++)
			acc[k] = _mm256_add_pd(acc[k], _mm256_load_pd(a + i + k * AVX2_W));
	}
	acc[0] = SUM8(_mm256_add_pd, acc);
	x = _mm_add_pd(_mm256_castpd256_pd128(acc[0]), _mm256_extractf128_pd(acc[0], 1));
	x = _mm_add_sd(x, _mm_unpackhi_pd(x, x));
	return sink_sum(_mm_cvtsd_f64(x));
}

AVX2_INLINE double avx2_write(double *restrict a, double *restrict b, double *restrict c, double s,
			      size_t n, bool nt)
{
	const __m256d vs = _mm256_set1_pd(s);

	(void)b, (void)c;
	for (size_t i = 0; i < n; i += AVX2_STEP) {
		UNROLL for (int k = 0; k < AVX2_U; k++)
			avx2_st(a + i + k * AVX2_W, vs, nt);
	}
	NT_FENCE(nt);
	sink_mem(a);
	return 0;
}

/* ---------------------------------------------------------------- AVX-512 */

/* Built everywhere, called only where isa_supported(PH_ISA_AVX512). */
#define AVX512_ATTR __attribute__((target("avx512f")))
#define AVX512_INLINE static inline __attribute__((always_inline, target("avx512f")))
#define AVX512_W 8	/* one register is one cache line */
#define AVX512_U 4
#define AVX512_STEP (AVX512_W * AVX512_U)
#define AVX512_RU 8
_Static_assert(AVX512_RU == 8, "read adds eight accumulators with SUM8");
#define AVX512_RSTEP (AVX512_W * AVX512_RU)

AVX512_INLINE void avx512_st(double *p, __m512d x, bool nt)
{
	if (nt)
		_mm512_stream_pd(p, x);
	else
		_mm512_store_pd(p, x);
}

AVX512_INLINE double avx512_copy(double *restrict a, double *restrict b, double *restrict c,
				 double s, size_t n, bool nt)
{
	(void)b, (void)s;
	for (size_t i = 0; i < n; i += AVX512_STEP) {
		__m512d x[AVX512_U];

		UNROLL for (int k = 0; k < AVX512_U; k++)
			x[k] = _mm512_load_pd(a + i + k * AVX512_W);
		UNROLL for (int k = 0; k < AVX512_U; k++)
			avx512_st(c + i + k * AVX512_W, x[k], nt);
	}
	NT_FENCE(nt);
	sink_mem(c);
	return 0;
}

AVX512_INLINE double avx512_scale(double *restrict a, double *restrict b, double *restrict c,
				  double s, size_t n, bool nt)
{
	const __m512d vs = _mm512_set1_pd(s);

	(void)a;
	for (size_t i = 0; i < n; i += AVX512_STEP) {
		__m512d x[AVX512_U];

		UNROLL for (int k = 0; k < AVX512_U; k++)
			x[k] = _mm512_mul_pd(vs, _mm512_load_pd(c + i + k * AVX512_W));
		UNROLL for (int k = 0; k < AVX512_U; k++)
			avx512_st(b + i + k * AVX512_W, x[k], nt);
	}
	NT_FENCE(nt);
	sink_mem(b);
	return 0;
}

AVX512_INLINE double avx512_add(double *restrict a, double *restrict b, double *restrict c,
				double s, size_t n, bool nt)
{
	(void)s;
	for (size_t i = 0; i < n; i += AVX512_STEP) {
		__m512d x[AVX512_U];

		UNROLL for (int k = 0; k < AVX512_U; k++)
			x[k] = _mm512_add_pd(_mm512_load_pd(a + i + k * AVX512_W),
					     _mm512_load_pd(b + i + k * AVX512_W));
		UNROLL for (int k = 0; k < AVX512_U; k++)
			avx512_st(c + i + k * AVX512_W, x[k], nt);
	}
	NT_FENCE(nt);
	sink_mem(c);
	return 0;
}

AVX512_INLINE double avx512_triad(double *restrict a, double *restrict b, double *restrict c,
				  double s, size_t n, bool nt)
{
	const __m512d vs = _mm512_set1_pd(s);

	for (size_t i = 0; i < n; i += AVX512_STEP) {
		__m512d x[AVX512_U];

		UNROLL for (int k = 0; k < AVX512_U; k++)
			x[k] = _mm512_fmadd_pd(vs, _mm512_load_pd(c + i + k * AVX512_W),
					       _mm512_load_pd(b + i + k * AVX512_W));
		UNROLL for (int k = 0; k < AVX512_U; k++)
			avx512_st(a + i + k * AVX512_W, x[k], nt);
	}
	NT_FENCE(nt);
	sink_mem(a);
	return 0;
}

AVX512_INLINE double avx512_read(double *restrict a, double *restrict b, double *restrict c,
				 double s, size_t n, bool nt)
{
	__m512d acc[AVX512_RU];

	(void)b, (void)c, (void)s, (void)nt;
	UNROLL for (int k = 0; k < AVX512_RU; k++)
		acc[k] = _mm512_setzero_pd();
	for (size_t i = 0; i < n; i += AVX512_RSTEP) {
		UNROLL for (int k = 0; k < AVX512_RU; k++)
			acc[k] = _mm512_add_pd(acc[k], _mm512_load_pd(a + i + k * AVX512_W));
	}
	acc[0] = SUM8(_mm512_add_pd, acc);
	return sink_sum(_mm512_reduce_add_pd(acc[0]));
}

AVX512_INLINE double avx512_write(double *restrict a, double *restrict b, double *restrict c,
				  double s, size_t n, bool nt)
{
	const __m512d vs = _mm512_set1_pd(s);

	(void)b, (void)c;
	for (size_t i = 0; i < n; i += AVX512_STEP) {
		UNROLL for (int k = 0; k < AVX512_U; k++)
			avx512_st(a + i + k * AVX512_W, vs, nt);
	}
	NT_FENCE(nt);
	sink_mem(a);
	return 0;
}

/* ---------------------------------------------------------------- entry points */

/* op_isa and op_isa_nt: the bodies above with the store kind fixed. */
#define ENTRY(op, isa, prefix, ATTR, nt, suffix)                                                   \
	ATTR static double op##_##isa##suffix(double *restrict a, double *restrict b,              \
					      double *restrict c, double s, size_t n)              \
	{                                                                                          \
		return prefix##_##op(a, b, c, s, n, nt);                                           \
	}
#define ENTRIES(op, isa, prefix, ATTR)                                                             \
	ENTRY(op, isa, prefix, ATTR, false, )                                                      \
	ENTRY(op, isa, prefix, ATTR, true, _nt)
#define ISA_ENTRIES(isa, prefix, ATTR)                                                             \
	ENTRIES(copy, isa, prefix, ATTR)                                                           \
	ENTRIES(scale, isa, prefix, ATTR)                                                          \
	ENTRIES(add, isa, prefix, ATTR)                                                            \
	ENTRIES(triad, isa, prefix, ATTR)                                                          \
	ENTRY(read, isa, prefix, ATTR, false, )                                                    \
	ENTRIES(write, isa, prefix, ATTR)

#define NO_ATTR
ISA_ENTRIES(scalar, sc, NO_ATTR)
ISA_ENTRIES(sse2, sse2, NO_ATTR)
ISA_ENTRIES(avx2, avx2, AVX2_ATTR)
ISA_ENTRIES(avx512, avx512, AVX512_ATTR)

/* ---------------------------------------------------------------- the table */

/*
 * Per op: STREAM's name, the assignment, elements loaded and stored per
 * element of n, and the arrays used.  Bytes follow from the counts, as in
 * STREAM's bytes[] table; the write-allocate figure adds one read of the
 * destination line per store, which non-temporal stores avoid.
 */
#define OP_copy STREAM_COPY, "c = a", 1, 1, STREAM_A | STREAM_C, 2
#define OP_scale STREAM_SCALE, "b = s*c", 1, 1, STREAM_B | STREAM_C, 2
#define OP_add STREAM_ADD, "c = a + b", 2, 1, STREAM_A | STREAM_B | STREAM_C, 3
#define OP_triad STREAM_TRIAD, "a = b + s*c", 2, 1, STREAM_A | STREAM_B | STREAM_C, 3
#define OP_read STREAM_READ, "sum of a", 1, 0, STREAM_A, 1
#define OP_write STREAM_WRITE, "a = s", 0, 1, STREAM_A, 1

/* Per ISA: the doubles one iteration covers, for the read op and the others. */
#define ISA_scalar PH_ISA_SCALAR, SCALAR_U, SCALAR_U
#define ISA_sse2 PH_ISA_SSE2, SSE2_STEP, SSE2_STEP
#define ISA_avx2 PH_ISA_AVX2, AVX2_STEP, AVX2_RSTEP
#define ISA_avx512 PH_ISA_AVX512, AVX512_STEP, AVX512_RSTEP

#define ROW_(nm, op_, assign, loads, stores, uses_, narrays, isa_, step, rstep, nt_, fn_)         \
	{                                                                                          \
		.name = nm, .op = op_, .isa = isa_, .nt = nt_, .arrays = narrays, .uses = uses_,   \
		.bytes_stream = 8 * ((loads) + (stores)),                                          \
		.bytes_wa = 8 * ((loads) + (stores)) + ((nt_) ? 0 : 8 * (stores)),                 \
		.align_elems = (op_) == STREAM_READ ? (rstep) : (step), .fn = fn_,                 \
	}
#define ROW__(...) ROW_(__VA_ARGS__)
#define ROW(op, isa, nt, fn) ROW__(#op, OP_##op, ISA_##isa, nt, fn)
#define ROWS(op, isa) ROW(op, isa, false, op##_##isa), ROW(op, isa, true, op##_##isa##_nt)
#define ISA_ROWS(isa)                                                                              \
	ROWS(copy, isa), ROWS(scale, isa), ROWS(add, isa), ROWS(triad, isa),                       \
		ROW(read, isa, false, read_##isa), ROWS(write, isa)

const struct stream_kernel stream_kernels[] = {
	ISA_ROWS(scalar),
	ISA_ROWS(sse2),
	ISA_ROWS(avx2),
	ISA_ROWS(avx512),
};
const size_t stream_nkernels = sizeof(stream_kernels) / sizeof(stream_kernels[0]);

#define OPINFO_(nm, op_, assign, ...) { .name = nm, .op = op_, .desc = assign }
#define OPINFO__(...) OPINFO_(__VA_ARGS__)
#define OPINFO(op) OPINFO__(#op, OP_##op)

const struct stream_op_info stream_ops[] = {
	OPINFO(copy), OPINFO(scale), OPINFO(add), OPINFO(triad), OPINFO(read), OPINFO(write),
};
const size_t stream_nops = sizeof(stream_ops) / sizeof(stream_ops[0]);

const char *stream_op_list(void)
{
	/* Made on the first call, while options are parsed, before any thread. */
	static char list[128];
	size_t len = 0;

	if (list[0])
		return list;
	for (size_t i = 0; i < stream_nops && len < sizeof(list); i++)
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s",
					!i ? "" : i + 1 < stream_nops ? ", " : " or ", stream_ops[i].name);
	return list;
}

const struct stream_kernel *stream_find(const char *name, enum ph_isa isa, bool nt)
{
	for (size_t i = 0; i < stream_nkernels; i++) {
		const struct stream_kernel *k = &stream_kernels[i];

		if (k->isa == isa && k->nt == nt && !strcmp(k->name, name))
			return k;
	}
	return NULL;
}

/* ---------------------------------------------------------------- auto */

/*
 * The rows that keep 'auto' from the widest ISA; the first that matches a
 * CPU, op and store kind decides.  Each row names what it rests on;
 * docs/methodology.md ("Which ISA auto runs") has the measurements.  A CPU
 * no row names runs the widest ISA it has: that was never measured to be
 * slower there, and a rule guessed for CPUs nobody ran would be a guess.
 */
#define OPS_ALL                                                                                    \
	(1u << STREAM_COPY | 1u << STREAM_SCALE | 1u << STREAM_ADD | 1u << STREAM_TRIAD |          \
	 1u << STREAM_READ | 1u << STREAM_WRITE)
enum { STORES_NORMAL = 1u << 0, STORES_NT = 1u << 1, STORES_ANY = STORES_NORMAL | STORES_NT };

static const struct isa_cap {
	enum isa_vendor vendor;
	unsigned family_lo, family_hi;	/* display family, inclusive */
	unsigned ops;			/* 1u << enum stream_op */
	unsigned stores;		/* STORES_* */
	enum ph_isa cap;		/* the widest ISA auto may run there */
	const char *why;
} isa_caps[] = {
	/*
	 * AMD Zen 4 (family 0x19) runs a 512-bit operation as two 256-bit
	 * halves, so AVX-512 moves no more bytes per cycle than AVX2
	 * (AMD's Software Optimization Guide for family 19h); Zen 5
	 * (family 0x1a) was measured: AVX-512 no faster than AVX2 for any
	 * op or store kind, and slower for triad (docs/methodology.md).
	 */
	{ ISA_VENDOR_AMD, 0x19, 0x1a, OPS_ALL, STORES_ANY, PH_ISA_AVX2,
	  "AMD family 0x19-0x1a: 512-bit is no faster" },
};

enum ph_isa stream_choose_isa(const struct isa_cpu *cpu, enum stream_op op, bool nt,
			      const char **why)
{
	enum ph_isa isa = cpu->widest >= PH_ISA_SCALAR && cpu->widest <= PH_ISA_AVX512 ?
				  cpu->widest : PH_ISA_SCALAR;
	const char *reason = "the widest here: no rule for this CPU";

	for (size_t i = 0; i < sizeof(isa_caps) / sizeof(isa_caps[0]); i++) {
		const struct isa_cap *c = &isa_caps[i];

		if (c->vendor != cpu->vendor || cpu->family < c->family_lo ||
		    cpu->family > c->family_hi || !(c->ops & 1u << op) ||
		    !(c->stores & (nt ? STORES_NT : STORES_NORMAL)))
			continue;
		if (isa > c->cap) {
			isa = c->cap;
			reason = c->why;
		} else {
			reason = "the widest here, within its rule's cap";
		}
		break;
	}
	if (why)
		*why = reason;
	return isa;
}

const struct stream_kernel *stream_auto(const char *name, bool nt, const char **why)
{
	struct isa_cpu cpu;

	for (size_t i = 0; i < stream_nops; i++) {
		if (strcmp(stream_ops[i].name, name))
			continue;
		isa_cpu_here(&cpu);
		return stream_find(name, stream_choose_isa(&cpu, stream_ops[i].op, nt, why), nt);
	}
	return NULL;
}

/* ---------------------------------------------------------------- validation */

void stream_init(double *a, double *b, double *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (a)
			a[i] = STREAM_INIT_A;
		if (b)
			b[i] = STREAM_INIT_B;
		if (c)
			c[i] = STREAM_INIT_C;
	}
}

/* Elements of x[0..n) that are not exactly v. */
static size_t count_not(const double *x, double v, size_t n)
{
	size_t bad = 0;

	for (size_t i = 0; i < n; i++)
		bad += x[i] != v;
	return bad;
}

size_t stream_check(enum stream_op op, const double *a, const double *b, const double *c, double s,
		    size_t n, double sum)
{
	/*
	 * The start values make every result exact in binary floating point
	 * (4s is exact, 2 + 4s is rounded once whether or not the loop used an
	 * FMA, a sum of n ones is exact below 2^53), so the comparison is
	 * exact: any difference is an error, not rounding.
	 */
	const double A = STREAM_INIT_A, B = STREAM_INIT_B, C = STREAM_INIT_C;

	switch (op) {
	case STREAM_COPY:
		return count_not(a, A, n) + count_not(c, A, n);
	case STREAM_SCALE:
		return count_not(b, s * C, n) + count_not(c, C, n);
	case STREAM_ADD:
		return count_not(a, A, n) + count_not(b, B, n) + count_not(c, A + B, n);
	case STREAM_TRIAD:
		return count_not(a, B + s * C, n) + count_not(b, B, n) + count_not(c, C, n);
	case STREAM_READ:
		/* A wrong sum cannot say which element was wrong: count all of them. */
		return count_not(a, A, n) + (sum != (double)n * A ? n : 0);
	case STREAM_WRITE:
		return count_not(a, s, n);
	}
	return n;
}
