/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hmat_table.h - the firmware's whole HMAT (every initiator x target entry)
 * against the measured matrix and the SLIT, and the check Linux makes of
 * it before using it for memory tiering.  Pure arithmetic; docs/slit.md
 * section 12 gives every rule.
 *
 * Proximity domain p is taken to be node p, as for the proposed SLIT
 * (docs/slit.md section 9): Linux numbers nodes in domain order on most
 * machines.
 */
#ifndef PAGEHOP_HMAT_TABLE_H
#define PAGEHOP_HMAT_TABLE_H

#include "acpi_hmat.h"
#include "nmatrix.h"

#include <stdbool.h>
#include <stdint.h>

/* HMAT ranks target near before far for initiator init; someone disagrees. */
struct ph_hmat_order {
	int data_type;
	uint32_t init, near, far;
	uint32_t v_near, v_far;		/* the HMAT's figures (ns or MB/s) */
	int s_near, s_far;		/* the SLIT's, -1 without */
	double m_near, m_far;		/* measured, NAN without */
	bool slit_disagrees;		/* S[init][near] > S[init][far] */
	bool measured_disagrees;	/* measured worse beyond both noise bands */
};

/* Remote over local of one initiator, from the HMAT and from the measurement. */
struct ph_hmat_ratio {
	int data_type;
	uint32_t init, targ;
	double hmat, measured;		/* >= 1 when the target is slower than local */
	double slit;			/* S[init][targ] / 10, NAN without */
	double rel_err;			/* (hmat - measured) / measured */
	bool within;			/* |rel_err| <= tolerance */
};

/*
 * One node with CPUs and memory as mm/memory-tiers.c sees it: the HMAT's
 * figures from its best CPU initiator (access class 1), and whether they
 * differ from the reference node's (the lowest such node) by more than
 * 10% (mt_set_default_dram_perf()).
 */
struct ph_hmat_tier {
	uint32_t node;
	uint32_t read_lat, write_lat, read_bw, write_bw;	/* ns, MB/s; 0 absent */
	/*
	 * The first figure off by more than 10%, "no latency" or "no
	 * bandwidth" (the kernel refuses such a node), or NULL.
	 */
	const char *differs;
	double m_lat, m_bw;	/* measured local latency and read bandwidth, NAN without */
	double m_lat_pct, m_bw_pct;	/* off the reference's, percent */
};

struct ph_hmat_view {
	struct ph_hmat_order *order;
	int norder, norder_slit, norder_measured;
	struct ph_hmat_ratio *ratio;
	int nratio, nratio_out;
	struct ph_hmat_tier *tier;
	int ntier;
	int tier_trip;		/* index of the first node that trips the 10% rule, -1 none */
	bool measured_trips;	/* the measurement differs by more than 10% too */
};

/*
 * Compare every memory-level entry of t with the SLIT (may be NULL) and the
 * measured latency and read bandwidth (either may be NULL); noise and
 * tolerance as in struct ph_dist_opts.
 */
void hmat_table_view(const struct ph_acpi_hmat *t, const struct ph_slit *slit,
		     const struct ph_nmatrix *lat, const struct ph_nmatrix *bw,
		     double noise, double tolerance, struct ph_hmat_view *v);
void hmat_view_free(struct ph_hmat_view *v);

/*
 * Access class 1 of target node (x->read_lat ... x->write_bw, 0 where
 * none), as drivers/acpi/numa/hmat.c sets it: the attached initiator's
 * entries when the memory proximity domain names one; else write latency,
 * read latency, write bandwidth, read bandwidth in turn, each the best
 * over the initiators that reached the best of the ones before
 * (hmat_update_target_attrs()); an access figure sets read and write alike.
 */
void hmat_best_figures(const struct ph_acpi_hmat *t, uint32_t node, struct ph_hmat_tier *x);

#endif
