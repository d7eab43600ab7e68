// SPDX-License-Identifier: GPL-2.0-only
/*
 * prom.c - a check as node_exporter textfile metrics (prom.h).
 */
#include "prom.h"
#include "util.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct buf {
	char *p;
	size_t len, cap;
};

__attribute__((format(printf, 2, 3)))
static void put(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
		va_end(ap);
		if (n >= 0 && (size_t)n < b->cap - b->len)
			break;
		b->cap = b->cap * 2 + (size_t)n + 256;
		b->p = xrealloc(b->p, b->cap);
	}
	b->len += (size_t)n;
}

/* A label value with \, " and newline escaped as the format asks. */
static void label(struct buf *b, const char *v)
{
	for (; *v; v++) {
		if (*v == '\\' || *v == '"')
			put(b, "\\%c", *v);
		else if (*v == '\n')
			put(b, "\\n");
		else
			put(b, "%c", *v);
	}
}

static void head(struct buf *b, const char *name, const char *help)
{
	put(b, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
}

/* "hop1" at the end of a figure name: 1; else 0. */
static int hop_of(const char *name)
{
	const char *h = strstr(name, "_hop");

	return h ? atoi(h + 4) : 0;
}

/*
 * The page size as the rest of pagehop names it (--page-sizes, the
 * survey's rows): the 2 MiB latency figure is measured on THP, not on a
 * hugetlb page; every other latency figure on 4K pages.
 */
static const char *latency_page_size(const char *figure)
{
	return !strcmp(figure, "latency_2m") ? "THP" : "4K";
}

/* "hugepages_2m" -> "2M": the hugetlb pool's size, as --page-sizes names it. */
static void pool_size(const char *figure, char *out, size_t len)
{
	size_t i = 0;

	for (const char *c = figure + strlen("hugepages_"); *c && i + 1 < len; c++)
		out[i++] = (char)(*c >= 'a' && *c <= 'z' ? *c - 'a' + 'A' : *c);
	out[i] = '\0';
}

char *prom_render(const struct ph_hset *now, const struct ph_hfindings *f, enum ph_hstatus st,
		  double duration_s, double timestamp_s)
{
	struct buf b = { xmalloc(4096), 0, 4096 };

	b.p[0] = '\0';
	head(&b, "pagehop_check_status", "pagehop check verdict: 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN");
	put(&b, "pagehop_check_status %d\n", (int)st);
	head(&b, "pagehop_check_duration_seconds", "wall time of the check");
	put(&b, "pagehop_check_duration_seconds %.3f\n", duration_s);
	head(&b, "pagehop_check_timestamp_seconds", "when the check ended, Unix time");
	put(&b, "pagehop_check_timestamp_seconds %.0f\n", timestamp_s);
	/* Base units, as Prometheus names them: the figures' ns and GB/s
	 * (10^9 bytes/s) scaled, six significant digits (more than their CI
	 * justifies).  A figure without a value (not measured) has no sample:
	 * its pagehop_figure_status says why it is missing. */
	head(&b, "pagehop_latency_seconds", "load-to-use latency, random pointer chase, median");
	for (int i = 0; now && i < now->nfigs; i++) {
		const struct ph_hfig *g = &now->figs[i];

		if (strncmp(g->name, "latency_", 8) || !isfinite(g->value))
			continue;
		put(&b, "pagehop_latency_seconds{node=\"%d\",mem_node=\"%d\",page_size=\"%s\",hop=\"%d\",figure=\"%s\"} %.6g\n",
		    g->node, g->mem_node, latency_page_size(g->name), hop_of(g->name), g->name, g->value * 1e-9);
	}
	head(&b, "pagehop_bandwidth_bytes_per_second", "STREAM bandwidth with a thread per core of the node, median");
	for (int i = 0; now && i < now->nfigs; i++) {
		const struct ph_hfig *g = &now->figs[i];
		char kernel[32];

		if (strncmp(g->name, "bandwidth_", 10) || !isfinite(g->value))
			continue;
		snprintf(kernel, sizeof(kernel), "%s", g->name + 10);
		kernel[strcspn(kernel, "_")] = '\0';
		put(&b, "pagehop_bandwidth_bytes_per_second{node=\"%d\",mem_node=\"%d\",kernel=\"%s\",hop=\"%d\",figure=\"%s\"} %.6g\n",
		    g->node, g->mem_node, kernel, hop_of(g->name), g->name, g->value * 1e9);
	}
	head(&b, "pagehop_memory_bytes", "MemTotal of the node");
	for (int i = 0; now && i < now->nfigs; i++)
		if (!strcmp(now->figs[i].name, "mem_total") && isfinite(now->figs[i].value))
			put(&b, "pagehop_memory_bytes{node=\"%d\"} %.0f\n", now->figs[i].node,
			    now->figs[i].value * (double)GiB);
	head(&b, "pagehop_hugepages_available", "1 when the node's hugetlb pool of that size has a free page");
	for (int i = 0; now && i < now->nfigs; i++)
		if (!strncmp(now->figs[i].name, "hugepages_", 10) && isfinite(now->figs[i].value)) {
			char size[16];

			pool_size(now->figs[i].name, size, sizeof(size));
			put(&b, "pagehop_hugepages_available{node=\"%d\",page_size=\"%s\"} %.0f\n", now->figs[i].node,
			    size, now->figs[i].value);
		}
	head(&b, "pagehop_figure_status", "each judged figure: 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN");
	for (int i = 0; f && i < f->n; i++)
		if (f->v[i].fig.node >= 0)
			put(&b, "pagehop_figure_status{node=\"%d\",mem_node=\"%d\",figure=\"%s\"} %d\n",
			    f->v[i].fig.node, f->v[i].fig.mem_node, f->v[i].fig.name, (int)f->v[i].st);
	/* The load the check saw: with pagehop_check_busy 1 a slow figure
	 * may be the neighbours', and pagehop_check_busy_unjudged counts the
	 * figures left UNKNOWN for it.  No PIDs or process names as labels
	 * (a series each); the JSON lists them. */
	if (f && f->load_ok) {
		head(&b, "pagehop_check_load_other_cpus", "other tasks' CPU time over the measuring time, in CPUs");
		put(&b, "pagehop_check_load_other_cpus %.3f\n", f->load_other_cpus);
		head(&b, "pagehop_check_load_steal_ratio", "steal time over all CPU time while measuring");
		put(&b, "pagehop_check_load_steal_ratio %.4f\n", f->load_steal);
		if (f->psi_cpu_ok || f->psi_mem_ok)
			head(&b, "pagehop_check_load_pressure_ratio",
			     "share of the measuring time some task stalled on the resource (/proc/pressure)");
		if (f->psi_cpu_ok)
			put(&b, "pagehop_check_load_pressure_ratio{resource=\"cpu\"} %.4f\n", f->psi_cpu);
		if (f->psi_mem_ok)
			put(&b, "pagehop_check_load_pressure_ratio{resource=\"memory\"} %.4f\n", f->psi_mem);
		head(&b, "pagehop_check_busy", "1 when the host's load while measuring can explain a slow figure");
		put(&b, "pagehop_check_busy %d\n", f->busy ? 1 : 0);
		head(&b, "pagehop_check_busy_unjudged", "timed figures left UNKNOWN because the host was busy");
		put(&b, "pagehop_check_busy_unjudged %d\n", f->nbusy);
	}
	head(&b, "pagehop_setting_status", "each setting against the baseline, each rule: 0 OK, 1 WARNING");
	for (int i = 0; f && i < f->n; i++)
		if (f->v[i].fig.node < 0) {
			put(&b, "pagehop_setting_status{setting=\"");
			label(&b, f->v[i].fig.name);
			put(&b, "\",basis=\"%s\"} %d\n", f->v[i].basis == PH_HB_RULE ? "rule" : "baseline",
			    (int)f->v[i].st);
		}
	return b.p;
}
