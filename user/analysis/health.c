// SPDX-License-Identifier: GPL-2.0-only
/*
 * health.c - the verdict of "pagehop check" (health.h).
 */
#include "health.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_names[PH_HK_NKINDS] = {
	[PH_HK_LATENCY] = "latency",
	[PH_HK_BANDWIDTH] = "bandwidth",
	[PH_HK_MEMORY] = "memory",
	[PH_HK_PAGES] = "pages",
	[PH_HK_TAIL] = "tail",
};

/*
 * The defaults, and why (docs/diagnostics.md says the same):
 * - latency: an idle load-to-use latency repeats within a few percent on
 *   a quiet node; +10% is more than noise and less than what a lost
 *   channel, a slower memory clock or a remote placement does (+20% and
 *   more).  Much faster than the baseline (-20%) means the baseline was
 *   taken on a disturbed node.
 * - bandwidth: STREAM figures on a shared node vary by several percent;
 *   -10% is beyond that and well within what one missing DIMM per socket
 *   costs (a channel of 8 is -12%, of 4 is -25%).  +25% up: the baseline
 *   was measured under load.
 * - memory: MemTotal of a node moves by less than 0.1% between boots of
 *   one kernel; 0.5% is one 128 MiB block of 24 GiB.  Either way.
 * - tail: a latency figure's percentile above the median (p99) over runs
 *   of N hops is what preemptions, interrupts and a DIMM's retries reach:
 *   it moves between runs on a quiet node by far more than the median
 *   (docs/diagnostics.md has the spread seen).  +50% is beyond that, and
 *   a tail is judged only on a quiet host.  Lower is open (a shorter tail
 *   is no fault), and a tail out of band is a WARNING at most: it says
 *   where to look, it does not drain a node by itself.
 * - pages: a size that could be had and no longer can (1 -> 0): below by
 *   -50% of 1.  It is a WARNING (2 x -50% would be -100%, which 0 is not
 *   below): the node still runs jobs, slower ones.
 */
static const struct ph_htol default_tol[PH_HK_NKINDS] = {
	[PH_HK_LATENCY] = { -0.20, 0.10 },
	[PH_HK_BANDWIDTH] = { -0.10, 0.25 },
	[PH_HK_MEMORY] = { -0.005, 0.005 },
	[PH_HK_PAGES] = { -0.5, NAN },
	[PH_HK_TAIL] = { NAN, 0.50 },
};

int health_kind_of(const char *figure)
{
	if (!strncmp(figure, "latency_", 8))
		return PH_HK_LATENCY;
	if (!strncmp(figure, "bandwidth_", 10))
		return PH_HK_BANDWIDTH;
	if (!strncmp(figure, "mem_", 4))
		return PH_HK_MEMORY;
	if (!strncmp(figure, "hugepages_", 10))
		return PH_HK_PAGES;
	if (!strncmp(figure, "tail_", 5))
		return PH_HK_TAIL;
	return -1;
}

const char *health_kind_name(enum ph_hkind k)
{
	return k < PH_HK_NKINDS ? kind_names[k] : "?";
}

int health_kind_parse(const char *s)
{
	for (int k = 0; k < PH_HK_NKINDS; k++)
		if (!strcmp(s, kind_names[k]))
			return k;
	return -1;
}

struct ph_htol health_default_tol(enum ph_hkind k)
{
	struct ph_htol none = { NAN, NAN };

	return k < PH_HK_NKINDS ? default_tol[k] : none;
}

/* Whether a larger value of the figure is the worse one (a time). */
static bool higher_worse(const char *figure)
{
	int k = health_kind_of(figure);

	return k == PH_HK_LATENCY || k == PH_HK_TAIL;
}

/* A fraction, or "none" (NAN); the whole string.  0 or -EINVAL. */
static int parse_frac(const char *s, double *out)
{
	char *end;

	if (!strcmp(s, "none")) {
		*out = NAN;
		return 0;
	}
	errno = 0;
	*out = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(*out) || *out < -1 || *out > 100)
		return -EINVAL;
	return 0;
}

int health_parse_tolerance(const char *arg, struct ph_htol over[PH_HK_NKINDS],
			   bool set[PH_HK_NKINDS], char *why, size_t whylen)
{
	char *copy = xstrdup(arg), *rest = *arg ? copy : NULL;
	int rc = 0, nk = 0;

	/* strsep, not strtok: an empty element (a trailing comma) is an error. */
	for (char *tok; !rc && (tok = strsep(&rest, ",")); ) {
		char *eq = strchr(tok, '='), *colon;
		struct ph_htol t;
		int k;

		colon = eq ? strchr(eq + 1, ':') : NULL;
		if (!*tok) {
			snprintf(why, whylen, "'%s' has an empty element; expected KIND=LOWER:UPPER[,...]", arg);
			rc = -EINVAL;
			break;
		}
		if (!eq || !colon) {
			snprintf(why, whylen, "'%s' is not KIND=LOWER:UPPER", tok);
			rc = -EINVAL;
			break;
		}
		*eq = *colon = '\0';
		k = health_kind_parse(tok);
		if (k < 0) {
			snprintf(why, whylen, "unknown kind '%s'; expected latency, bandwidth, memory, pages or tail", tok);
			rc = -EINVAL;
		} else if (parse_frac(eq + 1, &t.lower) || parse_frac(colon + 1, &t.upper) ||
			   (!isnan(t.lower) && t.lower > 0) || (!isnan(t.upper) && t.upper < 0)) {
			snprintf(why, whylen, "%s: '%s:%s' is not LOWER:UPPER with -1 <= LOWER <= 0 <= UPPER (fractions, or none)",
				 tok, eq + 1, colon + 1);
			rc = -EINVAL;
		} else {
			over[k] = t;
			set[k] = true;
			nk++;
		}
	}
	if (!rc && !nk) {
		snprintf(why, whylen, "empty; expected KIND=LOWER:UPPER[,...]");
		rc = -EINVAL;
	}
	free(copy);
	return rc;
}

enum ph_hstatus health_judge(struct ph_hfinding *f, double ref, double ref_lo, double ref_hi,
			     struct ph_htol tol)
{
	const struct ph_hfig *g = &f->fig;
	double warn_lo, warn_hi, crit_lo, crit_hi, near;

	f->ref = ref;
	f->ref_ci_lo = ref_lo;
	f->ref_ci_hi = ref_hi;
	f->tol = tol;
	f->limit_lo = f->limit_hi = f->crit_lo = f->crit_hi = NAN;
	f->dev = NAN;
	if (!isfinite(g->value) || !isfinite(g->ci_lo) || !isfinite(g->ci_hi) || !isfinite(ref) ||
	    !isfinite(ref_lo) || !isfinite(ref_hi) || ref < 0 || g->ci_lo > g->ci_hi || ref_lo > ref_hi)
		return f->st = PH_H_UNKNOWN;
	if (ref == 0 && ref_lo == 0 && ref_hi == 0) {
		/* Nothing to lose: a hugepage size the reference could not have either. */
		return f->st = PH_H_OK;
	}
	f->dev = (g->value - ref) / ref;
	warn_lo = isnan(tol.lower) ? -INFINITY : ref_lo * (1 + tol.lower);
	warn_hi = isnan(tol.upper) ? INFINITY : ref_hi * (1 + tol.upper);
	crit_lo = isnan(tol.lower) ? -INFINITY : ref_lo * (1 + 2 * tol.lower);
	crit_hi = isnan(tol.upper) ? INFINITY : ref_hi * (1 + 2 * tol.upper);
	f->limit_lo = isnan(tol.lower) ? NAN : warn_lo;
	f->limit_hi = isnan(tol.upper) ? NAN : warn_hi;
	/* The better side is never CRITICAL (below): its limit is open.  A
	 * tail is never CRITICAL: a WARNING at most (default_tol). */
	if (health_kind_of(g->name) == PH_HK_TAIL)
		crit_hi = INFINITY;
	if (higher_worse(g->name))
		f->crit_hi = isnan(tol.upper) || isinf(crit_hi) ? NAN : crit_hi;
	else
		f->crit_lo = isnan(tol.lower) ? NAN : crit_lo;
	if (g->ci_hi < warn_lo) {
		near = g->ci_hi;
		f->st = near < crit_lo ? PH_H_CRITICAL : PH_H_WARNING;
	} else if (g->ci_lo > warn_hi) {
		near = g->ci_lo;
		f->st = near > crit_hi ? PH_H_CRITICAL : PH_H_WARNING;
	} else {
		return f->st = PH_H_OK;
	}
	/* Better than the reference (faster, more bandwidth or memory) says
	 * the reference is stale, not that the node is broken: never more
	 * than a WARNING, so that no node is drained for it. */
	if (higher_worse(g->name) == (g->ci_hi < warn_lo))
		f->st = PH_H_WARNING;
	return f->st;
}

bool health_model_match(const char *here, const char *base, char *diff, size_t difflen)
{
	char *a = xstrdup(here), *b = xstrdup(base), *sa = NULL, *sb = NULL;
	char *ta = strtok_r(a, ";", &sa), *tb = strtok_r(b, ";", &sb);
	bool same = true;

	if (difflen)
		diff[0] = '\0';
	for (; ta || tb; ta = strtok_r(NULL, ";", &sa), tb = strtok_r(NULL, ";", &sb)) {
		const char *ea = ta ? strchr(ta, '=') : NULL, *eb = tb ? strchr(tb, '=') : NULL;

		if (ta && tb && !strcmp(ta, tb))
			continue;
		same = false;
		if (ea && eb && ea - ta == eb - tb && !strncmp(ta, tb, (size_t)(ea - ta)))
			snprintf(diff, difflen, "%.*s: %s here, %s in the baseline", (int)(ea - ta), ta,
				 ea + 1, eb + 1);
		else
			snprintf(diff, difflen, "'%s' here, '%s' in the baseline", ta ? ta : "(nothing)",
				 tb ? tb : "(nothing)");
		break;
	}
	free(a);
	free(b);
	return same;
}

/*
 * "10%", "0.5%": a fraction as a percentage without noise, and never wider
 * than a few characters ("3e+302%" for a baseline that holds nonsense).
 */
static void pct(char *buf, size_t len, double frac)
{
	double p = fabs(frac) * 100;

	if (!(p < 1e6))
		snprintf(buf, len, "%.3g%%", p);
	else
		snprintf(buf, len, p >= 9.95 || fabs(p - round(p)) < 0.05 ? "%.0f%%" : "%.1f%%", p);
}

/* A figure's value in a phrase: one decimal, but bounded in width. */
static void num(char *buf, size_t len, double v)
{
	snprintf(buf, len, fabs(v) < 1e6 ? "%.1f" : "%.4g", v);
}

static void node_name(char *buf, size_t len, const struct ph_hfig *g)
{
	if (g->mem_node != g->node)
		snprintf(buf, len, "node %d->%d", g->node, g->mem_node);
	else
		snprintf(buf, len, "node %d", g->node);
}

/* The phrase naming the node, the figure, how far and against what. */
static void describe(struct ph_hfinding *f, const char *against)
{
	const struct ph_hfig *g = &f->fig;
	char node[32], dev[16], lim[40] = "", tp[16], val[24], ref[24];
	bool below = f->dev < 0, beyond = false;
	double t = below ? f->tol.lower : f->tol.upper;

	node_name(node, sizeof(node), g);
	if (health_kind_of(g->name) == PH_HK_PAGES) {
		snprintf(f->why, sizeof(f->why), "%s %s %s, %s %s", node, g->name,
			 g->value >= 0.5 ? "can be had" : "cannot be had", against,
			 f->ref >= 0.5 ? "can" : "cannot");
		return;
	}
	if (f->st == PH_H_UNKNOWN) {
		snprintf(f->why, sizeof(f->why), "%s %s has no value or CI to judge", node, g->name);
		return;
	}
	pct(dev, sizeof(dev), f->dev);
	if (!isnan(t)) {
		pct(tp, sizeof(tp), t);
		snprintf(lim, sizeof(lim), " (limit %s%s)", below ? "-" : "+", tp);
		beyond = below ? f->dev < t : f->dev > t;
	}
	num(val, sizeof(val), g->value);
	num(ref, sizeof(ref), f->ref);
	/* An OK figure whose median is past the tolerance is OK because the
	 * CIs reach the band: the row must say so, not read as a fault. */
	snprintf(f->why, sizeof(f->why), "%s %s %s %s, %s %s %s %s%s%s", node, g->name, val, g->unit, dev,
		 below ? "below" : "above", against, ref, lim,
		 f->st == PH_H_OK && beyond ? ", within the band once both CIs are counted" : "");
}

static struct ph_htol tol_for(const struct ph_hfig *g, const struct ph_hfig *base,
			      const struct ph_htol over[PH_HK_NKINDS], const bool set[PH_HK_NKINDS])
{
	int k = health_kind_of(g->name);

	if (k >= 0 && set && set[k])
		return over[k];
	if (base && base->tol_set)
		return base->tol;
	return health_default_tol(k < 0 ? PH_HK_NKINDS : (enum ph_hkind)k);
}

void health_ref_band(const struct ph_hfig *b, double *lo, double *hi)
{
	*lo = b->ci_lo;
	*hi = b->ci_hi;
	if (isfinite(b->rep_lo) && b->rep_lo < *lo)
		*lo = b->rep_lo;
	if (isfinite(b->rep_hi) && b->rep_hi > *hi)
		*hi = b->rep_hi;
}

void health_against(const struct ph_hset *base, const struct ph_hset *now,
		    const struct ph_htol over[PH_HK_NKINDS], const bool set[PH_HK_NKINDS],
		    struct ph_hfindings *out)
{
	for (int i = 0; i < now->nfigs; i++) {
		const struct ph_hfig *g = &now->figs[i];
		const struct ph_hfig *b = hset_find(base, g->name, g->node, g->mem_node);
		struct ph_hfinding *f;
		double ref_lo, ref_hi;

		if (!b || health_kind_of(g->name) < 0)
			continue;
		f = hfindings_add(out);
		f->fig = *g;
		f->basis = PH_HB_BASELINE;
		health_ref_band(b, &ref_lo, &ref_hi);
		health_judge(f, b->value, ref_lo, ref_hi, tol_for(g, b, over, set));
		describe(f, "baseline");
	}
	for (int i = 0; i < base->nsettings; i++) {
		const struct ph_hsetting *s = &base->settings[i];
		const char *v = hset_setting(now, s->key);
		struct ph_hfinding *f;

		/* slit_valid is judged by its rule (health_rules), once. */
		if (!v || !strcmp(s->key, "slit_valid"))
			continue;
		f = hfindings_add(out);
		snprintf(f->fig.name, sizeof(f->fig.name), "%s", s->key);
		f->fig.node = f->fig.mem_node = -1;
		f->basis = PH_HB_SETTING;
		f->ref = f->dev = f->limit_lo = f->limit_hi = f->tol.lower = f->tol.upper = NAN;
		f->crit_lo = f->crit_hi = NAN;
		f->st = strcmp(v, s->val) ? PH_H_WARNING : PH_H_OK;
		snprintf(f->why, sizeof(f->why), "%s is %s, baseline %s", s->key, v, s->val);
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int ncpus_of(const struct ph_hset *s, int node)
{
	for (int i = 0; i < s->nnodes; i++)
		if (s->nodes[i].id == node)
			return s->nodes[i].ncpus;
	return -1;
}

/*
 * Among siblings, node 0 holds the kernel and the firmware's reservations:
 * its MemTotal is a few percent below the others' on a sound machine.  So
 * memory is judged against siblings at 5% (CRITICAL at 10%, below one DIMM
 * of eight), against the node's own baseline at the kind's 0.5%.
 */
static const struct ph_htol sibling_mem_tol = { -0.05, 0.05 };

static struct ph_htol sibling_tol(const struct ph_hfig *g, const struct ph_htol over[PH_HK_NKINDS],
				  const bool set[PH_HK_NKINDS])
{
	if (health_kind_of(g->name) == PH_HK_MEMORY && !(set && set[PH_HK_MEMORY]))
		return sibling_mem_tol;
	return tol_for(g, NULL, over, set);
}

void health_siblings(const struct ph_hset *now, const struct ph_htol over[PH_HK_NKINDS],
		     const bool set[PH_HK_NKINDS], struct ph_hfindings *out)
{
	double *vals = xcalloc((size_t)now->nfigs + 1, sizeof(*vals));

	for (int i = 0; i < now->nfigs; i++) {
		const struct ph_hfig *g = &now->figs[i];
		int ncpus = ncpus_of(now, g->node), n = 0;
		struct ph_hfinding *f;
		double med;

		/* Local figures only: a remote one's reference is its hop level's. */
		/* A tail is judged against the node's own baseline only:
		 * alike nodes' tails differ by what else ran on each. */
		if (g->mem_node != g->node || health_kind_of(g->name) < 0 ||
		    health_kind_of(g->name) == PH_HK_TAIL || ncpus < 0)
			continue;
		for (int j = 0; j < now->nfigs; j++) {
			const struct ph_hfig *h = &now->figs[j];

			if (h->mem_node == h->node && !strcmp(h->name, g->name) &&
			    ncpus_of(now, h->node) == ncpus)
				vals[n++] = h->value;
		}
		if (n < 3)
			continue;
		qsort(vals, (size_t)n, sizeof(*vals), cmp_double);
		med = n % 2 ? vals[n / 2] : (vals[n / 2 - 1] + vals[n / 2]) / 2;
		f = hfindings_add(out);
		f->fig = *g;
		f->basis = PH_HB_SIBLINGS;
		health_judge(f, med, med, med, sibling_tol(g, over, set));
		describe(f, "siblings' median");
	}
	free(vals);
}

/* A rule's finding: status st, the phrase why. */
static void rule(struct ph_hfindings *out, const char *name, enum ph_hstatus st, const char *why)
{
	struct ph_hfinding *f = hfindings_add(out);

	snprintf(f->fig.name, sizeof(f->fig.name), "%s", name);
	f->fig.node = f->fig.mem_node = -1;
	f->basis = PH_HB_RULE;
	f->ref = f->dev = f->limit_lo = f->limit_hi = f->tol.lower = f->tol.upper = NAN;
	f->crit_lo = f->crit_hi = NAN;
	f->st = st;
	snprintf(f->why, sizeof(f->why), "%s", why);
}

void health_rules(const struct ph_hset *now, bool have_baseline, struct ph_hfindings *out)
{
	const char *slit = hset_setting(now, "slit_valid");
	const char *bal = hset_setting(now, "numa_balancing");
	const char *thp = hset_setting(now, "thp_enabled");
	char why[200];
	bool bad;

	/* Without a baseline, the kernel's defaults are the reference: NUMA
	 * balancing is on by default on a machine of several nodes
	 * (CONFIG_NUMA_BALANCING_DEFAULT_ENABLED, as distributions build),
	 * and THP is "always" or "madvise" by default, never "never". */
	if (!have_baseline && bal && now->nnodes > 1)
		rule(out, "numa_balancing", !strcmp(bal, "0") ? PH_H_WARNING : PH_H_OK,
		     !strcmp(bal, "0") ? "numa_balancing is 0, the kernel's default on several nodes is 1"
				       : "numa_balancing as the kernel's default");
	if (!have_baseline && thp)
		rule(out, "thp_enabled", !strcmp(thp, "never") ? PH_H_WARNING : PH_H_OK,
		     !strcmp(thp, "never") ? "thp_enabled is never, never the kernel's default"
					   : "thp_enabled as a kernel default");
	if (!slit)
		return;
	/* "yes", or "none" where firmware gives no SLIT: nothing to ignore. */
	bad = strcmp(slit, "yes") && strcmp(slit, "none");
	snprintf(why, sizeof(why), "SLIT %s", bad ? slit : "valid");
	rule(out, "slit_valid", bad ? PH_H_WARNING : PH_H_OK, why);
}

void health_unmeasured(struct ph_hfindings *out, const char *name, int node, int mem_node,
		       const char *unit, const char *reason)
{
	struct ph_hfinding *f = hfindings_add(out);
	char where[32];

	snprintf(f->fig.name, sizeof(f->fig.name), "%s", name);
	snprintf(f->fig.unit, sizeof(f->fig.unit), "%s", unit);
	f->fig.node = node;
	f->fig.mem_node = mem_node;
	f->fig.value = f->fig.ci_lo = f->fig.ci_hi = NAN;
	f->basis = PH_HB_UNMEASURED;
	f->ref = f->ref_ci_lo = f->ref_ci_hi = f->dev = NAN;
	f->limit_lo = f->limit_hi = f->crit_lo = f->crit_hi = f->tol.lower = f->tol.upper = NAN;
	f->st = PH_H_UNKNOWN;
	node_name(where, sizeof(where), &f->fig);
	snprintf(f->why, sizeof(f->why), "%s %s not measured: %s", where, name, reason);
}

void health_left_out(struct ph_hfindings *out, const char *name, int node, int mem_node)
{
	struct ph_hfig g = { .node = node, .mem_node = mem_node };
	size_t l = strlen(out->left_out);
	char where[32];

	node_name(where, sizeof(where), &g);
	if (l < sizeof(out->left_out))
		snprintf(out->left_out + l, sizeof(out->left_out) - l, "%s%s %s", l ? ", " : "", where, name);
	out->nleft_out++;
}

/* The monitoring plugins' order of precedence: CRITICAL > WARNING > UNKNOWN > OK. */
static int severity(enum ph_hstatus st)
{
	return st == PH_H_CRITICAL ? 3 : st == PH_H_WARNING ? 2 : st == PH_H_UNKNOWN ? 1 : 0;
}

static bool timed_kind(const char *figure)
{
	int k = health_kind_of(figure);

	return k == PH_HK_LATENCY || k == PH_HK_BANDWIDTH;
}

/* Append to line (of len bytes) what fits. */
__attribute__((format(printf, 3, 4)))
static void append(char *line, size_t len, const char *fmt, ...)
{
	size_t l = strlen(line);
	va_list ap;

	if (l + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(line + l, len - l, fmt, ap);
	va_end(ap);
}

/* "; left out: ...; against FILE", the context after the reason. */
static void context(const struct ph_hfindings *f, char *line, size_t linelen)
{
	if (f->nleft_out)
		append(line, linelen, "; left out: %s", f->left_out);
	if (f->against[0])
		append(line, linelen, "; against %s", f->against);
}

static void plural(char *buf, size_t len, int n, const char *what)
{
	snprintf(buf, len, "%d %s%s", n, what, n == 1 ? "" : "s");
}

enum ph_hstatus health_fold(const struct ph_hfindings *f, char *line, size_t linelen)
{
	enum ph_hstatus worst = PH_H_OK;
	const struct ph_hfinding *pick = NULL;
	int bad = 0, figs = 0, ok_timed = 0, ok_untimed = 0, timed = 0;
	char a[48], b[48], why[400];
	const char *no_timed = NULL;

	for (int i = 0; i < f->n; i++) {
		const struct ph_hfinding *x = &f->v[i];

		if (x->basis == PH_HB_BASELINE || x->basis == PH_HB_SIBLINGS) {
			figs++;
			timed += timed_kind(x->fig.name);
			if (x->st == PH_H_OK && timed_kind(x->fig.name))
				ok_timed++;
			else if (x->st == PH_H_OK)
				ok_untimed++;
		}
		if (x->st == PH_H_OK)
			continue;
		bad++;
		if (!pick || severity(x->st) > severity(worst) ||
		    (x->st == worst && isfinite(x->dev) && (!isfinite(pick->dev) || fabs(x->dev) > fabs(pick->dev)))) {
			pick = x;
			worst = x->st;
		}
	}
	plural(b, sizeof(b), ok_untimed, "untimed figure");
	if (f->timed_planned > 0 && !f->timed_measured) {
		snprintf(why, sizeof(why), "no timed figure measured: %s",
			 f->timed_why[0] ? f->timed_why : "none of the planned ones could be");
		no_timed = why;
	} else if (f->timed_planned > 0 && !timed && figs && !pick) {
		plural(a, sizeof(a), f->timed_measured, "timed figure");
		snprintf(why, sizeof(why), "no timed figure judged: none of the %s measured has a reference "
			 "(the baseline's, or three alike nodes')", a);
		no_timed = why;
	}
	if (no_timed && severity(worst) < severity(PH_H_WARNING)) {
		/* Nothing timed judged: the untimed figures alone are no
		 * evidence that the memory system is sound. */
		snprintf(line, linelen, "PAGEHOP UNKNOWN - %s", no_timed);
		if (ok_untimed)
			append(line, linelen, "; %s within tolerance", b);
		if (f->against[0])
			append(line, linelen, "; against %s", f->against);
		health_clean_line(line);
		return PH_H_UNKNOWN;
	}
	if (pick) {
		snprintf(line, linelen, "PAGEHOP %s - %s", hstatus_name(worst), pick->why);
		if (bad > 1)
			append(line, linelen, "; +%d more", bad - 1);
		context(f, line, linelen);
		health_clean_line(line);
		return worst;
	}
	if (!figs)
		return health_unknown(line, linelen,
				      "no figure judged: no baseline given and no three alike nodes to compare");
	plural(a, sizeof(a), f->nnodes, "node");
	if (ok_timed)
		snprintf(line, linelen, "PAGEHOP OK - %s, %d timed and %s within tolerance", a, ok_timed, b);
	else
		snprintf(line, linelen, "PAGEHOP OK - %s, %s within tolerance (no timed figure planned)", a, b);
	context(f, line, linelen);
	health_clean_line(line);
	return PH_H_OK;
}

enum ph_hstatus health_unknown(char *line, size_t linelen, const char *why)
{
	snprintf(line, linelen, "PAGEHOP UNKNOWN - %s", why);
	health_clean_line(line);
	return PH_H_UNKNOWN;
}

void health_clean_line(char *s)
{
	for (unsigned char *p = (unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			*p = '?';
		else if (*p == '|')
			*p = '/';
}

/* A perfdata number: plain, and never wider than %.6g makes it. */
static void pnum(char *buf, size_t len, double v)
{
	if (isfinite(v))
		snprintf(buf, len, "%.6g", v);
	else
		buf[0] = '\0';
}

/* A Nagios range that alerts outside [lo, hi]: "lo:hi", "lo:", "~:hi", "". */
static void prange(char *buf, size_t len, double lo, double hi)
{
	char l[24], h[24];

	pnum(l, sizeof(l), lo);
	pnum(h, sizeof(h), hi);
	if (!l[0] && !h[0])
		buf[0] = '\0';
	else
		snprintf(buf, len, "%s:%s", l[0] ? l : "~", h);
}

int health_perfdata(const struct ph_hfindings *f, char *buf, size_t len)
{
	int items = 0;

	if (len)
		buf[0] = '\0';
	for (int i = 0; i < f->n; i++) {
		const struct ph_hfinding *x = &f->v[i];
		char label[96], v[24], w[56], c[56], item[256];
		bool dup = false;
		size_t l = strlen(buf);
		int k = health_kind_of(x->fig.name);

		if ((x->basis != PH_HB_BASELINE && x->basis != PH_HB_SIBLINGS) || k < 0 ||
		    !isfinite(x->fig.value) || x->st == PH_H_UNKNOWN)
			continue;
		/* No UOM fits ns or GB/s, so the unit is in the label (the
		 * plugin guidelines' units are s, %, B, c and their multiples). */
		if (x->fig.mem_node != x->fig.node)
			snprintf(label, sizeof(label), "node%dto%d_%s", x->fig.node, x->fig.mem_node, x->fig.name);
		else
			snprintf(label, sizeof(label), "node%d_%s", x->fig.node, x->fig.name);
		if (k == PH_HK_LATENCY || k == PH_HK_TAIL)
			append(label, sizeof(label), "_ns");
		else if (k == PH_HK_BANDWIDTH)
			append(label, sizeof(label), "_GBps");
		else if (k == PH_HK_MEMORY)
			append(label, sizeof(label), "_GiB");
		/* A figure judged against the baseline and its siblings: once. */
		for (int j = 0; j < i && !dup; j++)
			dup = (f->v[j].basis == PH_HB_BASELINE || f->v[j].basis == PH_HB_SIBLINGS) &&
			      f->v[j].st != PH_H_UNKNOWN && f->v[j].fig.node == x->fig.node &&
			      f->v[j].fig.mem_node == x->fig.mem_node && !strcmp(f->v[j].fig.name, x->fig.name);
		if (dup)
			continue;
		pnum(v, sizeof(v), x->fig.value);
		prange(w, sizeof(w), x->limit_lo, x->limit_hi);
		prange(c, sizeof(c), x->crit_lo, x->crit_hi);
		snprintf(item, sizeof(item), "%s%s=%s;%s;%s", l ? " " : "", label, v, w, c);
		health_clean_line(item);
		if (l + strlen(item) + 1 > len)
			break;	/* whole items only */
		memcpy(buf + l, item, strlen(item) + 1);
		items++;
	}
	return items;
}
