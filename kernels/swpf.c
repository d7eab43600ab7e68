// SPDX-License-Identifier: GPL-2.0-only
/*
 * swpf.c - read with software prefetch, per ISA.
 *
 * Each iteration loads whole cache lines into independent accumulators
 * (as the plain read does, so that only the prefetch differs) and issues one
 * prefetcht0 per line, SWPF_DISTANCE bytes ahead.  Prefetches never fault,
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

static double swpf_sse2(double *restrict a, double *restrict b, double *restrict c, double s,
			size_t n)
{
	__m128d acc[4] = { _mm_setzero_pd(), _mm_setzero_pd(), _mm_setzero_pd(), _mm_setzero_pd() };
	__m128d x;

	(void)b, (void)c, (void)s;
	for (size_t i = 0; i < n; i += LINE_DOUBLES) {
		PF(a + i);
		acc[0] = _mm_add_pd(acc[0], _mm_load_pd(a + i));
		acc[1] = _mm_add_pd(acc[1], _mm_load_pd(a + i + 2));
		acc[2] = _mm_add_pd(acc[2], _mm_load_pd(a + i + 4));
		acc[3] = _mm_add_pd(acc[3], _mm_load_pd(a + i + 6));
	}
	x = _mm_add_pd(_mm_add_pd(acc[0], acc[1]), _mm_add_pd(acc[2], acc[3]));
	x = _mm_add_sd(x, _mm_unpackhi_pd(x, x));
	return keep(_mm_cvtsd_f64(x));
}

__attribute__((target("avx2"))) static double swpf_avx2(double *restrict a, double *restrict b,
							double *restrict c, double s, size_t n)
{
	__m256d acc[4] = { _mm256_setzero_pd(), _mm256_setzero_pd(), _mm256_setzero_pd(),
			   _mm256_setzero_pd() };
	__m128d x;

	(void)b, (void)c, (void)s;
	/* Two lines per iteration, four accumulators: as many loads in flight as the read. */
	for (size_t i = 0; i < n; i += 2 * LINE_DOUBLES) {
		PF(a + i);
		PF(a + i + LINE_DOUBLES);
		acc[0] = _mm256_add_pd(acc[0], _mm256_load_pd(a + i));
		acc[1] = _mm256_add_pd(acc[1], _mm256_load_pd(a + i + 4));
		acc[2] = _mm256_add_pd(acc[2], _mm256_load_pd(a + i + 8));
		acc[3] = _mm256_add_pd(acc[3], _mm256_load_pd(a + i + 12));
	}
	acc[0] = _mm256_add_pd(_mm256_add_pd(acc[0], acc[1]), _mm256_add_pd(acc[2], acc[3]));
	x = _mm_add_pd(_mm256_castpd256_pd128(acc[0]), _mm256_extractf128_pd(acc[0], 1));
	x = _mm_add_sd(x, _mm_unpackhi_pd(x, x));
	return keep(_mm_cvtsd_f64(x));
}

/* Read (the sum of a) with prefetcht0 2 KiB ahead, per ISA. */
#define SWPF_ROW(isa_, align_, fn_)                                                               \
	{ .name = "read_swpf", .op = STREAM_READ, .isa = isa_, .nt = false, .arrays = 1,         \
	  .uses = STREAM_A, .bytes_stream = 8, .bytes_wa = 8, .align_elems = align_, .fn = fn_ }

const struct stream_kernel swpf_kernels[] = {
	SWPF_ROW(PH_ISA_SCALAR, LINE_DOUBLES, swpf_scalar),
	SWPF_ROW(PH_ISA_SSE2, LINE_DOUBLES, swpf_sse2),
	SWPF_ROW(PH_ISA_AVX2, 2 * LINE_DOUBLES, swpf_avx2),
};

const size_t swpf_nkernels = sizeof(swpf_kernels) / sizeof(swpf_kernels[0]);

const struct stream_kernel *swpf_find(enum ph_isa isa)
{
	/* AVX-512 adds nothing to a prefetching read: take the widest below. */
	if (isa == PH_ISA_AVX512)
		isa = PH_ISA_AVX2;
	for (size_t i = 0; i < swpf_nkernels; i++)
		if (swpf_kernels[i].isa == isa)
			return &swpf_kernels[i];
	return NULL;
}
