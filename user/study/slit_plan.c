// SPDX-License-Identifier: GPL-2.0-only
/*
 * slit_plan.c - what a plan of "pagehop slit" says together, checked
 * before anything is read or measured (slit_study.h).
 */
#include "slit_study.h"
#include "util.h"

#include <string.h>

/* Two outputs named by the same file name: one would overwrite the other.  true after one line. */
static bool same_output(const struct ph_slit_plan *p)
{
	const struct {
		const char *opt, *path;
	} o[] = {
		{ "--save", p->save },
		{ "--emit-acpi", p->acpi.path },
		{ "--emit-hmat", p->hmat_acpi.path },
		{ "--hwloc", p->hwloc },
	};

	for (size_t i = 0; i < ARRAY_SIZE(o); i++)
		for (size_t j = i + 1; j < ARRAY_SIZE(o); j++)
			if (o[i].path && o[j].path && !strcmp(o[i].path, o[j].path) && strcmp(o[i].path, "-")) {
				ph_err("%s and %s: both name %s; give each output its own file", o[i].opt,
				       o[j].opt, o[i].path);
				return true;
			}
	return false;
}

static bool is_stdin(const char *path)
{
	return path && !strcmp(path, "-");
}

int slit_plan_check(const struct ph_slit_plan *p, const char *measuring)
{
	const struct ph_acpi_out *ao = &p->acpi;

	if (!ao->path && !p->hmat_acpi.path && (ao->oem_id || ao->oem_table_id || ao->have_rev)) {
		ph_err("--oem-id, --oem-table-id and --oem-revision only go with --emit-acpi FILE or --emit-hmat FILE");
		return PH_EXIT_USAGE;
	}
	if (p->kernel_version && p->this_kernel) {
		ph_err("--kernel-version and --this-kernel: each names the kernel whose rules apply; give one");
		return PH_EXIT_USAGE;
	}
	if (!ao->path && ao->table_given) {
		ph_err("--slit-table only goes with --emit-acpi FILE");
		return PH_EXIT_USAGE;
	}
	if ((is_stdin(p->input) && is_stdin(p->slit)) ||
	    (is_stdin(p->hmat_table) && (is_stdin(p->input) || is_stdin(p->slit)))) {
		ph_err("--input -, --slit - and --hmat-table -: standard input can be only one of them; give the others as files");
		return PH_EXIT_USAGE;
	}
	if (p->input && measuring) {
		ph_err("%s are for measuring; with --input nothing is measured", measuring);
		return PH_EXIT_USAGE;
	}
	if (!p->input && p->orient) {
		ph_err("--orientation: only for --input; a measurement of this machine has rows = CPU node");
		return PH_EXIT_USAGE;
	}
	if (!p->input && p->fig == PH_FIGURE_DISTANCE) {
		ph_err("--metric distance: only for a CSV --input, a matrix already normalised; measuring gives latency, read and triad");
		return PH_EXIT_USAGE;
	}
	return same_output(p) ? PH_EXIT_USAGE : 0;
}
