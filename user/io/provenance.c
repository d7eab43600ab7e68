// SPDX-License-Identifier: GPL-2.0-only
/*
 * provenance.c - where and when a document was made: host, kernel, CPU,
 * microcode, BIOS, pagehop version, UTC time.  Every figure pagehop prints
 * in JSON carries this block.
 */
#include "provenance.h"
#include "util.h"
#include "version.h"

#include <stdio.h>
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
	gmtime_r(&t, &tm);
	strftime(p->time_utc, sizeof(p->time_utc), "%Y-%m-%dT%H:%M:%SZ", &tm);
}
