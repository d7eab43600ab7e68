// SPDX-License-Identifier: GPL-2.0-only
/*
 * hmodel.c - the health check's sets of figures and findings (hmodel.h).
 */
#include "hmodel.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *hstatus_name(enum ph_hstatus s)
{
	switch (s) {
	case PH_H_OK:
		return "OK";
	case PH_H_WARNING:
		return "WARNING";
	case PH_H_CRITICAL:
		return "CRITICAL";
	case PH_H_UNKNOWN:
		break;
	}
	return "UNKNOWN";
}

struct ph_hfig *hset_add_fig(struct ph_hset *s, const char *name, int node, int mem_node,
			     const char *unit, double value, double ci_lo, double ci_hi)
{
	struct ph_hfig *f = xappend(&s->figs, &s->nfigs, sizeof(*f));

	snprintf(f->name, sizeof(f->name), "%s", name);
	snprintf(f->unit, sizeof(f->unit), "%s", unit);
	f->node = node;
	f->mem_node = mem_node;
	f->value = value;
	f->ci_lo = ci_lo;
	f->ci_hi = ci_hi;
	f->tol.lower = f->tol.upper = NAN;
	f->rep_lo = f->rep_hi = NAN;
	return f;
}

void hset_add_setting(struct ph_hset *s, const char *key, const char *val)
{
	struct ph_hsetting *e = xappend(&s->settings, &s->nsettings, sizeof(*e));

	snprintf(e->key, sizeof(e->key), "%s", key);
	snprintf(e->val, sizeof(e->val), "%s", val);
}

void hset_add_node(struct ph_hset *s, int id, int ncpus)
{
	struct ph_hnode *e = xappend(&s->nodes, &s->nnodes, sizeof(*e));

	e->id = id;
	e->ncpus = ncpus;
}

const struct ph_hfig *hset_find(const struct ph_hset *s, const char *name, int node, int mem_node)
{
	for (int i = 0; i < s->nfigs; i++)
		if (s->figs[i].node == node && s->figs[i].mem_node == mem_node &&
		    !strcmp(s->figs[i].name, name))
			return &s->figs[i];
	return NULL;
}

const char *hset_setting(const struct ph_hset *s, const char *key)
{
	for (int i = 0; i < s->nsettings; i++)
		if (!strcmp(s->settings[i].key, key))
			return s->settings[i].val;
	return NULL;
}

void hset_free(struct ph_hset *s)
{
	free(s->figs);
	free(s->settings);
	free(s->nodes);
	memset(s, 0, sizeof(*s));
}

struct ph_hfinding *hfindings_add(struct ph_hfindings *f)
{
	return xappend(&f->v, &f->n, sizeof(*f->v));
}

void hfindings_free(struct ph_hfindings *f)
{
	free(f->v);
	memset(f, 0, sizeof(*f));
}
