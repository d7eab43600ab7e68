/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * host_read.h - gather this machine's facts for an analysis (host_facts.h),
 * and only those that belong to the input: its kernel release (uname) and
 * its weighted-interleave sysfs are read when the input was measured here
 * (by this run, or its provenance names this host), or when an option
 * asks for them (--this-kernel); --kernel-version names a kernel instead.
 * An input from another host, or of unknown origin, gets neither.
 */
#ifndef PAGEHOP_HOST_READ_H
#define PAGEHOP_HOST_READ_H

#include <stdbool.h>

#include "host_facts.h"
#include "wi_sysfs.h"

/* What the study knows of the input, and what the options ask. */
struct ph_host_ask {
	bool measured_here;		/* measured by this run */
	const char *input_host;		/* the host the input's provenance names; NULL none */
	bool this_kernel;		/* --this-kernel: this machine's kernel whatever the origin */
	const char *kernel_version;	/* --kernel-version (or PAGEHOP_KERNEL); NULL none */
	const char *kernel_option;	/* how to name where kernel_version came from */
	bool hmat_file;			/* the HMAT compared is a file, not the running machine's */
};

/* The facts and the storage they point into. */
struct ph_host_read {
	struct ph_host_facts f;
	struct ph_wi_sysfs sys;
	char host[256];
	char release[256];
	char *origin_text;
	char *unread;
};

/*
 * Decide whose the input is and fill r->f: the proposal's n node ids are
 * the nodes whose sysfs weights are read.  The sysfs directory is
 * PAGEHOP_WI_SYSFS when set (a stand-in, for tests), else PH_WI_SYSFS.
 */
void host_read(const struct ph_host_ask *a, int n, const int *ids, struct ph_host_read *r);
void host_read_free(struct ph_host_read *r);

#endif
