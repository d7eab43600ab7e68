// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_stream.c - the bandwidth loops against results computed here by
 * plain C loops (not by stream_check()), the byte accounting against
 * hand-written values, ISA names and run-time dispatch, and guard elements
 * around every array so that a loop writing past n is caught; and how
 * long the bandwidth runner's chunks are.
 *
 * Variants for an ISA this machine cannot run are skipped, with the reason.
 */
#include "unit.h"
#include "bandwidth.h"
#include "stream.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* -------------------------------------------------------------- the table */

/* What STREAM counts per element, and what the lines really cost with a
 * write-allocate cache: written out by hand, not derived from the code. */
static const struct {
	const char *name;
	enum stream_op op;
	unsigned arrays, uses;
	unsigned bytes_stream, bytes_wa, bytes_wa_nt;
	const char *desc;	/* STREAM's assignment */
} expect[] = {
	{ "copy", STREAM_COPY, 2, STREAM_A | STREAM_C, 16, 24, 16, "c = a" },
	{ "scale", STREAM_SCALE, 2, STREAM_B | STREAM_C, 16, 24, 16, "b = s*c" },
	{ "add", STREAM_ADD, 3, STREAM_A | STREAM_B | STREAM_C, 24, 32, 24, "c = a + b" },
	{ "triad", STREAM_TRIAD, 3, STREAM_A | STREAM_B | STREAM_C, 24, 32, 24, "a = b + s*c" },
	{ "read", STREAM_READ, 1, STREAM_A, 8, 8, 0 /* no nt variant */, "sum of a" },
	{ "write", STREAM_WRITE, 1, STREAM_A, 8, 16, 8, "a = s" },
};

/* The op's entry in stream_ops[], or NULL. */
static const struct stream_op_info *op_info(const char *name)
{
	for (size_t i = 0; i < stream_nops; i++)
		if (!strcmp(stream_ops[i].name, name))
			return &stream_ops[i];
	return NULL;
}

static const enum ph_isa all_isas[] = { PH_ISA_SCALAR, PH_ISA_SSE2, PH_ISA_AVX2, PH_ISA_AVX512 };

static void test_table(void **state)
{
	size_t found = 0;

	(void)state;
	for (size_t e = 0; e < sizeof(expect) / sizeof(expect[0]); e++) {
		for (size_t i = 0; i < sizeof(all_isas) / sizeof(all_isas[0]); i++) {
			for (int nt = 0; nt <= 1; nt++) {
				const struct stream_kernel *k =
					stream_find(expect[e].name, all_isas[i], nt);

				if (expect[e].op == STREAM_READ && nt) {
					assert_null(k);
					continue;
				}
				assert_non_null(k);
				found++;
				assert_string_equal(k->name, expect[e].name);
				assert_int_equal(k->op, expect[e].op);
				assert_int_equal(k->isa, all_isas[i]);
				assert_int_equal(k->nt, nt);
				assert_int_equal(k->arrays, expect[e].arrays);
				assert_int_equal(k->uses, expect[e].uses);
				assert_int_equal(k->bytes_stream, expect[e].bytes_stream);
				assert_int_equal(k->bytes_wa,
						 nt ? expect[e].bytes_wa_nt : expect[e].bytes_wa);
				assert_true(k->align_elems >= 1 && k->align_elems <= 64);
				assert_non_null(k->fn);
				/* What the op computes is said once, in stream_ops[]. */
				assert_non_null(op_info(k->name));
				assert_int_equal(op_info(k->name)->op, k->op);
				assert_string_equal(op_info(k->name)->desc, expect[e].desc);
			}
		}
	}
	/* 6 ops x 4 ISAs x {normal, nt}, less read's 4 nt variants; nothing else. */
	assert_int_equal(found, 44);
	assert_int_equal(stream_nkernels, 44);
	assert_null(stream_find("Copy", PH_ISA_AVX2, false));
	assert_null(stream_find("triad", (enum ph_isa)0, false));
	assert_null(stream_find("", PH_ISA_SCALAR, false));
	assert_string_equal(stream_op_list(), "copy, scale, add, triad, read or write");
	/* Each op once, in the table's order, its description not repeating its name. */
	assert_int_equal(stream_nops, sizeof(expect) / sizeof(expect[0]));
	for (size_t e = 0; e < stream_nops; e++) {
		assert_string_equal(stream_ops[e].name, expect[e].name);
		assert_null(strstr(stream_ops[e].desc, stream_ops[e].name));
	}
}

/* -------------------------------------------------------------- ISA */

static void test_isa_names(void **state)
{
	static const struct { const char *s; enum ph_isa isa; } good[] = {
		{ "scalar", PH_ISA_SCALAR },
		{ "sse2", PH_ISA_SSE2 },
		{ "avx2", PH_ISA_AVX2 },
		{ "avx512", PH_ISA_AVX512 },
	};
	static const char *const bad[] = { "", "AVX2", "avx", "avx512f", "sse", "sse4",
					   " avx2", "avx2 ", "auto2", "scalar,avx2" };
	enum ph_isa isa;

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		isa = (enum ph_isa)0;
		assert_int_equal(isa_parse(good[i].s, &isa), 0);
		assert_int_equal(isa, good[i].isa);
		assert_string_equal(isa_name(good[i].isa), good[i].s);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		isa = PH_ISA_SSE2;
		assert_int_equal(isa_parse(bad[i], &isa), -EINVAL);
		assert_int_equal(isa, PH_ISA_SSE2); /* untouched on error */
	}
	/* auto is chosen per loop (test_isa_choice.c), not here. */
	assert_int_equal(isa_parse("auto", &isa), 0);
	assert_int_equal(isa, PH_ISA_AUTO);
	assert_string_equal(isa_name((enum ph_isa)0), "?");
	assert_string_equal(isa_name((enum ph_isa)99), "?");
	/* Messages and --help name them from the same table. */
	assert_string_equal(isa_name_list(), "scalar, sse2, avx2 or avx512");
	for (size_t i = 0; i < sizeof(all_isas) / sizeof(all_isas[0]); i++)
		assert_string_not_equal(isa_desc(all_isas[i]), "?");
	assert_string_equal(isa_desc((enum ph_isa)0), "?");
	assert_string_equal(isa_desc((enum ph_isa)99), "?");
}

static void test_isa_supported(void **state)
{
	(void)state;
	/* Every x86-64 CPU has SSE2. */
	assert_true(isa_supported(PH_ISA_SCALAR));
	assert_true(isa_supported(PH_ISA_SSE2));
	assert_false(isa_supported((enum ph_isa)0));
	assert_true(isa_supported(isa_best()));
	for (int i = isa_best() + 1; i <= PH_ISA_AVX512; i++)
		assert_false(isa_supported((enum ph_isa)i));

	/* A second opinion: the compiler runtime's own CPUID and XCR0 checks. */
	__builtin_cpu_init();
	assert_int_equal(isa_supported(PH_ISA_AVX2),
			 __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"));
	assert_int_equal(isa_supported(PH_ISA_AVX512),
			 __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx2") &&
				 __builtin_cpu_supports("fma"));
	print_message("isa_best() here: %s\n", isa_name(isa_best()));
}

/* What info prints: every supported ISA by name, narrowest first, and no other. */
static void test_isa_list(void **state)
{
	char buf[64], want[64] = "scalar,sse2";
	char tiny[8];

	(void)state;
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
		strcat(want, ",avx2");
		if (__builtin_cpu_supports("avx512f"))
			strcat(want, ",avx512");
	}
	assert_string_equal(isa_supported_list(buf, sizeof(buf)), want);
	/* A short buffer is cut, never overrun. */
	assert_int_equal(strlen(isa_supported_list(tiny, sizeof(tiny))), sizeof(tiny) - 1);
}

/* CPUID bits (Intel SDM vol. 2A, CPUID) and XCR0 states, written out. */
#define L1C_FMA (1u << 12)
#define L1C_OSXSAVE (1u << 27)
#define L1C_AVX (1u << 28)
#define L1D_SSE2 (1u << 26)
#define L7B_AVX2 (1u << 5)
#define L7B_AVX512F (1u << 16)
#define X_SSE 0x2ull
#define X_AVX 0x4ull
#define X_AVX512 0xe0ull

static void test_isa_supported_by(void **state)
{
	const unsigned c = L1C_FMA | L1C_OSXSAVE | L1C_AVX, d = L1D_SSE2;
	const unsigned b7 = L7B_AVX2 | L7B_AVX512F;
	const unsigned long long x = 1 | X_SSE | X_AVX | X_AVX512;

	(void)state;
	/* Everything present. */
	assert_true(isa_supported_by(PH_ISA_SCALAR, 0, 0, 0, 0));
	assert_true(isa_supported_by(PH_ISA_SSE2, c, d, b7, x));
	assert_true(isa_supported_by(PH_ISA_AVX2, c, d, b7, x));
	assert_true(isa_supported_by(PH_ISA_AVX512, c, d, b7, x));
	assert_false(isa_supported_by(PH_ISA_SSE2, c, 0, b7, x));
	/* The CPU has AVX2 but the OS does not save YMM state. */
	assert_false(isa_supported_by(PH_ISA_AVX2, c, d, b7, 1 | X_SSE));
	assert_false(isa_supported_by(PH_ISA_AVX2, c & ~L1C_OSXSAVE, d, b7, x));
	/* A missing CPUID bit: AVX, FMA, AVX2. */
	assert_false(isa_supported_by(PH_ISA_AVX2, c & ~L1C_AVX, d, b7, x));
	assert_false(isa_supported_by(PH_ISA_AVX2, c & ~L1C_FMA, d, b7, x));
	assert_false(isa_supported_by(PH_ISA_AVX2, c, d, L7B_AVX512F, x));
	/* AVX-512F without the OS saving ZMM and opmask state, or only part of it. */
	assert_true(isa_supported_by(PH_ISA_AVX2, c, d, b7, 1 | X_SSE | X_AVX));
	assert_false(isa_supported_by(PH_ISA_AVX512, c, d, b7, 1 | X_SSE | X_AVX));
	assert_false(isa_supported_by(PH_ISA_AVX512, c, d, b7, 1 | X_SSE | X_AVX | 0x60));
	assert_false(isa_supported_by(PH_ISA_AVX512, c, d, L7B_AVX2, x));
	/* This machine, as the CPU reports it: no AVX-512 (EPYC Milan). */
	assert_false(isa_supported_by(PH_ISA_AVX512, c, d, L7B_AVX2, 1 | X_SSE | X_AVX));
	assert_false(isa_supported_by((enum ph_isa)0, c, d, b7, x));
}

/* -------------------------------------------------------------- the loops */

/*
 * Arrays with GUARD doubles either side, filled with a pattern no loop
 * writes.  GUARD keeps the array itself aligned to 512 bytes, more than any
 * variant asks (align_elems <= 64 doubles).
 */
#define GUARD 64
#define GUARD_BITS 0x7ff4dead0badf00dull	/* a signalling NaN */

struct arr {
	double *base;	/* GUARD + n + GUARD doubles */
	double *p;	/* base + GUARD */
	size_t n;
};

static void arr_new(struct arr *x, size_t n)
{
	uint64_t g = GUARD_BITS;

	x->n = n;
	assert_int_equal(posix_memalign((void **)&x->base, 4096, (n + 2 * GUARD) * sizeof(double)),
			 0);
	for (size_t i = 0; i < n + 2 * GUARD; i++)
		memcpy(&x->base[i], &g, sizeof(g));
	x->p = x->base + GUARD;
}

static void arr_guards_intact(const struct arr *x, const char *what)
{
	uint64_t g = GUARD_BITS;

	for (size_t i = 0; i < GUARD; i++) {
		if (memcmp(&x->base[i], &g, sizeof(g)) ||
		    memcmp(&x->p[x->n + i], &g, sizeof(g)))
			fail_msg("%s: guard element %zu %s the array overwritten", what, i,
				 memcmp(&x->base[i], &g, sizeof(g)) ? "before" : "after");
	}
}

/*
 * Inputs that differ from element to element (so a loop that reads the
 * wrong index is caught) and whose results are exact in any evaluation
 * order, with or without FMA: multiples of 1/8 below 100, s = 3.
 */
static void fill_inputs(double *a, double *b, double *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		a[i] = 0.5 + (double)(i % 97);
		b[i] = -3.0 + 0.25 * (double)(i % 89);
		c[i] = 1.0 + 0.125 * (double)(i % 83);
	}
}

static const double S = 3.0;

static void check_one(const struct stream_kernel *k, size_t n)
{
	struct arr A, B, C;
	double *ea, *eb, *ec, want_sum = 0, got_sum;
	char what[160];

	snprintf(what, sizeof(what), "%s/%s%s n=%zu", k->name, isa_name(k->isa),
		 k->nt ? "/nt" : "", n);
	arr_new(&A, n);
	arr_new(&B, n);
	arr_new(&C, n);
	fill_inputs(A.p, B.p, C.p, n);
	ea = malloc(n * sizeof(double));
	eb = malloc(n * sizeof(double));
	ec = malloc(n * sizeof(double));
	assert_non_null(ea);
	assert_non_null(eb);
	assert_non_null(ec);
	memcpy(ea, A.p, n * sizeof(double));
	memcpy(eb, B.p, n * sizeof(double));
	memcpy(ec, C.p, n * sizeof(double));

	/* The reference, straight from STREAM's definitions. */
	for (size_t i = 0; i < n; i++) {
		switch (k->op) {
		case STREAM_COPY: ec[i] = ea[i]; break;
		case STREAM_SCALE: eb[i] = S * ec[i]; break;
		case STREAM_ADD: ec[i] = ea[i] + eb[i]; break;
		case STREAM_TRIAD: ea[i] = eb[i] + S * ec[i]; break;
		case STREAM_READ: want_sum += ea[i]; break;
		case STREAM_WRITE: ea[i] = S; break;
		}
	}

	/* Twice: the runner repeats a loop on the same arrays.  Arrays the op
	 * does not use are passed as NULL, so touching one would crash. */
	for (int rep = 0; rep < 2; rep++) {
		got_sum = k->fn(k->uses & STREAM_A ? A.p : NULL, k->uses & STREAM_B ? B.p : NULL,
				k->uses & STREAM_C ? C.p : NULL, S, n);
		if (k->op == STREAM_READ) {
			if (got_sum != want_sum)
				fail_msg("%s: sum %.17g, want %.17g", what, got_sum, want_sum);
		} else if (got_sum != 0) {
			fail_msg("%s: returned %g, want 0", what, got_sum);
		}
	}
	for (size_t i = 0; i < n; i++) {
		if (A.p[i] != ea[i] || B.p[i] != eb[i] || C.p[i] != ec[i])
			fail_msg("%s: element %zu: a=%g b=%g c=%g, want a=%g b=%g c=%g", what, i,
				 A.p[i], B.p[i], C.p[i], ea[i], eb[i], ec[i]);
	}
	arr_guards_intact(&A, what);
	arr_guards_intact(&B, what);
	arr_guards_intact(&C, what);

	/* stream_check() must agree: valid output passes ... */
	stream_init(A.p, B.p, C.p, n);
	got_sum = k->fn(A.p, B.p, C.p, S, n);
	if (stream_check(k->op, A.p, B.p, C.p, S, n, got_sum))
		fail_msg("%s: stream_check found %zu errors in valid output", what,
			 stream_check(k->op, A.p, B.p, C.p, S, n, got_sum));
	/* ... and one corrupted element, first or last, is found. */
	{
		double *dst = k->op == STREAM_COPY || k->op == STREAM_ADD ? C.p :
			      k->op == STREAM_SCALE ? B.p : A.p;
		const size_t at[] = { 0, n - 1 };

		for (size_t j = 0; j < 2; j++) {
			dst[at[j]] += 1.0;
			if (stream_check(k->op, A.p, B.p, C.p, S, n, got_sum) == 0)
				fail_msg("%s: stream_check missed a wrong element at %zu", what,
					 at[j]);
			dst[at[j]] -= 1.0;
		}
		assert_int_equal(stream_check(k->op, A.p, B.p, C.p, S, n, got_sum), 0);
	}
	if (k->op == STREAM_READ)
		assert_true(stream_check(k->op, A.p, B.p, C.p, S, n, got_sum + 1) > 0);

	free(ea);
	free(eb);
	free(ec);
	free(A.base);
	free(B.base);
	free(C.base);
}

static void check_isa(enum ph_isa isa)
{
	int ran = 0;

	if (!isa_supported(isa)) {
		print_message("skipped: %s variants: this CPU or OS does not support %s\n",
			      isa_name(isa), isa_name(isa));
		skip();
	}
	for (size_t i = 0; i < stream_nkernels; i++) {
		const struct stream_kernel *k = &stream_kernels[i];
		/* Tiny (one iteration and a few), odd multiples, and a few MiB
		 * per array (past L2, so the hardware prefetchers run). */
		const size_t mult[] = { 1, 2, 3, 7, 64, 1001 };
		const size_t mib[] = { 3 };

		if (k->isa != isa)
			continue;
		for (size_t m = 0; m < sizeof(mult) / sizeof(mult[0]); m++)
			check_one(k, mult[m] * k->align_elems);
		for (size_t m = 0; m < sizeof(mib) / sizeof(mib[0]); m++)
			check_one(k, (mib[m] << 20) / sizeof(double) / k->align_elems *
					     k->align_elems);
		ran++;
	}
	assert_int_equal(ran, 11); /* 6 ops, 5 of them also non-temporal */
}

static void test_scalar(void **state)
{
	(void)state;
	check_isa(PH_ISA_SCALAR);
}

static void test_sse2(void **state)
{
	(void)state;
	check_isa(PH_ISA_SSE2);
}

static void test_avx2(void **state)
{
	(void)state;
	check_isa(PH_ISA_AVX2);
}

static void test_avx512(void **state)
{
	(void)state;
	check_isa(PH_ISA_AVX512);
}

/* -------------------------------------------------------------- validation */

static void test_init_and_check(void **state)
{
	enum { N = 64 };
	double a[N], b[N], c[N];

	(void)state;
	stream_init(a, b, c, N);
	for (size_t i = 0; i < N; i++) {
		assert_true(a[i] == 1.0 && b[i] == 2.0 && c[i] == 4.0);
	}
	/* NULL arrays are skipped. */
	a[0] = -1;
	stream_init(NULL, b, NULL, N);
	assert_true(a[0] == -1);
	stream_init(a, NULL, NULL, N);
	assert_true(a[0] == 1);

	/* Start values are not a valid result: an op that did nothing is caught,
	 * every element of its destination counted once. */
	assert_int_equal(stream_check(STREAM_COPY, a, b, c, 3, N, 0), N);
	assert_int_equal(stream_check(STREAM_SCALE, a, b, c, 3, N, 0), N);
	assert_int_equal(stream_check(STREAM_ADD, a, b, c, 3, N, 0), N);
	assert_int_equal(stream_check(STREAM_TRIAD, a, b, c, 3, N, 0), N);
	assert_int_equal(stream_check(STREAM_WRITE, a, b, c, 3, N, 0), N);
	assert_int_equal(stream_check(STREAM_READ, a, b, c, 3, N, 0), N);
	assert_int_equal(stream_check(STREAM_READ, a, b, c, 3, N, N), 0);

	/* The results, written out: copy c = 1, scale b = 12, add c = 3,
	 * triad a = 14, write a = 3. */
	for (size_t i = 0; i < N; i++)
		c[i] = 1;
	assert_int_equal(stream_check(STREAM_COPY, a, NULL, c, 3, N, 0), 0);
	stream_init(a, b, c, N);
	for (size_t i = 0; i < N; i++)
		b[i] = 12;
	assert_int_equal(stream_check(STREAM_SCALE, NULL, b, c, 3, N, 0), 0);
	stream_init(a, b, c, N);
	for (size_t i = 0; i < N; i++)
		c[i] = 3;
	assert_int_equal(stream_check(STREAM_ADD, a, b, c, 3, N, 0), 0);
	/* A source changed is an error too. */
	b[5] = 0;
	assert_int_equal(stream_check(STREAM_ADD, a, b, c, 3, N, 0), 1);
	stream_init(a, b, c, N);
	for (size_t i = 0; i < N; i++)
		a[i] = 14;
	assert_int_equal(stream_check(STREAM_TRIAD, a, b, c, 3, N, 0), 0);
	a[N - 1] = NAN;
	assert_int_equal(stream_check(STREAM_TRIAD, a, b, c, 3, N, 0), 1);
	for (size_t i = 0; i < N; i++)
		a[i] = 3;
	assert_int_equal(stream_check(STREAM_WRITE, a, NULL, NULL, 3, N, 0), 0);
	assert_int_equal(stream_check(STREAM_WRITE, a, NULL, NULL, 2, N, 0), N);
}

/* ------------------------------------------------------------------ chunks */

/* bandwidth_chunk(): n/256 rounded up to whole iterations, at least 8192;
 * the values worked out by hand. */
static void test_chunk(void **state)
{
	(void)state;
	/* In the caches: the floor (arrays streamed whole, repeatedly). */
	assert_int_equal(bandwidth_chunk(1000, 8), 8192);
	assert_int_equal(bandwidth_chunk(8192, 64), 8192);
	/* 2^21 / 256 = 8192 exactly; 8 more elements make it 8193, then 8200. */
	assert_int_equal(bandwidth_chunk(2097152, 8), 8192);
	assert_int_equal(bandwidth_chunk(2097160, 8), 8200);
	/* 44739072 / 256 = 174762 exactly: as is for an iteration of 2, and
	 * 10923 iterations of 16 (174768) for 16. */
	assert_int_equal(bandwidth_chunk(44739072, 2), 174762);
	assert_int_equal(bandwidth_chunk(44739072, 16), 174768);
	/* 1 GiB of copy at one thread: 2^26 doubles an array, 2^18 a chunk. */
	assert_int_equal(bandwidth_chunk(67108864, 64), 262144);
}

/*
 * bandwidth_part(): of C = ceil(n / chunk) chunks, part p of P holds
 * chunks floor(p C / P) to floor((p + 1) C / P); worked out by hand.
 */
static void test_part(void **state)
{
	static const struct {
		size_t n, chunk;
		unsigned parts, p;
		size_t lo, len;
	} want[] = {
		/* 100 elements in chunks of 8: 13 chunks, the last of 4.  Four
		 * parts take chunks 0-2, 3-5, 6-8 and 9-12: 24, 24, 24, 28. */
		{ 100, 8, 4, 0, 0, 24 },
		{ 100, 8, 4, 1, 24, 24 },
		{ 100, 8, 4, 2, 48, 24 },
		{ 100, 8, 4, 3, 72, 28 },
		/* One part: the whole arrays. */
		{ 100, 8, 1, 0, 0, 100 },
		/* An 80 MiB range, one array: 10485760 doubles in 256 chunks of
		 * 40960.  Ten parts, 25.6 chunks each: part 0 chunks 0-24, part
		 * 1 chunks 25-50, part 9 chunks 230-255, ending at 10485760. */
		{ 10485760, 40960, 10, 0, 0, 1024000 },
		{ 10485760, 40960, 10, 1, 1024000, 1064960 },
		{ 10485760, 40960, 10, 9, 9420800, 1064960 },
	};
	size_t lo, len, at = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		bandwidth_part(want[i].n, want[i].chunk, want[i].parts, want[i].p, &lo, &len);
		assert_int_equal(lo, want[i].lo);
		assert_int_equal(len, want[i].len);
	}
	/* And every part follows the last, none empty: together exactly once. */
	for (unsigned p = 0; p < 10; p++) {
		bandwidth_part(10485760, 40960, 10, p, &lo, &len);
		assert_int_equal(lo, at);
		assert_true(len > 0);
		at += len;
	}
	assert_int_equal(at, 10485760);
}

/* bandwidth_parts(): parts of at least 1 ms of the pass, at most those asked and the chunks. */
static void test_parts(void **state)
{
	(void)state;
	assert_int_equal(bandwidth_parts(10, 256, 0.0105), 10);
	assert_int_equal(bandwidth_parts(10, 256, 0.0047), 4);
	assert_int_equal(bandwidth_parts(10, 256, 0.0015), 1);
	assert_int_equal(bandwidth_parts(10, 3, 0.5), 3);
	/* A pass shorter than a part: timed blocks. */
	assert_int_equal(bandwidth_parts(10, 256, 0.0009), 0);
	assert_int_equal(bandwidth_parts(10, 256, NAN), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_isa_names),
		cmocka_unit_test(test_isa_supported),
		cmocka_unit_test(test_isa_list),
		cmocka_unit_test(test_isa_supported_by),
		cmocka_unit_test(test_init_and_check),
		cmocka_unit_test(test_scalar),
		cmocka_unit_test(test_sse2),
		cmocka_unit_test(test_avx2),
		cmocka_unit_test(test_avx512),
		cmocka_unit_test(test_chunk),
		cmocka_unit_test(test_part),
		cmocka_unit_test(test_parts),
	};

	return cmocka_run_group_tests_name("stream", tests, NULL, NULL);
}
