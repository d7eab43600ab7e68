// SPDX-License-Identifier: GPL-2.0-only
/*
 * swpf.c - read with software prefetch, per ISA.
 *
 * Each variant is the plain read of its ISA (kernels/stream.c: the same
 * accumulators, the same lines per iteration) with one prefetcht0 per line,
 * SWPF_DISTANCE bytes ahead, so that only the prefetch differs.  Prefetches never fault,
 * so those past the end of the array are harmless.
 */
#include "swpf.h"

#include <immintrin.h>

#define LINE_DOUBLES 8

/* Keep the sum alive: the loads cannot be deleted. */
static inline double keep(double x)
{
	__asm__ __volatile__("" : "+x"(x));
	return x;
}

#define PF(p) _mm_prefetch((const char *)(p) + SWPF_DISTANCE, _MM_HINT_T0)

static double swpf_scalar(double *restrict a, double *restrict b, double *restrict c, double s,
			  size_t n)
{
	double acc[LINE_DOUBLES] = { 0 };

	(void)b, (void)c, (void)s;
	for (size_t i = 0; i < n; i += LINE_DOUBLES) {
		PF(a + i);
		for (int k = 0; k < LINE_DOUBLES; k++) {
			double x = a[i + k];

			/* One double per load, as the plain scalar read. */
			__asm__("" : "+x"(x));
			acc[k] += x;
		}
	}
	return keep(((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7])));
}

/*
 * The vector variants are the plain read's loops of kernels/stream.c (eight
 * accumulators, as many lines per iteration) with one prefetch per line
 * added, so that the prefetch is the only difference between read and
 * read_swpf of one ISA.  tests/unit/test_swpf.c checks both tables agree.
 */
#define SWPF_ACC 8
/* As in stream.c: the accumulators must be registers, not an array in memory. */
#define UNROLL _Pragma("GCC unroll 16")

/* Eight accumulators added pairwise, as the plain read does. */
#define SUM8(add, x)                                                                               \
	add(add(add((x)[0], (x)[1]), add((x)[2], (x)[3])),                                         \
	    add(add((x)[4], (x)[5]), add((x)[6], (x)[7])))

/* 2 doubles a register: 16 doubles, two lines per iteration. */
#define SSE2_STEP (2 * SWPF_ACC)
static double swpf_sse2(double *restrict a, double *restrict b, double *restrict c, double s,
			size_t n)
{
	__m128d acc[SWPF_ACC];

	(void)b, (void)c, (void)s;
	UNROLL for (int k = 0; k < SWPF_ACC; k++)
		acc[k] = _mm_setzero_pd();
	for (size_t i = 0; i < n; i += SSE2_STEP) {
		PF(a + i);
		PF(a + i + LINE_DOUBLES);
		UNROLL for (int k = 0; k < SWPF_ACC; k++)
			acc[k] = _mm_add_pd(acc[k], _mm_load_pd(a + i + 2 * k));
	}
	acc[0] = SUM8(_mm_add_pd, acc);
	acc[0] = _mm_add_sd(acc[0], _mm_unpackhi_pd(acc[0], acc[0]));
	return keep(_mm_cvtsd_f64(acc[0]));
}

/* 4 doubles a register: 32 doubles, four lines per iteration. */
#define AVX2_STEP (4 * SWPF_ACC)
__attribute__((target("avx2"))) static double swpf_avx2(double *restrict a, double *restrict b,
							double *restrict c, double s, size_t n)
{
	__m256d acc[SWPF_ACC];
	__m128d x;

	(void)b, (void)c, (void)s;
	UNROLL for (int k = 0; k < SWPF_ACC; k++)
		acc[k] = _mm256_setzero_pd();
	for (size_t i = 0; i < n; i += AVX2_STEP) {
		UNROLL for (int l = 0; l < AVX2_STEP / LINE_DOUBLES; l++)
			PF(a + i + l * LINE_DOUBLES);
		UNROLL for (int k = 0; k < SWPF_ACC; k++)
			acc[k] = _mm256_add_pd(acc[k], _mm256_load_pd(a + i + 4 * k));
	}
	acc[0] = SUM8(_mm256_add_pd, acc);
	x = _mm_add_pd(_mm256_castpd256_pd128(acc[0]), _mm256_extractf128_pd(acc[0], 1));
	x = _mm_add_sd(x, _mm_unpackhi_pd(x, x));
	return keep(_mm_cvtsd_f64(x));
}

/* 8 doubles a register, one line: 64 doubles, eight lines per iteration. */
#define AVX512_STEP (8 * SWPF_ACC)
__attribute__((target("avx512f"))) static double swpf_avx512(double *restrict a, double *restrict b,
							     double *restrict c, double s, size_t n)
{
	__m512d acc[SWPF_ACC];

	(void)b, (void)c, (void)s;
	UNROLL for (int k = 0; k < SWPF_ACC; k++)
		acc[k] = _mm512_setzero_pd();
	for (size_t i = 0; i < n; i += AVX512_STEP) {
		UNROLL for (int k = 0; k < SWPF_ACC; k++) {
			PF(a + i + 8 * k);
			acc[k] = _mm512_add_pd(acc[k], _mm512_load_pd(a + i + 8 * k));
		}
	}
	acc[0] = SUM8(_mm512_add_pd, acc);
	return keep(_mm512_reduce_add_pd(acc[0]));
}

/* Read (the sum of a) with prefetcht0 2 KiB ahead, per ISA. */
#define SWPF_ROW(isa_, align_, fn_)                                                               \
	{ .name = "read_swpf", .op = STREAM_READ, .isa = isa_, .nt = false, .arrays = 1,         \
	  .uses = STREAM_A, .bytes_stream = 8, .bytes_wa = 8, .align_elems = align_, .fn = fn_ }

const struct stream_kernel swpf_kernels[] = {
	SWPF_ROW(PH_ISA_SCALAR, LINE_DOUBLES, swpf_scalar),
	SWPF_ROW(PH_ISA_SSE2, SSE2_STEP, swpf_sse2),
	SWPF_ROW(PH_ISA_AVX2, AVX2_STEP, swpf_avx2),
	SWPF_ROW(PH_ISA_AVX512, AVX512_STEP, swpf_avx512),
};

const size_t swpf_nkernels = sizeof(swpf_kernels) / sizeof(swpf_kernels[0]);

const struct stream_kernel *swpf_find(enum ph_isa isa)
{
	/* Exactly isa: the study divides read_swpf by the read of the same ISA. */
	for (size_t i = 0; i < swpf_nkernels; i++)
		if (swpf_kernels[i].isa == isa)
			return &swpf_kernels[i];
	return NULL;
}
