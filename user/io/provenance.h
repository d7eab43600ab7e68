/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * provenance.h - where and when a document was made: host, kernel, CPU,
 * microcode, BIOS, CPU packages, ACPI table IDs, pagehop version, UTC time.  The output layer renders it
 * (JSON whole, CSV in its first line); /proc/cpuinfo is read here only.
 */
#ifndef PAGEHOP_PROVENANCE_H
#define PAGEHOP_PROVENANCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acpi_oem.h"

/* "SLIT", "HMAT": the table names, as sysfs and provenance.acpi name them. */
extern const char *const ph_prov_acpi_sig[PH_PROV_NACPI];

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
	char boot_id[40];	/* /proc/sys/kernel/random/boot_id: this boot of this machine; "" unreadable */
	int packages;		/* CPU packages with an online CPU; 0: unknown */
	struct ph_acpi_oem acpi[PH_PROV_NACPI];	/* this machine's SLIT and HMAT headers */
};

/* Fill p for this run; the command line is the one given to ph_set_cmdline(). */
void provenance_collect(struct ph_provenance *p);
/*
 * This boot's id (/proc/sys/kernel/random/boot_id, a UUID the kernel makes
 * anew at every boot) into out; "" when it cannot be read.  Two documents
 * with the same id were made on one machine without a reboot between.
 */
void provenance_boot_id(char *out, size_t size);

/*
 * The CPU packages of the online CPUs under cpu_dir
 * (/sys/devices/system/cpu): distinct cpuN/topology/physical_package_id
 * values; 0 when none can be read or one is negative (not known).
 */
int provenance_packages(const char *cpu_dir);
/* The SLIT and HMAT headers under tables_dir (/sys/firmware/acpi/tables). */
void provenance_acpi(const char *tables_dir, struct ph_acpi_oem acpi[PH_PROV_NACPI]);

/* The microcode revision the kernel reports (/proc/cpuinfo), "" if none. */
void provenance_microcode(char *out, size_t size);

/*
 * The value of the first "key : value" line with key in a cpuinfo file
 * (path: /proc/cpuinfo, or a test's), "" if there is none.
 */
void cpuinfo_field(const char *path, const char *key, char *out, size_t size);

#endif
