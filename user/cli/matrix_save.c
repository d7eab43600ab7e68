// SPDX-License-Identifier: GPL-2.0-only
/*
 * matrix_save.c - --save of "pagehop matrix" and "pagehop slit", a cell
 * at a time (matrix_save.h).
 */
#include "matrix_save.h"
#include "matrix_doc.h"
#include "output.h"
#include "util.h"

#include <string.h>

/*
 * Write the document to path, if it holds a measured cell: an existing
 * file is never replaced by a matrix with nothing in it.  0 or an exit code.
 */
static int save(const struct ph_mx *mx, struct ph_session *s, const char *path)
{
	struct ph_doc *d;
	char why[256];
	int e;

	if (!mx->ncellv) {
		ph_err("--save %s: nothing was measured; %s", path,
		       strcmp(path, "-") && path_exists(path) ? "the file is left as it was"
							      : "nothing written");
		return 0;
	}
	d = matrix_doc(mx, s, false);	/* JSON: CPU rows */
	e = doc_save_json(d, path, why, sizeof(why));
	doc_free(d);
	if (e) {
		ph_err("--save %s: %s", path, why);
		return PH_EXIT_FAIL;
	}
	return 0;
}

int matrix_save_cell(void *ctx, const struct ph_mx *mx, bool last, int rc)
{
	struct ph_mx_save *sv = ctx;
	/* Standard output takes one document, at the end, not one per cell. */
	bool to_stdout = !strcmp(sv->path, "-");

	if (sv->failed)
		return 0;
	/* At the end, a file is written again only if the run was cut short. */
	if (last ? !(rc || mx->interrupted || to_stdout) : to_stdout)
		return 0;
	rc = save(mx, sv->s, sv->path);
	sv->failed = rc != 0;
	return rc;
}
