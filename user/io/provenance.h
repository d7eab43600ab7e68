/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * provenance.h - where and when a document was made: host, kernel, CPU,
 * microcode, BIOS, pagehop version, UTC time.  The output layer renders it
 * (JSON whole, CSV in its first line); /proc/cpuinfo is read here only.
 */
#ifndef PAGEHOP_PROVENANCE_H
#define PAGEHOP_PROVENANCE_H

#include <stddef.h>

struct ph_provenance {
	char command[256];	/* the command line, shell-quoted */
	char host[128];
	char kernel[256];	/* uname -r and -v */
	char machine[72];
	char cpu[128];		/* /proc/cpuinfo model name */
	char microcode[32];
	char bios[256];		/* /sys/class/dmi/id, "" where unreadable */
	char version[32];	/* pagehop's */
	char time_utc[32];	/* ISO 8601 */
};

/* Fill p for this run; the command line is the one given to ph_set_cmdline(). */
void provenance_collect(struct ph_provenance *p);

/* The microcode revision the kernel reports (/proc/cpuinfo), "" if none. */
void provenance_microcode(char *out, size_t size);

/*
 * The value of the first "key : value" line with key in a cpuinfo file
 * (path: /proc/cpuinfo, or a test's), "" if there is none.
 */
void cpuinfo_field(const char *path, const char *key, char *out, size_t size);

#endif
