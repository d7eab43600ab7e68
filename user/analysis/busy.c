// SPDX-License-Identifier: GPL-2.0-only
/*
 * busy.c - can the host's load explain a timed figure (busy.h)?
 *
 * The thresholds, and why (docs/diagnostics.md, "A busy host", says the
 * same):
 * - other tasks' CPU time above a quarter of one CPU, averaged over the
 *   figure: a latency chase runs on one CPU; a task that shares it a
 *   quarter of the time delays it by about as much, beyond the +10%
 *   latency tolerance, and a bandwidth figure runs a thread on every
 *   core, so any runnable task takes a thread's turn from it.  A quarter
 *   of a CPU of streaming also takes a large share of a small node's
 *   memory bandwidth (one core streams at a third to a half of a
 *   desktop's or a small VM's peak).  An idle node's daemons and kernel
 *   threads use a few hundredths of a CPU, far below.
 * - steal above 5% of all CPU time: the hypervisor ran another guest on
 *   our CPUs for that long; a figure's blocks lose as much, half the
 *   bandwidth tolerance.
 * - "some" CPU pressure above 10% of the figure's time: runnable tasks
 *   waited for a CPU that long, ours among them.
 * - "some" memory pressure above 5%: tasks stalled on reclaim or
 *   swap-in that long; reclaim competes for the memory being measured.
 * None of these is reached by pagehop's own threads on an otherwise idle
 * machine: they run one per core, the chase on one CPU.
 */
#include "busy.h"

#include <stdio.h>
#include <string.h>

static void add(char *why, size_t len, const char *fmt, double v)
{
	size_t l = strlen(why);

	if (l && l + 2 < len) {
		snprintf(why + l, len - l, "; ");
		l += 2;
	}
	if (l < len)
		snprintf(why + l, len - l, fmt, v);
}

bool busy_explains(const struct ph_load *l, char *why, size_t len)
{
	if (len)
		why[0] = '\0';
	if (!l->ok)
		return false;
	if (l->other_cpus > BUSY_OTHER_CPUS)
		add(why, len, "other tasks used %.2f CPU", l->other_cpus);
	if (l->steal > BUSY_STEAL)
		add(why, len, "steal %.0f%%", l->steal * 100);
	if (l->psi_cpu_ok && l->psi_cpu > BUSY_PSI_CPU)
		add(why, len, "CPU pressure %.0f%%", l->psi_cpu * 100);
	if (l->psi_mem_ok && l->psi_mem > BUSY_PSI_MEM)
		add(why, len, "memory pressure %.0f%%", l->psi_mem * 100);
	return len && why[0];
}

void busy_procs_phrase(const struct ph_busyproc *top, int n, char *out, size_t len)
{
	size_t l = 0;

	if (len)
		out[0] = '\0';
	for (int i = 0; i < n && l < len; i++) {
		snprintf(out + l, len - l, "%s%s[%d] %.2f s", i ? ", " : "", top[i].comm, top[i].pid, top[i].cpu_s);
		l = strlen(out);
	}
}
