// SPDX-License-Identifier: GPL-2.0-only
/*
 * steps.c - the steps of the studies whose engines are services, below
 * this layer (latency.c, bandwidth.c), which therefore cannot name struct
 * ph_steps themselves: their functions take the step signature.
 */
#include "steps.h"
#include "bandwidth.h"
#include "latency.h"

const struct ph_steps latency_steps = {
	.size = sizeof(struct ph_latstudy),
	.plan = latency_study_plan,
	.measure = latency_study_measure,
	.document = latency_study_doc,
	.free = latency_study_free,
};

const struct ph_steps bandwidth_steps = {
	.size = sizeof(struct ph_bwstudy),
	.plan = bandwidth_study_start,
	.measure = bandwidth_study_measure,
	.document = bandwidth_study_doc,
	.free = bandwidth_study_free,
};
