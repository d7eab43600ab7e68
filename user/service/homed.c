// SPDX-License-Identifier: GPL-2.0-only
/*
 * homed.c - a verified segment on one node.
 */
#include "homed.h"
#include "phases.h"
#include "util.h"
#include "verify.h"

#include <errno.h>
#include <numa.h>
#include <stdio.h>

int homed_node(const struct bitmask *nodes, const char *opt, int cpu, int *node)
{
	if (!nodes) {
		*node = numa_node_of_cpu(cpu);
		return 0;
	}
	if (numa_bitmask_weight(nodes) != 1) {
		ph_err("%s: the memory lives on one node; name exactly one", opt);
		return PH_EXIT_USAGE;
	}
	for (unsigned i = 0; i < nodes->size; i++)
		if (numa_bitmask_isbitset(nodes, i))
			*node = (int)i;
	return 0;
}

int homed_alloc(struct ph_session *s, int node, uint64_t bytes, struct ph_segment *seg,
		bool *have, const char *what)
{
	char why[512];
	double t0, touched;
	int err;

	if (!s->opt->allow_unverified && verify_ready(&s->m.km, why, sizeof(why))) {
		ph_err("%s; run as root, or measure unverified with --allow-unverified", why);
		return PH_EXIT_UNSUPPORTED;
	}
	t0 = now_mono_raw();
	touched = phase_seconds(PH_PHASE_TOUCH);
	err = segment_alloc(&s->m.km, &s->opt->bufreq, node, bytes, seg, why, sizeof(why));
	/* The allocation less the touch inside it, as session.c times it. */
	phase_add(PH_PHASE_ALLOC, now_mono_raw() - t0 - (phase_seconds(PH_PHASE_TOUCH) - touched));
	if (err) {
		ph_err("%s on node %d: %s", what, node, why);
		return err == -EINVAL ? PH_EXIT_USAGE : err == -EINTR ? PH_EXIT_INTERRUPTED :
		       PH_EXIT_UNSUPPORTED;
	}
	*have = true;
	t0 = now_mono_raw();
	err = segment_verify(&s->m.km, seg, NULL);
	phase_add(PH_PHASE_VERIFY, now_mono_raw() - t0);
	if (err == -EINTR)
		return PH_EXIT_INTERRUPTED;
	if (seg->backend_note[0] && !s->backend_note[0])
		snprintf(s->backend_note, sizeof(s->backend_note), "%s", seg->backend_note);
	if (!seg->verified) {
		s->all_verified = false;
		if (!s->opt->allow_unverified) {
			ph_err("%s: not verified: %s; measure anyway with --allow-unverified", what,
			       seg->verify_msg);
			return PH_EXIT_FAIL;
		}
		ph_warn("%s: not verified: %s; measuring anyway (--allow-unverified)", what,
			seg->verify_msg);
	}
	return 0;
}

bool homed_still_verified(struct ph_session *s, struct ph_segment *seg, const char *what)
{
	bool before = seg->verified;
	double t0 = now_mono_raw();
	int err = ph_interrupted ? -EINTR : segment_verify(&s->m.km, seg, NULL);

	phase_add(PH_PHASE_VERIFY, now_mono_raw() - t0);
	if (err == -EINTR) {
		s->reverify_skipped = true;
		return true;
	}
	if (before && !seg->verified) {
		ph_warn("%s moved while it was measured: %s", what, seg->verify_msg);
		s->all_verified = false;
		return false;
	}
	return true;
}

void homed_section(struct ph_doc *doc, const char *name, const char *title,
		   const struct ph_segment *seg, bool have, int node)
{
	struct ph_section *sec = doc_add_section(doc, name, title);
	char nodes[256] = "";
	size_t len = 0;

	section_int(sec, "node_asked", node);
	for (int n = 0; have && n < seg->found.nr_nodes && len < sizeof(nodes); n++)
		if (seg->found.node_bytes[n])
			len += (size_t)snprintf(nodes + len, sizeof(nodes) - len, "%s%d",
						len ? "," : "", n);
	section_str(sec, "node_found", nodes[0] ? nodes : NULL);
	section_str(sec, "backend", have ? backend_name(seg->backend) : NULL);
	section_str(sec, "page_size", have ? psize_name(seg->psize) : NULL);
	section_int(sec, "size_KiB", have ? (long long)(seg->bytes / KiB) : 0);
	section_bool(sec, "verified", have && seg->verified);
	section_str(sec, "found", have ? seg->verify_msg : NULL);
	section_str(sec, "method", have ? seg->found.method : NULL);
}

int contend_cpus(const struct bitmask *cpus, const char *opt, int **out, int *n)
{
	struct bitmask *allowed = numa_allocate_cpumask();

	*out = NULL;
	*n = 0;
	numa_sched_getaffinity(0, allowed);
	for (unsigned i = 0; i < allowed->size; i++) {
		if (cpus && !numa_bitmask_isbitset(cpus, i))
			continue;
		if (!numa_bitmask_isbitset(allowed, i)) {
			if (cpus) {
				ph_err("%s: CPU %u is not one this process may run on", opt, i);
				numa_bitmask_free(allowed);
				return PH_EXIT_USAGE;
			}
			continue;
		}
		*(int *)xappend(out, n, sizeof(int)) = (int)i;
	}
	numa_bitmask_free(allowed);
	return 0;
}
