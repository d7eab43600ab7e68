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

/* The devices' own bandwidths summed (Linux's figure before its shared-upstream pass). */
static int64_t each_sum(const struct ph_cxl_explained *e, int a, int f)
{
	int64_t v = 0;

	for (int i = 0; i < e->ndev; i++)
		v += e->dev[i].sum.val[a][f];
	return v;
}

static void verdict_of(const struct ph_cxl_explained *e, int a, int f, int v, char *out, size_t n)
{
	const int64_t kn = e->kernel_node[a][f];

	if (e->why)
		snprintf(out, n, "cannot tell: %s", e->why);
	else if (!e->sum.known[a][f])
		snprintf(out, n, "cannot tell: no %s figure", e->sum.missing[a][f]);
	else if (kn < 0)
		snprintf(out, n, "cannot tell: the kernel shows no figure");
	else if (!v)
		snprintf(out, n, "adds up");
	else if (kn != (int64_t)e->sum.val[a][f] && e->ndev > 1 && !cxl_fig_is_latency(f) &&
		 kn == each_sum(e, a, f))
		snprintf(out, n, "differs: the kernel's is %+lld, the devices' own figures summed "
			 "(its shared-upstream pass left out)", (long long)(kn - (int64_t)e->sum.val[a][f]));
	else if (kn != (int64_t)e->sum.val[a][f])
		snprintf(out, n, "differs: the kernel's is %+lld",
			 (long long)(kn - (int64_t)e->sum.val[a][f]));
	else
		snprintf(out, n, "differs: the region's is %+lld",
			 (long long)(e->kernel_region[a][f] - (int64_t)e->sum.val[a][f]));
}

/* Device d's row of figure f: its parts and their composition. */
static void part_cols(struct ph_table *tb, int r, const struct ph_cxl_devpath *d, int a, int f)
{
	const uint32_t link = cxl_fig_is_latency(f) ? d->parts.link_lat_ns : d->parts.link_bw;

	opt_int(tb, r, "device_cdat", d->parts.cdat[f], d->parts.cdat[f]);
	opt_int(tb, r, "link", link, link);
	opt_int(tb, r, "generic_port", d->parts.gp[a][f], d->parts.gp[a][f]);
	opt_int(tb, r, "composed", d->sum.val[a][f], d->sum.known[a][f]);
}

/*
 * One row per access class and figure, and for a region over several
 * devices first one per device (its own path); returns how many differ.
 */
static int explain_rows(struct ph_table *tb, const struct ph_cxl_explained *e)
{
	const bool il = e->ndev > 1 && !e->why;
	char verdict[200];
	int ndiff = 0;

	for (int a = 0; a < 2; a++)
		for (int f = 0; f < PH_CXL_NFIG; f++) {
			const bool lat = cxl_fig_is_latency(f);
			const int v = cxl_explain_verdict(e, a, f);
			struct ph_cxl_devpath one;
			int r;

			for (int i = 0; il && i < e->ndev; i++) {
				r = table_add_row(tb);
				table_int(tb, r, "node", e->node);
				table_str(tb, r, "region", e->region);
				table_str(tb, r, "memdev", e->dev[i].memdev);
				table_int(tb, r, "access", a);
				table_str(tb, r, "figure", cxl_fig_name(f));
				table_str(tb, r, "rule", lat ? "sum" : "min");
				part_cols(tb, r, &e->dev[i], a, f);
				table_str(tb, r, "verdict", "one device's path: the region's row composes them");
			}
			r = table_add_row(tb);
			table_int(tb, r, "node", e->node);
			table_str(tb, r, "region", e->region);
			table_str(tb, r, "memdev", e->memdev[0] ? e->memdev : NULL);
			table_int(tb, r, "access", a);
			table_str(tb, r, "figure", cxl_fig_name(f));
			if (il) {
				table_str(tb, r, "rule", lat ? "worst device" : "sum per host bridge, min generic port");
				opt_int(tb, r, "composed", e->sum.val[a][f], e->sum.known[a][f]);
			} else {
				table_str(tb, r, "rule", lat ? "sum" : "min");
				cxl_devpath_of(e, &one);
				if (!e->why)
					part_cols(tb, r, &one, a, f);
			}
			opt_int(tb, r, "kernel_node", e->kernel_node[a][f], e->kernel_node[a][f] >= 0);
			opt_int(tb, r, "kernel_region", e->kernel_region[a][f], e->kernel_region[a][f] >= 0);
			verdict_of(e, a, f, v, verdict, sizeof(verdict));
			table_str(tb, r, "verdict", verdict);
			ndiff += v == 1;
		}
	return ndiff;
}

static double gtps(int mbps)
{
	return mbps / 1000.0;
}

static void parts_row(struct ph_table *tb, int node, const struct ph_cxl_devpath *d)
{
	int r = table_add_row(tb);

	table_int(tb, r, "node", node);
	table_str(tb, r, "memdev", d->memdev[0] ? d->memdev : NULL);
	if (d->link_mbps)
		table_num(tb, r, "link_GTps", gtps(d->link_mbps), "%.1f");
	if (d->link_width)
		table_int(tb, r, "link_width", d->link_width);
	if (d->port_link_mbps)
		table_num(tb, r, "port_link_GTps", gtps(d->port_link_mbps), "%.1f");
	opt_int(tb, r, "link_latency_ps", d->link_lat_ps, d->link_lat_ps);
	opt_int(tb, r, "link_bandwidth_MBps", d->parts.link_bw, d->parts.link_bw);
	opt_int(tb, r, "qos_link_bandwidth_MBps", d->link_bw_encoded, d->link_bw_encoded);
	opt_int(tb, r, "cdat_dsmas_handle", d->cdat_handle, d->cdat_handle >= 0);
	opt_int(tb, r, "host_bridge_uid", d->hb_uid, d->hb_uid >= 0);
	opt_int(tb, r, "generic_port_domain", d->gp_domain, d->gp_domain >= 0);
	table_str(tb, r, "generic_port_why", d->gp_why);
}

/* One row per device behind e. */
static void parts_rows(struct ph_table *tb, const struct ph_cxl_explained *e)
{
	struct ph_cxl_devpath one;

	if (e->ndev > 1 && !e->why) {
		for (int i = 0; i < e->ndev; i++)
			parts_row(tb, e->node, &e->dev[i]);
		return;
	}
	cxl_devpath_of(e, &one);
	parts_row(tb, e->node, &one);
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
		if (e[i].ndev > 1 && !e[i].why)
			doc_note(doc, "CXL: node %d: %s is interleaved over %d devices, composed as "
				      "Linux 6.12 does for devices on root ports: latency the worst "
				      "device's; bandwidth per host bridge the sum of min(device CDAT, "
				      "link) over its devices, then min with its generic port, summed "
				      "over the host bridges (cxl_region_shared_upstream_bandwidth_update()); "
				      "each device's own path in the rows before the region's", e[i].node,
				 e[i].region, e[i].ndev);
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
