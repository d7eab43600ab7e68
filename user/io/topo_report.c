// SPDX-License-Identifier: GPL-2.0-only
/*
 * topo_report.c - the firmware's view of the machine as document blocks:
 * the SLIT in numactl's layout and HMAT.  "pagehop info" prints them, and
 * "pagehop matrix" records them beside its measurements, so that "pagehop
 * slit --input" can compare a saved run with the machine it ran on.
 */
#include "topo_report.h"
#include "util.h"

void topology_report_distances(struct ph_doc *doc, const struct ph_topology *t)
{
	int ids[t->nnodes > 0 ? t->nnodes : 1];
	struct ph_matrix *m;

	for (int i = 0; i < t->nnodes; i++)
		ids[i] = t->nodes[i].id;
	m = doc_add_matrix(doc, "distances", "node distances", "distance",
			   t->nnodes, ids, t->nnodes, ids);
	for (int i = 0; i < t->nnodes; i++)
		for (int j = 0; j < t->nnodes; j++)
			matrix_int(m, i, j, t->distance[i * t->nnodes + j]);
}

void topology_report_hmat(struct ph_doc *doc, const struct ph_topology *t)
{
	struct ph_table *tb;
	static const char *const cols[] = {
		"node", "access", "initiators", "read_lat_ns", "write_lat_ns",
		"read_bw_MiBps", "write_bw_MiBps",
	};

	tb = doc_add_table(doc, "hmat", "HMAT (best initiators per memory node)");
	for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
		table_add_col(tb, cols[i]);
	for (int i = 0; i < t->nhmat; i++) {
		const struct ph_hmat *h = &t->hmat[i];
		int r = table_add_row(tb);

		table_int(tb, r, "node", h->target);
		table_int(tb, r, "access", h->access);
		table_str(tb, r, "initiators", h->initiators[0] ? h->initiators : NULL);
		if (h->read_latency_ns >= 0)
			table_int(tb, r, "read_lat_ns", h->read_latency_ns);
		if (h->write_latency_ns >= 0)
			table_int(tb, r, "write_lat_ns", h->write_latency_ns);
		if (h->read_bandwidth_MiBps >= 0)
			table_int(tb, r, "read_bw_MiBps", h->read_bandwidth_MiBps);
		if (h->write_bandwidth_MiBps >= 0)
			table_int(tb, r, "write_bw_MiBps", h->write_bandwidth_MiBps);
	}
	if (!t->nhmat)
		doc_note(doc, "HMAT: not exposed by this kernel (no /sys/devices/system/node/node*/access*/initiators); the firmware has no HMAT or the kernel lacks CONFIG_HMEM_REPORTING");
}

