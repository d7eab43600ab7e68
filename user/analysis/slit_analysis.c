// SPDX-License-Identifier: GPL-2.0-only
/*
 * slit_analysis.c - the whole analysis of one matrix against SLIT and HMAT:
 * normalisation, levels, order, magnitude, asymmetry, the per-hop model,
 * the proposal and the HMAT comparison, in that order.
 */
#include "distance_impl.h"
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- evidence ---- */

/*
 * The analysed cells without the evidence for a verdict.  A matrix none
 * of whose cells carries a sample count (a published table, a CSV) is
 * figures as given: nothing is lacking, and the report says so.  Once
 * any cell carries a count, every analysed cell needs
 * PH_EVIDENCE_MIN_SAMPLES and its CI target met.
 */
static void evidence(const struct ph_nmatrix *m, struct ph_analysis *a)
{
	size_t n = (size_t)m->nrows * m->ncols;

	for (size_t k = 0; k < n; k++)
		if (isfinite(m->val[k]) && m->samples[k] > 0)
			a->ncounted++;
	a->have_counts = a->ncounted > 0;
	if (!a->have_counts)
		return;
	a->lacking = xmalloc((n ? n : 1) * sizeof(int));
	for (size_t k = 0; k < n; k++)
		if (isfinite(m->val[k]) &&
		    (m->samples[k] < PH_EVIDENCE_MIN_SAMPLES || m->ci_missed[k]))
			a->lacking[a->nlacking++] = (int)k;
}

/* ---- everything ---- */

int analysis_run(const struct ph_nmatrix *m, const struct ph_slit *slit,
		 const struct ph_dist_opts *o, struct ph_analysis *a)
{
	size_t n = (size_t)m->nrows * m->ncols;
	int err, ncompared = 0;

	memset(a, 0, sizeof(*a));
	a->m = m;
	a->opts = *o;
	if (slit && !slit_linux_check(slit->n, slit->dist, &a->slit_check)) {
		a->slit_rejected = true;
		a->slit_default = slit_linux_default(slit);
		slit = a->slit_default;
	}
	err = dist_normalise(m, slit, o->noise, &a->dm);
	if (err) {
		dmatrix_free(&a->dm);
		slit_free(a->slit_default);
		a->slit_default = NULL;
		return err;
	}
	levels_measured(&a->dm, &a->measured);
	if (slit) {
		levels_slit(&a->dm, slit, o->tolerance, &a->slit);
		for (size_t k = 0; k < n; k++)
			if (a->slit.cell[k] >= 0)
				ncompared++;
	}
	a->have_slit = ncompared > 0;
	if (a->have_slit) {
		a->nviol = ordering_violations(&a->dm, slit, &a->viol);
		if (a->measured.n == a->slit.n)
			for (size_t k = 0; k < n; k++)
				if (a->slit.cell[k] >= 0 && a->measured.cell[k] >= 0 &&
				    a->slit.cell[k] != a->measured.cell[k])
					a->nlevel_cells_differ++;
		a->nmag = magnitude_check(&a->dm, slit, o->tolerance, &a->mag, &a->nmag_out);
	}
	a->nasym = asymmetry_check(m, &a->dm, o->noise, &a->asym);
	for (int i = 0; i < a->nasym; i++)
		if (a->asym[i].beyond)
			a->nasym_beyond++;
	hop_model(m, &a->dm, &a->measured, &a->hops);
	{
		struct ph_proposal cells, lvls;

		slit_propose(&a->dm, slit, &cells);
		slit_propose_levels(m, &a->dm, &a->measured, a->asym, a->nasym, slit, &lvls);
		a->prop = o->proposal == PH_PROPOSE_CELLS ? cells : lvls;
		a->prop_other = o->proposal == PH_PROPOSE_CELLS ? lvls : cells;
	}
	evidence(m, a);

	if (!a->have_slit)
		a->verdict = PH_VERDICT_UNCOMPARED;
	else if (a->nviol || a->measured.n != a->slit.n || a->nlevel_cells_differ)
		a->verdict = PH_VERDICT_INCONSISTENT;
	else if (a->nmag_out)
		a->verdict = PH_VERDICT_MAGNITUDE;
	else
		a->verdict = PH_VERDICT_CONSISTENT;
	a->verdict_figures = a->verdict;
	if (a->nlacking)
		a->verdict = PH_VERDICT_CANNOT_TELL;
	return 0;
}

void analysis_free(struct ph_analysis *a)
{
	dmatrix_free(&a->dm);
	levels_free(&a->measured);
	levels_free(&a->slit);
	free(a->viol);
	free(a->mag);
	free(a->asym);
	hop_model_free(&a->hops);
	proposal_free(&a->prop);
	proposal_free(&a->prop_other);
	free(a->lacking);
	slit_free(a->slit_default);
	memset(a, 0, sizeof(*a));
}
