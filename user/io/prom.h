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
 * The text, malloc'd, in base units as Prometheus names them:
 * pagehop_check_status, pagehop_check_duration_seconds,
 * pagehop_check_timestamp_seconds,
 * pagehop_latency_seconds{node,mem_node,page_size,hop,figure} (page_size
 * 4K or THP, as --page-sizes names them),
 * pagehop_bandwidth_bytes_per_second{node,mem_node,kernel,hop,figure},
 * pagehop_memory_bytes{node}, pagehop_hugepages_available{node,page_size}
 * (2M, 1G), pagehop_figure_status{node,mem_node,figure} and
 * pagehop_setting_status{setting,basis}; where f holds the load that was
 * read, pagehop_check_load_other_cpus, _steal_ratio,
 * _pressure_ratio{resource} (where the kernel has pressure),
 * pagehop_check_busy and pagehop_check_busy_unjudged.  A figure without a
 * value has no sample.  f may be NULL.
 */
char *prom_render(const struct ph_hset *now, const struct ph_hfindings *f, enum ph_hstatus st,
		  double duration_s, double timestamp_s);

#endif
