// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_swpf.c - the read with software prefetch against the plain read it
 * is set beside: for every ISA there is a read_swpf of that very ISA (the
 * prefetch study divides one by the other, so a read_swpf of another ISA
 * would mix the prefetch with the vector width), covering as many doubles
 * per iteration as the plain read; and each sums its array to what a plain
 * C loop here computes.  Variants this machine cannot run are skipped for
 * the sum, with the reason.
 */
#include "unit.h"
#include "isa.h"
#include "stream.h"
#include "swpf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const enum ph_isa all_isas[] = { PH_ISA_SCALAR, PH_ISA_SSE2, PH_ISA_AVX2, PH_ISA_AVX512 };
#define NISAS (sizeof(all_isas) / sizeof(all_isas[0]))

static void test_same_isa(void **state)
{
	(void)state;
	for (size_t i = 0; i < NISAS; i++) {
		const struct stream_kernel *sw = swpf_find(all_isas[i]);

		if (!sw || sw->isa != all_isas[i])
			fail_msg("read_swpf for %s: %s", isa_name(all_isas[i]),
				 sw ? isa_name(sw->isa) : "none");
	}
	/* One row per ISA, no more. */
	assert_int_equal(swpf_nkernels, NISAS);
}

static void test_same_loop(void **state)
{
	(void)state;
	for (size_t i = 0; i < swpf_nkernels; i++) {
		const struct stream_kernel *sw = &swpf_kernels[i];
		const struct stream_kernel *rd = stream_find("read", sw->isa, false);

		assert_non_null(rd);
		assert_string_equal(sw->name, "read_swpf");
		assert_int_equal(sw->op, STREAM_READ);
		assert_false(sw->nt);
		assert_int_equal(sw->bytes_stream, rd->bytes_stream);
		assert_int_equal(sw->bytes_wa, rd->bytes_wa);
		/* The same unrolled loop, one prefetch per line added. */
		if (sw->align_elems != rd->align_elems)
			fail_msg("read_swpf/%s covers %zu doubles per iteration, read/%s %zu",
				 isa_name(sw->isa), sw->align_elems, isa_name(sw->isa),
				 rd->align_elems);
	}
}

static void test_sums(void **state)
{
	const size_t n = 1 << 14;
	double *a = aligned_alloc(4096, n * sizeof(double));

	(void)state;
	assert_non_null(a);
	for (size_t j = 0; j < n; j++)
		a[j] = (double)(j % 97) - 40.0;	/* exact in binary: any order of adds agrees */
	for (size_t i = 0; i < swpf_nkernels; i++) {
		const struct stream_kernel *k = &swpf_kernels[i];
		double want = 0;

		if (!isa_supported(k->isa)) {
			printf("skip read_swpf/%s: not supported here\n", isa_name(k->isa));
			continue;
		}
		assert_int_equal(n % k->align_elems, 0);
		for (size_t j = 0; j < n; j++)
			want += a[j];
		assert_true(k->fn(a, NULL, NULL, 0, n) == want);
	}
	free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_isa),
		cmocka_unit_test(test_same_loop),
		cmocka_unit_test(test_sums),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
