// SPDX-License-Identifier: GPL-2.0-only
/*
 * render.c - a document written out (doc_render, doc_save_json in
 * output.h): provenance taken if the command did not, then one of the
 * three renderings, straight to the stream.
 */
#include "output_impl.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The renderers write with the *_unlocked calls: the stream is locked once, here. */
static void render(struct ph_doc *d, enum ph_format fmt, FILE *f)
{
	if (!d->have_prov) {
		provenance_collect(&d->prov);
		d->have_prov = true;
	}
	/* Taken once: a document saved and then printed says the same. */
	if (!d->have_time && phases_started()) {
		d->have_time = true;
		d->total_until = phases_stopped() ? "measuring done" : "document made";
		for (int i = 0; i < PH_PHASE_COUNT; i++)
			d->phase_s[i] = phase_seconds((enum ph_phase)i);
		d->setup_s = phases_setup();
		d->total_s = phases_total();
	}
	flockfile(f);
	switch (fmt) {
	case PH_FMT_CSV:
		doc_render_csv(d, f);
		break;
	case PH_FMT_JSON:
		doc_render_json(d, f);
		break;
	case PH_FMT_TABLE_VERBOSE:
		doc_render_table(d, f, true);
		break;
	case PH_FMT_TABLE:
	default:
		doc_render_table(d, f, false);
		break;
	}
	funlockfile(f);
}

/*
 * Straight to out: the document is complete before anything is written,
 * and a stream that fails is reported, as a buffer written at once would
 * be; a document of a million rows never sits in memory as text.
 */
int doc_render(struct ph_doc *d, enum ph_format fmt, FILE *out)
{
	int err = 0;

	errno = 0;
	render(d, fmt, out);
	if (fflush(out) || ferror(out)) {
		err = errno ? -errno : -EIO;
		if (out == stdout)
			ph_stdout_failed(-err);
	}
	return err;
}

int doc_save_json(struct ph_doc *d, const char *path, char *why, size_t size)
{
	size_t len = 0;
	char *buf = NULL;
	FILE *m = open_memstream(&buf, &len);
	int err;

	if (!m) {
		snprintf(why, size, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	render(d, PH_FMT_JSON, m);
	if (fclose(m)) {
		free(buf);
		snprintf(why, size, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	err = write_file_atomic(path, buf, len, why, size);
	free(buf);
	return err;
}
