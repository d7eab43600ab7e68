/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * prom.h - a check's result in Prometheus' text exposition format, as
 * node_exporter's textfile collector reads it: the status (0 OK .. 3
 * UNKNOWN), each figure with its node and what it measured as labels, each
 * finding's status.
 */
#ifndef PAGEHOP_PROM_H
#define PAGEHOP_PROM_H

#include "hmodel.h"

/*
 * The text, malloc'd: pagehop_check_status, pagehop_check_duration_seconds,
 * pagehop_check_timestamp_seconds, pagehop_latency_ns{node,mem_node,page_size,hop},
 * pagehop_bandwidth_GBps{node,mem_node,kernel,hop}, pagehop_memory_bytes{node},
 * pagehop_hugepages_available{node,page_size}, pagehop_figure_status{node,
 * mem_node,figure} and pagehop_setting_status{setting,basis}.  f may be NULL.
 */
char *prom_render(const struct ph_hset *now, const struct ph_hfindings *f, enum ph_hstatus st,
		  double duration_s, double timestamp_s);

#endif
