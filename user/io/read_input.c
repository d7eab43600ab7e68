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
