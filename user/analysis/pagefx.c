// SPDX-License-Identifier: GPL-2.0-only
/*
 * pagefx.c - knee attribution and the anomaly rules of the page-size study
 * (pagefx.h).
 */
#include "pagefx.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

bool pagefx_fits(uint64_t above, uint64_t at, uint64_t c)
{
	return c && at && c >= above / 2 && c < 2 * at;
}

const char *pagefx_kind_name(enum pagefx_kind k)
{
	switch (k) {
	case PAGEFX_TLB: return "tlb";
	case PAGEFX_CACHE: return "cache";
	case PAGEFX_UNEXPLAINED: return "unexplained";
	default: return "none";
	}
}

/* The fitting capacity of kind k closest to above in log2, or -1. */
static int closest(uint64_t above, uint64_t at, enum pagefx_kind k,
		   const struct pagefx_capacity *caps, int n)
{
	double best = INFINITY;
	int bi = -1;

	for (int i = 0; i < n; i++) {
		double d;

		if (caps[i].kind != k || !pagefx_fits(above, at, caps[i].bytes))
			continue;
		d = fabs(log2((double)caps[i].bytes) - log2((double)(above ? above : 1)));
		if (d < best) {
			best = d;
			bi = i;
		}
	}
	return bi;
}

void pagefx_attribute(uint64_t above, uint64_t at, enum pagefx_kind expected,
		      const struct pagefx_capacity *caps, int ncaps, struct pagefx_attr *out)
{
	enum pagefx_kind other = expected == PAGEFX_TLB ? PAGEFX_CACHE : PAGEFX_TLB;
	uint64_t least = 0;
	int e, o;

	memset(out, 0, sizeof(*out));
	out->cap = out->also = -1;
	if (!at) {
		out->kind = PAGEFX_NONE;
		return;
	}
	e = closest(above, at, expected, caps, ncaps);
	o = closest(above, at, other, caps, ncaps);
	if (e >= 0) {
		out->kind = expected;
		out->cap = e;
		out->also = o;
	} else if (o >= 0) {
		out->kind = other;
		out->cap = o;
	} else {
		out->kind = PAGEFX_UNEXPLAINED;
	}
	if (expected != PAGEFX_TLB)
		return;
	for (int i = 0; i < ncaps; i++)
		if (caps[i].kind == PAGEFX_TLB && caps[i].bytes && (!least || caps[i].bytes < least))
			least = caps[i].bytes;
	/* No page walk can be needed while every page fits the smallest TLB. */
	out->below_reach = least && 2 * at <= least;
}

static struct pagefx_flag *next(struct pagefx_flag *out, int n, int max)
{
	if (n >= max)
		return NULL;
	memset(&out[n], 0, sizeof(out[n]));
	return &out[n];
}

int pagefx_slower_large(const struct pagefx_curve *small, const struct pagefx_curve *large,
			bool same_frames, bool hypervisor, struct pagefx_flag *out, int max)
{
	int n = 0;

	if (large->page <= small->page)
		return 0;
	for (int i = 0; i < large->n; i++)
		for (int j = 0; j < small->n; j++) {
			const struct pagefx_fig *a = &small->f[j], *b = &large->f[i];
			struct pagefx_flag *fl;
			char ws[32];

			/* An unknown interval (NAN) is never "beyond". */
			if (a->ws != b->ws || !isfinite(a->hw) || !isfinite(b->hw) ||
			    !(b->ns - b->hw > a->ns + a->hw))
				continue;
			/* Apart, but by no more than a second allocation can move a figure. */
			if (!(b->ns - a->ns >= PAGEFX_SLOWER_MIN_NS) ||
			    !(b->ns - a->ns >= PAGEFX_SLOWER_MIN_REL * a->ns))
				continue;
			fl = next(out, n, max);
			if (!fl)
				return n;
			n++;
			format_size(b->ws, ws, sizeof(ws));
			snprintf(fl->figure, sizeof(fl->figure), "%s random at %s", large->name, ws);
			snprintf(fl->what, sizeof(fl->what),
				 "%s pages slower than %s beyond both CIs: %.1f ns (+-%.1f) against %.1f ns (+-%.1f)",
				 large->name, small->name, b->ns, b->hw, a->ns, a->hw);
			if (!b->ci_met || !a->ci_met)
				snprintf(fl->reason, sizeof(fl->reason),
					 "the %s figure did not meet its CI: the host was busy while it ran; measure again with a longer --time",
					 !b->ci_met ? large->name : small->name);
			else if (hypervisor)
				snprintf(fl->reason, sizeof(fl->reason),
					 "under a hypervisor the host may back the guest's %s pages with smaller pages and walks its own tables on every guest miss; the guest can neither see nor change that",
					 large->name);
			else if (!same_frames)
				snprintf(fl->reason, sizeof(fl->reason),
					 "the two page sizes are different allocations: their physical frames, and so their cache-set placement, differ");
			else
				snprintf(fl->reason, sizeof(fl->reason),
					 "same frames and no hypervisor: not explained by the translation; look at the counters");
		}
	return n;
}

int pagefx_ci_unmet(const char *conclusion, const struct pagefx_curve *curves, int ncurves,
		    int at, struct pagefx_flag *out, int max)
{
	int n = 0;

	for (int c = 0; c < ncurves; c++)
		for (int i = at - 1; i <= at; i++) {
			const struct pagefx_fig *f;
			struct pagefx_flag *fl;
			char ws[32];

			if (i < 0 || i >= curves[c].n || curves[c].f[i].ci_met)
				continue;
			f = &curves[c].f[i];
			fl = next(out, n, max);
			if (!fl)
				return n;
			n++;
			format_size(f->ws, ws, sizeof(ws));
			snprintf(fl->figure, sizeof(fl->figure), "%s at %s", curves[c].name, ws);
			if (isfinite(f->hw))
				snprintf(fl->what, sizeof(fl->what), "%s rests on %.1f ns (+-%.1f), whose CI was not met",
					 conclusion, f->ns, f->hw);
			else
				snprintf(fl->what, sizeof(fl->what), "%s rests on %.1f ns, whose CI was not met (too few samples for one)",
					 conclusion, f->ns);
			snprintf(fl->reason, sizeof(fl->reason),
				 "the figure was still moving when the time budget ran out (a busy host); the knee may move with it: measure again with a longer --time");
		}
	return n;
}

int pagefx_unmet(const struct pagefx_curve *c, int ncurves, int at, int *total)
{
	int n = ncurves ? c[0].n : 0, unmet = 0, all = 0;

	for (int k = 1; k < ncurves; k++)
		n = c[k].n < n ? c[k].n : n;
	for (int i = 0; i < n; i++) {
		/* Between the baseline and the knee's lower side, nothing is claimed. */
		if (at >= 0 && i >= 3 && i < at - 1)
			continue;
		for (int k = 0; k < ncurves; k++) {
			all++;
			unmet += !c[k].f[i].ci_met;
		}
	}
	if (total)
		*total = all;
	return unmet;
}

bool pagefx_summary(const char *effect, const char *pages, int at, uint64_t above, uint64_t last,
		    double at_max, const struct pagefx_attr *a, const struct pagefx_capacity *caps,
		    int unmet, int total, double time_s, char *out, size_t len)
{
	char ws[32], lws[32], fits[160] = "";

	format_size(above, ws, sizeof(ws));
	format_size(last, lws, sizeof(lws));
	if (unmet) {
		snprintf(out, len,
			 "%s %s: %s: not resolved at this noise: %d of the %d figures it rests on missed their CI (%+.0f ns at %s); measure again with a longer --time (this run %.2g s per figure, e.g. --time %.2g) on a quieter host",
			 effect, pages, at < 0 ? "whether it rises" : "where it rises and what it fits", unmet, total,
			 at_max, lws, time_s, time_s > 0 ? 4 * time_s : 2.0);
		return false;
	}
	if (at < 0) {
		snprintf(out, len, "%s %s: no rise up to %s", effect, pages, lws);
		return true;
	}
	if (a->cap >= 0)
		snprintf(fits, sizeof(fits), "%s (%s)%s%s", caps[a->cap].what,
			 format_size(caps[a->cap].bytes, (char[32]){ 0 }, 32),
			 a->also >= 0 ? "; also fits " : "", a->also >= 0 ? caps[a->also].what : "");
	snprintf(out, len, "%s %s: rises above %s, %s%s, %+.0f ns at %s", effect, pages, ws,
		 a->kind == PAGEFX_UNEXPLAINED ? "unexplained (no TLB reach nor cache fits)" :
		 a->kind == PAGEFX_TLB ? "a TLB knee: " : "a cache knee: ",
		 fits, at_max, lws);
	return true;
}

int pagefx_below_reach(const char *effect, uint64_t above, const struct pagefx_attr *a,
		       const struct pagefx_capacity *caps, int ncaps, struct pagefx_flag *out, int max)
{
	struct pagefx_flag *fl;
	char ws[32], r[32];
	int least = -1;

	if (!a->below_reach)
		return 0;
	for (int i = 0; i < ncaps; i++)
		if (caps[i].kind == PAGEFX_TLB && caps[i].bytes &&
		    (least < 0 || caps[i].bytes < caps[least].bytes))
			least = i;
	fl = next(out, 0, max);
	if (!fl || least < 0)
		return 0;
	format_size(above, ws, sizeof(ws));
	format_size(caps[least].bytes, r, sizeof(r));
	snprintf(fl->figure, sizeof(fl->figure), "%s knee above %s", effect, ws);
	snprintf(fl->what, sizeof(fl->what), "%s rises above %s, below the %s reach of %s it would come from",
		 effect, ws, caps[least].what, r);
	snprintf(fl->reason, sizeof(fl->reason), "%s",
		 a->kind == PAGEFX_CACHE ?
		 "it fits a cache instead: the two page sizes' frames sit differently in the cache sets" :
		 "no TLB of this CPU misses there: a difference of the allocations (frames, cache sets) or of the host's paging");
	return 1;
}

void pagefx_hypervisor_note(const char *vendor, char *out, size_t size)
{
	snprintf(out, size,
		 "running under a hypervisor%s%s%s: the host's backing page size and nested paging are part of every figure and cannot be controlled from inside the guest",
		 vendor && vendor[0] ? " (" : "", vendor && vendor[0] ? vendor : "",
		 vendor && vendor[0] ? ")" : "");
}
