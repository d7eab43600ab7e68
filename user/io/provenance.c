// SPDX-License-Identifier: GPL-2.0-only
/*
 * provenance.c - where and when a document was made: host, kernel, CPU,
 * microcode, BIOS, CPU packages, the ACPI SLIT's and HMAT's OEM IDs,
 * pagehop version, UTC time.  Every figure pagehop prints in JSON carries
 * this block; the packages and IDs are what a topology or a table written
 * for the machine measured must say of it (slit --input, elsewhere).
 */
#include "provenance.h"
#include "acpi_slit.h"
#include "util.h"
#include "version.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

void cpuinfo_field(const char *path, const char *key, char *out, size_t size)
{
	FILE *f = fopen(path, "re");
	char line[512];
	size_t klen = strlen(key);

	out[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (strncmp(line, key, klen) || !colon ||
		    (line[klen] != ' ' && line[klen] != '\t' && line[klen] != ':'))
			continue;
		colon++;
		colon += strspn(colon, " \t");
		colon[strcspn(colon, "\n")] = '\0';
		snprintf(out, size, "%s", colon);
		break;
	}
	fclose(f);
}

void provenance_microcode(char *out, size_t size)
{
	cpuinfo_field("/proc/cpuinfo", "microcode", out, size);
}

static void dmi(const char *name, char *out, size_t size)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/class/dmi/id/%s", name);
	if (read_text(path, out, size) < 0)
		out[0] = '\0';
}

const char *const ph_prov_acpi_sig[PH_PROV_NACPI] = { "SLIT", "HMAT" };

int provenance_packages(const char *cpu_dir)
{
	DIR *d = opendir(cpu_dir);
	struct dirent *e;
	long *ids = NULL;
	int n = 0, bad = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char path[512], text[32], *end;
		long id;
		int k;

		if (strncmp(e->d_name, "cpu", 3) || e->d_name[3] < '0' || e->d_name[3] > '9' ||
		    strspn(e->d_name + 3, "0123456789") != strlen(e->d_name + 3))
			continue;
		/* An offline CPU has no topology directory: its package is not counted. */
		snprintf(path, sizeof(path), "%s/%s/topology/physical_package_id", cpu_dir, e->d_name);
		if (read_text(path, text, sizeof(text)) < 0)
			continue;
		id = strtol(text, &end, 10);
		if (end == text || id < 0) {
			bad = 1;
			continue;
		}
		for (k = 0; k < n && ids[k] != id; k++)
			;
		if (k == n)
			*(long *)xappend(&ids, &n, sizeof(long)) = id;
	}
	closedir(d);
	free(ids);
	return bad ? 0 : n;
}

void provenance_acpi(const char *tables_dir, struct ph_acpi_oem acpi[PH_PROV_NACPI])
{
	for (int i = 0; i < PH_PROV_NACPI; i++) {
		struct ph_acpi_header h;
		char path[512];
		struct ph_acpi_oem *a = &acpi[i];

		memset(a, 0, sizeof(*a));
		snprintf(path, sizeof(path), "%s/%s", tables_dir, ph_prov_acpi_sig[i]);
		if (acpi_header_read(path, &h) || memcmp(h.signature, ph_prov_acpi_sig[i], 4) ||
		    !acpi_id_to_string(h.oem_id, 6, a->oem_id, sizeof(a->oem_id)) ||
		    !acpi_id_to_string(h.oem_table_id, 8, a->oem_table_id, sizeof(a->oem_table_id))) {
			memset(a, 0, sizeof(*a));
			continue;
		}
		a->oem_revision = h.oem_revision;
		a->have = true;
	}
}

void provenance_boot_id(char *out, size_t size)
{
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");

	out[0] = 0;
	if (!f)
		return;
	if (!fgets(out, (int)size, f))
		out[0] = 0;
	out[strcspn(out, "\n")] = 0;
	fclose(f);
}

void provenance_collect(struct ph_provenance *p)
{
	struct utsname u;
	char vendor[64], version[64], date[64];
	time_t t = time(NULL);
	struct tm tm;

	memset(p, 0, sizeof(*p));
	snprintf(p->command, sizeof(p->command), "%s", ph_cmdline());
	snprintf(p->version, sizeof(p->version), "%s", PAGEHOP_VERSION);
	if (!uname(&u)) {
		snprintf(p->host, sizeof(p->host), "%s", u.nodename);
		snprintf(p->kernel, sizeof(p->kernel), "%s %s", u.release, u.version);
		snprintf(p->machine, sizeof(p->machine), "%s", u.machine);
	}
	cpuinfo_field("/proc/cpuinfo", "model name", p->cpu, sizeof(p->cpu));
	provenance_microcode(p->microcode, sizeof(p->microcode));
	dmi("bios_vendor", vendor, sizeof(vendor));
	dmi("bios_version", version, sizeof(version));
	dmi("bios_date", date, sizeof(date));
	if (vendor[0] || version[0])
		snprintf(p->bios, sizeof(p->bios), "%s%s%s%s%s", vendor,
			 vendor[0] && version[0] ? " " : "", version,
			 date[0] ? ", " : "", date);
	p->packages = provenance_packages("/sys/devices/system/cpu");
	provenance_acpi("/sys/firmware/acpi/tables", p->acpi);
	gmtime_r(&t, &tm);
	strftime(p->time_utc, sizeof(p->time_utc), "%Y-%m-%dT%H:%M:%SZ", &tm);
	provenance_boot_id(p->boot_id, sizeof(p->boot_id));
}
