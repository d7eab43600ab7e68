// SPDX-License-Identifier: GPL-2.0-only
/*
 * read_input.c - --input: JSON or CSV, by the first character of the text.
 */
#include "read_input.h"
#include "read_csv.h"
#include "read_json.h"
#include "read_text.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

int input_parse(const char *path, const char *buf, size_t len, enum ph_figure fig,
		struct ph_input *in, char *err, size_t errlen)
{
	size_t start;
	const char *p;
	char *text;
	int ret;

	memset(in, 0, sizeof(*in));
	ret = text_check(path, buf, len, &start, err, errlen);
	if (ret)
		return ret;
	text = text_copy(buf, len, start);
	for (p = text; isspace((unsigned char)*p); p++)
		;
	if (*p == '{')
		ret = input_parse_json(path, text, fig, in, err, errlen);
	else
		ret = input_parse_csv(path, text, fig, in, err, errlen);
	free(text);
	return ret;
}

int input_load(const char *path, enum ph_figure fig, struct ph_input *in,
	       char *err, size_t errlen)
{
	char *buf;
	size_t len;
	int ret;

	memset(in, 0, sizeof(*in));
	ret = read_input_file("--input", path, &buf, &len, err, errlen);
	if (ret)
		return ret;
	ret = input_parse(input_name(path), buf, len, fig, in, err, errlen);
	free(buf);
	return ret;
}

int input_orient(struct ph_input *in, enum ph_orient want, const char *path,
		 char *err, size_t errlen)
{
	enum ph_orient said = in->json ? PH_ORIENT_CPU_ROWS : in->rows;
	struct ph_nmatrix *t;

	if (!want)
		return 0;
	if (said && said != want) {
		if (in->json)
			return read_err(err, errlen, "--orientation %s: %s is pagehop's JSON, whose rows are CPU nodes",
					orient_name(want), path);
		if (in->rows_line)
			return read_err(err, errlen, "--orientation %s: %s:%d says the rows are %s nodes",
					orient_name(want), path, in->rows_line,
					said == PH_ORIENT_MEM_ROWS ? "memory" : "CPU");
		return read_err(err, errlen, "--orientation %s: %s has a 'MEM CPU' corner: its rows are memory nodes",
				orient_name(want), path);
	}
	if (!said && want == PH_ORIENT_MEM_ROWS) {
		t = nmatrix_transpose(in->m);
		nmatrix_free(in->m);
		in->m = t;
	}
	in->rows = want;
	return 0;
}
