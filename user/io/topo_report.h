/* SPDX-License-Identifier: GPL-2.0-only */
/* topo_report.h - SLIT and HMAT blocks ("distances", "hmat") for documents. */
#ifndef PAGEHOP_TOPO_REPORT_H
#define PAGEHOP_TOPO_REPORT_H

#include "output.h"
#include "topology.h"

void topology_report_distances(struct ph_doc *doc, const struct ph_topology *t);
void topology_report_hmat(struct ph_doc *doc, const struct ph_topology *t);

#endif
