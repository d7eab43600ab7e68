/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fleet.h - "pagehop compare": many hosts' baseline or check documents,
 * one per host (its newest), grouped by model key; each figure's outliers
 * by robust statistics (the median and the MAD of the hosts of a model),
 * and the hosts ranked by how far they stray.  Pure functions on the model
 * of hmodel.h; O(N log N) in the figures of all documents.
 */
#ifndef PAGEHOP_FLEET_H
#define PAGEHOP_FLEET_H

#include "health.h"
#include "hmodel.h"
#include "read_fleet.h"

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

/* One model key and what could be said of its hosts. */
struct ph_fleet_model {
	const char *model;	/* the key, in the first of its documents */
	int nhosts;		/* hosts, each by its newest document */
	bool judged;		/* nhosts >= FLEET_MIN_HOSTS; else UNKNOWN, as when nfigs is 0 */
	int nfigs;		/* figures (name, node, mem_node) judged */
	int nfigs_few;		/* figures on fewer than FLEET_MIN_HOSTS of its hosts: not judged */
	int nstraying;		/* hosts with a stray */
};

struct ph_fleet {
	struct ph_stray *v;	/* every straying figure, by the rank of its host */
	int n;
	int *rank;		/* host indexes with a stray, the furthest first */
	double *score;		/* per host: its largest stray score (0: none) */
	int nranked;
	struct ph_fleet_model *models;	/* in order of their first document */
	int nmodels;
	int nunknown;		/* models UNKNOWN: too few hosts, or no figure on enough of them */
	int nsmall;		/* hosts of those models */
	int nhosts;		/* distinct hosts */
	/*
	 * Per document: -1 when it is its host's one, else the index of the
	 * newer document of the same host used instead.  The newest is the one
	 * with the latest provenance time_utc (an ISO 8601 UTC stamp; one
	 * without a valid stamp is older than any with one); of equal stamps,
	 * the last given.  A host is its provenance host, else its file.
	 */
	int *newer;
	int nolder;		/* documents left out for a newer one */
};

/*
 * A figure of a host strays when it lies beyond k times the robust sigma
 * (1.4826 MAD) from its model's median and beyond the tolerance of its
 * kind (over when set, else the default) on that side.  Figures present on
 * fewer than FLEET_MIN_HOSTS hosts of a model are not judged, nor are the
 * figures of a model with fewer hosts.  A figure twice in one document
 * counts once, its first.
 */
void fleet_compare(const struct ph_hset *sets, int n, double k,
		   const struct ph_htol over[PH_HK_NKINDS], const bool set[PH_HK_NKINDS],
		   struct ph_fleet *out);
void fleet_free(struct ph_fleet *f);

struct ph_doc;

/*
 * The "compare" document: a summary, the models (UNKNOWN where too few
 * hosts), the hosts that stray ranked, every straying figure, the
 * documents skipped and those left out for a newer one of their host;
 * f is fleet_compare's judgement of docs' sets with k.
 */
struct ph_doc *fleet_doc(const struct ph_fleet_docs *docs, const struct ph_fleet *f, double k);

#endif
