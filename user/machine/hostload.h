/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hostload.h - what else the machine is doing: the CPU time of all tasks
 * (/proc/stat), of this process (getrusage), steal time, pressure stall
 * information (/proc/pressure/cpu and memory, where the kernel has it),
 * and every process's CPU time (/proc/PID/stat).  Pure reading and
 * parsing: the parsers take the files' text, so that they can be tested
 * on fixed strings; what the figures mean is busy.h's.
 */
#ifndef PAGEHOP_HOSTLOAD_H
#define PAGEHOP_HOSTLOAD_H

#include <stdbool.h>
#include <stddef.h>

/* The aggregate "cpu" line of /proc/stat, in USER_HZ ticks. */
struct ph_cpustat {
	unsigned long long user, nice, system, idle, iowait, irq, softirq, steal;
};

/* One line "some avg10=... total=..." of a /proc/pressure file. */
struct ph_psi {
	bool ok;			/* the file was there and parsed */
	double some_avg10;		/* percent of the last 10 s */
	unsigned long long some_total_us;	/* stalled time since boot, us */
};

/* One process of /proc/PID/stat. */
struct ph_pidstat {
	int pid, ppid;
	char comm[32];			/* the name, as in (comm) */
	unsigned long long ticks;	/* utime + stime, USER_HZ ticks */
	unsigned long long child_ticks;	/* cutime + cstime: children it reaped */
	unsigned long long start;	/* starttime: tells a reused PID */
};

/* The first "cpu " line of /proc/stat text: 0, or -EINVAL. */
int hostload_parse_stat(const char *text, struct ph_cpustat *out);
/* The "some" line of a /proc/pressure file's text: 0 (out->ok), or -EINVAL. */
int hostload_parse_psi(const char *text, struct ph_psi *out);
/* The text of /proc/PID/stat (the name may hold spaces and ')'): 0 or -EINVAL. */
int hostload_parse_pidstat(const char *text, struct ph_pidstat *out);

/* A snapshot of the machine's CPU time. */
struct ph_loadsnap {
	bool ok;		/* /proc/stat read */
	double t;		/* CLOCK_MONOTONIC_RAW, s */
	struct ph_cpustat cpu;
	double self_s;		/* this process's user + system time, s */
	struct ph_psi psi_cpu, psi_mem;
};

/* What happened between two snapshots. */
struct ph_load {
	bool ok;		/* both snapshots read, some time passed */
	double wall_s;
	double other_cpus;	/* other tasks' CPU time / wall time: CPUs' worth */
	double self_cpus;	/* this process's, likewise */
	double steal;		/* steal / all CPU time: a fraction */
	bool psi_cpu_ok, psi_mem_ok;
	double psi_cpu, psi_mem;	/* "some" stalled time / wall time: fractions */
	double psi_cpu_avg10, psi_mem_avg10;	/* at the end, percent */
};

/* Read /proc/stat, getrusage and /proc/pressure now (a file absent: not ok). */
void hostload_snap(struct ph_loadsnap *s);
/* b - a, with hz ticks a second (sysconf(_SC_CLK_TCK)). */
void hostload_diff(const struct ph_loadsnap *a, const struct ph_loadsnap *b, long hz, struct ph_load *out);

/* Every process's CPU time. */
struct ph_proclist {
	struct ph_pidstat *v;
	int n;
};
/* Scan /proc/[0-9]*\/stat; processes that end meanwhile are skipped. */
void hostload_procs(struct ph_proclist *out);
void hostload_procs_free(struct ph_proclist *l);

/* A process's CPU time between two scans. */
struct ph_busyproc {
	int pid;
	char comm[32];
	double cpu_s;
};
/*
 * The ntop processes of b that used the most CPU time since a (one not in
 * a, or whose PID was reused, started since: all its time counts), except
 * the PID self; sorted, most first.  A process's time includes that of
 * its children that ended and were reaped meanwhile, so that a build is
 * named by its make, not lost with its short-lived compilers.  Returns how many were found (with
 * cpu_s > 0).
 */
int hostload_top(const struct ph_proclist *a, const struct ph_proclist *b, int self, long hz,
		 struct ph_busyproc *top, int ntop);

#endif
