// SPDX-License-Identifier: GPL-2.0-only
/*
 * interleave_report.c - the weighted-interleave weights of the firmware's
 * HMAT and of the proposed one, side by side (interleave.c; docs/slit.md
 * section 13).
 */
#include "interleave_report.h"
#include "hmat_propose.h"
#include "interleave.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* "0:2 1:2 2:1" over the memory nodes; "" when there is none. */
static char *weights_text(const struct ph_proposal *p, const bool *mem, const int *w)
{
	char *s = xstrdup(""), *t;

	for (int i = 0; i < p->n; i++) {
		if (!mem[i])
			continue;
		t = w[i] < 0 ? xasprintf("%s%s%d:-", s, *s ? " " : "", p->ids[i])
			     : xasprintf("%s%s%d:%d", s, *s ? " " : "", p->ids[i], w[i]);
		free(s);
		s = t;
	}
	return s;
}

static char *sysfs_state(const struct ph_wi_facts *sys)
{
	if (!sys->read)
		return xstrdup(sys->unread ? sys->unread : "not read");
	if (!sys->present)
		return xasprintf("absent: no %s (a kernel before 6.9)", sys->dir);
	return xstrdup("read");
}

void interleave_report(struct ph_doc *doc, const struct ph_proposal *p, const struct ph_nmatrix *m,
		       const struct ph_acpi_hmat *fw, const struct ph_nmatrix *lat,
		       const struct ph_nmatrix *bw, const struct ph_host_facts *f)
{
	const struct ph_wi_facts *sys = &f->wi;
	const bool known = f->kernel != NULL;
	const enum ph_wi_support support = known ? wi_support_of(f->kernel) : PH_WI_ABSENT;
	const bool have_sys = sys->read && sys->present && sys->n == p->n;
	uint32_t *bw_a, *bw_b;
	uint8_t *wa, *wb;
	int *ia, *ib, ndiff = 0;
	struct ph_acpi_hmat prop;
	struct ph_section *s;
	struct ph_table *tb;
	char *ta, *tb_text, *state;
	bool *mem;

	if (!p->n || p->nunknown || (!lat && !bw))
		return;
	mem = xcalloc((size_t)p->n, sizeof(bool));
	bw_a = xcalloc((size_t)p->n, sizeof(uint32_t));
	bw_b = xcalloc((size_t)p->n, sizeof(uint32_t));
	wa = xcalloc((size_t)p->n, 1);
	wb = xcalloc((size_t)p->n, 1);
	ia = xcalloc((size_t)p->n, sizeof(int));
	ib = xcalloc((size_t)p->n, sizeof(int));
	hmat_propose(lat, bw, fw, &prop);
	for (int i = 0; i < p->n; i++) {
		mem[i] = nmatrix_col(m, p->ids[i]) >= 0;
		bw_a[i] = wi_node_bandwidth(fw, (uint32_t)p->ids[i]);
		bw_b[i] = wi_node_bandwidth(&prop, (uint32_t)p->ids[i]);
	}
	wi_reduce(p->n, bw_a, mem, wa);
	wi_reduce(p->n, bw_b, mem, wb);
	for (int i = 0; i < p->n; i++) {
		ia[i] = wa[i];
		ib[i] = wb[i];
	}
	s = doc_add_section(doc, "interleave_weights",
			    "weighted-interleave weights from HMAT bandwidth (mm/mempolicy.c, reduce_interleave_weights), firmware's HMAT and proposed");
	section_str(s, "support", known ? wi_support_name(support) : PH_FACTS_NEED_KERNEL);
	section_str(s, "kernel", known ? f->kernel : "unknown");
	section_str(s, "firmware_hmat", fw ? "read" : "none: no bandwidth, every weight 1");
	ta = weights_text(p, mem, ia);
	tb_text = weights_text(p, mem, ib);
	section_str(s, "weights_firmware", ta);
	section_str(s, "weights_proposed", tb_text);
	section_bool(s, "weights_differ", strcmp(ta, tb_text) != 0);
	state = sysfs_state(sys);
	section_str(s, "sysfs", state);
	free(state);
	if (have_sys) {
		char *t = weights_text(p, mem, sys->weight);

		section_str(s, "weights_sysfs", t);
		section_str(s, "sysfs_auto", sys->auto_mode < 0 ? "absent" : sys->auto_mode ? "true" : "false");
		/*
		 * What the kernel should hold: in auto mode the firmware's
		 * weights; 6.9 to 6.15 (no auto file) every 1; in manual mode
		 * whatever was written, no expectation.
		 */
		if (sys->auto_mode != 0) {
			int *one = xcalloc((size_t)p->n, sizeof(int));
			char *want;

			for (int i = 0; i < p->n; i++)
				one[i] = 1;
			want = sys->auto_mode == 1 ? xstrdup(ta) : weights_text(p, mem, one);
			section_str(s, "weights_sysfs_expected", want);
			section_bool(s, "sysfs_as_expected", strcmp(t, want) == 0);
			if (strcmp(t, want))
				doc_note(doc, "weighted interleave: this kernel holds %s where pagehop expects %s", t, want);
			free(want);
			free(one);
		}
		free(t);
	}
	tb = doc_add_table(doc, "kernel_interleave", "weighted-interleave weight per memory node");
	table_add_col(tb, "node");
	table_add_col(tb, "bw_firmware_MBps");
	table_add_col(tb, "weight_firmware");
	table_add_col(tb, "bw_proposed_MBps");
	table_add_col(tb, "weight_proposed");
	table_add_col(tb, "weight_sysfs");
	table_add_col(tb, "differs");
	for (int i = 0; i < p->n; i++) {
		int r;

		if (!mem[i])
			continue;
		r = table_add_row(tb);
		table_int(tb, r, "node", p->ids[i]);
		table_int(tb, r, "bw_firmware_MBps", bw_a[i]);
		table_int(tb, r, "weight_firmware", wa[i]);
		table_int(tb, r, "bw_proposed_MBps", bw_b[i]);
		table_int(tb, r, "weight_proposed", wb[i]);
		if (have_sys && sys->weight[i] >= 0)
			table_int(tb, r, "weight_sysfs", sys->weight[i]);
		else
			table_str(tb, r, "weight_sysfs", "-");
		table_str(tb, r, "differs", wa[i] != wb[i] ? "*" : "");
		ndiff += wa[i] != wb[i];
	}
	if (ndiff)
		doc_note(doc, "weighted interleave: with the firmware's HMAT the weights are %s; with the proposed one, %s%s",
			 ta, tb_text, known && support == PH_WI_AUTO ? "" : " (what Linux 6.16 and later would set)");
	section_int(s, "nodes_differ", ndiff);
	free(ta);
	free(tb_text);
	acpi_hmat_free(&prop);
	free(mem);
	free(bw_a);
	free(bw_b);
	free(wa);
	free(wb);
	free(ia);
	free(ib);
}
