// SPDX-License-Identifier: GPL-2.0-only
/*
 * cxl_explain_report.c - a CXL node's coordinates, source by source, as
 * the tables of a document (cxl_explain.h).
 */
#include "cxl_explain.h"
#include "output.h"
#include "util.h"

#include <stdio.h>

static void explain_cols(struct ph_table *tb)
{
	static const char *const cols[] = {
		"node", "region", "memdev", "access", "figure", "device_cdat", "link",
		"generic_port", "rule", "composed", "kernel_node", "kernel_region", "verdict",
	};

	for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
		table_add_col(tb, cols[i]);
}

static void opt_int(struct ph_table *tb, int r, const char *col, int64_t v, bool have)
{
	if (have)
		table_int(tb, r, col, (long long)v);
}

/* One row per access class and figure; returns how many differ. */
static int explain_rows(struct ph_table *tb, const struct ph_cxl_explained *e)
{
	char verdict[160];
	int ndiff = 0;

	for (int a = 0; a < 2; a++)
		for (int f = 0; f < PH_CXL_NFIG; f++) {
			const bool lat = cxl_fig_is_latency(f);
			const uint32_t link = lat ? e->parts.link_lat_ns : e->parts.link_bw;
			const int v = cxl_explain_verdict(e, a, f);
			int r = table_add_row(tb);

			table_int(tb, r, "node", e->node);
			table_str(tb, r, "region", e->region);
			table_str(tb, r, "memdev", e->memdev[0] ? e->memdev : NULL);
			table_int(tb, r, "access", a);
			table_str(tb, r, "figure", cxl_fig_name(f));
			opt_int(tb, r, "device_cdat", e->parts.cdat[f], !e->why && e->parts.cdat[f]);
			opt_int(tb, r, "link", link, !e->why && link);
			opt_int(tb, r, "generic_port", e->parts.gp[a][f], !e->why && e->parts.gp[a][f]);
			table_str(tb, r, "rule", lat ? "sum" : "min");
			opt_int(tb, r, "composed", e->sum.val[a][f], !e->why && e->sum.known[a][f]);
			opt_int(tb, r, "kernel_node", e->kernel_node[a][f], e->kernel_node[a][f] >= 0);
			opt_int(tb, r, "kernel_region", e->kernel_region[a][f], e->kernel_region[a][f] >= 0);
			if (e->why)
				snprintf(verdict, sizeof(verdict), "cannot tell: %s", e->why);
			else if (!e->sum.known[a][f])
				snprintf(verdict, sizeof(verdict), "cannot tell: no %s figure",
					 e->sum.missing[a][f]);
			else if (e->kernel_node[a][f] < 0)
				snprintf(verdict, sizeof(verdict), "cannot tell: the kernel shows no figure");
			else if (!v)
				snprintf(verdict, sizeof(verdict), "adds up");
			else if (e->kernel_node[a][f] != (int64_t)e->sum.val[a][f])
				snprintf(verdict, sizeof(verdict), "differs: the kernel's is %+lld",
					 (long long)(e->kernel_node[a][f] - (int64_t)e->sum.val[a][f]));
			else
				snprintf(verdict, sizeof(verdict), "differs: the region's is %+lld",
					 (long long)(e->kernel_region[a][f] - (int64_t)e->sum.val[a][f]));
			table_str(tb, r, "verdict", verdict);
			ndiff += v == 1;
		}
	return ndiff;
}

static double gtps(int mbps)
{
	return mbps / 1000.0;
}

static void parts_rows(struct ph_table *tb, const struct ph_cxl_explained *e)
{
	int r = table_add_row(tb);

	table_int(tb, r, "node", e->node);
	table_str(tb, r, "memdev", e->memdev[0] ? e->memdev : NULL);
	if (e->link_mbps)
		table_num(tb, r, "link_GTps", gtps(e->link_mbps), "%.1f");
	if (e->link_width)
		table_int(tb, r, "link_width", e->link_width);
	if (e->port_link_mbps)
		table_num(tb, r, "port_link_GTps", gtps(e->port_link_mbps), "%.1f");
	opt_int(tb, r, "link_latency_ps", e->link_lat_ps, e->link_lat_ps);
	opt_int(tb, r, "link_bandwidth_MBps", e->parts.link_bw, e->parts.link_bw);
	opt_int(tb, r, "qos_link_bandwidth_MBps", e->link_bw_encoded, e->link_bw_encoded);
	opt_int(tb, r, "cdat_dsmas_handle", e->cdat_handle, e->cdat_handle >= 0);
	opt_int(tb, r, "host_bridge_uid", e->hb_uid, e->hb_uid >= 0);
	opt_int(tb, r, "generic_port_domain", e->gp_domain, e->gp_domain >= 0);
	table_str(tb, r, "generic_port_why", e->gp_why);
}

int cxl_explain_report(struct ph_doc *doc, const struct ph_cxl_explained *e, int n)
{
	struct ph_table *tb = doc_add_table(doc, "cxl_explain",
					    "CXL node coordinates, source by source");
	static const char *const pcols[] = {
		"node", "memdev", "link_GTps", "link_width", "port_link_GTps", "link_latency_ps",
		"link_bandwidth_MBps", "qos_link_bandwidth_MBps", "cdat_dsmas_handle",
		"host_bridge_uid", "generic_port_domain", "generic_port_why",
	};
	struct ph_table *pt;
	int ndiff = 0;

	explain_cols(tb);
	for (int i = 0; i < n; i++)
		ndiff += explain_rows(tb, &e[i]);
	pt = doc_add_table(doc, "cxl_parts", "CXL links and generic ports behind the coordinates");
	for (size_t i = 0; i < ARRAY_SIZE(pcols); i++)
		table_add_col(pt, pcols[i]);
	for (int i = 0; i < n; i++)
		parts_rows(pt, &e[i]);
	doc_note(doc, "CXL: latency = device CDAT (DSLBIS, ps to ns rounded up) + link (flit "
		      "latency of the port above the device, 68 bytes x 10^6 / (Mb/s / 8) ps, "
		      "rounded up to ns) + generic port (the SRAT's for the host bridge's _UID, "
		      "its best HMAT entry); bandwidth = min(device CDAT, link (Mb/s / 8 x "
		      "width, as the region's shared-upstream pass of Linux 6.12 takes it), "
		      "generic port); kernel_node and kernel_region as sysfs shows them");
	for (int i = 0; i < n; i++)
		if (e[i].link_bw_encoded && e[i].link_bw_encoded != e[i].parts.link_bw)
			doc_note(doc, "CXL: node %d: the qos_class was chosen with the link at %u "
				      "MB/s (pcie_bandwidth_available(), after encoding); the "
				      "region's bandwidth takes it at %u", e[i].node,
				 e[i].link_bw_encoded, e[i].parts.link_bw);
	if (ndiff)
		doc_note(doc, "CXL: %d figure(s) of the kernel differ from the composition "
			      "(verdict column)", ndiff);
	return ndiff;
}
