// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_prom.c - the textfile metrics rendered from a model written by hand:
 * each figure in base units (the expected samples below are the figures'
 * ns and GB/s converted by hand), page sizes named as --page-sizes names
 * them, escaped label values, a figure without a value left out, and the
 * verdict's number (3 for UNKNOWN).
 */
#include "unit.h"
#include "prom.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The number of lines of t that start with prefix. */
static int lines_starting(const char *t, const char *prefix)
{
	int n = 0;

	for (const char *l = t; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l))
		n += !strncmp(l, prefix, strlen(prefix));
	return n;
}

static void test_prom(void **state)
{
	struct ph_hset s = { 0 };
	struct ph_hfindings f = { 0 };
	struct ph_hfinding *x;
	char *t;

	(void)state;
	hset_add_fig(&s, "latency_2m", 1, 1, "ns", 95.5, 95, 96);
	hset_add_fig(&s, "latency_4k", 1, 1, "ns", 120.25, 120, 121);
	hset_add_fig(&s, "latency_hop1", 0, 1, "ns", 210.125, 209, 211);
	hset_add_fig(&s, "latency_hop2", 0, 3, "ns", NAN, NAN, NAN);
	hset_add_fig(&s, "bandwidth_read_hop2", 0, 3, "GB/s", 20.25, 20, 21);
	hset_add_fig(&s, "bandwidth_triad", 1, 1, "GB/s", 54.3125, 54, 55);
	hset_add_fig(&s, "mem_total", 1, 1, "GiB", 2, 2, 2);
	hset_add_fig(&s, "hugepages_1g", 1, 1, "bool", 1, 1, 1);
	hset_add_fig(&s, "hugepages_2m", 1, 1, "bool", 0, 0, 0);
	x = hfindings_add(&f);
	x->fig = s.figs[0];
	x->st = PH_H_CRITICAL;
	x = hfindings_add(&f);
	x->fig = s.figs[3];
	x->st = PH_H_UNKNOWN;
	x = hfindings_add(&f);
	snprintf(x->fig.name, sizeof(x->fig.name), "we\"ird\\");
	x->fig.node = -1;
	x->basis = PH_HB_SETTING;
	x->st = PH_H_WARNING;
	t = prom_render(&s, &f, PH_H_UNKNOWN, 1.5, 1700000000);
	assert_non_null(strstr(t, "\npagehop_check_status 3\n"));
	assert_non_null(strstr(t, "\npagehop_check_timestamp_seconds 1700000000\n"));
	/* 95.5 ns = 9.55e-08 s, on THP; 120.25 ns and 210.125 ns on 4K. */
	assert_non_null(strstr(t, "\npagehop_latency_seconds{node=\"1\",mem_node=\"1\",page_size=\"THP\",hop=\"0\","
				  "figure=\"latency_2m\"} 9.55e-08\n"));
	assert_non_null(strstr(t, "\npagehop_latency_seconds{node=\"1\",mem_node=\"1\",page_size=\"4K\",hop=\"0\","
				  "figure=\"latency_4k\"} 1.2025e-07\n"));
	assert_non_null(strstr(t, "\npagehop_latency_seconds{node=\"0\",mem_node=\"1\",page_size=\"4K\",hop=\"1\","
				  "figure=\"latency_hop1\"} 2.10125e-07\n"));
	/* Not measured: no sample, its status says UNKNOWN. */
	assert_null(strstr(t, "pagehop_latency_seconds{node=\"0\",mem_node=\"3\""));
	assert_int_equal(lines_starting(t, "pagehop_latency_seconds{"), 3);
	/* 20.25 GB/s = 2.025e10 bytes/s; 54.3125 GB/s, six digits: 5.43125e10. */
	assert_non_null(strstr(t, "\npagehop_bandwidth_bytes_per_second{node=\"0\",mem_node=\"3\",kernel=\"read\",hop=\"2\","
				  "figure=\"bandwidth_read_hop2\"} 2.025e+10\n"));
	assert_non_null(strstr(t, "\npagehop_bandwidth_bytes_per_second{node=\"1\",mem_node=\"1\",kernel=\"triad\",hop=\"0\","
				  "figure=\"bandwidth_triad\"} 5.43125e+10\n"));
	assert_non_null(strstr(t, "\npagehop_memory_bytes{node=\"1\"} 2147483648\n"));
	assert_non_null(strstr(t, "\npagehop_hugepages_available{node=\"1\",page_size=\"1G\"} 1\n"));
	assert_non_null(strstr(t, "\npagehop_hugepages_available{node=\"1\",page_size=\"2M\"} 0\n"));
	assert_non_null(strstr(t, "\npagehop_figure_status{node=\"1\",mem_node=\"1\",figure=\"latency_2m\"} 2\n"));
	assert_non_null(strstr(t, "\npagehop_figure_status{node=\"0\",mem_node=\"3\",figure=\"latency_hop2\"} 3\n"));
	assert_non_null(strstr(t, "\npagehop_setting_status{setting=\"we\\\"ird\\\\\",basis=\"baseline\"} 1\n"));
	/* Each family once, with its help and type; no unit abbreviation left. */
	assert_int_equal(lines_starting(t, "# TYPE pagehop_latency_seconds gauge"), 1);
	assert_int_equal(lines_starting(t, "# HELP pagehop_bandwidth_bytes_per_second "), 1);
	assert_null(strstr(t, "_ns"));
	assert_null(strstr(t, "GBps"));
	free(t);
	hfindings_free(&f);
	hset_free(&s);
}

/* The load a check saw, as fractions and CPUs; no pressure family without PSI. */
static void test_prom_load(void **state)
{
	struct ph_hfindings f = { 0 };
	char *t;

	(void)state;
	f.load_ok = true;
	f.load_other_cpus = 1.25;
	f.load_steal = 0.0625;
	f.psi_cpu_ok = true;
	f.psi_cpu = 0.5;
	f.busy = true;
	f.nbusy = 2;
	t = prom_render(NULL, &f, PH_H_UNKNOWN, 1, 1700000000);
	assert_non_null(strstr(t, "\npagehop_check_load_other_cpus 1.250\n"));
	assert_non_null(strstr(t, "\npagehop_check_load_steal_ratio 0.0625\n"));
	assert_non_null(strstr(t, "\npagehop_check_load_pressure_ratio{resource=\"cpu\"} 0.5000\n"));
	assert_null(strstr(t, "resource=\"memory\""));
	assert_non_null(strstr(t, "\npagehop_check_busy 1\n"));
	assert_non_null(strstr(t, "\npagehop_check_busy_unjudged 2\n"));
	free(t);
	/* Not read: none of the load's families. */
	f.load_ok = false;
	t = prom_render(NULL, &f, PH_H_UNKNOWN, 1, 1700000000);
	assert_null(strstr(t, "pagehop_check_load"));
	assert_null(strstr(t, "pagehop_check_busy"));
	free(t);
}

/* Nothing measured, no findings: the verdict and the empty families only. */
static void test_prom_empty(void **state)
{
	char *t;

	(void)state;
	t = prom_render(NULL, NULL, PH_H_UNKNOWN, 0.25, 1700000000);
	assert_non_null(strstr(t, "\npagehop_check_status 3\n"));
	assert_int_equal(lines_starting(t, "pagehop_latency_seconds"), 0);
	assert_int_equal(lines_starting(t, "pagehop_figure_status"), 0);
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_prom),
		cmocka_unit_test(test_prom_empty),
		cmocka_unit_test(test_prom_load),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
