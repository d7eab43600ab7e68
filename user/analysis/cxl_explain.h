/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cxl_explain.h - a CXL memory node's access coordinates as Linux 6.12
 * composes them, from three sources, and what each contributes:
 *
 *   device CDAT   the DSLBIS figures of the DSMAS range that holds the
 *                 region's partition (drivers/cxl/core/cdat.c,
 *                 cdat_dslbis_handler(), cdat_normalize(): entry x base
 *                 unit, latencies from ps to ns rounded up; an access
 *                 figure sets read and write; a later entry overrides);
 *   generic port  the SRAT Generic Port Affinity structure of the host
 *                 bridge's _UID and its HMAT entries, the best over the
 *                 initiators as drivers/acpi/numa/hmat.c picks them
 *                 (hmat_update_target_attrs(), hmat_best_figures());
 *   the link      drivers/cxl/core/pci.c: cxl_pci_get_latency(), the
 *                 flit latency, flit bytes x 10^6 / (Mb/s / 8) in ps, of
 *                 the port above the device (68-byte flits, 256 at 64
 *                 GT/s and above, where PCIe 6 runs in flit mode); and
 *                 cxl_pci_get_bandwidth(), the device's link, Mb/s / 8 x
 *                 width in MB/s: the raw rate, 2.5 GT/s x1 is 312 MB/s.
 *
 * Latency: the sum of the three (cxl_endpoint_get_perf_coordinates()
 * adds the link's latency, then the generic port's; cdat.c adds the
 * CDAT's).  Bandwidth: the minimum of the three, as the region's
 * shared-upstream pass computes it (cdat.c,
 * cxl_region_shared_upstream_bandwidth_update(): min(link, CDAT), summed
 * per root port and host bridge, then min with the generic port); that
 * pass replaces the first one's figure, which took the link from
 * pcie_bandwidth_available() instead, after encoding (2.5 GT/s x1 is 250
 * MB/s there): the qos_class is chosen from that first figure.  The node
 * takes the region's coordinates (node_set_perf_attrs()).
 *
 * The link's latency (cxl_pci_get_latency(): bw = pcie_link_speed_mbps()
 * / BITS_PER_BYTE, then cxl_flit_size() x MEGA / bw, both integer
 * divisions) is in ps; the node's figures are in ns.  It is taken here as
 * ns rounded up (cxl_link_latency_ns()).  Why that is the kernel's figure
 * at every PCIe rate: cxl_endpoint_get_perf_coordinates() adds each hop's
 * link_latency (add_latency()), and pagehop composes one hop only (a
 * device on a root port), so summing before or after rounding is the
 * same; 6.12 on pagehop's CXL guest shows 217948 ps as 218 ns at 2.5
 * GT/s, which excludes truncation (217); and at 2.5, 5, 8, 16, 32 and 64
 * GT/s (217948, 108800, 68000, 34000, 17000, 32000 ps) rounding up and
 * rounding to the nearest give the same ns (218, 109, 68, 34, 17, 32).
 *
 * Pure arithmetic: the figures in, the composition out.
 */
#ifndef PAGEHOP_CXL_EXPLAIN_H
#define PAGEHOP_CXL_EXPLAIN_H

#include "acpi_hmat.h"
#include "acpi_srat.h"
#include "cdat.h"
#include "cxl.h"

#include <stdbool.h>
#include <stdint.h>

/* The four figures of an access class, in this order everywhere. */
enum ph_cxl_fig {
	PH_CXL_READ_LAT,	/* ns */
	PH_CXL_WRITE_LAT,
	PH_CXL_READ_BW,		/* MB/s */
	PH_CXL_WRITE_BW,
	PH_CXL_NFIG,
};

/* "read_latency_ns", ..., "write_bandwidth_MBps". */
const char *cxl_fig_name(int f);
static inline bool cxl_fig_is_latency(int f)
{
	return f == PH_CXL_READ_LAT || f == PH_CXL_WRITE_LAT;
}

/*
 * The DSLBIS figures (0: none) of the range the kernel takes for a
 * partition [start, start + size): the last DSMAS in handle order whose
 * DPA range lies inside it (cxl_memdev_set_qos_class()), and the
 * memory-hierarchy DSLBIS of its handle, in table order.  Returns the
 * handle, or -1 when no DSMAS lies inside.
 */
int cxl_cdat_figures(const struct ph_cdat *t, uint64_t start, uint64_t size,
		     uint32_t fig[PH_CXL_NFIG]);

/* The flit latency in ps (cxl_pci_get_latency()); 0 for an unknown speed. */
uint32_t cxl_link_latency_ps(int speed_mbps);
/* That latency in ns as the node's coordinates take it: rounded up (see above). */
uint32_t cxl_link_latency_ns(uint32_t ps);
/* cxl_pci_get_bandwidth(): speed / 8 x width in MB/s; 0 unknown. */
uint32_t cxl_link_bandwidth(int speed_mbps, int width);
/* pcie_bandwidth_available() / 8 for one link, after encoding (8b/10b, 128b/130b); 0 unknown. */
uint32_t cxl_link_bandwidth_encoded(int speed_mbps, int width);

struct ph_cxl_parts {
	uint32_t cdat[PH_CXL_NFIG];	/* the device's; 0 none */
	uint32_t gp[2][PH_CXL_NFIG];	/* the generic port's, access0 and access1; 0 none */
	uint32_t link_lat_ns, link_bw;	/* 0 unknown */
};

struct ph_cxl_sum {
	/* The composition, per access class and figure; known false: a part is missing. */
	uint32_t val[2][PH_CXL_NFIG];
	bool known[2][PH_CXL_NFIG];
	/* The part missing, for a figure not known: "device CDAT", "generic port", "link". */
	const char *missing[2][PH_CXL_NFIG];
};

/* Compose p as the kernel does (above). */
void cxl_compose(const struct ph_cxl_parts *p, struct ph_cxl_sum *out);

/*
 * A region interleaved over n device paths, as Linux 6.12 composes it
 * (cxl_region_perf_data_calculate() and then
 * cxl_region_shared_upstream_bandwidth_update(), devices on root ports):
 * latency the worst device's composed latency; bandwidth per host bridge
 * the sum over its devices of min(device CDAT, link), then min with that
 * bridge's generic port, summed over the host bridges.
 */
struct ph_cxl_devpath;
void cxl_compose_region(const struct ph_cxl_devpath *d, int n, struct ph_cxl_sum *out);

/*
 * The generic port's figures for host bridge _UID uid: the SRAT's type 6
 * structure of that _UID (enabled) and the best HMAT figures to its
 * domain, for both access classes (without generic initiators in the
 * SRAT they are the same set).  Returns the port's domain, or -1 (then
 * why says which table lacks what); gp is zeroed first.
 */
long cxl_generic_port(const struct ph_acpi_srat *srat, const struct ph_acpi_hmat *hmat,
		      int64_t uid, uint32_t gp[2][PH_CXL_NFIG], const char **why);

/* The most devices a region composed over N devices takes. */
#define PH_CXL_MAXWAYS 16

/* One device's path in an interleaved region: its parts and their composition. */
struct ph_cxl_devpath {
	char memdev[16];
	int64_t hb_uid;
	long gp_domain;		/* -1 none */
	const char *gp_why;
	int cdat_handle;	/* -1 none */
	int port_link_mbps, link_mbps, link_width;
	uint32_t link_lat_ps, link_bw_encoded;
	struct ph_cxl_parts parts;
	struct ph_cxl_sum sum;
};

/* One CXL memory node explained: its parts, their composition, the kernel's figures. */
struct ph_cxl_explained {
	int node;
	char region[16], memdev[128];
	/*
	 * Interleaved over ndev > 1 devices (memdev lists them): dev holds each
	 * one's path, parts is empty and sum the region's composition
	 * (cxl_compose_region()).  ndev 1: one device, parts and sum its own.
	 */
	int ndev;
	struct ph_cxl_devpath dev[PH_CXL_MAXWAYS];
	const char *why;	/* not composed at all (interleaved, a switch): why; NULL composed */
	int port_link_mbps, link_mbps, link_width;	/* 0 unknown */
	uint32_t link_lat_ps, link_bw_encoded;
	int cdat_handle;	/* the DSMAS taken, -1 none */
	long gp_domain;		/* -1 none */
	int64_t hb_uid;
	const char *gp_why;	/* why the generic port has no figures, NULL it has */
	struct ph_cxl_parts parts;
	struct ph_cxl_sum sum;
	int64_t kernel_node[2][PH_CXL_NFIG];	/* nodeN/accessK/initiators; -1 none */
	int64_t kernel_region[2][PH_CXL_NFIG];	/* regionN/accessK; -1 none */
};

/* e's own device path (e of one device) as a struct ph_cxl_devpath. */
void cxl_devpath_of(const struct ph_cxl_explained *e, struct ph_cxl_devpath *d);

/*
 * Explain region k of c (its node >= 0), with the SRAT and HMAT (either
 * may be NULL: then the generic port's figures are unknown).
 */
void cxl_explain_region(const struct ph_cxl *c, int k, const struct ph_acpi_srat *srat,
			const struct ph_acpi_hmat *hmat, struct ph_cxl_explained *e);

/*
 * How a composed figure stands against the kernel's node figure: 0 it
 * adds up (and the region's agrees), 1 it differs, -1 cannot tell (a
 * part or the kernel's figure missing).
 */
int cxl_explain_verdict(const struct ph_cxl_explained *e, int access, int f);

struct ph_doc;
/*
 * Tables cxl_explain (per node, access class and figure: each source's
 * part, the rule, the composition, the kernel's node and region figures,
 * whether it adds up) and cxl_parts (the link and the generic port behind
 * them), with notes saying how each part was obtained and where the
 * kernel's figure differs.  Returns the number of figures that differ.
 */
int cxl_explain_report(struct ph_doc *doc, const struct ph_cxl_explained *e, int n);

#endif
