// SPDX-License-Identifier: GPL-2.0-only
/*
 * cxl_hmat.c - the generic port's figures implied by a CXL measurement,
 * the rules in cxl_hmat.h.
 */
#include "cxl_hmat.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The explained nodes the proposal covers: composed, behind a generic port. */
static bool covered(const struct ph_cxl_explained *x)
{
	return !x->why && x->ndev <= 1 && x->gp_domain >= 0;
}

static void add_id(int **ids, int *n, int id)
{
	for (int i = 0; i < *n; i++)
		if ((*ids)[i] == id)
			return;
	*(int *)xappend(ids, n, sizeof(**ids)) = id;
}

/* " [CI lo, hi]", " (no CI)", and the CI's verdict. */
static char *ci_words(double lo, double hi, bool met, const char *fmt)
{
	char a[32], b[32];

	if (!isfinite(lo) || !isfinite(hi))
		return xstrdup(met ? " (no CI recorded)" : " (no CI; its CI target was missed)");
	snprintf(a, sizeof(a), fmt, lo);
	snprintf(b, sizeof(b), fmt, hi);
	return xasprintf(" [CI %s, %s]%s", a, b,
			 met ? "" : ", MISSED its CI target: this figure is less sure than asked");
}

static char *append(char *s, char *line)
{
	char *n = xasprintf("%s%s", s, line);

	free(s);
	free(line);
	return n;
}

/* One cell of latency; 0, or -EINVAL with why. */
static int lat_cell(const struct ph_cxl_explained *x, const struct ph_cxl_measured *r,
		    double *out, char **text, char *why, size_t whylen)
{
	const uint32_t cdat = x->parts.cdat[PH_CXL_READ_LAT], link = x->parts.link_lat_ns;
	double v;
	char *ci;

	if (!cdat || !link) {
		snprintf(why, whylen, "node %d: no %s read latency to take from the measurement",
			 x->node, !cdat ? "device CDAT" : "link");
		return -EINVAL;
	}
	v = r->lat_ns - cdat - link;
	if (!(v > 0)) {
		snprintf(why, whylen, "node %d from CPU node %d: the device CDAT's %u ns and the link's %u ns alone exceed the measured %.2f ns, so no generic port latency is implied",
			 x->node, r->cpu_node, cdat, link, r->lat_ns);
		return -EINVAL;
	}
	*out = v;
	ci = ci_words(r->lat_lo, r->lat_hi, r->lat_ci_met, "%.2f");
	*text = append(*text, xasprintf("    read latency, initiator %d to domain %ld (node %d): %.2f ns = the read latency measured from CPU node %d, %.2f ns%s, less the device CDAT's %u ns (DSMAS %d) and the link's %u ns\n",
					r->cpu_node, x->gp_domain, x->node, v, r->cpu_node,
					r->lat_ns, ci, cdat, x->cdat_handle, link));
	free(ci);
	return 0;
}

/* One cell of bandwidth: the measurement where the port binds, else the firmware's kept. */
static int bw_cell(const struct ph_cxl_explained *x, const struct ph_cxl_measured *r,
		   double *out, char **text, char *why, size_t whylen)
{
	const uint32_t gp = x->parts.gp[1][PH_CXL_READ_BW], cdat = x->parts.cdat[PH_CXL_READ_BW];
	const uint32_t link = x->parts.link_bw;
	uint32_t other = cdat && link ? (cdat < link ? cdat : link) : cdat ? cdat : link;
	char *ci;

	if (!gp || !other) {
		snprintf(why, whylen, "node %d: no %s read bandwidth to compose with",
			 x->node, !gp ? "generic port" : "device CDAT or link");
		return -EINVAL;
	}
	ci = ci_words(r->bw_lo, r->bw_hi, r->bw_ci_met, "%.3f");
	if (gp > other && r->bw_GBps * 1000 <= other) {
		*out = gp / 1000.0;
		*text = append(*text, xasprintf("    read bandwidth, initiator %d to domain %ld (node %d): %u MB/s, the firmware's best over initiators (the one figure Linux takes), given to every initiator, whatever its own entry says: the %s's %u MB/s binds below it, so the %.3f GB/s measured from CPU node %d%s cannot show it\n",
						r->cpu_node, x->gp_domain, x->node, gp,
						other == link ? "link" : "device CDAT", other,
						r->bw_GBps, r->cpu_node, ci));
	} else {
		*out = r->bw_GBps;
		*text = append(*text, xasprintf("    read bandwidth, initiator %d to domain %ld (node %d): %.0f MB/s = the read bandwidth measured from CPU node %d, %.3f GB/s%s, where the generic port is the least part (the device CDAT's %u, the link's %u MB/s)\n",
						r->cpu_node, x->gp_domain, x->node, r->bw_GBps * 1000,
						r->cpu_node, r->bw_GBps, ci, cdat, link));
	}
	free(ci);
	return 0;
}

int cxl_propose_gp(const struct ph_cxl_explained *e, int ne, const struct ph_cxl_measured *m,
		   int nm, struct ph_nmatrix **lat, struct ph_nmatrix **bw, char **text,
		   char *whybuf, size_t whylen)
{
	int *rows = NULL, *cols = NULL, nr = 0, nc = 0, err = 0;

	*lat = *bw = NULL;
	*text = NULL;
	for (int i = 0; i < ne; i++) {
		if (!covered(&e[i]))
			continue;
		for (int k = 0; k < i; k++)
			if (covered(&e[k]) && e[k].gp_domain == e[i].gp_domain) {
				snprintf(whybuf, whylen, "nodes %d and %d are both behind the generic port of domain %ld: one HMAT entry per initiator cannot hold the figures of both",
					 e[k].node, e[i].node, e[i].gp_domain);
				free(rows);
				free(cols);
				return -EINVAL;
			}
		add_id(&cols, &nc, (int)e[i].gp_domain);
		for (int j = 0; j < nm; j++)
			if (m[j].node == e[i].node && (m[j].have_lat || m[j].have_bw))
				add_id(&rows, &nr, m[j].cpu_node);
	}
	if (!nc || !nr) {
		snprintf(whybuf, whylen, "%s", !nc ? "no CXL node behind a generic port (its SRAT Generic Port Affinity structure), so no generic port entry to propose"
					       : "no measured row for a CXL node behind a generic port");
		free(rows);
		free(cols);
		return -EINVAL;
	}
	*lat = nmatrix_new(PH_METRIC_LATENCY, nr, rows, nc, cols);
	*bw = nmatrix_new(PH_METRIC_BANDWIDTH, nr, rows, nc, cols);
	*text = xstrdup("");
	for (int i = 0; i < ne && !err; i++) {
		int c = covered(&e[i]) ? nmatrix_col(*lat, (int)e[i].gp_domain) : -1;

		for (int j = 0; c >= 0 && j < nm && !err; j++) {
			const struct ph_cxl_measured *r = &m[j];
			int at;

			if (r->node != e[i].node)
				continue;
			at = nmatrix_row(*lat, r->cpu_node) * nc + c;
			if (r->have_lat) {
				err = lat_cell(&e[i], r, &(*lat)->val[at], text, whybuf, whylen);
				(*lat)->ci_missed[at] = !r->lat_ci_met;
			}
			if (r->have_bw && !err) {
				err = bw_cell(&e[i], r, &(*bw)->val[at], text, whybuf, whylen);
				(*bw)->ci_missed[at] = !r->bw_ci_met;
			}
		}
	}
	free(rows);
	free(cols);
	if (err) {
		nmatrix_free(*lat);
		nmatrix_free(*bw);
		free(*text);
		*lat = *bw = NULL;
		*text = NULL;
	}
	return err;
}
