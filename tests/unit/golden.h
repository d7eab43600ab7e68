/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * golden.h - compare a rendering with a golden file under tests/data/golden.
 * PAGEHOP_UPDATE_GOLDEN=1 rewrites the file instead (then read the diff).
 */
#ifndef PAGEHOP_GOLDEN_H
#define PAGEHOP_GOLDEN_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline char *golden_read(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	*len = fread(buf, 1, (size_t)n, f);
	buf[*len] = '\0';
	fclose(f);
	return buf;
}

/* 0 if text equals the golden file; prints both on mismatch. */
static inline int golden_compare(const char *name, const char *text)
{
	char path[256];
	size_t len = 0;
	char *want;
	int rc;

	snprintf(path, sizeof(path), "tests/data/golden/%s", name);
	if (getenv("PAGEHOP_UPDATE_GOLDEN")) {
		FILE *f = fopen(path, "wb");

		if (!f)
			return -1;
		fputs(text, f);
		fclose(f);
		return 0;
	}
	want = golden_read(path, &len);
	if (!want) {
		fprintf(stderr, "golden file %s missing (PAGEHOP_UPDATE_GOLDEN=1 creates it)\n", path);
		return -1;
	}
	rc = strcmp(want, text) ? -1 : 0;
	if (rc)
		fprintf(stderr, "--- %s (golden)\n%s\n--- got\n%s\n", path, want, text);
	free(want);
	return rc;
}

#endif
