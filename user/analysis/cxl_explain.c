// SPDX-License-Identifier: GPL-2.0-only
/*
 * cxl_explain.c - a CXL node's coordinates as Linux composes them (cxl_explain.h).
 */
#include "cxl_explain.h"
#include "hmat_table.h"

#include <stdio.h>
#include <string.h>

const char *cxl_fig_name(int f)
{
	static const char *const names[PH_CXL_NFIG] = {
		"read_latency_ns", "write_latency_ns", "read_bandwidth_MBps", "write_bandwidth_MBps",
	};

	return f >= 0 && f < PH_CXL_NFIG ? names[f] : "?";
}

/* Which figures an HMAT data type sets (cxl_access_coordinate_set()). */
static bool sets(int data_type, int f)
{
	switch (data_type) {
	case PH_HMAT_ACCESS_LATENCY:
		return f == PH_CXL_READ_LAT || f == PH_CXL_WRITE_LAT;
	case PH_HMAT_READ_LATENCY:
		return f == PH_CXL_READ_LAT;
	case PH_HMAT_WRITE_LATENCY:
		return f == PH_CXL_WRITE_LAT;
	case PH_HMAT_ACCESS_BANDWIDTH:
		return f == PH_CXL_READ_BW || f == PH_CXL_WRITE_BW;
	case PH_HMAT_READ_BANDWIDTH:
		return f == PH_CXL_READ_BW;
	case PH_HMAT_WRITE_BANDWIDTH:
		return f == PH_CXL_WRITE_BW;
	}
	return false;
}

int cxl_cdat_figures(const struct ph_cdat *t, uint64_t start, uint64_t size,
		     uint32_t fig[PH_CXL_NFIG])
{
	int handle = -1;

	memset(fig, 0, PH_CXL_NFIG * sizeof(*fig));
	/* The kernel keeps the ranges in an xarray by handle: the last in handle order wins. */
	for (int k = 0; k < t->ndsmas; k++) {
		const struct ph_cdat_dsmas *d = &t->dsmas[k];

		if (!d->dpa_length || d->dpa_base < start ||
		    d->dpa_base + d->dpa_length > start + size)
			continue;
		if ((int)d->handle > handle)
			handle = d->handle;
	}
	if (handle < 0)
		return -1;
	for (int k = 0; k < t->ndslbis; k++) {
		const struct ph_cdat_dslbis *l = &t->dslbis[k];
		uint32_t v;

		/* Not the memory hierarchy, or another range: skipped, as the kernel does. */
		if (l->handle != handle || (l->flags & 0xf))
			continue;
		v = acpi_hmat_value(l->entry[0], l->base_unit, l->data_type, 2);
		for (int f = 0; f < PH_CXL_NFIG; f++)
			if (sets(l->data_type, f))
				fig[f] = v;
	}
	return handle;
}

uint32_t cxl_link_latency_ps(int speed_mbps)
{
	/* cxl_flit_size(): 256-byte flits where the link runs in flit mode (64 GT/s needs it). */
	uint32_t flit = speed_mbps >= 64000 ? 256 : 68;
	uint32_t bw = (uint32_t)speed_mbps / 8;

	return bw ? (uint32_t)(flit * 1000000ull / bw) : 0;
}

uint32_t cxl_link_latency_ns(uint32_t ps)
{
	return (uint32_t)(((uint64_t)ps + 999) / 1000);
}

uint32_t cxl_link_bandwidth(int speed_mbps, int width)
{
	return speed_mbps > 0 && width > 0 ? (uint32_t)(speed_mbps / 8) * (uint32_t)width : 0;
}

uint32_t cxl_link_bandwidth_encoded(int speed_mbps, int width)
{
	uint64_t enc;

	if (speed_mbps <= 0 || width <= 0)
		return 0;
	/* PCIE_SPEED2MBS_ENC(): 8b/10b to 5 GT/s, 128b/130b to 32, none in flit mode. */
	if (speed_mbps <= 5000)
		enc = (uint64_t)speed_mbps * 8 / 10;
	else if (speed_mbps < 64000)
		enc = (uint64_t)speed_mbps * 128 / 130;
	else
		enc = (uint64_t)speed_mbps;
	return (uint32_t)(enc * (uint64_t)width / 8);
}

void cxl_compose(const struct ph_cxl_parts *p, struct ph_cxl_sum *out)
{
	memset(out, 0, sizeof(*out));
	for (int a = 0; a < 2; a++)
		for (int f = 0; f < PH_CXL_NFIG; f++) {
			const bool lat = cxl_fig_is_latency(f);
			uint32_t c = p->cdat[f], g = p->gp[a][f];
			uint32_t l = lat ? p->link_lat_ns : p->link_bw;

			out->missing[a][f] = !c ? "device CDAT" : !g ? "generic port" : !l ? "link" : NULL;
			if (out->missing[a][f])
				continue;
			out->known[a][f] = true;
			if (lat)
				out->val[a][f] = c + l + g;
			else
				out->val[a][f] = c < l ? (c < g ? c : g) : (l < g ? l : g);
		}
}

void cxl_compose_region(const struct ph_cxl_devpath *d, int n, struct ph_cxl_sum *out)
{
	memset(out, 0, sizeof(*out));
	for (int a = 0; a < 2; a++)
		for (int f = 0; f < PH_CXL_NFIG; f++) {
			const bool lat = cxl_fig_is_latency(f);
			uint32_t v = 0;

			for (int i = 0; i < n && !out->missing[a][f]; i++)
				out->missing[a][f] = d[i].sum.missing[a][f];
			if (out->missing[a][f] || !n)
				continue;
			for (int i = 0; i < n; i++) {
				uint32_t hb = 0;
				bool first = true;

				if (lat) {
					if (d[i].sum.val[a][f] > v)
						v = d[i].sum.val[a][f];
					continue;
				}
				/* Each host bridge once, at its first device. */
				for (int k = 0; k < i; k++)
					first &= d[k].hb_uid != d[i].hb_uid;
				if (!first)
					continue;
				for (int k = i; k < n; k++) {
					const uint32_t c = d[k].parts.cdat[f], l = d[k].parts.link_bw;

					if (d[k].hb_uid == d[i].hb_uid)
						hb += c < l ? c : l;
				}
				v += hb < d[i].parts.gp[a][f] ? hb : d[i].parts.gp[a][f];
			}
			out->val[a][f] = v;
			out->known[a][f] = true;
		}
}

long cxl_generic_port(const struct ph_acpi_srat *srat, const struct ph_acpi_hmat *hmat,
		      int64_t uid, uint32_t gp[2][PH_CXL_NFIG], const char **why)
{
	const struct ph_srat_dev *port;
	struct ph_hmat_tier x = { 0 };
	bool generic_initiators = false;

	memset(gp, 0, 2 * PH_CXL_NFIG * sizeof(gp[0][0]));
	*why = NULL;
	if (!srat) {
		*why = "no SRAT";
		return -1;
	}
	if (uid < 0 || uid > UINT32_MAX) {
		*why = "the host bridge's _UID is unknown";
		return -1;
	}
	port = acpi_srat_port_of(srat, (uint32_t)uid);
	if (!port || !port->enabled) {
		*why = "no enabled SRAT generic port of the host bridge's _UID";
		return -1;
	}
	if (!hmat) {
		*why = "no HMAT";
		return (long)port->domain;
	}
	hmat_best_figures(hmat, port->domain, &x);
	for (int k = 0; k < srat->ndev; k++)
		generic_initiators |= srat->dev[k].type == 5 && srat->dev[k].enabled;
	for (int a = 0; a < 2; a++) {
		/* Access 1 leaves generic initiators out, which the best over all may be. */
		if (a == 1 && generic_initiators)
			break;
		gp[a][PH_CXL_READ_LAT] = x.read_lat;
		gp[a][PH_CXL_WRITE_LAT] = x.write_lat;
		gp[a][PH_CXL_READ_BW] = x.read_bw;
		gp[a][PH_CXL_WRITE_BW] = x.write_bw;
	}
	if (!x.read_lat && !x.write_lat && !x.read_bw && !x.write_bw)
		*why = "no HMAT entry to the generic port's domain";
	return (long)port->domain;
}

static void kernel_coord(const struct ph_cxl_coord *a, int64_t out[PH_CXL_NFIG])
{
	out[PH_CXL_READ_LAT] = a->present ? a->read_lat_ns : -1;
	out[PH_CXL_WRITE_LAT] = a->present ? a->write_lat_ns : -1;
	out[PH_CXL_READ_BW] = a->present ? a->read_bw_MBps : -1;
	out[PH_CXL_WRITE_BW] = a->present ? a->write_bw_MBps : -1;
}

/* The memory device of id "memN" in c, or NULL. */
static const struct ph_cxl_memdev *memdev_named(const struct ph_cxl *c, const char *name)
{
	int id;

	if (sscanf(name, "mem%d", &id) != 1)
		return NULL;
	for (int i = 0; i < c->nmem; i++)
		if (c->mem[i].id == id)
			return &c->mem[i];
	return NULL;
}

/* Device m's path for a region of mode mode into e's device fields. */
static void explain_device(const struct ph_cxl_memdev *m, const char *mode,
			   const struct ph_acpi_srat *srat, const struct ph_acpi_hmat *hmat,
			   struct ph_cxl_explained *e)
{
	uint64_t start = 0, size = 0;

	snprintf(e->memdev, sizeof(e->memdev), "mem%d", m->id);
	e->port_link_mbps = m->port_link_mbps;
	e->link_mbps = m->link_mbps;
	e->link_width = m->link_width;
	e->hb_uid = m->hb_uid;
	if (m->switched) {
		e->why = "behind a CXL switch (its SSLBIS and a second link): pagehop composes a device on a root port only";
		return;
	}
	e->link_lat_ps = cxl_link_latency_ps(m->port_link_mbps);
	e->link_bw_encoded = cxl_link_bandwidth_encoded(m->link_mbps, m->link_width);
	e->parts.link_lat_ns = cxl_link_latency_ns(e->link_lat_ps);
	e->parts.link_bw = cxl_link_bandwidth(m->link_mbps, m->link_width);
	/* The device's partitions: ram from DPA 0, pmem after it (cxl_mem_dpa_fetch()). */
	if (!strcmp(mode, "ram")) {
		size = m->ram_bytes > 0 ? (uint64_t)m->ram_bytes : 0;
	} else if (!strcmp(mode, "pmem")) {
		start = m->ram_bytes > 0 ? (uint64_t)m->ram_bytes : 0;
		size = m->pmem_bytes > 0 ? (uint64_t)m->pmem_bytes : 0;
	}
	if (!m->cdat_err && size)
		e->cdat_handle = cxl_cdat_figures(&m->cdat, start, size, e->parts.cdat);
	e->gp_domain = cxl_generic_port(srat, hmat, m->hb_uid, e->parts.gp, &e->gp_why);
	cxl_compose(&e->parts, &e->sum);
}

void cxl_devpath_of(const struct ph_cxl_explained *e, struct ph_cxl_devpath *d)
{
	memset(d, 0, sizeof(*d));
	snprintf(d->memdev, sizeof(d->memdev), "%.15s", e->memdev);
	d->hb_uid = e->hb_uid;
	d->gp_domain = e->gp_domain;
	d->gp_why = e->gp_why;
	d->cdat_handle = e->cdat_handle;
	d->port_link_mbps = e->port_link_mbps;
	d->link_mbps = e->link_mbps;
	d->link_width = e->link_width;
	d->link_lat_ps = e->link_lat_ps;
	d->link_bw_encoded = e->link_bw_encoded;
	d->parts = e->parts;
	d->sum = e->sum;
}

/* Region r over several devices: each one's path, then the region's composition. */
static void explain_interleaved(const struct ph_cxl *c, const struct ph_cxl_region *r,
				const struct ph_acpi_srat *srat, const struct ph_acpi_hmat *hmat,
				struct ph_cxl_explained *e)
{
	char names[sizeof(r->memdevs)], *save = NULL;
	struct ph_cxl_explained one;

	snprintf(e->memdev, sizeof(e->memdev), "%s", r->memdevs);
	snprintf(names, sizeof(names), "%s", r->memdevs);
	for (char *t = strtok_r(names, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		const struct ph_cxl_memdev *m = memdev_named(c, t);

		if (!m) {
			e->why = "no memory device decodes this region";
			return;
		}
		if (e->ndev == PH_CXL_MAXWAYS) {
			e->why = "interleaved over more devices than pagehop composes";
			return;
		}
		memset(&one, 0, sizeof(one));
		one.cdat_handle = -1;
		one.gp_domain = -1;
		explain_device(m, r->mode, srat, hmat, &one);
		if (one.why) {
			e->why = one.why;
			return;
		}
		cxl_devpath_of(&one, &e->dev[e->ndev++]);
		if (!e->gp_why)
			e->gp_why = one.gp_why;
	}
	cxl_compose_region(e->dev, e->ndev, &e->sum);
}

void cxl_explain_region(const struct ph_cxl *c, int k, const struct ph_acpi_srat *srat,
			const struct ph_acpi_hmat *hmat, struct ph_cxl_explained *e)
{
	const struct ph_cxl_region *r = &c->reg[k];
	const struct ph_cxl_memdev *m;

	memset(e, 0, sizeof(*e));
	e->node = r->node;
	e->cdat_handle = -1;
	e->gp_domain = -1;
	e->hb_uid = -1;
	e->ndev = 1;
	snprintf(e->region, sizeof(e->region), "region%d", r->id);
	for (int a = 0; a < 2; a++) {
		kernel_coord(&r->access[a], e->kernel_region[a]);
		for (int f = 0; f < PH_CXL_NFIG; f++)
			e->kernel_node[a][f] = -1;
		for (int i = 0; i < c->nnode; i++)
			if (c->node[i].node == r->node)
				kernel_coord(&c->node[i].access[a], e->kernel_node[a]);
	}
	if (strchr(r->memdevs, ',')) {
		e->ndev = 0;
		explain_interleaved(c, r, srat, hmat, e);
		return;
	}
	m = memdev_named(c, r->memdevs);
	if (!m) {
		e->why = "no memory device decodes this region";
		return;
	}
	explain_device(m, r->mode, srat, hmat, e);
}

int cxl_explain_verdict(const struct ph_cxl_explained *e, int access, int f)
{
	int64_t kn = e->kernel_node[access][f], kr = e->kernel_region[access][f];

	if (e->why || !e->sum.known[access][f] || kn < 0)
		return -1;
	return kn == (int64_t)e->sum.val[access][f] && (kr < 0 || kr == kn) ? 0 : 1;
}
