// SPDX-License-Identifier: GPL-2.0-only
/*
 * hostload.c - what else the machine is doing (hostload.h).
 */
#include "hostload.h"
#include "util.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

int hostload_parse_stat(const char *text, struct ph_cpustat *out)
{
	struct ph_cpustat c = { 0 };
	int n;

	/* The aggregate line comes first ("cpu  " then the fields; per-CPU
	 * lines are "cpu0 ..."); older kernels stop before steal. */
	if (strncmp(text, "cpu ", 4))
		return -EINVAL;
	n = sscanf(text + 4, "%llu %llu %llu %llu %llu %llu %llu %llu", &c.user, &c.nice, &c.system, &c.idle,
		   &c.iowait, &c.irq, &c.softirq, &c.steal);
	if (n < 4)
		return -EINVAL;
	*out = c;
	return 0;
}

int hostload_parse_psi(const char *text, struct ph_psi *out)
{
	const char *some = strstr(text, "some "), *avg, *tot;
	struct ph_psi p = { 0 };

	if (!some || (some != text && some[-1] != '\n'))
		return -EINVAL;
	avg = strstr(some, "avg10=");
	tot = strstr(some, "total=");
	if (!avg || !tot || sscanf(avg + 6, "%lf", &p.some_avg10) != 1 ||
	    sscanf(tot + 6, "%llu", &p.some_total_us) != 1)
		return -EINVAL;
	p.ok = true;
	*out = p;
	return 0;
}

int hostload_parse_pidstat(const char *text, struct ph_pidstat *out)
{
	const char *open = strchr(text, '('), *close = strrchr(text, ')'), *p;
	unsigned long long utime, stime, start;
	long long cutime, cstime;
	struct ph_pidstat s = { 0 };
	size_t len;
	int field;

	if (!open || !close || close < open || sscanf(text, "%d", &s.pid) != 1)
		return -EINVAL;
	len = (size_t)(close - open - 1);
	if (len >= sizeof(s.comm))
		len = sizeof(s.comm) - 1;
	memcpy(s.comm, open + 1, len);
	s.comm[len] = '\0';
	/* A name is the task's to set: nothing in it may break a line. */
	for (char *c = s.comm; *c; c++)
		if (!isprint((unsigned char)*c) || *c == ';' || *c == '|')
			*c = '?';
	if (sscanf(close + 1, " %*c %d", &s.ppid) != 1)
		return -EINVAL;
	/* After ")": field 3 (state) on; utime and stime are 14 and 15,
	 * cutime and cstime (its children's, added when it reaps them) 16
	 * and 17, starttime 22 (proc(5)). */
	p = close + 1;
	for (field = 3; field < 14 && *p; field++) {
		while (*p == ' ')
			p++;
		while (*p && *p != ' ')
			p++;
	}
	if (field != 14 ||
	    sscanf(p, " %llu %llu %lld %lld %*d %*d %*d %*d %llu", &utime, &stime, &cutime, &cstime, &start) != 5 ||
	    cutime < 0 || cstime < 0)
		return -EINVAL;
	s.ticks = utime + stime;
	s.child_ticks = (unsigned long long)(cutime + cstime);
	s.start = start;
	*out = s;
	return 0;
}

static void read_psi(const char *path, struct ph_psi *out)
{
	char buf[512];

	memset(out, 0, sizeof(*out));
	if (read_text(path, buf, sizeof(buf)) > 0)
		hostload_parse_psi(buf, out);
}

void hostload_snap(struct ph_loadsnap *s)
{
	char buf[4096];
	struct rusage ru;

	memset(s, 0, sizeof(*s));
	s->t = now_mono_raw();
	s->ok = read_text("/proc/stat", buf, sizeof(buf)) > 0 && !hostload_parse_stat(buf, &s->cpu);
	/* All threads of this process, finished ones included. */
	if (!getrusage(RUSAGE_SELF, &ru))
		s->self_s = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 +
			    (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6;
	read_psi("/proc/pressure/cpu", &s->psi_cpu);
	read_psi("/proc/pressure/memory", &s->psi_mem);
}

static unsigned long long delta(unsigned long long a, unsigned long long b)
{
	return b > a ? b - a : 0;
}

void hostload_diff(const struct ph_loadsnap *a, const struct ph_loadsnap *b, long hz, struct ph_load *out)
{
	unsigned long long busy, all, steal;
	double other;

	memset(out, 0, sizeof(*out));
	out->wall_s = b->t - a->t;
	if (!a->ok || !b->ok || out->wall_s <= 0 || hz <= 0)
		return;
	out->ok = true;
	/* Busy: what tasks and interrupts ran; idle and iowait are not
	 * work, steal is another guest's and counted apart. */
	busy = delta(a->cpu.user, b->cpu.user) + delta(a->cpu.nice, b->cpu.nice) +
	       delta(a->cpu.system, b->cpu.system) + delta(a->cpu.irq, b->cpu.irq) +
	       delta(a->cpu.softirq, b->cpu.softirq);
	steal = delta(a->cpu.steal, b->cpu.steal);
	all = busy + steal + delta(a->cpu.idle, b->cpu.idle) + delta(a->cpu.iowait, b->cpu.iowait);
	out->self_cpus = (b->self_s - a->self_s) / out->wall_s;
	other = (double)busy / (double)hz / out->wall_s - out->self_cpus;
	/* The ticks are coarse (10 ms) against getrusage's microseconds:
	 * a small negative is rounding, not a negative load. */
	out->other_cpus = other > 0 ? other : 0;
	out->steal = all ? (double)steal / (double)all : 0;
	out->psi_cpu_ok = a->psi_cpu.ok && b->psi_cpu.ok;
	out->psi_mem_ok = a->psi_mem.ok && b->psi_mem.ok;
	if (out->psi_cpu_ok) {
		out->psi_cpu = (double)delta(a->psi_cpu.some_total_us, b->psi_cpu.some_total_us) * 1e-6 / out->wall_s;
		out->psi_cpu_avg10 = b->psi_cpu.some_avg10;
	}
	if (out->psi_mem_ok) {
		out->psi_mem = (double)delta(a->psi_mem.some_total_us, b->psi_mem.some_total_us) * 1e-6 / out->wall_s;
		out->psi_mem_avg10 = b->psi_mem.some_avg10;
	}
}

static int pid_cmp(const void *x, const void *y)
{
	const struct ph_pidstat *a = x, *b = y;

	return (a->pid > b->pid) - (a->pid < b->pid);
}

void hostload_procs(struct ph_proclist *out)
{
	DIR *dir = opendir("/proc");
	struct dirent *e;

	memset(out, 0, sizeof(*out));
	if (!dir)
		return;
	while ((e = readdir(dir))) {
		char path[64], buf[1024];
		struct ph_pidstat st;

		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%.20s/stat", e->d_name);
		if (read_text(path, buf, sizeof(buf)) <= 0 || hostload_parse_pidstat(buf, &st))
			continue;
		*(struct ph_pidstat *)xappend(&out->v, &out->n, sizeof(*out->v)) = st;
	}
	closedir(dir);
	if (out->n)
		qsort(out->v, (size_t)out->n, sizeof(*out->v), pid_cmp);
}

void hostload_procs_free(struct ph_proclist *l)
{
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

static const struct ph_pidstat *find(const struct ph_proclist *l, int pid)
{
	struct ph_pidstat key = { .pid = pid };

	return l->n ? bsearch(&key, l->v, (size_t)l->n, sizeof(*l->v), pid_cmp) : NULL;
}

/* The same process in both scans: same PID, same start. */
static const struct ph_pidstat *same(const struct ph_proclist *l, const struct ph_pidstat *p)
{
	const struct ph_pidstat *q = find(l, p->pid);

	return q && q->start == p->start ? q : NULL;
}

int hostload_top(const struct ph_proclist *a, const struct ph_proclist *b, int self, long hz,
		 struct ph_busyproc *top, int ntop)
{
	unsigned long long *before = xcalloc((size_t)b->n + 1, sizeof(*before));
	int n = 0;

	/* A process of a gone by b: what it had used before a is now in
	 * the cutime of the ancestor that survives (its parent reaped it,
	 * and the parent's time went up the same way when it ended in
	 * turn); take it off there.  An orphan is reaped by a subreaper or
	 * init instead: then this takes it off an ancestor that never got
	 * it, which the floor at 0 below bounds. */
	for (int i = 0; i < a->n; i++) {
		const struct ph_pidstat *up = &a->v[i], *kept = NULL;

		if (same(b, up))
			continue;
		for (int depth = 0; depth < 64 && up && !kept; depth++) {
			up = find(a, up->ppid);
			kept = up ? same(b, up) : NULL;
		}
		if (kept)
			before[kept - b->v] += a->v[i].ticks + a->v[i].child_ticks;
	}
	for (int i = 0; i < b->n; i++) {
		const struct ph_pidstat *p = &b->v[i], *was = same(a, p);
		unsigned long long used;
		int k;

		if (p->pid == self || hz <= 0)
			continue;
		used = was ? delta(was->ticks, p->ticks) + delta(was->child_ticks + before[i], p->child_ticks)
			   : p->ticks + p->child_ticks;
		if (!used)
			continue;
		/* Insert into the sorted top ntop. */
		for (k = n; k > 0 && top[k - 1].cpu_s < (double)used / (double)hz; k--)
			if (k < ntop)
				top[k] = top[k - 1];
		if (k >= ntop)
			continue;
		top[k].pid = p->pid;
		snprintf(top[k].comm, sizeof(top[k].comm), "%s", p->comm);
		top[k].cpu_s = (double)used / (double)hz;
		if (n < ntop)
			n++;
	}
	free(before);
	return n;
}
