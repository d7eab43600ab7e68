/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fleet.h - "pagehop compare": many hosts' baseline or check documents,
 * grouped by model key; each figure's outliers by robust statistics (the
 * median and the MAD of the hosts of a model), and the hosts ranked by how
 * far they stray.  Pure functions on the model of hmodel.h.
 */
#ifndef PAGEHOP_FLEET_H
#define PAGEHOP_FLEET_H

#include "health.h"
#include "hmodel.h"

/* The fewest hosts of a model for a median to say which one strays. */
#define FLEET_MIN_HOSTS 3

/* One figure of one host that strays. */
struct ph_stray {
	int set;		/* index of the host's document */
	struct ph_hfig fig;
	double median, mad;	/* of the figure over the hosts of the model */
	double dev;		/* (value - median) / median */
	double tol;		/* the tolerance on dev's side (a fraction) */
	double score;		/* |dev| / |tol|: how many tolerances out */
};

struct ph_fleet {
	struct ph_stray *v;	/* every straying figure */
	int n;
	int *rank;		/* host indexes with a stray, the furthest first */
	double *score;		/* per host: its largest stray score (0: none) */
	int nranked;
	int nmodels;		/* distinct model keys */
	int nsmall;		/* hosts of models with fewer than FLEET_MIN_HOSTS */
};

/*
 * A figure of a host strays when it lies beyond k times the robust sigma
 * (1.4826 MAD) from its model's median and beyond the tolerance of its
 * kind (over when set, else the default) on that side.  Figures present on
 * fewer than FLEET_MIN_HOSTS hosts of a model are not judged.
 */
void fleet_compare(const struct ph_hset *sets, int n, double k,
		   const struct ph_htol over[PH_HK_NKINDS], const bool set[PH_HK_NKINDS],
		   struct ph_fleet *out);
void fleet_free(struct ph_fleet *f);

struct ph_doc;

/* The "compare" document: a summary, the hosts that stray ranked, and every
 * straying figure; sets are the documents fleet_compare judged, k its k. */
struct ph_doc *fleet_doc(const struct ph_hset *sets, int n, const struct ph_fleet *f, double k);

#endif
