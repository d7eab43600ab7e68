// SPDX-License-Identifier: GPL-2.0-only
/*
 * fingerprint.c - a machine's model key, settings and exact figures
 * (fingerprint.h).
 */
#include "fingerprint.h"
#include "acpi_slit.h"
#include "distance.h"
#include "provenance.h"
#include "util.h"

#include <errno.h>
#include <numa.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Copy s without its surrounding blanks, with the key's separators made harmless. */
static void key_text(char *out, size_t len, const char *s)
{
	size_t n = 0;

	while (*s == ' ')
		s++;
	for (; *s && n + 1 < len; s++)
		out[n++] = (*s == ';' || *s == '=') ? ',' : *s;
	while (n && out[n - 1] == ' ')
		n--;
	out[n] = '\0';
}

/* The model key: CPU model, sockets, nodes, cores x SMT of each node. */
static void model_key(struct ph_hset *set, struct ph_session *s)
{
	char cpu[128];
	size_t l;
	int *cores = xcalloc((size_t)s->m.topo.nnodes, sizeof(*cores));

	for (int i = 0; i < s->m.cpu.ncore_list; i++) {
		int n = numa_node_of_cpu(s->m.cpu.core_list[i].pu_ids[0]);
		int k = n >= 0 ? topology_index(&s->m.topo, n) : -1;

		if (k >= 0)
			cores[k]++;
	}
	key_text(cpu, sizeof(cpu), s->m.cpu.brand[0] ? s->m.cpu.brand : "unknown");
	snprintf(set->model, sizeof(set->model), "cpu=%s;sockets=%d;nodes=%d", cpu, s->m.cpu.packages,
		 s->m.topo.nnodes);
	for (int i = 0; i < s->m.topo.nnodes; i++) {
		const struct ph_node *n = &s->m.topo.nodes[i];

		l = strlen(set->model);
		if (n->ncpus)
			snprintf(set->model + l, sizeof(set->model) - l, ";node%d=%dx%d", n->id, cores[i],
				 s->m.cpu.threads_per_core > 0 ? s->m.cpu.threads_per_core : 1);
		else
			snprintf(set->model + l, sizeof(set->model) - l, ";node%d=memory", n->id);
		hset_add_node(set, n->id, n->ncpus);
	}
	free(cores);
}

static void setting_file(struct ph_hset *set, const char *key, const char *path)
{
	char buf[160];

	hset_add_setting(set, key, read_text(path, buf, sizeof(buf)) >= 0 ? buf : "unavailable");
}

static uint64_t fnv1a(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ULL;
	return h;
}

static void settings(struct ph_hset *set, struct ph_session *s)
{
	struct ph_provenance p;
	struct ph_acpi_slit slit = { 0 };
	char buf[768], gov[64] = "", why[160];
	bool mixed = false;
	uint64_t h;
	size_t l = 0;
	int rc;

	hset_add_setting(set, "thp_enabled", s->m.topo.thp_enabled);
	hset_add_setting(set, "thp_defrag", s->m.topo.thp_defrag);
	setting_file(set, "numa_balancing", "/proc/sys/kernel/numa_balancing");
	setting_file(set, "smt", "/sys/devices/system/cpu/smt/control");
	for (int c = 0; c < s->m.cpu.pus && c < 4096; c++) {
		char path[96], g[64];

		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", c);
		if (read_text(path, g, sizeof(g)) < 0)
			continue;
		if (!gov[0])
			snprintf(gov, sizeof(gov), "%s", g);
		else if (strcmp(gov, g))
			mixed = true;
	}
	hset_add_setting(set, "cpufreq_governor", !gov[0] ? "none" : mixed ? "mixed" : gov);
	/* The prefetchers, where pagehop.ko can read them: the disable bits of every CPU. */
	if (s->m.km.fd >= 0) {
		unsigned long long first = 0;
		bool same = true, any = false;

		for (int c = 0; c < s->m.cpu.pus; c++) {
			struct pagehop_prefetch pf = { .size = sizeof(pf), .op = PAGEHOP_PREFETCH_GET, .cpu = (unsigned)c };

			if (kmod_prefetch(&s->m.km, &pf))
				continue;
			if (any && pf.disable != first)
				same = false;
			if (!any)
				first = pf.disable;
			any = true;
		}
		if (any && same)
			snprintf(buf, sizeof(buf), "disable=0x%llx", first);
		else
			snprintf(buf, sizeof(buf), "%s", any ? "differs between CPUs" : "unreadable");
		hset_add_setting(set, "prefetch", buf);
	} else {
		hset_add_setting(set, "prefetch", "unreadable: pagehop.ko not loaded");
	}
	buf[0] = '\0';
	for (int i = 0; i < s->m.topo.nnodes && l + 1 < sizeof(buf); i++) {
		const struct ph_node *n = &s->m.topo.nodes[i];

		l += (size_t)snprintf(buf + l, sizeof(buf) - l, "%snode%d:2M=%lld,1G=%lld", i ? ";" : "", n->id,
				      (long long)n->hp_2m.total, (long long)n->hp_1g.total);
	}
	hset_add_setting(set, "hugepage_pools", buf);
	h = fnv1a(0xcbf29ce484222325ULL, s->m.topo.distance,
		  (size_t)s->m.topo.nnodes * (size_t)s->m.topo.nnodes * sizeof(*s->m.topo.distance));
	snprintf(buf, sizeof(buf), "%016llx", (unsigned long long)h);
	hset_add_setting(set, "slit_hash", buf);
	h = 0xcbf29ce484222325ULL;
	for (int i = 0; i < s->m.topo.nhmat; i++) {
		const struct ph_hmat *m = &s->m.topo.hmat[i];
		int64_t v[6] = { m->target, m->access, m->read_latency_ns, m->write_latency_ns,
				 m->read_bandwidth_MiBps, m->write_bandwidth_MiBps };

		h = fnv1a(fnv1a(h, v, sizeof(v)), m->initiators, strlen(m->initiators));
	}
	snprintf(buf, sizeof(buf), s->m.topo.nhmat ? "%016llx" : "none", (unsigned long long)h);
	hset_add_setting(set, "hmat_hash", buf);
	/* The firmware's SLIT as Linux judged it at boot (it falls back to 10/20). */
	rc = acpi_slit_read("/sys/firmware/acpi/tables/SLIT", &slit, why, sizeof(why));
	if (rc == -ENOENT) {
		hset_add_setting(set, "slit_valid", "none");
	} else if (rc) {
		snprintf(buf, sizeof(buf), "unreadable: %s", rc == -EINVAL ? why : strerror(-rc));
		hset_add_setting(set, "slit_valid", buf);
	} else {
		struct ph_slit_check c;

		if (slit_linux_check(slit.n, slit.entry, &c))
			snprintf(buf, sizeof(buf), "yes");
		else
			snprintf(buf, sizeof(buf), "no: %s (entry %d,%d is %d)", slit_rule_text(c.rule), c.row, c.col,
				 c.value);
		hset_add_setting(set, "slit_valid", buf);
		acpi_slit_free(&slit);
	}
	provenance_collect(&p);
	hset_add_setting(set, "kernel", p.kernel);
	hset_add_setting(set, "microcode", p.microcode[0] ? p.microcode : "unknown");
	hset_add_setting(set, "bios", p.bios[0] ? p.bios : "unknown");
}

static void exact_figures(struct ph_hset *set, struct ph_session *s)
{
	for (int i = 0; i < s->m.topo.nnodes; i++) {
		const struct ph_node *n = &s->m.topo.nodes[i];
		double gib = (double)n->mem_total / (double)GiB, p2, p1;

		if (!n->has_memory)
			continue;
		hset_add_fig(set, "mem_total", n->id, n->id, "GiB", gib, gib, gib);
		/* A size can be had when the node's pool has a free page of it. */
		p2 = s->m.topo.hugetlb_2m && n->hp_2m.free > 0;
		p1 = s->m.topo.hugetlb_1g && n->hp_1g.free > 0;
		hset_add_fig(set, "hugepages_2m", n->id, n->id, "bool", p2, p2, p2);
		hset_add_fig(set, "hugepages_1g", n->id, n->id, "bool", p1, p1, p1);
	}
}

void fingerprint(struct ph_hset *set, struct ph_session *s)
{
	model_key(set, s);
	settings(set, s);
	exact_figures(set, s);
}
