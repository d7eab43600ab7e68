// SPDX-License-Identifier: GPL-2.0-only
/*
 * host_read.c - this machine's facts for an analysis, only where they
 * belong to the input (host_read.h).  The host names are compared as DNS
 * compares them, without regard to case.
 */
#include "host_read.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/utsname.h>

static void origin_decide(const struct ph_host_ask *a, struct ph_host_read *r)
{
	struct ph_host_facts *f = &r->f;

	f->analysed_on = r->host[0] ? r->host : NULL;
	if (a->measured_here) {
		f->origin = PH_ORIGIN_HERE;
		f->measured_on = f->analysed_on;
		r->origin_text = xstrdup("measured here: by this run");
	} else if (!a->input_host) {
		f->origin = PH_ORIGIN_UNKNOWN;
		r->origin_text = xstrdup("origin unknown: the input's provenance names no host");
	} else if (r->host[0] && !strcasecmp(a->input_host, r->host)) {
		f->origin = PH_ORIGIN_HERE;
		f->measured_on = a->input_host;
		r->origin_text = xasprintf("measured here: the input's provenance names this host, %s",
					   a->input_host);
	} else {
		f->origin = PH_ORIGIN_ELSEWHERE;
		f->measured_on = a->input_host;
		r->origin_text = xasprintf("measured on %s: the input's provenance names that host, not this one (%s)",
					   a->input_host, r->host[0] ? r->host : "unknown");
	}
	f->origin_text = r->origin_text;
}

void host_read(const struct ph_host_ask *a, int n, const int *ids, struct ph_host_read *r)
{
	struct ph_host_facts *f = &r->f;
	const char *wi_dir = getenv("PAGEHOP_WI_SYSFS");
	bool ours;
	struct utsname u;
	bool have_uname;

	memset(r, 0, sizeof(*r));
	have_uname = !uname(&u);
	if (have_uname) {
		snprintf(r->host, sizeof(r->host), "%s", u.nodename);
		snprintf(r->release, sizeof(r->release), "%s", u.release);
	}
	origin_decide(a, r);
	ours = f->origin == PH_ORIGIN_HERE || a->this_kernel;

	if (a->kernel_version) {
		f->kernel = a->kernel_version;
		f->kernel_from = a->kernel_option;
	} else if (ours && have_uname) {
		f->kernel = r->release;
		f->kernel_from = a->this_kernel && f->origin != PH_ORIGIN_HERE
				 ? "--this-kernel: this machine's running kernel (uname -r), not the measured machine's"
				 : "this machine's running kernel (uname -r), the measured one";
	} else {
		f->kernel_from = ours ? "uname failed" : PH_FACTS_NEED_KERNEL;
	}

	/* What the running kernel holds speaks only for this machine, and only for its own kernel. */
	f->wi.dir = wi_dir && *wi_dir ? wi_dir : PH_WI_SYSFS;
	if (!ours) {
		r->unread = f->origin == PH_ORIGIN_ELSEWHERE
			    ? xasprintf("not read: not this machine's measurement (measured on %s); --this-kernel reads this machine's",
					a->input_host)
			    : xstrdup("not read: origin unknown, so not this machine's measurement; --this-kernel reads this machine's");
	} else if (!(wi_dir && *wi_dir) && a->kernel_version) {
		r->unread = xasprintf("not read: the kernel named by %s is not the running one",
				      a->kernel_option);
	} else if (!(wi_dir && *wi_dir) && a->hmat_file) {
		r->unread = xstrdup("not read: the HMAT is a file, not the running machine's");
	} else {
		wi_sysfs_read(f->wi.dir, n, ids, &r->sys);
		f->wi.read = r->sys.read;
		f->wi.unread = r->sys.unread;
		f->wi.present = r->sys.present;
		f->wi.auto_mode = r->sys.auto_mode;
		f->wi.n = r->sys.n;
		f->wi.weight = r->sys.weight;
		return;
	}
	f->wi.unread = r->unread;
}

void host_read_free(struct ph_host_read *r)
{
	wi_sysfs_free(&r->sys);
	free(r->origin_text);
	free(r->unread);
}
