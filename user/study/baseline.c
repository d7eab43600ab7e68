// SPDX-License-Identifier: GPL-2.0-only
/*
 * baseline.c - pagehop baseline's steps: diag.c's fingerprint, every
 * figure measured, the document check reads back.
 */
#include "baseline.h"
#include "util.h"

static int baseline_plan(void *state, struct ph_session *s)
{
	struct ph_baseline *b = state;

	diag_plan(&b->d, s, false, 0, now_mono_raw());
	diag_set_repeats(&b->d, (int)b->repeats);
	diag_set_dist(&b->d, &b->dist);
	return 0;
}

static int baseline_measure(void *state, struct ph_session *s)
{
	struct ph_diag *d = &((struct ph_baseline *)state)->d;
	int rc = diag_measure(d, s);

	if (!d->nmeasured && !rc) {
		ph_err("no figure could be measured; the reasons are above");
		rc = PH_EXIT_FAIL;
	}
	if (!d->nmeasured && rc == PH_EXIT_INTERRUPTED)
		ph_err("interrupted before anything was measured");
	return rc;
}

static bool baseline_measured(const void *state)
{
	return ((const struct ph_baseline *)state)->d.nmeasured > 0;
}

/* A figure skipped fails the run, after --save: the reference holds the others. */
static struct ph_doc *baseline_doc(void *state, struct ph_session *s, int *rc)
{
	struct ph_diag *d = &((struct ph_baseline *)state)->d;
	struct ph_doc *doc = diag_doc(d, s, "baseline", NULL, PH_H_OK, NULL, NULL);

	diag_load_doc(d, doc);
	if (!*rc && d->nskipped)
		*rc = PH_EXIT_FAIL;
	return doc;
}

static void baseline_free(void *state, struct ph_session *s)
{
	(void)s;
	diag_free(&((struct ph_baseline *)state)->d);
}

const struct ph_steps baseline_steps = {
	.size = sizeof(struct ph_baseline),
	.plan = baseline_plan,
	.measure = baseline_measure,
	.measured = baseline_measured,
	.document = baseline_doc,
	.free = baseline_free,
};
