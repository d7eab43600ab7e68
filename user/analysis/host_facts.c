// SPDX-License-Identifier: GPL-2.0-only
/*
 * host_facts.c - the section saying whose machine was measured, where the
 * analysis ran, and which kernel's rules the report applies (host_facts.h).
 */
#include "host_facts.h"

void host_facts_report(struct ph_doc *doc, const struct ph_host_facts *f)
{
	struct ph_section *s = doc_add_section(doc, "origin",
					       "whose machine was measured, and where it was analysed");

	section_str(s, "rule", f->origin_text);
	section_str(s, "measured_on", f->measured_on ? f->measured_on : "unknown");
	section_str(s, "analysed_on", f->analysed_on ? f->analysed_on : "unknown");
	section_str(s, "kernel", f->kernel ? f->kernel : "unknown");
	section_str(s, "kernel_from", f->kernel_from);
	section_str(s, "weighted_interleave_sysfs",
		    f->wi.read ? f->wi.dir : f->wi.unread ? f->wi.unread : "not read");
}
