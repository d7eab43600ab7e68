// SPDX-License-Identifier: GPL-2.0-only
/*
 * read_fleet.c - a fleet's saved documents (read_fleet.h).
 */
#include "read_fleet.h"
#include "read_baseline.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void skip(struct ph_fleet_docs *d, const char *path, const char *why)
{
	xreserve(&d->skipped, &d->skipped_cap, (size_t)d->nskipped + 1, sizeof(*d->skipped));
	d->skipped[d->nskipped++] = (struct ph_skipped){ .path = xstrdup(path), .why = xstrdup(why) };
}

/* One file: its document appended, or why not. */
static void read_one(struct ph_fleet_docs *d, const char *path)
{
	struct ph_hset *one;
	char err[1024];
	int n;

	if (baseline_load(path, &one, &n, err, sizeof(err))) {
		skip(d, path, err);
		return;
	}
	xreserve(&d->sets, &d->sets_cap, (size_t)d->n + 1, sizeof(*d->sets));
	d->sets[d->n++] = *one;
	free(one);
}

static int is_document(const struct dirent *e)
{
	size_t l = strlen(e->d_name);

	return e->d_name[0] != '.' && l > 5 && !strcmp(e->d_name + l - 5, ".json");
}

/* Byte order, whatever the locale: the order documents are read in is the same everywhere. */
static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

void fleet_read(struct ph_fleet_docs *d, const char *path)
{
	struct dirent **names;
	struct stat st;
	char why[1024];
	int n;

	if (stat(path, &st) || !S_ISDIR(st.st_mode)) {
		read_one(d, path);	/* says why it cannot be read */
		return;
	}
	n = scandir(path, &names, is_document, by_name);
	if (n < 0) {
		snprintf(why, sizeof(why), "%s: %s", path, strerror(errno));
		skip(d, path, why);
		return;
	}
	if (!n) {
		snprintf(why, sizeof(why), "%s: no document in the directory (no *.json file)", path);
		skip(d, path, why);
	}
	for (int i = 0; i < n; i++) {
		char *file = xasprintf("%s/%s", path, names[i]->d_name);

		if (names[i]->d_type == DT_DIR) {
			snprintf(why, sizeof(why), "%s: a directory, not a document", file);
			skip(d, file, why);
		} else {
			read_one(d, file);
		}
		free(file);
		free(names[i]);
	}
	free(names);
}

void fleet_docs_free(struct ph_fleet_docs *d)
{
	for (int i = 0; i < d->nskipped; i++) {
		free(d->skipped[i].path);
		free(d->skipped[i].why);
	}
	free(d->skipped);
	baseline_free(d->sets, d->n);
	memset(d, 0, sizeof(*d));
}
