// SPDX-License-Identifier: GPL-2.0-only
/*
 * diag_load.c - what else the machine did while baseline or check
 * measured (diag.h): the figures a check leaves unjudged for it, and the
 * document's section load and table load_processes.
 */
#include "diag.h"
#include "diag_impl.h"
#include "busy.h"
#include "health.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int diag_busy(const struct ph_diag *d, struct ph_hfindings *f)
{
	char procs[160], load[128];
	int n = 0;

	busy_procs_phrase(d->top, d->ntop < 3 ? d->ntop : 3, procs, sizeof(procs));
	for (int i = 0; i < f->n; i++) {
		struct ph_hfinding *x = &f->v[i];
		const struct ph_diag_item *it;
		int k = health_kind_of(x->fig.name);
		bool worse;
		char *cut;

		if ((x->basis != PH_HB_BASELINE && x->basis != PH_HB_SIBLINGS) ||
		    (x->st != PH_H_WARNING && x->st != PH_H_CRITICAL) || !(it = diag_item_of(d, &x->fig)))
			continue;
		/* Only a departure a load can cause: slower, or less bandwidth.
		 * Faster than the reference is the reference's doing. */
		worse = k == PH_HK_LATENCY ? x->dev > 0 : k == PH_HK_BANDWIDTH && x->dev < 0;
		if (!worse || !busy_explains(&it->load, load, sizeof(load)))
			continue;
		x->st = PH_H_UNKNOWN;
		if ((cut = strstr(x->why, " (limit")))
			*cut = '\0';
		snprintf(x->why + strlen(x->why), sizeof(x->why) - strlen(x->why),
			 ", not judged: the host was busy (%s)%s%s", load, procs[0] ? "; busiest: " : "", procs);
		n++;
	}
	return n;
}

void diag_load_sum(const struct ph_diag *d, struct ph_hfindings *f)
{
	const struct ph_load *l = &d->load;
	char why[128];

	f->load_ok = l->ok;
	if (!l->ok)
		return;
	f->load_other_cpus = l->other_cpus;
	f->load_steal = l->steal;
	f->psi_cpu_ok = l->psi_cpu_ok;
	f->psi_mem_ok = l->psi_mem_ok;
	f->psi_cpu = l->psi_cpu;
	f->psi_mem = l->psi_mem;
	f->busy = busy_explains(l, why, sizeof(why));
}

/* What else the machine did while measuring: section load, table load_processes. */
void diag_load_doc(const struct ph_diag *d, struct ph_doc *doc)
{
	const struct ph_load *l = &d->load;
	struct ph_section *sec = doc_add_section(doc, "load", "load while measuring");
	struct ph_table *t;
	char why[128];
	bool busy = busy_explains(l, why, sizeof(why));

	section_bool(sec, "read", l->ok);
	section_num(sec, "over_s", l->wall_s, "%.2f");
	if (l->ok) {
		section_num(sec, "other_cpus", l->other_cpus, "%.2f");
		section_num(sec, "self_cpus", l->self_cpus, "%.2f");
		section_num(sec, "steal_pct", l->steal * 100, "%.1f");
	}
	section_num(sec, "psi_cpu_some_pct", l->psi_cpu_ok ? l->psi_cpu * 100 : NAN, "%.1f");
	section_num(sec, "psi_cpu_some_avg10", l->psi_cpu_ok ? l->psi_cpu_avg10 : NAN, "%.2f");
	section_num(sec, "psi_memory_some_pct", l->psi_mem_ok ? l->psi_mem * 100 : NAN, "%.1f");
	section_num(sec, "psi_memory_some_avg10", l->psi_mem_ok ? l->psi_mem_avg10 : NAN, "%.2f");
	section_bool(sec, "busy", busy);
	section_str(sec, "busy_why", busy ? why : "");
	t = doc_add_table(doc, "load_processes", "busiest other processes while measuring");
	table_add_col(t, "pid");
	table_add_col(t, "name");
	table_add_col(t, "cpu_s");
	table_add_col(t, "cpus");
	for (int i = 0; i < d->ntop; i++) {
		int r = table_add_row(t);

		table_int(t, r, "pid", d->top[i].pid);
		table_str(t, r, "name", d->top[i].comm);
		table_num(t, r, "cpu_s", d->top[i].cpu_s, "%.2f");
		diag_num_or_null(t, r, "cpus", l->wall_s > 0 ? d->top[i].cpu_s / l->wall_s : NAN, "%.2f");
	}
}
