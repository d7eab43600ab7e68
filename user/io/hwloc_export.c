// SPDX-License-Identifier: GPL-2.0-only
/*
 * hwloc_export.c - the measured matrices as hwloc XML (hwloc_export.h).
 */
#include "hwloc_export.h"
#include "util.h"

#include <errno.h>
#include <hwloc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every node id of the matrices, ascending, no duplicates. */
static int node_ids(const struct ph_nmatrix *lat, const struct ph_nmatrix *bw, int **out)
{
	const struct ph_nmatrix *ms[2] = { lat, bw };
	int *ids = NULL, n = 0;

	for (int k = 0; k < 2; k++) {
		const struct ph_nmatrix *m = ms[k];

		for (int i = 0; m && i < m->nrows + m->ncols; i++) {
			int id = i < m->nrows ? m->row_ids[i] : m->col_ids[i - m->nrows], at = 0;

			while (at < n && ids[at] < id)
				at++;
			if (at < n && ids[at] == id)
				continue;
			ids = xrealloc(ids, (size_t)(n + 1) * sizeof(int));
			memmove(ids + at + 1, ids + at, (size_t)(n - at) * sizeof(int));
			ids[at] = id;
			n++;
		}
	}
	*out = ids;
	return n;
}

/*
 * The synthetic topology of a matrix read from a file, and in shown what it
 * is in words.  One PU per node, the nodes' own ids.  With the packages
 * the input's provenance gives, when the nodes divide among them evenly:
 * "pack:2 group:2 [numa(indexes=0,1,2,3)] pu:1", the nodes in id order
 * (what Linux numbers them by on every machine pagehop knows, but an
 * assumption all the same, and said).  Otherwise no package at all, one
 * Group per node: a package count the input does not give is not made up.
 */
static char *synthetic(const int *ids, int n, int packages, char *shown, size_t shownlen)
{
	char *s, *t;

	if (packages > 0 && n % packages == 0) {
		s = n / packages > 1 ? xasprintf("pack:%d group:%d [numa(indexes=", packages, n / packages)
				     : xasprintf("pack:%d [numa(indexes=", packages);
		snprintf(shown, shownlen, "synthetic: %d package%s as the input's provenance says, %d node%s each in id order (assumed), one PU per node",
			 packages, packages > 1 ? "s" : "", n / packages, n / packages > 1 ? "s" : "");
	} else {
		s = xasprintf("group:%d [numa(indexes=", n);
		if (packages > 0)
			snprintf(shown, shownlen, "synthetic: no package; the input's provenance says %d packages, which its %d nodes do not divide among evenly; one Group and one PU per node",
				 packages, n);
		else
			snprintf(shown, shownlen, "synthetic: no package; the input does not say how many its machine had; one Group and one PU per node");
	}

	for (int k = 0; k < n; k++) {
		t = xasprintf("%s%s%d", s, k ? "," : "", ids[k]);
		free(s);
		s = t;
	}
	t = xasprintf("%s)] pu:1", s);
	free(s);
	return t;
}

/* One distances matrix of m over objs, each value times scale; 0 where unknown. */
static int add_distances(hwloc_topology_t topo, const char *name, unsigned long kind,
			 const struct ph_nmatrix *m, double scale, const int *ids, int n,
			 hwloc_obj_t *objs)
{
	hwloc_uint64_t *v = xcalloc((size_t)n * n, sizeof(*v));
	hwloc_distances_add_handle_t h;
	int err = -EINVAL;

	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			int r = nmatrix_row(m, ids[i]), c = nmatrix_col(m, ids[j]);
			double x = r >= 0 && c >= 0 ? m->val[r * m->ncols + c] : NAN;

			v[i * n + j] = isnan(x) || x < 0 ? 0 : (hwloc_uint64_t)llround(x * scale);
		}
	h = hwloc_distances_add_create(topo, name, HWLOC_DISTANCES_KIND_FROM_USER | kind, 0);
	if (h && !hwloc_distances_add_values(topo, h, (unsigned)n, objs, v, 0) &&
	    !hwloc_distances_add_commit(topo, h, 0))
		err = 0;
	free(v);
	return err;
}

/* Memory attribute attr of every measured cell: target column, initiator the row's CPUs. */
static void add_memattrs(hwloc_topology_t topo, hwloc_memattr_id_t attr, const struct ph_nmatrix *m,
			 double scale)
{
	for (int r = 0; r < m->nrows; r++) {
		hwloc_obj_t init = hwloc_get_numanode_obj_by_os_index(topo, (unsigned)m->row_ids[r]);
		struct hwloc_location loc;

		if (!init || hwloc_bitmap_iszero(init->cpuset))
			continue;
		loc.type = HWLOC_LOCATION_TYPE_CPUSET;
		loc.location.cpuset = init->cpuset;
		for (int c = 0; c < m->ncols; c++) {
			hwloc_obj_t t = hwloc_get_numanode_obj_by_os_index(topo, (unsigned)m->col_ids[c]);
			double x = m->val[r * m->ncols + c];

			if (t && !isnan(x) && x > 0)
				hwloc_memattr_set_value(topo, attr, t, &loc, 0,
							(hwloc_uint64_t)llround(x * scale));
		}
	}
}

int hwloc_export(const char *path, const struct ph_nmatrix *lat, const struct ph_nmatrix *bw,
		 bool this_machine, int packages, struct ph_outset *set, char *shown, size_t shownlen,
		 char *why, size_t whylen)
{
	hwloc_topology_t topo;
	hwloc_obj_t *objs;
	char *syn = NULL, *xml = NULL;
	int *ids, n = node_ids(lat, bw, &ids), err = 0, xmllen = 0;

	if (hwloc_topology_init(&topo)) {
		snprintf(why, whylen, "hwloc cannot start: %s", strerror(errno));
		free(ids);
		return -ENOMEM;
	}
	snprintf(shown, shownlen, "this machine's");
	if (!this_machine) {
		syn = synthetic(ids, n, packages, shown, shownlen);
		if (hwloc_topology_set_synthetic(topo, syn))
			err = -EINVAL;
	}
	if (!err && hwloc_topology_load(topo))
		err = -errno ? -errno : -EINVAL;
	if (err) {
		snprintf(why, whylen, "hwloc cannot build the topology%s%s", syn ? " " : "", syn ? syn : "");
		goto out;
	}
	objs = xcalloc((size_t)n, sizeof(*objs));
	for (int k = 0; k < n && !err; k++) {
		objs[k] = hwloc_get_numanode_obj_by_os_index(topo, (unsigned)ids[k]);
		if (!objs[k]) {
			snprintf(why, whylen, "hwloc shows no NUMA node %d on this machine", ids[k]);
			err = -ENOENT;
		}
	}
	if (!err && lat && add_distances(topo, PH_HWLOC_LATENCY_NAME, HWLOC_DISTANCES_KIND_MEANS_LATENCY,
					 lat, 1000, ids, n, objs))
		err = -EINVAL;
	if (!err && bw && add_distances(topo, PH_HWLOC_BANDWIDTH_NAME, HWLOC_DISTANCES_KIND_MEANS_BANDWIDTH,
					bw, 1000, ids, n, objs))
		err = -EINVAL;
	free(objs);
	if (err) {
		if (err == -EINVAL)
			snprintf(why, whylen, "hwloc refuses the distances: %s", strerror(errno));
		goto out;
	}
	/* What the topology is, in the file itself: hwloc-info shows it on the machine object. */
	hwloc_obj_add_info(hwloc_get_root_obj(topo), "PagehopTopology", shown);
	if (lat)
		add_memattrs(topo, HWLOC_MEMATTR_ID_LATENCY, lat, 1);
	if (bw)
		add_memattrs(topo, HWLOC_MEMATTR_ID_BANDWIDTH, bw, 1e9 / 1048576.0);
	if (hwloc_topology_export_xmlbuffer(topo, &xml, &xmllen, 0)) {
		snprintf(why, whylen, "hwloc cannot write XML: %s", strerror(errno));
		err = -EIO;
		goto out;
	}
	err = outset_stage(set, path, xml, (size_t)(xmllen > 0 ? xmllen - 1 : 0), why, whylen);
	hwloc_free_xmlbuffer(topo, xml);
out:
	hwloc_topology_destroy(topo);
	free(syn);
	free(ids);
	return err;
}
