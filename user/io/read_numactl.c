// SPDX-License-Identifier: GPL-2.0-only
/*
 * read_numactl.c - the SLIT as "numactl --hardware" prints it.
 */
#include "read_numactl.h"
#include "read_text.h"
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* "node 0 1 2" -> ids; false when the line is not that. */
static bool numactl_header(char *line, int **ids, int *n)
{
	char *save = NULL, *tok = strtok_r(line, " \t", &save);

	*ids = NULL;
	*n = 0;
	if (!tok || strcmp(tok, "node"))
		return false;
	while ((tok = strtok_r(NULL, " \t", &save))) {
		int id;

		if (!parse_node_id(tok, &id) || *n >= PH_MAX_NODES) {
			free(*ids);
			*ids = NULL;
			return false;
		}
		*ids = xrealloc(*ids, (*n + 1) * sizeof(int));
		(*ids)[(*n)++] = id;
	}
	return *n > 0;
}

int slit_parse_numactl(const char *path, const char *text,
		       struct ph_slit **out, char *err, size_t errlen)
{
	char *copy = xstrdup(text), **lines;
	int nl = text_lines(copy, &lines), hdr = -1, *ids = NULL, n = 0, ret = 0, i;
	bool *seen = NULL;
	struct ph_slit *s = NULL;

	*out = NULL;
	ret = text_last_line(path, text, err, errlen);
	if (ret)
		goto out;
	/* The header follows "node distances:"; a bare table is fine too. */
	for (i = 0; i < nl; i++) {
		char *line = text_trim(lines[i]);

		if (!strcmp(line, "node distances:")) {
			hdr = i + 1;
			break;
		}
		if (strstr(line, "No distance information")) {
			ret = read_err(err, errlen, "%s:%d: numactl found no distance information (no SLIT); expected a 'node distances:' table",
				       path, i + 1);
			goto out;
		}
	}
	if (hdr < 0) {
		for (i = 0; i < nl; i++) {
			const char *p = lines[i];

			/* "node" and a blank, then a digit: not "node 0 cpus: ..." and the like. */
			while (isspace((unsigned char)*p))
				p++;
			if (strncmp(p, "node", 4) || !isspace((unsigned char)p[4]))
				continue;
			for (p += 4; isspace((unsigned char)*p); p++)
				;
			if (isdigit((unsigned char)*p) && !strstr(p, "cpus") && !strstr(p, "size") &&
			    !strstr(p, "free")) {
				hdr = i;
				break;
			}
		}
	}
	if (hdr < 0) {
		ret = read_err(err, errlen, "%s: no 'node distances:' table; expected the output of numactl --hardware",
			       path);
		goto out;
	}
	while (hdr < nl && !*text_trim(lines[hdr]))
		hdr++;
	if (hdr >= nl) {
		ret = read_err(err, errlen, "%s:%d: the file ends after 'node distances:'; expected a header 'node 0 1 ...'",
			       path, nl);
		goto out;
	}
	{
		char *h = xstrdup(text_trim(lines[hdr]));
		bool ok = numactl_header(h, &ids, &n);

		free(h);
		if (!ok) {
			ret = read_err(err, errlen, "%s:%d: expected the header 'node 0 1 ...', got '%s'",
				       path, hdr + 1, text_trim(lines[hdr]));
			goto out;
		}
	}
	s = slit_new(n, ids);
	seen = xcalloc(n, sizeof(bool));
	for (int r = 0; r < n; r++) {
		int ln = hdr + 2 + r, id, idx;
		const char *rest;
		char *line;

		if (ln > nl) {
			ret = read_err(err, errlen, "%s:%d: the file ends after %d of %d rows; expected a row for every node of the header",
				       path, nl, r, n);
			goto out;
		}
		line = text_trim(lines[ln - 1]);
		rest = line;
		/* "N:" exactly as numactl prints it; anything else is not a row. */
		if (!node_id_prefix(&rest, &id) || *rest != ':') {
			ret = read_err(err, errlen, "%s:%d: expected a row 'N: %d distances' (a node id, a colon, then the distances), got '%s'",
				       path, ln, n, line);
			goto out;
		}
		idx = -1;
		for (int j = 0; j < n; j++)
			if (ids[j] == id)
				idx = j;
		if (idx < 0 || seen[idx]) {
			ret = read_err(err, errlen, "%s:%d: row for node %d; expected one row for each node of the header, once",
				       path, ln, id);
			goto out;
		}
		seen[idx] = true;
		line = (char *)rest + 1;
		for (int c = 0; c < n; c++) {
			char *end;
			long v;

			while (isspace((unsigned char)*line))
				line++;
			v = strtol(line, &end, 10);
			if (end == line || v < 0 || v > 255 || (*end && !isspace((unsigned char)*end))) {
				ret = read_err(err, errlen, "%s:%d: node %d: distance %d of %d missing or not 0..255; expected %d distances",
					       path, ln, id, c + 1, n, n);
				goto out;
			}
			s->dist[idx * n + c] = (int)v;
			line = end;
		}
		if (*text_trim(line)) {
			ret = read_err(err, errlen, "%s:%d: node %d: more than %d distances; expected one per node of the header",
				       path, ln, id, n);
			goto out;
		}
	}
	*out = s;
	s = NULL;
out:
	slit_free(s);
	free(seen);
	free(ids);
	free(lines);
	free(copy);
	return ret;
}

int slit_parse(const char *path, const char *buf, size_t len, struct ph_slit **out,
	       char *err, size_t errlen)
{
	size_t start;
	char *text;
	int ret;

	*out = NULL;
	ret = text_check(path, buf, len, &start, err, errlen);
	if (ret)
		return ret;
	text = text_copy(buf, len, start);
	ret = slit_parse_numactl(path, text, out, err, errlen);
	free(text);
	return ret;
}

int slit_load_numactl(const char *path, struct ph_slit **out, char *err,
		      size_t errlen)
{
	char *buf;
	size_t len;
	int ret;

	*out = NULL;
	ret = read_input_file("--slit", path, &buf, &len, err, errlen);
	if (ret)
		return ret;
	ret = slit_parse(input_name(path), buf, len, out, err, errlen);
	free(buf);
	return ret;
}
