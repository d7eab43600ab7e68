/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * read_dimms.h - what the firmware and the kernel say is installed behind
 * the physical addresses (pagehop scan): EDAC's memory controllers and
 * their DIMMs or ranks (the kernel's sysfs layout, Documentation/admin-guide/
 * ras.rst: mc/mcN/dimmM or rankM with dimm_label, dimm_location, size in
 * MiB, dimm_mem_type, dimm_ce_count, dimm_ue_count), and the SMBIOS memory
 * devices (type 17) with the address ranges mapped to them (type 20), read
 * from /sys/firmware/dmi/entries or from the text of
 * `dmidecode -t 17 -t 20`.  A reader fills the list; mapping a range to its
 * devices is dimms_for_range.
 */
#ifndef PAGEHOP_READ_DIMMS_H
#define PAGEHOP_READ_DIMMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum ph_dimm_source {
	PH_DIMM_EDAC = 1,
	PH_DIMM_DMI,
};

struct ph_dimm {
	enum ph_dimm_source source;
	char label[64];		/* EDAC dimm_label, DMI Locator; "" when not given */
	char bank[64];		/* DMI Bank Locator; EDAC: "" */
	char location[64];	/* EDAC: "mc0 dimm1" and dimm_location; DMI: the handle */
	char type[24];		/* "DDR4", "Unknown", "" */
	uint64_t size;		/* bytes; 0 when empty or not given */
	long ce, ue;		/* EDAC's corrected and uncorrected errors; -1 not given */
	unsigned handle;	/* DMI type 17 handle */
};

/* A physical range the firmware maps to a memory device (DMI type 20). */
struct ph_dimm_map {
	uint64_t start, end;	/* [start, end) bytes */
	unsigned handle;	/* the type 17 device's */
	int interleave_pos;	/* 0: not interleaved or unknown */
};

struct ph_dimms {
	struct ph_dimm *v;
	int n;
	struct ph_dimm_map *map;
	int nmap;
};

/*
 * EDAC: every mcN/dimmM and mcN/rankM under root (/sys/devices/system/
 * edac/mc).  The devices found (0 when root has none), or -errno when
 * root cannot be read (-ENOENT: no EDAC driver loaded).
 */
int dimms_read_edac(const char *root, struct ph_dimms *d);
/*
 * DMI from sysfs: every 17-N/raw and 20-N/raw under root
 * (/sys/firmware/dmi/entries).  The structures read, or -errno.
 */
int dimms_read_dmi_sysfs(const char *root, struct ph_dimms *d);
/* DMI from the text `dmidecode -t 17 -t 20` prints: the structures read. */
int dimms_read_dmidecode(const char *text, struct ph_dimms *d);
/* One SMBIOS structure (its formatted area and strings), len bytes: 1 if it was type 17 or 20. */
int dimms_add_smbios(const unsigned char *p, size_t len, struct ph_dimms *d);

/*
 * The DMI devices mapped to any part of [lo, hi): their labels joined by
 * "+" (a device without one by its handle), written to out; the number
 * found, 0 when the firmware maps nothing there.
 */
int dimms_for_range(const struct ph_dimms *d, uint64_t lo, uint64_t hi, char *out, size_t len);

void dimms_free(struct ph_dimms *d);

#endif
